"""Card n at the bottom: a bound tighter than f(n-1), by a deeper search at size n - 1.

Once card n is at the bottom it never moves again, and the rest is a game of n - 1 cards:
the forward search bounds it by f(n-1). For the games that matter, those of at least
`target` steps (the length of a deck found beforehand), far fewer steps are left. Given
k (the steps left when card n reaches the bottom in that deck, plus one):

  1. list every game of n - 1 cards of at least k steps (the forward search at size
     n - 1 with its target fixed at k; forward_kernel's `rise`). A deck with card j at
     position j (j >= 2) is left out there, but its game is the end of a longer one's,
     so every state with k or more steps left is a state of a listed game;
  2. from each, the state with exactly k steps left, card n put under it, and every
     n-card game leading there, by undoing moves (deep_kernel.py);
  3. the most steps left when card n reached the bottom, over those games of at least
     `target` steps, or k - 1 if there is none: in any game of at least `target` steps,
     no more steps are left once card n is at the bottom. The forward search then prunes
     with min(f(t), bound) where it used f(t) (t < n: the bottom block holds card n).

[The method: K. Kimura, A. Takahashi, T. Araki and K. Amano, "Maximum number of steps of
topswops on 18 and 19 cards", arXiv:2103.08346 (2021), as summarised in issue 13.]
The bound is kept in the results store with what produced it, and reused by a later run
whose target is at least the one it was computed for.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass

import numpy as np

from puzzlesearch.engine.options import RunOptions
from puzzlesearch.topswops import calls, rules
from puzzlesearch.topswops.limits import DEEP_FROM, MAX_LONG_WORKERS


def key(n: int) -> str:
    """The results store's key of the bottom bounds for n (a list of Bottom records as dicts)."""
    return f"bottom({n})"


@dataclass(frozen=True)
class Bottom:
    n: int
    target: int  # valid for the games of at least this many steps
    k: int  # the games of n - 1 cards listed: at least k steps
    bound: int  # at most this many steps left once card n is at the bottom
    listed: int  # games of n - 1 cards listed (patterns)
    longest: int  # the longest game of n cards met on the way (-1: none, k > f(n-1))
    deck: tuple[int, ...]  # a deck making `longest` steps, replayed (() if none)
    nodes: int  # nodes of the listing plus decks met undoing moves
    seconds: float


def steps_left_at_bottom(deck: tuple[int, ...]) -> int | None:
    """Steps the game of `deck` makes after card n first reaches the bottom (None if it never does)."""
    n = len(deck)
    trace = rules.trace(deck)
    for i, d in enumerate(trace):
        if d[-1] == n:
            return len(trace) - 1 - i
    return None


def compute(n: int, target: int, k: int, bounds: list[int], *,
            run: RunOptions = RunOptions()) -> Bottom:  # noqa: B008 (frozen)
    """The bound of the module docstring for games of n cards of at least `target` steps,
    listing the games of n - 1 cards of at least k steps. bounds: f(0..n-2)."""
    from puzzlesearch.topswops.backward_kernel import fibonacci_bound
    from puzzlesearch.topswops.deep_kernel import extend_kernel
    from puzzlesearch.topswops.forward import solve_forward

    if not 1 <= k <= target:
        raise ValueError(f"k must be between 1 and the target {target}, got {k}")
    t0 = time.perf_counter()
    m = n - 1
    listing = solve_forward(m, list(bounds[:m]), run=run, target=k, every=True)
    patterns = np.array(listing.decks, dtype=np.int8).reshape(len(listing.decks), m)
    best = np.zeros(n, np.int8)
    longest, most_left, met = calls.call(extend_kernel, n, patterns, k, target, fibonacci_bound(n), best)
    deck = _complete(tuple(int(x) for x in best)) if longest >= 0 else ()  # nothing listed: k > f(n-1)
    if deck and rules.steps(deck) != longest:
        raise AssertionError(f"deck {deck} does not make {longest} steps")
    return Bottom(n=n, target=target, k=k, bound=max(k - 1, int(most_left)), listed=len(patterns),
                  longest=int(longest), deck=deck, nodes=listing.nodes + int(met),
                  seconds=round(time.perf_counter() - t0, 3))


def _complete(pattern: tuple[int, ...]) -> tuple[int, ...]:
    """A deck from a pattern: the undetermined positions take the unused values (any way
    plays the same game)."""
    unused = iter(sorted(set(range(1, len(pattern) + 1)) - set(pattern)))
    return tuple(x or next(unused) for x in pattern)


def bottom_bound(n: int, target: int, witness: tuple[int, ...], bounds: list[int], *,
                 run: RunOptions = RunOptions()) -> Bottom | None:  # noqa: B008 (frozen)
    """The bound for n and `target`, `witness` a deck of `target` steps giving k: read back
    from the results store (a bound computed for a target <= this one holds here too) or
    computed now and stored. None when card n never reaches the bottom in the witness, or
    is there from the start (then the witness's game is one of n - 1 cards, and there are
    no steps before card n reaches the bottom to bound the rest by; n = 1 is the one such
    case a search meets, its deck (1) making 0 steps)."""
    from puzzlesearch.engine.store import ResultsStore
    from puzzlesearch.topswops.bounds import STORE_PUZZLE

    left = steps_left_at_bottom(witness)
    if left is None or left >= target:
        return None
    with ResultsStore(run.store) as db:
        kept = db.get(STORE_PUZZLE, key(n)) or []
    usable = [b for b in kept if b["target"] <= target]
    if usable:
        b = min(usable, key=lambda b: b["bound"])
        return Bottom(**{**b, "deck": tuple(b["deck"])})
    b = compute(n, target, left + 1, bounds, run=run)
    with ResultsStore(run.store) as db:
        db.put(STORE_PUZZLE, key(n), [*kept, asdict(b)],
               f"deep: games of {n - 1} cards of >= {b.k} steps, undone with card {n} at the bottom",
               b.seconds)
    return b


__all__ = ["Bottom", "bottom_bound", "compute", "key", "steps_left_at_bottom"]


def solve(n: int, *, run: RunOptions = RunOptions(), long_seconds: float | None = None,  # noqa: B008
          seed: int = 0, start: tuple[int, ...] | None = None):
    """f(n) by the forward search, started at a long deck and pruned with the bottom bound:
      1. `start` (a deck found beforehand), or else the longest deck of n cards the
         results store keeps (from an earlier run), or else `topswops long` for
         long_seconds (default estimate.long_time(n)): a deck of L steps, replayed by the
         rules; the first target is max(L, f(n-1) + 1). The deck is kept in the store,
         so that a resumed run starts where the killed one did (same target, same
         bound, so its checkpoint fits);
      2. the bottom bound for that target (bottom_bound; its listing at size n - 1 runs
         with ``run``'s workers and, if there is one, the checkpoint FILE.bottom);
         a longer deck met on the way raises the first target;
      3. the forward search (forward.solve_forward) with both.
    Returns the forward search's result, with ``start`` saying what each step gave."""
    import dataclasses

    from puzzlesearch.engine.options import cores
    from puzzlesearch.topswops.bounds import first_target, own_bounds
    from puzzlesearch.topswops.estimate import long_time
    from puzzlesearch.topswops.forward import solve_forward
    from puzzlesearch.topswops.long import long_decks

    t0 = time.perf_counter()
    bounds = own_bounds(n, store=run.store, progress=run.progress)
    if start is not None:
        if len(start) != n or not rules.is_deck(start):
            raise ValueError(f"the start deck must be a deck of {n} cards (a permutation of 1..{n}), "
                             f"got {' '.join(map(str, start))}")
        steps = rules.steps(start)
        witness, how = tuple(start), {"given": {"steps": steps, "deck": list(start)}}
    elif (kept := _kept_deck(n, run.store)) is not None:
        witness = kept
        steps = rules.steps(witness)
        how = {"store": {"steps": steps, "deck": list(witness)}}
    else:
        seconds = long_time(n) if long_seconds is None else long_seconds
        # `long` runs threads of this process, at most MAX_LONG_WORKERS; --workers may ask for more
        # (processes of the forward search)
        workers = min((run.workers or cores()) if run.scheduler is None else cores(), MAX_LONG_WORKERS)
        found = long_decks(n, seconds, seed, workers=workers)
        steps, witness = found.steps, found.deck
        how = {"long": {"steps": steps, "deck": list(witness), "seconds": found.seconds}}
        _keep_deck(n, witness, steps, f"long, {found.seconds} s, seed {seed}", run.store)
    target = max(steps, first_target(bounds, n))
    start = how
    bottom = None
    if steps == target:
        sub = run if run.checkpoint is None else run.but(checkpoint=f"{run.checkpoint}.bottom")
        b = bottom_bound(n, target, witness, bounds, run=sub)
        if b is not None:
            start["bottom"] = asdict(b) | {"deck": list(b.deck)}
            if b.bound < bounds[n - 1]:
                bottom = b.bound
            if b.longest > target:
                target = b.longest
    if n >= ESTIMATE_FROM:
        start["estimate"] = _preview(n, bounds, target, bottom, run)
    r = solve_forward(n, bounds, run=run, target=target, bottom=bottom)
    if r.decks and r.steps > steps:
        _keep_deck(n, tuple(r.decks[0]), r.steps, "the forward search", run.store)
    return dataclasses.replace(r, start=start, seconds=time.perf_counter() - t0)


#: from this n on, deep.solve estimates the search (Knuth's probes, about 2 s) and says so first
ESTIMATE_FROM = 15


def _preview(n: int, bounds: list[int], target: int, bottom: int | None, run: RunOptions) -> dict:
    """Knuth's estimate of the search about to run, shown on stderr when progress is."""
    import sys

    from puzzlesearch.engine.options import cores
    from puzzlesearch.topswops.estimate import duration, preview
    from puzzlesearch.topswops.forward import _bound_array

    used = list(bounds[:n]) if bottom is None else [min(b, bottom) for b in bounds[:n]]
    workers = (run.workers or cores()) if run.scheduler is None else 1
    e = preview(n, _bound_array(n, used), target, workers)
    if run.progress:
        per = "on a cluster: per worker" if run.scheduler is not None else f"on {workers} worker(s)"
        sys.stderr.write(f"estimate: {e['nodes']:.3g} nodes, about {duration(e['seconds'])} {per} "
                         f"(Knuth's random probes; first target {target})\n")
        sys.stderr.flush()
    return e


def _deck_key(n: int) -> str:
    return f"deck({n})"


def _kept_deck(n: int, store: str | None) -> tuple[int, ...] | None:
    """The longest deck of n cards the results store keeps (replayed by the caller), if any."""
    from puzzlesearch.engine.store import ResultsStore
    from puzzlesearch.topswops.bounds import STORE_PUZZLE

    with ResultsStore(store) as db:
        kept = db.get(STORE_PUZZLE, _deck_key(n))
    if kept is None or len(kept) != n or not rules.is_deck(kept):
        return None
    return tuple(int(x) for x in kept)


def _keep_deck(n: int, deck: tuple[int, ...], steps: int, method: str, store: str | None) -> None:
    """Keep `deck` as the longest of n cards unless the store has one at least as long."""
    from puzzlesearch.engine.store import ResultsStore
    from puzzlesearch.topswops.bounds import STORE_PUZZLE

    kept = _kept_deck(n, store)
    if kept is not None and rules.steps(kept) >= steps:
        return
    with ResultsStore(store) as db:
        db.put(STORE_PUZZLE, _deck_key(n), list(deck), method)


__all__ += ["DEEP_FROM", "solve"]
