"""numba kernels: the classic moves written into an array, and breadth-first search over
all p^n positions.

A position is encoded as the integer sum of peg(d) * p^(d-1) over the discs d = 1..n, so
disc 1 (the smallest) is the lowest base-p digit and every index 0..p^n-1 is a position.
Moving disc d from peg a to peg b adds (b - a) * p^(d-1). The top of each peg is the
first disc met while reading the digits from the smallest disc up, so a state's moves
cost O(n + p^2) to list. Distances live in one small unsigned array indexed by the
position (never more than 2^n - 1: move the largest differing disc once, the smaller
ones via one spare peg), and the BFS queue is one uint32 array of p^n entries.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def classic_moves_kernel(n, pegs_by_role, out):  # pragma: no cover - compiled
    """Fill out[m-1] = (disc, from, to) for the 2^n - 1 moves (see threepeg).

    pegs_by_role maps the canonical pegs 0, 1, 2 of the closed form to real pegs.
    """
    total = (1 << n) - 1
    for m in range(1, total + 1):
        disc = 1
        x = m
        while (x & 1) == 0:
            x >>= 1
            disc += 1
        out[m - 1, 0] = disc
        out[m - 1, 1] = pegs_by_role[(m & (m - 1)) % 3]
        out[m - 1, 2] = pegs_by_role[((m | (m - 1)) + 1) % 3]
    return total


@njit(cache=True, nogil=True)
def bfs_steps(n, p, dist, queue, head, tail, stop, unseen):  # pragma: no cover - compiled
    """Expand the queued positions queue[head], queue[head + 1], ... until the queue is
    empty or `stop` of them have been expanded; returns the new (head, tail).

    Invariant: queue[:tail] holds every position reached, in order of distance;
    dist[s] is set (not `unseen`) exactly for those; queue[:head] are expanded. A search
    runs in slices of `stop - head` positions so that its caller can show progress and
    see Ctrl-C between them; dist[source] = 0, queue[0] = source, head = 0, tail = 1
    start it.
    """
    power = np.empty(n + 1, np.int64)
    power[0] = 1
    for i in range(n):
        power[i + 1] = power[i] * p
    # for p a power of two a digit is a shift and a mask: integer division by a runtime p
    # costs tens of cycles and is the inner loop of the whole search
    shift = 0
    while (1 << shift) < p:
        shift += 1
    if (1 << shift) != p:
        shift = 0
    mask = p - 1
    top = np.empty(p, np.int64)
    while head < tail and head < stop:
        s = np.int64(queue[head])
        head += 1
        d = dist[s] + 1
        for j in range(p):
            top[j] = n  # n = empty peg (larger than every disc index)
        x = s
        found = 0
        for i in range(n):  # disc i+1, smallest first; the first seen on a peg is its top
            if shift:
                g = x & mask
                x >>= shift
            else:
                g = x % p
                x //= p
            if top[g] == n:
                top[g] = i
                found += 1
                if found == p:
                    break
        for a in range(p):
            ta = top[a]
            if ta == n:
                continue
            for b in range(p):
                if b != a and top[b] > ta:
                    t = s + (b - a) * power[ta]
                    if dist[t] == unseen:
                        dist[t] = d
                        queue[tail] = t
                        tail += 1
    return head, tail


@njit(cache=True, nogil=True)
def farthest(dist, queue, tail):  # pragma: no cover - compiled
    """(largest distance, how many positions at it) of a finished search: they are the
    last entries of the queue."""
    far = dist[queue[tail - 1]]
    at_far = 0
    for i in range(tail - 1, -1, -1):
        if dist[queue[i]] != far:
            break
        at_far += 1
    return far, at_far


@njit(cache=True, nogil=True)
def bfs_kernel(n, p, source, dist, queue, unseen):  # pragma: no cover - compiled
    """Breadth-first search from `source` in one call; dist[s] = moves from source, or
    `unseen`. Returns (positions reached, largest distance, how many positions at it)."""
    dist[source] = 0
    queue[0] = source
    _, tail = bfs_steps(n, p, dist, queue, 0, 1, dist.shape[0], unseen)
    far, at_far = farthest(dist, queue, tail)
    return tail, far, at_far


@njit(cache=True, nogil=True)
def diameter_kernel(n, p, dist, queue, unseen, start, budget):  # pragma: no cover - compiled
    """The largest distance between any two positions: a BFS from every position whose
    pegs appear in first-use order reading from the largest disc (the others are these
    with the pegs renamed, which preserves distances).

    One slice: the sources from index `start` on, until `budget` searches are done.
    Returns (largest distance, searches, a source and a position at that distance, the
    index to start the next slice at; dist.shape[0] when all are done).
    """
    total = dist.shape[0]
    best, sources, best_src, best_dst = 0, 0, 0, 0
    src = start
    while src < total and sources < budget:
        # canonical: reading digits from the largest disc, each new peg is the next unused
        nxt = 0
        ok = True
        x = src
        div = total // p
        for _ in range(n):
            g = x // div
            x -= g * div
            div //= p
            if g > nxt:
                ok = False
                break
            if g == nxt:
                nxt += 1
        src += 1
        if not ok:
            continue
        sources += 1
        dist[:] = unseen
        reached, far, _ = bfs_kernel(n, p, src - 1, dist, queue, unseen)
        if far > best:
            best = far
            best_src = src - 1
            best_dst = queue[reached - 1]
    return best, sources, best_src, best_dst, src
