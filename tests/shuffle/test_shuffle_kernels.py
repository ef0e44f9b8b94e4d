"""Kernels against the plain rules: packed moves, ranks, inversions."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys

import numpy as np
import pytest

from puzzlesearch.engine.space import parity
from puzzlesearch.shuffle import packed, puzzle, ranking, words


def _random_puzzles():
    rng = random.Random(7)
    yield puzzle.block_shuffle_puzzle(16, 8)
    yield puzzle.block_shuffle_puzzle(11, 4)
    yield puzzle.pancake_puzzle(16)
    yield puzzle.pancake_puzzle(9)
    perms = []
    for _ in range(4):
        p = list(range(12))
        rng.shuffle(p)
        perms.append(tuple(p))
    yield puzzle.PermPuzzle("random", 12, tuple(perms), (1, 2, 3, 4))


@pytest.mark.parametrize("p", list(_random_puzzles()), ids=lambda p: p.name)
def test_packed_moves_match_rules(p):
    rng = random.Random(p.size)
    moves = packed.segments(p.moves)
    inverse = packed.segments(p.inverse_moves())
    for _ in range(50):
        deck = list(range(1, p.size + 1))
        rng.shuffle(deck)
        x = np.uint64(packed.pack(deck))
        for j in range(len(p.moves)):
            y = packed.apply_move(x, *moves, j)
            assert packed.unpack(y, p.size) == p.apply(deck, j)
            assert packed.apply_move(np.uint64(y), *inverse, j) == x


def test_expand_is_every_move():
    p = puzzle.block_shuffle_puzzle(10, 5)
    decks = [tuple(random.Random(i).sample(range(1, 11), 10)) for i in range(5)]
    states = np.array([packed.pack(d) for d in decks], dtype=np.uint64)
    out = np.empty(25, dtype=np.uint64)
    assert packed.expand(states, 0, 5, *packed.segments(p.moves), out) == 25
    assert [packed.unpack(y, 10) for y in out] == [p.apply(d, j) for d in decks for j in range(5)]


def test_nibble_reverse():
    x = np.uint64(0x0123456789ABCDEF)
    assert packed.nibble_reverse(x) == np.uint64(0xFEDCBA9876543210)


def test_inversions():
    rng = random.Random(3)
    for _ in range(20):
        x = rng.sample(range(1, 13), 12)
        t = rng.sample(range(1, 13), 12)
        # x^-1 . t: position in x of each card of t
        want = tuple(x.index(c) + 1 for c in t)
        px, pt = np.uint64(packed.pack(x)), np.uint64(packed.pack(t))
        assert packed.unpack(packed.inverse_then(px, pt, 12), 12) == want
        # t . x^-1: at position i, the card of t at the position of card i in x
        out = np.empty(1, dtype=np.uint64)
        packed.then_inverse_all(np.array([px], dtype=np.uint64), pt, 12, out)
        assert packed.unpack(out[0], 12) == tuple(t[x.index(i)] for i in range(1, 13))


def test_sorted_set_kernels():
    a = np.array([1, 3, 3, 5, 7, 9, 9, 11], dtype=np.uint64)
    n = packed.unique_sorted(a, len(a))
    assert list(a[:n]) == [1, 3, 5, 7, 9, 11]
    layer = np.array([0, 3, 4, 9, 20], dtype=np.uint64)
    hits = np.empty(6, dtype=np.uint64)
    assert list(hits[: packed.common(a, n, layer, hits)]) == [3, 9]
    n = packed.remove_known(a, n, layer)
    assert list(a[:n]) == [1, 5, 7, 11]


@pytest.mark.parametrize("n", [1, 2, 3, 5, 6])
def test_rank_is_lexicographic_order(n):
    perm = np.empty(n, dtype=np.int64)
    for r, p in enumerate(itertools.permutations(range(n))):
        assert ranking.rank(np.array(p, dtype=np.int64), n, False) == r
        assert ranking.rank_deck([c + 1 for c in p]) == r
        ranking.unrank(r, n, False, 0, perm, np.empty(n, dtype=np.int64))
        assert tuple(perm) == p


@pytest.mark.parametrize("n", [2, 4, 6])
def test_compressed_rank_indexes_one_parity(n):
    for par in (0, 1):
        seen = set()
        for p in itertools.permutations(range(n)):
            if parity(p) != par:
                continue
            i = ranking.rank(np.array(p, dtype=np.int64), n, True)
            seen.add(i)
            assert ranking.unrank_deck(i, n, True, par) == tuple(c + 1 for c in p)
        assert seen == set(range(len(seen))) and len(seen) == len(list(itertools.permutations(range(n)))) // 2


@pytest.mark.parametrize("p", list(_random_puzzles()), ids=lambda p: p.name)
def test_numpy_words_match_kernels(p):
    rng = random.Random(p.size + 1)
    decks = [rng.sample(range(1, p.size + 1), p.size) for _ in range(40)]
    states = np.array([words.pack(d) for d in decks], dtype=np.uint64)
    moves = words.segments(p.moves)
    m = len(p.moves)
    out = np.empty(len(states) * m, dtype=np.uint64)
    packed.expand(states, 0, len(states), *moves, out)
    # kernels: deck-major; numpy: move-major
    assert sorted(words.images(states, moves)) == sorted(out)
    assert words.apply_one(int(states[3]), moves, 1) == out[3 * m + 1]
    t = words.pack(decks[0])
    inv = np.empty(len(states), dtype=np.uint64)
    packed.then_inverse_all(states, np.uint64(t), p.size, inv)
    assert list(words.inverted(states, t, p.size)) == list(inv)
    want = packed.inverse_then(states[5], np.uint64(t), p.size)
    assert words.inverse_then(int(states[5]), t, p.size) == want


def test_numpy_set_operations():
    a = np.array([1, 3, 3, 5, 7, 9, 9, 11], dtype=np.uint64)
    u = words.unique(a)
    assert list(u) == [1, 3, 5, 7, 9, 11]
    layer = np.array([0, 3, 4, 9, 20], dtype=np.uint64)
    assert list(u[words.members(u, layer)]) == [3, 9]
    assert not words.members(u, np.empty(0, dtype=np.uint64)).any()


def test_small_solves_never_start_the_jit():
    code = ("import sys; from puzzlesearch import shuffle; "
            "assert shuffle.solve(5).moves == 12; assert shuffle.solve_pancakes([3, 1, 2, 5, 4]).moves == 4; "
            "print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
