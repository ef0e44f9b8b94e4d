"""`puzzlesearch topswops ...`: solve, optimal, play."""

from __future__ import annotations

import sys

import click

from puzzlesearch.cli import emit_json, fail, long_search

MODES = ("backward", "forward", "both")
#: below this n a search takes well under a second: no worker processes by default
PARALLEL_FROM = 13


def _limits(n: int, mode: str) -> None:
    from puzzlesearch.topswops.backward import MAX_N as BACK
    from puzzlesearch.topswops.forward import MAX_N as FWD

    if n < 1:
        fail(f"n must be at least 1, got {n}")
    if mode in ("backward", "both") and n > BACK:
        fail(f"--mode {mode} supports n <= {BACK} (the backward search packs a deck in 64 bits), "
             f"got n={n}; --mode forward goes to n = {FWD}")
    if n > FWD:
        fail(f"--mode forward supports n <= {FWD} (decks are packed 4 bits a card), got n={n}")


def _deck(cards: list[int], free: str = "_") -> str:
    return " ".join(str(c) if c else free for c in cards)


def _show_progress(quiet: bool) -> bool:
    """Progress goes to stderr, only on a terminal (--json output is on stdout anyway)."""
    return not quiet and sys.stderr.isatty()


search_options = [
    click.option("--workers", type=click.IntRange(min=1), default=None,
                 help="Worker processes for the forward search "
                      f"(default: all cores for n >= {PARALLEL_FROM}, else 1)."),
    click.option("--scheduler", metavar="tcp://HOST:PORT", default=None,
                 help="Run the forward subproblems on an existing Dask cluster."),
    click.option("--checkpoint", type=click.Path(dir_okay=False), default=None,
                 help="SQLite file recording finished subproblems; run again with it to resume."),
    click.option("--store", type=click.Path(dir_okay=False), default=None,
                 help="Results store of computed f(m) (default: in the user data directory)."),
    click.option("-q", "--quiet", is_flag=True, help="No progress on stderr."),
    click.option("--json", "as_json", is_flag=True, help="Print one JSON object."),
]


def with_search_options(f):
    for option in reversed(search_options):
        f = option(f)
    return f


def _workers(n: int, workers: int | None, scheduler: str | None, checkpoint: str | None) -> int | None:
    if workers is not None:
        return workers
    if scheduler is not None or checkpoint is not None or n >= PARALLEL_FROM:
        return None  # all cores
    return 1


@click.group()
def topswops() -> None:
    """Conway's topswops: reverse the top k cards, k the top card, until 1 is on top."""


@topswops.command()
@click.option("-n", "n", type=int, default=10, show_default=True, help="Number of cards.")
@click.option("--mode", type=click.Choice(MODES), default="both", show_default=True,
              help="Backward search, forward search, or both cross-checked.")
@click.option("-v", "--verbose", is_flag=True, help="Record decks, nodes per level and time.")
@with_search_options
def solve(n, mode, verbose, workers, scheduler, checkpoint, store, quiet, as_json):
    """f(n): the most steps any deck of n cards makes. Exits 1 if the two searches disagree."""
    from puzzlesearch import topswops as api

    _limits(n, mode)
    with long_search(checkpoint):
        s = api.solve(n, mode, store=store, workers=_workers(n, workers, scheduler, checkpoint),
                      scheduler=scheduler, checkpoint=checkpoint, progress=_show_progress(quiet))
    if as_json:
        out = {"n": n}
        for m in ("backward", "forward"):
            if m in s.details:
                out[m] = getattr(s, m)
        if s.match is not None:
            out["match"] = s.match
        out.update(decks=[list(d) for d in s.decks], nodes=s.nodes, seconds=s.seconds)
        if verbose:
            out["nodes_per_level"] = {m: r.nodes_per_level for m, r in s.details.items()}
        emit_json(out)
    else:
        if verbose:
            _verbose(s)
        parts = [f"n={n}"] + [f"{m}={getattr(s, m)}" for m in ("backward", "forward") if m in s.details]
        if s.match is not None:
            parts.append(f"match={str(s.match).lower()}")
        click.echo("  ".join(parts))
    if s.match is False:
        sys.exit(1)


def _verbose(s) -> None:
    b = s.details.get("backward")
    if b is not None:
        click.echo("backward: record decks (_ = any card not yet used):")
        for depth, deck in b.records:
            click.echo(f"  {depth:4d}: {_deck(deck)}")
        click.echo("backward: nodes per level: " + " ".join(map(str, b.nodes_per_level)))
        click.echo(f"backward: {b.nodes} nodes in {b.seconds:.3f} s")
    f = s.details.get("forward")
    if f is not None:
        click.echo(f"forward: bounds f(0..{s.n - 1}) = {' '.join(map(str, f.bounds))}; "
                   f"first target {f.first_target}")
        click.echo("forward: nodes per level: " + " ".join(map(str, f.nodes_per_level)))
        click.echo(f"forward: {f.nodes} nodes in {f.seconds:.3f} s, {f.subproblems} subproblem(s)")
    for deck in s.decks:
        click.echo(f"deck: {_deck(deck)}")


@topswops.command()
@click.option("-n", "n", type=int, required=True, help="Number of cards.")
@click.option("--mode", type=click.Choice(("forward", "backward")), default="forward", show_default=True,
              help="Which search lists the decks.")
@with_search_options
def optimal(n, mode, workers, scheduler, checkpoint, store, quiet, as_json):
    """Every deck of n cards that makes f(n) steps, one per line."""
    from puzzlesearch import topswops as api

    _limits(n, mode)
    with long_search(checkpoint):
        o = api.optimal(n, mode, store=store, workers=_workers(n, workers, scheduler, checkpoint),
                        scheduler=scheduler, checkpoint=checkpoint, progress=_show_progress(quiet))
    if as_json:
        emit_json({"n": n, "steps": o.steps, "decks": [list(d) for d in o.decks]})
        return
    for deck in o.decks:
        click.echo(f"{_deck(deck)}  steps={o.steps}")


@topswops.command()
@click.argument("cards", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def play(cards, as_json):
    """Play a deck (the cards from the top, e.g. `play 3 1 2`): its trace and steps."""
    from puzzlesearch import topswops as api

    words = " ".join(cards).replace(",", " ").split()
    try:
        deck = [int(w) for w in words]
    except ValueError:
        fail(f"the deck must be whole numbers, got {' '.join(words)!r}")
    try:
        p = api.play(deck)
    except ValueError as e:
        fail(str(e))
    if as_json:
        emit_json({"deck": list(p.deck), "steps": p.steps, "trace": [list(d) for d in p.trace]})
        return
    for d in p.trace:
        click.echo(_deck(d))
    click.echo(f"steps={p.steps}")


