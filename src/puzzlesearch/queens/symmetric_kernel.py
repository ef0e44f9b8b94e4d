"""Kernels for the solutions a rotation leaves unchanged: R180(n) (OEIS A032522) and R90(n) (A033148).

A solution fixed by a rotation g is a union of orbits of g, so the search places whole
orbits: each queen comes with its images, and only the rows of one orbit representative
are searched — the top half of the rows for the half turn (queen and image together), a
quarter's worth of queens for the quarter turn (each with its orbit of 4). The occupied
columns and diagonals then form sets closed under g, so a new queen that clears them
clears them with all its images too; only the clashes inside the new orbit are checked
apart, and they come down to a few squares each row must avoid (see the kernels).

Diagonals are held by absolute index, not shifted row by row as in Somers' backtracker,
because the images land in rows below and above the current one: the anti-diagonal of
(r, c) is bit ``r + c`` of ``anti``, its diagonal bit ``c - r + n - 1`` of ``diag`` (both
< 2n - 1 <= 63 bits). In row r the columns they block are ``anti >> r`` and
``diag >> (n - 1 - r)``.

For n >= 2 no solution is fixed by a reflection. A mirror in a horizontal (vertical) axis
keeps each queen in its column (row), where it is the only queen, so it must map the queen
to itself, which only the middle row (column) allows: all queens would share one row
(column). A mirror in the main diagonal takes (r, c) to (c, r), on the same anti-diagonal
(the anti-diagonal mirror takes it to (n-1-c, n-1-r), on the same diagonal): two distinct
queens would attack, so each queen is its own image and all sit on the mirror diagonal
itself, again on one line. So Burnside's lemma, with Q(n) = A000170 and the two quarter
turns fixing the same solutions (each is the other's inverse), gives the number of
solutions up to symmetry, A002562, as U(n) = (Q(n) + 2 R90(n) + R180(n)) / 8. For n = 1
the one queen is fixed by all eight symmetries and U(1) = Q(1) = 1 instead.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros

from puzzlesearch.engine.layers_kernel import popcount

#: the largest board whose diagonals (2n - 1 of them) fit a 64-bit signed mask
MAX_N = 32


@njit(cache=True, nogil=True)
def _check(n):
    if n < 1 or n > MAX_N:
        raise ValueError("n must be between 1 and 32")


@njit(cache=True, nogil=True)
def _column(bit):
    """The column of a one-bit mask."""
    return np.int64(63) - np.int64(leading_zeros(bit))


@njit(cache=True, nogil=True)
def half_turn_count(n):
    """R180(n): the solutions unchanged by the half turn (r, c) -> (n-1-r, n-1-c), A032522.

    Rows 0 .. n//2 - 1 are searched; a queen at (y, c) also places (n-1-y, n-1-c). Its
    image shares a column with it when c is the middle column (odd n), an anti-diagonal
    when c = n-1-y and a diagonal when c = y, so those columns are closed to row y. For odd
    n the middle row is its own image, reversed: its queen must be its own image, and the
    only square of that row the half turn fixes is the centre, which is placed first.

    The rows are searched from the middle outwards: a row near the middle is near its
    image row, whose queens block most of it, so the search narrows soonest (about 3 times
    fewer steps than top-down at n = 24). The mirror c -> n-1-c commutes with the half
    turn, so it pairs the fixed solutions whose first searched queen lies in the left half
    with those whose queen lies in the right half (never the middle column): only the left
    half is searched and the count doubled.
    """
    _check(n)
    last = n - 1
    half = n // 2
    one = np.int64(1)
    mask = (one << n) - 1
    cols0 = np.int64(0)
    anti0 = np.int64(0)
    diag0 = np.int64(0)
    if n & 1:
        cols0 = one << half
        anti0 = one << last  # the centre's anti-diagonal, r + c = n - 1
        diag0 = one << last  # and its diagonal, c = r
    if half == 0:
        return np.int64(1)
    top = half - 1  # step i fills row top - i
    rowmask = np.empty(half, np.int64)
    for y in range(half):
        rowmask[y] = mask & ~((one << y) | (one << (last - y)) | cols0)
    cols = np.zeros(half, np.int64)
    anti = np.zeros(half, np.int64)
    diag = np.zeros(half, np.int64)
    cand = np.zeros(half, np.int64)
    cols[0] = cols0
    anti[0] = anti0
    diag[0] = diag0
    left = (one << half) - 1
    cand[0] = left & rowmask[top] & ~(cols0 | (anti0 >> top) | (diag0 >> (last - top)))
    if top == 0:
        return 2 * popcount(cand[0])
    found = np.int64(0)
    i = 0
    while i >= 0:
        free = cand[i]
        if free == 0:
            i -= 1
            continue
        bit = free & -free
        cand[i] = free ^ bit
        y = top - i
        c = _column(bit)
        a = y + c
        e = c - y + last
        cl = cols[i] | bit | (one << (last - c))
        an = anti[i] | (one << a) | (one << (2 * last - a))
        dg = diag[i] | (one << e) | (one << (2 * last - e))
        j = i + 1
        z = y - 1
        free = rowmask[z] & ~(cl | (an >> z) | (dg >> (last - z)))
        if j == top:
            found += popcount(free)  # the last row: each free column completes a solution
            continue
        if free == 0:
            continue
        i = j
        cols[i] = cl
        anti[i] = an
        diag[i] = dg
        cand[i] = free
    return 2 * found


@njit(cache=True, nogil=True)
def quarter_turn_count(n):
    """R90(n): the solutions unchanged by the quarter turn (r, c) -> (c, n-1-r), A033148.

    The orbits of squares under the quarter turn have 4 elements, except the centre (odd
    n), which is fixed: a square fixed by the half turn is the centre, so no orbit has 2.
    A fixed solution is a union of orbits, so n = 4k or 4k + 1 queens (the centre's then
    among them), and R90(n) = 0 for n mod 4 = 2 or 3.

    A queen at (r, c) brings (c, n-1-r), (n-1-r, n-1-c) and (n-1-c, r): the rows r, c,
    n-1-r, n-1-c and the same columns, so the used rows equal the used columns (one mask),
    and the anti-diagonals and diagonals of an orbit have the same indices (one mask). Each
    step fills the lowest empty row; k steps place the k orbits. The orbit clashes inside
    itself exactly when its queen lies on a main diagonal (c = r or c = n-1-r) or on the
    middle row or column, which are the centre's lines; those are closed to every row.
    """
    _check(n)
    if n % 4 >= 2:
        return np.int64(0)
    last = n - 1
    steps = n // 4
    one = np.int64(1)
    mask = (one << n) - 1
    used0 = np.int64(0)
    diags0 = np.int64(0)
    if n & 1:
        used0 = one << (n // 2)
        diags0 = one << last
    if steps == 0:
        return np.int64(1)
    used = np.zeros(steps, np.int64)
    diags = np.zeros(steps, np.int64)
    cand = np.zeros(steps, np.int64)
    rows = np.zeros(steps, np.int64)
    used[0] = used0
    diags[0] = diags0
    rows[0] = 0
    cand[0] = mask & ~(used0 | one | (one << last) | diags0 | (diags0 >> last))
    top = steps - 1
    found = np.int64(0)
    d = 0
    while d >= 0:
        free = cand[d]
        if free == 0:
            d -= 1
            continue
        bit = free & -free
        cand[d] = free ^ bit
        if d == top:
            found += 1
            continue
        r = rows[d]
        c = _column(bit)
        u = used[d] | bit | (one << r) | (one << (last - r)) | (one << (last - c))
        g = diags[d] | (one << (r + c)) | (one << (2 * last - r - c))
        g |= (one << (c - r + last)) | (one << (r - c + last))
        z = _column((~u) & (u + 1))  # the lowest empty row
        free = mask & ~(u | (one << z) | (one << (last - z)) | (g >> z) | (g >> (last - z)))
        if free == 0:
            continue
        d += 1
        used[d] = u
        diags[d] = g
        rows[d] = z
        cand[d] = free
    return found
