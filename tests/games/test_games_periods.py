"""The period scans (kernels.window_period_kernel, period_kernel, split_period_kernel) against
plain scans that try every shift from the end down: the same (period, preperiod) on random
and eventually periodic tables, by direct comparison and by the rolling hash alike; and
tables whose plain scan is quadratic (long runs of equal values) in linear time."""

from __future__ import annotations

import time

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlesearch.games import kernels, position_moves, subtraction_values


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


@settings(max_examples=600, deadline=None)
@given(g=tables(), width=st.integers(1, 12), budget=BUDGETS)
def test_window_period_matches_the_plain_scan(g, width, budget):
    a = np.array(g, np.int32)
    assert tuple(kernels.least_repeat(a, width, 1, budget)) == plain_window_period(g, width)
    if budget == -1:
        assert tuple(kernels.window_period_kernel(a, width)) == plain_window_period(g, width)


@settings(max_examples=600, deadline=None)
@given(g=tables(), t=st.integers(0, 8))
def test_octal_period_matches_the_plain_scan(g, t):
    a = np.array(g, np.uint16)
    assert tuple(kernels.period_kernel(a, t)) == plain_octal_period(g, t)


@settings(max_examples=600, deadline=None)
@given(g=tables(), t=st.integers(0, 8), parts=st.integers(1, 3))
def test_split_period_matches_the_plain_scan(g, t, parts):
    a = np.array(g, np.int32)
    assert tuple(kernels.split_period_kernel(a, t, parts)) == plain_split_period(g, t, parts)


@settings(max_examples=300, deadline=None)
@given(g=tables(), width=st.integers(1, 12), p_from=st.integers(0, 90))
def test_the_hash_and_the_direct_comparison_agree_from_any_shift(g, width, p_from):
    a = np.array(g, np.int32)
    assert tuple(kernels.least_repeat(a, width, p_from, 0)) == tuple(kernels.least_repeat(a, width, p_from))


@settings(max_examples=200, deadline=None)
@given(moves=st.lists(st.integers(1, 12), min_size=1, max_size=4, unique=True), count=st.integers(1, 400))
def test_subtraction_periods_match_the_plain_scan(moves, count):
    r = subtraction_values(",".join(map(str, moves)), count)
    p, e = plain_window_period(r.values.tolist(), max(moves))
    assert (r.period, r.preperiod) == ((p, e) if p else (None, None))


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
    kernels.period_kernel(g[:10], 1)  # the kernels loaded
    t0 = time.perf_counter()
    assert tuple(kernels.window_period_kernel(g, 300_000)) == (600_000, 0)
    assert tuple(kernels.period_kernel(g.astype(np.uint16), 3)) == (600_000, 0)
    assert tuple(kernels.split_period_kernel(g, 3, 3)) == (600_000, 0)
    assert time.perf_counter() - t0 < 10
