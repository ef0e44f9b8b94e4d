"""Kernels on decks packed 4 bits a card into one 64-bit word (up to 16 cards).

Card c sits in nibble i when it is at position i (stored as c - 1). A move is then a
few shifts and masks instead of a loop over cards: its position permutation is cut into
*segments*, maximal runs of positions copied in order (``dst+t <- src+t``) or in reverse
order. A reversed run is read from the nibble-reversed word, where it is an ordinary run.
A block move has at most three segments and a pancake flip two, whatever the deck size.

Sets of decks are sorted uint64 arrays: membership is a merge or a galloping search,
duplicates go by sorting. The kernels take arrays and ints and return ints.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

MASK = np.array([(1 << (4 * t)) - 1 for t in range(16)] + [(1 << 64) - 1], dtype=np.uint64)


def pack(deck: Sequence[int]) -> int:
    """The deck of cards 1..D (top first) as one integer, 4 bits a card."""
    word = 0
    for i, card in enumerate(deck):
        word |= (card - 1) << (4 * i)
    return word


def unpack(word: int, size: int) -> tuple[int, ...]:
    return tuple(((int(word) >> (4 * i)) & 15) + 1 for i in range(size))


def segments(moves: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Each move as runs (dst, src, length, reversed); src of a reversed run is in the reversed word."""
    m = len(moves)
    size = len(moves[0])
    segs = np.zeros((m, size, 4), dtype=np.int64)
    counts = np.zeros(m, dtype=np.int64)
    for j, perm in enumerate(moves):
        i = 0
        while i < size:
            length = 1
            while i + length < size and perm[i + length] == perm[i] + length:
                length += 1
            if length == 1:
                while i + length < size and perm[i + length] == perm[i] - length:
                    length += 1
            if length > 1 and perm[i + 1] == perm[i] - 1:
                segs[j, counts[j]] = (i, 15 - perm[i], length, 1)
            else:
                segs[j, counts[j]] = (i, perm[i], length, 0)
            counts[j] += 1
            i += length
    return segs, counts


@njit(cache=True)
def nibble_reverse(x):
    x = ((x & np.uint64(0x0F0F0F0F0F0F0F0F)) << np.uint64(4)) | ((x >> np.uint64(4)) & np.uint64(0x0F0F0F0F0F0F0F0F))
    x = ((x & np.uint64(0x00FF00FF00FF00FF)) << np.uint64(8)) | ((x >> np.uint64(8)) & np.uint64(0x00FF00FF00FF00FF))
    x = ((x & np.uint64(0x0000FFFF0000FFFF)) << np.uint64(16)) | ((x >> np.uint64(16)) & np.uint64(0x0000FFFF0000FFFF))
    return (x << np.uint64(32)) | (x >> np.uint64(32))


@njit(cache=True)
def apply_move(x, segs, nseg, j, mask):
    r = x
    for s in range(nseg[j]):
        if segs[j, s, 3] == 1:
            r = nibble_reverse(x)
            break
    y = np.uint64(0)
    for s in range(nseg[j]):
        w = r if segs[j, s, 3] == 1 else x
        part = (w >> np.uint64(4 * segs[j, s, 1])) & mask[segs[j, s, 2]]
        y |= part << np.uint64(4 * segs[j, s, 0])
    return y


@njit(cache=True)
def expand(states, lo, hi, segs, nseg, mask, out):
    """out[(i - lo) * m + j] = move j applied to states[i], for lo <= i < hi."""
    m = nseg.shape[0]
    t = 0
    for i in range(lo, hi):
        x = states[i]
        for j in range(m):
            out[t] = apply_move(x, segs, nseg, j, mask)
            t += 1
    return t


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def common(a, n, layer, out):
    """The elements of sorted a[:n] also in the sorted layer, into out; how many."""
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
    """Index of x in the sorted layer, or -1."""
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


@njit(cache=True)
def count_paths(layer, prev, prev_counts, segs, nseg, mask, counts):
    """counts[i] = sum of prev_counts over the states of prev one move (segs) from layer[i].

    The counts are shortest-path counts; they wrap past 2**64, so the driver checks a
    float copy of the same sum, `approx`, returned as the largest value seen.
    """
    m = nseg.shape[0]
    biggest = 0.0
    for i in range(layer.shape[0]):
        c = np.uint64(0)
        approx = 0.0
        for j in range(m):
            y = apply_move(layer[i], segs, nseg, j, mask)
            p = find(prev, y)
            if p >= 0:
                c += prev_counts[p]
                approx += float(prev_counts[p])
        counts[i] = c
        if approx > biggest:
            biggest = approx
    return biggest
