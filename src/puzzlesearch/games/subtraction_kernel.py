"""The numba kernel of subtraction games: G(n) = mex{G(n - s) : s in S, s <= n}, the plain
mex over the |S| options of each heap, checked in the tests against the plain rules played
through the general engine.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def subtraction_range(moves: np.ndarray, start: int, end: int, g: np.ndarray, stamp: np.ndarray) -> None:
    """Fill g[start:end] given g[:start]: G(n) = mex{G(n - s) : s in moves, s <= n}.

    `moves` ascends; `stamp` has len(moves) + 2 entries (a value is at most the number of
    options), and stamp[v] == n marks v as the value of an option of heap n.
    """
    k = len(moves)
    for n in range(start, end):
        for i in range(k):
            s = moves[i]
            if s > n:
                break
            stamp[g[n - s]] = n
        x = 0
        while stamp[x] == n:
            x += 1
        g[n] = x


__all__ = ["subtraction_range"]
