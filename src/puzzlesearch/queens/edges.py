"""Start constellations: the four edge queens of a solution, and one of each symmetry class.

Every solution has exactly one queen on each edge of the board: in row 0 (column ``a``),
in the last row (column ``b``), in column 0 (row ``c``) and in the last column (row
``d``). A corner queen is on two edges at once (``a = 0`` means ``c = 0``); no solution has
two corner queens. ``(a, b, c, d)`` is the solution's *constellation*; the counting
kernels (constellation.py) search the solutions of one constellation at a time.

Plain numpy, no numba: the task list of a count is made without loading the JIT.
"""

from __future__ import annotations

import numpy as np

# the columns of a constellation row
A, B, C, D, ORBIT, SYM = range(6)
HALF, QUARTER = 1, 2  # SYM bits: the constellation is fixed by the half turn, the quarter turn


def images(n: int, a, b, c, d) -> tuple:
    """The 8 images of the constellation(s) (a, b, c, d) under the symmetries of the square:
    the identity, the quarter, half and three-quarter turns, the two diagonal reflections,
    the flips top-bottom and left-right (in this order). Works on numbers and numpy arrays.
    """
    m = n - 1
    return (
        (a, b, c, d),
        (m - c, m - d, b, a),
        (m - b, m - a, m - d, m - c),
        (d, c, m - a, m - b),
        (c, d, a, b),
        (m - d, m - c, m - b, m - a),
        (b, a, m - c, m - d),
        (m - a, m - b, d, c),
    )


def constellations(n: int) -> np.ndarray:
    """One constellation per symmetry class: rows (a, b, c, d, orbit, sym), int64, sorted.

    ``orbit`` is the number of distinct images of the constellation under the 8
    symmetries, ``sym`` says which rotations fix it (HALF, QUARTER bits). 4 <= n <= 62.
    The representative of a class is the image whose edge-column queens stand lowest
    (the largest max(c, d)), ties broken by the smallest (a, b, c, d).
    """
    m = n - 1
    a, b, c, d = (x.ravel().astype(np.int64) for x in np.meshgrid(*[np.arange(n)] * 4, indexing="ij"))
    # a corner queen stands on two edges: both must name it (so there is at most one)
    ok = ((a == 0) == (c == 0)) & ((a == m) == (d == 0)) & ((b == 0) == (c == m)) & ((b == m) == (d == m))
    squares = [(np.zeros_like(a), a), (np.full_like(b, m), b), (c, np.zeros_like(c)), (d, np.full_like(d, m))]
    for i, (r1, c1) in enumerate(squares):
        for r2, c2 in squares[i + 1 :]:
            same = (r1 == r2) & (c1 == c2)  # a corner queen named twice
            ok &= same | ((r1 != r2) & (c1 != c2) & (np.abs(r1 - r2) != np.abs(c1 - c2)))
    a, b, c, d = a[ok], b[ok], c[ok], d[ok]
    keys = np.stack([_key(n, *image) for image in images(n, a, b, c, d)])
    own = keys[0]
    keep = own == keys.min(axis=0)
    ordered = np.sort(keys[:, keep], axis=0)
    orbit = 1 + (ordered[1:] != ordered[:-1]).sum(axis=0)
    sym = np.where(keys[2, keep] == own[keep], HALF, 0) | np.where(keys[1, keep] == own[keep], QUARTER, 0)
    out = np.stack([a[keep], b[keep], c[keep], d[keep], orbit, sym], axis=1).astype(np.int64)
    return out[np.lexsort(out[:, 3::-1].T)]


def _key(n: int, a, b, c, d):
    """A number that orders constellations: lowest edge-column queens first, then (a, b, c, d)."""
    return ((((n - 1 - np.maximum(c, d)) * n + a) * n + b) * n + c) * n + d
