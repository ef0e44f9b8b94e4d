"""The two hot loops of a stabiliser chain (`schreier.Chain`), compiled: the sift, where a
permutation of the group goes down the levels, each time multiplied by the inverted
transversal row of its base point's image, until a level does not hold that image; and
the closure of a level's orbit when a new element joins the level."""

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


@njit(cache=True, nogil=True)
def close(j: int, new: int, elements: np.ndarray, inverses: np.ndarray, mine: np.ndarray,
          orbit: np.ndarray, size: np.ndarray, where: np.ndarray, rows: np.ndarray, nrows: int) -> int:
    """Level j's orbit closed under its elements after element `new` joined them.

    `elements[k]`, `inverses[k]`: the chain's elements and their inverses; `mine`: the
    indexes of level j's, `new` among them. The orbit is `orbit[j, :size[j]]`; each point
    z it gains gets the row (u_y s)^-1 = s^-1 u_y^-1 from the point y that s sends to z,
    at `rows[nrows]` (the caller leaves room for a whole orbit), and `where[j, z]`.
    Returns the rows used. The points already there need only the new element; a point
    gained needs them all."""
    n = rows.shape[1]
    start = size[j]
    for i in range(start):
        nrows = _image(j, orbit[j, i], elements[new], inverses[new], orbit, size, where, rows, nrows, n)
    i = start
    while i < size[j]:
        y = orbit[j, i]
        for k in mine:
            nrows = _image(j, y, elements[k], inverses[k], orbit, size, where, rows, nrows, n)
        i += 1
    return nrows


@njit(cache=True, nogil=True)
def _image(j, y, s, sinv, orbit, size, where, rows, nrows, n):
    z = s[y]
    if where[j, z] >= 0:
        return nrows
    row = rows[where[j, y]]
    for x in range(n):
        rows[nrows, x] = row[sinv[x]]
    where[j, z] = nrows
    orbit[j, size[j]] = z
    size[j] += 1
    return nrows + 1


__all__ = ["close", "sift"]
