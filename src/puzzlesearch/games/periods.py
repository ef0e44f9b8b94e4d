"""Periods of tables of values: one scan, least_repeat, and the rules that accept what it finds.

A table g is periodic with period p from heap e when g[n] == g[n + p] for every n >= e; a
finite table proves it only through a theorem whose induction needs the run of repeats
g[n] == g[n + p], e <= n < len(g) - p, to hold enough values. least_repeat finds the least
shift whose run holds at least a given number of values, and where that run starts; each
kind of game asks it for its own number:

- ``window_period``: a subtraction game, whose next value is a function of the max(S)
  values before it: a run of max(S) values proves the period (*Winning Ways*, ch. 4);
- ``octal_period``: an octal game, by the octal periodicity theorem (Guy and Smith 1956):
  the run must reach heap 2e + 2p + t;
- ``split_period``: a game that splits a heap into up to three heaps (hexadecimal games
  with bit 8), by the theorem's three-part form.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: the rolling hash of least_repeat: two primes below 2^30 (every product fits in an int64) and
#: a base for each. Windows whose hashes agree are compared value by value all the same, so a
#: collision costs time, never a wrong period.
_HASH_MOD1, _HASH_MOD2 = 1_000_000_007, 998_244_353
_HASH_BASE1, _HASH_BASE2 = 911_382_323, 972_663_749


@njit(cache=True, nogil=True)
def least_repeat(g: np.ndarray, width: int, p_from: int = 1, budget: int = -1) -> tuple[int, int]:
    """The least shift p >= p_from whose run of repeats holds at least `width` values, and where
    that run starts: (p, e) with g[n] == g[n + p] for every e <= n < len(g) - p, e the least
    such, and len(g) - p - e >= width. (0, 0) when no shift has one (`width` >= 1).

    Every period scan asks this: a period is proven once its run is long enough. Shifts are
    tried in order by comparing values from the end down, while that costs at most `budget`
    comparisons in all (len(g) when negative): in most tables a wrong shift fails within a few
    values, and nothing is faster. Long runs of equal values (the subtraction game {10^6}: a
    million 0s, a million 1s, ...) would make that quadratic, so past the budget the other
    shifts are tried by a rolling hash (_least_repeat_hashed): O(len(g)) in all.
    """
    size = len(g)
    if width < 1:
        return 0, 0
    if budget < 0:
        budget = size
    spent = 0
    for p in range(max(p_from, 1), size - width + 1):
        n = size - 1 - p
        while n >= 0 and g[n] == g[n + p]:
            n -= 1
        run = size - 1 - p - n
        if run >= width:
            return p, n + 1
        spent += run + 1
        if spent > budget:
            return _least_repeat_hashed(g, width, p + 1)
    return 0, 0


@njit(cache=True, nogil=True)
def _least_repeat_hashed(g: np.ndarray, width: int, p_from: int) -> tuple[int, int]:
    """least_repeat from shift p_from >= 1, by hashes: shift p's run holds `width` values iff
    the `width` values ending at len(g) - p equal the last `width` values. Each window's hash
    (sum of (g[s + i] + 1) b^i modulo two primes) comes from the previous one in O(1) as the
    window slides left; a window whose hashes agree with the last one's is compared value by
    value, and when equal, its run is followed down to its start."""
    size = len(g)
    last = size - width  # the largest shift whose window fits
    if p_from > last:
        return 0, 0
    m1, m2, b1, b2 = _HASH_MOD1, _HASH_MOD2, _HASH_BASE1, _HASH_BASE2
    t1 = t2 = h1 = h2 = 0
    s = last - p_from
    for i in range(width - 1, -1, -1):
        v = g[last + i] + 1
        t1 = (t1 * b1 + v) % m1
        t2 = (t2 * b2 + v) % m2
        v = g[s + i] + 1
        h1 = (h1 * b1 + v) % m1
        h2 = (h2 * b2 + v) % m2
    top1 = top2 = 1  # b^(width - 1): the weight of a window's last value
    for _ in range(width - 1):
        top1 = top1 * b1 % m1
        top2 = top2 * b2 % m2
    p = p_from
    while True:
        s = last - p
        if h1 == t1 and h2 == t2:
            same = True
            for i in range(width):
                if g[s + i] != g[last + i]:
                    same = False
                    break
            if same:
                n = s - 1
                while n >= 0 and g[n] == g[n + p]:
                    n -= 1
                return p, n + 1
        if p == last:
            return 0, 0
        drop = g[s + width - 1] + 1
        add = g[s - 1] + 1
        h1 = ((h1 + m1 - drop * top1 % m1) * b1 + add) % m1
        h2 = ((h2 + m2 - drop * top2 % m2) * b2 + add) % m2
        p += 1


@njit(cache=True, nogil=True)
def octal_period(g: np.ndarray, t: int) -> tuple[int, int]:
    """Smallest period p, with its preperiod e, proven by the octal periodicity theorem.

    Guy–Smith: if g[n + p] == g[n] for all e <= n < 2e + p + t (t = most tokens a move
    removes), then for all n >= e. We ask for it through n = 2e + p + t inclusive, so
    2e + 2p + t <= len(g) - 1, the least e for each p. With e = len(g) - p - run (the run of
    repeats ending at the end), that is run >= (len(g) + 1 + t) / 2 for every p: one
    least_repeat. Returns (0, 0) when no period is proven yet.
    """
    return least_repeat(g, (len(g) + 2 + t) // 2)


@njit(cache=True, nogil=True)
def window_period(g: np.ndarray, window: int) -> tuple[int, int]:
    """Smallest period p, with its preperiod e, proven by a repeated window.

    For a game whose G(n) is a function of the `window` values before it (a subtraction
    game: window = max(S)), g[n + p] == g[n] for `window` consecutive n from e on proves
    it for all n >= e (by induction: the next value is the same function of the same
    window). e is the least with g[n] == g[n + p] for every e <= n < len(g) - p, and p is
    proven when that run of repeats holds >= window values (least_repeat).
    Returns (0, 0) when no period is proven within len(g).
    """
    return least_repeat(g, window)


@njit(cache=True, nogil=True)
def split_period(g: np.ndarray, t: int, parts: int) -> tuple[int, int]:
    """Smallest period p, with its preperiod e, proven for a game that splits a heap into
    at most `parts` heaps (parts = 3: hexadecimal games with bit 8).

    The octal periodicity theorem's induction, with three parts: the largest part c of a
    split of n + p - j is >= (n + p - t) / 3, so G(c) = G(c - p) with c - p >= e' = max(e, 1)
    whenever n >= 3e' + 2p + t; hence G(n + p) = G(n) for e <= n < 3e' + 2p + t proves it for
    all n >= e (parts = 2 gives 2e' + p + t, the classic bound with e' for e). We ask
    for it through n = parts e' + (parts - 1) p + t inclusive. Returns (0, 0) when no
    period is proven yet.
    """
    size = len(g)
    # with e >= 1 the condition is run >= width, run = size - p - e the run of repeats ending
    # at the end; with e = 0 it asks `parts` more, so a shift found may fail it: try the next
    width = size - (size - 1 - t) // parts
    p = 1
    while True:
        p, e = least_repeat(g, width, p)
        if p == 0 or p > size // 2:
            return 0, 0
        if parts * max(e, 1) + parts * p + t <= size - 1:
            return p, e
        p += 1


__all__ = ["least_repeat", "octal_period", "split_period", "window_period"]
