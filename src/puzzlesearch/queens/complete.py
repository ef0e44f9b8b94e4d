"""Kernels for completions and listings: plain bitboard backtracking with some rows given.

Without the corner/rotation pruning every solution is met, in lexicographic order of its
columns (the lowest free column is tried first), so these kernels serve for completing
given queens, for listing solutions lazily, and as an independent check of the counting
kernels. A row with a given queen (``fixed[row] >= 0``) may use only that column.

Symmetry classes are still counted exactly. For a completion s of the givens F, let
``a`` be the number of the 8 symmetries g with g(s) ⊇ F and ``stab`` the number with
g(s) = s: the images of s that are completions too number ``k = a / stab``, so adding
``1/k`` for each completion counts each class that holds a completion once. The kernel
adds ``840 * stab / a`` (840 is divisible by every k <= 8) and stays in integers. A listed
solution is its class's representative when no image that is also a completion is
lexicographically smaller.

Symmetry numbering: ``(transpose, flip rows, flip columns)`` bits of ``g`` = 4, 2, 1, as
in ``rules.SYMMETRIES``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

CLASS_UNIT = 840  # lcm(1..8): a class met k times adds k * (840 / k)
#: list_kernel's state[0] (the current row) before the search starts and once it is exhausted
BEFORE_START, EXHAUSTED = -2, -1


@njit(cache=True, nogil=True)
def _column(bit):
    c = 0
    while bit > 1:
        bit >>= 1
        c += 1
    return c


@njit(cache=True, nogil=True)
def _image(cols, g, n, out):
    """out = the board `cols` moved by symmetry g."""
    for r in range(n):
        c = cols[r]
        if g & 4:
            r2, c2 = c, r
        else:
            r2, c2 = r, c
        if g & 2:
            r2 = n - 1 - r2
        if g & 1:
            c2 = n - 1 - c2
        out[r2] = c2


@njit(cache=True, nogil=True)
def _extends(board, fixed, n):
    for r in range(n):
        if fixed[r] >= 0 and board[r] != fixed[r]:
            return False
    return True


@njit(cache=True, nogil=True)
def _compare(a, b, n):
    """-1, 0, 1 as board a is lexicographically below, equal to, above board b."""
    for r in range(n):
        if a[r] != b[r]:
            return -1 if a[r] < b[r] else 1
    return 0


@njit(cache=True, nogil=True)
def class_weight(cols, fixed, n, tmp):
    """840 / (number of images of `cols` that extend `fixed`)."""
    extending = 0
    stab = 0
    for g in range(8):
        _image(cols, g, n, tmp)
        if _extends(tmp, fixed, n):
            extending += 1
        if _compare(tmp, cols, n) == 0:
            stab += 1
    return CLASS_UNIT * stab // extending


@njit(cache=True, nogil=True)
def is_representative(cols, fixed, n, tmp):
    """No image of `cols` that also extends `fixed` is lexicographically smaller."""
    for g in range(1, 8):
        _image(cols, g, n, tmp)
        if _compare(tmp, cols, n) < 0 and _extends(tmp, fixed, n):
            return False
    return True


@njit(cache=True, nogil=True)
def _start(n, fixed, prefix, cols, cand, left, down, right):
    """Place the prefix columns; set up row len(prefix). Returns False if the prefix is dead."""
    mask = (np.int64(1) << n) - 1
    lf = np.int64(0)
    dn = np.int64(0)
    rt = np.int64(0)
    for r in range(prefix.shape[0]):
        c = prefix[r]
        bit = np.int64(1) << c
        if bit & (lf | dn | rt) or (fixed[r] >= 0 and fixed[r] != c):
            return False
        cols[r] = c
        lf = ((lf | bit) << 1) & mask
        dn |= bit
        rt = (rt | bit) >> 1
    y = prefix.shape[0]
    left[y] = lf
    down[y] = dn
    right[y] = rt
    free = mask & ~(lf | dn | rt)
    if y < n and fixed[y] >= 0:
        free &= np.int64(1) << fixed[y]
    cand[y] = free
    return True


@njit(cache=True, nogil=True)
def complete_kernel(n, fixed, prefix):
    """Count the solutions extending `fixed` and the placed columns `prefix`.

    Returns (nodes, solutions, class_units): placements made, solutions found, and 840
    times the number of symmetry classes they represent (see the module docstring).
    """
    mask = (np.int64(1) << n) - 1
    cols = np.zeros(n, np.int64)
    tmp = np.zeros(n, np.int64)
    left = np.zeros(n + 1, np.int64)
    down = np.zeros(n + 1, np.int64)
    right = np.zeros(n + 1, np.int64)
    cand = np.zeros(n + 1, np.int64)
    nodes = np.int64(0)
    found = np.int64(0)
    units = np.int64(0)
    start = prefix.shape[0]
    if not _start(n, fixed, prefix, cols, cand, left, down, right):
        return nodes, found, units
    if start == n:
        return nodes, np.int64(1), np.int64(class_weight(cols, fixed, n, tmp))
    y = start
    while y >= start:
        free = cand[y]
        if free == 0:
            y -= 1
            continue
        bit = free & -free
        cand[y] = free ^ bit
        cols[y] = _column(bit)
        nodes += 1
        z = y + 1
        if z == n:
            found += 1
            units += class_weight(cols, fixed, n, tmp)
            continue
        lf = ((left[y] | bit) << 1) & mask
        dn = down[y] | bit
        rt = (right[y] | bit) >> 1
        free = mask & ~(lf | dn | rt)
        if fixed[z] >= 0:
            free &= np.int64(1) << fixed[z]
        if free == 0:
            continue
        y = z
        left[y] = lf
        down[y] = dn
        right[y] = rt
        cand[y] = free
    return nodes, found, units


# list_kernel repeats complete_kernel's backtracking loop on purpose: it keeps its stack in
# the caller's arrays, to stop after a batch and resume, and writes boards where the other
# counts them; one kernel for both would test which job it does on every placement.
@njit(cache=True, nogil=True)
def list_kernel(n, fixed, unique, state, cols, cand, left, down, right, out):
    """Resume a listing: write up to len(out) further solutions to out; return how many.

    The search state lives in the caller's arrays between calls: ``state[0]`` is the
    current row (EXHAUSTED once the search is exhausted, BEFORE_START before it starts), ``cols[:row]``
    the queens placed, ``cand[row]`` the columns of that row still to try.
    """
    mask = (np.int64(1) << n) - 1
    tmp = np.zeros(n, np.int64)
    written = 0
    y = state[0]
    if y == BEFORE_START:
        if not _start(n, fixed, cols[:0], cols, cand, left, down, right):
            state[0] = EXHAUSTED
            return 0
        y = 0
    while y >= 0 and written < out.shape[0]:
        free = cand[y]
        if free == 0:
            y -= 1
            continue
        bit = free & -free
        cand[y] = free ^ bit
        cols[y] = _column(bit)
        z = y + 1
        if z == n:
            if not unique or is_representative(cols, fixed, n, tmp):
                out[written, :] = cols
                written += 1
            continue
        lf = ((left[y] | bit) << 1) & mask
        dn = down[y] | bit
        rt = (right[y] | bit) >> 1
        free = mask & ~(lf | dn | rt)
        if fixed[z] >= 0:
            free &= np.int64(1) << fixed[z]
        if free == 0:
            continue
        y = z
        left[y] = lf
        down[y] = dn
        right[y] = rt
        cand[y] = free
    state[0] = y
    return written
