"""`puzzlesearch shuffle ...` and `puzzlesearch pancake ...`: solve and god.

Parses and prints; every check and limit is the API's (`shuffle.api`), whose ValueError
becomes the one stderr line (clikit.library_call).
"""

from __future__ import annotations

import re
from dataclasses import asdict

import click

from puzzlesearch import clikit
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.params import plural
from puzzlesearch.shuffle import api


def _block_options(f):
    f = click.option("--block", "-b", type=int, default=None, help="Cards moved at once (B).")(f)
    f = click.option("--deck", "-d", type=int, default=None, help="Cards in the deck (D).")(f)
    return click.option("-n", type=int, default=None, help="The book's case: 2n cards, blocks of n.")(f)


def _god_options(unit: str):
    def decorate(f):
        f = click.option("--show", type=int, default=10, show_default=True,
                         help=f"Farthest {unit} to list (0 to 10000).")(f)
        return clikit.plot_option("the distance histogram")(f)

    return decorate


def _parse_cards(text: str, what: str) -> list[int]:
    """Cards separated by spaces or commas (the only parsing the API does not do)."""
    try:
        return [int(c) for c in re.split(r"[\s,]+", text.strip()) if c]
    except ValueError:
        clikit.fail(f"{what} must be {'pancakes' if what == 'STACK' else 'cards'} (whole numbers) "
                    f"separated by spaces or commas, got {text!r}")


def _cards(deck) -> str:
    return " ".join(map(str, deck))


def _report_path(path: api.Path, p: api.PermPuzzle, head: dict, verbose: bool, as_json: bool,
                 what: str) -> int:
    if path.moves >= 0 and p.play(path.start, path.sequence) != path.goal:
        click.echo(f"check failed: the {what} found do not reach the goal", err=True)
        return clikit.EXIT_CHECK_FAILED
    if as_json:
        clikit.emit_json(head | {k: v for k, v in asdict(path).items() if k != "puzzle"})
        return clikit.EXIT_OK
    if path.moves < 0:
        click.echo(f"{p.name}: {_cards(path.goal)} cannot be reached from {_cards(path.start)}")
        return clikit.EXIT_OK
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
        click.echo(f"layers from the start: {', '.join(f'{c:,}' for c in path.layers)}; "
                   f"{path.states:,} {p.unit} stored, {path.seconds:.2f} s")
    return clikit.EXIT_OK


def _report_census(result: api.Census, head: dict, plot: str | None, verbose: bool, as_json: bool,
                   noun: str) -> int:
    """Print the census; then draw the plot. A plot that cannot be saved after all (it was
    checked before the work) costs the answer nothing: printed, then one line, exit 1."""
    if as_json:
        clikit.emit_json(head | {k: v for k, v in asdict(result).items() if k != "puzzle"})
    else:
        _print_census(result, verbose, noun)
    if plot is not None:
        return clikit.save_plot(lambda: api.plot(result, plot, noun), plot)
    return clikit.EXIT_OK


def _print_census(result: api.Census, verbose: bool, noun: str) -> None:
    half = result.indexed_as.endswith("/2")
    share = ("the even half of" if half else "all") if result.states == result.indexed else "of"
    whole = result.indexed_as.removesuffix("/2") if share == "the even half of" else result.indexed_as
    noun_1 = {"decks": "deck", "stacks": "stack"}.get(noun, noun)
    click.echo(f"{result.puzzle}: {result.states:,} {plural(result.states, noun_1, noun)} reachable "
               f"({share} {whole}), "
               f"diameter {result.diameter}")
    clikit.print_layers(result, noun, (_cards(deck) for deck in result.farthest), verbose)


@clikit.group()
def shuffle() -> None:
    """Block shuffles: move B consecutive cards (starting at position k) to the top.

    The book's puzzle: 2n cards 1..2n, blocks of n; fewest moves that reverse the deck.
    """


@shuffle.command()
@_block_options
@click.option("--start", default=None, help="Start deck, top first (default 1 2 ... D).")
@click.option("--goal", default=None, help="Goal deck, top first (default D ... 2 1).")
@click.option("--count-paths", is_flag=True, help="Also count the shortest move sequences.")
@clikit.run_options(workers=False, checkpoint=False, memory=True)
@clikit.verbose_option
@clikit.json_option
def solve(n, deck, block, start, goal, count_paths, verbose, as_json, run: RunOptions) -> int:
    """Fewest moves (bidirectional BFS) and the k of each move."""
    s = _parse_cards(start, "--start") if start is not None else None
    g = _parse_cards(goal, "--goal") if goal is not None else None
    with clikit.library_call(run, resumable=False):
        d, b = api.block_size(n, deck, block)
        path = api.solve(n, deck, block, start=s, goal=g, count_paths=count_paths, run=run)
    head = ({"n": n} if n is not None else {}) | {"deck": d, "block": b}
    return _report_path(path, api.block_shuffle_puzzle(d, b), head, verbose, as_json, "moves")


@shuffle.command("god")
@_block_options
@_god_options("decks")
@clikit.run_options(workers=True, checkpoint=True, store=True, memory=True,
                    workers_help="Threads (default: all cores).")
@clikit.verbose_option
@clikit.json_option
def shuffle_god(n, deck, block, plot, show, verbose, as_json, run: RunOptions) -> int:
    """Every deck reachable from the sorted one: distance histogram, diameter, farthest decks."""
    with clikit.library_call(run):
        d, b = api.block_size(n, deck, block)
        if plot is not None:
            api.check_plot(plot)
        result = api.god(n, deck, block, show=show, run=run)
    head = ({"n": n} if n is not None else {}) | {"deck": d, "block": b}
    return _report_census(result, head, plot, verbose, as_json, "decks")


@clikit.group()
def pancake() -> None:
    """Pancake flips: reverse the top k pancakes (k = 2..n); sorted = 1 on top."""


@pancake.command("solve")
@click.argument("stack", nargs=-1, required=True)
@click.option("--count-paths", is_flag=True, help="Also count the shortest flip sequences.")
@clikit.run_options(workers=False, checkpoint=False, memory=True)
@clikit.verbose_option
@clikit.json_option
def pancake_solve(stack, count_paths, verbose, as_json, run: RunOptions) -> int:
    """Fewest flips that sort STACK (the pancakes top first, e.g. 3 1 2 5 4)."""
    cards = _parse_cards(" ".join(stack), "STACK")
    with clikit.library_call(run, resumable=False):
        path = api.solve_pancakes(cards, count_paths, run=run)
    head = {"n": len(cards), "stack": list(path.start)}
    return _report_path(path, api.pancake_puzzle(len(cards)), head, verbose, as_json, "flips")


@pancake.command("god")
@click.option("-n", type=int, required=True, help="Pancakes.")
@click.option("--burnt", is_flag=True, help="Burnt pancakes: each has a burnt side, to end down; "
              "a flip turns the pancakes it moves over.")
@_god_options("stacks")
@clikit.run_options(workers=True, checkpoint=True, store=True, memory=True,
                    workers_help="Threads (default: all cores).")
@clikit.verbose_option
@clikit.json_option
def pancake_god(n, burnt, plot, show, verbose, as_json, run: RunOptions) -> int:
    """Every stack of n pancakes: the diameter is the pancake number p(n)."""
    with clikit.library_call(run):
        if plot is not None:
            api.check_plot(plot)
        result = api.pancake_god(n, show=show, burnt=burnt, run=run)
    return _report_census(result, {"n": n, "burnt": burnt}, plot, verbose, as_json, "stacks")


__all__ = ["pancake", "shuffle"]
