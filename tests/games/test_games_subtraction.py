"""`grundy subtraction S`: the kernel against the plain rules, the period against a brute
force, the same values as the octal game with digit 3 at each s in S, and bad input."""

from __future__ import annotations

import random

import pytest

from conftest import assert_bad_input, run_cli
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.games import ImpartialGame, octal_values, parse_subtraction, subtraction_values
from puzzlesearch.games.rules import subtraction_options


def plain_values(moves: tuple[int, ...], count: int) -> list[int]:
    """G(0..count-1) through the general engine on the plain rules."""
    game = parse_subtraction(",".join(map(str, moves)))
    engine = ImpartialGame(lambda n: subtraction_options(game, n))
    return [engine.grundy(n) for n in range(count)]


def brute_period(values: list[int]) -> tuple[int, int]:
    """The least p, and least e, with values[n] == values[n + p] for every e <= n < len - p,
    among p < len / 4: the eventual period as far as a long sequence shows it."""
    size = len(values)
    for p in range(1, size // 4):
        e = size - p
        while e > 0 and values[e - 1] == values[e - 1 + p]:
            e -= 1
        if e < size // 2:
            return p, e
    raise AssertionError("no period visible")


def random_sets(count: int, seed: int = 15) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    sets = set()
    while len(sets) < count:
        sets.add(tuple(sorted(rng.sample(range(1, 13), rng.randint(1, 4)))))
    return sorted(sets)


SETS = [(1,), (2,), (1, 2), (1, 3, 4), (2, 5, 7), (3, 5, 6), (1, 4), (2, 3), (1, 6, 7, 8), *random_sets(30)]


@pytest.mark.parametrize("moves", SETS, ids=lambda m: ",".join(map(str, m)))
def test_kernel_matches_plain_rules_and_period_matches_brute_force(moves):
    values = plain_values(moves, 600)
    r = subtraction_values(",".join(map(str, moves)), 600)
    assert r.values.tolist() == values
    assert r.max_value == max(values)
    period, preperiod = brute_period(plain_values(moves, 3000))
    assert (r.period, r.preperiod) == (period, preperiod)


@pytest.mark.parametrize("moves", [(1, 3, 4), (2, 5, 7), (1, 2, 6), (3, 4, 9, 11)])
def test_same_values_as_the_octal_game_with_digit_3_at_each_move(moves):
    # removing s leaving 0 or 1 heap (octal digit 3 at s) is the subtraction game: a second kernel
    code = "0." + "".join("3" if j in moves else "0" for j in range(1, max(moves) + 1))
    assert subtraction_values(moves_text(moves), 2000).values.tolist() == \
        octal_values(code, 2000).values.tolist()


def moves_text(moves):
    return ",".join(map(str, moves))


@pytest.mark.parametrize("k", [1, 2, 3, 5, 10, 37])
def test_one_to_k_is_n_mod_k_plus_one(k):
    r = subtraction_values(",".join(map(str, range(1, k + 1))), 1000)
    assert r.values.tolist() == [n % (k + 1) for n in range(1000)]
    assert (r.period, r.preperiod) == (k + 1, 0)


def test_one_three_four_has_period_seven_0101232():
    r = subtraction_values("1,3,4", 100)
    assert r.values[:7].tolist() == [0, 1, 0, 1, 2, 3, 2]
    assert (r.period, r.preperiod) == (7, 0)


def test_a_preperiod_found_is_the_least():
    # found by brute force among small sets: a set whose values settle only after a while
    for moves in SETS:
        r = subtraction_values(moves_text(moves), 3000)
        if r.preperiod:
            v = r.values.tolist()
            e, p = r.preperiod, r.period
            assert v[e - 1] != v[e - 1 + p]
            assert all(v[n] == v[n + p] for n in range(e, 3000 - p))
            break
    else:
        pytest.fail("no set with a non-zero preperiod among SETS")


def test_period_not_proven_until_a_whole_window_repeats():
    # S = {1,3,4}: period 7 and window 4 need 7 + 4 = 11 values to be proven
    assert subtraction_values("1,3,4", 10).period is None
    assert subtraction_values("1,3,4", 11).period == 7
    assert subtraction_values("1000", 100).period is None
    r = run_cli("grundy", "subtraction", "1000", "--count", "100", "--summary")
    assert r.code == 0
    assert "no period proven by 100 values" in r.out


def test_cli_prints_values_and_period_like_octal():
    r = run_cli("grundy", "subtraction", "1,3,4", "-n", "20")
    assert (r.code, r.err) == (0, "")
    assert r.out == (
        "subtraction game {1,3,4}: G(n) for n = 0..19\n"
        " 0: 0 1 0 1 2 3 2 0 1 0\n"
        "10: 1 2 3 2 0 1 0 1 2 3\n"
        "largest value 3; plain mex over every move\n"
        "period 7 from heap 0 (proven by a repeated window of 4 values within 20 values)\n"
    )
    r = run_cli("grundy", "subtraction", "{7, 5, 2}", "--count", "1000", "--summary")
    assert r.out.splitlines()[-1].startswith("period 22 from heap 0")
    obj = run_cli("grundy", "subtraction", "2,5,7", "-n", "30", "--json").json()
    assert obj["values"] == plain_values((2, 5, 7), 30)
    assert (obj["moves"], obj["count"], obj["period"], obj["preperiod"]) == ([2, 5, 7], 30, 22, 0)


@pytest.mark.parametrize("text, word", [
    ("1,,3", "empty element"), ("0", "outside"), ("-1", "'-1'"), ("1,-3", "'-3'"), ("x", "'x'"),
    ("", "empty"), ("1,1,3", "repeated"), ("1000001", "outside"), ("99999999999999999999", "outside"),
    ("1.5", "'1.5'"), ("+1", "'+1'"), (",".join(map(str, range(1, 1002))), "more than 1000"),
])
def test_bad_sets_are_one_line_exit_2(text, word):
    r = run_cli("grundy", "subtraction", "-n", "10", "--", text)
    assert_bad_input(r)
    assert word in r.err
    with pytest.raises(ValueError, match="subtraction set"):
        parse_subtraction(text)


def test_count_beyond_memory_is_refused_before_allocating():
    r = run_cli("grundy", "subtraction", "1,3,4", "-n", "100000000", "--memory", "0.1")
    assert_bad_input(r)
    assert "needs 381 MiB, more than 102 MiB, the --memory cap" in r.err
    with pytest.raises(ValueError, match="needs"):
        subtraction_values("1,3,4", 10**8, run=RunOptions(memory=1 << 20))
    for bad in ("0", "1000000001", "x"):
        assert_bad_input(run_cli("grundy", "subtraction", "1,3,4", "-n", bad))


def test_module_examples_run():
    import doctest

    from puzzlesearch.games import subtraction

    failures, tried = doctest.testmod(subtraction)
    assert (failures, tried > 0) == (0, True)
