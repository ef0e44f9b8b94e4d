"""Four or more pegs: Frame-Stewart numbers against OEIS and their definition; the sequences replay."""

from math import comb, isqrt

import pytest

from conftest import load_data
from puzzlesearch import hanoi
from puzzlesearch.hanoi import framestewart, rules

DATA = load_data("hanoi")


def test_four_pegs_match_oeis_a007664():
    values = DATA["hanoi_four_peg_moves"]["values"]
    assert hanoi.counts(len(values) - 1, 4) == values
    assert [hanoi.count(n, 4) for n in range(len(values))] == values


def test_five_pegs_match_oeis_a007665():
    values = DATA["hanoi_five_peg_moves"]["values"]  # from n = 1
    assert hanoi.counts(len(values), 5)[1:] == values


@pytest.mark.parametrize("pegs", range(3, 9))
def test_closed_runs_equal_the_minimising_recursion(pegs):
    table = framestewart.frame_stewart_numbers(40, pegs)
    assert table == [rules.frame_stewart_recursive(n, pegs) for n in range(41)]
    assert table == [framestewart.frame_stewart(n, pegs) for n in range(41)]


def a007664(n: int) -> int:
    """OEIS A007664's closed formula: (n - 1 - C(t, 2)) 2^t + 1, t = floor((sqrt(8n) - 1)/2)."""
    if n == 0:
        return 0
    t = (isqrt(8 * n) - 1) // 2
    return (n - 1 - comb(t, 2)) * 2**t + 1


def test_four_pegs_match_eighty_oeis_terms_and_its_formula():
    values = DATA["hanoi_four_peg_moves_to_79"]["values"]
    assert [a007664(n) for n in range(80)] == values  # the formula is the sequence's
    assert hanoi.counts(79, 4) == values


def test_ten_thousand_at_once_agree_with_single_values():
    table = hanoi.counts(10_000, 4)
    for n in (0, 1, 999, 5050, 10_000):
        assert table[n] == hanoi.count(n, 4)
    assert table[10_000] == framestewart.frame_stewart(10_000, 4)
    # an independent value: OEIS A007664's formula, t = 140, C(140, 2) = 9730
    assert table[10_000] == 269 * 2**140 + 1 == a007664(10_000)
    assert table == [a007664(n) for n in range(10_001)]
    # 4 pegs: the increment 2^t is used t+1 times, so FS(T_t) - FS(T_t - 1) = 2^(t-1) at triangular T_t
    assert all(table[t * (t + 1) // 2] - table[t * (t + 1) // 2 - 1] == 2 ** (t - 1) for t in range(1, 140))
    assert hanoi.counts(3000, 3)[3000] == 2**3000 - 1


@pytest.mark.parametrize("pegs", [4, 5, 6])
def test_sequences_are_legal_reach_the_last_peg_and_have_frame_stewart_length(pegs):
    for n in range(0, 13 if pegs == 4 else 10):
        sequence = list(hanoi.moves(n, pegs))
        assert len(sequence) == hanoi.count(n, pegs)
        assert rules.replay(rules.perfect(n, 0), sequence, pegs) == rules.perfect(n, pegs - 1)


@pytest.mark.parametrize("pegs", [4, 5])
def test_position_after_equals_replay(pegs):
    for n in range(0, 9):
        position = rules.perfect(n, 0)
        for m, move in enumerate(hanoi.moves(n, pegs)):
            assert framestewart.position_after(n, pegs, m) == position
            position = rules.apply_move(position, move)
        assert framestewart.position_after(n, pegs, hanoi.count(n, pegs)) == position
    with pytest.raises(ValueError):
        framestewart.position_after(3, pegs, hanoi.count(3, pegs) + 1)


def test_solution_object_carries_the_sequence():
    s = hanoi.solve(4, 4)
    assert (s.n, s.pegs, s.start, s.goal, s.moves) == (4, 4, "AAAA", "DDDD", 9)
    assert rules.replay(rules.perfect(4, 0), [tuple(m) for m in s.sequence], 4) == rules.perfect(4, 3)
