"""Drivers for the built-in games: validate, allocate, call a kernel, return a result.

Each function returns a small frozen dataclass; the value tables themselves are
read-only numpy arrays (``.tolist()`` for plain lists).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from math import comb

import numpy as np

from puzzlesearch.engine.progress import Progress

from . import kernels
from .rules import OctalCode, parse_octal

CUTTING_MAX = 200
DIGITS_MAX = 1_000_000
POPCOUNT_BITS = 64
POPCOUNT_MEMORY = 1 << 28  # bytes for the bitmaps of reachable XORs (7 parts need 32 MiB)


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


# ---------------------------------------------------------------- cutting, digits


def cutting_table(n: int = CUTTING_MAX) -> np.ndarray:
    """G(w, h) of the cutting game for 2 <= w, h <= n (rows/columns 0, 1 unused)."""
    if not 2 <= n <= 4000:
        raise ValueError(f"cutting table size {n} outside 2..4000")
    return _frozen(kernels.cutting_kernel(n))


def digits_table(n_max: int = DIGITS_MAX) -> np.ndarray:
    """G(n) of the Cow Digit Game for 0 <= n <= n_max; the first player wins iff G(n) > 0."""
    if not 0 <= n_max <= 10**9:
        raise ValueError(f"digit game limit {n_max} outside 0..10^9")
    return _frozen(kernels.digits_kernel(n_max))


# ---------------------------------------------------------------- popcount game


@dataclass(frozen=True)
class PopcountValues:
    """G(k) for k = 0..max_k set bits when a number becomes 1..parts numbers with fewer bits."""

    parts: int
    values: tuple[int, ...]
    seconds: float


def popcount_values(parts: int = 7, max_k: int = POPCOUNT_BITS) -> PopcountValues:
    """G(k) = mex of the XORs of multisets of 1..parts values G(k'), k' < k.

    Method: bitmaps R_j of the XORs of at most j of the values found so far (G(0) = 0
    pads a multiset, so "at most" equals "1 to"). G(k) is the least number missing from
    R_parts; then R_j |= G(k) XOR R_(j-1) for j = parts..1 adds the new value. The
    bitmaps double whenever a value needs another bit; using G(k) twice cancels, so
    each update is one XOR-translation per level.
    """
    if parts < 1:
        raise ValueError(f"parts must be >= 1, got {parts}")
    if not 0 <= max_k <= POPCOUNT_BITS:
        raise ValueError(f"max k must be in 0..{POPCOUNT_BITS}, got {max_k}")
    t0 = time.perf_counter()
    asked = parts
    parts = min(parts, max(max_k, 1))  # more parts than non-zero values add no new XOR
    levels = np.zeros((parts + 1, 1), np.uint64)
    levels[:, 0] = 1  # only 0 is reachable with the values {G(0)} = {0}
    values = [0]
    for k in range(1, max_k + 1):
        g = int(kernels.first_zero_kernel(levels[parts]))
        values.append(g)
        words = levels.shape[1]
        need = max(1, (1 << g.bit_length()) // 64)
        if need > words:
            if (parts + 1) * need * 8 > POPCOUNT_MEMORY:
                raise MemoryError(
                    f"G({k}) = {g} needs bitmaps of 2^{g.bit_length()} bits per level, over the "
                    f"{POPCOUNT_MEMORY >> 20} MiB limit; try fewer --parts or a smaller --max-k"
                )
            grown = np.zeros((parts + 1, need), np.uint64)
            grown[:, :words] = levels
            levels = grown
        for j in range(parts, 0, -1):
            kernels.xor_or_kernel(levels[j], levels[j - 1], g)
    return PopcountValues(asked, tuple(values), time.perf_counter() - t0)


def popcount_value_bound(parts: int, k: int) -> int:
    """|{XORs of at most `parts` of k-1 distinct non-zero values}| bound: G(k) <= this."""
    return sum(comb(k - 1, j) for j in range(min(parts, k - 1) + 1)) if k else 0


# ---------------------------------------------------------------- take-and-break games


@dataclass(frozen=True)
class TakeBreakValues:
    """G(0..count-1) of a take-and-break game, with the periodicity found (octal games)."""

    game: str
    count: int
    values: np.ndarray = field(repr=False)
    max_value: int
    period: int | None
    preperiod: int | None
    rare_mask: int
    rare_heaps: int
    new_rare_values: int
    seconds: float

    def to_json(self) -> dict:
        return {
            "game": self.game,
            "count": self.count,
            "values": self.values.tolist(),
            "max_value": self.max_value,
            "period": self.period,
            "preperiod": self.preperiod,
            "rare_mask": self.rare_mask,
            "rare_heaps": self.rare_heaps,
            "seconds": round(self.seconds, 4),
        }


def _takebreak(
    game: str, digits: tuple[int, ...], unequal: bool, count: int, t: int | None, progress: bool
) -> TakeBreakValues:
    if not 1 <= count <= 10**9:
        raise ValueError(f"count must be in 1..10^9, got {count}")
    t0 = time.perf_counter()
    d = np.array(digits, np.int64)
    st = kernels.TakeBreakState(count)
    # ranges of heaps, only so that a long run can show its progress
    bounds = np.linspace(0, count, min(100, count // (1 << 16)) + 2).astype(np.int64)
    bounds = np.unique(bounds)
    with Progress(len(bounds) - 1, label=game, enabled=progress) as bar:
        for start, end in zip(bounds[:-1], bounds[1:], strict=True):
            kernels.takebreak_range(d, unequal, int(start), int(end), st.g, st.stamp, st.hist, st.rare,
                                    st.rare_value, st.is_rare, st.scalars, st.stats)
            if st.stats[0]:
                limit = kernels.VALUE_LIMIT
                raise OverflowError(f"{game}: a value reached {limit}, beyond this program's limit")
            bar.advance(nodes=int(end - start))
    g, stats = st.g[:count], st.stats
    period = preperiod = None
    if t is not None:
        p, e = kernels.period_kernel(g, t)
        if p:
            period, preperiod = int(p), int(e)
    return TakeBreakValues(
        game=game,
        count=count,
        values=_frozen(g),
        max_value=int(g.max()),
        period=period,
        preperiod=preperiod,
        rare_mask=int(stats[1]),
        rare_heaps=int(stats[2]),
        new_rare_values=int(stats[4]),
        seconds=time.perf_counter() - t0,
    )


def octal_values(code: str | OctalCode, count: int = 1000, progress: bool = False) -> TakeBreakValues:
    """Values of heaps 0..count-1 of an octal game, and its period if already proven.

    The period is the least p for which the octal periodicity theorem (Guy and Smith
    1956) applies within the computed values; `period` is None when none does yet.
    `progress` draws a bar on stderr when it is a terminal.
    """
    game = code if isinstance(code, OctalCode) else parse_octal(code)
    return _takebreak(game.code, game.digits, False, count, game.max_take, progress)


def grundys_values(count: int = 1000, progress: bool = False) -> TakeBreakValues:
    """Values of heaps 0..count-1 of Grundy's game (split a heap into two unequal heaps)."""
    return _takebreak("grundy's game", (4,), True, count, None, progress)
