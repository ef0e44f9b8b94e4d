"""Hexadecimal take-and-break games (*Winning Ways* ch. 4: 0.F, 4.8, ...): octal codes whose
digits may have bit 8, leave three non-empty heaps.

Without a digit with bit 8 the code is an octal game, and its values come from the octal
engine (``takebreak``). With one, they come from ``hex_kernel.hex_range`` (the plain mex,
over bitmaps of the values of 2- and 3-heap splits; count <= HEX3_COUNT_MAX, values below
HEX_VALUE_LIMIT) and the period from the periodicity theorem's three-part form
(``periods.split_period``).
"""

from __future__ import annotations

import time

import numpy as np

from puzzlesearch.engine import interrupt
from puzzlesearch.engine.memory import require
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.progress import Meter

from .hex_kernel import BITS, FIRST_BITS, OVERFLOWED, SCALARS, hex_range
from .limits import HEX3_HEAP_BYTES, HEX_VALUE_LIMIT, HEX_WORDS
from .periods import split_period
from .rules import OctalCode
from .takebreak import TakeBreakValues, takebreak_values


def leaves_three(game: OctalCode) -> bool:
    """Whether a move of the game may leave three heaps (a digit with bit 8)."""
    return any(d & 8 for d in game.digits)


def hex_values(game: OctalCode, count: int, run: RunOptions) -> TakeBreakValues:
    """Values of heaps 0..count-1 of a hexadecimal game, and its period once proven
    (1 <= count <= COUNT_MAX, and count <= HEX3_COUNT_MAX when it leaves three heaps)."""
    label = f"hexadecimal game {game.code}"
    if not leaves_three(game):
        return takebreak_values(game.code, label, game.digits, False, count, game.max_take, run)
    require(HEX3_HEAP_BYTES * count, run.memory, f"{label} to {count:,} heaps")
    t0 = time.perf_counter()
    d = np.array(game.digits, np.int64)
    g = np.zeros(count, np.int32)
    s2 = np.zeros((count, HEX_WORDS), np.uint64)
    t3 = np.zeros((count, HEX_WORDS), np.uint64)
    scalars = np.zeros(SCALARS, np.int64)
    scalars[BITS] = FIRST_BITS
    bounds = np.unique(np.linspace(0, count, min(100, count // 1000) + 2).astype(np.int64))
    with Meter(label, count, "heaps", run.progress) as meter:
        for start, end in zip(bounds[:-1], bounds[1:], strict=True):
            interrupt.call(hex_range, d, int(start), int(end), g, s2, t3, scalars)
            if scalars[OVERFLOWED]:
                raise OverflowError(f"{game.code}: a value reached {HEX_VALUE_LIMIT}, beyond this "
                                    "program's limit for games that leave three heaps")
            meter.update(int(end))
    p, e = interrupt.call(split_period, g, game.max_take, 3)
    g.setflags(write=False)
    return TakeBreakValues(
        game=game.code, count=count, values=g, max_value=int(g.max()),
        period=int(p) if p else None, preperiod=int(e) if p else None,
        rare_mask=0, rare_heaps=0, new_rare_values=0, seconds=time.perf_counter() - t0,
    )


__all__ = ["hex_values", "leaves_three"]
