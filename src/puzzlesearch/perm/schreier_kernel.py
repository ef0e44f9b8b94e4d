"""The sift of a stabiliser chain (`schreier.Chain`), compiled: a permutation of the group
goes down the levels, each time multiplied by the inverted transversal row of its base
point's image, until a level does not hold that image."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def sift(g: np.ndarray, base: np.ndarray, levels: int, where: np.ndarray, rows: np.ndarray,
         out: np.ndarray) -> int:
    """What is left of g in `out`; returns the level where it stopped (`levels`: through)."""
    n = g.shape[0]
    for x in range(n):
        out[x] = g[x]
    tmp = np.empty(n, dtype=g.dtype)
    for j in range(levels):
        r = where[j, out[base[j]]]
        if r < 0:
            return j
        row = rows[r]
        for x in range(n):
            tmp[x] = row[out[x]]
        for x in range(n):
            out[x] = tmp[x]
    return levels


__all__ = ["sift"]
