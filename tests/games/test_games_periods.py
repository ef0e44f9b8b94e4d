"""The period scan (periods.least_repeat) and its rules (window_period, octal_period,
split_period) against plain scans that try every shift from the end down: the same (period,
preperiod) on random and eventually periodic tables, by direct comparison and by the rolling
hash alike; and tables whose plain scan is quadratic (long runs of equal values) in linear
time."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlesearch.games import periods, position_moves, subtraction_values


def run_start(g: list[int], p: int) -> int:
    """The least e with g[n] == g[n + p] for every e <= n < len(g) - p."""
    n = len(g) - 1 - p
    while n >= 0 and g[n] == g[n + p]:
        n -= 1
    return n + 1


def plain_window_period(g: list[int], window: int) -> tuple[int, int]:
    """The least p whose run of repeats ending at the end holds `window` values (subtraction games)."""
    for p in range(1, len(g) - window + 1):
        e = run_start(g, p)
        if len(g) - p - e >= window:
            return p, e
    return 0, 0


def plain_octal_period(g: list[int], t: int) -> tuple[int, int]:
    """The least p with 2e + 2p + t <= len(g) - 1 (the octal periodicity theorem)."""
    for p in range(1, len(g) // 2 + 1):
        e = run_start(g, p)
        if 2 * e + 2 * p + t <= len(g) - 1:
            return p, e
    return 0, 0


def plain_split_period(g: list[int], t: int, parts: int) -> tuple[int, int]:
    """The least p with parts * max(e, 1) + parts * p + t <= len(g) - 1 (splits into `parts` heaps)."""
    for p in range(1, len(g) // 2 + 1):
        e = run_start(g, p)
        if parts * max(e, 1) + parts * p + t <= len(g) - 1:
            return p, e
    return 0, 0


@st.composite
def tables(draw) -> list[int]:
    """Short tables of small values: random, or a random start then a repeated block, sometimes
    with one value changed (so that runs stop in odd places)."""
    size = draw(st.integers(0, 80))
    values = st.integers(0, draw(st.integers(0, 3)))
    if draw(st.booleans()):
        return draw(st.lists(values, min_size=size, max_size=size))
    block = draw(st.lists(values, min_size=1, max_size=9))
    head = draw(st.lists(values, max_size=20))
    g = (head + block * (size // len(block) + 1))[:size]
    if g and draw(st.booleans()):
        i = draw(st.integers(0, len(g) - 1))
        g[i] ^= 1
    return g


BUDGETS = st.sampled_from([-1, 0, 1, 5, 1000])  # -1: the default (len(g)); 0: every shift by hash


#: examples of each property: a few dozen in the fast lane, many more in the full one
EXAMPLES = [60, pytest.param(600, marks=pytest.mark.slow)]


@pytest.mark.parametrize("examples", EXAMPLES)
def test_window_period_matches_the_plain_scan(examples):
    @settings(max_examples=examples, deadline=None)
    @given(g=tables(), width=st.integers(1, 12), budget=BUDGETS)
    def check(g, width, budget):
        a = np.array(g, np.int32)
        assert tuple(periods.least_repeat(a, width, 1, budget)) == plain_window_period(g, width)
        if budget == -1:
            assert tuple(periods.window_period(a, width)) == plain_window_period(g, width)

    check()


@pytest.mark.parametrize("examples", EXAMPLES)
def test_octal_period_matches_the_plain_scan(examples):
    @settings(max_examples=examples, deadline=None)
    @given(g=tables(), t=st.integers(0, 8))
    def check(g, t):
        a = np.array(g, np.uint16)
        assert tuple(periods.octal_period(a, t)) == plain_octal_period(g, t)

    check()


@pytest.mark.parametrize("examples", EXAMPLES)
def test_split_period_matches_the_plain_scan(examples):
    @settings(max_examples=examples, deadline=None)
    @given(g=tables(), t=st.integers(0, 8), parts=st.integers(1, 3))
    def check(g, t, parts):
        a = np.array(g, np.int32)
        assert tuple(periods.split_period(a, t, parts)) == plain_split_period(g, t, parts)

    check()


@pytest.mark.parametrize("examples", EXAMPLES)
def test_the_hash_and_the_direct_comparison_agree_from_any_shift(examples):
    @settings(max_examples=examples, deadline=None)
    @given(g=tables(), width=st.integers(1, 12), p_from=st.integers(0, 90))
    def check(g, width, p_from):
        a = np.array(g, np.int32)
        by_hash = periods.least_repeat(a, width, p_from, 0)
        assert tuple(by_hash) == tuple(periods.least_repeat(a, width, p_from))

    check()


@pytest.mark.parametrize("examples", [40, pytest.param(200, marks=pytest.mark.slow)])
def test_subtraction_periods_match_the_plain_scan(examples):
    @settings(max_examples=examples, deadline=None)
    @given(moves=st.lists(st.integers(1, 12), min_size=1, max_size=4, unique=True), count=st.integers(1, 400))
    def check(moves, count):
        r = subtraction_values(",".join(map(str, moves)), count)
        p, e = plain_window_period(r.values.tolist(), max(moves))
        assert (r.period, r.preperiod) == ((p, e) if p else (None, None))

    check()


def test_long_runs_of_equal_values_take_linear_time():
    # S = {10^6}: a million 0s, a million 1s, ...; every shift below the period repeats for
    # up to a million values, which the plain scan compares one by one (minutes)
    subtraction_values("1000000", 10)  # the kernels loaded
    t0 = time.perf_counter()
    r = subtraction_values("1000000", 5_000_000)
    assert (r.period, r.preperiod, r.max_value) == (2_000_000, 0, 1)
    unproven = subtraction_values("1000000", 2_999_999)  # 2e6 + 10^6 - 1 values: one short of the proof
    assert unproven.period is None
    move = position_moves("sub:1000000", "1500000,3")
    assert move.heap_values == (1, 0) and move.moves[0].position == (500_000, 3)
    assert time.perf_counter() - t0 < 30  # the plain scan takes minutes


def test_every_scan_is_linear_on_long_runs_of_equal_values():
    # 300,000 0s, 300,000 1s, ...: the plain scans compare 300,000 - p values at each shift p
    # below the period, 4.5 * 10^10 in all
    g = ((np.arange(2_000_000) // 300_000) % 2).astype(np.int32)
    periods.octal_period(g[:10], 1)  # the kernels loaded
    t0 = time.perf_counter()
    assert tuple(periods.window_period(g, 300_000)) == (600_000, 0)
    assert tuple(periods.octal_period(g.astype(np.uint16), 3)) == (600_000, 0)
    assert tuple(periods.split_period(g, 3, 3)) == (600_000, 0)
    assert time.perf_counter() - t0 < 10
