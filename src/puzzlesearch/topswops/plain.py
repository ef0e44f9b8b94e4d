"""Both searches in plain recursive Python: the references the tests compare the kernels with.

They search the same trees as the kernels (backward.py, forward.py explain the methods),
on lists and dicts, a few hundred times slower: for small n only.
"""

from __future__ import annotations

from collections.abc import Sequence

from puzzlesearch.topswops.bounds import first_target


def backward(n: int) -> tuple[int, list[tuple[int, ...]]]:
    """backward.solve_backward's search in plain recursive Python (small n): f(n) and
    the partial decks at the deepest level (0 = undetermined)."""
    best, found = 0, [tuple([1] + [0] * (n - 1))]

    def undo(deck: list[int], depth: int) -> None:
        nonlocal best, found
        for k in range(1, n):
            if deck[k] == 0 and (k + 1) not in deck:
                prev = deck[:]
                prev[k] = k + 1
            elif deck[k] == k + 1:
                prev = deck[:]
            else:
                continue
            prev[: k + 1] = prev[: k + 1][::-1]
            if depth + 1 > best:
                best, found = depth + 1, []
            if depth + 1 == best:
                found.append(tuple(prev))
            undo(prev, depth + 1)

    undo([1] + [0] * (n - 1), 0)
    return best, sorted(found)


def forward(n: int, bounds: list[int], target: int | None = None,
            prefix: Sequence[int] = (), nodes: list[int] | None = None) -> tuple[int, list[tuple[int, ...]]]:
    """forward.search's branch-and-bound in plain recursive Python, on lists
    (small n, or a small subtree). Placeholders are -j; returns (f(n), every deck reaching
    it). `target`: the first target (default f(n-1) + 1); `prefix`: search only below
    these first choices, as the kernels do below a task's prefix. `nodes`: a list that
    receives the nodes after l choices at index l, counted as the kernels count them
    (every child that is not pruned, and every leaf; a leaf is never pruned, its game is
    played out)."""
    best, found = -1, []
    target = first_target(bounds, n) if target is None else target
    if nodes is not None:
        nodes[:] = [0] * (n + 2)
        nodes[0] = 1

    def count(depth: int) -> None:
        if nodes is not None:
            nodes[depth] += 1

    def leaf(steps: int, chosen: dict[int, int]) -> None:
        nonlocal best, found, target
        if steps < target:
            return
        deck = [chosen.get(j) for j in range(1, n + 1)]
        rest = sorted(set(range(1, n + 1)) - set(chosen.values()))
        for i, x in enumerate(deck):
            if x is None:
                deck[i] = rest.pop(0)
        if steps > best:
            best, found, target = steps, [], max(target, steps)
        found.append(tuple(deck))

    def choose(deck: list[int], steps: int, chosen: dict[int, int], fixed: int) -> None:
        j = -deck[0]
        free = [v for v in range(2, n + 1) if v not in chosen.values()]
        allowed = [v for v in free if v != j]
        if not allowed:
            count(len(chosen) + 1)
            leaf(steps, {**chosen, j: 1})
            return
        if len(chosen) < len(prefix):
            allowed = [v for v in allowed if v == prefix[len(chosen)]]
        for v in allowed:
            now = {**chosen, j: v}
            d = [v, *deck[1:]]
            if len(now) == n - 1:
                d = [1 if x < 0 else x for x in d]  # the one placeholder left is 1
            c, t = steps, fixed
            while d[0] > 1:  # play while the top card is known (placeholders are < 0)
                k = d[0]
                d[:k] = d[:k][::-1]
                c += 1
                if k == t:  # card t reached the bottom of the moving part: the bottom block grows
                    while t > 1 and d[t - 1] == t:
                        t -= 1
                    if c + bounds[t] < target:
                        break
            if len(now) == n - 1:
                count(len(now))
                leaf(c, now)  # a game pruned on its way cannot reach the target
                continue
            if t < n and c + bounds[t] < target:
                continue
            count(len(now))
            choose(d, c, now, t)

    choose([-(i + 1) for i in range(n)], 0, {}, n)
    return best, sorted(found)


__all__ = ["backward", "forward"]
