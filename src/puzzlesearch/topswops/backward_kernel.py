"""The backward search's kernel (numba): a depth-first search over undone moves.

The method is in backward.py. Data structures (one entry per level l of the DFS, l =
moves undone so far):
  deck_at[l]   the partial deck at level l packed 4 bits a position (packed.py), 0 = undetermined
  free_at[l]   bit 3 of nibble k set when value k+1 is still unused
  todo_at[l]   bit 3 of nibble k set when undoing "reverse the top k+1" is still to be
               tried: position k undetermined with k+1 free, or holding k+1. Both tests
               are a handful of word operations for all positions at once (SWAR).
  nodes[l]     partial decks met at level l so far
Invariant: deck_at[l] makes exactly l moves; for l >= 1 its top card is some k+1, and its first
move (reversing positions 0..k) gives deck_at[l-1] with position k filled with k+1.
Copying three words down a level (as Knuth copies his 16-byte perm) makes backtracking free.

Progress: each time the search enters one of the few nodes of a level below WATCH_BELOW,
it copies nodes[] into `watch`, an array of the caller's that another thread may read
while the kernel runs. (Counting straight into the caller's array costs 3% on
backward n = 12; this copy costs nothing measurable: 1.155 s of CPU against 1.166 s
without it, medians of 5 alternated runs.)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from puzzlesearch.topswops.packed import reverse_nibbles, unpack


def fibonacci_bound(n: int) -> int:
    """Knuth's upper bound f(n) <= F(n+1) - 1: the deepest level the search can reach."""
    a, b = 0, 1
    for _ in range(n + 1):
        a, b = b, a + b
    return a - 1


_H = np.uint64(0x8888888888888888)  # bit 3 of every nibble
_L7 = np.uint64(0x7777777777777777)
#: nibble k holds k+1: XOR with it makes a nibble zero exactly where position k holds k+1
_HOME = np.uint64(sum((k + 1) << (4 * k) for k in range(15)))
#: the counts are copied to `watch` on entering a node above this level (levels 1..4 hold
#: about 8,000 of the 10^8 nodes of n = 12: a copy every 14,000 nodes on average)
WATCH_BELOW = 5


class Found(NamedTuple):
    """What backward_kernel returns, slot by slot (the kernel returns a plain tuple in this
    order; the driver names it with ``Found._make``)."""

    best: int  # the deepest level reached: f(n)
    count: int  # partial decks at that level; more than fit in `decks`, maybe
    decks: np.ndarray  # decks[:min(count, cap)]: those partial decks (0 = undetermined)
    nodes: np.ndarray  # nodes[l]: the partial decks met at level l, l = 0..best
    records: np.ndarray  # records[d]: the first partial deck found at depth d, d = 0..best


@njit(cache=True, inline="always")
def _zero_nibbles(x):
    """Bit 3 of each nibble of the result is set exactly where that nibble of x is 0."""
    return ~(((x & _L7) + _L7) | x) & _H


@njit(cache=True, nogil=True)
def backward_kernel(n, maxdepth, cap, watch):
    """DFS over undone moves. Returns the slots of `Found`, in its order. `watch`
    (maxdepth + 2 entries, cleared here) holds a recent copy of nodes[] while the search runs.
    """
    positions = np.uint64(0)  # bit 3 of nibbles 1..n-1: where a move can be undone
    for k in range(1, n):
        positions |= np.uint64(8) << np.uint64(4 * k)
    deck_at = np.zeros(maxdepth + 2, np.uint64)
    free_at = np.zeros(maxdepth + 2, np.uint64)
    todo_at = np.zeros(maxdepth + 2, np.uint64)
    nodes = np.zeros(maxdepth + 2, np.int64)
    watch[:] = 0
    records = np.zeros((maxdepth + 2, n), np.int8)
    decks = np.zeros((cap, n), np.int8)
    deck_at[0] = np.uint64(1)
    free_at[0] = positions  # every value but 1 is unused
    todo_at[0] = (_zero_nibbles(deck_at[0]) & free_at[0]) | _zero_nibbles(deck_at[0] ^ _HOME)
    todo_at[0] &= positions
    unpack(deck_at[0], n, records[0])
    unpack(deck_at[0], n, decks[0])
    nodes[0] = 1
    best, count = 0, 1
    level = 0
    while True:
        todo = todo_at[level]
        if todo == 0:
            if level == 0:
                break
            level -= 1
            continue
        bit = todo & (~todo + np.uint64(1))
        todo_at[level] = todo ^ bit
        k = np.uint64(trailing_zeros(bit)) >> np.uint64(2)
        shift = np.uint64(4) * k
        # place k+1 at position k (a no-op when it is there already); it is used now
        deck = deck_at[level] | ((k + np.uint64(1)) << shift)
        free = free_at[level] & ~bit
        # positions 0..k reversed, the rest kept
        low = reverse_nibbles(deck) >> (np.uint64(60) - shift)
        high = (deck >> shift >> np.uint64(4)) << shift << np.uint64(4)
        deck = low | high
        level += 1
        if level < WATCH_BELOW:
            for i in range(best + 1):
                watch[i] = nodes[i]
        deck_at[level] = deck
        free_at[level] = free
        todo_at[level] = ((_zero_nibbles(deck) & free) | _zero_nibbles(deck ^ _HOME)) & positions
        nodes[level] += 1
        if level >= best:
            if level > best:
                best = level
                count = 0
                unpack(deck, n, records[level])
            if count < cap:
                unpack(deck, n, decks[count])
            count += 1
    return best, count, decks, nodes[: best + 1], records[: best + 1]


__all__ = ["Found", "backward_kernel", "fibonacci_bound"]
