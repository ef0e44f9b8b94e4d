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


# Sorting by radix buckets. A set is made (its images, or the inverted decks of a layer)
# in two passes over its source: the first counts the values by their top RADIX bits,
# the second writes each one into its bucket, so the whole set is written once, into
# one array, already in bucket order, with no second array the size of the set. Each
# bucket (a few ten thousand values, in cache) is then sorted by a second radix digit
# and insertion sort: 4-5x faster than np.sort on this data, and in place.

BUCKET = 10  # bits of the bucket digit (4096 buckets written at once into fresh memory is 5x slower)
RADIX = 12  # at most, bits of the next digits
FEW = 24  # runs up to this long are insertion-sorted


@njit(cache=True)
def _insertion(a, lo, hi):
    for i in range(lo + 1, hi):
        x = a[i]
        j = i - 1
        while j >= lo and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@njit(cache=True)
def _radix_pass(a, lo, hi, low, tmp, cnt):
    """Sort a[lo:hi] (values agreeing on every bit from `low` up, low > 0, hi - lo <= len(tmp))
    by the next digit below `low`, of up to RADIX bits (about 8 values a digit) through tmp.
    Leaves cnt[b] = the end of sub-run b (offset from lo); returns (its bits, the new low)."""
    n = hi - lo
    bits = 1
    while bits < RADIX and bits < low and (n >> (bits + 3)) > 0:
        bits += 1
    sh = np.uint64(low - bits)
    dm = np.uint64((1 << bits) - 1)
    nb = 1 << bits
    cnt[: nb + 1] = 0
    for i in range(lo, hi):
        cnt[((a[i] >> sh) & dm) + np.uint64(1)] += 1
    for b in range(nb):
        cnt[b + 1] += cnt[b]
    for i in range(lo, hi):
        d = (a[i] >> sh) & dm
        tmp[cnt[d]] = a[i]
        cnt[d] += 1
    a[lo:hi] = tmp[:n]
    return nb, low - bits


@njit(cache=True)
def _sort_small(a, lo, hi, low, tmp, cnt):
    """Sort a[lo:hi] (values agreeing from bit `low` up): insertion sort when short, else one
    radix digit and insertion sort of the sub-runs (np.sort for a sub-run still long)."""
    if hi - lo <= FEW:
        _insertion(a, lo, hi)
        return
    if low == 0 or hi - lo > tmp.shape[0]:
        a[lo:hi].sort()
        return
    nb, _ = _radix_pass(a, lo, hi, low, tmp, cnt)
    s = 0
    for b in range(nb):
        e = cnt[b]
        if e - s > FEW:
            a[lo + s : lo + e].sort()
        elif e - s > 1:
            _insertion(a, lo + s, lo + e)
        s = e


@njit(cache=True)
def _sort_run(a, lo, hi, low, tmp, cnt, cnt2):
    """Sort a[lo:hi], whose values agree on every bit from `low` up: a radix digit through
    tmp, then `_sort_small` of each sub-run (a second digit when it is still long: a
    skewed deck position, e.g. a bottom card that few moves reach, leaves long runs)."""
    if hi - lo <= FEW or low == 0 or hi - lo > tmp.shape[0]:
        _sort_small(a, lo, hi, low, tmp, cnt)
        return
    nb, low2 = _radix_pass(a, lo, hi, low, tmp, cnt)
    s = 0
    for b in range(nb):
        e = cnt[b]
        if e - s > 1:
            _sort_small(a, lo + s, lo + e, low2, tmp, cnt2)
        s = e


@njit(cache=True, nogil=True)
def sort_buckets(a, starts, first, last, low, tmp, cnt, cnt2):
    """Sort each bucket a[starts[b]:starts[b+1]], first <= b < last (values of a bucket agree
    on the bits from `low` up). tmp: scratch for the largest bucket; cnt, cnt2: 2**RADIX + 1 ints."""
    for b in range(first, last):
        _sort_run(a, starts[b], starts[b + 1], low, tmp, cnt, cnt2)


@njit(cache=True, nogil=True)
def count_images(states, lo, hi, shift, dst, mask, rev, low, dm, counts):
    """counts[d] += images of states[lo:hi] whose digit (y >> low) & dm is d."""
    m = shift.shape[0]
    if shift.shape[1] == 3:  # as in `expand`: the test outside the loop keeps apply3 inlined
        for i in range(lo, hi):
            x = states[i]
            for j in range(m):
                counts[(apply3(x, shift, dst, mask, rev, j) >> low) & dm] += 1
        return
    for i in range(lo, hi):
        x = states[i]
        for j in range(m):
            counts[(apply_runs(x, shift, dst, mask, rev, j) >> low) & dm] += 1


@njit(cache=True, nogil=True)
def scatter_images(states, lo, hi, shift, dst, mask, rev, low, dm, pos, out):
    """Each image of states[lo:hi] to out[pos[d]], its digit d; pos[d] moves on."""
    m = shift.shape[0]
    if shift.shape[1] == 3:
        for i in range(lo, hi):
            x = states[i]
            for j in range(m):
                y = apply3(x, shift, dst, mask, rev, j)
                d = (y >> low) & dm
                out[pos[d]] = y
                pos[d] += 1
        return
    for i in range(lo, hi):
        x = states[i]
        for j in range(m):
            y = apply_runs(x, shift, dst, mask, rev, j)
            d = (y >> low) & dm
            out[pos[d]] = y
            pos[d] += 1


@njit(cache=True, nogil=True)
def count_values(a, n, low, dm, counts):
    for i in range(n):
        counts[(a[i] >> low) & dm] += 1


@njit(cache=True, nogil=True)
def scatter_values(a, n, low, dm, pos, out):
    for i in range(n):
        d = (a[i] >> low) & dm
        out[pos[d]] = a[i]
        pos[d] += 1


@njit(cache=True)
def _inverse_then(x, tshift, size):
    """x^-1 . t without an array: the inverse of x as a word, read at the cards of t
    (tshift[i] = 4 * card of t at position i)."""
    inv = np.uint64(0)
    for i in range(size):
        inv |= np.uint64(i) << (np.uint64(4) * ((x >> np.uint64(4 * i)) & np.uint64(15)))
    y = np.uint64(0)
    for i in range(size):
        y |= ((inv >> tshift[i]) & np.uint64(15)) << np.uint64(4 * i)
    return y


@njit(cache=True, nogil=True)
def queries(states, lo, hi, images, shift, dst, mask, rev, tshift, size, out):
    """y^-1 . t for y = states[lo:hi] (images = False) or for every image of them; how many.

    y is at distance b from the goal t exactly when y^-1 . t is at distance b from the
    sorted deck, so these are looked up in the forward layer b."""
    t = 0
    m = shift.shape[0]
    if images and shift.shape[1] == 3:
        for i in range(lo, hi):
            x = states[i]
            for j in range(m):
                out[t] = _inverse_then(apply3(x, shift, dst, mask, rev, j), tshift, size)
                t += 1
        return t
    if images:
        for i in range(lo, hi):
            x = states[i]
            for j in range(m):
                out[t] = _inverse_then(apply_runs(x, shift, dst, mask, rev, j), tshift, size)
                t += 1
        return t
    for i in range(lo, hi):
        out[t] = _inverse_then(states[i], tshift, size)
        t += 1
    return t


@njit(cache=True, nogil=True)
def find_known(a, n, layer, lo, hi, where, k):
    """Positions in sorted a[:n] of the elements layer[lo:hi] found there, appended to where[k:];
    the new k. For a layer much smaller than a: a galloping search per element of the layer."""
    p = 0
    for i in range(lo, hi):
        p = gallop(a[:n], p, layer[i])
        if p >= n:
            break
        if a[p] == layer[i]:
            where[k] = p
            k += 1
    return k


@njit(cache=True, nogil=True)
def drop_positions(a, n, where, k):
    """Drop a[where[0]], a[where[1]], ... (sorted, distinct) from a[:n] in place; the new length."""
    if k == 0:
        return n
    w = where[0]
    for r in range(k):
        end = where[r + 1] if r + 1 < k else n
        for i in range(where[r] + 1, end):
            a[w] = a[i]
            w += 1
    return w
