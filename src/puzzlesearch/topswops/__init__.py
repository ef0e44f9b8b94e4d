"""Topswops (J. H. Conway's card game): f(n), the decks that reach it, plain play.

The public API is in api.py (re-exported here). The modules, by job:

    rules.py            the game in plain Python: flip, steps, trace (the reference)
    limits.py           the n each search supports, and the one check of n
    packed.py           a deck packed 4 bits a card in a 64-bit word (both kernels)
    backward_kernel.py  the backward depth-first search (numba)
    backward.py         runs it: f(n) and every optimal deck (Pepperdine; Knuth's topswops.w)
    forward_kernel.py   the forward branch-and-bound (numba)
    forward.py          runs it in one call, or split into tasks for the engine (Knuth's
                        topswops-fwd.w; Nguyen & Fahle)
    bounds.py           the forward search's bounds f(m), m < n, from the results store
    calls.py            calling a kernel: interruptible, watched by a meter, buffers that grow
    plain.py            both searches in plain Python (the kernels' references, small n)
    long_kernel.py      beam and depth-first searches backward for long decks (numba)
    long.py             `long`: an anytime search for long decks, any n <= 255
    estimate_kernel.py  random probes of the forward tree (numba)
    estimate.py         `estimate`: Knuth's estimate of the forward search's size and time
    api.py, cli.py      the public API, and the command line over it
"""

from . import rules
from .api import (
    DEEP_FROM,
    MAX_LONG_WORKERS,
    MODES,
    SEARCHES,
    Optimal,
    Play,
    RunOptions,
    Solution,
    deck,
    estimate,
    long,
    optimal,
    play,
    solve,
)

__all__ = ["DEEP_FROM", "MAX_LONG_WORKERS", "MODES", "SEARCHES", "Optimal", "Play", "RunOptions", "Solution",
           "deck", "estimate", "long", "optimal", "play", "rules", "solve"]
