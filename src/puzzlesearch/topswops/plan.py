"""What the forward search for f(n) starts from, and where each part came from: a Plan.

Throughout: the *bounds* are f(0..n-1); the *witness* is a deck found beforehand, replayed
by the rules; the *target* is the fewest steps a deck must make to count; the *bottom*
bound is at most this many steps left once card n is at the bottom (bottom.py).

A plan is made one step at a time, each step saying where its value came from:

  1. bounds: read back from the results store ("store"), or some computed now by the
     forward search ("forward"; forward.own_bounds);
  2. witness: the deck given (--start; "given"), else the longest deck of n cards the
     results store keeps ("store"), else the best deck `topswops long` finds ("long";
     on all workers, for probes.long_time(n) seconds), which is kept
     in the store so that a resumed run starts where the killed one did (same target,
     same bottom bound, so its checkpoint fits);
  3. target: f(n-1) + 1 ("f(n-1)+1"), or the witness's steps when they are more
     ("witness");
  4. the method (choice.py), unless --deep or --no-deep says it. Before the witness:
     when Knuth's probes put the plain search (from the first target, an estimate about
     4 times too high at n = 14) under PLAIN_BELOW seconds on the run's workers, it is
     Knuth's search, with no witness (at n = 14 the deep plan's `long` and listing cost
     more than its bound saves). Else, with the witness's target, the
     probes of the plain search and of the deep plans (their listings of n - 1 cards of
     at least k steps, chained or not, and the search pruned by k - 1), the cheaper
     one taken;
  5. bottom bound, for the deep method when the witness reaches the target: read back
     ("store") or computed by the listing the choice named ("listing"; it runs with the
     run's workers and, with a checkpoint FILE, the checkpoint FILE.bottom, and its chain
     FILE.bottom.chain). It is used when tighter than f(n-1); a longer deck met on the
     way raises the target ("bottom");
  6. estimate, from n = ESTIMATE_FROM on: Knuth's probes of the search about to run,
     shown on stderr when progress is.

With --no-deep (and by default below CHOOSE_FROM cards) the plan is Knuth's search:
bounds and the first target only.
A Plan is a forward.Tree, so that the search takes it as it is: forward.search(plan, run).
"""

from __future__ import annotations

import sys
import time
from dataclasses import asdict, dataclass, replace

from puzzlesearch.engine.options import RunOptions, cores
from puzzlesearch.engine.params import plural
from puzzlesearch.engine.progress import duration
from puzzlesearch.topswops import known, rules
from puzzlesearch.topswops.bottom import Bottom, bottom_bound, steps_left_at_bottom, stored
from puzzlesearch.topswops.bounds import bound_array, first_target
from puzzlesearch.topswops.choice import WIDE_COST, Choice, choose
from puzzlesearch.topswops.forward import Tree, own_bounds
from puzzlesearch.topswops.limits import DEEP_FROM, MAX_LONG_WORKERS, MAX_PACKED
from puzzlesearch.topswops.longdecks import long_decks, rng_state
from puzzlesearch.topswops.probes import Estimate, Preview, long_time, preview, probe

#: from this n on, the search estimates itself (Knuth's probes, about 2 s) and says so first
ESTIMATE_FROM = 15
#: from this n on, the method is chosen by estimate; below, Knuth's search (seconds at most)
CHOOSE_FROM = DEEP_FROM
#: below this many seconds of the plain search (estimated), the method is Knuth's search
PLAIN_BELOW = 400.0
#: nodes a second and worker assumed for that estimate, before any is measured (the packed
#: kernel's order at n = 14..16; about half of it past MAX_PACKED cards)
ASSUMED_SPEED = 3e7


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
    choice: Choice | None = None  # how the method was chosen (None: --deep, --no-deep, or n < CHOOSE_FROM)
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


def make(n: int, run: RunOptions, *, deep: bool | None, start: tuple[int, ...] | None = None, seed: int = 0,
         long_seconds: float | None = None) -> Plan:
    """The plan of the forward search for f(n), by the steps of the module docstring.
    `deep`: True to start at a witness and use the bottom bound, False for Knuth's
    search, None to choose by estimate (from CHOOSE_FROM cards on); `start`: the witness,
    a deck of n cards (checked by the caller; implies the deep search); `seed`,
    `long_seconds`: those of `long` when it looks for the witness."""
    t0 = time.perf_counter()
    # 1. bounds
    missing = known.missing_f(range(1, n), run.store)
    # on the run's local workers (a cluster's scheduler is for the search itself)
    workers = run.workers if run.scheduler is None else None
    bounds = tuple(own_bounds(n, run.store, progress=run.progress, workers=workers))
    bounds_from = "forward" if missing else "store"
    first = first_target(bounds, n)
    chosen = deep is None and start is None
    early = early_choice(n, bounds, run) if chosen else None
    if deep is False or early is not None:
        why = early if n >= CHOOSE_FROM else None  # below, -v has nothing to say: no choice was made
        return Plan(n=n, bounds=bounds, target=first, bounds_from=bounds_from, target_from="f(n-1)+1",
                    choice=why, seconds=time.perf_counter() - t0)
    # 2. witness
    witness, steps, witness_from, looked = _witness(n, run, start, seed, long_seconds)
    # 3. target
    target, target_from = (steps, "witness") if steps >= first else (first, "f(n-1)+1")
    # 4. the method
    choice = _method(n, bounds, target, witness if steps == target else None, run.store, seed)
    if chosen and choice.method == "plain":
        estimate = _preview(Tree(n, bounds, target), run) if n >= ESTIMATE_FROM else None
        return Plan(n=n, bounds=bounds, target=target, bounds_from=bounds_from, target_from=target_from,
                    witness=witness, witness_steps=steps, witness_from=witness_from, long_seconds=looked,
                    estimate=estimate, choice=choice, seconds=time.perf_counter() - t0)
    # 5. bottom bound
    bottom = found = bottom_from = None
    if steps == target:
        sub = run if run.checkpoint is None else run.but(checkpoint=f"{run.checkpoint}.bottom")
        result = bottom_bound(n, target, witness, bounds, sub, choice.k, choice.k2)
        if result is not None:
            found, bottom_from = result
            if found.bound < bounds[n - 1]:
                bottom = found.bound
            if found.longest > target:
                target, target_from = found.longest, "bottom"
    # 6. estimate
    estimate = _preview(Tree(n, bounds, target, bottom), run) if n >= ESTIMATE_FROM else None
    return Plan(n=n, bounds=bounds, target=target, bottom=bottom, deep=True, bounds_from=bounds_from,
                target_from=target_from, witness=witness, witness_steps=steps, witness_from=witness_from,
                long_seconds=looked, bottom_search=found, bottom_from=bottom_from, estimate=estimate,
                choice=choice if chosen else None, seconds=time.perf_counter() - t0)


def with_plan(e: Estimate, run: RunOptions, seed: int = 0) -> Estimate:
    """`estimate`'s answer with the plan `solve` would choose for its target and witness
    (steps 4-5 of the module docstring): its method, why, nodes and expected seconds."""
    bounds = tuple(own_bounds(e.n, run.store))
    w = e.witness
    reaches = w is not None and len(w) == e.n and rules.is_deck(w) and rules.steps(w) == e.target
    c = early_choice(e.n, bounds, run)
    if c is None:
        c = _method(e.n, bounds, e.target, w if reaches else None, run.store, seed)
    if c.method != "deep":
        return replace(e, method=c.method, why=c.why)
    # the listings run the packed kernel where the search runs the wide one
    wide = WIDE_COST if e.n > MAX_PACKED >= e.n - 1 else 1.0
    weighed = sum(v / (1.0 if part == "search" else wide) for part, v in c.parts.items())
    rate = e.nodes_per_second * e.workers
    return replace(e, method="deep", why=c.why, plan_nodes=c.nodes(),
                   plan_seconds=weighed / rate if rate else 0.0, parts=c.parts, k=c.k, k2=c.k2)


def _method(n: int, bounds: tuple[int, ...], target: int, witness: tuple[int, ...] | None, store: str | None,
            seed: int) -> Choice:
    """Step 4 with a witness of `target` steps (None: none reaches it): the probes of the
    plain search and of the deep plans, with the bound the store keeps and the chain's
    floor from its deck of n - 1 cards."""
    left = steps_left_at_bottom(witness) if witness is not None else None
    kept = stored(n, target, store) if left is not None else None
    return choose(n, bounds, target, left, None if kept is None else kept.bound, inner_left(n, bounds, store),
                  seed=seed)


def inner_left(n: int, bounds: tuple[int, ...], store: str | None) -> int | None:
    """The steps left once card n - 1 is at the bottom in the results store's longest deck
    of n - 1 cards, if it makes f(n-1) steps (the chain's floor, choice.py); else None."""
    kept = known.deck(n - 1, store) if n > 2 else None
    if kept is None or rules.steps(kept) != bounds[n - 1]:
        return None
    left = steps_left_at_bottom(kept)
    return None if left is None or left >= bounds[n - 1] else left


def early_choice(n: int, bounds: tuple[int, ...], run: RunOptions) -> Choice | None:
    """Knuth's search when it is chosen before any witness is looked for (step 4 of the
    module docstring), else None. The plain search's seconds from the first target on the
    run's workers are Knuth's probes (an upper estimate: the real search raises its target)
    at ASSUMED_SPEED."""
    if n < CHOOSE_FROM:
        return Choice("plain", f"below n = {CHOOSE_FROM} it is Knuth's search", 0.0)
    probed = probe(n, bound_array(n, bounds), first_target(bounds, n), 2_000, rng_state(0))
    nodes = float(probed.estimates.mean())
    workers = (run.workers or cores()) if run.scheduler is None else cores()
    quick = nodes / (ASSUMED_SPEED / (2 if n > MAX_PACKED else 1) * workers)
    if quick >= PLAIN_BELOW:
        return None
    why = (f"Knuth's search is estimated at {quick:.0f} s (< {PLAIN_BELOW:.0f} s): plain is chosen, the deep "
           "plan's `long` and listing would cost more than its bound saves")
    return Choice("plain", why, nodes)


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
    with known.on_the_way():
        known.keep_deck(n, found.deck, found.steps, f"long, {found.seconds} s, seed {seed}", run.store)
    return found.deck, found.steps, "long", found.seconds


def _preview(tree: Tree, run: RunOptions) -> Preview:
    """Knuth's estimate of the search about to run, shown on stderr when progress is."""
    workers = (run.workers or cores()) if run.scheduler is None else 1
    e = preview(tree, workers)
    if run.progress:
        per = ("on a cluster: per worker" if run.scheduler is not None
               else f"on {workers} {plural(workers, 'worker')}")
        sys.stderr.write(f"estimate: {e.nodes:.3g} nodes, about {duration(e.seconds)} {per} "
                         f"(Knuth's random probes; first target {tree.target})\n")
        sys.stderr.flush()
    return e


__all__ = ["ESTIMATE_FROM", "Plan", "make"]
