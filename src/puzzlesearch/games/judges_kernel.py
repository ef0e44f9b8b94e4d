"""numba kernels for the judges' two games: the cutting game (POJ 2311) and the Cow Digit
Game (USACO 2009 Open). Each fills its table bottom-up by the plain mex, and is checked in
the tests against the rules in ``rules.py`` played through the general engine.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def cutting_kernel(n: int) -> np.ndarray:
    """g[w, h] for 2 <= w, h <= n: cuts leave two pieces with all sides >= 2."""
    g = np.zeros((n + 1, n + 1), np.int32)
    size = 1
    while size <= 2 * n + 2:  # values <= number of options <= 2n, so XORs stay below size
        size <<= 1
    stamp = np.zeros(size, np.int64)
    mark = 0
    for w in range(2, n + 1):
        for h in range(2, n + 1):
            mark += 1
            for i in range(2, w - 1):
                stamp[g[i, h] ^ g[w - i, h]] = mark
            for j in range(2, h - 1):
                stamp[g[w, j] ^ g[w, h - j]] = mark
            x = 0
            while stamp[x] == mark:
                x += 1
            g[w, h] = x
    return g


# ---------------------------------------------------------------- cow digit game


@njit(cache=True, nogil=True)
def digits_kernel(n_max: int) -> np.ndarray:
    """g[n] for 0 <= n <= n_max: moves n -> n - largest digit, n - smallest non-zero digit."""
    g = np.zeros(n_max + 1, np.int8)
    for n in range(1, n_max + 1):
        m = n
        hi = 0
        lo = 10
        while m:
            d = m % 10
            m //= 10
            if d:
                hi = max(hi, d)
                lo = min(lo, d)
        a = g[n - hi]
        b = g[n - lo]
        x = 0
        while x == a or x == b:
            x += 1
        g[n] = x
    return g


__all__ = ["cutting_kernel", "digits_kernel"]
