"""`puzzlesearch queens ...`: count and show N-Queens solutions (parses, calls api, prints).

Rows and columns on the command line are 1-based: ``--fixed 1:3`` puts a queen in row 1,
column 3, and the ``columns`` format prints the column of each row's queen. Every check
of the arguments is the API's (a ValueError with the words printed here).
"""

from __future__ import annotations

import time

import click

from puzzlesearch import clikit
from puzzlesearch.engine.options import RunOptions

from . import api
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
@clikit.run_options(workers_help="Local processes (default: all cores; 1 if n <= 12).")
@clikit.json_option
@clikit.verbose_option
def count(n: int, fixed: str | None, run: RunOptions, as_json: bool, verbose: bool) -> None:
    """Count all solutions and the unique ones (or the completions of --fixed queens).

    With --fixed, "unique" counts the symmetry classes that hold at least one completion.
    -v also prints the method, the kernels, the tasks and the time.
    """
    if as_json:
        run = run.but(progress=False)
    with clikit.library_call(run):
        result = api.count(n, fixed, run=run)
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
        kernels = f"  kernels={r.kernels}" if r.method == "corner" else ""
        click.echo(f"method={r.method}{kernels}  tasks={r.tasks}{nodes}  seconds={r.seconds:.3f}")


@queens.command()
@_n_option(f"1..{api.MAX_N}")
@_fixed_option
@click.option("--limit", type=int, default=10, show_default=True, help="Show at most this many (0: all).")
@click.option("--unique", is_flag=True, help="One solution per symmetry class (its smallest board).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="board", show_default=True,
              help="board: unicode board; rows: '.Q..' strings; columns: the column of each row's queen.")
@clikit.json_option
def show(n: int, fixed: str | None, limit: int, unique: bool, fmt: str, as_json: bool) -> None:
    """List solutions in lexicographic order (of their columns), lazily.

    When there is none, one line says so: "no solutions". --json lists columns 1-based.
    """
    t0 = time.perf_counter()
    with clikit.library_call(resumable=False):
        given = api.givens(n, fixed)
        boards = api.solutions(n, unique=unique, fixed=given, limit=limit)
        if as_json:
            listed = [[c + 1 for c in b] for b in boards]
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
            return
        shown = 0
        for b in boards:
            if fmt == "columns":
                click.echo(" ".join(str(c + 1) for c in b))
            else:
                if shown:
                    click.echo()
                click.echo("\n".join(render(b, fmt)))
            shown += 1
    if not shown:
        click.echo(f"no solutions ({given.note})" if given.note else "no solutions")


def render(board: Board, fmt: str) -> list[str]:
    """The lines of one board: 'board' (unicode, ♛ on ·) or 'rows' ('.Q..' strings)."""
    n = len(board)
    if fmt == "rows":
        return ["." * c + "Q" + "." * (n - 1 - c) for c in board]
    return [" ".join("♛" if col == c else "·" for col in range(n)) for c in board]
