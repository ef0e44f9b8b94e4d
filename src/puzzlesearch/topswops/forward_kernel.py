"""The forward search's kernel (numba): branch-and-bound below a prefix of choices.

The method is in forward.py. A deck is two 64-bit words, packed 4 bits a position
(packed.py), and their nibble reversals, so that reversing the top k cards is a few
shifts and masks of a word and its reversal (_masks).

Data structures (one entry per level l = number of values chosen so far):
  d_at[l]       the deck when the l-th choice is due: nibble i holds value-1 for a known
                card, j-1 for the placeholder -j
  k_at[l]       nibble 15 where the card is known, 0 where a placeholder is
  rd_at[l], rk_at[l]  the nibble reversals of d_at[l] and k_at[l]
  steps_at[l]   reversals made so far
  free_at[l]    bit v set when value v (>= 2) has not been chosen yet
  todo_at[l]    bit v set when value v is still to be tried for the placeholder on top
  only1[l]      no value but 1 may go to that placeholder: the game ends there, once
  fixed_at[l]   t: positions t..n-1 hold the values t+1..n in place (never move again)
  who[l], val[l]  the placeholder -who[l] was given the value val[l]
Invariant: nibble 0 of k_at[l] is 0 (a placeholder is on top), and d_at[l] is what the
deck made of the choices val[0..l-1] looks like after steps_at[l] reversals.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from puzzlesearch.topswops.packed import reverse_nibbles

_F = np.uint64(15)
_ALL = ~np.uint64(0)


class Found(NamedTuple):
    """What forward_kernel returns, slot by slot (the kernel returns a plain tuple in this
    order; the drivers name it with ``Found._make``)."""

    best: int  # the most steps seen at a leaf with steps >= target (-1 if none)
    count: int  # decks reaching `best` (with rise) or the target (without); more than fit, maybe
    decks: np.ndarray  # decks[:min(count, cap)]: those start decks (int8, n cards)
    nodes: np.ndarray  # the caller's array `nodes`, filled: choice points reached after l choices
    paths: np.ndarray  # paths[:npaths]: the choice prefixes of length split_depth (split only)
    npaths: int  # prefixes met at split_depth; more than fit, maybe


@njit(cache=True, inline="always")
def _masks(k):
    """Shift and masks that reverse the top k nibbles of a word X, given R = reverse(X):
    X' = (R >> sh) | (X & keep) and reverse(X') = (X << sh) | (R & rkeep). Computed, not
    looked up: a table load would sit on the critical path of every reversal. The double
    shifts keep k = 16 defined (a shift by 64 is not)."""
    q = np.uint64(4 * k - 4)
    return (np.uint64(64 - 4 * k), (_ALL << q) << np.uint64(4), (_ALL >> q) >> np.uint64(4))


@njit(cache=True, nogil=True)
def forward_kernel(n, bound, target, prefix, split_depth, cap, nodes, rise):
    """Branch-and-bound below the choices `prefix`.

    bound[m] = f(m) for m < n; bound[n] is ignored (no pruning on the whole deck).
    Searches the subtree where the first len(prefix) choices are prefix[...]. With
    split_depth > len(prefix), stops at that many choices and lists the paths there
    instead (the subproblems), while still solving the leaves met on the way.

    `nodes` (n + 2 entries, cleared here) receives nodes[l] = the choice points reached
    after l choices (leaves included), while the search runs: the caller's array, so
    that another thread can watch it grow. (Unlike the backward kernel's, counting into
    it costs nothing measurable here: forward n = 13 in 2.898 s of CPU against 2.894 s.)

    `rise`: True for the search of f(n), whose target rises to the best deck found (so
    that only the decks reaching the best are kept); False to keep the target fixed and
    list every deck reaching it (bottom.py's listing at size n - 1).

    Returns the slots of `Found`, in its order.
    """
    # the data structures of the module docstring; D, RD, K, RK are those of the level at hand
    d_at = np.zeros(n + 1, np.uint64)
    rd_at = np.zeros(n + 1, np.uint64)
    k_at = np.zeros(n + 1, np.uint64)
    rk_at = np.zeros(n + 1, np.uint64)
    steps_at = np.zeros(n + 1, np.int64)
    free_at = np.zeros(n + 1, np.int64)  # bit v: value v (>= 2) not chosen yet
    todo_at = np.zeros(n + 1, np.int64)  # bit v: value v still to try here
    fixed_at = np.zeros(n + 1, np.int64)
    only1 = np.zeros(n + 1, np.bool_)  # no value but 1 may go to the top placeholder
    who = np.zeros(n + 1, np.int64)
    val = np.zeros(n + 1, np.int64)
    nodes[:] = 0
    decks = np.zeros((cap, n), np.int8)
    maxpaths = cap if split_depth > 0 else 1
    paths = np.zeros((maxpaths, max(split_depth, 1)), np.int8)
    npaths = 0
    best, count = -1, 0
    d0 = np.uint64(0)
    for i in range(n):
        d0 |= np.uint64(i) << np.uint64(4 * i)
    d_at[0] = d0
    rd_at[0] = reverse_nibbles(d0)
    fixed_at[0] = n
    free_at[0] = ((np.int64(1) << (n + 1)) - 1) & ~np.int64(3)
    npre = len(prefix)
    level = 0
    if npre == 0:
        nodes[0] = 1
    todo_at[0], only1[0] = _choices(free_at[0], d0, 0, npre, prefix)
    if not rise and npre == 0:
        only1[0] = True
    while True:
        todo = todo_at[level]
        D = d_at[level]
        j = np.int64(D & _F) + 1
        if todo == 0:
            if only1[level]:
                # nothing but 1 could be given to -j: the game ends here
                only1[level] = False
                c = steps_at[level]
                nodes[level + 1] += 1
                if c >= target:
                    if c > best:
                        best = c
                        if rise:
                            count = 0
                            target = c
                    if count < cap:
                        _rebuild(n, who, val, level, j, 1, decks[count], rise)
                    count += 1
            if level <= npre:
                break
            level -= 1
            continue
        bit = todo & -todo
        todo_at[level] = todo ^ bit
        v = np.int64(trailing_zeros(bit))
        free = free_at[level] ^ bit
        c = steps_at[level]
        K = k_at[level] | _F
        RK = rk_at[level] | (_F << np.uint64(60))
        D = (D & ~_F) | np.uint64(v - 1)
        RD = (rd_at[level] & ~(_F << np.uint64(60))) | (np.uint64(v - 1) << np.uint64(60))
        if free == 0:
            # v was the last value but 1: the one placeholder left is 1, and the rest
            # of the game is a plain game of known cards (1 stored as 0)
            c, done = _play_out(D & K, RD & RK, v, c, fixed_at[level], bound, target)
            nodes[level + 1] += 1
            if done and c >= target:
                if c > best:
                    best = c
                    if rise:
                        count = 0
                        target = c
                if count < cap:
                    who[level] = j
                    val[level] = v
                    _rebuild(n, who, val, level + 1, 0, 0, decks[count], True)
                count += 1
            continue
        D, RD, K, RK, c, t = _play(D, RD, K, RK, v, c, fixed_at[level], bound, target)
        if t < n and c + bound[t] < target:
            continue
        who[level] = j
        val[level] = v
        few = free & (free - 1) & (free - 1 - (free & -free)) == 0
        if split_depth == 0 and rise and level + 1 >= npre and few:
            # The child has one or two values left but 1: settle it here instead of going
            # down a level (most nodes are such, so this saves pushes and pops).
            if level + 1 > npre:
                nodes[level + 1] += 1
            if free & (free - 1) == 0:
                nodes[level + 2] += 1
                c1, done, j2, x, ends = _settle1(D, RD, K, RK, c, t, free, bound, target)
                if done and c1 >= target:
                    best, count, target = _record(n, who, val, level + 1, j2, x, ends, c1,
                                                  best, count, target, decks, rise)
                continue
            j2 = np.int64(D & _F) + 1
            options = free & ~(np.int64(1) << j2)
            K |= _F
            RK |= _F << np.uint64(60)
            while options:
                wbit = options & -options
                options ^= wbit
                w = np.int64(trailing_zeros(wbit))
                D2 = (D & ~_F) | np.uint64(w - 1)
                RD2 = (RD & ~(_F << np.uint64(60))) | (np.uint64(w - 1) << np.uint64(60))
                D2, RD2, K2, RK2, c2, t2 = _play(D2, RD2, K, RK, w, c, t, bound, target)
                if t2 < n and c2 + bound[t2] < target:
                    continue
                who[level + 1] = j2
                val[level + 1] = w
                nodes[level + 2] += 1
                nodes[level + 3] += 1
                c1, done, j3, x, ends = _settle1(D2, RD2, K2, RK2, c2, t2, free ^ wbit, bound, target)
                if done and c1 >= target:
                    best, count, target = _record(n, who, val, level + 2, j3, x, ends, c1,
                                                  best, count, target, decks, rise)
            continue
        level += 1
        if level > npre:  # a task does not count the nodes of its prefix again
            nodes[level] += 1
        d_at[level] = D
        rd_at[level] = RD
        k_at[level] = K
        rk_at[level] = RK
        steps_at[level] = c
        free_at[level] = free
        fixed_at[level] = t
        if split_depth > 0 and level == split_depth:
            if npaths < maxpaths:
                for q2 in range(split_depth):
                    paths[npaths, q2] = val[q2]
            npaths += 1
            level -= 1
            continue
        todo_at[level], only1[level] = _choices(free, D, level, npre, prefix)
        if not rise and level >= npre:
            # listing every deck: "-j is 1" ends a game of c steps, whether or not
            # another value was free
            only1[level] = True
    return best, count, decks, nodes, paths, npaths


@njit(cache=True, inline="always")
def _play(D, RD, K, RK, k, c, t, bound, target):
    """Play from a deck whose top card k is known, until a placeholder is on top, the
    bottom block being t..n-1. Returns the deck, its steps and its bottom block; stops
    early, pruned (steps + f(t) < target), when a move that puts card t at the bottom of
    the moving part makes the target out of reach."""
    while True:
        s, kp, rkp = _masks(k)
        D, RD = (RD >> s) | (D & kp), (D << s) | (RD & rkp)
        K, RK = (RK >> s) | (K & kp), (K << s) | (RK & rkp)
        c += 1
        if k == t:
            t = _closure(D, K, t)
            if c + bound[t] < target:
                return D, RD, K, RK, c, t
        if (K & _F) == 0:
            return D, RD, K, RK, c, t
        k = np.int64(D & _F) + 1


@njit(cache=True, inline="always")
def _settle1(D, RD, K, RK, c, t, free, bound, target):
    """A choice point whose only value left but 1 is x (free = 1 << x), placeholder -j
    on top: -j is x and the last placeholder 1, or, when x = j, -j is 1 and the game ends.
    Returns (steps, whether the game reached its end, j, x, whether -j is 1)."""
    j = np.int64(D & _F) + 1
    x = np.int64(trailing_zeros(free))
    if x == j:
        return c, True, j, x, True
    K |= _F
    RK |= _F << np.uint64(60)
    D = ((D & ~_F) | np.uint64(x - 1)) & K
    RD = ((RD & ~(_F << np.uint64(60))) | (np.uint64(x - 1) << np.uint64(60))) & RK
    c, done = _play_out(D, RD, x, c, t, bound, target)
    return c, done, j, x, False


@njit(cache=True)
def _record(n, who, val, nchosen, j, x, ends, c, best, count, target, decks, rise):
    """A leaf with c >= target steps, as left by _settle1 after the choices who/val[:nchosen]:
    keep its start deck. Returns the new (best, count, target)."""
    if c > best:
        best = c
        if rise:
            count = 0
            target = c
    if count < len(decks):
        if ends:
            _rebuild(n, who, val, nchosen, j, 1, decks[count], True)
        else:
            who[nchosen] = j
            val[nchosen] = x
            _rebuild(n, who, val, nchosen + 1, 0, 0, decks[count], True)
    return best, count + 1, target


@njit(cache=True, inline="always")
def _play_out(D, RD, k, c, t, bound, target):
    """Play a deck of known cards (1 stored as 0) whose top card is k until 1 is on top.
    Returns (steps, True), or (steps so far, False) once the bottom block that never
    moves again has grown so far that the target is out of reach."""
    while k > 1:
        s, kp, rkp = _masks(k)
        D, RD = (RD >> s) | (D & kp), (D << s) | (RD & rkp)
        c += 1
        if k == t:
            # card t went to the bottom of the moving part: the block grew
            t = _closure(D, _ALL, t)
            if c + bound[t] < target:
                return c, False
        k = np.int64(D & _F) + 1
    return c, True


@njit(cache=True, inline="always")
def _closure(D, K, t):
    """The bottom block that never moves again, right after a move put card t at position
    t - 1 (the bottom of the moving part): the least i, 1 <= i < t, such that positions
    i..t-1 are known and hold i+1..t in place. (Never 0: the top card always moves.)"""
    t -= 1
    while t > 1:
        q = np.uint64(4 * t - 4)
        if (K >> q) & _F == 0 or np.int64((D >> q) & _F) != t - 1:
            break
        t -= 1
    return t


@njit(cache=True, inline="always")
def _choices(free, D, level, npre, prefix):
    """Values to try for the placeholder on top of D: the free ones but its own index
    (derangement), or just the prefix's choice on a forced level."""
    j = np.int64(D & _F) + 1
    todo = free & ~(np.int64(1) << j)
    only1 = todo == 0
    if level < npre:
        todo &= np.int64(1) << prefix[level]
    return todo, only1


@njit(cache=True)
def _rebuild(n, who, val, nchosen, j, jval, out, fill):
    """The start deck of a leaf: placeholder -who[q] is val[q] for q < nchosen, -j is
    jval (when j > 0), and the placeholders left, which never reach the top, take the
    values left (`fill`) or stay 0, undetermined (any way of filling them plays the same
    game)."""
    out[:] = 0
    placed = np.int64(0)
    for q in range(nchosen):
        out[who[q] - 1] = val[q]
        placed |= np.int64(1) << val[q]
    if j > 0:
        out[j - 1] = jval
        placed |= np.int64(1) << jval
    if not fill:
        return
    for i in range(n):
        if out[i] == 0:
            for v in range(1, n + 1):
                if not (placed >> v) & 1:
                    out[i] = v
                    placed |= np.int64(1) << v
                    break


__all__ = ["Found", "forward_kernel"]
