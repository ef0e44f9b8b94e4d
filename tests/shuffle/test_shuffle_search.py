"""The searches: published values, replayed witnesses, and the two methods against each other."""

from __future__ import annotations

import random
from collections import deque
from math import factorial

import numpy as np
import pytest

from conftest import load_data
from puzzlesearch import shuffle
from puzzlesearch.shuffle import bidir, fullbfs, puzzle, ranking, rules, words
from puzzlesearch.shuffle.bidir import shortest_path

REF = load_data("shuffle")


@pytest.mark.parametrize("n", [2, 3, 5])
def test_reversal_matches_published(n):
    path = shuffle.solve(n)
    assert path.moves == REF["block_shuffle_reversal"]["values"][str(n)]
    start = tuple(range(1, 2 * n + 1))
    assert rules.play_shuffles(start, path.sequence, n) == start[::-1]
    assert all(1 <= k <= n for k in path.sequence)


@pytest.mark.parametrize("n", [1, 4, 6])
def test_reversal_sequences_replay(n):
    path = shuffle.solve(n)
    start = tuple(range(1, 2 * n + 1))
    assert len(path.sequence) == path.moves
    assert rules.play_shuffles(start, path.sequence, n) == start[::-1]


def _plain_counts(p: puzzle.PermPuzzle, start, goal) -> tuple[int, int]:
    """Distance and number of shortest move sequences, by plain BFS with path counting."""
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
    return dist.get(goal, -1), ways.get(goal, 0)


@pytest.mark.parametrize("deck,block", [(4, 2), (6, 3), (8, 4), (7, 2), (7, 5)])
def test_count_paths_matches_plain_bfs(deck, block):
    p = puzzle.block_shuffle_puzzle(deck, block)
    start, goal = tuple(range(1, deck + 1)), tuple(range(deck, 0, -1))
    path = shortest_path(p, start, goal, count_paths=True)
    assert (path.moves, path.paths) == _plain_counts(p, start, goal)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_kernel_path_agrees_with_numpy_path(n, monkeypatch):
    small = shuffle.solve(n, count_paths=True)
    monkeypatch.setattr(bidir, "SMALL", 0)  # every layer through the numba kernels
    big = shuffle.solve(n, count_paths=True)
    assert (big.moves, big.paths, big.layers) == (small.moves, small.paths, small.layers)
    start = tuple(range(1, 2 * n + 1))
    assert rules.play_shuffles(start, big.sequence, n) == start[::-1]


def test_pancake_paths_from_any_stack():
    rng = random.Random(5)
    p = puzzle.pancake_puzzle(7)
    for _ in range(10):
        stack = tuple(rng.sample(range(1, 8), 7))
        path = shuffle.solve_pancakes(stack, count_paths=True)
        assert (path.moves, path.paths) == _plain_counts(p, stack, tuple(range(1, 8)))
        assert rules.play_flips(stack, path.sequence) == tuple(range(1, 8))


def test_full_bfs_of_n3_reaches_all_720():
    c = shuffle.god(3)
    assert c.states == 720 and sum(c.histogram) == 720
    depth, compressed, _, _ = fullbfs.distances(puzzle.block_shuffle_puzzle(6, 3))
    assert not compressed
    assert depth[ranking.rank_deck((6, 5, 4, 3, 2, 1))] == REF["block_shuffle_reversal"]["values"]["3"]


def test_n6_reaches_only_even_decks():
    # blocks of 6 are even permutations: half of 12! at most; god mode indexes only that half
    size, compressed = fullbfs.index_size(puzzle.block_shuffle_puzzle(12, 6))
    assert compressed and size == 239_500_800


@pytest.mark.parametrize("n", range(1, 9))
def test_pancake_diameters_are_pancake_numbers(n):
    c = shuffle.pancake_god(n)
    assert c.diameter == REF["pancake_numbers"]["values"][n - 1]
    assert c.states == factorial(n)
    for stack in c.farthest:
        assert shuffle.solve_pancakes(stack).moves == c.diameter


@pytest.mark.parametrize("deck,block", [(8, 4), (7, 3), (8, 2)])
def test_bidirectional_agrees_with_full_bfs_on_random_targets(deck, block):
    p = puzzle.block_shuffle_puzzle(deck, block)
    depth, compressed, par, _ = fullbfs.distances(p)
    rng = random.Random(deck * 10 + block)
    start = tuple(range(1, deck + 1))
    reached = np.flatnonzero(depth != fullbfs.UNSEEN)
    for i in rng.sample(list(reached), 25):
        goal = ranking.unrank_deck(int(i), deck, compressed, par)
        path = shortest_path(p, start, goal)
        assert path.moves == depth[i]
        assert p.play(start, path.sequence) == goal


def test_generic_puzzle_bidirectional_vs_full_bfs():
    rng = random.Random(11)
    moves = []
    for _ in range(3):
        perm = list(range(7))
        rng.shuffle(perm)
        moves.append(tuple(perm))
    p = puzzle.PermPuzzle("random moves", 7, tuple(moves), (1, 2, 3))
    depth, compressed, par, _ = fullbfs.distances(p)
    for i in rng.sample(range(len(depth)), 40):
        goal = ranking.unrank_deck(i, 7, compressed, par)
        path = shortest_path(p, tuple(range(1, 8)), goal)
        assert path.moves == (-1 if depth[i] == fullbfs.UNSEEN else depth[i])


def test_histogram_matches_plain_bfs():
    p = puzzle.block_shuffle_puzzle(7, 3)
    start = tuple(range(1, 8))
    dist = {start: 0}
    queue = deque([start])
    while queue:
        deck = queue.popleft()
        for j in range(len(p.moves)):
            nxt = p.apply(deck, j)
            if nxt not in dist:
                dist[nxt] = dist[deck] + 1
                queue.append(nxt)
    c = shuffle.god(deck=7, block=3, show=1000)
    want = [0] * (max(dist.values()) + 1)
    for d in dist.values():
        want[d] += 1
    assert list(c.histogram) == want
    assert c.farthest_count == want[-1]
    assert all(dist[f] == c.diameter for f in c.farthest)


def test_odd_goal_unreachable_with_even_moves():
    path = shuffle.solve(deck=6, block=2, goal=(2, 1, 3, 4, 5, 6))
    assert path.moves == -1 and path.sequence == ()


def test_start_equals_goal():
    assert shuffle.solve(3, goal=(1, 2, 3, 4, 5, 6)).moves == 0


def test_memory_refusals():
    with pytest.raises(MemoryError, match="needs"):
        shuffle.god(5, memory=1 << 20)
    with pytest.raises(MemoryError, match="would need"):
        shuffle.solve(6, memory=1 << 20)


def test_checked_first_layer_is_built_the_same():
    p = puzzle.block_shuffle_puzzle(12, 6)
    moves = words.segments(p.moves)
    nowhere = np.array([0], dtype=np.uint64)  # word 0 is no deck (all card 1): nothing meets it
    layers = [np.array([words.pack(range(1, 13))], dtype=np.uint64)]
    while len(layers[-1]) * 6 <= bidir.SMALL:
        layers.append(bidir._grow(layers, nowhere, moves, 1 << 32, 0, False)[0])
    kept, _ = bidir._grow(layers, nowhere, moves, 1 << 32, 0, False, keep=True)
    second, _ = bidir._grow(layers, nowhere, moves, 1 << 32, 0, False, keep=False)
    assert len(kept) > bidir.SMALL // 6 and np.array_equal(kept, second)
    assert np.all(kept[1:] > kept[:-1])  # sorted, no repeats
