"""`puzzlesearch grundy ...`: the built-in games on the command line.

`cutting` and `digits` read the judges' input on stdin and answer in their format (or
as one JSON object with --json); all input is checked before any answer is printed, so
bad input gives one stderr line (exit 2) and nothing on stdout. Every check is in the api
module and every limit in ``limits`` (the api names them); this module parses and prints.
"""

from __future__ import annotations

import csv
import json
import os
import sys
import threading
from dataclasses import asdict
from typing import NoReturn

import click
import numpy as np

from puzzlesearch import clikit
from puzzlesearch.engine.params import plural
from puzzlesearch.engine.paths import check_writable, replacing

from . import api

ROW = 10  # values per output row
BLOCK = ROW << 13  # values converted to text at a time, whole rows (10^8 values are never one list)
GRUNDYS = "Grundy's game"

#: --memory and --quiet for the tables whose memory grows with --count
table_options = clikit.run_options(workers=False, checkpoint=False, memory=True)
#: octal games and Grundy's game go to 10^9 heaps: a long run takes --checkpoint
takebreak_options = clikit.run_options(checkpoint=True, memory=True, scheduler=False, workers_help=(
    "Threads computing the values side by side (default: all cores, or 1 below 65,536 heaps)."))


def _print_rows(values: np.ndarray) -> None:
    width = len(str(max(len(values) - 1, 0)))
    for block in range(0, len(values), BLOCK):
        part = values[block:block + BLOCK].tolist()
        click.echo("\n".join(f"{block + i:>{width}}: " + " ".join(map(str, part[i:i + ROW]))
                             for i in range(0, len(part), ROW)))


def _emit_values_json(obj: dict, values: np.ndarray) -> None:
    """The bytes clikit.emit_json would print for `obj` with "values" after "count",
    the values written a block at a time instead of as one list."""
    keys = list(obj)
    at = keys.index("count") + 1
    head = json.dumps({k: obj[k] for k in keys[:at]}, separators=(",", ":"))[:-1]
    tail = json.dumps({k: obj[k] for k in keys[at:]}, separators=(",", ":"))[1:]
    click.echo(head + ',"values":[', nl=False)
    for block in range(0, len(values), BLOCK):
        text = json.dumps(values[block:block + BLOCK].tolist(), separators=(",", ":"))[1:-1]
        click.echo(("," if block else "") + text, nl=False)
    click.echo("]" + ("," + tail if tail != "}" else "}"))


@clikit.group()
def grundy() -> None:
    """Sprague-Grundy values of impartial games."""


def _answer(answers: api.Answers, as_json: bool) -> None:
    if as_json:
        clikit.emit_json(answers)
    elif answers.answers:
        click.echo("\n".join(answers.answers))


@grundy.command(short_help="Cutting Game (POJ 2311): WIN or LOSE for each 'W H' on stdin.")
@clikit.json_option
def cutting(as_json: bool) -> None:
    """Cutting Game (POJ 2311): lines 'W H' on stdin, 2 <= W, H <= 200; WIN or LOSE each.

    A W x H sheet of grid paper; a move cuts one piece along a grid line into two;
    whoever first cuts out a 1 x 1 piece wins. WIN means the player to move wins.
    With --json: {"games": [[W, H], ...], "answers": ["WIN", ...]}.
    """
    with clikit.library_call():
        answers = api.cutting_answers(sys.stdin.read())
    _answer(answers, as_json)


@grundy.command(short_help="Cow Digit Game (USACO 2009): YES or NO for each N on stdin.")
@clikit.json_option
def digits(as_json: bool) -> None:
    """Cow Digit Game (USACO 2009 Open): G, then G numbers 1..1,000,000; YES or NO each.

    From N a move subtracts N's largest digit or its smallest non-zero digit; whoever
    reaches 0 wins. YES means the first player (the one to move) wins.
    With --json: {"games": [N, ...], "answers": ["YES", ...]}.
    """
    with clikit.library_call():
        answers = api.digits_answers(sys.stdin.read())
    _answer(answers, as_json)


@grundy.command(short_help="Popcount game: G(k) for k = 0..64 set bits.")
@click.option("--parts", "-p", type=int, default=7, show_default=True,
              help="A number may be replaced by up to this many numbers.")
@click.option("--max-k", type=int, default=api.POPCOUNT_BITS, show_default=True,
              help="Largest number of set bits (at most 64).")
@clikit.json_option
def popcount(parts: int, max_k: int, as_json: bool) -> None:
    """G(k), k = 0..64: a number becomes 1..P numbers, each with fewer set bits.

    The value of a number depends only on its number k of set bits; G(k) is the mex
    of the XORs of multisets of at most P values G(k'), k' < k.
    """
    with clikit.library_call():
        result = api.popcount_values(parts, max_k)
    if as_json:
        clikit.emit_json({"parts": parts, "max_k": max_k, "values": list(result.values)})
        return
    click.echo(f"popcount game, up to {parts} parts: G(k) for k = 0..{max_k} set bits")
    for k, v in enumerate(result.values):
        click.echo(f"{k:>2} {v}")


def _show(result: api.TakeBreakValues, as_json: bool, summary: bool, title: str) -> None:
    if as_json:
        obj = result.to_json(values=False)
        if result.period is None and title == GRUNDYS:
            del obj["period"], obj["preperiod"]  # not an octal game: no periodicity theorem
        _emit_table_json(obj, result.values, summary)
        return
    if not summary:
        click.echo(f"{title}: G(n) for n = 0..{result.count - 1}")
        _print_rows(result.values)
    if result.rare_mask:
        method = f"{result.rare_heaps:,} rare heaps (values v with parity(v & {result.rare_mask}) = 0)"
    else:
        method = "plain mex over every move"
    click.echo(f"largest value {result.max_value}; {method}")


def _emit_table_json(obj: dict, values: np.ndarray, summary: bool) -> None:
    """A table's JSON: its fields with "values" after "count", or with --summary its
    fields alone (--summary leaves the values out, with --json as without)."""
    if summary:
        clikit.emit_json(obj)
    else:
        _emit_values_json(obj, values)


def _echo_period(result: api.TakeBreakValues, count: int, theorem: str) -> None:
    """The period line of a take-and-break table: proven by `theorem`, or not yet."""
    if result.period is None:
        click.echo(f"no period proven from {count:,} values (try a larger --count)")
    else:
        click.echo(f"period {result.period} from heap {result.preperiod} (proven by {theorem} from "
                   f"{count:,} values)")


_count_option = click.option("--count", "-n", type=int, default=100, show_default=True,
                             help=f"Number of heap sizes: values of heaps 0..N-1 (N <= {api.COUNT_MAX:,}).")


def _summary_option(function: str):
    """--summary: the summary without the values, printed or (--json) as JSON fields."""
    return click.option("--summary", is_flag=True, help=(
        "Only the summary, not the values; with --json the summary's fields (period, preperiod, largest "
        f"value, ...) without the values list. The values: leave out --summary, or {function} in Python."))


_values_plot_option = clikit.plot_option("the values against the heap, the rare heaps and the period's start")


@grundy.command(short_help="Octal games (0.77, 0.07, 4.07, ...): values and proven period.")
@click.argument("code")
@_count_option
@clikit.json_option
@_summary_option("games.octal_values")
@_values_plot_option
@takebreak_options
def octal(code: str, count: int, as_json: bool, summary: bool, plot: str | None,
          run: clikit.RunOptions) -> int:
    """Octal game CODE (0.77 Kayles, 0.07 Dawson's Kayles, 0.137, 4.07, ...): values and period.

    Digit d_j of d0.d1d2... is for removing j tokens: +1 may take the whole heap, +2 may
    leave one heap, +4 may leave two heaps. The period is reported once the octal
    periodicity theorem proves it from the computed values.
    """
    with clikit.library_call(run):
        game = api.parse_octal(code)
        if plot is not None:
            api.check_plot(plot)
        result = api.octal_values(game, count, run=run)
    _show(result, as_json, summary, f"octal game {game.code}")
    if not as_json:
        _echo_period(result, count, "the octal periodicity theorem")
    return _save_plot(result, plot)


def _save_plot(result: api.TakeBreakValues, plot: str | None) -> int:
    if plot is None:
        return clikit.EXIT_OK
    return clikit.save_plot(lambda: api.plot(result, plot), plot)


@grundy.command("hex", short_help="Hexadecimal games (0.F, 4.8, ...): digits to f, splits into three heaps.")
@click.argument("code")
@_count_option
@clikit.json_option
@_summary_option("games.hex_values")
@table_options
def hex_game(code: str, count: int, as_json: bool, summary: bool, run: clikit.RunOptions) -> None:
    """Hexadecimal take-and-break game CODE (0.F, 4.8, 0.a, ...): values and period.

    As `grundy octal`, with digits 0-9, a-f: bit 8 of d_j also allows leaving three
    non-empty heaps after removing j tokens (d0 is 0, 4, 8 or c). With a digit that has
    bit 8, --count is at most 100,000 and values must stay below 1024; the period is
    proven by the periodicity theorem's three-part form (checked through heap
    3e + 2p + t, e at least 1). Without one, the code is an octal game.
    """
    with clikit.library_call(run, resumable=False):
        game = api.parse_hex(code)
        result = api.hex_values(game, count, run=run)
    _show(result, as_json, summary, f"hexadecimal game {game.code}")
    if not as_json:
        _echo_period(result, count, "the periodicity theorem")


@grundy.command(short_help="Grundy's game: values of heaps 0..N-1.")
@_count_option
@clikit.json_option
@_summary_option("games.grundys_values")
@_values_plot_option
@takebreak_options
def grundys(count: int, as_json: bool, summary: bool, plot: str | None, run: clikit.RunOptions) -> int:
    """Grundy's game: a move splits a heap into two non-empty heaps of different sizes."""
    with clikit.library_call(run):
        if plot is not None:
            api.check_plot(plot)
        result = api.grundys_values(count, run=run)
    _show(result, as_json, summary, GRUNDYS)
    return _save_plot(result, plot)


@grundy.command(short_help="Subtraction games (1,3,4: remove 1, 3 or 4): values and proven period.")
@click.argument("moves", metavar="S")
@_count_option
@clikit.json_option
@_summary_option("games.subtraction_values")
@table_options
def subtraction(moves: str, count: int, as_json: bool, summary: bool, run: clikit.RunOptions) -> None:
    """Subtraction game S (e.g. 1,3,4): a move removes s tokens from one heap, s in S.

    S is a comma-separated set of distinct whole numbers 1..1,000,000 (at most 1,000 of
    them; a repeated number is refused). The period p and preperiod e are proven once
    G(n) = G(n + p) for max(S) consecutive n >= e within the computed values.
    """
    with clikit.library_call(run, resumable=False):
        result = api.subtraction_values(moves, count, run=run)
    if as_json:
        _emit_table_json(result.to_json(values=False), result.values, summary)
        return
    if not summary:
        click.echo(f"{result.game}: G(n) for n = 0..{result.count - 1}")
        _print_rows(result.values)
    click.echo(f"largest value {result.max_value}; plain mex over every move")
    if result.period is None:
        click.echo(f"no period proven by {count:,} values (try a larger --count)")
    else:
        click.echo(f"period {result.period} from heap {result.preperiod} (proven by a repeated window "
                   f"of {result.moves[-1]:,} values within {count:,} values)")


def _heaps_text(heaps: tuple[int, ...]) -> str:
    return ",".join(map(str, heaps)) if heaps else "(no heaps)"


@grundy.command(short_help="A sum of heaps of one game: its value, outcome and a winning move.")
@click.argument("game")
@click.option("--heaps", required=True, metavar="H1,H2,...",
              help=f"Heap sizes, e.g. 5,9,12 (each 0..{api.COUNT_MAX - 1:,}; at most {api.HEAPS_MAX:,}).")
@click.option("--all", "all_moves", is_flag=True, help="List every winning move, not just one.")
@clikit.json_option
@table_options
def move(game: str, heaps: str, all_moves: bool, as_json: bool, run: clikit.RunOptions) -> None:
    """The position made of heaps --heaps of GAME: value, outcome, a winning move.

    GAME is an octal code as `grundy octal` takes it (0.77 Kayles, .07, 4.07, ...),
    hex:CODE for a hexadecimal code as `grundy hex` takes it (hex:0.F), `grundys` for
    Grundy's game, or sub:S for the subtraction game S (sub:1,3,4).
    The value is the XOR of the heaps' values; outcome N: the player to move wins,
    P: the previous player wins (no winning move exists, exit status 0). A move names
    the heap (numbered from 1), the tokens taken and the heaps it leaves; it is checked
    with the plain rules and the position it leads to has value 0.
    """
    with clikit.library_call(run, resumable=False):
        result = api.position_moves(game, heaps, all_moves=all_moves, run=run)
    if as_json:
        clikit.emit_json({k: v for k, v in asdict(result).items() if k != "seconds"}
                         | {"seconds": round(result.seconds, 4)})
        return
    click.echo(f"{result.game}, heaps {_heaps_text(result.heaps)}: values "
               f"{' ^ '.join(map(str, result.heap_values))} = {result.value}")
    if result.outcome == "P":
        click.echo("P: the previous player wins; no winning move exists")
        return
    click.echo(f"N: the next player wins; {len(result.moves) if all_moves else 'a'} winning "
               f"{plural(len(result.moves), 'move') if all_moves else 'move'}:")
    for m in result.moves:
        leaves = " + ".join(map(str, m.leaves)) if m.leaves else "nothing"
        click.echo(f"  heap {m.heap} ({m.size}): take {m.take}, leaving {leaves} -> "
                   f"{_heaps_text(m.position)} (value 0)")


SURVEY_COLUMNS = ("code", "count", "period", "preperiod", "max_value", "rare_heaps", "rare_mask", "seconds",
                  "same_as", "source")


def _survey_line(r: api.SurveyRow, width: int) -> str:
    unproven = f"not proven by {r.count:,}"
    proof = f"{r.period:>{width - 11}} {r.preperiod:>10}" if r.period is not None else f"{unproven:>{width}}"
    rare = f"{r.rare_heaps:>10,} {r.rare_mask:>5}" if r.rare_mask else f"{'plain mex':>16}"
    same = f" (values of {r.same_as})" if r.same_as else ""
    return f"{r.code:<7} {proof} {r.max_value:>7} {rare} {r.count:>11,} {r.seconds:>8.4f} s  {r.source}{same}"


def _survey_interrupted(kept: int) -> NoReturn:
    """Ctrl-C after `kept` games were kept in the results store: one line saying so and how
    to go on, exit status 130, as clikit.exit_interrupted ends every other interrupted run
    (at once when a kernel is still running in a helper thread)."""
    games = "game finished is" if kept == 1 else f"{kept:,} games finished are"
    clikit.warn(f"interrupted; the {games} kept in the results store: run the same command again "
                "to compute only the others")
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    if any(t.name == "puzzlesearch-kernel" and t.is_alive() for t in threading.enumerate()):
        os._exit(clikit.EXIT_INTERRUPTED)
    sys.exit(clikit.EXIT_INTERRUPTED)


def _write_csv(path: str, result: api.Survey) -> None:
    with replacing(path, "--csv") as tmp, open(tmp, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(SURVEY_COLUMNS)
        for r in result.rows:
            row = asdict(r)
            out.writerow(["" if row[c] is None else row[c] for c in SURVEY_COLUMNS])


@grundy.command("survey", short_help="Every octal game 0.d1...dD to N heaps: periods proven or not, a table.")
@click.option("--digits", "-d", type=int, default=2, show_default=True,
              help=f"Codes with 1..D digits after the point (D <= {api.SURVEY_DIGITS_MAX}; 3: 511 games).")
@click.option("--count", "-n", type=int, default=1000, show_default=True,
              help=f"Heaps per game: values of heaps 0..N-1 (N <= {api.COUNT_MAX:,}).")
@clikit.json_option
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Also write the table as CSV to FILE.")
@click.option("--summary", is_flag=True, help="Only the counts of games proven and not, not the table; with "
              "--json those counts without the rows.")
@clikit.run_options(store=True, memory=True)
def octal_survey(digits: int, count: int, as_json: bool, csv_path: str | None, summary: bool,
           run: clikit.RunOptions) -> None:
    """Every octal game 0.d1...dk, 1 <= k <= D, dk != 0 (D = 3: 511 games), each to N heaps.

    For each game: the period and preperiod proven by the octal periodicity theorem (as
    `grundy octal CODE --count N` reports them) or "not proven by N", the largest value,
    the rare heaps and mask of the rare/common method ("plain mex" when none was used)
    and the seconds. Codes whose values are equal at every heap (by a rule on their
    digits and first values) are computed once: "(values of CODE)" names the code
    computed, and each row's period is proven for its own code. Rows are kept in the
    results store: a later survey reuses every row proven, or computed to at least as
    many heaps, and computes only the others (source "store" or "run"; count: the heaps
    a row was computed to).
    """
    with clikit.library_call(run):
        if csv_path is not None:
            check_writable(csv_path, "--csv")
        try:
            result = clikit.answer(api.octal_survey, digits, count, run=run)
        except KeyboardInterrupt as e:
            if getattr(e, "kept", None):  # no checkpoint, but the finished games are in the store
                _survey_interrupted(e.kept)
            raise
    unwritten = None
    if csv_path is not None:
        try:  # first: the file is what a long survey is run for
            _write_csv(csv_path, result)
        except OSError as e:  # checked writable before the work, but a disk can fill up
            unwritten = (str(e) if isinstance(e, clikit.NoSpace)
                         else f"--csv {csv_path} could not be written ({e.strerror or e})")
    if as_json:
        obj = result.to_json()
        if summary:
            del obj["rows"]
        clikit.emit_json(obj)
    elif not summary:
        # the period and preperiod columns, or "not proven by N" across both
        width = max([18] + [len(f"not proven by {r.count:,}") for r in result.rows if r.period is None])
        click.echo(f"{'code':<7} {'period':>{width - 11}} {'preperiod':>10} {'largest':>7} "
                   f"{'rare heaps':>10} {'mask':>5} {'heaps':>11} {'time':>10}  source")
        for r in result.rows:
            click.echo(_survey_line(r, width))
    if not as_json:
        games = len(result.rows)
        shared = f", {result.shared:,} of them from another code's equal values" if result.shared else ""
        click.echo(f"{games:,} octal games with 1..{digits} digits to {count:,} heaps: {result.proven:,} "
                   f"periods proven, {games - result.proven:,} not proven; {result.from_store:,} rows from "
                   f"the results store, {result.computed:,} computed{shared} ({result.seconds:.2f} s)")
    if unwritten:
        clikit.warn(unwritten)
        sys.exit(clikit.EXIT_CHECK_FAILED)
