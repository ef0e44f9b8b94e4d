"""The built-in games in plain Python: each one's moves, as the statement gives them.

These option functions are the reference the numba kernels are checked against (via
the general engine in ``general.py``); they favour being obviously right over speed.

- Cutting game (POJ 2311): a W×H sheet of grid paper; a move cuts one piece along a
  grid line into two; whoever first cuts out a 1×1 piece wins. A move that leaves a
  piece with a side of length 1 hands the opponent that win, so with best play no one
  makes it, and the game is the normal-play game on pieces whose sides are all ≥ 2
  (``cutting_options``); ``cutting_first_player_wins_literal`` plays the statement
  itself, to check that reduction.
- Cow Digit Game (USACO 2009 Open): from N subtract its largest digit or its smallest
  non-zero digit; whoever reaches 0 wins.
- Popcount game: a number is replaced by 1 to P numbers (repetition allowed), each with
  fewer set bits than it. Reaching a number with no set bits leaves no move.
- Octal games (Guy and Smith 1956; *Winning Ways* ch. 4): code d0.d1d2d3...; digit d_j
  says what may be done after removing j tokens from a heap: bit 1 — remove the whole
  heap (heap = j), bit 2 — leave one non-empty heap, bit 4 — leave two non-empty heaps.
  d0 is 0 or 4 (4: split a heap in two without removing anything).
- Grundy's game: split a heap into two non-empty heaps of different sizes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement

from .general import Sum

# ---------------------------------------------------------------- cutting game (POJ 2311)


def cutting_options(piece: tuple[int, int]) -> Iterator[Sum]:
    """Cuts of a w×h piece that leave two pieces with every side ≥ 2."""
    w, h = piece
    for i in range(2, w - 1):
        yield Sum((i, h), (w - i, h))
    for j in range(2, h - 1):
        yield Sum((w, j), (w, h - j))


def cutting_first_player_wins_literal(w: int, h: int) -> bool:
    """The statement played literally: any cut is allowed; cutting out a 1×1 wins.

    A state is the multiset of pieces; used in tests to confirm `cutting_options`.
    """

    def cuts(a: int, b: int) -> Iterator[tuple[tuple[int, int], tuple[int, int]]]:
        for i in range(1, a):
            yield (i, b), (a - i, b)
        for j in range(1, b):
            yield (a, j), (a, b - j)

    @cache
    def wins(pieces: tuple[tuple[int, int], ...]) -> bool:
        for k, (a, b) in enumerate(pieces):
            rest = pieces[:k] + pieces[k + 1:]
            for p1, p2 in cuts(a, b):
                if p1 == (1, 1) or p2 == (1, 1):
                    return True
                if not wins(tuple(sorted(rest + (tuple(sorted(p1)), tuple(sorted(p2)))))):
                    return True
        return False

    return wins(((min(w, h), max(w, h)),))


# ---------------------------------------------------------------- cow digit game (USACO 2009)


def digit_options(n: int) -> list[int]:
    """N minus its largest digit, and N minus its smallest non-zero digit."""
    digits = [int(c) for c in str(n) if c != "0"]
    if n == 0:
        return []
    return sorted({n - max(digits), n - min(digits)})


# ---------------------------------------------------------------- popcount game


def popcount(n: int) -> int:
    return bin(n).count("1")


def popcount_options(n: int, bits: int, parts: int) -> Iterator[Sum]:
    """Replace n by 1..parts numbers below 2**bits, each with fewer set bits than n."""
    smaller = [m for m in range(1 << bits) if popcount(m) < popcount(n)]
    for r in range(1, parts + 1):
        for combo in combinations_with_replacement(smaller, r):
            yield Sum(*combo)


def popcount_class_options(k: int, parts: int) -> Iterator[Sum]:
    """The same game on classes: k set bits -> 1..parts classes k' < k (a multiset)."""
    for r in range(1, parts + 1):
        for combo in combinations_with_replacement(range(k), r):
            yield Sum(*combo)


# ---------------------------------------------------------------- octal games


@dataclass(frozen=True)
class OctalCode:
    """An octal game: digits[j] is the octal digit d_j (j tokens removed)."""

    code: str
    digits: tuple[int, ...]

    @property
    def max_take(self) -> int:
        """t: the most tokens one move removes (index of the last non-zero digit)."""
        nz = [j for j, d in enumerate(self.digits) if d]
        return nz[-1] if nz else 0


_OCTAL = re.compile(r"([0-9]?)\.([0-9]*)")


def parse_octal(code: str) -> OctalCode:
    """Parse '0.77', '.07', '4.07', '0.137' (also '·' for the point); ValueError if invalid."""
    text = code.strip().replace("·", ".")
    m = _OCTAL.fullmatch(text)
    if not m:
        raise ValueError(f"invalid octal code {code!r}: expected d0.d1d2... such as 0.77 or 4.07")
    if not m.group(1) and not m.group(2):
        raise ValueError(f"invalid octal code {code!r}: no digits")
    head, tail = m.group(1) or "0", m.group(2)
    if head not in ("0", "4"):
        raise ValueError(f"invalid octal code {code!r}: the digit before the point must be 0 or 4")
    bad = [c for c in tail if c not in "01234567"]
    if bad:
        raise ValueError(f"invalid octal code {code!r}: {bad[0]!r} is not an octal digit")
    if len(tail) > 64:
        raise ValueError(f"invalid octal code {code!r}: at most 64 digits after the point")
    digits = (int(head),) + tuple(int(c) for c in tail)
    while len(digits) > 1 and digits[-1] == 0:
        digits = digits[:-1]
    return OctalCode(code.strip(), digits)


def octal_options(game: OctalCode, heap: int) -> Iterator[int | Sum]:
    """Moves from one heap of an octal game: a heap size, or a Sum of two heaps."""
    for j, d in enumerate(game.digits):
        rest = heap - j
        if rest < 0:
            break
        if d & 1 and rest == 0 and j > 0:
            yield 0
        if d & 2 and rest > 0 and j > 0:
            yield rest
        if d & 4:
            for a in range(1, rest // 2 + 1):
                yield Sum(a, rest - a)


def grundys_options(heap: int) -> Iterator[Sum]:
    """Grundy's game: split a heap into two non-empty heaps of different sizes."""
    for a in range(1, (heap - 1) // 2 + 1):
        yield Sum(a, heap - a)
