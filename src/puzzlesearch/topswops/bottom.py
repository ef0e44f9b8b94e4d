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

import time
from dataclasses import asdict, dataclass

import numpy as np

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


def steps_left_at_bottom(deck: tuple[int, ...]) -> int | None:
    """Steps the game of `deck` makes after card n first reaches the bottom (None if it never does)."""
    n = len(deck)
    trace = rules.trace(deck)
    for i, d in enumerate(trace):
        if d[-1] == n:
            return len(trace) - 1 - i
    return None


def compute(n: int, target: int, k: int, bounds: list[int] | tuple[int, ...], run: RunOptions) -> Bottom:
    """The bound of the module docstring for games of n cards of at least `target` steps,
    listing the games of n - 1 cards of at least k steps. bounds: f(0..n-2)."""
    if not 1 <= k <= target:
        raise ValueError(f"k must be between 1 and the target {target}, got {k}")
    t0 = time.perf_counter()
    m = n - 1
    listing = search(Tree(m, tuple(bounds[:m]), k, every=True), run)
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


def stored(n: int, target: int, store: str | None) -> Bottom | None:
    """The tightest bound for n the results store keeps that holds for `target` (one
    computed for a target <= this one), if any."""
    usable = [b for b in known.bottoms(n, store) if b["target"] <= target]
    if not usable:
        return None
    b = min(usable, key=lambda b: b["bound"])
    return Bottom(**{**b, "deck": tuple(b["deck"])})


def bottom_bound(n: int, target: int, witness: tuple[int, ...], bounds: list[int] | tuple[int, ...],
                 run: RunOptions) -> tuple[Bottom, str] | None:
    """The bound for n and `target`, `witness` a deck of `target` steps giving k, and where
    it comes from: "store" (read back) or "listing" (computed now, and kept). None when
    card n never reaches the bottom in the witness, or is there from the start (then the
    witness's game is one of n - 1 cards, and there are no steps before card n reaches
    the bottom to bound the rest by; n = 1 is the one such case a search meets, its deck
    (1) making 0 steps)."""
    left = steps_left_at_bottom(witness)
    if left is None or left >= target:
        return None
    kept = stored(n, target, run.store)
    if kept is not None:
        return kept, "store"
    b = compute(n, target, left + 1, bounds, run)
    known.keep_bottom(n, asdict(b), f"deep: games of {n - 1} cards of >= {b.k} steps, undone with card {n} "
                                    "at the bottom", b.seconds, run.store)
    return b, "listing"


__all__ = ["Bottom", "bottom_bound", "compute", "steps_left_at_bottom", "stored"]
