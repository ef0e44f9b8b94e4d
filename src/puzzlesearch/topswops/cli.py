"""`puzzlesearch topswops ...`: solve, optimal, play. Parses, calls the API, prints; every
check is the API's (api.py)."""

from __future__ import annotations

import sys
from dataclasses import asdict

import click

from puzzlesearch import clikit
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.params import SEED_MAX, plural

from . import api

WORKERS_HELP = "Worker processes for the forward search (default: all cores for n >= 13, else 1)."




def _deck(cards: list[int], free: str = "_") -> str:
    return " ".join(str(c) if c else free for c in cards)


@clikit.group()
def topswops() -> None:
    """Conway's topswops: reverse the top k cards, k the top card, until 1 is on top."""


@topswops.command()
@click.option("-n", "n", type=int, default=10, show_default=True, help="Number of cards.")
@click.option("--mode", type=click.Choice(api.MODES), default="both", show_default=True,
              help="Backward search, forward search, or both cross-checked.")
@click.option("--deep/--no-deep", default=None,
              help="Forward search: start at a long deck and bound the steps left once card n is at the "
                   f"bottom by a deeper search at n - 1 (default: from n = {api.DEEP_FROM} on, whichever "
                   "Knuth's probes estimate the cheaper; -v says why).")
@click.option("--start", "start", metavar="DECK", default=None,
              help='A deck found beforehand (e.g. "3 1 2"), replayed: the deep forward search starts at '
                   'its steps.')
@clikit.verbose_option
@clikit.run_options(store=True, workers_help=WORKERS_HELP)
@clikit.json_option
def solve(n: int, mode: str, deep: bool | None, start: str | None, verbose: bool, run: RunOptions,
          as_json: bool) -> None:
    """f(n): the most steps any deck of n cards makes. Exits 1 if the two searches disagree."""
    with clikit.library_call(run, resumable=mode != "backward"):
        s = clikit.answer(api.solve, n, mode, run=run, deep=deep, start=start)
    if as_json:
        out = {"n": n}
        for m in api.SEARCHES:
            if m in s.details:
                out[m] = getattr(s, m)
        if s.match is not None:
            out["match"] = s.match
        out.update(decks=[list(d) for d in s.decks], nodes=s.nodes, seconds=s.seconds)
        start = s.plan.start_json() if s.plan is not None else None
        if start is not None:
            out["start"] = start
        if verbose:
            out["nodes_per_level"] = {m: r.nodes_per_level for m, r in s.details.items()}
        clikit.emit_json(out)
    else:
        if verbose:
            _verbose(s)
        parts = [f"n={n}"] + [f"{m}={getattr(s, m)}" for m in api.SEARCHES if m in s.details]
        if s.match is not None:
            parts.append(f"match={str(s.match).lower()}")
        click.echo("  ".join(parts))


def _verbose(s: api.Solution) -> None:
    b = s.details.get("backward")
    if b is not None:
        click.echo("backward: record decks (_ = any card not yet used):")
        for depth, deck in b.records:
            click.echo(f"  {depth:4d}: {_deck(deck)}")
        click.echo("backward: nodes per level: " + " ".join(map(str, b.nodes_per_level)))
        click.echo(f"backward: {b.nodes} {plural(b.nodes, 'node')} in {b.seconds:.3f} s")
    f = s.details.get("forward")
    if f is not None:
        click.echo(f"forward: bounds f(0..{s.n - 1}) = {' '.join(map(str, f.bounds))}; "
                   f"first target {f.first_target}")
        if s.plan is not None:
            _verbose_plan(s.plan, f.bounds)
        click.echo("forward: nodes per level: " + " ".join(map(str, f.nodes_per_level)))
        click.echo(f"forward: {f.nodes} {plural(f.nodes, 'node')} in {f.seconds:.3f} s, {f.subproblems} "
                   f"{plural(f.subproblems, 'subproblem')}")
    for deck in s.decks:
        click.echo(f"deck: {_deck(deck)}")


def _verbose_plan(p: api.Plan, bounds: list[int]) -> None:
    """How the method was chosen; where the search started: its witness, its bottom bound, its estimate."""
    if p.choice is not None:
        click.echo(f"forward: {p.choice.why}")
    if p.witness_from == "given":
        click.echo(f"forward: started at the given deck of {p.witness_steps} steps")
    elif p.witness_from == "store":
        click.echo(f"forward: started at the results store's deck of {p.witness_steps} steps: "
                   f"{_deck(p.witness)}")
    elif p.witness_from == "long":
        click.echo(f"forward: a long deck of {p.witness_steps} steps in {p.long_seconds:.1f} s: "
                   f"{_deck(p.witness)}")
    b, n = p.bottom_search, p.n
    if b is not None:
        click.echo(f"forward: card {n} at the bottom: at most {b.bound} steps left "
                   f"(f({n - 1}) = {bounds[n - 1]}), from {b.listed} games of {n - 1} cards "
                   f"of >= {b.k} steps in {b.seconds:.1f} s")
    e = p.estimate
    if e is not None:
        click.echo(f"forward: estimated {e.nodes:.3g} nodes, {e.seconds:.0f} s on {e.workers} "
                   f"{plural(e.workers, 'worker')} (Knuth's probes, before the search)")


@topswops.command(help=f"""Every deck of n cards that makes f(n) steps, one per line.

    With --mode forward, the forward search that `solve --mode forward` runs by default:
    below n = {api.DEEP_FROM} Knuth's forward search; from there on, whichever Knuth's probes
    estimate the cheaper of that and the deep search (it starts at a long deck and bounds the
    steps left once card n is at the bottom). Both list every deck of f(n) steps.""")
@click.option("-n", "n", type=int, required=True, help="Number of cards.")
@click.option("--mode", type=click.Choice(api.SEARCHES), default="forward", show_default=True,
              help="Which search lists the decks.")
@clikit.run_options(store=True, workers_help=WORKERS_HELP)
@clikit.json_option
def optimal(n: int, mode: str, run: RunOptions, as_json: bool) -> None:
    # the help is the decorator's, which names DEEP_FROM
    with clikit.library_call(run, resumable=mode != "backward"):
        o = clikit.answer(api.optimal, n, mode, run=run)
    if as_json:
        clikit.emit_json({"n": n, "steps": o.steps, "decks": [list(d) for d in o.decks]})
        return
    for deck in o.decks:
        click.echo(f"{_deck(deck)}  steps={o.steps}")


@topswops.command()
@click.argument("cards", nargs=-1, required=True)
@clikit.plot_option("the game, one row per deck")
@clikit.json_option
def play(cards: tuple[str, ...], plot: str | None, as_json: bool) -> int:
    """Play a deck (the cards from the top, e.g. `play 3 1 2`): its trace and steps."""
    with clikit.library_call():
        if plot is not None:
            api.check_plot(plot)
        p = api.play(" ".join(cards))
    if as_json:
        clikit.emit_json({"deck": list(p.deck), "steps": p.steps, "trace": [list(d) for d in p.trace]})
    else:
        for d in p.trace:
            click.echo(_deck(d))
        click.echo(f"steps={p.steps}")
    if plot is not None:
        return clikit.save_plot(lambda: api.plot(p, plot), plot)
    return clikit.EXIT_OK


@topswops.command(name="long")
@click.option("-n", "n", type=int, required=True, help="Number of cards (up to 255).")
@click.option("--seconds", type=float, default=60.0, show_default=True, help="Stop after this many seconds.")
@click.option("--seed", type=click.IntRange(0, SEED_MAX), default=0, show_default=True,
              help="Seed of the random choices.")
@click.option("--workers", type=clikit.Workers(most=api.MAX_LONG_WORKERS), default=None,
              help="Threads, each searching with its own random choices (default: all cores).")
@clikit.json_option
def long_decks(n: int, seconds: float, seed: int, workers: int | None, as_json: bool) -> None:
    """Long decks for any n: each longer deck as soon as it is found (anytime; Ctrl-C keeps them).

    With --json, each deck is a JSON line as it is found, and the last line an object of
    the whole run (also after Ctrl-C)."""

    def report(imp: api.Improvement) -> None:
        if as_json:
            clikit.emit_json(_improvement(imp))
        else:
            click.echo(f"{imp.steps} {plural(imp.steps, 'step')}  {_deck(list(imp.deck))}  "
                       f"({imp.seconds:.3f} s, {imp.method})")
        sys.stdout.flush()  # a killed run keeps every line it printed

    with clikit.library_call():
        try:
            r = api.long(n, seconds, seed, report=report, run=RunOptions(workers=workers))
        except KeyboardInterrupt as e:
            if getattr(e, "result", None) is not None:  # the decks found so far: the closing line
                _long_summary(e.result, as_json, interrupted=True)
            raise
    _long_summary(r, as_json, interrupted=False)


def _improvement(imp: api.Improvement) -> dict:
    return asdict(imp) | {"deck": list(imp.deck)}


def _long_summary(r: api.LongResult, as_json: bool, interrupted: bool) -> None:
    """The closing line of `long`: the best deck and every improvement (--json), or `best:`."""
    if as_json:
        clikit.emit_json({"n": r.n, "seed": r.seed, "steps": r.steps, "deck": list(r.deck),
                          "seconds": r.seconds, "interrupted": interrupted,
                          "improvements": [_improvement(i) for i in r.improvements]})
    else:
        click.echo(f"best: {r.steps} {plural(r.steps, 'step')} in {r.seconds:.1f} s (n={r.n}, seed {r.seed})")
    sys.stdout.flush()


@topswops.command()
@click.option("-n", "n", type=int, required=True, help="Number of cards (up to 32).")
@click.option("--workers", "for_workers", type=clikit.Workers(), default=None,
              help="Workers the expected time is for (default: all cores).")
@click.option("--probes", type=click.IntRange(1, 10**8), default=200_000, show_default=True,
              help="Random root-to-leaf probes.")
@click.option("--seed", type=click.IntRange(0, SEED_MAX), default=0, show_default=True,
              help="Seed of the random probes.")
@click.option("--long-seconds", type=float, default=None,
              help="Seconds `long` looks for the target when the results store has no f(n) "
                   "(default: from 0.2 s at n = 8 to 10 s from n = 16 on).")
@clikit.run_options(workers=False, checkpoint=False, store=True)
@clikit.json_option
def estimate(n: int, for_workers: int | None, probes: int, seed: int, long_seconds: float | None,
             run: RunOptions, as_json: bool) -> None:
    """The forward search's size for n by Knuth's probes, its expected time, and the plan solve picks."""
    with clikit.library_call():
        e = api.estimate(n, probes=probes, seed=seed, long_seconds=long_seconds,
                         run=run.but(workers=for_workers))
    from puzzlesearch.engine.progress import duration

    if as_json:
        clikit.emit_json(e)
        return
    source = {"store": "f(n) from the results store", "f(n-1)+1": "f(n-1)+1",
              "long": f"the best deck `long` found in {e.long_seconds:.2g} s"}[e.target_from]
    click.echo(f"n={e.n}  target={e.target} ({source}; the search starts at {e.first_target})")
    spread = "no standard error from 1 probe" if e.stderr is None else \
        f"+- {e.stderr:.2g} (standard error, {e.probes} probes)"
    click.echo(f"nodes: {e.nodes:.4g} {spread}; {e.upper:.4g} if no deck raised the target above "
               f"{e.first_target}")
    click.echo(f"speed: {e.nodes_per_second / 1e6:.1f} Mnodes/s per worker ({e.sampled_nodes} nodes timed)")
    click.echo(f"expected time: {duration(e.seconds)} on {e.workers} {plural(e.workers, 'worker')}")
    if e.method == "deep":
        parts = ", ".join(f"{name} {v:.3g}" for name, v in e.parts.items())
        chain = f", its listing pruned by games of {e.n - 2} cards of >= {e.k2}" if e.k2 is not None else ""
        click.echo(f"the deep plan: games of {e.n - 1} cards of >= {e.k} steps{chain}: "
                   f"{e.plan_nodes:.4g} nodes ({parts}), about {duration(e.plan_seconds)} "
                   f"on {e.workers} {plural(e.workers, 'worker')}")
    if e.why:
        click.echo(f"solve's choice: {e.why}")
