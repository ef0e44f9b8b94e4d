"""Subtraction games: values, and the period proven by a repeated window.

In the subtraction game S (a finite set of positive integers) a move removes s tokens
from one heap, for some s in S. G(n) = mex{G(n - s) : s in S, s <= n} depends only on the
m = max(S) values before it, so the sequence is eventually periodic (there are finitely
many windows of m values), and as soon as one window repeats, G(n) = G(n + p) for m
consecutive n from e on, the sequence is periodic with period p from e on (*Winning
Ways*, ch. 4). The values come from a numba kernel (``subtraction_kernel.subtraction_range``,
the plain mex over the |S| options) and the period from ``periods.window_period``: the least
p, with the least preperiod e, that the computed values prove, in time linear in the count
(``periods.least_repeat``: long runs of equal values, as in S = {10^6}, are compared by a
rolling hash).

    >>> from puzzlesearch.games.rules import parse_subtraction
    >>> r = subtraction_values(parse_subtraction("1,3,4"), 20, RunOptions())
    >>> r.values.tolist()[:14], r.period, r.preperiod
    ([0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2], 7, 0)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from puzzlesearch.engine import figures, interrupt
from puzzlesearch.engine.memory import require
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.params import flag
from puzzlesearch.engine.progress import Meter

from .limits import SUBTRACTION_HEAP_BYTES
from .periods import window_period
from .rules import SubtractionSet
from .subtraction_kernel import subtraction_range

RANGE = 1 << 20  # heaps per kernel call: progress and Ctrl-C between calls


@dataclass(frozen=True)
class SubtractionValues:
    """G(0..count-1) of a subtraction game, with the period the values prove.

    Attributes:
        game: The game, as written ("sub:1,3,4").
        moves: The subtraction set.
        count: The heaps computed: 0..count-1.
        values: G(n) of each heap n (not shown in the repr).
        max_value: The largest value.
        period: The period, once a window of max(S) values repeats (None: not yet).
        preperiod: The heap the period starts at (None: no period).
        seconds: The time the values took.
    """

    game: str
    moves: tuple[int, ...]
    count: int
    values: np.ndarray = field(repr=False)
    max_value: int
    period: int | None
    preperiod: int | None
    seconds: float

    def _repr_svg_(self) -> str | None:
        """A notebook shows the values against the heap (pictures.values_figure; None
        without matplotlib)."""
        from . import pictures

        return figures.notebook_svg(pictures.values_figure, self)

    def to_json(self, values: bool = True) -> dict:
        """The fields as JSON values.

        Args:
            values: Include the values (False: all fields but the values).
        """
        values = flag(values, "values")
        obj: dict = {"game": self.game, "moves": list(self.moves), "count": self.count}
        if values:
            obj["values"] = self.values.tolist()
        obj.update({"max_value": self.max_value, "period": self.period, "preperiod": self.preperiod,
                    "seconds": round(self.seconds, 4)})
        return obj


def subtraction_values(game: SubtractionSet, count: int, run: RunOptions) -> SubtractionValues:
    """Values of heaps 0..count-1 (1 <= count <= COUNT_MAX) of the subtraction game `game`, and
    its period and preperiod once a window of max(S) values repeats within them; 4 bytes a heap
    within `run.memory`."""
    label = f"subtraction game {{{','.join(map(str, game.moves))}}}"
    require(SUBTRACTION_HEAP_BYTES * count, run.memory, f"{label} to {count:,} heaps")
    t0 = time.perf_counter()
    s = np.array(game.moves, np.int64)
    g = np.zeros(count, np.int32)
    stamp = np.full(len(s) + 2, -1, np.int64)
    with Meter(label, count, "heaps", run.progress) as meter:
        for start in range(0, count, RANGE):
            end = min(count, start + RANGE)
            interrupt.call(subtraction_range, s, start, end, g, stamp)
            meter.update(end)
    p, e = interrupt.call(window_period, g, int(s[-1]))
    g.setflags(write=False)
    return SubtractionValues(
        game=label,
        moves=game.moves,
        count=count,
        values=g,
        max_value=int(g.max()),
        period=int(p) if p else None,
        preperiod=int(e) if p else None,
        seconds=time.perf_counter() - t0,
    )


__all__ = ["SubtractionValues", "subtraction_values"]
