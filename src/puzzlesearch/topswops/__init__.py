"""Topswops (J. H. Conway's card game): f(n), the decks that reach it, plain play.

The public API is in api.py (re-exported here). The modules, by job:

    rules.py            the game in plain Python: flip, steps, trace (the reference)
    limits.py           the n each search supports, and the one check of n
    bounds.py           the forward search's bounds and first target, as the searches use them
    known.py            what the results store keeps: f(m), the longest decks, the bottom bounds
    packed.py           a deck packed 4 bits a card in a 64-bit word (both kernels)
    calls.py            calling a kernel: interruptible, watched by a meter, buffers that grow
    backward_kernel.py  the backward depth-first search (numba)
    backward.py         runs it: f(n) and every optimal deck (Pepperdine; Knuth's topswops.w)
    forward_kernel.py   the forward branch-and-bound (numba), decks packed 4 bits a card
    wide_kernel.py      the same tree for decks past 16 cards, rows of bytes (numba)
    forward.py          runs it in one call, or split into tasks for the engine (Knuth's
                        topswops-fwd.w); the bounds f(m), m < n
    plain.py            both searches in plain Python (the kernels' references, small n)
    longdecks_kernel.py beam and depth-first searches backward for long decks (numba)
    longdecks.py        `long`: an anytime search for long decks, any n <= 255 (no module is
                        named `long` or `estimate`: importing it would replace the function
                        of that name in this package)
    bottom_kernel.py    n-card games undone from (n-1)-card ones (numba)
    bottom.py           the bound on the steps left once card n is at the bottom, and its
                        chain (Chaffin)
    probes_kernel.py    random probes of the forward tree (numba)
    probes.py           `estimate`: Knuth's estimate of the forward search's size and time
    choice.py           Knuth's search or the deep one, and the deep one's k, by estimate
    plan.py             what the forward search starts from: bounds, a long deck, target,
                        the method, bottom bound, estimate, each with where it came from
    api.py, cli.py      the public API (check, plan, search, replay, remember), and the
                        command line over it

Imports go one way: kernels <- searches (forward, backward, longdecks) <- bottom, probes
<- choice <- plan <- api <- cli.
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
