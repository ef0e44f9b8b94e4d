"""Topswops: f(n) by two independent searches, the decks that reach it, and plain play.

    >>> from puzzlesearch import topswops
    >>> topswops.solve(8)            # both searches, cross-checked
    >>> topswops.optimal(6).decks    # every deck making f(6) = 10 steps
    >>> topswops.play((3, 1, 2)).trace
"""

from __future__ import annotations

from dataclasses import dataclass, field

from puzzlesearch.topswops import rules
from puzzlesearch.topswops.backward import BackwardResult, solve_backward
from puzzlesearch.topswops.forward import ForwardResult, remember, solve_forward

MODES = ("backward", "forward", "both")


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


def solve(
    n: int = 10,
    mode: str = "both",
    *,
    store: str | None = None,
    workers: int | None = 1,
    scheduler: str | None = None,
    checkpoint: str | None = None,
    progress: bool = False,
) -> Solution:
    """f(n) by the backward search, the forward search, or both (then cross-checked).

    Every deck returned is replayed with the plain rules; a deck that does not make the
    reported number of steps raises AssertionError. The value found is kept in the
    results store for later forward searches to use as a bound.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    details: dict[str, BackwardResult | ForwardResult] = {}
    if mode in ("backward", "both"):
        details["backward"] = solve_backward(n)
    if mode in ("forward", "both"):
        details["forward"] = solve_forward(
            n, store=store, workers=workers, scheduler=scheduler, checkpoint=checkpoint, progress=progress
        )
    for method, r in details.items():
        for deck in r.decks:
            if rules.steps(deck) != r.steps:
                raise AssertionError(f"{method} deck {deck} does not make {r.steps} steps")
    b, f = details.get("backward"), details.get("forward")
    match = None if b is None or f is None else (b.steps == f.steps and b.decks == f.decks)
    if match is not False:
        best = next(iter(details.values()))
        remember(n, best.steps, "+".join(details), sum(r.seconds for r in details.values()), store)
    decks = sorted(set().union(*(r.decks for r in details.values())))
    return Solution(
        n=n,
        backward=b.steps if b else None,
        forward=f.steps if f else None,
        match=match,
        decks=decks,
        nodes={k: r.nodes for k, r in details.items()},
        seconds={k: round(r.seconds, 4) for k, r in details.items()},
        details=details,
    )


def optimal(n: int, mode: str = "forward", **kwargs) -> Optimal:
    """Every deck of n cards that makes f(n) steps (OEIS A123398 counts them)."""
    if mode not in ("backward", "forward"):
        raise ValueError(f"mode must be backward or forward, not {mode!r}")
    s = solve(n, mode, **kwargs)
    return Optimal(n=n, steps=s.backward if mode == "backward" else s.forward, decks=s.decks)


def play(deck: tuple[int, ...] | list[int]) -> Play:
    """Play a deck to its end with the plain rules."""
    deck = tuple(deck)
    if not rules.is_deck(deck):
        raise ValueError(f"not a permutation of 1..{len(deck)}: {' '.join(map(str, deck))}")
    trace = rules.trace(deck)
    return Play(deck=deck, steps=len(trace) - 1, trace=trace)


__all__ = ["MODES", "Optimal", "Play", "Solution", "optimal", "play", "rules", "solve"]
