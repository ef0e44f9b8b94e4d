"""The plain rules: the book's example, the plain BFS, the engine's move tables."""

from __future__ import annotations

import pytest

from conftest import load_data
from puzzlesearch.engine.space import parity
from puzzlesearch.shuffle import puzzle, rules

REF = load_data("shuffle")


def test_book_example_n2():
    # 1234 -> 2314 -> 3124 -> 2431 -> 4321
    decks = [(1, 2, 3, 4)]
    for k in (1, 1, 2, 1):
        decks.append(rules.block_shuffle(decks[-1], k, 2))
    assert decks == [(1, 2, 3, 4), (2, 3, 1, 4), (3, 1, 2, 4), (2, 4, 3, 1), (4, 3, 2, 1)]


def test_block_move_k_n_moves_the_bottom_half():
    assert rules.block_shuffle((1, 2, 3, 4, 5, 6), 3, 3) == (4, 5, 6, 1, 2, 3)


def test_flip_reverses_the_top():
    assert rules.flip((3, 1, 2, 5, 4), 3) == (2, 1, 3, 5, 4)


@pytest.mark.parametrize("bad", [0, 4])
def test_block_move_out_of_range(bad):
    with pytest.raises(ValueError):
        rules.block_shuffle((1, 2, 3, 4), bad, 2)


@pytest.mark.parametrize("n", [2, 3])
def test_plain_bfs_matches_published(n):
    assert rules.shuffle_distance(n) == REF["block_shuffle_reversal"]["values"][str(n)]


def test_engine_moves_are_the_rules():
    p = puzzle.block_shuffle_puzzle(7, 3)
    deck = (5, 1, 7, 2, 6, 3, 4)
    assert [p.apply(deck, j) for j in range(len(p.moves))] == [
        rules.block_shuffle(deck, k, 3) for k in rules.shuffle_moves(7, 3)]
    q = puzzle.pancake_puzzle(6)
    stack = (4, 6, 1, 3, 5, 2)
    assert [q.apply(stack, j) for j in range(len(q.moves))] == [rules.flip(stack, k) for k in range(2, 7)]


def test_inverse_moves_undo():
    p = puzzle.block_shuffle_puzzle(8, 3)
    deck = (3, 8, 1, 6, 2, 7, 5, 4)
    for j, inv in enumerate(p.inverse_moves()):
        assert tuple(p.apply(deck, j)[i] for i in inv) == deck


def test_parity_of_moves():
    # rotating a prefix of k + B cards by k has sign (-1)^(kB): all even when B is even
    assert puzzle.block_shuffle_puzzle(12, 6).all_moves_even()
    assert not puzzle.block_shuffle_puzzle(10, 5).all_moves_even()
    assert not puzzle.pancake_puzzle(4).all_moves_even()
    assert parity((1, 0, 2)) == 1 and parity((1, 2, 0)) == 0 and parity((3, 9, 5)) == 1


@pytest.mark.parametrize("deck", [(1, 2, 2), (1, 2), (0, 1, 2), (1, 2, 4)])
def test_check_deck_rejects_non_permutations(deck):
    with pytest.raises(ValueError):
        puzzle.check_deck(deck, 3)
