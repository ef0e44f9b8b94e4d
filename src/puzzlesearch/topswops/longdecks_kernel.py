"""The kernels of `topswops long` (numba): a beam search backward, and depth-first
searches restarted from prefixes of the best walk. The method is in longdecks.py.

A walk is a list of un-moves k ("reverse the top k cards", undone) from the final deck
"1 _ _ ... _", where _ is a position whose card is not decided yet (0 here). Undoing k is
legal when position k-1 holds k, or is undecided and k is nowhere in the deck (k goes
there); the top k cards are then reversed, which puts k on top.
Invariant: every card that has been on top along a walk is decided, so any way of filling
the undecided positions gives a start deck that plays exactly the reverse of the walk:
as many steps as the walk has un-moves (Pepperdine 1989; Knuth's topswops.w).
Cards are bytes (uint8, 0 = undecided): n <= 255.
The random numbers come from a xorshift64* generator whose state is the caller's (rng[0]),
so a run is repeatable from its --seed whatever thread runs the kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: the beam's score of a partial deck: its undecided positions plus MOBILITY times its
#: legal un-moves (measured: see beam_kernel)
MOBILITY = 2


@njit(cache=True, inline="always")
def _next(rng):
    """xorshift64* (Vigna 2016): the next 64-bit random number; rng[0] is its state."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return x * np.uint64(0x2545F4914F6CDD1D)


@njit(cache=True, inline="always")
def random_below(rng, m):
    """A random whole number in 0..m-1 (m >= 1)."""
    return np.int64((_next(rng) >> np.uint64(11)) % np.uint64(m))


@njit(cache=True, inline="always")
def _undo(deck, used, k):
    """Undo the move k: card k goes to position k-1 if it was unassigned there, then the
    top k cards are reversed, which puts k on top."""
    if deck[k - 1] == 0:
        deck[k - 1] = k
        used[k] = True
    i, j = 0, k - 1
    while i < j:
        deck[i], deck[j] = deck[j], deck[i]
        i += 1
        j -= 1


@njit(cache=True, nogil=True)
def dfs_kernel(n, best, best_len, rng, tries, budget_log, max_nodes):
    """At most `tries` rounds, each the best walk's first c un-moves (c random) followed by
    a depth-first search over the legal un-moves, children in random order, stopped after
    a random number of nodes up to 2**budget_log. The longest walk met at least as long as
    the best replaces it; one strictly longer ends the call, and so does the max_nodes-th
    node of the call (the driver's deadline, in nodes; the round then ends there as if its
    budget were spent). Returns (best length, rounds, nodes)."""
    cap = len(best)
    deck = np.zeros(n, np.uint8)
    used = np.zeros(n + 1, np.bool_)
    walk = np.zeros(cap, np.uint8)
    assigned = np.zeros(cap, np.bool_)
    cand = np.zeros((cap + 1, n), np.uint8)
    ncand = np.zeros(cap + 1, np.int64)
    top = np.zeros(cap, np.uint8)
    total = 0
    for t in range(tries):
        if best_len == 0 or random_below(rng, 2) == 0:
            c = random_below(rng, best_len + 1)
        else:
            c = best_len - random_below(rng, min(best_len, 2 * n) + 1)
        budget = np.int64(1) << (6 + random_below(rng, budget_log - 5))
        deck[:] = 0
        used[:] = False
        deck[0] = 1
        used[1] = True
        for s in range(c):
            walk[s] = best[s]
            _undo(deck, used, np.int64(best[s]))
        deepest = c
        top[:c] = walk[:c]
        level = c
        ncand[level] = _legal(n, deck, used, cand[level], rng)
        nodes = 0
        budget = min(budget, max_nodes - total)
        while nodes < budget:
            if ncand[level] == 0:
                if level == c:
                    break
                level -= 1
                k = np.int64(walk[level])
                i, j = 0, k - 1
                while i < j:
                    deck[i], deck[j] = deck[j], deck[i]
                    i += 1
                    j -= 1
                if assigned[level]:
                    deck[k - 1] = 0
                    used[k] = False
                continue
            ncand[level] -= 1
            k = np.int64(cand[level, ncand[level]])
            walk[level] = k
            assigned[level] = deck[k - 1] == 0
            _undo(deck, used, k)
            level += 1
            nodes += 1
            if level > deepest:
                deepest = level
                top[:level] = walk[:level]
            if level >= cap:
                ncand[level] = 0
            else:
                ncand[level] = _legal(n, deck, used, cand[level], rng)
        total += nodes
        if deepest >= best_len and deepest > c:
            best[:deepest] = top[:deepest]
            better = deepest > best_len
            best_len = deepest
            if better:
                return best_len, t + 1, total
        if total >= max_nodes:
            return best_len, t + 1, total
    return best_len, tries, total


@njit(cache=True, inline="always")
def _legal(n, deck, used, out, rng):
    """The legal un-moves at `deck`, into out[:m] in random order; returns m."""
    m = 0
    for k in range(2, n + 1):
        x = deck[k - 1]
        if x == k or (x == 0 and not used[k]):
            out[m] = k
            m += 1
    for i in range(m - 1, 0, -1):
        j = random_below(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return m


#: the fields of a beam's `state` (int64): its depth, the decks at that depth, the next of
#: them to expand, the children made so far at the next depth, and 1 once the beam has ended
DEPTH, COUNT, NEXT, KIDS, DONE = range(5)


@njit(cache=True, nogil=True)
def beam_kernel(n, width, rng, cur, cur_free, kids, kid_from, kid_k, score, keys, order, state,
                par, park, base, budget, maxdepth):
    """Beam search backward from "1 _ ... _": at each depth keep the `width` partial decks
    of the highest score, unassigned positions + MOBILITY x legal un-moves (ties at
    random; a counting sort, the scores being small), no deck twice,
    expand each by every legal un-move. Ends when no deck is left or at maxdepth.

    Resumable, so that the driver can read the clock between calls (nopython code cannot):
    everything a beam keeps is in the caller's arrays. cur[:state[COUNT]] (width x n) are
    the decks at depth state[DEPTH] and cur_free their unassigned positions; kids, kid_from,
    kid_k, score, keys and order (width x (n - 1) rows) the next depth's children, made
    from cur[:state[NEXT]] so far; par[d - base, b] and park[d - base, b] the parent and
    the un-move of deck b at depth d + 1, for the depths base..base + len(par) - 1. A call
    returns after expanding `budget` decks (at least one), when par is full (call again
    with the next rows), or when the beam has ended (state[DONE] = 1). A run cut into
    calls anywhere, with any budgets, gives the same beam and the same random numbers.
    Returns the decks expanded (the call's work)."""
    depth, ncur, b, m = state[DEPTH], state[COUNT], state[NEXT], state[KIDS]
    used = np.zeros(n + 1, np.bool_)
    work = 0
    while depth < maxdepth and depth - base < par.shape[0]:
        while b < ncur:
            if work >= budget:
                state[DEPTH], state[COUNT], state[NEXT], state[KIDS] = depth, ncur, b, m
                return work
            used[:] = False
            for i in range(n):
                used[cur[b, i]] = True
            for k in range(2, n + 1):
                x = cur[b, k - 1]
                if x == k or (x == 0 and not used[k]):
                    row = kids[m]
                    row[:] = cur[b]
                    f = cur_free[b]
                    if x == 0:
                        row[k - 1] = k
                        f -= 1
                    i, j = 0, k - 1
                    while i < j:
                        row[i], row[j] = row[j], row[i]
                        i += 1
                        j -= 1
                    h = np.uint64(1469598103934665603)
                    for q in range(n):
                        h = (h ^ np.uint64(row[q])) * np.uint64(1099511628211)
                    keys[m] = h
                    mob = 0  # the child's legal un-moves (its used cards: the parent's, and k if placed)
                    for q in range(1, n):
                        y = row[q]
                        if y == q + 1 or (y == 0 and not used[q + 1] and not (x == 0 and q + 1 == k)):
                            mob += 1
                    score[m] = f + MOBILITY * mob
                    kid_from[m] = b
                    kid_k[m] = k
                    m += 1
            b += 1
            work += 1
        if m == 0:
            state[DONE] = 1
            break
        # the children by decreasing score, in random order within a score (a counting
        # sort: scores are below (1 + MOBILITY) * n; an argsort took most of the time)
        top = (1 + MOBILITY) * n + 1
        start = np.zeros(top + 1, np.int64)
        for i in range(m):
            start[top - 1 - score[i]] += 1
        for bucket in range(top):
            start[bucket + 1] += start[bucket]
        for i in range(m - 1, -1, -1):
            bucket = top - 1 - score[i]
            start[bucket] -= 1
            order[start[bucket]] = i
        for bucket in range(top):
            lo = start[bucket]
            for i in range(start[bucket + 1] - 1, lo, -1):
                j = lo + random_below(rng, i - lo + 1)
                order[i], order[j] = order[j], order[i]
        # the kept children overwrite cur: each is a copy, and its parent is in par
        seen = set()
        seen.add(np.uint64(0))
        nnext = 0
        d = depth - base
        for o in order[:m]:
            if nnext >= width:
                break
            h = keys[o]
            if h in seen:
                continue
            seen.add(h)
            cur[nnext] = kids[o]
            f = 0
            for i in range(n):
                if kids[o, i] == 0:
                    f += 1
            cur_free[nnext] = f
            par[d, nnext] = kid_from[o]
            park[d, nnext] = kid_k[o]
            nnext += 1
        ncur = nnext
        depth += 1
        b = 0
        m = 0
    if depth >= maxdepth:
        state[DONE] = 1
    state[DEPTH], state[COUNT], state[NEXT], state[KIDS] = depth, ncur, b, m
    return work


@njit(cache=True, nogil=True)
def beam_walk(par, park, rows, b, best, base):
    """Read back through rows[:rows] of one block of a beam's parent links (depths base..,
    see beam_kernel): the un-moves into best[base:base + rows], starting from deck b at
    depth base + rows. Returns the deck at depth base it comes from."""
    for d in range(rows - 1, -1, -1):
        best[base + d] = park[d, b]
        b = par[d, b]
    return b


@njit(cache=True)
def start_deck(n, walk, length):
    """The start deck of walk[:length]: its un-moves undone from "1 _ ... _", the
    unassigned positions then filled with the unused cards in increasing order."""
    deck = np.zeros(n, np.uint8)
    used = np.zeros(n + 1, np.bool_)
    deck[0] = 1
    used[1] = True
    for s in range(length):
        _undo(deck, used, np.int64(walk[s]))
    v = 1
    for i in range(n):
        if deck[i] == 0:
            while used[v]:
                v += 1
            deck[i] = v
            used[v] = True
    return deck


__all__ = ["COUNT", "DEPTH", "DONE", "KIDS", "NEXT", "beam_kernel", "beam_walk", "dfs_kernel", "random_below",
           "start_deck"]
