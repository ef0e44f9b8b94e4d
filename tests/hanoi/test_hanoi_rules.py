"""Three pegs: the recursion, the closed form, the kernel and the position after move m agree."""

import random

import numpy as np
import pytest

from puzzlesearch import hanoi
from puzzlesearch.hanoi import rules, threepeg


def test_positions_parse_and_format_both_ways():
    assert rules.parse_position("ACB", 3) == (0, 2, 1)
    assert rules.parse_position("acb", 3) == (0, 2, 1)
    assert rules.format_position((0, 2, 1)) == "ACB"
    assert rules.parse_position("", 3) == ()
    with pytest.raises(ValueError, match="character 2 is 'D'"):
        rules.parse_position("AD", 3)
    assert rules.parse_position("AD", 4) == (0, 3)


def test_moves_must_take_a_top_disc_onto_a_larger_one():
    position = rules.parse_position("AAB", 3)  # discs 3, 2 on A; disc 1 on B
    assert rules.is_legal(position, (2, 0, 2), 3)
    assert not rules.is_legal(position, (2, 0, 1), 3)  # onto the smaller disc 1
    assert not rules.is_legal(position, (3, 0, 2), 3)  # disc 3 is under disc 2
    assert not rules.is_legal(position, (1, 0, 2), 3)  # disc 1 is not on A
    assert sorted(rules.legal_moves(position, 3)) == [(1, 1, 0), (1, 1, 2), (2, 0, 2)]
    with pytest.raises(ValueError, match="move 2"):
        rules.replay(position, [(1, 1, 2), (2, 0, 2)], 3)


@pytest.mark.parametrize("n", range(0, 11))
def test_classic_recursion_and_closed_form_give_the_same_optimal_moves(n):
    recursive = list(rules.classic_moves(n))
    assert recursive == list(threepeg.moves_iterative(n))
    assert len(recursive) == 2**n - 1 == hanoi.count(n, 3)
    assert rules.replay(rules.perfect(n, 0), recursive, 3) == rules.perfect(n, 2)


@pytest.mark.parametrize("src,dst", [(0, 1), (1, 0), (2, 1), (1, 2), (2, 0)])
def test_closed_form_between_any_two_pegs(src, dst):
    for n in range(7):
        spare = 3 - src - dst
        assert list(threepeg.moves_iterative(n, src, dst)) == list(rules.classic_moves(n, src, dst, spare))


@pytest.mark.parametrize("n", [1, 2, 5, 8, 12])
def test_kernel_array_equals_the_generator(n):
    array = hanoi.moves_array(n)
    assert array.shape == (2**n - 1, 3) and array.dtype == np.uint8
    assert array.tolist() == [list(m) for m in threepeg.moves_iterative(n)]
    assert hanoi.moves_array(n, 1, 0).tolist() == [list(m) for m in threepeg.moves_iterative(n, 1, 0)]


@pytest.mark.parametrize("n", range(0, 9))
def test_position_after_every_move_equals_replay(n):
    position = rules.perfect(n, 0)
    for m, move in enumerate(rules.classic_moves(n)):
        assert threepeg.position_after(n, m) == position
        position = rules.apply_move(position, move)
    assert threepeg.position_after(n, 2**n - 1) == position == rules.perfect(n, 2)


def test_position_after_far_into_a_big_tower():
    n = 64
    # just before the largest disc moves: it alone on A, the other 63 on the spare peg
    assert hanoi.position_after(n, 2**63 - 1) == "A" + "B" * 63
    assert hanoi.position_after(n, 2**63) == "C" + "B" * 63
    rng = random.Random(6)
    for _ in range(20):  # the next position is one legal move away, by the disc of move m+1
        m = rng.randrange(2**64 - 2)
        here = threepeg.position_after(n, m)
        there = threepeg.position_after(n, m + 1)
        differ = [i for i in range(n) if here[i] != there[i]]
        assert len(differ) == 1
        disc = n - differ[0]
        assert disc == ((m + 1) & -(m + 1)).bit_length()
        assert rules.is_legal(here, (disc, here[differ[0]], there[differ[0]]), 3)
    with pytest.raises(ValueError):
        threepeg.position_after(3, 8)
