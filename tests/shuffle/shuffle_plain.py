"""Second methods for the shuffle tests: plain dictionary-and-deque BFS over tuples."""

from __future__ import annotations

from collections import deque

from puzzlesearch.shuffle import puzzle


def _plain_bfs(p: puzzle.PermPuzzle, start) -> tuple[dict, dict]:
    """Plain BFS from start with path counting: (distance, number of shortest sequences) per deck."""
    dist, ways = {start: 0}, {start: 1}
    queue = deque([start])
    while queue:
        deck = queue.popleft()
        for j in range(len(p.moves)):
            nxt = p.apply(deck, j)
            if nxt not in dist:
                dist[nxt], ways[nxt] = dist[deck] + 1, 0
                queue.append(nxt)
            if dist[nxt] == dist[deck] + 1:
                ways[nxt] += ways[deck]
    return dist, ways


def plain_counts(p: puzzle.PermPuzzle, start, goal) -> tuple[int, int]:
    """Distance and number of shortest move sequences, by plain BFS with path counting."""
    dist, ways = _plain_bfs(p, start)
    return dist.get(goal, -1), ways.get(goal, 0)


def plain_distances(p: puzzle.PermPuzzle, start) -> dict[tuple[int, ...], int]:
    """Every deck reachable from start with its distance."""
    return _plain_bfs(p, start)[0]


def plain_histogram(p: puzzle.PermPuzzle) -> list[int]:
    """Decks at each distance from the sorted one."""
    dist = plain_distances(p, tuple(range(1, p.size + 1)))
    hist = [0] * (max(dist.values()) + 1)
    for d in dist.values():
        hist[d] += 1
    return hist
