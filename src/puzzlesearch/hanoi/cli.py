"""`puzzlesearch hanoi ...`: solve, count, position, distance, verify.

Parses and prints; every check and limit is in the api module, whose ValueError is the
one line a refused command prints (clikit.library_call).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterable, Iterator

import click

from puzzlesearch import clikit
from puzzlesearch.engine.params import plural

from . import api
from .api import Move

#: the run options of the commands that may search all positions (--memory, --quiet)
bfs_options = clikit.run_options(workers=False, checkpoint=False, memory=True)


def _pegs_option(default: int):
    return click.option("--pegs", type=int, default=default, show_default=True, help="Pegs.")


@clikit.group()
def hanoi() -> None:
    """Tower of Hanoi: optimal moves, any number of pegs, any position.

    Positions are the peg letter of every disc, largest disc first: 'ACB' has disc 3
    on A, disc 2 on C and disc 1 (the smallest) on B.
    """
    sys.set_int_max_str_digits(0)  # counts and distances of big towers have more than 4300 digits


def _write_lines(lines: Iterable[str]) -> None:
    """Print many lines in big chunks (a million click.echo calls take seconds)."""
    chunk: list[str] = []
    for line in lines:
        chunk.append(line)
        if len(chunk) >= 1 << 14:
            click.echo("\n".join(chunk))
            chunk = []
    if chunk:
        click.echo("\n".join(chunk))


def _show(start: str, moves: Iterator[Move], pegs: int, animate: bool, delay: float) -> int:
    """Draw the pegs after each move; in place, with a pause, when animating on a terminal."""
    in_place = animate and sys.stdout.isatty()
    k = 0
    for k, (title, picture) in enumerate(api.frames(start, moves, pegs)):
        frame = [title] + picture
        if k == 0:
            click.echo("\n".join(frame))
        elif in_place:
            time.sleep(delay)
            # cursor up over the last frame, then rewrite every line cleared to its end
            click.echo(f"\x1b[{len(frame)}A" + "\n".join("\x1b[2K" + line for line in frame))
        else:
            click.echo("\n" + "\n".join(frame))
    return k


def _emit_solution_json(found: api.Distance, moves: Iterator[Move]) -> None:
    """The JSON object of `solve`, its sequence written as the moves come (no list of
    them all in memory: with --force it may be billions)."""
    head = json.dumps({"n": found.n, "pegs": found.pegs, "from": found.start, "to": found.goal,
                       "moves": found.moves}, separators=(",", ":"))
    click.echo(head[:-1] + ',"sequence":[', nl=False)
    first = True
    for chunk in _chunks(moves, 1 << 14):
        text = ",".join(f"[{d},{a},{b}]" for d, a, b in chunk)
        click.echo(text if first else "," + text, nl=False)
        first = False
    click.echo("]}")


def _chunks(items: Iterable, size: int) -> Iterator[list]:
    chunk: list = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


@hanoi.command()
@click.option("-n", type=int, default=None, help="Discs (a tower from peg A to the last peg).")
@_pegs_option(3)
@click.option("--from", "start", default=None, help="Start position, e.g. ACB (default: all on A).")
@click.option("--to", "goal", default=None, help="Target position (default: all on the last peg).")
@click.option("--show", is_flag=True, help="Draw the pegs after each move.")
@click.option("--animate", is_flag=True, help="Redraw the pegs in place on a terminal.")
@click.option("--delay", type=float, default=0.3, show_default=True, help="Seconds between frames.")
@click.option("--force", is_flag=True, help=f"Print more than {api.PRINT_LIMIT:,} moves.")
@clikit.json_option
@bfs_options
def solve(
    n: int | None, pegs: int, start: str | None, goal: str | None, show: bool, animate: bool,
    delay: float, force: bool, as_json: bool, run: clikit.RunOptions,
) -> None:
    """The optimal moves (one per line) and their number.

    Three pegs from any position to any position (largest-disc rule); four or more pegs
    as Frame-Stewart for towers, by breadth-first search between other positions.
    """
    if as_json and (show or animate):
        clikit.fail("--json cannot be combined with --show or --animate")
    with clikit.library_call(run, resumable=False):
        delay = api.check_delay(delay)
        found, moves = api.plan(n, pegs, start, goal, force=force, run=run)
        if as_json:
            _emit_solution_json(found, moves)
            return
        if show or animate:
            made = _show(found.start, moves, pegs, animate, delay)
        else:
            made = 0

            def lines() -> Iterator[str]:
                nonlocal made
                text = api.move_text
                for move in moves:
                    made += 1
                    yield text(move)

            _write_lines(lines())
        click.echo(f"{made} {plural(made, 'move')}")


@hanoi.command()
@click.option("-n", type=int, required=True, help="Discs.")
@_pegs_option(3)
@click.option("--all", "table", is_flag=True, help=f"Every count for 0..n discs (n <= {api.TABLE_LIMIT:,}).")
@clikit.json_option
def count(n: int, pegs: int, table: bool, as_json: bool) -> None:
    """The number of moves for a tower of n discs (2^n - 1; Frame-Stewart for 4+ pegs)."""
    with clikit.library_call():
        if table:
            values = api.counts(n, pegs)
            if as_json:
                clikit.emit_json({"n": n, "pegs": pegs, "moves": values[n], "table": values})
            else:
                _write_lines(f"{k} {v}" for k, v in enumerate(values))
            return
        moves = api.count(n, pegs)
    if as_json:
        clikit.emit_json({"n": n, "pegs": pegs, "moves": moves})
    else:
        click.echo(moves)


@hanoi.command()
@click.option("-n", type=int, required=True, help="Discs.")
@click.option("-m", "--move", "m", type=int, required=True, help="How many moves have been made.")
@_pegs_option(3)
@clikit.json_option
def position(n: int, m: int, pegs: int, as_json: bool) -> None:
    """Where the discs are after the first m moves of `solve -n N`, computed without replaying."""
    with clikit.library_call():
        where = api.position_after(n, m, pegs)
    if as_json:
        clikit.emit_json({"n": n, "pegs": pegs, "move": m, "position": where})
    else:
        click.echo(where)


@hanoi.command()
@click.option("--from", "start", required=True, help="Start position, e.g. ACB.")
@click.option("--to", "goal", required=True, help="Target position, e.g. CCC.")
@_pegs_option(3)
@clikit.json_option
@bfs_options
def distance(start: str, goal: str, pegs: int, as_json: bool, run: clikit.RunOptions) -> None:
    """Fewest moves between two positions (three pegs in O(n); more pegs by BFS)."""
    with clikit.library_call(run, resumable=False):
        found = api.distance(start, goal, pegs, run=run)
    if as_json:
        clikit.emit_json({"n": found.n, "pegs": found.pegs, "from": found.start, "to": found.goal,
                          "moves": found.moves, "method": found.method})
    else:
        click.echo(found.moves)


@hanoi.command()
@click.option("-n", type=int, required=True, help="Discs.")
@_pegs_option(4)
@click.option("--diameter", is_flag=True, help="Also the largest distance between any two positions.")
@clikit.json_option
@clikit.run_options(workers=True, checkpoint=True, memory=True,
                    workers_help="Threads of the search from the tower (default: all cores).")
def verify(n: int, pegs: int, diameter: bool, as_json: bool, run: clikit.RunOptions) -> int:
    """Breadth-first search over all positions: the tower's distance next to Frame-Stewart.

    Exit status 1 if they differ or the Frame-Stewart sequence does not replay.
    """
    with clikit.library_call(run, resumable=not diameter):
        v = api.verify(n, pegs, diameter, run=run)
    ok = v.agree and v.sequence_ok
    if as_json:
        clikit.emit_json(v)
    else:
        last = api.peg_letter(pegs - 1)
        reached = "all reached" if v.reached == v.positions else f"{v.reached:,} reached"
        click.echo(f"{pegs} pegs, {n} {plural(n, 'disc')}: {v.positions:,} positions, {reached} from the "
                   "tower on A")
        click.echo(f"tower A -> {last}: BFS {v.bfs_moves} {plural(v.bfs_moves, 'move')}, "
                   f"Frame-Stewart {v.frame_stewart}: "
                   + ("agree" if v.agree else "DISAGREE"))
        replayed = f"legal, ends on {last}" if v.sequence_ok else "FAILED"
        click.echo(f"Frame-Stewart sequence replayed: {replayed}")
        click.echo(f"farthest from the tower: {v.eccentricity} {plural(v.eccentricity, 'move')} "
                   f"({v.at_eccentricity:,} {plural(v.at_eccentricity, 'position')})")
        if v.diameter is not None:
            click.echo(f"diameter: {v.diameter} {plural(v.diameter, 'move')} (BFS from "
                       f"{v.diameter_sources:,} {plural(v.diameter_sources, 'position')}, "
                       "all others are these with pegs renamed)")
    if run.progress:
        click.echo(f"{v.seconds:.2f} s", err=True)
    if not ok:  # printed all the same: a disagreement is the verification's finding
        sys.stdout.flush()
        if not v.agree:
            clikit.warn(f"check failed: the breadth-first search and Frame-Stewart agree: BFS {v.bfs_moves} "
                        f"moves, Frame-Stewart {v.frame_stewart}")
        else:
            clikit.warn(f"check failed: the Frame-Stewart sequence's replay: its {v.frame_stewart} moves "
                        "do not take the tower across")
    return clikit.EXIT_OK if ok else clikit.EXIT_CHECK_FAILED
