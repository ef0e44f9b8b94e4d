"""What the forward search for f(n) starts from, and where each part came from: a Plan.

Throughout: the *bounds* are f(0..n-1); the *witness* is a deck found beforehand, replayed
by the rules; the *target* is the fewest steps a deck must make to count; the *bottom*
bound is at most this many steps left once card n is at the bottom (bottom.py).

A plan is made one step at a time, each step saying where its value came from:

  1. bounds: read back from the results store ("store"), or some computed now by the
     forward search ("forward"; forward.own_bounds);
  2. witness, for the deep search only: the deck given (--start; "given"), else the
     longest deck of n cards the results store keeps ("store"), else the best deck
     `topswops long` finds in probes.long_time(n) seconds ("long"), which is kept in
     the store so that a resumed run starts where the killed one did (same target, same
     bottom bound, so its checkpoint fits);
  3. target: f(n-1) + 1 ("f(n-1)+1"), or the witness's steps when they are more
     ("witness");
  4. bottom bound, when the witness reaches the target: read back ("store") or computed
     by a listing at size n - 1 ("listing"; it runs with the run's workers and, with a
     checkpoint FILE, the checkpoint FILE.bottom). It is used when tighter than f(n-1);
     a longer deck met on the way raises the target ("bottom");
  5. estimate, from n = ESTIMATE_FROM on: Knuth's probes of the search about to run,
     shown on stderr when progress is.

Without the deep search the plan is Knuth's search: bounds and the first target only.
A Plan is a forward.Tree, so that the search takes it as it is: forward.search(plan, run).
"""

from __future__ import annotations

import sys
import time
from dataclasses import asdict, dataclass

from puzzlesearch.engine.options import RunOptions, cores
from puzzlesearch.engine.progress import duration
from puzzlesearch.topswops import known, rules
from puzzlesearch.topswops.bottom import Bottom, bottom_bound
from puzzlesearch.topswops.bounds import first_target
from puzzlesearch.topswops.forward import Tree, own_bounds
from puzzlesearch.topswops.limits import MAX_LONG_WORKERS
from puzzlesearch.topswops.longdecks import long_decks
from puzzlesearch.topswops.probes import Preview, long_time, preview

#: from this n on, the deep search estimates itself (Knuth's probes, about 2 s) and says so first
ESTIMATE_FROM = 15


@dataclass(frozen=True, kw_only=True)
class Plan(Tree):
    """The tree the forward search walks (n, bounds, target, bottom), and where each came from."""

    bounds_from: str  # "store" or "forward"
    target_from: str  # "f(n-1)+1", "witness" or "bottom"
    witness: tuple[int, ...] | None = None  # None: the plain search starts at no deck
    witness_steps: int | None = None
    witness_from: str | None = None  # "given", "store" or "long"
    long_seconds: float = 0.0  # how long `long` looked for the witness ("long" only)
    bottom_search: Bottom | None = None  # what the bottom bound's listing found (it may not be tighter)
    bottom_from: str | None = None  # "store" or "listing"
    estimate: Preview | None = None
    seconds: float = 0.0  # to make the plan

    def start_json(self) -> dict | None:
        """How the deep search started, as `solve --json` prints it ("start"); None for the plain search."""
        if self.witness_from is None:
            return None
        witness = {"steps": self.witness_steps, "deck": list(self.witness)}
        if self.witness_from == "long":
            witness["seconds"] = self.long_seconds
        out: dict = {self.witness_from: witness}
        if self.bottom_search is not None:
            out["bottom"] = asdict(self.bottom_search) | {"deck": list(self.bottom_search.deck)}
        if self.estimate is not None:
            out["estimate"] = asdict(self.estimate)
        return out


def make(n: int, run: RunOptions, *, deep: bool, start: tuple[int, ...] | None = None, seed: int = 0,
         long_seconds: float | None = None) -> Plan:
    """The plan of the forward search for f(n), by the steps of the module docstring.
    `deep`: start at a witness and use the bottom bound; `start`: the witness, a deck of
    n cards (checked by the caller); `seed`, `long_seconds`: those of `long` when it looks
    for the witness (default: probes.long_time(n) seconds)."""
    t0 = time.perf_counter()
    # 1. bounds
    missing = known.missing_f(range(1, n), run.store)
    bounds = tuple(own_bounds(n, run.store, progress=run.progress))
    bounds_from = "forward" if missing else "store"
    first = first_target(bounds, n)
    if not deep:
        return Plan(n=n, bounds=bounds, target=first, bounds_from=bounds_from, target_from="f(n-1)+1",
                    seconds=time.perf_counter() - t0)
    # 2. witness
    witness, steps, witness_from, looked = _witness(n, run, start, seed, long_seconds)
    # 3. target
    target, target_from = (steps, "witness") if steps >= first else (first, "f(n-1)+1")
    # 4. bottom bound
    bottom = found = bottom_from = None
    if steps == target:
        sub = run if run.checkpoint is None else run.but(checkpoint=f"{run.checkpoint}.bottom")
        result = bottom_bound(n, target, witness, bounds, sub)
        if result is not None:
            found, bottom_from = result
            if found.bound < bounds[n - 1]:
                bottom = found.bound
            if found.longest > target:
                target, target_from = found.longest, "bottom"
    # 5. estimate
    estimate = _preview(Tree(n, bounds, target, bottom), run) if n >= ESTIMATE_FROM else None
    return Plan(n=n, bounds=bounds, target=target, bottom=bottom, deep=True, bounds_from=bounds_from,
                target_from=target_from, witness=witness, witness_steps=steps, witness_from=witness_from,
                long_seconds=looked, bottom_search=found, bottom_from=bottom_from, estimate=estimate,
                seconds=time.perf_counter() - t0)


def _witness(n: int, run: RunOptions, start: tuple[int, ...] | None, seed: int,
             long_seconds: float | None) -> tuple[tuple[int, ...], int, str, float]:
    """The witness, its steps (replayed), where it came from, and how long `long` looked for it."""
    if start is not None:
        return tuple(start), rules.steps(start), "given", 0.0
    kept = known.deck(n, run.store)
    if kept is not None:
        return kept, rules.steps(kept), "store", 0.0
    seconds = long_time(n) if long_seconds is None else long_seconds
    # `long` runs threads of this process, at most MAX_LONG_WORKERS; --workers may ask for more
    # (processes of the forward search)
    workers = min((run.workers or cores()) if run.scheduler is None else cores(), MAX_LONG_WORKERS)
    found = long_decks(n, seconds, seed, workers=workers)
    known.keep_deck(n, found.deck, found.steps, f"long, {found.seconds} s, seed {seed}", run.store)
    return found.deck, found.steps, "long", found.seconds


def _preview(tree: Tree, run: RunOptions) -> Preview:
    """Knuth's estimate of the search about to run, shown on stderr when progress is."""
    workers = (run.workers or cores()) if run.scheduler is None else 1
    e = preview(tree, workers)
    if run.progress:
        per = "on a cluster: per worker" if run.scheduler is not None else f"on {workers} worker(s)"
        sys.stderr.write(f"estimate: {e.nodes:.3g} nodes, about {duration(e.seconds)} {per} "
                         f"(Knuth's random probes; first target {tree.target})\n")
        sys.stderr.flush()
    return e


__all__ = ["ESTIMATE_FROM", "Plan", "make"]
