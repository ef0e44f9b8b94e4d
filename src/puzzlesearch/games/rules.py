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
  d0 is 0 or 4 (4: split a heap in two without removing anything). Hexadecimal codes
  (Winning Ways ch. 4: 0.F, 4.8, ...) add bit 8 — leave three non-empty heaps.
- Grundy's game: split a heap into two non-empty heaps of different sizes.
- Subtraction games S = {s1, s2, ...}: a move removes some s in S tokens from one heap.

The ``is_*_move`` functions say whether one move takes a heap to given heaps; the
winning moves the program prints are checked with them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement

from puzzlesearch.engine.params import digits_text
from puzzlesearch.engine.params import text as check_text

from .general import Sum
from .limits import SUBTRACTION_MAX, SUBTRACTION_SIZE_MAX

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
    """An octal (or hexadecimal) take-and-break game.

    Attributes:
        code: The code as written ("0.77").
        digits: The digit d_j of each j, the tokens a move removes (d_0 first).
    """

    code: str
    digits: tuple[int, ...]

    @property
    def max_take(self) -> int:
        """t: the most tokens one move removes (index of the last non-zero digit)."""
        nz = [j for j, d in enumerate(self.digits) if d]
        return nz[-1] if nz else 0


_OCTAL = re.compile(r"([0-9]?)\.([0-9]*)")


_HEX = re.compile(r"([0-9a-fA-F]?)\.([0-9a-zA-Z]*)")


def parse_octal(code: str) -> OctalCode:
    """Read an octal game's code.

    Args:
        code: "0.77", ".07", "4.07", "0.137" (also "·" for the point).

    Raises:
        ValueError: The code is not an octal game's, naming what is wrong.
    """
    return _parse_code(code, "octal", _OCTAL, "01234567", ("0", "4"))


def parse_hex(code: str) -> OctalCode:
    """Read a hexadecimal game's code: bit 8 of a digit also allows leaving three
    non-empty heaps.

    Args:
        code: "0.F", "4.8", "0.b" (digits 0-9, a-f, either case; d0 is 0, 4, 8 or c).

    Raises:
        ValueError: The code is not a hexadecimal game's, naming what is wrong.
    """
    return _parse_code(code, "hexadecimal", _HEX, "0123456789abcdefABCDEF", ("0", "4", "8", "c"))


def _parse_code(code: str, kind: str, pattern: re.Pattern, allowed: str, heads: tuple[str, ...]) -> OctalCode:
    code = check_text(code, f"the {kind} code")
    text = code.strip().replace("·", ".")
    m = pattern.fullmatch(text)
    if not m:
        raise ValueError(f"invalid {kind} code {code!r}: expected d0.d1d2... such as 0.77 or 4.07")
    if not m.group(1) and not m.group(2):
        raise ValueError(f"invalid {kind} code {code!r}: no digits")
    head, tail = m.group(1) or "0", m.group(2)
    if head.lower() not in heads:
        either = ", ".join(heads[:-1]) + " or " + heads[-1]
        raise ValueError(f"invalid {kind} code {code!r}: the digit before the point must be {either}")
    bad = [c for c in tail if c not in allowed]
    article = "an" if kind[0] in "aeiou" else "a"
    if bad:
        raise ValueError(f"invalid {kind} code {code!r}: {bad[0]!r} is not {article} {kind} digit")
    if len(tail) > 64:
        raise ValueError(f"invalid {kind} code {code!r}: at most 64 digits after the point")
    digits = (int(head, 16),) + tuple(int(c, 16) for c in tail)
    while len(digits) > 1 and digits[-1] == 0:
        digits = digits[:-1]
    return OctalCode(code.strip(), digits)


def octal_options(game: OctalCode, heap: int) -> Iterator[int | Sum]:
    """Moves from one heap of an octal game: a heap size, or a Sum of two heaps (or of
    three heaps, for a hexadecimal digit with bit 8)."""
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
        if d & 8:
            for a in range(1, rest // 3 + 1):
                for b in range(a, (rest - a) // 2 + 1):
                    yield Sum(a, b, rest - a - b)


def grundys_options(heap: int) -> Iterator[Sum]:
    """Grundy's game: split a heap into two non-empty heaps of different sizes."""
    for a in range(1, (heap - 1) // 2 + 1):
        yield Sum(a, heap - a)


def is_octal_move(game: OctalCode, heap: int, parts: tuple[int, ...]) -> bool:
    """Whether one move of the octal game takes `heap` to the non-empty heaps `parts`."""
    j = heap - sum(parts)
    k = len(parts)
    if k > 3 or any(p < 1 for p in parts) or j < 0 or j >= len(game.digits):
        return False
    return bool(game.digits[j] & (1 << k)) and (j > 0 or k >= 2)


def is_grundys_move(heap: int, parts: tuple[int, ...]) -> bool:
    """Whether `parts` is a split of `heap` into two non-empty heaps of different sizes."""
    return len(parts) == 2 and min(parts) >= 1 and sum(parts) == heap and parts[0] != parts[1]


# ---------------------------------------------------------------- subtraction games


@dataclass(frozen=True)
class SubtractionSet:
    """A subtraction game: a move removes s tokens from one heap, for some s in `moves`.

    Attributes:
        text: The set as written ("1,3,4").
        moves: The amounts a move may remove: ascending, distinct, each at least 1.
    """

    text: str
    moves: tuple[int, ...]


def parse_subtraction(text: str) -> SubtractionSet:
    """Read a subtraction set.

    Args:
        text: "1,3,4" (also "{1,3,4}", spaces allowed): whole numbers 1 to
            `SUBTRACTION_MAX`, none repeated (most likely a typo, and the set would mean
            the same without it).

    Raises:
        ValueError: The set is invalid, naming what is wrong.
    """
    body = check_text(text, "the subtraction set").strip()
    if body.startswith("{") and body.endswith("}"):
        body = body[1:-1]
    if not body.strip():
        raise ValueError(f"invalid subtraction set {text!r}: it is empty; give moves such as 1,3,4")
    moves: list[int] = []
    where = f"invalid subtraction set {text[:40]!r}"
    for item in body.split(","):
        item = item.strip()
        if not re.fullmatch(r"[0-9]+", item):
            what = "an empty element" if not item else repr(item[:20])
            raise ValueError(f"{where}: {what} is not a whole number 1..{SUBTRACTION_MAX:,}")
        if len(item) > 7 or not 1 <= int(item) <= SUBTRACTION_MAX:
            raise ValueError(f"{where}: {digits_text(item)} is outside 1..{SUBTRACTION_MAX:,}")
        if int(item) in moves:
            raise ValueError(f"{where}: {int(item)} is repeated")
        moves.append(int(item))
        if len(moves) > SUBTRACTION_SIZE_MAX:
            raise ValueError(f"invalid subtraction set: more than {SUBTRACTION_SIZE_MAX} moves")
    return SubtractionSet(text.strip(), tuple(sorted(moves)))


def subtraction_options(game: SubtractionSet, heap: int) -> Iterator[int]:
    """Moves from one heap of a subtraction game: the heap that remains (0: none)."""
    for s in game.moves:
        if s <= heap:
            yield heap - s


def is_subtraction_move(game: SubtractionSet, heap: int, parts: tuple[int, ...]) -> bool:
    """Whether one move takes `heap` to the non-empty heaps `parts` (none, or one)."""
    return len(parts) <= 1 and all(p >= 1 for p in parts) and heap - sum(parts) in game.moves
