"""The popcount game: a number is replaced by 1 to P numbers, each with fewer set bits.

The value of a number depends only on its number k of set bits: G(k) is the mex of the
XORs of multisets of at most P values G(k'), k' < k. The XORs reachable are kept as bitmaps
(``bits.xor_or``, ``bits.first_zero``), one per number of parts.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from math import comb

import numpy as np

from . import limits
from .bits import first_zero, xor_or


@dataclass(frozen=True)
class PopcountValues:
    """G(k) for k = 0..max_k set bits when a number becomes 1..parts numbers with fewer bits.

    Attributes:
        parts: The most numbers a move leaves.
        values: G(k) for k = 0..max_k.
        seconds: The time the values took.
    """

    parts: int
    values: tuple[int, ...]
    seconds: float


def popcount_values(parts: int, max_k: int) -> PopcountValues:
    """G(k) = mex of the XORs of multisets of 1..parts values G(k'), k' < k (parts >= 1,
    0 <= max_k <= POPCOUNT_BITS).

    Method: bitmaps R_j of the XORs of at most j of the values found so far (G(0) = 0
    pads a multiset, so "at most" equals "1 to"). G(k) is the least number missing from
    R_parts; then R_j |= G(k) XOR R_(j-1) for j = parts..1 adds the new value. The
    bitmaps double whenever a value needs another bit; using G(k) twice cancels, so
    each update is one XOR-translation per level. A doubling beyond POPCOUNT_MEMORY is
    refused before it is allocated (the values, so the sizes, are not known sooner).
    """
    t0 = time.perf_counter()
    asked = parts
    parts = min(parts, max(max_k, 1))  # more parts than non-zero values add no new XOR
    levels = np.zeros((parts + 1, 1), np.uint64)
    levels[:, 0] = 1  # only 0 is reachable with the values {G(0)} = {0}
    values = [0]
    for k in range(1, max_k + 1):
        g = int(first_zero(levels[parts]))
        values.append(g)
        words = levels.shape[1]
        need = max(1, (1 << g.bit_length()) // 64)
        if need > words:
            if (parts + 1) * need * 8 > limits.POPCOUNT_MEMORY:
                raise ValueError(
                    f"G({k}) = {g} needs bitmaps of 2^{g.bit_length()} bits per level, over the "
                    f"{limits.POPCOUNT_MEMORY >> 20} MiB limit; try fewer --parts or a smaller --max-k"
                )
            grown = np.zeros((parts + 1, need), np.uint64)
            grown[:, :words] = levels
            levels = grown
        for j in range(parts, 0, -1):
            xor_or(levels[j], levels[j - 1], g)
    return PopcountValues(asked, tuple(values), time.perf_counter() - t0)


def popcount_value_bound(parts: int, k: int) -> int:
    """|{XORs of at most `parts` of k-1 distinct non-zero values}| bound: G(k) <= this."""
    return sum(comb(k - 1, j) for j in range(min(parts, k - 1) + 1)) if k else 0


__all__ = ["PopcountValues", "popcount_value_bound", "popcount_values"]
