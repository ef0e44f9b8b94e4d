"""A deck packed into one 64-bit word, 4 bits a position (position 0 in the low nibble):
the word operations both kernels share."""

from __future__ import annotations

import numpy as np
from numba import njit

_LOW_NIBBLES = np.uint64(0x0F0F0F0F0F0F0F0F)


@njit(cache=True, inline="always")
def reverse_nibbles(x):
    """The 16 nibbles of x in reverse order."""
    x = (x >> np.uint64(32)) | (x << np.uint64(32))
    x = ((x >> np.uint64(16)) & np.uint64(0x0000FFFF0000FFFF)) | (
        (x & np.uint64(0x0000FFFF0000FFFF)) << np.uint64(16)
    )
    x = ((x >> np.uint64(8)) & np.uint64(0x00FF00FF00FF00FF)) | (
        (x & np.uint64(0x00FF00FF00FF00FF)) << np.uint64(8)
    )
    return ((x >> np.uint64(4)) & _LOW_NIBBLES) | ((x & _LOW_NIBBLES) << np.uint64(4))


@njit(cache=True, inline="always")
def unpack(word, n, out):
    """Positions 0..n-1 of a packed deck into out[0..n-1]."""
    for i in range(n):
        out[i] = (word >> np.uint64(4 * i)) & np.uint64(15)


__all__ = ["reverse_nibbles", "unpack"]
