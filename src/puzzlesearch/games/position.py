"""A position that is a sum of heaps of one game: its value, its outcome, a winning move.

By the Sprague–Grundy theorem the value of a sum of heaps is the XOR of the heaps'
values, and the player to move wins (outcome N) exactly when it is not 0. A winning
move takes one heap of value v to an option of value v XOR total, which leaves a
position of value 0 (outcome P: the previous player wins); such a move exists in every
heap with v XOR total < v (by the definition of the mex), and there may be more in
other heaps, to options of larger value (``all_moves`` finds those too). The heap values
come from the games' kernels (tables up to the largest heap); each move printed is
checked with the plain rules (``rules.is_*_move``) and the position it leads to is
re-evaluated to 0.

A game is named as ``grundy octal`` names it (0.77, .07, 4.07), ``hex:0.F`` for a
hexadecimal code as ``grundy hex`` takes it, ``grundys`` for Grundy's game, or
``sub:1,3,4`` for the subtraction game {1, 3, 4} (parse_game), and a position by its heaps
(parse_heaps).

    >>> r = position_moves(parse_game("0.77"), parse_heaps("5,9,12"), False, RunOptions())
    >>> r.value, r.outcome, r.moves[0].position
    (4, 'N', (2, 2, 9, 12))
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from puzzlesearch.engine.failures import CheckFailed
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.params import digits_text

from .hex import hex_values
from .limits import COUNT_MAX, HEAPS_MAX
from .rules import (
    OctalCode,
    SubtractionSet,
    is_grundys_move,
    is_octal_move,
    is_subtraction_move,
    parse_hex,
    parse_octal,
    parse_subtraction,
)
from .subtraction import subtraction_values
from .takebreak import grundys_values

GRUNDYS = "grundys"
SUB_PREFIX = "sub:"
HEX_PREFIX = "hex:"
BLOCK = 1 << 22  # splits compared at a time when searching a large heap's moves

Game = OctalCode | SubtractionSet | str  # str: only GRUNDYS


@dataclass(frozen=True)
class Move:
    """One move in a sum of heaps.

    Attributes:
        heap: The heap moved in, by its number (1-based).
        size: Its size.
        take: The tokens the move takes.
        leaves: The non-empty heaps the move leaves in its place.
        position: The position the move leads to: every heap.
    """

    heap: int
    size: int
    take: int
    leaves: tuple[int, ...]
    position: tuple[int, ...]


@dataclass(frozen=True)
class PositionMoves:
    """A sum of heaps: its value, its outcome and winning moves.

    Attributes:
        game: The game, as written on the command line.
        heaps: The heaps.
        heap_values: Each heap's Sprague–Grundy value.
        value: The sum's value: the XOR of the heaps' values.
        outcome: "N" (the player to move wins) or "P" (the previous player wins).
        moves: The winning moves: one, or all when asked (none when P).
        seconds: The time the answer took.
    """

    game: str
    heaps: tuple[int, ...]
    heap_values: tuple[int, ...]
    value: int
    outcome: str
    moves: tuple[Move, ...]
    seconds: float


def parse_game(text: str) -> Game:
    """'0.77' (an octal code), 'hex:0.F' (a hexadecimal code), 'grundys', or 'sub:1,3,4';
    ValueError naming what is wrong."""
    t = text.strip()
    if t.lower() == GRUNDYS:
        return GRUNDYS
    if t.lower().startswith(SUB_PREFIX):
        return parse_subtraction(t[len(SUB_PREFIX):])
    if t.lower().startswith(HEX_PREFIX):
        return parse_hex(t[len(HEX_PREFIX):])
    if "." not in t and "·" not in t:
        raise ValueError(f"invalid game {text[:40]!r}: expected an octal code such as 0.77, hex:0.F, "
                         f"'grundys', or a subtraction game such as sub:1,3,4")
    return parse_octal(t)


def parse_heaps(text: str) -> tuple[int, ...]:
    """'5,9,12' (spaces allowed): heap sizes 0..COUNT_MAX - 1, at most HEAPS_MAX of them."""
    items = text.split(",")
    if not text.strip():
        raise ValueError("--heaps is empty: give heap sizes such as 5,9,12")
    if len(items) > HEAPS_MAX:
        raise ValueError(f"--heaps: at most {HEAPS_MAX:,} heaps, got {len(items):,}")
    heaps = []
    for item in items:
        item = item.strip()
        if not re.fullmatch(r"[0-9]+", item):
            what = "an empty heap size" if not item else repr(item[:20])
            raise ValueError(f"--heaps: {what} is not a whole number 0..{COUNT_MAX - 1:,}")
        if len(item) > 9 or int(item) >= COUNT_MAX:
            raise ValueError(f"--heaps: {digits_text(item)} is beyond the largest heap, {COUNT_MAX - 1:,}")
        heaps.append(int(item))
    return tuple(heaps)


def game_name(game: Game) -> str:
    if isinstance(game, OctalCode):
        return f"{'hexadecimal' if max(game.digits) > 7 else 'octal'} game {game.code}"
    if isinstance(game, SubtractionSet):
        return f"subtraction game {{{','.join(map(str, game.moves))}}}"
    return "Grundy's game"


def heap_values(game: Game, count: int, run: RunOptions) -> np.ndarray:
    """G(0..count-1) of the game, from its kernel."""
    if isinstance(game, OctalCode):
        return hex_values(game, count, run).values
    if isinstance(game, SubtractionSet):
        return subtraction_values(game, count, run).values
    return grundys_values(count, run).values


def _splits(g: np.ndarray, rest: int, target: int, unequal: bool) -> Iterator[tuple[int, int]]:
    """Splits rest = a + b, 1 <= a <= b (a < b if unequal), with G(a) XOR G(b) = target."""
    top = (rest - 1) // 2 if unequal else rest // 2
    for lo in range(1, top + 1, BLOCK):
        hi = min(top, lo + BLOCK - 1)  # a = lo..hi, b = rest - a = rest - lo .. rest - hi
        x = g[lo:hi + 1] ^ g[rest - hi:rest - lo + 1][::-1]
        for i in np.flatnonzero(x == target):
            a = lo + int(i)
            yield a, rest - a


def options_of_value(game: Game, g: np.ndarray, heap: int, target: int) -> Iterator[tuple[int, ...]]:
    """The heaps left by each move from `heap` to an option of value `target`, by the
    number of tokens taken, then the smaller part."""
    if isinstance(game, SubtractionSet):
        for s in game.moves:
            if s <= heap and g[heap - s] == target:
                yield (heap - s,) if heap > s else ()
        return
    if not isinstance(game, OctalCode):
        if heap >= 3:
            yield from _splits(g, heap, target, True)
        return
    for j, d in enumerate(game.digits):
        rest = heap - j
        if rest < 0:
            break
        if j > 0 and d & 1 and rest == 0 and target == 0:
            yield ()
        if j > 0 and d & 2 and rest > 0 and g[rest] == target:
            yield (rest,)
        if d & 4 and rest >= 2:
            yield from _splits(g, rest, target, False)
        if d & 8:  # three heaps a <= b <= c: a, then the splits of the rest with b >= a
            for a in range(1, rest // 3 + 1):
                for b, c in _splits(g, rest - a, target ^ int(g[a]), False):
                    if b >= a:
                        yield (a, b, c)


def _legal(game: Game, heap: int, leaves: tuple[int, ...]) -> bool:
    if isinstance(game, OctalCode):
        return is_octal_move(game, heap, leaves)
    if isinstance(game, SubtractionSet):
        return is_subtraction_move(game, heap, leaves)
    return is_grundys_move(heap, leaves)


def position_moves(game: Game, heaps: tuple[int, ...], all_moves: bool, run: RunOptions) -> PositionMoves:
    """The value and outcome of the sum of `heaps` of `game` (as parse_game and parse_heaps give
    them), and a winning move when the player to move wins (every winning move with
    `all_moves`)."""
    t0 = time.perf_counter()
    g = heap_values(game, max(heaps) + 1, run)
    values = tuple(int(g[h]) for h in heaps)
    total = 0
    for v in values:
        total ^= v
    moves: list[Move] = []
    for i, (h, v) in enumerate(zip(heaps, values, strict=True)):
        # v XOR total < v: a move to that value exists (mex); with --all also the heaps
        # where it is larger, which an option of larger value may reach
        if total == 0 or ((v ^ total) > v and not all_moves):
            continue
        for leaves in options_of_value(game, g, h, v ^ total):
            position = heaps[:i] + leaves + heaps[i + 1:]
            check = 0
            for p in position:
                check ^= int(g[p])
            if not _legal(game, h, leaves) or check != 0:
                raise CheckFailed("the winning move's replay",
                                  f"{game_name(game)}: {h} -> {leaves} is not a winning move "
                                  f"({'legal' if _legal(game, h, leaves) else 'illegal'}, value {check})")
            moves.append(Move(i + 1, h, h - sum(leaves), leaves, position))
            if not all_moves:
                break
        if moves and not all_moves:
            break
    if total and not moves:
        raise CheckFailed("the mex property", f"no heap of {heaps} has a move to a position of value 0, "
                          f"though their values XOR to {total}")
    return PositionMoves(game_name(game), heaps, values, total, "N" if total else "P", tuple(moves),
                         time.perf_counter() - t0)


__all__ = ["GRUNDYS", "Move", "PositionMoves", "parse_game", "parse_heaps", "position_moves"]
