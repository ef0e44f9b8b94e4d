"""The sizes each search supports, and the one check of n (in the words the command line prints);
also the n from which the deep forward search is the default, and `long`'s most workers.

The backward search packs a deck 4 bits a card into one 64-bit word (packed.py), 0 for
an undetermined position, so its values 1..n must fit in 1..15. The forward search packs
the values 1..16 as 0..15 the same way (forward_kernel.py), and beyond 16 cards keeps a
deck as a row of at most 32 bytes (wide_kernel.py). This module imports no numba, so that
checking a size costs nothing.
"""

from __future__ import annotations

from puzzlesearch.engine.params import whole

#: the backward search packs a deck in 64 bits, 0 = undetermined: n <= 15
MAX_BACKWARD = 15
#: the forward search packs the values 1..16 as 0..15 up to this n (forward_kernel.py)
MAX_PACKED = 16
#: and keeps a deck as a row of 32 bytes beyond (wide_kernel.py): n <= 32
MAX_FORWARD = 32
#: from this n on a search takes seconds or more: the forward search is split for all
#: cores by default, and a search running in this process shows a progress meter
LONG_FROM = 13
#: from this n on, the forward search chooses by Knuth's probes between Knuth's search and
#: the deep one (plan.py, choice.py: it starts at a long deck and uses the bottom bound,
#: bottom.py). At n = 13 Knuth's search takes seconds (2.1 s, 1.26e8 nodes), less than
#: choosing would cost
DEEP_FROM = 14
#: the largest f(m) a search computes on the way (on the run's workers) when the results store
#: lacks it (f(15): minutes); from f(16) on each is a long run of its own, asked for by name
BOUNDS_ON_THE_WAY = 15
#: `long` runs its workers as threads of this one process, sharing its beams' memory
MAX_LONG_WORKERS = 1024


def check_n(n: object, mode: str) -> int:
    """n as an int if the search `mode` ("backward", "forward" or "both") supports it,
    else ValueError in the words the command line prints."""
    n = whole(n, "n")
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    if mode in ("backward", "both") and n > MAX_BACKWARD:
        raise ValueError(f"--mode {mode} supports n <= {MAX_BACKWARD} (the backward search packs a deck in "
                         f"64 bits), got n={n}; --mode forward goes to n = {MAX_FORWARD}")
    if n > MAX_FORWARD:
        raise ValueError(f"--mode forward supports n <= {MAX_FORWARD} (a deck is a row of at most "
                         f"{MAX_FORWARD} bytes), got n={n}")
    return n


__all__ = ["BOUNDS_ON_THE_WAY", "DEEP_FROM", "LONG_FROM", "MAX_BACKWARD", "MAX_FORWARD", "MAX_LONG_WORKERS",
           "MAX_PACKED", "check_n"]
