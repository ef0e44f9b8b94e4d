"""Topswops, the public API: f(n) by two independent searches, the decks that reach it,
and plain play.

``solve(n, mode)`` runs the backward search (backward.py), the forward search
(forward.py) or both, and cross-checks them; ``optimal(n)`` lists every deck reaching
f(n); ``play(deck)`` plays a deck with the plain rules (rules.py). Every check of the
command line is made here, in the command line's words (a ValueError), so the API refuses
exactly what ``puzzlesearch topswops`` refuses. Long searches take ``run: RunOptions``
(workers, scheduler, checkpoint, results store, progress). The search modules, and with
them numba, are imported only by ``solve`` and ``optimal``.

>>> from puzzlesearch import topswops
>>> s = topswops.solve(8)
>>> s.backward, s.forward, s.match, s.decks
(22, 22, True, [(6, 1, 5, 7, 8, 3, 2, 4)])
>>> topswops.optimal(7).decks
[(3, 1, 4, 6, 7, 5, 2), (4, 7, 6, 2, 1, 5, 3)]
>>> topswops.play([3, 1, 2]).trace
[(3, 1, 2), (2, 1, 3), (1, 2, 3)]
>>> topswops.play("3 1 4 5 2").steps
7
>>> topswops.solve(16)
Traceback (most recent call last):
...
ValueError: --mode both supports n <= 15 (the backward search packs a deck in 64 bits), got n=16; \
--mode forward goes to n = 16
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from puzzlesearch.engine.options import RunOptions
from puzzlesearch.topswops import rules
from puzzlesearch.topswops.limits import DEEP_FROM, MAX_LONG_WORKERS, check_n

if TYPE_CHECKING:
    from collections.abc import Callable

    from puzzlesearch.topswops.backward import BackwardResult
    from puzzlesearch.topswops.estimate import Estimate
    from puzzlesearch.topswops.forward import ForwardResult
    from puzzlesearch.topswops.long import Improvement, LongResult

MODES = ("backward", "forward", "both")
#: the modes that list decks (optimal)
SEARCHES = ("backward", "forward")


@dataclass(frozen=True)
class Solution:
    n: int
    backward: int | None
    forward: int | None
    match: bool | None  # both values and both deck lists agree (None: one mode only)
    decks: list[tuple[int, ...]]  # full starting decks reaching the maximum
    nodes: dict[str, int]
    seconds: dict[str, float]
    details: dict[str, BackwardResult | ForwardResult] = field(repr=False, compare=False)


@dataclass(frozen=True)
class Optimal:
    n: int
    steps: int
    decks: list[tuple[int, ...]]


@dataclass(frozen=True)
class Play:
    deck: tuple[int, ...]
    steps: int
    trace: list[tuple[int, ...]]


def _check_run(mode: str, run: RunOptions) -> None:
    """The backward search is one kernel call in this process: refuse what it would ignore."""
    if mode == "backward":
        for name, value in (("--checkpoint", run.checkpoint), ("--scheduler", run.scheduler)):
            if value is not None:
                raise ValueError(f"{name} applies to the forward search; --mode backward runs in one call "
                                 "in this process")


def solve(n: int = 10, mode: str = "both", *, run: RunOptions = RunOptions(),  # noqa: B008
          deep: bool | None = None, start: str | Iterable[int | str] | None = None) -> Solution:
    """f(n) by the backward search, the forward search, or both (then cross-checked).

    Every deck returned is replayed with the plain rules; a deck that does not make the
    reported number of steps raises AssertionError. The value found is kept in the
    results store (``run.store``) for later forward searches to use as a bound; if that
    fails, ``engine.store.NotSaved`` carries the solution. ``run`` also says where the
    forward search runs (the engine's worker policy: in this process for n < 13, else
    on all cores) and whether progress is drawn. `deep` (default: n >= DEEP_FROM):
    the forward search starts at a long deck and prunes with the bound once card n is
    at the bottom (deep.py); it finds the same decks. `start`: a deck found beforehand
    (see :func:`deck`) to start at instead of the one `long` finds (implies `deep`).
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    n = check_n(n, mode)
    _check_run(mode, run)
    if deep is not None and mode == "backward":
        flag = "--deep" if deep else "--no-deep"
        raise ValueError(f"{flag} applies to the forward search; --mode backward has no deep search")
    if start is not None:
        if mode == "backward":
            raise ValueError("--start applies to the forward search; --mode backward needs no start")
        if deep is False:
            raise ValueError("--start is where the deep forward search starts; it cannot go with --no-deep")
        start = deck(start)
        if len(start) != n:
            raise ValueError(f"the start deck has {len(start)} cards, not n = {n}")
    run.check_paths(store=True)
    from puzzlesearch.engine.store import saving
    from puzzlesearch.topswops.backward import solve_backward
    from puzzlesearch.topswops.bounds import remember
    from puzzlesearch.topswops.forward import solve_forward

    details: dict[str, BackwardResult | ForwardResult] = {}
    if mode in ("backward", "both"):
        details["backward"] = solve_backward(n, progress=run.progress)
    if mode in ("forward", "both"):
        from puzzlesearch.topswops import deep as deeper

        if start is not None or (DEEP_FROM <= n if deep is None else deep):
            details["forward"] = deeper.solve(n, run=run, start=start)
        else:
            details["forward"] = solve_forward(n, run=run)
    for method, r in details.items():
        for d in r.decks:
            if rules.steps(d) != r.steps:
                raise AssertionError(f"{method} deck {d} does not make {r.steps} steps")
    b, f = details.get("backward"), details.get("forward")
    match = None if b is None or f is None else (b.steps == f.steps and b.decks == f.decks)
    solution = Solution(
        n=n,
        backward=b.steps if b else None,
        forward=f.steps if f else None,
        match=match,
        decks=sorted(set().union(*(r.decks for r in details.values()))),
        nodes={k: r.nodes for k, r in details.items()},
        seconds={k: round(r.seconds, 4) for k, r in details.items()},
        details=details,
    )
    if match is not False:
        best = next(iter(details.values()))
        with saving(solution, f"f({n}) = {best.steps}"):
            remember(n, best.steps, "+".join(details), sum(r.seconds for r in details.values()), run.store)
    return solution


def optimal(n: int, mode: str = "forward", *, run: RunOptions = RunOptions()) -> Optimal:  # noqa: B008
    """Every deck of n cards that makes f(n) steps (OEIS A123398 counts them)."""
    if mode not in SEARCHES:
        raise ValueError(f"mode must be backward or forward, not {mode!r}")
    s = solve(n, mode, run=run)
    return Optimal(n=s.n, steps=s.backward if mode == "backward" else s.forward, decks=s.decks)


def long(n: int, seconds: float = 60.0, seed: int = 0,
         report: Callable[[Improvement], None] | None = None, goal: int | None = None,
         workers: int | None = None) -> LongResult:
    """Long decks of n cards (n <= 255) by an anytime search of about `seconds`
    (long.py) on `workers` threads (default: all cores): each longer deck, replayed with
    the plain rules, goes to `report` at once. `goal`: stop as soon as a deck makes that
    many steps."""
    from puzzlesearch.engine.options import cores
    from puzzlesearch.topswops.long import long_decks

    return long_decks(n, seconds, seed, report, goal, workers=cores() if workers is None else workers)


def estimate(n: int, workers: int | None = None, probes: int = 200_000, seed: int = 0,
             store: str | None = None) -> Estimate:
    """Knuth's random-probe estimate of the forward search's nodes for n (n <= 16), and
    its expected time on `workers` workers (estimate.py)."""
    from puzzlesearch.topswops.estimate import estimate as knuth

    return knuth(n, workers=workers, probes=probes, seed=seed, store=store)


def deck(cards: str | Iterable[int | str]) -> tuple[int, ...]:
    """A deck from its cards, top first: whole numbers given as a sequence or as a string
    ("3 1 2", "3,1,2"). ValueError unless they are a permutation of 1..n."""
    words = cards.replace(",", " ").split() if isinstance(cards, str) else list(cards)
    try:
        cards = tuple(int(w) if isinstance(w, str) else operator.index(w) for w in words)
    except (TypeError, ValueError):
        raise ValueError(f"the deck must be whole numbers, got {' '.join(map(str, words))!r}") from None
    if not cards:
        raise ValueError('the deck is empty: give its cards from the top, e.g. "3 1 2"')
    if not rules.is_deck(cards):
        raise ValueError(f"not a permutation of 1..{len(cards)}: {' '.join(map(str, cards))}")
    return cards


def play(cards: str | Iterable[int | str]) -> Play:
    """Play a deck (see :func:`deck`) to its end with the plain rules."""
    d = deck(cards)
    trace = rules.trace(d)
    return Play(deck=d, steps=len(trace) - 1, trace=trace)


__all__ = ["DEEP_FROM", "MAX_LONG_WORKERS", "MODES", "SEARCHES", "Optimal", "Play", "RunOptions", "Solution",
           "deck", "estimate", "long", "optimal", "play", "solve"]
