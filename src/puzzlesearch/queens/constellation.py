"""Counting kernels: total and unique N-Queens solutions by start constellations.

A solution's constellation is its four edge queens (edges.py). The 8 symmetries of the
square map solutions to solutions and constellations to constellations, so the solutions
are searched for one constellation of each class only (``edges.constellations``) and
counted ``orbit`` times, the number of distinct images it has. This is the method of the
Q27 project (Preusser and Engelhardt, who counted Q(27) in 2016) and of NQueensFAF; the
code here is our own.

Any image of a constellation has as many solutions, but the search's size depends much on
the side it starts from, so each is searched in the image a short probe finds smallest
(``orient``): on n = 14, 3.47 million placements in all, where the class representatives
as listed need 4.98 million, the best images 3.34 million and the worst 6.47 million.

Unique solutions (one per class of boards) come out of the same pass. The classes of a
constellation's images hold ``8 * unique`` = sum over its solutions of ``orbit * |G_s|``,
where ``G_s`` are the symmetries that fix the solution: 1 for most, 2 for a board equal
to its half turn, 4 for one equal to its quarter turn (no board is its own mirror image
for n > 1). Only a constellation that is itself fixed by the half turn (``sym`` bit 1) or
the quarter turn (bit 2) can hold such boards; for those the kernel compares each board
with its turned images.

The search places the free rows (1 .. n-2, without c and d) top to bottom with the usual
bitboards (``left``, ``right`` diagonals shifted by the row gap, ``down`` the used
columns); what the four edge queens attack in a row is precomputed in ``forbid``. The
last free row has one column left, so it is not searched but tested. Where the next free
row is the next row, the row's candidates are filtered like corner.py's (``alive``).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros

from .corner import alive
from .edges import images

_images = njit(cache=True, nogil=True)(images)

@njit(cache=True, nogil=True)
def _setup(n, a, b, c, d, rows, forbid):
    """Fill rows[:m] with the free rows and forbid[:m] with what the edge queens attack
    there (their columns included); returns m."""
    last = n - 1
    qr = (0, last, c, d)
    qc = (a, b, 0, last)
    cols = (np.int64(1) << a) | (np.int64(1) << b) | np.int64(1) | (np.int64(1) << last)
    m = 0
    for r in range(1, last):
        if r == c or r == d:
            continue
        f = cols
        for q in range(4):
            dist = abs(r - qr[q])
            lo = qc[q] - dist
            hi = qc[q] + dist
            if lo >= 0:
                f |= np.int64(1) << lo
            if hi < n:
                f |= np.int64(1) << hi
        rows[m] = r
        forbid[m] = f
        m += 1
    return m


@njit(cache=True, nogil=True)
def _turned(board, n, quarter):
    """1 if the board (board[row] = column) equals its quarter turn (quarter) or half turn."""
    last = n - 1
    for r in range(n):
        col = board[r]
        if quarter:
            if board[col] != last - r:
                return 0
        elif board[last - r] != last - col:
            return 0
    return 1


@njit(cache=True, nogil=True)
def _turns(n, a, b, c, d, sym, m, rows, queen, board):
    """(1, 0) for a board equal to its half turn only, (0, 1) for one equal to its quarter
    turn, else (0, 0): the board of the edge queens and queen[:m] (bits) in rows[:m]."""
    for k in range(m):
        board[rows[k]] = 63 - leading_zeros(queen[k])
    board[0] = a
    board[n - 1] = b
    board[c] = 0
    board[d] = n - 1
    if sym & 2 and _turned(board, n, True):  # edges.QUARTER
        return np.int64(0), np.int64(1)
    if _turned(board, n, False):
        return np.int64(1), np.int64(0)
    return np.int64(0), np.int64(0)


@njit(cache=True, nogil=True)
def count_one(n, a, b, c, d, sym, stop):
    """(solutions, half-turn boards, quarter-turn boards) with the constellation (a, b, c, d).

    The turned boards are looked for only where ``sym`` allows them; a quarter-turn board
    is counted in the third number only (it is also its own half turn). With ``stop``
    less than the number of free rows, only the first ``stop`` free rows are searched,
    and the first number counts the ways to fill them that leave the next one a square
    (a probe of the search's size: ``orient``).
    """
    full = (np.int64(1) << n) - 1
    rows = np.zeros(n, np.int64)
    forbid = np.zeros(n, np.int64)
    m = _setup(n, a, b, c, d, rows, forbid)
    # unsigned depths: numba then does not test them for negative (wrap-around) indexing
    um = np.uint64(m)
    one = np.uint64(1)
    top = np.uint64(0)
    # allowed[k]: the columns row k may take whatever the queens placed; gap[k]: how many
    # board rows down the next free row is (the alive filter applies only where it is 1)
    allowed = np.zeros(m + 1, np.int64)
    gap = np.zeros(m + 1, np.int64)
    for k in range(m):
        allowed[k] = full & ~forbid[k]
        gap[k] = rows[k + 1] - rows[k] if k + 1 < m else 1
    left = np.zeros(m + 1, np.int64)
    down = np.zeros(m + 1, np.int64)
    right = np.zeros(m + 1, np.int64)
    cand = np.zeros(m + 1, np.int64)
    queen = np.zeros(m + 1, np.int64)
    board = np.zeros(n, np.int64)
    found = np.int64(0)
    half = np.int64(0)
    quarter = np.int64(0)
    if m <= 1:  # n = 4 or 5 with four edge queens: the board is full, or its last row is free
        if m == 0 or allowed[0] != 0:
            found += 1
            if sym != 0:
                queen[0] = allowed[0]
                half, quarter = _turns(n, a, b, c, d, sym, m, rows, queen, board)
        return found, half, quarter
    lastk = min(um, np.uint64(max(stop, 2))) - one
    # the row whose candidates are counted, not searched (none in a probe, or where the
    # boards must be seen: sym)
    pairs = lastk - one if lastk == um - one and sym == 0 and m >= 3 else um
    y = top
    free = allowed[0]
    if gap[0] == 1:
        free &= alive(allowed[1], np.int64(0), np.int64(0), np.int64(0))
    cand[0] = free
    while True:
        free = cand[y]
        if free == 0:
            if y == top:
                break
            y -= one
            continue
        bit = free & -free
        cand[y] = free ^ bit
        g = gap[y]
        lf = (left[y] | bit) << g
        dn = down[y] | bit
        rt = (right[y] | bit) >> g
        z = y + one
        free = allowed[z] & ~(lf | dn | rt)
        if z == lastk:
            if free != 0:
                found += 1
                if sym != 0:
                    # the queens placed are the columns each row added to `down`
                    for k in range(y):
                        queen[k] = down[k + 1] ^ down[k]
                    queen[y] = bit
                    queen[z] = free
                    h, q = _turns(n, a, b, c, d, sym, m, rows, queen, board)
                    half += h
                    quarter += q
            continue
        if gap[z] == 1:
            free &= alive(allowed[z + one], lf, dn, rt)
            if z == pairs:
                # two rows left, two columns: each candidate the filter kept leaves the
                # last row its column, so each is a solution
                found += (free != 0) + ((free & (free - 1)) != 0)
                continue
        if free == 0:
            continue
        y = z
        left[y] = lf
        down[y] = dn
        right[y] = rt
        cand[y] = free
    return found, half, quarter


@njit(cache=True, nogil=True)
def orient(n, a, b, c, d):
    """The image of (a, b, c, d) the search is fastest on, as far as a probe tells.

    Any image of a constellation has as many solutions, with the same symmetries, but the
    search's size depends much on the side it starts from: on n = 14 the best of the 8
    would need 3.34 million placements in all, the worst 6.47 million. The probe counts
    the ways to fill the first PROBE_ROWS(n) free rows of each image and takes the
    fewest (ties: the first in ``images`` order); that comes close to the best (n = 14:
    3.47 million with 4 rows) for a few percent of the search's time.
    """
    imgs = _images(n, a, b, c, d)
    stop = probe_rows(n)
    best = imgs[0]
    fewest = np.int64(-1)
    for image in imgs:
        size, _, _ = count_one(n, image[0], image[1], image[2], image[3], 0, stop)
        if fewest < 0 or size < fewest:
            fewest = size
            best = image
    return best


@njit(cache=True, nogil=True)
def probe_rows(n):
    """How many free rows ``orient`` fills to compare the images of a constellation."""
    return max(2, n // 3)


@njit(cache=True, nogil=True)
def count_batch(n, cons):
    """(total, 8 * unique) of the constellations `cons` (rows as from ``constellations``)."""
    total = np.int64(0)
    unique8 = np.int64(0)
    whole = np.int64(n)  # more than the free rows: search them all
    for i in range(cons.shape[0]):
        a, b, c, d = orient(n, cons[i, 0], cons[i, 1], cons[i, 2], cons[i, 3])
        found, half, quarter = count_one(n, a, b, c, d, cons[i, 5], whole)
        orbit = cons[i, 4]
        total += orbit * found
        unique8 += orbit * (found + half + 3 * quarter)
    return total, unique8
