"""Numba kernels of the breadth-first engine for the elements of a permutation group (kind
GROUP, built by `group_space`): the passes of `layers_kernel` over a stabiliser chain's
ranks.

The arrays (``space.chain_arrays``): ``moves[j]`` move j as a permutation of the n points
(``moves[j, x]``: where it takes point x); ``base`` the k base points; ``pos[j, x]`` the
digit of point x at level j; ``inv[j, d]`` the inverted transversal row of digit d at
level j, ``fwd[j, d]`` the row itself; ``weights[j]`` the weight of level j's digit.

A pass walks the indices in order, so the last digit changes at almost every state and
the others rarely. The element of an index is u_0 ∘ ... ∘ u_{k-1}, one row a level; its
prefixes up to level k - 2 are kept (``prefix[j]`` = u_0 ∘ ... ∘ u_{j-1}) and made again
only from the first digit that changed, so a state costs k lookups for the images of the
base points (``images``), then each move M one lookup a base point and the sift of the
images, k(k - 1)/2 lookups of the inverted rows (``rank``): O(k^2) a move, whatever the
number of points, from tables of a few kilobytes that stay in the cache.

The loops are compiled without reference counting, as layers_kernel's (its NO_REFCOUNTS),
their scratch arrays made by the kernel that calls them.
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
    prefetch,
    put,
    settle,
)


@njit(cache=True, inline="always")
def locate(idx, last, k, n, base, fwd, weights, digits, prefix, images):
    """digits, prefix and images (of the base points) = those of the element at idx,
    moving on from the one at `last` (when 0 <= last <= idx)."""
    first = 0
    if 0 <= last <= idx:
        if idx == last:
            return
        gap = idx - last  # an odometer from the last digit: a short gap costs a few digits
        first = k - 1
        while first > 0:
            radix = weights[first - 1] // weights[first]
            v = digits[first] + gap
            if v < radix:
                digits[first] = v
                gap = 0
                break
            gap = v // radix
            digits[first] = v - gap * radix
            first -= 1
        digits[0] += gap
    else:
        rem = idx
        for j in range(k):
            digits[j] = rem // weights[j]
            rem -= digits[j] * weights[j]
    for j in range(first, k - 1):  # prefix[j + 1] = prefix[j] ∘ u_j
        row = fwd[j, digits[j]]
        for x in range(n):
            prefix[j + 1, x] = prefix[j, row[x]]
    last_row = fwd[k - 1, digits[k - 1]]
    if first == k - 1:  # the earlier base points are fixed by u_{k-1}: their images stand
        images[k - 1] = prefix[k - 1, last_row[base[k - 1]]]
    else:
        for i in range(k):
            images[i] = prefix[k - 1, last_row[base[i]]]


@njit(cache=True, inline="always")
def rank(j, k, moves, images, pos, inv, weights, y):
    """The index of M_j ∘ g, g's base images given: its sift through the chain."""
    for i in range(k):
        y[i] = moves[j, images[i]]
    r = 0
    for lv in range(k):
        d = pos[lv, y[lv]]
        r += d * weights[lv]
        row = inv[lv, d]
        for i in range(lv + 1, k):
            y[i] = row[y[i]]
    return r


@njit(cache=True, inline="always")
def scratch(k, n, m):
    """digits, prefix (its first row the identity), base images, a sift's images, and two
    rows of ranks."""
    prefix = np.zeros((k, n), dtype=np.int32)
    for x in range(n):
        prefix[0, x] = x
    return (np.zeros(k, dtype=np.int64), prefix, np.zeros(k, dtype=np.int32), np.zeros(k, dtype=np.int32),
            np.zeros((2, max(m, 1)), dtype=np.int64))


@njit(cache=True, nogil=True)
def push(cells, lo, hi, start, kind, n, moves, base, pos, inv, fwd, weights, buf, counts):
    """layers_kernel.push for group elements: every UNSEEN image marked NEXT here by an
    atomic step, those of one state asked for (prefetch) before the previous state's are
    settled. counts[0] = states marked, counts[1] = 0; returns hi."""
    k = base.shape[0]
    digits, prefix, images, y, ranks = scratch(k, n, moves.shape[0])
    idx, counts[0] = _push(cells, hi, start, k, n, moves, base, pos, inv, fwd, weights, digits, prefix,
                           images, y, ranks)
    counts[1] = 0
    return idx


@njit(cache=True, nogil=True, _nrt=False)
def _push(cells, hi, start, k, n, moves, base, pos, inv, fwd, weights, digits, prefix, images, y, ranks):
    """push's loop: (where it stopped, states marked)."""
    address = cells.ctypes.data
    m = moves.shape[0]
    marked, last = 0, -1
    slot, waiting = 0, 0
    idx = start
    while idx < hi:
        if (idx & 3) == 0 and idx + 4 <= hi and not HAS_CUR[cells[idx >> 2]]:
            idx += 4
            continue
        if get(cells, idx) != CUR:
            idx += 1
            continue
        locate(idx, last, k, n, base, fwd, weights, digits, prefix, images)
        last = idx
        for j in range(m):
            t = rank(j, k, moves, images, pos, inv, weights, y)
            ranks[slot, j] = t
            prefetch(address + (t >> 2))
        marked += settle(cells, address, ranks[1 - slot], waiting)
        slot, waiting = 1 - slot, m
        idx += 1
    marked += settle(cells, address, ranks[1 - slot], waiting)
    return idx, marked


@njit(cache=True, nogil=True)
def emit(cells, lo, hi, start, value, kind, n, moves, base, pos, inv, fwd, weights, buf, counts):
    """layers_kernel.emit for group elements: every image of the states whose bits are
    `value` in [start, hi) into buf (cells holds lo..hi-1 only), stopping before buf could
    overflow. counts[0] = entries in buf; returns where to go on."""
    k = base.shape[0]
    digits, prefix, images, y, ranks = scratch(k, n, moves.shape[0])
    idx, counts[0] = _emit(cells, lo, hi, start, value, k, n, moves, base, pos, inv, fwd, weights, buf,
                           digits, prefix, images, y)
    return idx


@njit(cache=True, nogil=True, _nrt=False)
def _emit(cells, lo, hi, start, value, k, n, moves, base, pos, inv, fwd, weights, buf, digits, prefix, images,
          y):
    """emit's loop: (where it stopped, entries in buf)."""
    m = moves.shape[0]
    room = buf.shape[0] - m
    nb, last = 0, -1
    idx = start
    while idx < hi:
        if get(cells, idx - lo) != value:
            idx += 1
            continue
        if nb > room:
            break
        locate(idx, last, k, n, base, fwd, weights, digits, prefix, images)
        last = idx
        for j in range(m):
            buf[nb] = rank(j, k, moves, images, pos, inv, weights, y)
            nb += 1
        idx += 1
    return idx, nb


@njit(cache=True, nogil=True)
def pull(cells, lo, hi, kind, n, moves, base, pos, inv, fwd, weights):
    """layers_kernel.pull for group elements (moves: the inverse moves): an UNSEEN state
    with a CUR predecessor is marked NEXT; how many were marked."""
    k = base.shape[0]
    digits, prefix, images, y, _ = scratch(k, n, moves.shape[0])
    return _pull(cells, lo, hi, k, n, moves, base, pos, inv, fwd, weights, digits, prefix, images, y)


@njit(cache=True, nogil=True, _nrt=False)
def _pull(cells, lo, hi, k, n, moves, base, pos, inv, fwd, weights, digits, prefix, images, y):
    """pull's loop: one image at a time, each made only when asked for (most states find a
    predecessor among their first few)."""
    m = moves.shape[0]
    marked, last = 0, -1
    idx = lo
    while idx < hi:
        if (idx & 3) == 0 and idx + 4 <= hi and not HAS_UNSEEN[cells[idx >> 2]]:
            idx += 4
            continue
        if get(cells, idx) != UNSEEN:
            idx += 1
            continue
        locate(idx, last, k, n, base, fwd, weights, digits, prefix, images)
        last = idx
        for j in range(m):
            if get(cells, rank(j, k, moves, images, pos, inv, weights, y)) == CUR:
                put(cells, idx, NEXT)
                marked += 1
                break
        idx += 1
    return marked


@njit(cache=True)
def images_of(idx, n, moves, base, pos, inv, fwd, weights, out):
    """out[j] = the index of state idx's image under move j (for drivers and tests)."""
    k = base.shape[0]
    digits, prefix, images, y, _ = scratch(k, n, moves.shape[0])
    locate(idx, -1, k, n, base, fwd, weights, digits, prefix, images)
    for j in range(moves.shape[0]):
        out[j] = rank(j, k, moves, images, pos, inv, weights, y)


__all__ = ["emit", "images_of", "pull", "push"]
