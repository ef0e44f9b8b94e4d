"""`puzzlesearch grundy ...`: the built-in games on the command line.

`cutting` and `digits` read the judges' input on stdin and answer in their format;
all input is checked before any answer is printed, so bad input gives one stderr line
(exit 2) and nothing on stdout.
"""

from __future__ import annotations

import re
import sys

import click

from puzzlesearch.cli import emit_json, fail

from . import tables
from .rules import parse_octal

ROW = 10  # values per output row
GRUNDYS = "Grundy's game"


def _lines() -> list[tuple[int, str]]:
    """Non-blank stdin lines with their 1-based line numbers."""
    return [(i, s.strip()) for i, s in enumerate(sys.stdin.read().splitlines(), 1) if s.strip()]


def _int(token: str, lineno: int, what: str, lo: int, hi: int) -> int:
    if not re.fullmatch(r"[+-]?[0-9]+", token):  # int() would also take '1_000' and non-ASCII digits
        fail(f"line {lineno}: {what} must be an integer, got {token!r}")
    v = int(token)
    if not lo <= v <= hi:
        fail(f"line {lineno}: {what} = {v} is outside {lo}..{hi:,}")
    return v


def _print_rows(values: list[int]) -> None:
    width = len(str(max(len(values) - 1, 0)))
    for start in range(0, len(values), ROW):
        row = " ".join(str(v) for v in values[start:start + ROW])
        click.echo(f"{start:>{width}}: {row}")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def grundy() -> None:
    """Sprague-Grundy values of impartial games."""


@grundy.command(short_help="Cutting Game (POJ 2311): WIN or LOSE for each 'W H' on stdin.")
def cutting() -> None:
    """Cutting Game (POJ 2311): lines 'W H' on stdin, 2 <= W, H <= 200; WIN or LOSE each.

    A W x H sheet of grid paper; a move cuts one piece along a grid line into two;
    whoever first cuts out a 1 x 1 piece wins. WIN means the player to move wins.
    """
    games = []
    for lineno, text in _lines():
        tokens = text.split()
        if len(tokens) != 2:
            fail(f"line {lineno}: expected two integers 'W H', got {text!r}")
        w = _int(tokens[0], lineno, "W", 2, tables.CUTTING_MAX)
        h = _int(tokens[1], lineno, "H", 2, tables.CUTTING_MAX)
        games.append((w, h))
    if not games:
        return
    g = tables.cutting_table(max(max(w, h) for w, h in games))
    for w, h in games:
        click.echo("WIN" if g[w, h] else "LOSE")


@grundy.command(short_help="Cow Digit Game (USACO 2009): YES or NO for each N on stdin.")
def digits() -> None:
    """Cow Digit Game (USACO 2009 Open): G, then G numbers 1..1,000,000; YES or NO each.

    From N a move subtracts N's largest digit or its smallest non-zero digit; whoever
    reaches 0 wins. YES means the first player (the one to move) wins.
    """
    lines = _lines()
    if not lines:
        fail("line 1: missing the number of games G")
    first, text = lines[0]
    count = _int(text, first, "G", 0, 10**7)
    numbers = []
    for lineno, text in lines[1:]:
        if len(numbers) == count:
            fail(f"line {lineno}: more numbers than G = {count}")
        numbers.append(_int(text, lineno, "N", 1, tables.DIGITS_MAX))
    if len(numbers) < count:
        last = lines[-1][0]
        fail(f"line {last + 1}: expected {count} numbers after G, got {len(numbers)}")
    if not numbers:
        return
    g = tables.digits_table(max(numbers))
    for n in numbers:
        click.echo("YES" if g[n] else "NO")


@grundy.command(short_help="Popcount game: G(k) for k = 0..64 set bits.")
@click.option("--parts", "-p", type=click.IntRange(min=1), default=7, show_default=True,
              help="A number may be replaced by up to this many numbers.")
@click.option("--max-k", type=click.IntRange(0, tables.POPCOUNT_BITS), default=tables.POPCOUNT_BITS,
              show_default=True, help="Largest number of set bits.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def popcount(parts: int, max_k: int, as_json: bool) -> None:
    """G(k), k = 0..64: a number becomes 1..P numbers, each with fewer set bits.

    The value of a number depends only on its number k of set bits; G(k) is the mex
    of the XORs of multisets of at most P values G(k'), k' < k.
    """
    try:
        result = tables.popcount_values(parts, max_k)
    except MemoryError as e:
        fail(str(e))
    if as_json:
        emit_json({"parts": parts, "max_k": max_k, "values": list(result.values)})
        return
    click.echo(f"popcount game, up to {parts} parts: G(k) for k = 0..{max_k} set bits")
    for k, v in enumerate(result.values):
        click.echo(f"{k:>2} {v}")


def _show(result: tables.TakeBreakValues, as_json: bool, summary: bool, title: str) -> None:
    if as_json:
        obj = result.to_json()
        if result.period is None and title == GRUNDYS:
            del obj["period"], obj["preperiod"]  # not an octal game: no periodicity theorem
        emit_json(obj)
        return
    if not summary:
        click.echo(f"{title}: G(n) for n = 0..{result.count - 1}")
        _print_rows(result.values.tolist())
    if result.rare_mask:
        method = f"{result.rare_heaps:,} rare heaps (values v with parity(v & {result.rare_mask}) = 0)"
    else:
        method = "plain mex over every move"
    click.echo(f"largest value {result.max_value}; {method}")


@grundy.command(short_help="Octal games (0.77, 0.07, 4.07, ...): values and proven period.")
@click.argument("code")
@click.option("--count", "-n", type=click.IntRange(1, 10**8), default=100, show_default=True,
              help="Number of heap sizes: values of heaps 0..N-1.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--summary", is_flag=True, help="Only the summary lines, not the values.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar on stderr.")
def octal(code: str, count: int, as_json: bool, summary: bool, quiet: bool) -> None:
    """Octal game CODE (0.77 Kayles, 0.07 Dawson's Kayles, 0.137, 4.07, ...): values and period.

    Digit d_j of d0.d1d2... is for removing j tokens: +1 may take the whole heap, +2 may
    leave one heap, +4 may leave two heaps. The period is reported once the octal
    periodicity theorem proves it from the computed values.
    """
    try:
        game = parse_octal(code)
    except ValueError as e:
        fail(str(e))
    try:
        result = tables.octal_values(game, count, progress=not quiet)
    except OverflowError as e:
        fail(str(e))
    _show(result, as_json, summary, f"octal game {game.code}")
    if as_json:
        return
    if result.period is None:
        click.echo(f"no period proven from {count:,} values (try a larger --count)")
    else:
        click.echo(
            f"period {result.period} from heap {result.preperiod} "
            f"(proven by the octal periodicity theorem from {count:,} values)"
        )


@grundy.command(short_help="Grundy's game: values of heaps 0..N-1.")
@click.option("--count", "-n", type=click.IntRange(1, 10**8), default=100, show_default=True,
              help="Number of heap sizes: values of heaps 0..N-1.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--summary", is_flag=True, help="Only the summary line, not the values.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar on stderr.")
def grundys(count: int, as_json: bool, summary: bool, quiet: bool) -> None:
    """Grundy's game: a move splits a heap into two non-empty heaps of different sizes."""
    try:
        result = tables.grundys_values(count, progress=not quiet)
    except OverflowError as e:
        fail(str(e))
    _show(result, as_json, summary, GRUNDYS)
