"""Backward search for Topswops f(n) (Pepperdine 1989; Knuth's topswops.w).

Every game ends with card 1 on top, so search from the end. Start with card 1 at the
top and every other position *undetermined* (0), and undo one move at a time, depth
first. Undoing "reverse the top k+1 cards" is possible when position k is undetermined
and the value k+1 is still unused (we decide it now), or when position k already holds
k+1; the earlier deck is the current one with positions 0..k reversed, which puts k+1 on
top. Undetermined cards never reach the top along the path, so any way of filling them
plays exactly the same game: a partial deck at depth d stands for decks of d steps, and
every deck of the game is reached this way. There is no pruning, and the deepest level
reached is f(n). [A. Pepperdine, "Topswops", Math. Gazette 73 (1989) 131-133;
D. E. Knuth, topswops.w.]

The search is one call of the kernel (backward_kernel.py) in this process; its progress
is the number of partial decks met so far, and the deepest level reached so far.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import permutations

import numpy as np

from puzzlesearch.engine.progress import Meter
from puzzlesearch.topswops import calls
from puzzlesearch.topswops.backward_kernel import Found, backward_kernel, fibonacci_bound
from puzzlesearch.topswops.limits import LONG_FROM, check_n


def completions(partial: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every full deck agreeing with `partial` (0 = undetermined); all play the same game."""
    n = len(partial)
    free = [i for i, x in enumerate(partial) if x == 0]
    unused = sorted(set(range(1, n + 1)) - set(partial))
    out = []
    for values in permutations(unused):
        deck = list(partial)
        for i, v in zip(free, values, strict=True):
            deck[i] = v
        out.append(tuple(deck))
    return sorted(out)


@dataclass(frozen=True)
class BackwardResult:
    n: int
    steps: int  # f(n)
    partial_decks: list[tuple[int, ...]]  # decks at the deepest level, 0 = any unused value
    decks: list[tuple[int, ...]]  # every full deck reaching f(n)
    records: list[tuple[int, tuple[int, ...]]]  # (depth, first partial deck found at it)
    nodes_per_level: list[int]
    nodes: int
    seconds: float


def _deepest(nodes: np.ndarray) -> str:
    # all zeros while the kernel has cleared its counts and not yet copied any: the start deck (0 steps)
    reached = np.flatnonzero(nodes)
    return f"longest so far: {int(reached[-1]) if len(reached) else 0} steps"


def solve_backward(n: int, *, progress: bool = False) -> BackwardResult:
    """f(n) and all decks reaching it, by the backward search. With `progress` (and
    stderr a terminal, n >= LONG_FROM), a meter shows the partial decks met so far."""
    n = check_n(n, "backward")
    t0 = time.perf_counter()
    maxdepth = fibonacci_bound(n)
    watch = np.zeros(maxdepth + 2, np.int64)
    with Meter(f"topswops backward n={n}", None, "decks", progress and n >= LONG_FROM) as meter:
        found = calls.until_it_fits(
            lambda cap: Found._make(calls.call(backward_kernel, n, maxdepth, cap, watch, meter=meter,
                                               nodes=watch, note=_deepest)),
            needed=lambda found: found.count,
        )
        meter.update(int(found.nodes.sum()), _deepest(found.nodes))
    partial = sorted(tuple(int(x) for x in row) for row in found.decks[:found.count])
    full = sorted(d for p in partial for d in completions(p))
    records = found.records
    return BackwardResult(
        n=n,
        steps=int(found.best),
        partial_decks=partial,
        decks=full,
        records=[(i, tuple(int(x) for x in records[i])) for i in range(len(records)) if records[i, 0]],
        nodes_per_level=[int(x) for x in found.nodes],
        nodes=int(found.nodes.sum()),
        seconds=time.perf_counter() - t0,
    )


__all__ = ["BackwardResult", "completions", "solve_backward"]
