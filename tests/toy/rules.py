"""The rules in plain Python: from k, halve when even, else 3k + 1, until 1."""

from __future__ import annotations


def step(k: int) -> int:
    return k // 2 if k % 2 == 0 else 3 * k + 1


def steps(k: int) -> int:
    """How many steps take k to 1 (0 for k = 1)."""
    count = 0
    while k != 1:
        k = step(k)
        count += 1
    return count


def longest_in(lo: int, hi: int) -> tuple[int, int]:
    """(steps, start) of the longest chain starting in lo..hi-1, the smallest start on ties.
    The "kernel" of this puzzle: what every task runs."""
    best = (-1, 0)
    for k in range(lo, hi):
        s = steps(k)
        if s > best[0]:
            best = (s, k)
    return best
