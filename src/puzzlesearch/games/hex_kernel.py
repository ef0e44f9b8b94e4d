"""The numba kernel of hexadecimal games that may leave three heaps (a digit with bit 8): the
plain mex, over bitmaps of the values of the splits into two and three heaps. Checked in the
tests against the plain rules played through the general engine.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import ONE, first_zero, xor_bits
from .limits import HEX_VALUE_LIMIT

#: slots of `scalars`: every value so far is below 2^scalars[BITS]; OVERFLOWED is 1 once a value
#: reached HEX_VALUE_LIMIT
BITS, OVERFLOWED = 0, 1
SCALARS = 2
#: the first BITS: bitmaps of at least one word
FIRST_BITS = 6


@njit(cache=True, nogil=True)
def hex_range(digits: np.ndarray, start: int, end: int, g: np.ndarray, s2: np.ndarray, t3: np.ndarray,
              scalars: np.ndarray) -> None:
    """Fill g[start:end] of a hexadecimal game (digit bit 8: leave three non-empty heaps).

    Bitmaps of reachable values, HEX_WORDS words a heap: s2[r] = {G(a) ^ G(r - a)} over the
    splits of r into two heaps, t3[r] = {G(a) ^ x : 1 <= a <= r/3, x in s2[r - a]} over the
    splits into three (a the smallest part; s2[r - a] also holds pairs with a part below a,
    which are splits into three all the same). Invariant: every value so far is below
    2^scalars[BITS] (>= 64), so XORs are too, and only the first 2^scalars[BITS] / 64 words of
    a bitmap can be non-zero. scalars[OVERFLOWED] = 1 when a value reaches HEX_VALUE_LIMIT (g
    is then incomplete).
    """
    t = len(digits) - 1
    any3 = False
    for j in range(t + 1):
        if digits[j] & 8:
            any3 = True
    reach = np.zeros(s2.shape[1], np.uint64)
    bits = scalars[BITS]
    for n in range(start, end):
        wu = 1 << (bits - 6)
        for w in range(wu):
            s2[n, w] = 0
        for a in range(1, n // 2 + 1):
            v = g[a] ^ g[n - a]
            s2[n, v >> 6] |= ONE << np.uint64(v & 63)
        if any3:
            for w in range(wu):
                t3[n, w] = 0
            for a in range(1, n // 3 + 1):
                hi = g[a] >> 6
                lo = g[a] & 63
                for w in range(wu):
                    t3[n, w] |= xor_bits(s2[n - a, w ^ hi], lo)
        for w in range(wu):
            reach[w] = 0
        for j in range(min(t, n) + 1):
            d = digits[j]
            rest = n - j
            if j > 0 and d & 1 and rest == 0:
                reach[0] |= ONE
            if j > 0 and d & 2 and rest > 0:
                reach[g[rest] >> 6] |= ONE << np.uint64(g[rest] & 63)
            if d & 4:
                for w in range(wu):
                    reach[w] |= s2[rest, w]
            if d & 8:
                for w in range(wu):
                    reach[w] |= t3[rest, w]
        x = first_zero(reach[:wu])
        if x >= HEX_VALUE_LIMIT:
            scalars[OVERFLOWED] = 1
            return
        g[n] = x
        while (1 << bits) <= x:
            bits += 1
    scalars[BITS] = bits


__all__ = ["BITS", "FIRST_BITS", "OVERFLOWED", "SCALARS", "hex_range"]
