"""Numba kernels of the breadth-first engine for puzzles of pieces (kind PIECES, built by
`space.pieces_space`): their coordinates, and the passes of `layers_kernel` over them.

A state holds, at each position, the label of the piece there (``labels``) and its twist
(``twists``). The positions fall into sets (a cube's corners, its edges), each with its
own pieces, some maybe identical, and its own number k of twists. A set has two
*coordinates*: its arrangement, the rank of its labels among the arrangements of their
multiset (the Lehmer code when the pieces are distinct), and its twists as a base-k number
(k^m of them, or k^(m-1) when the moves keep the sum of the twists, which fixes the
last). The index reads every set's arrangement then twists as the digits of a
mixed-radix number, the first set most significant. A set of distinct pieces that every
move permutes evenly holds one parity: its Lehmer rank is halved (the last digit is
always 0, the one before it follows from the others' parity).

A move changes each coordinate on its own: where a set's pieces go does not depend on
their twists, and what a move does to the twists (a gather, then a twist added at each
position) does not depend on which piece is where. So a coordinate's value after each
move is a row of one table, ``tabs[off + value * moves + j]``, computed once (the method
of Kociemba's and Rokicki's solvers, twsearch's among them), when the coordinate's table
fits the budget (space.py); a coordinate too large for one (a big set of distinct pieces)
computes its row when its value changes, unranking its set and ranking each image. The
passes walk the indices in order, so the last coordinate changes at almost every state
and the others rarely: a state's images are the sums, kept per coordinate, of the rows
of the coordinates above it plus one row of the last.

The description, a column per position (built by space.py, which names the rows the same):

    K         the twists k of a piece there
    AW        the weight of its Lehmer digit in its set's arrangement (distinct pieces)
    TW        the weight of its twist in its set's twists (0: the last of a twist-sum set)
    HI        the end of its set (its first position after)
    DISTINCT  whether the set's pieces are all distinct
    ARR, TWN  the set's arrangements, and the twists it holds (k^m or k^(m-1))
    W         the set's weight: the product of the later sets' sizes
    TOTAL     what a twist-sum set's twists add up to (mod k)
    TSUM      whether the set keeps a twist sum
    NLAB      its distinct labels, 0..NLAB-1
    COUNT     at the set's v-th position: how many of its pieces have label v
    PAR       the parity the set holds when it holds one, else -1 (its AW then halved, 0 for
              its last two positions)

and the coordinates, a column each, most significant first (those of radix 1 left out):

    RAD       its radix
    CW        its weight in the index
    OFF       where its table starts in ``tabs`` (-1: none, its rows are computed)
    LO        its set's first position
    CKIND     ARRANGEMENT or TWIST

``cols[j]`` is the column of move j in the tables (the backward passes read the forward
tables at each inverse move's column when the moves are closed under inverses).

The passes are layers_kernel's (push, emit, pull: the same bits, the same rules on which
bytes a thread writes).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzlesearch.engine.layers_kernel import (
    CUR,
    HAS_CUR,
    HAS_UNSEEN,
    NEXT,
    UNSEEN,
    get,
    mark_next,
    popcount,
    put,
)

K, AW, TW, HI, DISTINCT, ARR, TWN, W, TOTAL, TSUM, NLAB, COUNT, PAR = range(13)
RAD, CW, OFF, LO, CKIND = range(5)
ARRANGEMENT, TWIST = 0, 1


@njit(cache=True, inline="always")
def set_labels(arrangement, lo, table, labels, counts):
    """labels[lo:hi] = the set's arrangement with this rank (counts: scratch)."""
    hi = table[HI, lo]
    for v in range(table[NLAB, lo]):
        counts[v] = table[COUNT, lo + v]
    ways = table[ARR, lo]
    par = table[PAR, lo]
    if par >= 0:  # one parity: the rank with the last two in order (then put right)
        arrangement *= 2
        ways *= 2
    for p in range(lo, hi):  # label v heads ways * counts[v] / left of the arrangements left
        left = hi - p
        v = 0
        block = ways * counts[0] // left
        while arrangement >= block:
            arrangement -= block
            v += 1
            block = ways * counts[v] // left
        labels[p] = v
        ways = block
        counts[v] -= 1
    if par >= 0:
        seen = 0
        odd = 0
        for p in range(hi - 1, lo - 1, -1):
            odd += popcount(seen & ((1 << labels[p]) - 1))
            seen |= 1 << labels[p]
        if (odd & 1) != par:
            labels[hi - 2], labels[hi - 1] = labels[hi - 1], labels[hi - 2]


@njit(cache=True, inline="always")
def set_twists(held, lo, table, twists):
    """twists[lo:hi] = the set's twists held as this number (the implied last one too)."""
    hi = table[HI, lo]
    k = table[K, lo]
    total = 0
    for p in range(hi - 1 - table[TSUM, lo], lo - 1, -1):
        twists[p] = held % k
        held //= k
        total += twists[p]
    if table[TSUM, lo]:
        twists[hi - 1] = (table[TOTAL, lo] - total) % k


@njit(cache=True, inline="always")
def arrangement_image(j, lo, labels, moves, table, counts):
    """The arrangement of the set at lo after move j (counts: scratch)."""
    hi = table[HI, lo]
    rank = 0
    if table[DISTINCT, lo]:
        seen = 0  # the labels at the positions after p
        for p in range(hi - 1, lo - 1, -1):
            c = labels[moves[j, p]]
            rank += popcount(seen & ((1 << c) - 1)) * table[AW, p]
            seen |= 1 << c
        return rank
    for v in range(table[NLAB, lo]):  # ways: the arrangements of the suffix p.., its labels counted
        counts[v] = 0
    ways = 1
    for p in range(hi - 1, lo - 1, -1):
        c = labels[moves[j, p]]
        counts[c] += 1
        left = hi - p
        ways = ways * left // counts[c]
        smaller = 0
        for v in range(c):
            smaller += counts[v]
        rank += ways * smaller // left  # those with a smaller label at p
    return rank


@njit(cache=True, inline="always")
def twist_image(j, lo, n, twists, moves, table):
    """The twists the set at lo holds after move j, as a number."""
    k = table[K, lo]
    r = 0
    for p in range(lo, table[HI, lo] - table[TSUM, lo]):
        t = twists[moves[j, p]] + moves[j, n + p]
        if t >= k:
            t -= k
        r = r * k + t
    return r


@njit(cache=True)
def row(c, v, n, coords, moves, table, labels, twists, counts, out):
    """out[j] = coordinate c's value after move j, from value v (no table read)."""
    lo = coords[LO, c]
    if coords[CKIND, c] == ARRANGEMENT:
        set_labels(v, lo, table, labels, counts)
        for j in range(moves.shape[0]):
            out[j] = arrangement_image(j, lo, labels, moves, table, counts)
    else:
        set_twists(v, lo, table, twists)
        for j in range(moves.shape[0]):
            out[j] = twist_image(j, lo, n, twists, moves, table)


@njit(cache=True, nogil=True)
def build_tables(n, moves, table, coords, tabs):
    """Fill tabs: each tabled coordinate's row for every value (space.py makes tabs)."""
    labels, twists, counts = np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64)
    m = moves.shape[0]
    out = np.zeros(max(m, 1), dtype=np.int64)
    for c in range(coords.shape[1]):
        off = coords[OFF, c]
        if off < 0:
            continue
        for v in range(coords[RAD, c]):
            row(c, v, n, coords, moves, table, labels, twists, counts, out)
            for j in range(m):
                tabs[off + v * m + j] = out[j]


@njit(cache=True, inline="always")
def locate(idx, last, coords, vals):
    """vals = the coordinates of idx, from those of `last` (-1: none); the first that
    changed (the number of coordinates when none did)."""
    nc = coords.shape[1]
    if last < 0 or idx < last:
        rem = idx
        for c in range(nc - 1, -1, -1):
            r = coords[RAD, c]
            q = rem // r
            vals[c] = rem - q * r
            rem = q
        return 0
    d = idx - last
    top = nc
    c = nc - 1
    while d > 0:  # an odometer: the last coordinate moves on by d, carrying into the ones above
        r = coords[RAD, c]
        s = vals[c] + d
        top = c
        if s < r:
            vals[c] = s
            break
        d = s // r
        vals[c] = s - d * r
        c -= 1
    return top


@njit(cache=True, inline="always")
def refresh(top, n, coords, vals, moves, table, tabs, cols, rows, known, partial, labels, twists, counts):
    """partial[c + 1, j] = the index after move j counted over coordinates 0..c, again from
    coordinate `top` down: partial[number of coordinates] holds the images."""
    m = moves.shape[0]
    for c in range(top, coords.shape[1]):
        v = vals[c]
        w = coords[CW, c]
        off = coords[OFF, c]
        if off >= 0:
            base = off + v * m
            for j in range(m):
                partial[c + 1, j] = partial[c, j] + tabs[base + cols[j]] * w
        else:
            if known[c] != v:
                row(c, v, n, coords, moves, table, labels, twists, counts, rows[c])
                known[c] = v
            for j in range(m):
                partial[c + 1, j] = partial[c, j] + rows[c, j] * w


@njit(cache=True, inline="always")
def scratch(n, m, nc):
    """What one kernel call works in: the coordinates, the rows computed, the partial sums,
    a state's labels and twists and a tally."""
    return (np.full(max(nc, 1), -1, dtype=np.int64), np.zeros((max(nc, 1), max(m, 1)), dtype=np.int64),
            np.full(max(nc, 1), -1, dtype=np.int64), np.zeros((nc + 1, max(m, 1)), dtype=np.int64),
            np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64))


@njit(cache=True, inline="always")
def last_row(coords):
    """The last coordinate (it alone changes between most indices a pass meets in turn), its
    radix, weight and table: what the passes move it by without calling locate and refresh,
    whose many array arguments cost more than the row itself (radix 0 when it has no table)."""
    nl = coords.shape[1] - 1
    if nl < 0 or coords[OFF, nl] < 0:
        return nl, 0, 0, 0
    return nl, coords[RAD, nl], coords[CW, nl], coords[OFF, nl]


@njit(cache=True, nogil=True)
def push(cells, lo, hi, start, kind, n, moves, table, coords, tabs, cols, buf, counts):
    """layers_kernel.push for pieces (kind: PIECES, as Space.arrays gives it), except that
    every image, in [lo, hi) or not, is marked here by an atomic step (mark_next) rather
    than buffered for its owner's thread: a far image costs one random access instead of
    two, and nothing is left for `layers_kernel.mark` (counts[1] is 0)."""
    m = moves.shape[0]
    nc = coords.shape[1]
    vals, rows, known, partial, labels, twists, tally = scratch(n, m, nc)
    nl, rl, wl, offl = last_row(coords)
    ranks = partial[nc]
    # the images still unseen when first read, gathered without a branch: whether an image
    # is unseen is a coin toss in the middle layers, which a branch would mispredict
    unseen = np.zeros(max(m, 1), dtype=np.int64)
    address = cells.ctypes.data
    marked = 0
    last = -1
    idx = start
    while idx < hi:
        if (idx & 3) == 0 and idx + 4 <= hi and not HAS_CUR[cells[idx >> 2]]:
            idx += 4
            continue
        if get(cells, idx) != CUR:
            idx += 1
            continue
        d = idx - last
        if last >= 0 and vals[nl] + d < rl:  # only the last coordinate moves: one row
            vals[nl] += d
            base = offl + vals[nl] * m
            for j in range(m):
                ranks[j] = partial[nl, j] + tabs[base + cols[j]] * wl
        else:
            top = locate(idx, last, coords, vals)
            refresh(top, n, coords, vals, moves, table, tabs, cols, rows, known, partial, labels, twists,
                    tally)
        k = 0
        for j in range(m):
            t = ranks[j]
            unseen[k] = t
            k += get(cells, t) == UNSEEN
        last = idx
        for i in range(k):
            t = unseen[i]
            # read again before the atomic step: an earlier image of this state may be the same
            if get(cells, t) == UNSEEN:
                marked += mark_next(address, t)
        idx += 1
    counts[0] = marked
    counts[1] = 0
    return idx


@njit(cache=True, nogil=True)
def emit(cells, lo, hi, start, value, kind, n, moves, table, coords, tabs, cols, buf, counts):
    """layers_kernel.emit for pieces."""
    m = moves.shape[0]
    nc = coords.shape[1]
    vals, rows, known, partial, labels, twists, tally = scratch(n, m, nc)
    nl, rl, wl, offl = last_row(coords)
    ranks = partial[nc]
    room = buf.shape[0] - m
    nb = 0
    last = -1
    idx = start
    while idx < hi:
        if get(cells, idx - lo) != value:
            idx += 1
            continue
        if nb > room:
            break
        d = idx - last
        if last >= 0 and vals[nl] + d < rl:  # only the last coordinate moves: one row
            vals[nl] += d
            base = offl + vals[nl] * m
            for j in range(m):
                ranks[j] = partial[nl, j] + tabs[base + cols[j]] * wl
        else:
            top = locate(idx, last, coords, vals)
            refresh(top, n, coords, vals, moves, table, tabs, cols, rows, known, partial, labels, twists,
                    tally)
        last = idx
        for j in range(m):
            buf[nb] = partial[nc, j]
            nb += 1
        idx += 1
    counts[0] = nb
    return idx


@njit(cache=True, nogil=True)
def pull(cells, lo, hi, kind, n, moves, table, coords, tabs, cols):
    """layers_kernel.pull for pieces (moves: the inverse moves); how many were marked."""
    m = moves.shape[0]
    nc = coords.shape[1]
    vals, rows, known, partial, labels, twists, tally = scratch(n, m, nc)
    nl, rl, wl, offl = last_row(coords)
    ranks = partial[nc]
    marked = 0
    last = -1
    idx = lo
    while idx < hi:
        if (idx & 3) == 0 and idx + 4 <= hi and not HAS_UNSEEN[cells[idx >> 2]]:
            idx += 4
            continue
        if get(cells, idx) != UNSEEN:
            idx += 1
            continue
        prev, last = last, idx
        d = idx - prev
        if prev >= 0 and vals[nl] + d < rl:  # only the last coordinate moves: one row
            vals[nl] += d
            base = offl + vals[nl] * m
            # one image at a time, each made only when asked for: most states find a
            # predecessor among their first few
            for j in range(m):
                if get(cells, partial[nl, j] + tabs[base + cols[j]] * wl) == CUR:
                    put(cells, idx, NEXT)
                    marked += 1
                    break
        else:
            top = locate(idx, prev, coords, vals)
            refresh(top, n, coords, vals, moves, table, tabs, cols, rows, known, partial, labels, twists,
                    tally)
            for j in range(m):
                if get(cells, ranks[j]) == CUR:
                    put(cells, idx, NEXT)
                    marked += 1
                    break
        idx += 1
    return marked


@njit(cache=True)
def images(idx, n, moves, table, coords, tabs, cols, out):
    """out[j] = the index of state idx's image under move j (for drivers and tests)."""
    m = moves.shape[0]
    nc = coords.shape[1]
    vals, rows, known, partial, labels, twists, tally = scratch(n, m, nc)
    top = locate(idx, -1, coords, vals)
    refresh(top, n, coords, vals, moves, table, tabs, cols, rows, known, partial, labels, twists, tally)
    for j in range(m):
        out[j] = partial[nc, j]


@njit(cache=True)
def state_of(idx, n, table, labels, twists):
    """The labels and twists of one index (for drivers and tests)."""
    counts = np.zeros(n, dtype=np.int64)
    lo = 0
    while lo < n:
        held = table[TWN, lo]
        sub = (idx // table[W, lo]) % (table[ARR, lo] * held)
        arrangement = sub // held
        if table[K, lo] > 1:
            set_twists(sub - arrangement * held, lo, table, twists)
        else:
            for p in range(lo, table[HI, lo]):
                twists[p] = 0
        set_labels(arrangement, lo, table, labels, counts)
        lo = table[HI, lo]
