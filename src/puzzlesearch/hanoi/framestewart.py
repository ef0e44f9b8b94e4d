"""Four or more pegs: Frame-Stewart numbers, the moves that achieve them, and the
position after any number of those moves.

Frame and Stewart (Amer. Math. Monthly 48, 1941) move n discs with p pegs by putting the
k smallest aside on an intermediate peg (with all p pegs), moving the other n-k to the
target with the p-1 pegs left, and bringing the k back on top:
FS(n, p) = min over k of 2 FS(k, p) + FS(n-k, p-1), FS(n, 3) = 2^n - 1. The increments
FS(n, p) - FS(n-1, p) are powers of two, and 2^t occurs exactly C(t+p-3, p-3) times
(Klavzar, Milutinovic and Petr, "On the Frame-Stewart algorithm for the multi-peg Tower of
Hanoi problem", Discrete Appl. Math. 120 (2002)): for 4 pegs the runs are the triangular
numbers. So a whole table FS(0..N, p) costs N big-integer additions and a single value
O(number of runs). Bousch (2014) proved the 4-peg numbers optimal; for p >= 5 optimality
is the Frame-Stewart conjecture, which `verify` checks by breadth-first search for small n.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from math import comb

from . import threepeg
from .rules import Move, Position


def _runs(pegs: int) -> Iterator[tuple[int, int]]:
    """(increment, how many times) for FS(., pegs): (2^t, C(t+pegs-3, pegs-3)), t = 0, 1, ..."""
    t = 0
    while True:
        yield 1 << t, comb(t + pegs - 3, pegs - 3)
        t += 1


def frame_stewart(n: int, pegs: int) -> int:
    """FS(n, pegs) as an exact integer."""
    if pegs == 3:
        return (1 << n) - 1
    total, left = 0, n
    for step, times in _runs(pegs):
        if left <= times:
            return total + left * step
        total += times * step
        left -= times
    raise AssertionError("unreachable")


def frame_stewart_numbers(nmax: int, pegs: int) -> list[int]:
    """[FS(0, pegs), ..., FS(nmax, pegs)]."""
    values, total = [0], 0
    for step, times in _runs(pegs):
        for _ in range(min(times, nmax + 1 - len(values))):
            total += step
            values.append(total)
        if len(values) > nmax:
            return values
    raise AssertionError("unreachable")


@lru_cache(maxsize=4096)
def split(n: int, pegs: int) -> int:
    """The k that Frame-Stewart puts aside (the largest minimising one), for n >= 1, pegs >= 4."""
    here = frame_stewart_numbers(n, pegs)
    fewer = frame_stewart_numbers(n, pegs - 1)
    best = min(range(n), key=lambda k: (2 * here[k] + fewer[n - k], -k))
    return best


def _mid(avail: tuple[int, ...], src: int, dst: int) -> int:
    return next(p for p in avail if p != src and p != dst)


def moves(n: int, pegs: int, src: int = 0, dst: int | None = None) -> Iterator[Move]:
    """FS(n, pegs) legal moves taking n discs from src to dst (default: the last peg)."""
    dst = pegs - 1 if dst is None else dst
    # explicit stack of subproblems (offset, height, pegs available, src, dst), where the
    # subproblem moves discs offset+1 .. offset+height; popped in the order they are played
    stack: list[tuple[int, int, tuple[int, ...], int, int]] = [(0, n, tuple(range(pegs)), src, dst)]
    while stack:
        offset, h, avail, s, d = stack.pop()
        if h == 0:
            continue
        if len(avail) == 3:
            spare = _mid(avail, s, d)
            for disc, a, b in threepeg.moves_iterative(h, s, d, spare):
                yield (disc + offset, a, b)
            continue
        k = split(h, len(avail))
        mid = _mid(avail, s, d)
        stack.append((offset, k, avail, mid, d))
        stack.append((offset + k, h - k, tuple(p for p in avail if p != mid), s, d))
        stack.append((offset, k, avail, s, mid))


def position_after(n: int, pegs: int, m: int, src: int = 0, dst: int | None = None) -> Position:
    """Where every disc is after the first m moves of `moves(n, pegs, src, dst)`."""
    dst = pegs - 1 if dst is None else dst
    if not 0 <= m <= frame_stewart(n, pegs):
        raise ValueError(f"move number must be between 0 and {frame_stewart(n, pegs)}, got {m}")
    where = [0] * (n + 1)  # where[d] = peg of disc d
    offset, h, avail, s, d = 0, n, tuple(range(pegs)), src, dst
    while h > 0:
        if len(avail) == 3:
            top = threepeg.position_after(h, m, s, d, _mid(avail, s, d))
            for i, peg in enumerate(top):
                where[offset + h - i] = peg
            break
        k = split(h, len(avail))
        mid = _mid(avail, s, d)
        first, second = frame_stewart(k, len(avail)), frame_stewart(h - k, len(avail) - 1)
        if m <= first:  # the k smallest are travelling to mid; the rest wait on s
            for disc in range(offset + k + 1, offset + h + 1):
                where[disc] = s
            h, d = k, mid
        elif m <= first + second:  # the k smallest wait on mid; the rest travel
            for disc in range(offset + 1, offset + k + 1):
                where[disc] = mid
            offset, h, avail, m = offset + k, h - k, tuple(p for p in avail if p != mid), m - first
        else:  # the rest have arrived on d; the k smallest come back
            for disc in range(offset + k + 1, offset + h + 1):
                where[disc] = d
            h, s, m = k, mid, m - first - second
    return tuple(where[n:0:-1])
