"""Permutation ranks: every deck of n cards <-> an index 0..n!-1, in lexicographic order.

The rank is the Lehmer code read as a mixed-radix number: digit i counts the cards after
position i that are smaller than card i, i.e. card i minus the smaller cards already
used, found with one popcount of a bitmask of used cards (O(n) per rank). The sum of the
digits is the number of inversions, so the parity of a deck is the parity of its digit
sum, and since the last digit is always 0 and the one before it is the rank's lowest bit,
the two decks with ranks 2i and 2i+1 differ exactly in parity. Hence, when every move is
even and only one parity is reachable, ``rank >> 1`` indexes the reachable half with no
gaps ("compressed" below), and unranking sets that digit to fix the parity.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import factorial

import numpy as np
from numba import njit


@njit(cache=True)
def popcount(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56 & 0xFF


@njit(cache=True)
def rank(perm, n, compressed):
    """Lexicographic rank of perm (values 0..n-1); halved when compressed."""
    used = 0
    r = 0
    for i in range(n):
        p = perm[i]
        r = r * (n - i) + p - popcount(used & ((1 << p) - 1))
        used |= 1 << p
    if compressed:
        return r >> 1
    return r


@njit(cache=True)
def digits_of(index, n, compressed, digits):
    """The Lehmer digits of the deck with this index (mixed radix n, n-1, ..., 1).

    When compressed, digit n-2 (the parity digit) is left for `perm_of` to set.
    """
    r = index * 2 if compressed else index
    for i in range(n - 1, -1, -1):
        base = n - i
        digits[i] = r % base
        r //= base


@njit(cache=True)
def step(digits, n, compressed):
    """Advance the digits to the next index: a mixed-radix increment, O(1) on average."""
    i = n - 3 if compressed else n - 2
    if i < 0:
        return
    digits[i] += 1
    while digits[i] == n - i and i > 0:
        digits[i] = 0
        i -= 1
        digits[i] += 1


@njit(cache=True)
def perm_of(digits, n, compressed, parity, perm):
    """The deck with these digits; when compressed, first set the parity digit."""
    if compressed:
        s = 0
        for i in range(n - 2):
            s += digits[i]
        digits[n - 2] = (s + parity) & 1
    # cards not used yet, in order: digit d picks the d-th and closes the gap
    # (shifting a short array beats searching a bitmask: no unpredictable branches)
    for i in range(n):
        perm[i] = i
    for i in range(n):
        d = digits[i]
        c = perm[i + d]
        for k in range(i + d, i, -1):
            perm[k] = perm[k - 1]
        perm[i] = c


@njit(cache=True)
def unrank(index, n, compressed, parity, perm, digits):
    """perm = the deck with this index; when compressed, the one of the given parity."""
    digits_of(index, n, compressed, digits)
    perm_of(digits, n, compressed, parity, perm)


def rank_deck(deck: Sequence[int], compressed: bool = False) -> int:
    """Index of a deck of cards 1..n (plain Python, for drivers and tests)."""
    n = len(deck)
    r = 0
    for i, c in enumerate(deck):
        r += sum(1 for d in deck[i + 1 :] if d < c) * factorial(n - 1 - i)
    return r >> 1 if compressed else r


def unrank_deck(index: int, n: int, compressed: bool = False, parity: int = 0) -> tuple[int, ...]:
    """The deck (cards 1..n) with this index."""
    perm = np.empty(n, dtype=np.int64)
    unrank(index, n, compressed, parity, perm, np.empty(n, dtype=np.int64))
    return tuple(int(c) + 1 for c in perm)
