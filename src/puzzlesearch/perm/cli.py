"""`puzzlesearch perm ...`: list, info, god and solve for a puzzle described in a file.

Parses and prints; every check and limit is the API's (`perm.api`), whose ValueError
becomes the one stderr line (clikit.library_call).
"""

from __future__ import annotations

from dataclasses import asdict
from fractions import Fraction

import click

from puzzlesearch import clikit
from puzzlesearch.engine.memory import gib
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.params import number_text, plural, short_numbers
from puzzlesearch.perm import api


def _load(file: str) -> api.Puzzle:
    with clikit.library_call():
        return api.Puzzle.from_file(file)


@clikit.group()
def perm() -> None:
    """Permutation puzzles described in a file: states, God's number, optimal solutions.

    A file lists sets of named positions (with the twists of their pieces) and moves in
    cycle notation (TOML); ksolve's and twsearch's .def and .tws files and cubing.js's
    KPuzzle .json are read too. See docs/perm.md or an example (puzzlesearch perm list).
    """


@perm.command("list")
@clikit.json_option
def list_examples(as_json: bool) -> int:
    """The example puzzle files shipped with puzzlesearch."""
    with clikit.library_call():
        found = api.examples()
    if as_json:
        clikit.emit_json({"examples": [asdict(e) for e in found]})
        return clikit.EXIT_OK
    width = max(len(e.name) for e in found)
    for e in found:
        click.echo(f"{e.name:<{width}}  {e.title}")
    return clikit.EXIT_OK


@perm.command()
@click.argument("file")
@clikit.run_options(workers=False, checkpoint=False, store=True, memory=True)
@clikit.json_option
def info(file: str, as_json: bool, run: RunOptions) -> int:
    """Count the states exactly (Schreier-Sims) and say why they are not every arrangement.

    Also the memory a full search (perm god) would need; nothing is searched. FILE is a
    puzzle file (.toml, .tws, .def, .json) or the name of an example (puzzlesearch perm list).
    """
    puzzle = _load(file)
    with clikit.library_call():
        result = puzzle.info(run=run)
    if as_json:
        clikit.emit_json(result)
        return clikit.EXIT_OK
    click.echo(f"{result.puzzle}: {number_text(result.states)} {plural(result.states, 'state')}")
    if result.description:
        click.echo(f"  {result.description}")
    click.echo(f"pieces     {'; '.join(result.pieces)}")
    click.echo(f"moves      {' '.join(result.moves)} ({len(result.moves)}; metric \"{result.metric}\")")
    click.echo(f"solved     {result.solved}")
    if result.every_arrangement:
        click.echo(f"reachable  every one of the {number_text(result.arrangements)} arrangements of the "
                   "pieces")
    else:
        share = _share(result.states, result.arrangements)
        click.echo(f"reachable  {number_text(result.states)} of the {number_text(result.arrangements)} "
                   f"arrangements ({share}):")
        for reason in result.constraints:
            click.echo(f"           {short_numbers(reason)}")
    click.echo(f"counted    {short_numbers(result.counted_by)}")
    kind = "stabiliser chain tables" if result.index == "group" else "move tables"
    tables = f" and {gib(result.tables)} of {kind}" if result.tables else ""
    elements = " (the group's elements)" if result.index == "group" else ""
    click.echo(f"god        a full search indexes {number_text(result.indexed)} states{elements}, 2 bits "
               f"each: {gib(result.memory - result.tables)}{tables}")
    if result.source:
        click.echo(f"source     {result.source}")
    return clikit.EXIT_OK


def _share(states: int, arrangements: int) -> str:
    """"1 in 6", "2/3" or "0.0417": from exact integers, so that no count is too large to print."""
    if arrangements % states == 0:
        return f"1 in {number_text(arrangements // states)}"
    share = Fraction(states, arrangements)
    if share.denominator < 1000:  # exact: "2/3"
        return f"{share.numerator}/{share.denominator}"
    if share > Fraction(1, 10**300):
        return f"{float(share):.3g}"
    return f"about 1 in 10^{len(str(arrangements // states)) - 1}"


@perm.command()
@click.argument("file")
@click.option("--show", type=int, default=10, show_default=True, help="Farthest states to list (0 to 10000).")
@clikit.plot_option("the distance histogram")
@clikit.run_options(workers=True, checkpoint=True, store=True, memory=True,
                    workers_help="Threads (default: all cores).")
@clikit.verbose_option
@clikit.json_option
def god(file: str, show: int, plot: str | None, verbose: bool, as_json: bool, run: RunOptions) -> int:
    """Every state by its distance from the solved puzzle: histogram, God's number, farthest states.

    The whole state space on the breadth-first engine, 2 bits a state, on all cores. FILE is
    a puzzle file (.toml, .tws, .def, .json) or the name of an example (puzzlesearch perm list).
    """
    puzzle = _load(file)
    with clikit.library_call(run):
        if plot is not None:
            api.check_plot(plot)
        result = clikit.answer(puzzle.god, show, run=run)
    if as_json:
        clikit.emit_json({"file": file} | asdict(result))
    else:
        _print_census(result, verbose)
    if plot is not None:
        return clikit.save_plot(lambda: api.plot(result, plot), plot)
    return clikit.EXIT_OK


def _print_census(result: api.Census, verbose: bool) -> None:
    share = "all" if result.states == result.indexed else "of"
    click.echo(f"{result.puzzle}: {result.states:,} {plural(result.states, 'state')} reachable "
               f"({share} {result.indexed:,} indexed), "
               f"God's number {result.diameter}")
    clikit.print_layers(result, "states", result.farthest, verbose)


@perm.command()
@click.argument("file")
@click.argument("state", nargs=-1)
@click.option("--scramble", default=None, metavar="MOVES",
              help="Solve the state these moves make from the solved puzzle, e.g. \"R U R' F2\".")
@click.option("--states", "most", type=int, default=api.MAX_SOLVE_STATES, show_default=True, metavar="N",
              help="Most states the bidirectional search stores before it gives up.")
@clikit.run_options(workers=False, checkpoint=True, store=True, memory=True)
@clikit.verbose_option
@clikit.json_option
def solve(file: str, state: tuple[str, ...], scramble: str | None, most: int, verbose: bool, as_json: bool,
          run: RunOptions) -> int:
    """Fewest moves from STATE to the solved puzzle (bidirectional search), move by move.

    With --checkpoint FILE of a finished `perm god FILE --checkpoint FILE`, the moves are
    read down its table of distances instead, in one pass.

    STATE names the piece at each position, in the file's order of positions (perm info
    shows the solved state): a piece is its home position (or its colour), with +t when
    it is turned by t, e.g. "ufr+1 ufl ubl ubr dfr dfl+2 dbl dbr". Or give --scramble.
    A state the moves cannot reach is answered with the reason, and exit status 1. FILE is
    a puzzle file (.toml, .tws, .def, .json) or the name of an example (puzzlesearch perm list).
    """
    puzzle = _load(file)
    if state and scramble is not None:
        clikit.fail("give STATE or --scramble, not both")
    if not state and scramble is None:
        clikit.fail("give the STATE to solve (a piece for each position) or --scramble MOVES")
    with clikit.library_call(run, resumable=False):
        result = puzzle.solve(" ".join(state) if state else None, scramble=scramble, states=most, run=run)
    if result.moves >= 0 and puzzle.play(" ".join(result.sequence), result.start) != puzzle.solved:
        click.echo("check failed: the moves found do not solve the puzzle", err=True)
        return clikit.EXIT_CHECK_FAILED
    if as_json:
        clikit.emit_json({"file": file} | asdict(result))
        return clikit.EXIT_OK if result.moves >= 0 else clikit.EXIT_CHECK_FAILED
    if result.moves < 0:
        click.echo(f"{result.puzzle}: {result.start} cannot be reached: {result.reason}")
        return clikit.EXIT_CHECK_FAILED
    click.echo(f"{result.puzzle}: {result.moves} {plural(result.moves, 'move')}")
    click.echo(" ".join(result.sequence) or "(none: it is solved)")
    width = max([5, *(len(m) for m in result.sequence)])
    click.echo(f"{'start':<{width}}  {result.start}")
    for m, s in zip(result.sequence, result.path, strict=True):
        click.echo(f"{m:<{width}}  {s}")
    if verbose:
        how = (f"read down the table in {run.checkpoint}" if result.method == "table" else
               f"bidirectional search, {result.searched:,} states stored")
        click.echo(f"{how}; {result.seconds:.2f} s" + (f" ({result.note})" if result.note else ""))
    return clikit.EXIT_OK


@perm.command()
@click.argument("file")
@click.option("--to", "to", required=True, metavar="FORMAT",
              help=f"The format to write: {', '.join(api.FORMATS)} "
                   "(TOML, twsearch/ksolve, KPuzzle JSON).")
@click.option("--out", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write to FILE (whole, checked first) instead of printing.")
@clikit.json_option
def convert(file: str, to: str, out: str | None, as_json: bool) -> int:
    """Write the puzzle in another format: toml, tws (twsearch and ksolve) or json (KPuzzle).

    What is written is read back and must be the same puzzle (the same moves, as
    permutations and twists, and the same solved state); a puzzle a format cannot hold (a
    quarter-turn metric in tws or json, which make every power of a move a move) is
    refused in one line. FILE is a puzzle file (.toml, .tws, .def, .json) or the name of an
    example (puzzlesearch perm list).
    """
    with clikit.library_call(resumable=False):
        api.check_convert(to, out)
    puzzle = _load(file)
    with clikit.library_call(resumable=False):
        written = puzzle.convert(to, out)
    if as_json:
        clikit.emit_json({"file": file, "puzzle": puzzle.name, "to": to, "out": out,
                          "text": written if out is None else None})
    elif out is None:
        click.echo(written, nl=False)
    else:
        click.echo(f"{puzzle.name}: written as {to} to {out}")
    return clikit.EXIT_OK


__all__ = ["perm"]
