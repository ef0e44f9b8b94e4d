"""Bit operations the kernels share: the parity of a value (the rare/common split of the
take-and-break kernels) and bitmaps of numbers packed 64 to a word (the popcount game's
reachable XORs, the hexadecimal games' reachable values).
"""

from __future__ import annotations

import numpy as np
from numba import njit

ONE = np.uint64(1)

_M = (
    np.uint64(0x5555555555555555),
    np.uint64(0x3333333333333333),
    np.uint64(0x0F0F0F0F0F0F0F0F),
    np.uint64(0x00FF00FF00FF00FF),
    np.uint64(0x0000FFFF0000FFFF),
    np.uint64(0x00000000FFFFFFFF),
)
_M0, _M1, _M2, _M3, _M4, _M5 = _M
_S = tuple(np.uint64(1 << b) for b in range(6))
_S0, _S1, _S2, _S3, _S4, _S5 = _S


@njit(cache=True, inline='always')
def parity(x: int) -> int:
    """The parity of the set bits of x (x < 2^32)."""
    x ^= x >> 16
    x ^= x >> 8
    x ^= x >> 4
    x ^= x >> 2
    x ^= x >> 1
    return x & 1


@njit(cache=True)
def xor_bits(x: np.uint64, s: int) -> np.uint64:
    """Bit i of the result is bit i ^ s of x (0 <= s < 64): swap blocks of 2^b for each bit b of s."""
    if s & 1:
        x = ((x & _M0) << _S0) | ((x >> _S0) & _M0)
    if s & 2:
        x = ((x & _M1) << _S1) | ((x >> _S1) & _M1)
    if s & 4:
        x = ((x & _M2) << _S2) | ((x >> _S2) & _M2)
    if s & 8:
        x = ((x & _M3) << _S3) | ((x >> _S3) & _M3)
    if s & 16:
        x = ((x & _M4) << _S4) | ((x >> _S4) & _M4)
    if s & 32:
        x = ((x & _M5) << _S5) | ((x >> _S5) & _M5)
    return x


@njit(cache=True)
def xor_or(dst: np.ndarray, src: np.ndarray, v: int) -> None:
    """dst |= {x ^ v : x in src}, on bitmaps packed 64 numbers to a word (len >= v/64)."""
    hi = v >> 6
    lo = v & 63
    for w in range(dst.shape[0]):
        dst[w] |= xor_bits(src[w ^ hi], lo)


@njit(cache=True)
def first_zero(bits: np.ndarray) -> int:
    """The least number absent from a packed bitmap (64 * len if all are present)."""
    full = np.uint64(0xFFFFFFFFFFFFFFFF)
    for w in range(bits.shape[0]):
        x = bits[w]
        if x != full:
            i = 0
            while (x >> np.uint64(i)) & np.uint64(1):
                i += 1
            return 64 * w + i
    return 64 * bits.shape[0]


__all__ = ["ONE", "first_zero", "parity", "xor_bits", "xor_or"]
