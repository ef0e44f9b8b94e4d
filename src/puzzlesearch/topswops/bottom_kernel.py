"""The kernel of bottom.py (numba): from each long (n-1)-card game, every n-card game
that ends with it once card n has gone to the bottom.

For each pattern P of n - 1 cards (0 = undetermined: a position whose card never reaches
the top, so that any way of filling it plays the same game) making L >= k steps:
  1. play P forward L - k steps: the state Q with exactly k steps left;
  2. put card n under Q, and undo moves from there, depth first, as the backward search
     does (backward.py): undoing "reverse the top i+1" needs position i to hold i+1, or
     to be undetermined with i+1 unused (it is decided then). Every deck of n cards
     whose game passes through Q + [n] is reached this way, at depth d = its steps
     before Q + [n], so that it makes k + d steps in all.
Along each path, card n leaves the bottom when the whole deck is un-reversed; the moves
undone before that, a, are the steps after card n reached the bottom that the path has
made (k + a steps left then). The kernel keeps the longest game met, and the most steps
left with card n at the bottom over the games of at least `target` steps.

Data structures (one entry per level l = moves undone so far):
  deck_at[l]  the n cards (int8, 0 = undetermined)
  used_at[l]  bit v set when value v is on the deck
  next_at[l]  the next position i to try undoing "reverse the top i+1" from
  left_at[l]  a (above) once card n has left the bottom on the path, else -1
"""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzlesearch.topswops.probes_kernel import reverse_top


@njit(cache=True)
def steps_of(pattern):
    """Steps of a game from `pattern` (its top card is never undetermined on the way)."""
    deck = pattern.copy()
    c = 0
    while deck[0] != 1:
        reverse_top(deck, deck[0])
        c += 1
    return c


@njit(cache=True, nogil=True)
def extend_kernel(n, patterns, k, target, maxdepth, best_deck):
    """Steps 1 and 2 of the module docstring for every row of `patterns` ((count, n - 1)
    int8, games of at least k steps). Returns (longest, most_left, nodes): the most
    steps of an n-card game met (its start pattern in best_deck, n cards), the most steps
    left when card n reached the bottom over the games of >= target steps (-1 if none),
    and the decks met. maxdepth bounds the moves undone from one Q + [n]."""
    deck_at = np.zeros((maxdepth + 2, n), np.int8)
    used_at = np.zeros(maxdepth + 2, np.int64)
    next_at = np.zeros(maxdepth + 2, np.int64)
    left_at = np.zeros(maxdepth + 2, np.int64)
    longest, most_left, nodes = -1, -1, 0
    m = n - 1
    for p in range(patterns.shape[0]):
        row = deck_at[0]
        for i in range(m):
            row[i] = patterns[p, i]
        row[m] = n
        # 1. the state with k steps left
        skip = steps_of(row[:m]) - k
        for _ in range(skip):
            reverse_top(row, row[0])
        used = np.int64(0)
        for i in range(n):
            if row[i] != 0:
                used |= np.int64(1) << row[i]
        used_at[0] = used
        next_at[0] = 1
        left_at[0] = -1
        level = 0
        nodes += 1
        if k > longest:
            longest = k
            best_deck[:] = row
        # 2. every game leading to it
        while level >= 0:
            i = next_at[level]
            cur = deck_at[level]
            while i < n:
                x = cur[i]
                if x == i + 1 or (x == 0 and not (used_at[level] >> (i + 1)) & 1):
                    break
                i += 1
            if i >= n or level >= maxdepth:
                level -= 1
                continue
            next_at[level] = i + 1
            nxt = deck_at[level + 1]
            nxt[:] = cur
            nxt[i] = i + 1
            reverse_top(nxt, i + 1)
            used_at[level + 1] = used_at[level] | (np.int64(1) << (i + 1))
            left_at[level + 1] = level if (i == m and left_at[level] < 0) else left_at[level]
            next_at[level + 1] = 1
            level += 1
            nodes += 1
            total = k + level
            if total > longest:
                longest = total
                best_deck[:] = nxt
            if total >= target and left_at[level] >= 0 and k + left_at[level] > most_left:
                most_left = k + left_at[level]
    return longest, most_left, nodes


__all__ = ["extend_kernel", "steps_of"]
