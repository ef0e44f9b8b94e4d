"""Card n at the bottom: a bound tighter than f(n-1), by a deeper search at size n - 1.

Once card n is at the bottom it never moves again, and the rest is a game of n - 1 cards:
the forward search bounds it by f(n-1). For the games that matter, those of at least
`target` steps (the length of a deck found beforehand, the *witness*), far fewer steps
are left. Given k (the steps left when card n reaches the bottom in the witness, plus one):

  1. list every game of n - 1 cards of at least k steps (the forward search at size
     n - 1 with its target fixed at k; forward_kernel's `rise`). A deck with card j at
     position j (j >= 2) is left out there, but its game is the end of a longer one's,
     so every state with k or more steps left is a state of a listed game;
  2. from each, the state with exactly k steps left, card n put under it, and every
     n-card game leading there, by undoing moves (bottom_kernel.py);
  3. the most steps left when card n reached the bottom, over those games of at least
     `target` steps, or k - 1 if there is none: in any game of at least `target` steps,
     no more steps are left once card n is at the bottom. The forward search then prunes
     with min(f(t), bound) where it used f(t) (t < n: the bottom block holds card n).

[The method: B. Chaffin, "Longest Topswops decks for sizes 20 and 21" (2026),
bchaffin.github.io, topswops/topswops.markdown.]
The bound is kept in the results store with what produced it, and reused by a later run
whose target is at least the one it was computed for.
"""

from __future__ import annotations

import sys
import time
from dataclasses import asdict, dataclass, fields

import numpy as np

from puzzlesearch.engine.failures import CheckFailed
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.topswops import calls, known, rules
from puzzlesearch.topswops.backward_kernel import fibonacci_bound
from puzzlesearch.topswops.bottom_kernel import extend_kernel
from puzzlesearch.topswops.forward import Tree, search


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
    k2: int | None = None  # the listing was pruned by the chain: games of n - 2 cards of >= k2 steps
    inner: int | None = None  # the bound that pruned it, with card n - 1 at the bottom (None: f(n-2))


def steps_left_at_bottom(deck: tuple[int, ...]) -> int | None:
    """Steps the game of `deck` makes after card n first reaches the bottom (None if it never does)."""
    n = len(deck)
    trace = rules.trace(deck)
    for i, d in enumerate(trace):
        if d[-1] == n:
            return len(trace) - 1 - i
    return None


def compute(n: int, target: int, k: int, bounds: list[int] | tuple[int, ...], run: RunOptions,
            k2: int | None = None) -> Bottom:
    """The bound of the module docstring for games of n cards of at least `target` steps,
    listing the games of n - 1 cards of at least k steps. bounds: f(0..n-2). With `k2`,
    the chain: the listing is itself pruned with the bound for games of n - 1 cards of at
    least k steps once card n - 1 is at the bottom, from a listing of n - 2 cards of at
    least k2 steps (read back from the results store, or computed and kept)."""
    if not 1 <= k <= target:
        raise ValueError(f"k must be between 1 and the target {target}, got {k}")
    t0 = time.perf_counter()
    m = n - 1
    inner = None
    if k2 is not None:
        sub = run if run.checkpoint is None else run.but(checkpoint=f"{run.checkpoint}.chain")
        how = f"chain: games of {m - 1} cards of >= {k2} steps, undone with card {m} at the bottom"
        found, _ = _kept_or_computed(m, k, k2, bounds, sub, how)
        inner = found.bound if found.bound < bounds[m - 1] else None
    listing = search(Tree(m, tuple(bounds[:m]), k, bottom=inner, every=True), run)
    patterns = np.array(listing.decks, dtype=np.int8).reshape(len(listing.decks), m)
    best = np.zeros(n, np.int8)
    longest, most_left, met = calls.call(extend_kernel, n, patterns, k, target, fibonacci_bound(n), best)
    deck = _complete(tuple(int(x) for x in best)) if longest >= 0 else ()  # nothing listed: k > f(n-1)
    if deck and rules.steps(deck) != longest:
        raise CheckFailed("the deck's replay", f"deck {deck} does not make {longest} steps")
    return Bottom(n=n, target=target, k=k, bound=max(k - 1, int(most_left)), listed=len(patterns),
                  longest=int(longest), deck=deck, nodes=listing.nodes + int(met),
                  seconds=round(time.perf_counter() - t0, 3), k2=k2, inner=inner)


def _complete(pattern: tuple[int, ...]) -> tuple[int, ...]:
    """A deck from a pattern: the undetermined positions take the unused values (any way
    plays the same game)."""
    unused = iter(sorted(set(range(1, len(pattern) + 1)) - set(pattern)))
    return tuple(x or next(unused) for x in pattern)


def _trusted(n: int, record: object) -> Bottom | None:
    """A kept record as a Bottom, if it is whole and what produced it holds together: its
    fields and their types, its n, k <= target, a bound of at least k - 1, and a deck that
    replays to its `longest` steps. Else None."""
    try:
        names = {f.name for f in fields(Bottom)}
        if not isinstance(record, dict) or not set(record) <= names:
            return None
        b = Bottom(**{**record, "deck": tuple(int(x) for x in record["deck"])})
        whole = all(isinstance(getattr(b, f), int) for f in ("n", "target", "k", "bound", "listed", "longest",
                                                               "nodes"))
        if not whole or b.n != n or not 1 <= b.k <= b.target or b.bound < b.k - 1:
            return None
        if b.deck and (len(b.deck) != n or not rules.is_deck(b.deck) or rules.steps(b.deck) != b.longest):
            return None
        return b
    except (KeyError, TypeError, ValueError):
        return None


def _records(n: int, store: str | None) -> tuple[list[Bottom], bool]:
    """The bounds for n the results store keeps that can be trusted, and whether any was damaged."""
    kept = known.bottoms(n, store)
    records = [_trusted(n, b) for b in kept] if isinstance(kept, list) else [None]
    return [b for b in records if b is not None], None in records


def stored(n: int, target: int, store: str | None) -> Bottom | None:
    """The tightest bound for n the results store keeps that holds for `target` (one
    computed for a target <= this one), if any. A damaged record is named on stderr, in
    one line, and passed over; the next bound kept for n replaces it."""
    records, damaged = _records(n, store)
    if damaged:
        sys.stderr.write(f"puzzlesearch: a bottom bound for n={n} in the results store is damaged; it is "
                         "passed over (and dropped when the next one is kept)\n")
    usable = [b for b in records if b.target <= target]
    return min(usable, key=lambda b: b.bound) if usable else None


def _kept_or_computed(n: int, target: int, k: int, bounds: list[int] | tuple[int, ...], run: RunOptions,
                      how: str, k2: int | None = None) -> tuple[Bottom, str]:
    """The bound for n and `target` from the results store, else computed with k (and k2)
    and kept, with `how` it was produced; and "store" or "listing"."""
    kept = stored(n, target, run.store)
    if kept is not None:
        return kept, "store"
    b = compute(n, target, k, bounds, run, k2)
    records, damaged = _records(n, run.store)
    with known.on_the_way():
        known.keep_bottom(n, asdict(b), how, b.seconds, run.store,
                          [asdict(r) for r in records] if damaged else None)
    return b, "listing"


def bottom_bound(n: int, target: int, witness: tuple[int, ...], bounds: list[int] | tuple[int, ...],
                 run: RunOptions, k: int | None = None, k2: int | None = None) -> tuple[Bottom, str] | None:
    """The bound for n and `target`, `witness` a deck of `target` steps, and where it
    comes from: "store" (read back) or "listing" (computed now, and kept). The listing is
    of the games of at least k steps (default: one more than the witness leaves once card
    n is at the bottom, the least that can give a tighter bound), chained with k2 if
    given (compute). None when
    card n never reaches the bottom in the witness, or is there from the start (then the
    witness's game is one of n - 1 cards, and there are no steps before card n reaches
    the bottom to bound the rest by; n = 1 is the one such case a search meets, its deck
    (1) making 0 steps)."""
    left = steps_left_at_bottom(witness)
    if left is None or left >= target:
        return None
    k = left + 1 if k is None else k
    chain = f", pruned by games of {n - 2} cards of >= {k2} steps" if k2 is not None else ""
    how = f"deep: games of {n - 1} cards of >= {k} steps{chain}, undone with card {n} at the bottom"
    return _kept_or_computed(n, target, k, bounds, run, how, k2)


__all__ = ["Bottom", "bottom_bound", "compute", "steps_left_at_bottom", "stored"]
