"""The values of a take-and-break game by the plain O(n^2) mex over every move: the reference
the take-and-break kernels are checked against (and the benchmarks' baseline)."""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzlesearch.games.limits import VALUE_LIMIT


@njit(cache=True)
def naive_values(digits: np.ndarray, unequal: bool, count: int) -> np.ndarray:
    """G(0..count-1) of the game with octal digits `digits` (`unequal`: a split leaves heaps of
    different sizes), each the mex of every option's value, every split included."""
    t = len(digits) - 1
    g = np.zeros(count, np.int32)
    stamp = np.full(VALUE_LIMIT + 1, -1, np.int64)
    for n in range(count):
        for j in range(min(t, n) + 1):
            d = digits[j]
            if j > 0:
                if d & 1 and n == j:
                    stamp[0] = n
                if d & 2 and n > j:
                    stamp[g[n - j]] = n
            if d & 4:
                m = n - j
                for a in range(1, m // 2 + 1):
                    if not (unequal and 2 * a == m):
                        stamp[g[a] ^ g[m - a]] = n
        x = 0
        while stamp[x] == n:
            x += 1
        g[n] = x
    return g


def octal_naive(digits: tuple[int, ...], count: int, unequal: bool = False) -> np.ndarray:
    """naive_values of the octal digits `digits` (a tuple, as OctalCode holds them)."""
    return naive_values(np.array(digits, np.int64), unequal, count)
