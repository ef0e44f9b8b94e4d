"""The searches: published values, replayed witnesses, and the two methods against each other."""

from __future__ import annotations

import doctest
import random
from math import factorial

import pytest
from shuffle_plain import plain_counts, plain_distances, plain_histogram

from conftest import load_data
from puzzlesearch import shuffle
from puzzlesearch.engine import layers
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.shuffle import api, bidir, fullbfs, puzzle, ranking, rules
from puzzlesearch.shuffle.bidir import shortest_path

REF = load_data("shuffle")


@pytest.mark.parametrize("n", [2, 3, 5])
def test_reversal_matches_published(n):
    path = shuffle.solve(n)
    assert path.moves == REF["block_shuffle_reversal"]["values"][str(n)]
    start = tuple(range(1, 2 * n + 1))
    assert rules.play_shuffles(start, path.sequence, n) == start[::-1]
    assert all(1 <= k <= n for k in path.sequence)


@pytest.mark.parametrize("n", [1, 4])
def test_reversal_matches_the_plain_bfs(n):
    path = shuffle.solve(n)
    start = tuple(range(1, 2 * n + 1))
    assert path.moves == len(path.sequence) == rules.shuffle_distance(n)
    assert rules.play_shuffles(start, path.sequence, n) == start[::-1]


def test_reversal_n6_replays_in_14_moves():
    # 14 is also the distance of the reversed deck in the full BFS of n = 6 (`shuffle god -n 6`,
    # 85 s: too long for the suite; README "Computed by this program")
    path = shuffle.solve(6)
    start = tuple(range(1, 13))
    assert path.moves == len(path.sequence) == 14
    assert rules.play_shuffles(start, path.sequence, 6) == start[::-1]


@pytest.mark.parametrize("deck,block", [(4, 2), (6, 3), (8, 4), (7, 2), (7, 5)])
def test_count_paths_matches_plain_bfs(deck, block):
    p = puzzle.block_shuffle_puzzle(deck, block)
    start, goal = tuple(range(1, deck + 1)), tuple(range(deck, 0, -1))
    path = shortest_path(p, start, goal, count_paths=True)
    assert (path.moves, path.paths) == plain_counts(p, start, goal)


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
        assert (path.moves, path.paths) == plain_counts(p, stack, tuple(range(1, 8)))
        assert rules.play_flips(stack, path.sequence) == tuple(range(1, 8))


def test_full_bfs_of_n3_reaches_all_720():
    c = shuffle.god(3)
    assert c.states == 720 and sum(c.histogram) == 720
    assert fullbfs.index_size(puzzle.block_shuffle_puzzle(6, 3)) == (720, False)
    dist = plain_distances(puzzle.block_shuffle_puzzle(6, 3), tuple(range(1, 7)))
    assert dist[(6, 5, 4, 3, 2, 1)] == REF["block_shuffle_reversal"]["values"]["3"]


def test_n6_indexes_only_even_decks():
    # blocks of 6 are even permutations: half of 12! at most; god mode indexes only that half
    size, compressed = fullbfs.index_size(puzzle.block_shuffle_puzzle(12, 6))
    assert compressed and size == 239_500_800


@pytest.mark.parametrize("deck", range(2, 11))
def test_parity_from_the_sizes_alone_is_the_built_puzzles(deck):
    # the refusals check D!/2 or D! bytes before building the puzzle: from B alone
    for block in range(1, deck):
        p = puzzle.block_shuffle_puzzle(deck, block)
        assert puzzle.block_moves_even(block) == p.all_moves_even()
        size, compressed = fullbfs.index_size(p)
        assert size == puzzle.census_states(deck, puzzle.block_moves_even(block))
    q = puzzle.pancake_puzzle(deck)
    assert fullbfs.index_size(q) == (factorial(deck), False)  # the api's half=False for pancakes


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
    rng = random.Random(deck * 10 + block)
    start = tuple(range(1, deck + 1))
    dist = plain_distances(p, start)
    for goal in rng.sample(sorted(dist), 25):
        path = shortest_path(p, start, goal)
        assert path.moves == dist[goal]
        assert p.play(start, path.sequence) == goal


def test_generic_puzzle_bidirectional_vs_full_bfs():
    rng = random.Random(11)
    moves = []
    for _ in range(3):
        perm = list(range(7))
        rng.shuffle(perm)
        moves.append(tuple(perm))
    p = puzzle.PermPuzzle("random moves", 7, tuple(moves), (1, 2, 3))
    dist = plain_distances(p, tuple(range(1, 8)))
    for i in rng.sample(range(factorial(7)), 40):
        goal = ranking.unrank_deck(i, 7)
        path = shortest_path(p, tuple(range(1, 8)), goal)
        assert path.moves == dist.get(goal, -1)
    census = fullbfs.census(p, show=10_000)  # the whole-space search agrees too
    assert census.states == len(dist)
    want = [sum(1 for d in dist.values() if d == k) for k in range(census.diameter + 1)]
    assert list(census.histogram) == want
    assert all(dist[deck] == census.diameter for deck in census.farthest)


def test_histogram_matches_plain_bfs():
    p = puzzle.block_shuffle_puzzle(7, 3)
    dist = plain_distances(p, tuple(range(1, 8)))
    c = shuffle.god(deck=7, block=3, show=1000)
    want = plain_histogram(p)
    assert list(c.histogram) == want
    assert c.farthest_count == want[-1]
    assert all(dist[f] == c.diameter for f in c.farthest)


def test_odd_goal_unreachable_with_even_moves():
    path = shuffle.solve(deck=6, block=2, goal=(2, 1, 3, 4, 5, 6))
    assert path.moves == -1 and path.sequence == ()


def test_start_equals_goal():
    assert shuffle.solve(3, goal=(1, 2, 3, 4, 5, 6)).moves == 0


def test_memory_refusals():
    with pytest.raises(ValueError) as e:
        shuffle.god(5, run=RunOptions(memory=1 << 19))
    assert str(e.value) == ("full BFS of block shuffle D=10 B=5 (3,628,800 decks, 2 bits each) "
                            "needs 1 MiB, more than 512 KiB, the --memory cap")
    refused = r"^expanding layer \d+ needs [\d.]+ MiB, more than 1 MiB, the --memory cap$"
    with pytest.raises(ValueError, match=refused):
        shuffle.solve(6, run=RunOptions(memory=1 << 20))
    with pytest.raises(ValueError, match="^full BFS of pancakes n=9 .* needs 133 KiB, more than 1 KiB"):
        shuffle.pancake_god(9, run=RunOptions(memory=1 << 10))


@pytest.mark.parametrize("call,message", [
    (lambda: shuffle.solve(), "give -n N (2N cards, blocks of N) or both --deck D and --block B"),
    (lambda: shuffle.solve(3, deck=6), "give either -n or --deck/--block, not both"),
    (lambda: shuffle.solve(0), "-n must be at least 1, got 0"),
    # True once passed as n = 1 (2 cards): n is a whole number, never a bool
    (lambda: shuffle.solve(True), "-n must be a whole number, got True"),
    (lambda: shuffle.pancake_god(True), "-n must be a whole number, got True"),
    (lambda: shuffle.solve(deck=4.0, block=2), "--deck must be a whole number, got 4.0"),
    (lambda: shuffle.solve(deck=1, block=1), "--deck must be at least 2, got 1"),
    (lambda: shuffle.god(deck=6, block=6), "--block must be between 1 and deck - 1 = 5, got 6"),
    (lambda: shuffle.solve(10**20), "solve handles decks of at most 16 cards, got 200000000000000000000"),
    (lambda: shuffle.solve(3, goal=(1, 2, 3)), "goal has 3 cards, expected 6"),
    (lambda: shuffle.solve_pancakes(range(1, 18)), "solve handles stacks of at most 16 pancakes, got 17"),
    (lambda: shuffle.solve_pancakes([]), "a stack needs at least one pancake"),
    (lambda: shuffle.god(3, show=10_001), "--show must be between 0 and 10000, got 10001"),
    (lambda: shuffle.pancake_god(0), "-n must be at least 1, got 0"),
    (lambda: shuffle.pancake_god(21), "full BFS indexes stacks by rank: at most 20 pancakes, got 21 "
                                      "(it would need 11.1 EiB, 2 bits for each of 21! stacks)"),
    (lambda: shuffle.god(100_000), "full BFS indexes decks by rank: at most 20 cards, got 200000 (it would "
                                   "need more than 10^973,349 bytes, 2 bits for each of 200000!/2 decks)"),
    (lambda: shuffle.god(deck=10**20, block=3), "full BFS indexes decks by rank: at most 20 cards, got "
     "100000000000000000000 (it would need more than 10^(1.96e+21) bytes, 2 bits for each of "
     "100000000000000000000! decks)"),
])
def test_api_refusals_say_what_is_wrong(call, message):
    with pytest.raises(ValueError) as e:
        call()
    assert str(e.value) == message


def test_census_refuses_a_generic_puzzle_beyond_the_cap():
    p = puzzle.PermPuzzle("rotate or swap", 6, ((1, 2, 3, 4, 5, 0), (1, 0, 2, 3, 4, 5)), (1, 2))
    refused = r"^full BFS of rotate or swap \(720 decks, 2 bits each\) needs 32 KiB, more than 100 bytes"
    with pytest.raises(ValueError, match=refused):
        shuffle.census(p, run=RunOptions(memory=100))
    assert shuffle.census(p, run=RunOptions(memory=180 + 8 * 4096)).states == 720


def test_api_examples_run():
    # the module docstring's examples (README "Python API" shows the same calls)
    result = doctest.testmod(api, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10 and result.failed == 0


def test_progress_names_the_layers_in_decks_and_stacks(monkeypatch, tmp_path):
    seen = []

    class Recorder:
        def __init__(self, label, total, unit, enabled=True):
            self.label, self.total, self.unit, self.enabled = label, total, unit, enabled
            seen.append(self)
            self.updates = []

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return None

        def update(self, done, note=None):
            self.updates.append((done, note))

    monkeypatch.setattr(bidir, "Meter", Recorder)
    path = shuffle.solve(6, run=RunOptions(progress=True))  # 14 = 7 + 7 moves: layer 7 meets its inverse
    shown = [m for m in seen if m.enabled]  # the layers big enough for the kernels
    depths = range(8 - len(shown), 8)
    assert [m.label for m in shown] == [f"block shuffle D=12 B=6, layer {d}" for d in depths]
    assert all(m.unit == "decks" for m in shown)
    for m, d in zip(shown, depths, strict=True):  # each expanded its layer d - 1 whole
        met = "; met the goal's side: 14 moves" if d == 7 else ""
        assert m.total == path.layers[d - 1]
        assert m.updates[-1] == (m.total, f"{path.layers[d]:,} new decks{met}")
    seen.clear()
    monkeypatch.setattr(bidir, "SMALL", 0)  # every layer through the kernels, with a bar
    path = shuffle.solve(3, run=RunOptions(progress=True))  # 7 = 3 + 1 + 3: the images of layer 3 meet
    assert path.moves == 7 and [m.label[-7:] for m in seen] == [f"layer {d}" for d in range(1, 5)]
    assert seen[-1].updates[-1] == (path.layers[3], "met the goal's side: 7 moves")
    seen.clear()
    monkeypatch.setattr(layers, "Meter", Recorder)
    c = shuffle.pancake_god(6, run=RunOptions(progress=True, store=str(tmp_path / "fresh.sqlite")))
    (m,) = seen
    assert (m.label, m.total, m.unit, m.enabled) == ("pancakes n=6", 720, "stacks", True)
    assert m.updates[-1] == (720, f"layer {c.diameter}: {c.histogram[-1]:,} stacks")
    seen.clear()
    shuffle.solve(6)
    assert seen and not any(m.enabled for m in seen)  # progress off: no bar
