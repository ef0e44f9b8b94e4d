"""Backward search for Topswops f(n) (Pepperdine 1989; Knuth's topswops.w).

Every game ends with card 1 on top, so search from the end. Start with card 1 at the
top and every other position *undetermined* (0), and undo one move at a time, depth
first. Undoing "reverse the top k+1 cards" is possible when position k is undetermined
and the value k+1 is still unused (we decide it now), or when position k already holds
k+1; the earlier deck is the current one with positions 0..k reversed, which puts k+1 on
top. Undetermined cards never reach the top along the path, so any way of filling them
plays exactly the same game: a partial deck at depth d stands for decks of d steps, and
every deck of the game is reached this way. There is no pruning, and the deepest level
reached is f(n). [A. Pepperdine, "Topswops", Math. Gazette 73 (1989) 131-133;
D. E. Knuth, topswops.w.]

Data structures of the kernel (one entry per level l of the DFS):
  deck_at[l]   the deck at level l packed 4 bits per position, 0 = undetermined
  free_at[l]   bit 3 of nibble k set when value k+1 is still unused
  todo_at[l]   bit 3 of nibble k set when undoing "reverse the top k+1" is still to be
               tried: position k undetermined with k+1 free, or holding k+1. Both tests
               are a handful of word operations for all positions at once (SWAR).
Invariant: deck_at[l] makes exactly l moves, and reversing its positions 0..ks[l-1]
gives deck_at[l-1]. Copying three words down a level (as Knuth copies his 16-byte
perm) makes backtracking free.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import permutations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

#: a deck is packed into one 64-bit word, 4 bits per position (0 = undetermined), so n <= 15
MAX_N = 15

_LOW_NIBBLES = np.uint64(0x0F0F0F0F0F0F0F0F)


def fibonacci_bound(n: int) -> int:
    """Knuth's upper bound f(n) <= F(n+1) - 1: the deepest level the search can reach."""
    a, b = 0, 1
    for _ in range(n + 1):
        a, b = b, a + b
    return a - 1


@njit(cache=True, inline="always")
def _reverse_nibbles(x):
    """The 16 nibbles of x in reverse order."""
    x = (x >> np.uint64(32)) | (x << np.uint64(32))
    x = ((x >> np.uint64(16)) & np.uint64(0x0000FFFF0000FFFF)) | (
        (x & np.uint64(0x0000FFFF0000FFFF)) << np.uint64(16)
    )
    x = ((x >> np.uint64(8)) & np.uint64(0x00FF00FF00FF00FF)) | (
        (x & np.uint64(0x00FF00FF00FF00FF)) << np.uint64(8)
    )
    return ((x >> np.uint64(4)) & _LOW_NIBBLES) | ((x & _LOW_NIBBLES) << np.uint64(4))


@njit(cache=True, inline="always")
def _unpack(word, n, out):
    for i in range(n):
        out[i] = (word >> np.uint64(4 * i)) & np.uint64(15)


_H = np.uint64(0x8888888888888888)  # bit 3 of every nibble
_L7 = np.uint64(0x7777777777777777)
#: nibble k holds k+1: XOR with it makes a nibble zero exactly where position k holds k+1
_HOME = np.uint64(sum((k + 1) << (4 * k) for k in range(15)))


@njit(cache=True, inline="always")
def _zero_nibbles(x):
    """Bit 3 of each nibble of the result is set exactly where that nibble of x is 0."""
    return ~(((x & _L7) + _L7) | x) & _H


@njit(cache=True)
def backward_kernel(n, maxdepth, cap):
    """DFS over undone moves. Returns (best, count, decks, nodes, records).

    decks[:min(count, cap)] are the partial decks at depth `best`; nodes[l] counts the
    decks met at depth l; records[d] is the first partial deck found at depth d.
    """
    positions = np.uint64(0)  # bit 3 of nibbles 1..n-1: where a move can be undone
    for k in range(1, n):
        positions |= np.uint64(8) << np.uint64(4 * k)
    deck_at = np.zeros(maxdepth + 2, np.uint64)
    free_at = np.zeros(maxdepth + 2, np.uint64)
    todo_at = np.zeros(maxdepth + 2, np.uint64)
    nodes = np.zeros(maxdepth + 2, np.int64)
    records = np.zeros((maxdepth + 2, n), np.int8)
    decks = np.zeros((cap, n), np.int8)
    deck_at[0] = np.uint64(1)
    free_at[0] = positions  # every value but 1 is unused
    todo_at[0] = (_zero_nibbles(deck_at[0]) & free_at[0]) | _zero_nibbles(deck_at[0] ^ _HOME)
    todo_at[0] &= positions
    _unpack(deck_at[0], n, records[0])
    _unpack(deck_at[0], n, decks[0])
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
        low = _reverse_nibbles(deck) >> (np.uint64(60) - shift)
        high = (deck >> shift >> np.uint64(4)) << shift << np.uint64(4)
        deck = low | high
        level += 1
        deck_at[level] = deck
        free_at[level] = free
        todo_at[level] = ((_zero_nibbles(deck) & free) | _zero_nibbles(deck ^ _HOME)) & positions
        nodes[level] += 1
        if level >= best:
            if level > best:
                best = level
                count = 0
                _unpack(deck, n, records[level])
            if count < cap:
                _unpack(deck, n, decks[count])
            count += 1
    return best, count, decks, nodes[: best + 1], records[: best + 1]


def completions(partial: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every full deck agreeing with `partial` (0 = undetermined); all play the same game."""
    n = len(partial)
    free = [i for i, x in enumerate(partial) if x == 0]
    unused = sorted(set(range(1, n + 1)) - set(partial))
    out = []
    for values in permutations(unused):
        deck = list(partial)
        for i, v in zip(free, values, strict=True):
            deck[i] = v
        out.append(tuple(deck))
    return sorted(out)


@dataclass(frozen=True)
class BackwardResult:
    n: int
    steps: int  # f(n)
    partial_decks: list[tuple[int, ...]]  # decks at the deepest level, 0 = any unused value
    decks: list[tuple[int, ...]]  # every full deck reaching f(n)
    records: list[tuple[int, tuple[int, ...]]]  # (depth, first partial deck found at it)
    nodes_per_level: list[int]
    nodes: int
    seconds: float


def solve_backward(n: int) -> BackwardResult:
    """f(n) and all decks reaching it, by the backward search."""
    if not 1 <= n <= MAX_N:
        raise ValueError(f"backward search supports 1 <= n <= {MAX_N}, got n={n}")
    t0 = time.perf_counter()
    cap = 1 << 10
    while True:
        best, count, decks, nodes, records = backward_kernel(n, fibonacci_bound(n), cap)
        if count <= cap:
            break
        cap = 1 << (count - 1).bit_length()  # rare: rerun with room for every deepest deck
    partial = sorted(tuple(int(x) for x in row) for row in decks[:count])
    full = sorted(d for p in partial for d in completions(p))
    return BackwardResult(
        n=n,
        steps=int(best),
        partial_decks=partial,
        decks=full,
        records=[(i, tuple(int(x) for x in records[i])) for i in range(len(records)) if records[i, 0]],
        nodes_per_level=[int(x) for x in nodes],
        nodes=int(nodes.sum()),
        seconds=time.perf_counter() - t0,
    )


def search_plain(n: int) -> tuple[int, list[tuple[int, ...]]]:
    """The same backward search in plain recursive Python (the kernel's reference; small n)."""
    best, found = 0, [tuple([1] + [0] * (n - 1))]

    def undo(deck: list[int], depth: int) -> None:
        nonlocal best, found
        for k in range(1, n):
            if deck[k] == 0 and (k + 1) not in deck:
                prev = deck[:]
                prev[k] = k + 1
            elif deck[k] == k + 1:
                prev = deck[:]
            else:
                continue
            prev[: k + 1] = prev[: k + 1][::-1]
            if depth + 1 > best:
                best, found = depth + 1, []
            if depth + 1 == best:
                found.append(tuple(prev))
            undo(prev, depth + 1)

    undo([1] + [0] * (n - 1), 0)
    return best, sorted(found)
