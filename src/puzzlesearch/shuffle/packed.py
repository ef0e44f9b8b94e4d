"""Numba kernels on decks packed 4 bits a card into one 64-bit word (up to 16 cards).

The word layout and the runs a move is cut into are described in `words`. Sets of decks
are sorted uint64 arrays: membership is a merge or a galloping search, duplicates go by
sorting. The kernels take arrays and ints and return ints.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzlesearch.shuffle.words import MASK, pack, segments, unpack

__all__ = ["MASK", "pack", "segments", "unpack"]  # shared with words.py; and the kernels below


@njit(cache=True)
def nibble_reverse(x):
    """The word with its 16 nibbles in reverse order (swap nibbles, bytes, pairs, halves)."""
    for width, m in ((4, 0x0F0F0F0F0F0F0F0F), (8, 0x00FF00FF00FF00FF), (16, 0x0000FFFF0000FFFF)):
        x = ((x & np.uint64(m)) << np.uint64(width)) | ((x >> np.uint64(width)) & np.uint64(m))
    return (x << np.uint64(32)) | (x >> np.uint64(32))


@njit(cache=True)
def apply3(x, shift, dst, mask, rev, j):
    """Move j of at most three runs, unrolled (small enough to be inlined: 4x faster)."""
    r = nibble_reverse(x) if rev[j] else x
    w0 = r if rev[j] & np.uint64(1) else x
    w1 = r if rev[j] & np.uint64(2) else x
    w2 = r if rev[j] & np.uint64(4) else x
    return ((((w0 >> shift[j, 0]) & mask[j, 0]) << dst[j, 0])
            | (((w1 >> shift[j, 1]) & mask[j, 1]) << dst[j, 1])
            | (((w2 >> shift[j, 2]) & mask[j, 2]) << dst[j, 2]))


@njit(cache=True)
def apply_runs(x, shift, dst, mask, rev, j):
    """Move j of any number of runs."""
    r = nibble_reverse(x) if rev[j] else x
    y = np.uint64(0)
    for s in range(shift.shape[1]):
        w = r if (rev[j] >> np.uint64(s)) & np.uint64(1) else x
        y |= ((w >> shift[j, s]) & mask[j, s]) << dst[j, s]
    return y


@njit(cache=True)
def apply_move(x, shift, dst, mask, rev, j):
    """Move j applied to the packed deck x."""
    if shift.shape[1] == 3:
        return apply3(x, shift, dst, mask, rev, j)
    return apply_runs(x, shift, dst, mask, rev, j)


@njit(cache=True, nogil=True)
def expand(states, lo, hi, shift, dst, mask, rev, out):
    """out[(i - lo) * m + j] = move j applied to states[i], for lo <= i < hi."""
    m = shift.shape[0]
    t = 0
    if shift.shape[1] == 3:  # the test outside the loop keeps the inner call inlined
        for i in range(lo, hi):
            x = states[i]
            for j in range(m):
                out[t] = apply3(x, shift, dst, mask, rev, j)
                t += 1
        return t
    for i in range(lo, hi):
        x = states[i]
        for j in range(m):
            out[t] = apply_runs(x, shift, dst, mask, rev, j)
            t += 1
    return t


@njit(cache=True, nogil=True)
def unique_sorted(a, n):
    """Drop repeats from the sorted a[:n] in place; the new length."""
    if n == 0:
        return 0
    k = 1
    for i in range(1, n):
        if a[i] != a[k - 1]:
            a[k] = a[i]
            k += 1
    return k


@njit(cache=True)
def gallop(layer, lo, x):
    """First index >= lo with layer[index] >= x (layer sorted), by doubling then bisection."""
    n = layer.shape[0]
    step = 1
    hi = lo
    while hi < n and layer[hi] < x:
        lo = hi + 1
        hi += step
        step <<= 1
    if hi > n:
        hi = n
    while lo < hi:
        mid = (lo + hi) >> 1
        if layer[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True, nogil=True)
def remove_known(a, n, layer):
    """Drop from sorted a[:n] (in place) every element of the sorted layer; the new length."""
    k = 0
    p = 0
    m = layer.shape[0]
    for i in range(n):
        x = a[i]
        p = gallop(layer, p, x)
        if p < m and layer[p] == x:
            continue
        a[k] = x
        k += 1
    return k


@njit(cache=True, nogil=True)
def common(a, n, layer, out):
    """The elements of sorted a[:n] also in the sorted layer, into out; how many.

    The same galloping merge as `remove_known`, kept as a second copy on purpose: a flag
    choosing keep-or-drop would put a branch in the innermost loop of every chunk.
    """
    k = 0
    p = 0
    m = layer.shape[0]
    for i in range(n):
        x = a[i]
        p = gallop(layer, p, x)
        if p < m and layer[p] == x:
            out[k] = x
            k += 1
    return k


@njit(cache=True)
def find(layer, x):
    """Index of x in the sorted layer, or -1 (a plain bisection from 0: `gallop` starts from a
    previous position and would search the same range in more steps here)."""
    lo = 0
    hi = layer.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if layer[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    if lo < layer.shape[0] and layer[lo] == x:
        return lo
    return -1


@njit(cache=True, nogil=True)
def count_paths(layer, prev, prev_counts, shift, dst, mask, rev, counts):
    """counts[i] = sum of prev_counts over the states of prev one move (segs) from layer[i].

    The counts are shortest-path counts; they wrap past 2**64, so the driver checks a
    float copy of the same sum, `approx`, returned as the largest value seen.
    """
    m = shift.shape[0]
    biggest = 0.0
    for i in range(layer.shape[0]):
        c = np.uint64(0)
        approx = 0.0
        for j in range(m):
            y = apply_move(layer[i], shift, dst, mask, rev, j)
            p = find(prev, y)
            if p >= 0:
                c += prev_counts[p]
                approx += float(prev_counts[p])
        counts[i] = c
        if approx > biggest:
            biggest = approx
    return biggest


@njit(cache=True)
def inverse_then(x, t, size):
    """The deck x^-1 . t: card x^-1(t(i)) at position i, i.e. the position in x of card t(i)."""
    where = np.empty(16, dtype=np.uint64)
    for i in range(size):
        where[(x >> np.uint64(4 * i)) & np.uint64(15)] = i
    y = np.uint64(0)
    for i in range(size):
        y |= where[(t >> np.uint64(4 * i)) & np.uint64(15)] << np.uint64(4 * i)
    return y


@njit(cache=True, nogil=True)
def inverse_then_all(states, t, size, out):
    for i in range(states.shape[0]):
        out[i] = inverse_then(states[i], t, size)


@njit(cache=True, nogil=True)
def then_inverse_all(states, t, size, out):
    """out[k] = t . x^-1 for x = states[k]: at position i the card of t at x's position of card i."""
    tcards = np.empty(16, dtype=np.uint64)
    for i in range(size):
        tcards[i] = (t >> np.uint64(4 * i)) & np.uint64(15)
    for k in range(states.shape[0]):
        x = states[k]
        y = np.uint64(0)
        for i in range(size):
            card = (x >> np.uint64(4 * i)) & np.uint64(15)
            y |= tcards[i] << (np.uint64(4) * card)
        out[k] = y
