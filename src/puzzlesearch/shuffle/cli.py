"""`puzzlesearch shuffle ...` and `puzzlesearch pancake ...`: solve and god (a thin layer)."""

from __future__ import annotations

import re
import sys
from dataclasses import asdict
from math import factorial
from typing import TYPE_CHECKING

import click

from puzzlesearch.cli import emit_json, fail
from puzzlesearch.shuffle import bidir, puzzle, rules
from puzzlesearch.shuffle.memory import gib

if TYPE_CHECKING:
    from puzzlesearch.shuffle.fullbfs import Census


def _json_flag(f):
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(f)


def _quiet_option(f):
    return click.option("--quiet", "-q", is_flag=True, help="No progress on stderr.")(f)


def _progress(quiet: bool):
    """Layer sizes on stderr as they are found, only when it is a terminal."""
    if quiet or not sys.stderr.isatty():
        return None
    return lambda d, decks: click.echo(f"layer {d}: {decks:,} decks", err=True)


def _memory_option(f):
    return click.option("--memory", type=float, default=None, metavar="GIB",
                        help="Most memory to use, in GiB (default: what is available).")(f)


def _block_options(f):
    f = click.option("--block", "-b", type=int, default=None, help="Cards moved at once (B).")(f)
    f = click.option("--deck", "-d", type=int, default=None, help="Cards in the deck (D).")(f)
    return click.option("-n", type=int, default=None, help="The book's case: 2n cards, blocks of n.")(f)


def _block_puzzle(n: int | None, deck: int | None, block: int | None) -> tuple[puzzle.PermPuzzle, dict]:
    if n is not None and (deck is not None or block is not None):
        fail("give either -n or --deck/--block, not both")
    if n is None and (deck is None or block is None):
        fail("give -n N (2N cards, blocks of N) or both --deck D and --block B")
    if n is not None:
        if n < 1:
            fail(f"-n must be at least 1, got {n}")
        deck, block = 2 * n, n
    if deck < 2:
        fail(f"--deck must be at least 2, got {deck}")
    if not 1 <= block < deck:
        fail(f"--block must be between 1 and deck - 1 = {deck - 1}, got {block}")
    return puzzle.block_shuffle_puzzle(deck, block), ({"n": n} if n is not None else {}) | {
        "deck": deck, "block": block}


def _budget(memory: float | None) -> int | None:
    if memory is not None and memory <= 0:
        fail(f"--memory must be positive, got {memory}")
    return None if memory is None else int(memory * 2**30)


def _parse_deck(text: str, size: int, what: str) -> tuple[int, ...]:
    try:
        cards = [int(c) for c in re.split(r"[\s,]+", text.strip()) if c]
    except ValueError:
        fail(f"--{what} must be cards separated by spaces or commas, got {text!r}")
    try:
        return puzzle.check_deck(cards, size, what)
    except ValueError as e:
        fail(str(e))


def _run(fn, *args, **kwargs):
    """Call the search; its refusals (memory, limits) become one-line usage errors."""
    try:
        return fn(*args, **kwargs)
    except (ValueError, MemoryError, OverflowError) as e:
        fail(str(e))


def _cards(deck) -> str:
    return " ".join(map(str, deck))


def _report_path(path: bidir.Path, p: puzzle.PermPuzzle, head: dict, verbose: bool, as_json: bool,
                 what: str) -> int:
    if path.moves >= 0 and p.play(path.start, path.sequence) != path.goal:
        click.echo(f"check failed: the {what} found do not reach the goal", err=True)
        return 1
    if as_json:
        emit_json(head | {k: v for k, v in asdict(path).items() if k != "puzzle"})
        return 0
    if path.moves < 0:
        click.echo(f"{p.name}: {_cards(path.goal)} cannot be reached from {_cards(path.start)}")
        return 0
    click.echo(f"{p.name}: {path.moves} {what if path.moves != 1 else what[:-1]}")
    click.echo(f"k: {_cards(path.sequence) or '(none)'}")
    if path.paths is not None:
        click.echo(f"shortest sequences: {path.paths:,}")
    if verbose:
        deck = path.start
        click.echo(f"      {_cards(deck)}")
        index = {k: j for j, k in enumerate(p.labels)}
        for k in path.sequence:
            deck = p.apply(deck, index[k])
            click.echo(f"k={k:<3} {_cards(deck)}")
        noun = "stacks" if what == "flips" else "decks"
        click.echo(f"layers from the start: {', '.join(f'{c:,}' for c in path.layers)}; "
                   f"{path.states:,} {noun} stored, {path.seconds:.2f} s")
    return 0


def _plot(result: Census, filename: str) -> None:
    try:
        import matplotlib
    except ImportError:
        fail("--plot needs matplotlib: pip install 'puzzlesearch[plot]'")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.bar(range(len(result.histogram)), result.histogram, color="#4477aa")
    ax.set_yscale("log")
    ax.set_xlabel("moves from the sorted start")
    ax.set_ylabel("decks")
    ax.set_title(f"{result.puzzle}: {result.states:,} decks, diameter {result.diameter}")
    fig.tight_layout()
    try:
        fig.savefig(filename)
    except (OSError, ValueError) as e:
        fail(f"cannot write the plot to {filename}: {e}")
    finally:
        plt.close(fig)


def _report_census(result: Census, head: dict, plot: str | None, verbose: bool, as_json: bool,
                   noun: str = "decks") -> int:
    if plot:
        _plot(result, plot)
    if as_json:
        emit_json(head | {k: v for k, v in asdict(result).items() if k != "puzzle"})
        return 0
    size = len(result.start)
    every = factorial(size)
    share = {every: f"all {size}!", every // 2: f"the even half of {size}!"}.get(result.states, f"of {size}!")
    click.echo(f"{result.puzzle}: {result.states:,} {noun} reachable ({share}), diameter {result.diameter}")
    click.echo(f"distance  {noun}")
    for d, c in enumerate(result.histogram):
        click.echo(f"{d:8}  {c:,}")
    shown = len(result.farthest)
    first = f", first {shown}" if shown < result.farthest_count else ""
    click.echo(f"farthest ({result.farthest_count:,}{first}):")
    for deck in result.farthest:
        click.echo(f"  {_cards(deck)}")
    if verbose:
        click.echo(f"{result.indexed:,} {noun} indexed in {gib(result.bytes)}; "
                   f"layers {result.directions} (t top-down, b bottom-up); {result.seconds:.2f} s")
    return 0


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def shuffle() -> None:
    """Block shuffles: move B consecutive cards (starting at position k) to the top.

    The book's puzzle: 2n cards 1..2n, blocks of n; fewest moves that reverse the deck.
    """


@shuffle.command()
@_block_options
@click.option("--start", default=None, help="Start deck, top first (default 1 2 ... D).")
@click.option("--goal", default=None, help="Goal deck, top first (default D ... 2 1).")
@click.option("--count-paths", is_flag=True, help="Also count the shortest move sequences.")
@_memory_option
@_quiet_option
@click.option("-v", "--verbose", is_flag=True, help="Show each deck along the way.")
@_json_flag
def solve(n, deck, block, start, goal, count_paths, memory, quiet, verbose, as_json) -> int:
    """Fewest moves (bidirectional BFS) and the k of each move."""
    p, head = _block_puzzle(n, deck, block)
    if p.size > puzzle.MAX_PACKED:
        fail(f"solve handles decks of at most {puzzle.MAX_PACKED} cards, got {p.size}")
    s = _parse_deck(start, p.size, "start") if start is not None else tuple(range(1, p.size + 1))
    g = _parse_deck(goal, p.size, "goal") if goal is not None else tuple(range(p.size, 0, -1))
    path = _run(bidir.shortest_path, p, s, g, count_paths, _budget(memory), _progress(quiet))
    return _report_path(path, p, head, verbose, as_json, "moves")


@shuffle.command("god")
@_block_options
@click.option("--plot", default=None, metavar="FILE.png", help="Draw the distance histogram (matplotlib).")
@click.option("--show", type=click.IntRange(0, 10_000), default=10, show_default=True,
              help="Farthest decks to list.")
@_memory_option
@_quiet_option
@click.option("-v", "--verbose", is_flag=True, help="Memory, search directions and time.")
@_json_flag
def shuffle_god(n, deck, block, plot, show, memory, quiet, verbose, as_json) -> int:
    """Every deck reachable from the sorted one: distance histogram, diameter, farthest decks."""
    from puzzlesearch.shuffle import fullbfs  # numba: only for god mode

    p, head = _block_puzzle(n, deck, block)
    result = _run(fullbfs.census, p, show=show, memory=_budget(memory), progress=_progress(quiet))
    return _report_census(result, head, plot, verbose, as_json)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def pancake() -> None:
    """Pancake flips: reverse the top k pancakes (k = 2..n); sorted = 1 on top."""


@pancake.command("solve")
@click.argument("stack", nargs=-1, required=True)
@click.option("--count-paths", is_flag=True, help="Also count the shortest flip sequences.")
@_memory_option
@_quiet_option
@click.option("-v", "--verbose", is_flag=True, help="Show the stack after each flip.")
@_json_flag
def pancake_solve(stack, count_paths, memory, quiet, verbose, as_json) -> int:
    """Fewest flips that sort STACK (the pancakes top first, e.g. 3 1 2 5 4)."""
    cards = _parse_deck(" ".join(stack), len(stack), "stack")
    if len(cards) > puzzle.MAX_PACKED:
        fail(f"solve handles stacks of at most {puzzle.MAX_PACKED} pancakes, got {len(cards)}")
    p = puzzle.pancake_puzzle(len(cards))
    path = _run(bidir.shortest_path, p, cards, tuple(sorted(cards)), count_paths, _budget(memory),
                _progress(quiet))
    return _report_path(path, p, {"n": len(cards), "stack": list(cards)}, verbose, as_json, "flips")


@pancake.command("god")
@click.option("-n", type=int, required=True, help="Pancakes.")
@click.option("--plot", default=None, metavar="FILE.png", help="Draw the distance histogram (matplotlib).")
@click.option("--show", type=click.IntRange(0, 10_000), default=10, show_default=True,
              help="Farthest stacks to list.")
@_memory_option
@_quiet_option
@click.option("-v", "--verbose", is_flag=True, help="Memory, search directions and time.")
@_json_flag
def pancake_god(n, plot, show, memory, quiet, verbose, as_json) -> int:
    """Every stack of n pancakes: the diameter is the pancake number p(n)."""
    if n < 1:
        fail(f"-n must be at least 1, got {n}")
    from puzzlesearch.shuffle import fullbfs  # numba: only for god mode

    result = _run(fullbfs.census, puzzle.pancake_puzzle(n), show=show, memory=_budget(memory),
                  progress=_progress(quiet))
    return _report_census(result, {"n": n}, plot, verbose, as_json, "stacks")


__all__ = ["pancake", "rules", "shuffle"]
