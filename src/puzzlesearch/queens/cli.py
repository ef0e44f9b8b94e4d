"""`puzzlesearch queens ...`: count and show N-Queens solutions (a thin layer over driver).

Rows and columns on the command line are 1-based: ``--fixed 1:3`` puts a queen in row 1,
column 3, and the ``columns`` format prints the column of each row's queen.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from itertools import islice

import click

from puzzlesearch.cli import emit_json, fail, long_search

from . import driver
from .rules import Board

FORMATS = ("board", "rows", "columns")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def queens() -> None:
    """N-Queens: count, list, show and complete boards.

    n queens on an n x n board, no two in a row, column or diagonal. "unique" counts one
    solution per class under the 8 rotations and reflections of the board.
    """


def _n_option(f):
    return click.option("-n", "n", type=int, required=True, help=f"Board size (1..{driver.MAX_N}).")(f)


def _fixed_option(f):
    return click.option(
        "--fixed", default=None, metavar="R:C,...", help="Given queens, 1-based row:column, e.g. 1:3,4:7."
    )(f)


def _check_n(n: int) -> None:
    try:
        driver.check_n(n)
    except ValueError as e:
        fail(str(e))


def _check_fixed(fixed: str | None, n: int) -> tuple[list[tuple[int, int]], str]:
    """(given queens as 0-based squares, note if two of them attack each other); bad text -> exit 2."""
    if fixed is None:
        return [], ""
    try:
        pairs = driver.parse_fixed(fixed, n)
    except ValueError as e:
        fail(str(e))
    return pairs, driver.conflict(pairs)


@queens.command()
@_n_option
@_fixed_option
@click.option("--workers", type=int, default=None, help="Local processes (default: all cores; 1 if n <= 12).")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT", help="Run on an existing Dask cluster.")
@click.option("--checkpoint", default=None, metavar="FILE", help="SQLite file to resume an interrupted run.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@click.option("-v", "--verbose", is_flag=True, help="Also print the method, tasks and time.")
def count(
    n: int,
    fixed: str | None,
    workers: int | None,
    scheduler: str | None,
    checkpoint: str | None,
    as_json: bool,
    quiet: bool,
    verbose: bool,
) -> None:
    """Count all solutions and the unique ones (or the completions of --fixed queens).

    With --fixed, "unique" counts the symmetry classes that hold at least one completion.
    """
    _check_n(n)
    if workers is not None and workers < 1:
        fail(f"--workers must be at least 1, got {workers}")
    _check_fixed(fixed, n)
    with long_search(checkpoint):
        result = driver.count(
            n,
            fixed,
            workers=workers,
            scheduler=scheduler,
            checkpoint=checkpoint,
            progress=not (quiet or as_json),
        )
    if as_json:
        emit_json(result)
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
        kernels = f"  kernels={r.kernels}" if r.method == "corner" else ""
        click.echo(f"method={r.method}{kernels}  tasks={r.tasks}{nodes}  seconds={r.seconds:.3f}")


@queens.command()
@_n_option
@_fixed_option
@click.option("--limit", type=int, default=10, show_default=True, help="Show at most this many (0: all).")
@click.option("--unique", is_flag=True, help="One solution per symmetry class (its smallest board).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="board", show_default=True,
              help="board: unicode board; rows: '.Q..' strings; columns: the column of each row's queen.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (columns 1-based).")
def show(n: int, fixed: str | None, limit: int, unique: bool, fmt: str, as_json: bool) -> None:
    """List solutions in lexicographic order (of their columns), lazily."""
    _check_n(n)
    if limit < 0:
        fail(f"--limit must be at least 0 (0 shows all), got {limit}")
    given, note = _check_fixed(fixed, n)
    t0 = time.perf_counter()
    boards: Iterator[Board] = iter(()) if note else driver.solutions(n, unique=unique, fixed=dict(given))
    if limit:
        boards = islice(boards, limit)
    if note:
        click.echo(f"puzzlesearch: note: {note}: no completions", err=True)
    if as_json:
        listed = [[c + 1 for c in b] for b in boards]
        emit_json({
            "n": n,
            "unique": unique,
            "fixed": driver.format_fixed(given),
            "limit": limit,
            "shown": len(listed),
            "solutions": listed,
            "seconds": time.perf_counter() - t0,
            "note": note,
        })
        return
    first = True
    for b in boards:
        if fmt == "columns":
            click.echo(" ".join(str(c + 1) for c in b))
            continue
        if not first:
            click.echo()
        first = False
        click.echo("\n".join(render(b, fmt)))


def render(board: Board, fmt: str) -> list[str]:
    """The lines of one board: 'board' (unicode, ♛ on ·) or 'rows' ('.Q..' strings)."""
    n = len(board)
    if fmt == "rows":
        return ["." * c + "Q" + "." * (n - 1 - c) for c in board]
    return [" ".join("♛" if col == c else "·" for col in range(n)) for c in board]
