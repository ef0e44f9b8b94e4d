"""Numba kernels of the breadth-first engine for puzzles of pieces (kind PIECES, built by
`space.pieces_space`): their ranks, and the passes of `layers_kernel` over them.

A state holds, at each position, the label of the piece there (``labels``) and its twist
(``twists``). The positions fall into sets (a cube's corners, its edges), each with its
own pieces, some maybe identical, and its own number k of twists. A set's rank is the
rank of its labels among the arrangements of their multiset (the Lehmer code when the
pieces are distinct), times the twists it holds (k^m, or k^(m-1) when the moves keep the
sum of the twists, which fixes the last), plus its twists as a base-k number; the index
reads the sets as the digits of a mixed-radix number, the first most significant. A set
of distinct pieces that every move permutes evenly holds one parity: its Lehmer rank is
halved (the last digit is always 0, the one before it follows from the others' parity).

A move is a gather and a twist added (mod k) over all positions at once, moves[j, :n] and
moves[j, n:]. Its image is ranked in the same pass, each set from its last position
back: a set of distinct pieces with one popcount a piece, one with identical pieces by
keeping the arrangements of the suffix (two exact divisions a piece). Locating a state
unranks only the sets whose arrangement changed since the state located before it:
mostly the last set's twists alone.

The table, a column per position, holds the weights and each set's description in its
rows (built by space.py, which names them the same):

    K         the twists k of a piece there
    AW        the weight of its Lehmer digit; identical pieces: of its set's arrangement
    TW        the weight of its twist (0: the last of a twist-sum set, implied)
    HI        the end of its set (its first position after)
    DISTINCT  whether the set's pieces are all distinct
    ARR, TWN  the set's arrangements, and the twists it holds (k^m or k^(m-1))
    W         the set's weight: the product of the later sets' sizes
    TOTAL     what a twist-sum set's twists add up to (mod k)
    TSUM      whether the set keeps a twist sum
    NLAB      its distinct labels, 0..NLAB-1
    COUNT     at the set's v-th position: how many of its pieces have label v
    PAR       the parity the set holds when it holds one, else -1 (its AW then halved, 0 for
              its last two positions: an image's rank costs the same)

The passes are layers_kernel's (push, emit, pull: the same bits, the same rules on which
bytes a thread writes) with these ranks, in functions of their own: sharing one function
with the permutation kernels costs the pancakes about a tenth of their speed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzlesearch.engine.layers_kernel import CUR, HAS_CUR, HAS_UNSEEN, NEXT, UNSEEN, get, popcount, put

K, AW, TW, HI, DISTINCT, ARR, TWN, W, TOTAL, TSUM, NLAB, COUNT, PAR = range(13)


@njit(cache=True)
def unrank(idx, n, table, labels, twists, known, counts):
    """labels, twists = the state at idx. known[s] is the arrangement whose labels set s
    holds (-1: none), and stays when it is idx's too."""
    s = 0
    lo = 0
    while lo < n:
        hi = table[HI, lo]
        held = table[TWN, lo]
        sub = (idx // table[W, lo]) % (table[ARR, lo] * held)
        arrangement = sub // held
        rest = sub - arrangement * held
        k = table[K, lo]
        if k > 1:  # (without twists, every twist stays 0)
            total = 0
            for p in range(hi - 1 - table[TSUM, lo], lo - 1, -1):
                twists[p] = rest % k
                rest //= k
                total += twists[p]
            if table[TSUM, lo]:
                twists[hi - 1] = (table[TOTAL, lo] - total) % k
        if known[s] != arrangement:
            known[s] = arrangement
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
        s += 1
        lo = hi


@njit(cache=True, inline="always")
def image(j, n, labels, twists, moves, table, counts):
    """The index of the state (labels, twists) after move j."""
    rank = 0
    lo = 0
    while lo < n:
        hi = table[HI, lo]
        if table[DISTINCT, lo]:
            seen = 0  # the labels at the positions after p
            for p in range(hi - 1, lo - 1, -1):
                src = moves[j, p]
                c = labels[src]
                t = twists[src] + moves[j, n + p]
                if t >= table[K, p]:
                    t -= table[K, p]
                rank += popcount(seen & ((1 << c) - 1)) * table[AW, p] + t * table[TW, p]
                seen |= 1 << c
        else:  # ways: the arrangements of the suffix p.., its labels counted in counts
            for v in range(table[NLAB, lo]):
                counts[v] = 0
            ways = 1
            arrangement = 0
            for p in range(hi - 1, lo - 1, -1):
                src = moves[j, p]
                c = labels[src]
                t = twists[src] + moves[j, n + p]
                if t >= table[K, p]:
                    t -= table[K, p]
                rank += t * table[TW, p]
                counts[c] += 1
                left = hi - p
                ways = ways * left // counts[c]
                smaller = 0
                for v in range(c):
                    smaller += counts[v]
                arrangement += ways * smaller // left  # those with a smaller label at p
            rank += arrangement * table[AW, lo]
        lo = hi
    return rank


@njit(cache=True, inline="always")
def scratch(n):
    """The arrays unrank and image work in (a state's labels and twists, and their tallies),
    made once per kernel call."""
    return (np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.full(n, -1, dtype=np.int64),
            np.zeros(n, dtype=np.int64))


@njit(cache=True, nogil=True)
def push(cells, lo, hi, start, kind, n, moves, table, buf, counts):
    """layers_kernel.push for pieces (kind: PIECES, as Space.arrays gives it)."""
    labels, twists, known, tally = scratch(n)
    m = moves.shape[0]
    ranks = np.zeros(max(m, 1), dtype=np.int64)
    held = np.zeros(max(m, 1), dtype=np.uint8)
    room = buf.shape[0] - m
    marked, nb = 0, 0
    idx = start
    while idx < hi:
        if (idx & 3) == 0 and idx + 4 <= hi and not HAS_CUR[cells[idx >> 2]]:
            idx += 4
            continue
        if get(cells, idx) != CUR:
            idx += 1
            continue
        if nb > room:
            break
        unrank(idx, n, table, labels, twists, known, tally)
        for j in range(m):  # every byte first: independent loads the CPU overlaps (cache misses)
            ranks[j] = image(j, n, labels, twists, moves, table, tally)
            held[j] = cells[ranks[j] >> 2]
        for j in range(m):
            t = ranks[j]
            if (held[j] >> ((t & 3) << 1)) & 3 == UNSEEN:  # a seen state never becomes unseen
                if lo <= t < hi:
                    if get(cells, t) == UNSEEN:  # again: an earlier image may share the byte
                        put(cells, t, NEXT)
                        marked += 1
                else:
                    buf[nb] = t
                    nb += 1
        idx += 1
    counts[0] = marked
    counts[1] = nb
    return idx


@njit(cache=True, nogil=True)
def emit(cells, lo, hi, start, value, kind, n, moves, table, buf, counts):
    """layers_kernel.emit for pieces."""
    labels, twists, known, tally = scratch(n)
    m = moves.shape[0]
    room = buf.shape[0] - m
    nb = 0
    idx = start
    while idx < hi:
        if get(cells, idx - lo) != value:
            idx += 1
            continue
        if nb > room:
            break
        unrank(idx, n, table, labels, twists, known, tally)
        for j in range(m):
            buf[nb] = image(j, n, labels, twists, moves, table, tally)
            nb += 1
        idx += 1
    counts[0] = nb
    return idx


@njit(cache=True, nogil=True)
def pull(cells, lo, hi, kind, n, moves, table):
    """layers_kernel.pull for pieces (moves: the inverse moves); how many were marked."""
    labels, twists, known, tally = scratch(n)
    marked = 0
    idx = lo
    while idx < hi:
        if (idx & 3) == 0 and idx + 4 <= hi and not HAS_UNSEEN[cells[idx >> 2]]:
            idx += 4
            continue
        if get(cells, idx) != UNSEEN:
            idx += 1
            continue
        unrank(idx, n, table, labels, twists, known, tally)
        for j in range(moves.shape[0]):  # one at a time: most states find a predecessor early
            if get(cells, image(j, n, labels, twists, moves, table, tally)) == CUR:
                put(cells, idx, NEXT)
                marked += 1
                break
        idx += 1
    return marked


@njit(cache=True)
def state_of(idx, n, table, labels, twists):
    """The labels and twists of one index (for drivers and tests)."""
    unrank(idx, n, table, labels, twists, np.full(n, -1, dtype=np.int64), np.zeros(n, dtype=np.int64))
