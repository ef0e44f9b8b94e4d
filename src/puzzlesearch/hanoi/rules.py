"""The Tower of Hanoi in plain Python: positions, legal moves, replay, the classic recursion.

n discs, numbered 1 (smallest) to n (largest), sit on p >= 3 pegs numbered 0..p-1 and
lettered A, B, C, ...  A move takes the top (smallest) disc of one peg and puts it on
another peg whose top disc is larger, or which is empty. Because the discs on a peg
are always stacked in size order, a position is just the peg of every disc; we write
it as a string of peg letters, largest disc first: 'ACB' means disc 3 on A, disc 2 on C,
disc 1 on B. Internally a position is a tuple of peg numbers in the same order.

This module is the reference the fast code is tested against: `replay` checks every
move of a sequence, and `classic_moves` is the textbook recursion (move n-1 discs to
the spare peg, the largest to the target, the n-1 back on top: 2^n - 1 moves).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache

Position = tuple[int, ...]  # peg of each disc, largest disc first
Move = tuple[int, int, int]  # (disc, from peg, to peg); disc 1 is the smallest

MAX_PEGS = 26  # one letter per peg


def peg_letter(peg: int) -> str:
    return chr(ord("A") + peg)


def parse_position(text: str, pegs: int) -> Position:
    """'ACB' -> (0, 2, 1). Raises ValueError naming the first bad letter."""
    if not 3 <= pegs <= MAX_PEGS:
        raise ValueError(f"pegs must be between 3 and {MAX_PEGS}, got {pegs}")
    position = []
    for i, ch in enumerate(text.strip().upper()):
        peg = ord(ch) - ord("A")
        if not 0 <= peg < pegs:
            raise ValueError(
                f"position {text!r}: character {i + 1} is {ch!r}, but pegs are letters "
                f"A-{peg_letter(pegs - 1)} for {pegs} pegs"
            )
        position.append(peg)
    return tuple(position)


def format_position(position: Iterable[int]) -> str:
    return "".join(peg_letter(p) for p in position)


def perfect(n: int, peg: int) -> Position:
    """All n discs on one peg."""
    return (peg,) * n


def top_discs(position: Position, pegs: int) -> list[int | None]:
    """The smallest disc on each peg (None for an empty peg)."""
    n = len(position)
    top: list[int | None] = [None] * pegs
    for i, peg in enumerate(position):  # largest first, so the last seen is the smallest
        top[peg] = n - i
    return top


def is_legal(position: Position, move: Move, pegs: int) -> bool:
    disc, src, dst = move
    n = len(position)
    if not (1 <= disc <= n and 0 <= src < pegs and 0 <= dst < pegs and src != dst):
        return False
    top = top_discs(position, pegs)
    return top[src] == disc and (top[dst] is None or top[dst] > disc)


def apply_move(position: Position, move: Move) -> Position:
    disc, _, dst = move
    i = len(position) - disc
    return position[:i] + (dst,) + position[i + 1 :]


def legal_moves(position: Position, pegs: int) -> Iterator[Move]:
    top = top_discs(position, pegs)
    for src, disc in enumerate(top):
        if disc is None:
            continue
        for dst, other in enumerate(top):
            if dst != src and (other is None or other > disc):
                yield (disc, src, dst)


def replay(position: Position, moves: Iterable[Move], pegs: int) -> Position:
    """Play `moves` from `position`, checking each one; return the final position."""
    for k, move in enumerate(moves, 1):
        if not is_legal(position, tuple(move), pegs):
            raise ValueError(f"move {k} {tuple(move)} is illegal in {format_position(position)}")
        position = apply_move(position, tuple(move))
    return position


def classic_moves(n: int, src: int = 0, dst: int = 2, spare: int = 1) -> Iterator[Move]:
    """The textbook recursion: 2^n - 1 moves taking discs 1..n from src to dst."""
    if n == 0:
        return
    yield from classic_moves(n - 1, src, spare, dst)
    yield (n, src, dst)
    yield from classic_moves(n - 1, spare, dst, src)


@cache
def frame_stewart_recursive(n: int, pegs: int) -> int:
    """Frame-Stewart by its definition: put k discs aside with all pegs, move the other
    n-k with one peg fewer, bring the k back; minimise over k. Slow; the reference."""
    if n == 0:
        return 0
    if pegs == 3:
        return 2**n - 1
    fs = frame_stewart_recursive
    return min(2 * fs(k, pegs) + fs(n - k, pegs - 1) for k in range(n))
