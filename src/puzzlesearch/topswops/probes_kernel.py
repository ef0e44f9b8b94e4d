"""The kernel of `topswops estimate` (numba): Knuth's random probes of the forward tree.

The tree is forward_kernel's, node for node: the root (a deck of n placeholders); below a
node whose top card is the placeholder -j, one child per free value v >= 2, v != j (the
derangement rule), made by playing until a placeholder is on top again, and dropped when
steps + f(t) < target (t: the bottom block that never moves again, checked on every move
that puts card t at the bottom of the moving part, forward_kernel._play);
a child that uses the last free value is a leaf (the one placeholder left is 1); a node
with no free value but j has the one leaf "-j is 1". Leaves are counted as nodes, as the
kernel counts them. Plain arrays instead of packed words: this is not the hot loop.

Data structures (one probe):
  deck[i]   the card at position i: a value v >= 2, or -j for the placeholder that
            started at position j-1
  free      bit v set when value v (>= 2) is not chosen yet
  kid_*     the children of the node at hand (their decks, steps, blocks, values)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzlesearch.topswops.longdecks_kernel import random_below


@njit(cache=True, inline="always")
def reverse_top(deck, k):
    """Reverse the top k cards of a plain deck, in place."""
    i, j = 0, k - 1
    while i < j:
        deck[i], deck[j] = deck[j], deck[i]
        i += 1
        j -= 1


@njit(cache=True, inline="always")
def closure(deck, at, t):
    """forward_kernel._closure on a plain deck starting at deck[at] (cards > 0, placeholders
    < 0; wide_kernel's rows too), right after a move put card t at position t - 1: the
    least i, 1 <= i < t, such that positions i..t-1 hold i+1..t in place."""
    t -= 1
    while t > 1 and deck[at + t - 1] == t:
        t -= 1
    return t


@njit(cache=True, nogil=True)
def probe_kernel(n, bound, target, probes, rng, per_level, paths):
    """`probes` random root-to-leaf paths. Probe p estimates the node count as
    1 + d1 + d1*d2 + ... (d_l: the number of children on its l-th level), Knuth's
    estimator, unbiased; returns those estimates. per_level[l] receives the sum over probes
    of d1*...*d_l (the nodes after l choices, times the probes); paths[p, :] the values
    chosen along probe p (0 past its end), for timing the real kernel on subtrees."""
    out = np.zeros(probes, np.float64)
    deck = np.zeros(n, np.int64)
    kid = np.zeros((n + 1, n), np.int64)
    kid_steps = np.zeros(n + 1, np.int64)
    kid_t = np.zeros(n + 1, np.int64)
    kid_v = np.zeros(n + 1, np.int64)
    kid_leaf = np.zeros(n + 1, np.bool_)
    per_level[:] = 0.0
    paths[:] = 0
    for p in range(probes):
        for i in range(n):
            deck[i] = -(i + 1)
        free = ((np.int64(1) << (n + 1)) - 1) & ~np.int64(3)
        steps, t = 0, n
        est, prod = 1.0, 1.0
        per_level[0] += 1.0
        level = 0
        while True:
            j = -deck[0]
            d = 0
            options = free & ~(np.int64(1) << j)
            if options == 0:
                # one child, the leaf "-j is 1": the game ends here
                est += prod
                per_level[level + 1] += prod
                break
            for v in range(2, n + 1):
                if not (options >> v) & 1:
                    continue
                kid[d, :] = deck
                kid[d, 0] = v
                kid_v[d] = v
                if free ^ (np.int64(1) << v) == 0:
                    kid_leaf[d] = True
                    d += 1
                    continue
                kid_leaf[d] = False
                c = steps
                k = v
                row = kid[d]
                tt = t
                while True:
                    reverse_top(row, k)
                    c += 1
                    if k == tt:
                        tt = closure(row, 0, tt)
                        if c + bound[tt] < target:
                            break
                    if row[0] < 0:
                        break
                    k = row[0]
                if tt < n and c + bound[tt] < target:
                    continue
                kid_steps[d] = c
                kid_t[d] = tt
                d += 1
            if d == 0:
                break
            prod *= d
            est += prod
            level += 1
            per_level[level] += prod
            pick = random_below(rng, d)
            paths[p, level - 1] = kid_v[pick]
            if kid_leaf[pick]:
                break
            deck[:] = kid[pick]
            steps = kid_steps[pick]
            t = kid_t[pick]
            free ^= np.int64(1) << kid_v[pick]
        out[p] = est
    return out


__all__ = ["closure", "probe_kernel", "reverse_top"]
