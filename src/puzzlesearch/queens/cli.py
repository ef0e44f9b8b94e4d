"""`puzzlesearch queens ...`: count, show and build N-Queens boards (parses, calls the
library, prints).

Rows and columns on the command line are 1-based: ``--fixed 1:3`` puts a queen in row 1,
column 3, and the ``columns`` format prints the column of each row's queen. Every check
of the arguments is the library's (a ValueError with the words printed here): api.py for
counting and listing, construct.py for the one board built without search.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator

import click
import numpy as np

from puzzlesearch import clikit
from puzzlesearch.engine.memory import gib
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.params import plural
from puzzlesearch.engine.progress import duration

from . import api, construct, pictures
from .api import Board

FORMATS = ("board", "rows", "columns")


@clikit.group()
def queens() -> None:
    """N-Queens: count, list, show and complete boards.

    n queens on an n x n board, no two in a row, column or diagonal. "unique" counts one
    solution per class under the 8 rotations and reflections of the board.
    """


def _n_option(limits: str):
    return click.option("-n", "n", type=int, required=True, help=f"Board size ({limits}).")


def _fixed_option(f):
    return click.option(
        "--fixed", default=None, metavar="R:C,...", help="Given queens, 1-based row:column, e.g. 1:3,4:7."
    )(f)


@queens.command()
@_n_option(f"1..{api.MAX_COUNT_N}; with --fixed 1..{api.MAX_N}")
@_fixed_option
@click.option("--method", type=click.Choice(api.METHODS), default=None,
              help=f"How all solutions are counted: from half boards (assembly, the default from n = "
                   f"{api.ASSEMBLY_FROM}), by start constellations (the default below), or with the "
                   f"corner/rotation method, an independent cross-check.")
@clikit.run_options(workers_help="Local processes (default: all cores; 1 if n <= 12).", memory=True)
@clikit.json_option
@clikit.verbose_option
def count(
    n: int, fixed: str | None, method: str | None, run: RunOptions, as_json: bool, verbose: bool
) -> None:
    """Count all solutions and the unique ones (or the completions of --fixed queens).

    With --fixed, "unique" counts the symmetry classes that hold at least one completion.
    -v also prints the method, the kernels, the tasks and the time.
    """
    if as_json:
        run = run.but(progress=False)
    with clikit.library_call(run):
        result = api.count(n, fixed, method=method, run=run)
    if as_json:
        clikit.emit_json(result)
        return
    line = f"n={n}"
    if result.fixed:
        line += f"  fixed={result.fixed}"
    line += f"  solutions={result.solutions}  unique={result.unique}"
    if result.note:
        line += f"  ({result.note})"
    click.echo(line)
    if verbose:
        r = result
        nodes = "" if r.nodes is None else f"  nodes={r.nodes}"
        kernels = f"  kernels={r.kernels}" if r.method in api.METHODS else ""
        click.echo(f"method={r.method}{kernels}  tasks={r.tasks}{nodes}  seconds={r.seconds:.3f}")


@queens.command()
@click.option("-n", "n", type=int, required=True, help=f"Board size (4..{api.MAX_COUNT_N}).")
@click.option("--method", type=click.Choice(["assembly"]), default="assembly", show_default=True,
              help="The method estimated.")
@click.option("--workers", "for_workers", type=clikit.Workers(), default=None,
              help="Workers the expected time and memory are for (default: all cores).")
@click.option("--samples", type=click.IntRange(1, 10**6), default=300, show_default=True,
              help="Row sets timed, drawn at random.")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
              help="Seed of the random row sets.")
@click.option("--seeds", type=click.IntRange(1, api.MAX_SEEDS), default=1, show_default=True,
              help="Estimates made, from seeds --seed on: their mean and their spread.")
@clikit.run_options(workers=False, checkpoint=False, memory=True)
@clikit.json_option
def estimate(n: int, method: str, for_workers: int | None, samples: int, seed: int, seeds: int,
             run: RunOptions, as_json: bool) -> None:
    """The time and memory a count of all solutions would take, before it runs.

    Times row sets of the assembly method drawn at random and scales each case's mean up
    to all its row sets; builds the quarter table to do so.
    """
    with clikit.library_call(run):
        e = api.estimate(n, method=method, samples=samples, seed=seed, seeds=seeds,
                         run=run.but(workers=for_workers))
    if as_json:
        clikit.emit_json(e)
        return
    drawn = f"seed {e.seed}" if e.seeds == 1 else f"seeds {e.seed}..{e.seed + e.seeds - 1}"
    click.echo(f"n={e.n}  method={e.method}  row sets={e.row_sets:,} ({e.sampled} timed, {drawn})")
    click.echo(f"expected: {duration(e.cpu_seconds)} of CPU, {duration(e.seconds)} on {e.workers} "
               f"{plural(e.workers, 'worker')}")
    if e.seeds > 1 and e.cpu_low > 0:
        click.echo(f"spread: {duration(e.cpu_low)} to {duration(e.cpu_high)} of CPU "
                   f"({e.cpu_high / e.cpu_low:.2f} times) across the {e.seeds} seeds")
    click.echo(f"memory: {gib(e.worker_bytes)} for one worker, {gib(e.memory_bytes)} "
               f"for {e.workers} on one machine (they share the quarter table)")


@queens.command()
@_n_option(f"1..{api.MAX_N}; without --fixed and --unique 1..{construct.MAX_SOLVE_N:,}")
@_fixed_option
@click.option("--limit", type=int, default=10, show_default=True, help="Show at most this many (0: all).")
@click.option("--unique", is_flag=True, help="One solution per symmetry class (its smallest board).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="board", show_default=True,
              help="board: unicode board; rows: '.Q..' strings; columns: the column of each row's queen.")
@clikit.plot_option(f"the first board shown as a chess board (n <= {pictures.MAX_N:,})")
@clikit.json_option
def show(n: int, fixed: str | None, limit: int, unique: bool, fmt: str, plot: str | None,
         as_json: bool) -> int:
    """List solutions in lexicographic order (of their columns), lazily.

    When there is none, one line says so: "no solutions". --json lists columns 1-based.
    Beyond n = SEARCH_N, without --fixed and --unique, the search for the first board in
    that order takes from seconds to far longer (n = 32: 11 s, n = 34: over 30 s): one board
    is shown instead, the one `queens solve` builds, and the JSON's note says so (on a
    terminal, stderr too).
    Boards are drawn (board, rows) up to n = DRAW_N. --plot draws the first board shown;
    with no board to draw it says so on stderr, and the exit status is 1.
    """
    t0 = time.perf_counter()
    if fixed is None and not unique and n > construct.SEARCH_N:
        return _show_constructed(n, limit, fmt, plot, as_json, t0)
    first = None
    with clikit.library_call(resumable=False):
        given = api.givens(n, fixed)
        if plot is not None:
            api.check_plot(plot, n)
            t0 = time.perf_counter()  # the listing's time, not matplotlib's import
        boards = api.solutions(n, unique=unique, fixed=given, limit=limit)
        if as_json:
            found = list(boards)
            first = found[0] if found else None
            listed = [[c + 1 for c in b] for b in found]
            clikit.emit_json({
                "n": n,
                "unique": unique,
                "fixed": given.text,
                "limit": limit,
                "shown": len(listed),
                "solutions": listed,
                "seconds": time.perf_counter() - t0,
                "note": given.note,
            })
            return _plot_first(first, plot)
        shown = 0
        for b in boards:
            if fmt == "columns":
                click.echo(" ".join(str(c + 1) for c in b))
            else:
                if shown:
                    click.echo()
                click.echo("\n".join(render(b, fmt)))
            if first is None:
                first = b
            shown += 1
    if not shown:
        click.echo(f"no solutions ({given.note})" if given.note else "no solutions")
    return _plot_first(first, plot)


# the limits in the help, from the one place that sets them
show.help = show.help.replace("SEARCH_N", str(construct.SEARCH_N)).replace("DRAW_N",
                                                                            str(construct.MAX_DRAW_N))


def _plot_first(board: Board | np.ndarray | None, plot: str | None) -> int:
    """After the boards are printed: the --plot of the first (a board of 0-based columns),
    or one line saying there was none (exit status 1: no picture was made)."""
    if plot is None:
        return clikit.EXIT_OK
    if board is None:
        sys.stdout.flush()
        clikit.warn(f"no board to draw: --plot {plot} was not written")
        return clikit.EXIT_CHECK_FAILED
    return clikit.save_plot(lambda: api.plot(board, plot), plot)


def _show_constructed(n: int, limit: int, fmt: str, plot: str | None, as_json: bool, t0: float) -> int:
    """`show` beyond SEARCH_N without --fixed/--unique: the constructed board, checked like
    every other argument first (a --limit below 0 is refused here too)."""
    with clikit.library_call(resumable=False):
        api.check_limit(limit)
        n = construct.check_n(n)
        if not as_json:
            construct.check_format(fmt, n)
        if plot is not None:
            api.check_plot(plot, n)
            t0 = time.perf_counter()
        solved = construct.solve(n)
        note = (f"n > {construct.SEARCH_N}: one board built by the explicit construction (queens solve), "
                "not the first in lexicographic order")
        if as_json:
            head = {"n": n, "unique": False, "fixed": "", "limit": limit, "shown": 1}
            tail = {"seconds": time.perf_counter() - t0, "note": note}
            _echo_pieces(_json_with_columns(head, "solutions", solved.columns, tail, nested=True))
        else:
            if clikit.progress_wanted(False):
                clikit.warn(note)
            _echo_pieces(construct.text(solved.columns, fmt))
    return _plot_first(solved.columns, plot)


@queens.command()
@_n_option(f"1..{construct.MAX_SOLVE_N:,}")
@click.option("--format", "fmt", type=click.Choice(construct.FORMATS), default="columns", show_default=True,
              help="columns: one line, the column of each row's queen (as `show` prints them); rows: "
                   f"'.Q..' strings; board: unicode board (rows and board up to n = {construct.MAX_DRAW_N}).")
@click.option("--out", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write the board to FILE (in the --format) instead of printing it; checked first.")
@clikit.json_option
def solve(n: int, fmt: str, out: str | None, as_json: bool) -> None:
    """One board of n queens, built without search (an explicit construction) and verified.

    Any n from 1 to the limit but 2 and 3, which have no board: one line on stderr, exit
    status 1. Columns are 1-based. --out writes the board atomically (the old file stays
    until the new one is whole) and prints one line; --json prints {n, columns, verified,
    seconds}, with --out {n, out, verified, seconds}.
    """
    with clikit.library_call(resumable=False):  # also around the writing: Ctrl-C is one line
        n = construct.check_n(n)
        if not (as_json and out is None):
            construct.check_format(fmt, n)
        if out is not None:
            construct.check_out(out)
        try:
            solved = construct.solve(n)
        except construct.NoBoard as e:
            clikit.warn(str(e))
            sys.exit(clikit.EXIT_CHECK_FAILED)
        if out is None:
            if as_json:
                tail = {"verified": True, "seconds": solved.seconds}
                _echo_pieces(_json_with_columns({"n": n}, "columns", solved.columns, tail))
            else:
                _echo_pieces(construct.text(solved.columns, fmt))
            return
        try:
            construct.save(solved.columns, out, fmt)
        except OSError as e:
            clikit.warn(f"the board was not saved: {clikit.not_written(e, out)}")
            sys.exit(clikit.EXIT_CHECK_FAILED)
    if as_json:
        clikit.emit_json({"n": n, "out": str(out), "verified": True, "seconds": solved.seconds})
    else:
        click.echo(f"n={n}  verified  out={out}")


def _echo_pieces(pieces: Iterator[str]) -> None:
    for piece in pieces:
        click.echo(piece, nl=False)


def _json_with_columns(head: dict, key: str, cols, tail: dict, nested: bool = False) -> Iterator[str]:
    """One JSON object, as emit_json prints it, whose `key` holds the 1-based columns (in a
    list of one board when `nested`), streamed: 10^7 columns never become a Python list."""
    yield json.dumps(head, separators=(",", ":"))[:-1] + f',"{key}":' + ("[[" if nested else "[")
    yield from construct.joined(cols, ",")
    yield ("]]," if nested else "],") + json.dumps(tail, separators=(",", ":"))[1:] + "\n"


def render(board: Board, fmt: str) -> list[str]:
    """The lines of one board: 'board' (unicode, ♛ on ·) or 'rows' ('.Q..' strings)."""
    n = len(board)
    return [construct.row_line(c, n, fmt) for c in board]
