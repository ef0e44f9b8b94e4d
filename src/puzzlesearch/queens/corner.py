"""Counting kernels: total and unique N-Queens solutions in one search (corner/rotation method).

The method is Takaken's refinement (2003) of Jeff Somers' bitboard backtracker, as
described on takaken's N-Queens page and used by many of the fastest counting programs.
Rows are placed top to bottom; a row's free columns are ``mask & ~(left | down | right)``,
where ``down`` holds the occupied columns and ``left``/``right`` the two diagonals shifted
one step per row; the lowest free column is ``bits & -bits``. Columns are bits: column c
is ``1 << c``.

Only one board of each symmetry class is searched, and it is classified on the spot:

* **Corner** (a queen at row 0, column 0).  No such board is symmetric under any
  non-trivial rotation, so each found board stands for a class of 8. The main-diagonal
  reflection keeps the corner; of a board and its transpose only the one whose row-1
  queen (column ``bound1``) lies left of the row of the column-1 queen is searched:
  rows ``1 .. bound1-1`` may not use column 1.
* **Side** (row 0's queen at column ``bound1``, ``1 <= bound1 < bound2 = n-1-bound1``,
  no queen in a corner). Of the four queens on the edges of the board, row 0's must be
  nearest to a corner: the queens of the two edge columns stand in rows ``bound1 ..
  bound2`` (rows above ``bound1`` may not use those columns, and by row ``bound2`` both
  must be taken), and the last row's queen in a column ``bound1 .. bound2``. Boards that
  tie are settled when complete: each is compared with its 90, 180 and 270 degree
  rotations read in the same orientation; a board larger than one of them is not the
  representative and is dropped, one equal to its 90-degree rotation is a class of 2,
  equal to its 180-degree rotation a class of 4, otherwise a class of 8.

So ``unique = c8 + c4 + c2`` and ``total = 8*c8 + 4*c4 + 2*c2``. The kernels start from a
prefix of placed rows, so that the search splits into independent tasks; ``split_kernel``
lists the prefixes a few rows down with the same row rules (``_corner_free``,
``_side_free``) the counting kernels apply.

Both counting kernels keep in ``cand[y]`` only the columns whose queen leaves the next row
a free square (``alive``): a placement never meets an empty next row, so the hot loop has
no "dead child" branch to mispredict, and a row whose candidates all fail is not entered.
The columns a row may take whatever the queens above (the corner and side rules that do not
depend on them) come from a per-row mask, ``rowmask``.

Invariants of the explicit stack: ``cand[y]`` holds the columns of row ``y`` still to be
tried; ``left[y], down[y], right[y]`` are the attacks entering row ``y``; ``board[y]`` is
the bit of row ``y``'s queen for the rows above the current one. Row indices are
unsigned, so that numba does not test them for negative (wrap-around) indexing.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros


@njit(cache=True, nogil=True)
def _rotation_class(board, n, bound1, bound2, endbit):
    """0 if `board` is not its class's representative, else the class size (2, 4 or 8)."""
    last = n - 1
    topbit = np.int64(1) << last
    # 90 degrees: only possible when the queen of row bound2 is in column 0
    if board[bound2] == 1:
        own = 1
        ptn = np.int64(2)
        while own <= last:
            bit = np.int64(1)
            you = last
            while board[you] != ptn and board[own] >= bit:
                bit <<= 1
                you -= 1
            if board[own] > bit:
                return 0
            if board[own] < bit:
                break
            own += 1
            ptn <<= 1
        if own > last:
            return 2
    # 180 degrees: only possible when the last row mirrors row 0
    if board[last] == endbit:
        own = 1
        you = last - 1
        while own <= last:
            bit = np.int64(1)
            ptn = topbit
            while ptn != board[you] and board[own] >= bit:
                bit <<= 1
                ptn >>= 1
            if board[own] > bit:
                return 0
            if board[own] < bit:
                break
            own += 1
            you -= 1
        if own > last:
            return 4
    # 270 degrees: only possible when the queen of row bound1 is in the last column
    if board[bound1] == topbit:
        own = 1
        ptn = topbit >> 1
        while own <= last:
            bit = np.int64(1)
            you = 0
            while board[you] != ptn and board[own] >= bit:
                bit <<= 1
                you += 1
            if board[own] > bit:
                return 0
            if board[own] < bit:
                break
            own += 1
            ptn >>= 1
    return 8


@njit(cache=True, nogil=True)
def _side_masks(n, bound1):
    """(sidemask, lastmask, endbit) of the side search with row 0's queen at column bound1."""
    topbit = np.int64(1) << (n - 1)
    sidemask = topbit | 1
    lastmask = sidemask
    endbit = topbit >> 1
    for _ in range(1, bound1):
        lastmask |= (lastmask >> 1) | (lastmask << 1)
        endbit >>= 1
    return sidemask, lastmask, endbit


@njit(cache=True, nogil=True, inline="always")
def _corner_free(free, row, bound1):
    """Row `row`'s candidates in a corner board: rows above bound1 may not use column 1."""
    if row < bound1:
        return free & ~np.int64(2)
    return free


@njit(cache=True, nogil=True, inline="always")
def _bound2_rule(free, down, sidemask):
    """Row bound2's candidates: an edge column must be taken by row bound2 at the latest."""
    edges = down & sidemask
    if edges == 0:
        return np.int64(0)
    if edges != sidemask:
        return free & sidemask
    return free


@njit(cache=True, nogil=True, inline="always")
def _side_free(free, row, down, bound1, bound2, sidemask):
    """Row `row`'s candidates in a side board (row < n-1), given the used columns `down`."""
    if row < bound1:
        return free & ~sidemask
    if row == bound2:
        return _bound2_rule(free, down, sidemask)
    return free


@njit(cache=True, nogil=True, inline="always")
def _attacks(prefix, board):
    """(left, down, right) attacks entering the row after `prefix`; copies prefix into board."""
    lf = np.int64(0)
    dn = np.int64(0)
    rt = np.int64(0)
    for i in range(prefix.shape[0]):
        bit = prefix[i]
        board[i] = bit
        lf = (lf | bit) << 1
        dn |= bit
        rt = (rt | bit) >> 1
    return lf, dn, rt


@njit(cache=True, nogil=True, inline="always")
def alive(nextmask, lf, dn, rt):
    """The columns b whose queen leaves a free square in the next row.

    lf, dn, rt are the attacks entering this row and nextmask the columns the next row may
    take, so the next row's free set is g = nextmask & ~((lf << 1) | dn | (rt >> 1)) before
    this row's queen. The queen on b takes b-1, b and b+1 from it: it leaves a square there
    unless every bit of g lies within one of b, that is, unless b is within one column of
    both the lowest bit of g and the highest. So the columns kept are those at least two
    to the left of the highest bit or two to the right of the lowest (none if g is empty).
    Filtering a row's candidates this way takes the "dead child" test out of the hot loop.
    """
    g = nextmask & ~((lf << 1) | dn | (rt >> 1))
    lo = g & -g
    hi = np.int64(1) << (np.int64(63) - np.int64(leading_zeros(g | 1)))
    return (-lo << 2) | (((hi << 1) - 1) >> 2)


@njit(cache=True, nogil=True)
def corner_kernel(n, bound1, prefix):
    """Count the corner boards below the placed rows `prefix` (one bit per row, n >= 4).

    Returns c8, the solutions found (each a class of 8). Placements are not counted:
    the counter alone costs the hot loop about 10%.
    """
    mask = (np.int64(1) << n) - 1
    # unsigned row indices: numba checks signed ones for negative indexing on every access
    start = np.uint64(prefix.shape[0])
    last = np.uint64(n - 1)
    one = np.uint64(1)
    left = np.zeros(n + 1, np.int64)
    down = np.zeros(n + 1, np.int64)
    right = np.zeros(n + 1, np.int64)
    cand = np.zeros(n + 1, np.int64)
    rowmask = np.empty(n + 1, np.int64)  # the columns a row may take whatever the queens above
    for r in range(n + 1):
        rowmask[r] = _corner_free(mask, r, bound1)
    lf = np.int64(0)
    dn = np.int64(0)
    rt = np.int64(0)
    for i in range(prefix.shape[0]):
        bit = prefix[i]
        lf = (lf | bit) << 1
        dn |= bit
        rt = (rt | bit) >> 1
    c8 = np.int64(0)
    free = rowmask[start] & ~(lf | dn | rt)
    if start == last:
        return np.int64(1 if free != 0 else 0)
    y = start
    left[y] = lf
    down[y] = dn
    right[y] = rt
    cand[y] = free & alive(rowmask[y + one], lf, dn, rt)
    while True:
        free = cand[y]
        if free == 0:
            if y == start:
                break
            y -= one
            continue
        bit = free & -free
        cand[y] = free ^ bit
        lf = (left[y] | bit) << 1
        dn = down[y] | bit
        rt = (right[y] | bit) >> 1
        z = y + one
        if z == last:
            # the candidates were filtered by alive: the last row has its free column
            c8 += 1
            continue
        free = rowmask[z] & ~(lf | dn | rt) & alive(rowmask[z + one], lf, dn, rt)
        if free == 0:
            continue
        y = z
        left[y] = lf
        down[y] = dn
        right[y] = rt
        cand[y] = free
    return c8


@njit(cache=True, nogil=True)
def side_kernel(n, bound1, prefix):
    """Count the side boards below the placed rows `prefix` (row 0's queen at column bound1).

    Returns (c8, c4, c2): the representatives of classes of 8, 4 and 2 found.
    """
    mask = (np.int64(1) << n) - 1
    bound2 = n - 1 - bound1
    sidemask, lastmask, endbit = _side_masks(n, bound1)
    start = np.uint64(prefix.shape[0])
    last = np.uint64(n - 1)
    one = np.uint64(1)
    b1 = np.uint64(bound1)
    b2 = np.uint64(bound2)
    board = np.zeros(n, np.int64)
    left = np.zeros(n + 1, np.int64)
    down = np.zeros(n + 1, np.int64)
    right = np.zeros(n + 1, np.int64)
    cand = np.zeros(n + 1, np.int64)
    # the columns a row may take whatever the queens above: no edge column above bound1,
    # and the last row's queen in a column bound1..bound2 (the bound2 rule depends on the
    # queens above, and is applied in the loop)
    rowmask = np.empty(n + 1, np.int64)
    for r in range(n + 1):
        rowmask[r] = mask & ~sidemask if r < bound1 else mask
    rowmask[last] = mask & ~lastmask
    lf, dn, rt = _attacks(prefix, board)
    c8 = np.int64(0)
    c4 = np.int64(0)
    c2 = np.int64(0)
    free = mask & ~(lf | dn | rt)
    if start == last:
        if free != 0 and free & lastmask == 0:
            board[last] = free
            k = _rotation_class(board, n, bound1, bound2, endbit)
            c8 += k == 8
            c4 += k == 4
            c2 += k == 2
        return c8, c4, c2
    y = start
    left[y] = lf
    down[y] = dn
    right[y] = rt
    free = _side_free(free, y, dn, b1, b2, sidemask)
    cand[y] = free & alive(rowmask[y + one], lf, dn, rt)
    while True:
        free = cand[y]
        if free == 0:
            if y == start:
                break
            y -= one
            continue
        bit = free & -free
        cand[y] = free ^ bit
        board[y] = bit
        lf = (left[y] | bit) << 1
        dn = down[y] | bit
        rt = (right[y] | bit) >> 1
        z = y + one
        free = rowmask[z] & ~(lf | dn | rt)
        if z == last:
            # filtered by alive: the last row has its free column, outside lastmask
            board[last] = free
            k = _rotation_class(board, n, bound1, bound2, endbit)
            if k == 8:
                c8 += 1
            elif k == 4:
                c4 += 1
            elif k == 2:
                c2 += 1
            continue
        if z == b2:
            free = _bound2_rule(free, dn, sidemask)
        free &= alive(rowmask[z + one], lf, dn, rt)
        if free == 0:
            continue
        y = z
        left[y] = lf
        down[y] = dn
        right[y] = rt
        cand[y] = free
    return c8, c4, c2


@njit(cache=True, nogil=True)
def split_kernel(n, side, bound1, prefix, split_row, out):
    """Write to out[k] every prefix of `split_row` rows (< n-1) extending `prefix` that the
    row rules of its kind allow; returns how many there are (written or not). The counting
    kernels' alive filter is not applied: a prefix it would have cut simply counts 0.
    """
    mask = (np.int64(1) << n) - 1
    bound2 = n - 1 - bound1
    sidemask, _, _ = _side_masks(n, bound1)
    start = prefix.shape[0]
    board = np.zeros(n, np.int64)
    left = np.zeros(n + 1, np.int64)
    down = np.zeros(n + 1, np.int64)
    right = np.zeros(n + 1, np.int64)
    cand = np.zeros(n + 1, np.int64)
    lf, dn, rt = _attacks(prefix, board)
    found = 0
    if start == split_row:
        if found < out.shape[0]:
            out[0, :start] = board[:start]
        return 1
    y = start
    left[y] = lf
    down[y] = dn
    right[y] = rt
    free = mask & ~(lf | dn | rt)
    cand[y] = _side_free(free, y, dn, bound1, bound2, sidemask) if side else _corner_free(free, y, bound1)
    while y >= start:
        free = cand[y]
        if free == 0:
            y -= 1
            continue
        bit = free & -free
        cand[y] = free ^ bit
        board[y] = bit
        lf = (left[y] | bit) << 1
        dn = down[y] | bit
        rt = (right[y] | bit) >> 1
        z = y + 1
        if z == split_row:
            if found < out.shape[0]:
                out[found, :z] = board[:z]
            found += 1
            continue
        free = mask & ~(lf | dn | rt)
        free = _side_free(free, z, dn, bound1, bound2, sidemask) if side else _corner_free(free, z, bound1)
        y = z
        left[y] = lf
        down[y] = dn
        right[y] = rt
        cand[y] = free
    return found
