"""`puzzlesearch hanoi ...`: solve, count, position, distance, verify (a thin layer over driver)."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator

import click

from puzzlesearch.cli import emit_json, fail

from . import driver, rules
from .draw import draw
from .rules import Move, peg_letter

PRINT_LIMIT = 1 << 20  # moves printed without --force
COUNT_LIMIT = 100_000  # discs for `count` (2^100000 has 30,103 digits)
TABLE_LIMIT = 10_000  # discs for `count --all`
POSITION_LIMIT = 10_000  # discs for `position`


def _json_flag(f):
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(f)


def _pegs_option(default: int | None, help: str):
    return click.option("--pegs", type=int, default=default, show_default=default is not None, help=help)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def hanoi() -> None:
    """Tower of Hanoi: optimal moves, any number of pegs, any position.

    Positions are the peg letter of every disc, largest disc first: 'ACB' has disc 3
    on A, disc 2 on C and disc 1 (the smallest) on B.
    """


def _check(n: int | None = None, pegs: int | None = None) -> None:
    if n is not None and n < 0:
        fail(f"-n must be at least 0, got {n}")
    if pegs is not None and not 3 <= pegs <= rules.MAX_PEGS:
        fail(f"--pegs must be between 3 and {rules.MAX_PEGS}, got {pegs}")


def _move_text(move: Move) -> str:
    disc, a, b = move
    return f"disc {disc}: {peg_letter(a)} -> {peg_letter(b)}"


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


def _show(start: rules.Position, moves: Iterator[Move], pegs: int, animate: bool, delay: float) -> int:
    """Draw the pegs after each move; in place, with a pause, when animating on a terminal."""
    in_place = animate and sys.stdout.isatty()
    position = start
    frame = ["start"] + draw(position, pegs)
    click.echo("\n".join(frame))
    k = 0
    for k, move in enumerate(moves, 1):
        position = rules.apply_move(position, move)
        frame = [f"move {k}: {_move_text(move)}"] + draw(position, pegs)
        if in_place:
            time.sleep(delay)
            # cursor up over the last frame, then rewrite every line cleared to its end
            click.echo(f"\x1b[{len(frame)}A" + "\n".join("\x1b[2K" + line for line in frame))
        else:
            click.echo("\n" + "\n".join(frame))
    return k


@hanoi.command()
@click.option("-n", type=int, default=None, help="Discs (a tower from peg A to the last peg).")
@_pegs_option(3, "Pegs.")
@click.option("--from", "start", default=None, help="Start position, e.g. ACB (default: all on A).")
@click.option("--to", "goal", default=None, help="Target position (default: all on the last peg).")
@click.option("--show", is_flag=True, help="Draw the pegs after each move.")
@click.option("--animate", is_flag=True, help="Redraw the pegs in place on a terminal.")
@click.option("--delay", type=float, default=0.3, show_default=True, help="Seconds between frames.")
@click.option("--force", is_flag=True, help=f"Print more than {PRINT_LIMIT:,} moves.")
@_json_flag
def solve(
    n: int | None, pegs: int, start: str | None, goal: str | None, show: bool, animate: bool,
    delay: float, force: bool, as_json: bool,
) -> None:
    """The optimal moves (one per line) and their number.

    Three pegs from any position to any position (largest-disc rule); four or more pegs
    as Frame-Stewart for towers, by breadth-first search between other positions.
    """
    _check(n, pegs)
    if as_json and (show or animate):
        fail("--json cannot be combined with --show or --animate")
    if delay < 0:
        fail(f"--delay must be at least 0, got {delay}")
    try:
        if start is None and goal is None:
            if n is None:
                fail("give the number of discs with -n, or positions with --from/--to")
            total = driver.count(n, pegs)
            first, last = rules.perfect(n, 0), rules.perfect(n, pegs - 1)
            if total > PRINT_LIMIT and not force:
                _too_long(total)
            moves = driver.moves(n, pegs)
        else:
            size = len(start if start is not None else goal)
            if n is not None and n != size:
                fail(f"-n {n} does not match the {size} discs of the position given")
            start = peg_letter(0) * size if start is None else start
            goal = peg_letter(pegs - 1) * size if goal is None else goal
            found, moves = driver.path(start, goal, pegs)  # moves are lazy: nothing generated yet
            total = found.moves
            if total > PRINT_LIMIT and not force:
                _too_long(total)
            first, last = rules.parse_position(start, pegs), rules.parse_position(goal, pegs)
            n = len(first)
    except ValueError as e:
        fail(str(e))
    fmt = rules.format_position
    if as_json:
        sequence = [list(m) for m in moves]
        emit_json({"n": n, "pegs": pegs, "from": fmt(first), "to": fmt(last), "moves": len(sequence),
                   "sequence": sequence})
        return
    if show or animate:
        made = _show(first, moves, pegs, animate, delay)
    else:
        made = 0

        def lines() -> Iterator[str]:
            nonlocal made
            for move in moves:
                made += 1
                yield _move_text(move)

        _write_lines(lines())
    click.echo(f"{made} moves")


def _too_long(total: int) -> None:
    fail(f"that is {total:,} moves, more than {PRINT_LIMIT:,} (2^20) to print; add --force to print them "
         "anyway, or use `hanoi count`")


@hanoi.command()
@click.option("-n", type=int, required=True, help="Discs.")
@_pegs_option(3, "Pegs.")
@click.option("--all", "table", is_flag=True, help=f"Every count for 0..n discs (n <= {TABLE_LIMIT:,}).")
@_json_flag
def count(n: int, pegs: int, table: bool, as_json: bool) -> None:
    """The number of moves for a tower of n discs (2^n - 1; Frame-Stewart for 4+ pegs)."""
    _check(n, pegs)
    limit = TABLE_LIMIT if table else COUNT_LIMIT
    if n > limit:
        fail(f"-n must be at most {limit:,}{' with --all' if table else ''}, got {n:,}")
    sys.set_int_max_str_digits(0)  # 2^n - 1 has more than the default 4300 digits for n > 14,284
    if table:
        values = driver.counts(n, pegs)
        if as_json:
            emit_json({"n": n, "pegs": pegs, "moves": values[n], "table": values})
        else:
            _write_lines(f"{k} {v}" for k, v in enumerate(values))
        return
    moves = driver.count(n, pegs)
    if as_json:
        emit_json({"n": n, "pegs": pegs, "moves": moves})
    else:
        click.echo(moves)


@hanoi.command()
@click.option("-n", type=int, required=True, help="Discs.")
@click.option("-m", "--move", "m", type=int, required=True, help="How many moves have been made.")
@_pegs_option(3, "Pegs.")
@_json_flag
def position(n: int, m: int, pegs: int, as_json: bool) -> None:
    """Where the discs are after the first m moves of `solve -n N`, computed without replaying."""
    _check(n, pegs)
    if n > POSITION_LIMIT:
        fail(f"-n must be at most {POSITION_LIMIT:,}, got {n:,}")
    try:
        where = driver.position_after(n, m, pegs)
    except ValueError as e:
        fail(str(e))
    if as_json:
        emit_json({"n": n, "pegs": pegs, "move": m, "position": where})
    else:
        click.echo(where)


@hanoi.command()
@click.option("--from", "start", required=True, help="Start position, e.g. ACB.")
@click.option("--to", "goal", required=True, help="Target position, e.g. CCC.")
@_pegs_option(3, "Pegs.")
@_json_flag
def distance(start: str, goal: str, pegs: int, as_json: bool) -> None:
    """Fewest moves between two positions (three pegs in O(n); more pegs by BFS)."""
    _check(None, pegs)
    try:
        found = driver.distance(start, goal, pegs)
    except ValueError as e:
        fail(str(e))
    if as_json:
        emit_json({"n": found.n, "pegs": found.pegs, "from": found.start, "to": found.goal,
                   "moves": found.moves, "method": found.method})
    else:
        click.echo(found.moves)


@hanoi.command()
@click.option("-n", type=int, required=True, help="Discs.")
@_pegs_option(4, "Pegs.")
@click.option("--diameter", is_flag=True, help="Also the largest distance between any two positions.")
@_json_flag
def verify(n: int, pegs: int, diameter: bool, as_json: bool) -> int:
    """Breadth-first search over all positions: the tower's distance next to Frame-Stewart.

    Exit status 1 if they differ or the Frame-Stewart sequence does not replay.
    """
    _check(n, pegs)
    try:
        v = driver.verify(n, pegs, diameter)
    except ValueError as e:
        fail(str(e))
    ok = v.agree and v.sequence_ok
    if as_json:
        emit_json(v)
    else:
        last = peg_letter(pegs - 1)
        reached = "all reached" if v.reached == v.positions else f"{v.reached:,} reached"
        click.echo(f"{pegs} pegs, {n} discs: {v.positions:,} positions, {reached} from the tower on A")
        click.echo(f"tower A -> {last}: BFS {v.bfs_moves} moves, Frame-Stewart {v.frame_stewart}: "
                   + ("agree" if v.agree else "DISAGREE"))
        replayed = f"legal, ends on {last}" if v.sequence_ok else "FAILED"
        click.echo(f"Frame-Stewart sequence replayed: {replayed}")
        click.echo(f"farthest from the tower: {v.eccentricity} moves ({v.at_eccentricity:,} positions)")
        if v.diameter is not None:
            click.echo(f"diameter: {v.diameter} moves (BFS from {v.diameter_sources:,} positions, "
                       "all others are these with pegs renamed)")
    if sys.stderr.isatty():
        click.echo(f"{v.seconds:.2f} s", err=True)
    return 0 if ok else 1
