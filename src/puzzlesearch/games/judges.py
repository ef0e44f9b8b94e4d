"""The judges' two games: the cutting game (POJ 2311) and the Cow Digit Game (USACO 2009
Open). Their tables come from ``judges_kernel``; the judges' input is read line by line,
every line checked before any answer is given, and answered in the judge's words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from puzzlesearch.engine import interrupt
from puzzlesearch.engine.memory import require
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.params import text as check_text

from .judges_kernel import cutting_kernel, digits_kernel
from .limits import CUTTING_MAX, DIGITS_GAMES_MAX, DIGITS_MAX


@dataclass(frozen=True)
class Answers:
    """A judge's input answered in its order.

    Attributes:
        games: Each game of the input: a sheet (W, H) or a number N.
        answers: The judge's word for each (WIN or LOSE, YES or NO): whether the
            player to move wins.
    """

    games: tuple
    answers: tuple[str, ...]


def cutting_table(n: int) -> np.ndarray:
    """G(w, h) of the cutting game for 2 <= w, h <= n (read-only; rows/columns 0, 1 unused)."""
    g = interrupt.call(cutting_kernel, n)
    g.setflags(write=False)
    return g


def digits_table(n_max: int, run: RunOptions) -> np.ndarray:
    """G(n) of the Cow Digit Game for 0 <= n <= n_max (read-only), 1 byte a value within
    `run.memory`."""
    require(n_max + 1, run.memory, f"the digit game table to {n_max:,}")
    g = interrupt.call(digits_kernel, n_max)
    g.setflags(write=False)
    return g


def _lines(text: str) -> list[tuple[int, str]]:
    """Non-blank lines with their 1-based line numbers."""
    return [(i, s.strip()) for i, s in enumerate(text.splitlines(), 1) if s.strip()]


def _judge_int(token: str, lineno: int, what: str, lo: int, hi: int) -> int:
    if not re.fullmatch(r"[+-]?[0-9]+", token):  # int() would also take '1_000' and non-ASCII digits
        raise ValueError(f"line {lineno}: {what} must be an integer, got {token!r}")
    v = int(token)
    if not lo <= v <= hi:
        raise ValueError(f"line {lineno}: {what} = {v} is outside {lo}..{hi:,}")
    return v


def read_sheets(text: str) -> tuple[tuple[int, int], ...]:
    """POJ 2311's input: lines 'W H', 2 <= W, H <= CUTTING_MAX; a bad line is a ValueError naming it."""
    check_text(text, "the input text")
    sheets = []
    for lineno, line in _lines(text):
        tokens = line.split()
        if len(tokens) != 2:
            raise ValueError(f"line {lineno}: expected two integers 'W H', got {line!r}")
        w = _judge_int(tokens[0], lineno, "W", 2, CUTTING_MAX)
        h = _judge_int(tokens[1], lineno, "H", 2, CUTTING_MAX)
        sheets.append((w, h))
    return tuple(sheets)


def read_numbers(text: str) -> tuple[int, ...]:
    """USACO 2009's input: G, then G numbers 1..DIGITS_MAX; a bad line is a ValueError naming it."""
    check_text(text, "the input text")
    lines = _lines(text)
    if not lines:
        raise ValueError("line 1: missing the number of games G")
    first, line = lines[0]
    count = _judge_int(line, first, "G", 0, DIGITS_GAMES_MAX)
    numbers = []
    for lineno, line in lines[1:]:
        if len(numbers) == count:
            raise ValueError(f"line {lineno}: more numbers than G = {count}")
        numbers.append(_judge_int(line, lineno, "N", 1, DIGITS_MAX))
    if len(numbers) < count:
        raise ValueError(f"line {lines[-1][0] + 1}: expected {count} numbers after G, got {len(numbers)}")
    return tuple(numbers)


def cutting_answers(sheets: tuple[tuple[int, int], ...]) -> Answers:
    """WIN or LOSE for each sheet (read_sheets): whether the player to move wins."""
    if not sheets:
        return Answers((), ())
    g = cutting_table(max(max(w, h) for w, h in sheets))
    return Answers(sheets, tuple("WIN" if g[w, h] else "LOSE" for w, h in sheets))


def digits_answers(numbers: tuple[int, ...]) -> Answers:
    """YES or NO for each number (read_numbers): whether the player to move wins."""
    if not numbers:
        return Answers((), ())
    g = digits_table(max(numbers), RunOptions())
    return Answers(numbers, tuple("YES" if g[n] else "NO" for n in numbers))


__all__ = ["Answers", "cutting_answers", "cutting_table", "digits_answers", "digits_table", "read_numbers",
           "read_sheets"]
