"""The numba tables against published values, plain versions and the rules via the engine."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest
from games_naive import naive_values
from hypothesis import given, settings
from hypothesis import strategies as hst

from conftest import load_data
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.games import (
    ImpartialGame,
    blocks_kernel,
    cutting_table,
    digits_table,
    grundys_values,
    mex,
    octal_values,
    parse_octal,
    periods,
    popcount_values,
    rules,
    takebreak,
)
from puzzlesearch.games.api import popcount_value_bound
from puzzlesearch.games.takebreak_kernel import (
    DENSE_PROBES,
    FULL,
    RARE_MASK,
    RESUME_AT,
    STOP,
    takebreak_range,
)

DATA = load_data("games")


# ---------------------------------------------------------------- cutting game


def test_cutting_table_matches_plain_recursion_up_to_30():
    @cache
    def plain(w: int, h: int) -> int:
        reach = {plain(i, h) ^ plain(w - i, h) for i in range(2, w - 1)}
        reach |= {plain(w, j) ^ plain(w, h - j) for j in range(2, h - 1)}
        return mex(reach)

    g = cutting_table(30)
    for w in range(2, 31):
        for h in range(2, 31):
            assert g[w, h] == plain(w, h), (w, h)


def test_cutting_table_matches_the_rules_through_the_engine():
    game = ImpartialGame(rules.cutting_options)
    g = cutting_table(40)
    for w in range(2, 41):
        for h in range(2, 41):
            assert g[w, h] == game.grundy((w, h))


def test_cutting_reduction_matches_the_literal_statement():
    # the statement played as written (any cut; cutting out a 1x1 wins) on small sheets
    g = cutting_table(11)
    sheets = [(w, h) for w in range(2, 9) for h in range(w, 9)] + [(2, 11), (3, 11)]
    for w, h in sheets:
        assert bool(g[w, h]) == rules.cutting_first_player_wins_literal(w, h), (w, h)
    assert {s for s in sheets if not g[s]} >= {(2, 2), (2, 3), (3, 3), (2, 7), (7, 7), (3, 11)}


def test_cutting_is_symmetric_and_sample_holds():
    g = cutting_table(200)
    assert (g[2:, 2:] == g[2:, 2:].T).all()
    assert [bool(g[2, 2]), bool(g[3, 2]), bool(g[4, 2])] == [False, False, True]


# ---------------------------------------------------------------- cow digit game


def test_digits_table_matches_plain_dp_up_to_10000():
    win = [False] * 10_001
    for n in range(1, 10_001):
        ds = [int(c) for c in str(n) if c != "0"]
        win[n] = not win[n - max(ds)] or not win[n - min(ds)]
    g = digits_table(10_000)
    assert [bool(v) for v in g] == win


def test_digits_table_matches_the_rules_through_the_engine():
    game = ImpartialGame(rules.digit_options)
    g = digits_table(3000)
    assert all(g[n] == game.grundy(n) for n in range(3001))


# ---------------------------------------------------------------- octal games


def test_kayles_first_72_values_and_period_12_from_71():
    ref = DATA["grundy_kayles_077"]
    r = octal_values("0.77", 300)
    assert r.values[:72].tolist() == ref["first"]
    assert (r.period, r.preperiod) == (ref["period"], ref["preperiod"])


def test_dawsons_kayles_period_34():
    r = octal_values("0.07", 400)
    assert r.period == DATA["grundy_dawsons_kayles_007"]["period"]
    g = r.values
    assert all(g[n] == g[n + 34] for n in range(r.preperiod, len(g) - 34))
    assert g[r.preperiod - 1] != g[r.preperiod - 1 + 34]


def test_dawsons_chess_0137_has_the_published_exceptions():
    ref = DATA["grundy_dawsons_chess_0137"]
    p, last = ref["period"], ref["exceptions"][-1]
    g = octal_values("0.137", 500).values
    # n is an exception when G(n) differs from the periodic values after the last one
    periodic = {n: g[n + p * -(-(last + 1 - n) // p)] for n in range(last + 1)}
    assert [n for n in range(last + 1) if g[n] != periodic[n]] == ref["exceptions"]
    assert all(g[n] == g[n + p] for n in range(last + 1, len(g) - p))
    assert (octal_values("0.137", 500).preperiod, octal_values("0.07", 500).preperiod) == (last + 1, last + 2)


def test_dawsons_chess_0137_is_dawsons_kayles_shifted_by_one():
    a = octal_values("0.137", 500).values
    b = octal_values("0.07", 501).values
    assert (a == b[1:]).all()


@pytest.mark.parametrize("entry", [
    pytest.param(e, marks=pytest.mark.slow if e["last_exception"] > 1000 else (), id=e["code"])
    for e in DATA["octal_periods_oeis"]["games"]])
def test_octal_periods_and_last_exceptions_match_published(entry):
    p, last = entry["period"], entry["last_exception"]
    r = octal_values(entry["code"], 2 * (last + 1) + 2 * p + 10)
    assert (r.period, r.preperiod) == (p, last + 1)


def test_period_not_claimed_before_the_theorem_proves_it():
    # Kayles needs values through n = 2*71 + 12 + 2 (+12 to compare) before it is proven
    assert octal_values("0.77", 100).period is None
    assert octal_values("0.77", 168).period is None
    assert octal_values("0.77", 169).period == 12


def test_period_kernel_on_made_up_sequences():
    g = np.array([5, 5, 5] + [1, 2, 3] * 20, np.int32)
    assert periods.octal_period(g, 1) == (3, 3)
    assert periods.octal_period(np.array([0, 1, 2, 3], np.int32), 1) == (0, 0)


@pytest.mark.parametrize(
    "code", ["0.77", "0.07", "0.137", "4.07", "0.6", "0.16", "4.0", "0.4", "0.51", "4.37"]
)
def test_octal_kernel_matches_the_rules_through_the_engine(code):
    game = parse_octal(code)
    engine = ImpartialGame(lambda n: rules.octal_options(game, n))
    values = octal_values(game, 120).values
    assert values.tolist() == [engine.grundy(n) for n in range(120)]


def test_rare_value_kernel_matches_plain_mex_on_random_codes():
    rng = random.Random(7)
    codes = ["0.77", "0.07", "0.6", "0.16", "4.0", "0.0", "0.3", "4.77"]
    codes += [rng.choice(["0.", "4."]) + "".join(rng.choice("01234567") for _ in range(rng.randint(1, 4)))
              for _ in range(20)]
    for code in codes:
        digits = np.array(parse_octal(code).digits, np.int64)
        fast, stats = takebreak.heap_by_heap(digits, False, 3000)
        assert stats[STOP] == 0
        assert (fast == naive_values(digits, False, 3000)).all(), code


@pytest.mark.parametrize("probes", [0, 1, DENSE_PROBES, 10**6])
def test_dense_mex_matches_plain_mex(probes):
    """Codes whose values pass 64 with mask 0 (every heap rare): _dense_mex with no sample
    (every candidate settled by the vectorized passes), a small one, the default, and one that
    sees every split, against the plain mex; also with splits into unequal heaps only."""
    for code in ["0.76", "0.764", "0.164", "0.004", "0.345", "0.414", "0.626", "0.04"]:
        digits = np.array(parse_octal(code).digits, np.int64)
        for unequal in (False, True):
            fast, stats = takebreak.heap_by_heap(digits, unequal, 2500, probes)
            plain = naive_values(digits, unequal, 2500)
            assert stats[STOP] == 0 and stats[RARE_MASK] == 0 and (fast == plain).all(), (code, unequal)
            assert plain.max() >= 64, (code, unequal)  # the dense path ran


@pytest.mark.parametrize(
    "code, digits",
    [("0.77", (0, 7, 7)), (".07", (0, 0, 7)), ("4.07", (4, 0, 7)), ("0.137", (0, 1, 3, 7)),
     ("0·77", (0, 7, 7)), ("0.770", (0, 7, 7)), ("4.", (4,)), ("0.0", (0,))],
)
def test_parse_octal(code, digits):
    assert parse_octal(code).digits == digits


@pytest.mark.parametrize(
    "code", ["", ".", "0.78", "0.7a", "1.07", "2.7", "077", "0..7", "44.7", "0.7 7", "-0.7"]
)
def test_parse_octal_rejects(code):
    with pytest.raises(ValueError, match="octal code"):
        parse_octal(code)


# ---------------------------------------------------------------- Grundy's game


def test_grundys_game_first_21_values():
    assert grundys_values(21).values.tolist() == DATA["grundys_game"]["first"]


def test_grundys_game_matches_rules_and_plain_mex():
    engine = ImpartialGame(rules.grundys_options)
    g = grundys_values(5000).values
    assert g[:300].tolist() == [engine.grundy(n) for n in range(300)]
    assert (g == naive_values(np.array([4], np.int64), True, 5000)).all()


# ---------------------------------------------------------------- popcount game


@pytest.mark.parametrize("bits, parts", [pytest.param(4, 7, marks=pytest.mark.slow), (5, 3), (5, 2), (6, 1)])
def test_popcount_values_match_brute_force_over_numbers(bits, parts):
    # the game played on actual numbers below 2**bits, no assumption that only k matters
    game = ImpartialGame(lambda n: rules.popcount_options(n, bits, parts))
    table = popcount_values(parts, bits).values
    for n in range(1 << bits):
        assert game.grundy(n) == table[rules.popcount(n)], n


@pytest.mark.parametrize("parts", [1, 2, 3, 4])
def test_popcount_values_match_class_game_through_the_engine(parts):
    game = ImpartialGame(lambda k: rules.popcount_class_options(k, parts))
    assert list(popcount_values(parts, 12).values) == [game.grundy(k) for k in range(13)]


def test_popcount_values_for_all_64_bits():
    v = popcount_values(7, 64).values
    assert len(v) == 65 and v[:4] == (0, 1, 2, 4)
    assert all(a < b for a, b in zip(v, v[1:], strict=False))  # R_k grows, and G(k) enters R_(k+1)
    assert v[64] == 23_734_709  # beyond any fixed 2^20 table
    assert list(v) == DATA["popcount_game_51nod_1714"]["values"]  # a table published independently
    assert all(v[k] <= popcount_value_bound(7, k) for k in range(65))
    assert popcount_values(1, 64).values == tuple(range(65))


def test_values_computed_in_ranges_equal_one_pass():
    # octal_values splits long runs into ranges (for the progress bar); the state carries over
    digits = np.array(parse_octal("0.77").digits, np.int64)
    one_pass, _ = takebreak.heap_by_heap(digits, False, 300_000)
    assert (octal_values("0.77", 300_000).values == one_pass).all()
    st = takebreak.TakeBreakState(6000)
    bounds = [0, 1, 255, 256, 257, 1000, 1024, 4097, 6000]
    for start, end in zip(bounds, bounds[1:], strict=False):
        takebreak_range(np.array([4], np.int64), True, start, end, st.g, st.stamp, st.hist, st.rare,
                        st.rare_value, st.scalars, st.stats)
        assert st.stats[STOP] == 0
    assert (st.g == naive_values(np.array([4], np.int64), True, 6000)).all()


def _in_blocks(digits, unequal, count, workers, block_from, block, window, shared_rows):
    """takebreak_advance from rare arrays of one entry (so that they grow inside blocks too), in
    blocks however few heaps are rare."""
    st = takebreak.TakeBreakState(count, 1)
    at = 0
    while True:
        takebreak.takebreak_advance(digits, unequal, at, count, st, workers, block_from, block, window,
                                    shared_rows, rare_for_blocks=0)
        if st.stats[STOP] != FULL:
            break
        at = int(st.scalars[RESUME_AT])
        st.grow()
    assert st.stats[STOP] == 0
    return st.g[:count]


@settings(max_examples=60, deadline=None)
@given(first=hst.sampled_from([0, 4]), rest=hst.lists(hst.integers(0, 7), min_size=1, max_size=5),
       unequal=hst.booleans(), workers=hst.sampled_from([1, 2]), block_from=hst.integers(2, 300),
       block=hst.integers(1, 64), window=hst.integers(1, 80), shared_rows=hst.integers(0, 3))
def test_values_in_blocks_equal_the_plain_mex(first, rest, unequal, workers, block_from, block, window,
                                              shared_rows):
    # the two phases of a block (splits below the block side by side, then those with a part
    # in it one heap after another), the shared search rows and the windows, at sizes small
    # enough for every path to be taken many times, against the O(n^2) mex over every move
    digits = np.array([first, *rest], np.int64)
    want = naive_values(digits, unequal, 1500)
    got = _in_blocks(digits, unequal, 1500, workers, block_from, block, window, shared_rows)
    assert (got == want).all()


@pytest.mark.slow
def test_grundys_game_in_blocks_on_two_threads_equals_one_pass():
    # past BLOCK_FROM with the real block, window and shared rows, on one thread and on two
    count = blocks_kernel.BLOCK_FROM + 40_000
    want, _ = takebreak.heap_by_heap(np.array([4], np.int64), True, count)
    for workers in (1, 2):
        got = grundys_values(count, run=RunOptions(workers=workers, progress=False))
        assert (got.values == want).all(), workers
        assert (got.max_value, got.rare_heaps) == (230, 1274)


@pytest.mark.parametrize("code", ["0.77", "0.137", "0.16", "4.07", "grundys"])
def test_rare_arrays_that_start_at_one_heap_grow_to_the_same_values(monkeypatch, code):
    # the rare heaps' arrays start small and double whenever the kernel stops for room,
    # also in the middle of a range and when a new mask lists the rare heaps anew
    monkeypatch.setattr(takebreak, "FIRST_RARE", 1)
    if code == "grundys":
        got = grundys_values(20_000)
        want = naive_values(np.array([4], np.int64), True, 20_000)
    else:
        got = octal_values(code, 20_000)
        want = naive_values(np.array(parse_octal(code).digits, np.int64), False, 20_000)
    assert (got.values == want).all()
    assert got.rare_mask == 0 or 0 < got.rare_heaps < 20_000
