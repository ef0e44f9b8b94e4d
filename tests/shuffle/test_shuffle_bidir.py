"""The bidirectional search's two ways of meeting (a kept goal's side, or streamed look-ups),
its bucket sort, and the memory refusal, against plain BFS."""

from __future__ import annotations

import random

import numpy as np
import pytest
from shuffle_plain import plain_counts

from puzzlesearch import shuffle
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.shuffle import bidir, packed, puzzle, words
from puzzlesearch.shuffle.bidir import shortest_path


def _puzzles():
    yield puzzle.block_shuffle_puzzle(7, 3)
    yield puzzle.block_shuffle_puzzle(7, 2)
    slow = pytest.mark.slow  # a plain BFS over 40,320 decks for each start
    yield pytest.param(puzzle.block_shuffle_puzzle(8, 4), marks=slow, id="block shuffle D=8 B=4")
    yield pytest.param(puzzle.pancake_puzzle(7), marks=slow, id="pancakes n=7")


@pytest.mark.parametrize("mode", ["numpy", "kept", "streamed", "mixed"])
@pytest.mark.parametrize("p", list(_puzzles()), ids=lambda p: p.name)
def test_random_starts_and_goals_against_plain_bfs(p, mode, monkeypatch):
    if mode != "numpy":
        monkeypatch.setattr(bidir, "SMALL", 0)  # every layer through the kernels
    if mode == "streamed":
        monkeypatch.setattr(bidir, "_keeps_back", lambda *a: False)
    if mode == "mixed":  # the goal's side kept for some layers, streamed for others
        flip = random.Random(1)
        monkeypatch.setattr(bidir, "_keeps_back", lambda *a: flip.random() < 0.5)
    rng = random.Random(p.size * 31 + len(p.moves))
    for _ in range(6):
        start = tuple(rng.sample(range(1, p.size + 1), p.size))
        goal = tuple(rng.sample(range(1, p.size + 1), p.size))
        path = shortest_path(p, start, goal, count_paths=True)
        assert (path.moves, path.paths) == plain_counts(p, start, goal)
        if path.moves >= 0:
            assert p.play(start, path.sequence) == goal
            assert len(path.sequence) == path.moves


@pytest.mark.parametrize("streamed", [False, True])
def test_reversal_n6_both_ways(streamed, monkeypatch):
    if streamed:
        monkeypatch.setattr(bidir, "_keeps_back", lambda *a: False)
    path = shuffle.solve(6)
    start = tuple(range(1, 13))
    assert path.moves == 14 and path.layers == (1, 6, 35, 204, 1178, 6764, 38432, 214985)
    assert shuffle.rules.play_shuffles(start, path.sequence, 6) == start[::-1]


@pytest.mark.parametrize("size", [3, 7, 12, 16])
def test_bucket_sort_sorts(size):
    rng = np.random.default_rng(size)
    decks = np.array([words.pack(rng.permutation(size) + 1) for _ in range(3000)], dtype=np.uint64)
    buf = np.concatenate([decks, decks[:500], np.repeat(decks[:3], 5000)])  # repeats, one long run
    out = np.empty_like(buf)
    bidir._sorted_values(packed, buf, len(buf), out, size)
    assert np.array_equal(out, np.sort(buf))


def test_kernel_layers_match_numpy_layers(monkeypatch):
    small = shuffle.solve(deck=10, block=4, count_paths=True)
    monkeypatch.setattr(bidir, "SMALL", 0)
    monkeypatch.setattr(bidir, "CHUNK", 1000)  # many calls per pass, several sort jobs
    monkeypatch.setattr(bidir, "QUERIES", 777)
    big = shuffle.solve(deck=10, block=4, count_paths=True)
    assert (big.moves, big.paths, big.layers) == (small.moves, small.paths, small.layers)


def test_solve_refused_beyond_the_cap():
    with pytest.raises(ValueError, match=r"^expanding layer \d+ needs [\d.]+ MiB, more than 1 MiB"):
        shuffle.solve(6, run=RunOptions(memory=1 << 20))
