"""Long decks for any n (`topswops long`): an anytime search, not a proof.

Search backward from the final deck "1 _ _ ... _" (Pepperdine; Knuth's topswops.w, see
backward.py), where a walk of k un-moves is a deck of k steps. Exhaustive search stops
being possible near n = 16, so this keeps only what looks promising:

  1. beam search: at each depth keep the `width` partial decks with the most undecided
     positions (the most freedom left for the un-moves to come), ties broken at random,
     no deck twice; the deepest deck reached is the run's deck. Widths double from one
     run to the next (a new random tie-break each time) while the time allows.
  2. between beam runs, depth-first searches from a random prefix of the best walk, with
     children in random order and a random node budget (up to 2**20): a walk at least as
     long replaces the best, so the search drifts along plateaus.

Each longer deck is replayed by the plain rules (rules.steps) before it is reported.
Measured (benchmarks/topswops.py, `long`): see the README; this is a heuristic, and for
n >= 15 it stays short of f(n).
"""

from __future__ import annotations

import operator
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from puzzlesearch.topswops import calls, rules

#: cards are stored as bytes, 0 marking an undecided position: n <= 255
MAX_LONG = 255


def walk_cap(n: int) -> int:
    """The longest walk kept, in un-moves (f(n) < 0.8 n^2 for every known value)."""
    return max(1024, 2 * n * n)


#: bytes the beam may hold for its decks and children (it grows width while they fit)
BEAM_BYTES = 1 << 28
FIRST_WIDTH = 64
DFS_CALL = 0.2
DFS_BUDGET_LOG = 20


@dataclass(frozen=True)
class Improvement:
    steps: int
    deck: tuple[int, ...]
    seconds: float
    method: str


@dataclass
class LongResult:
    n: int
    seed: int
    steps: int = -1
    deck: tuple[int, ...] = ()
    improvements: list[Improvement] = field(default_factory=list)
    seconds: float = 0.0


def check(n: object, seconds: object) -> tuple[int, float]:
    """n and seconds if `long` supports them, else ValueError in the command line's words."""
    try:
        n = operator.index(n)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"n must be a whole number, got {n!r}") from None
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    if n > MAX_LONG:
        raise ValueError(f"long supports n <= {MAX_LONG} (cards are stored as bytes, 0 marking an undecided "
                         f"position), got n={n}")
    try:
        seconds = float(seconds)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ValueError(f"--seconds must be a number, got {seconds!r}") from None
    if not 0 < seconds < 1e7:  # also refuses nan and inf
        raise ValueError(f"--seconds must be more than 0 (and less than 1e7), got {seconds}")
    return n, seconds


def _rng(seed: int) -> np.ndarray:
    """The kernels' xorshift state from a seed (splitmix64 of it; never 0)."""
    x = (seed + 0x9E3779B97F4A7C15) & (2**64 - 1)  # any int, negative or huge
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
    x ^= x >> 31
    return np.array([x or 1], np.uint64)


def long_decks(n: int, seconds: float = 60.0, seed: int = 0,
               report: Callable[[Improvement], None] | None = None, goal: int | None = None) -> LongResult:
    """The longest deck found in about `seconds` (beam searches of doubling width and
    depth-first searches from the best walk, see the module docstring). Each longer deck
    is replayed with rules.steps, then passed to `report` at once. Ctrl-C raises
    KeyboardInterrupt (the kernels run through calls.call); what was reported stays.
    For n = 1 the deck (1) makes 0 steps. `goal`: stop as soon as a deck makes that many."""
    from puzzlesearch.topswops.long_kernel import beam_kernel, dfs_kernel, start_deck

    n, seconds = check(n, seconds)
    t0 = time.perf_counter()
    result = LongResult(n=n, seed=seed)
    rng = _rng(seed)
    cap = walk_cap(n)
    best = np.zeros(cap, np.uint8)
    length = 0  # the longest walk found

    def found(walk: np.ndarray, steps: int, method: str) -> None:
        deck = tuple(int(x) for x in start_deck(n, walk, steps))
        played = rules.steps(deck)
        if played != steps:
            raise AssertionError(f"deck {deck} makes {played} steps, not {steps}")
        imp = Improvement(steps=steps, deck=deck, seconds=round(time.perf_counter() - t0, 3), method=method)
        result.improvements.append(imp)
        result.steps, result.deck = steps, deck
        if report is not None:
            report(imp)

    found(best, 0, "start")
    # two walks improved by depth-first searches: pools[0] takes each better beam walk,
    # pools[1] starts empty and never does (the beam's decks are much alike)
    pools = [best, np.zeros(cap, np.uint8)]
    lengths = [0, 0]
    width, beam_took, tries = FIRST_WIDTH, 0.0, 1
    while True:
        left = seconds - (time.perf_counter() - t0)
        if left <= 0 or n == 1 or (goal is not None and length >= goal):
            break
        if width * n * n <= BEAM_BYTES and beam_took * 2.5 < left:
            walk = np.zeros(cap, np.uint8)
            b0 = time.perf_counter()
            steps = calls.call(beam_kernel, n, width, rng, walk, cap)
            beam_took = time.perf_counter() - b0
            if steps > lengths[0]:
                pools[0][:] = walk
                lengths[0] = steps
            if steps > length:
                length = steps
                found(walk, length, f"beam {width}")
            width *= 2
        for p in range(2):
            d0 = time.perf_counter()
            steps, done = calls.call(dfs_kernel, n, pools[p], lengths[p], rng, tries, DFS_BUDGET_LOG)
            lengths[p] = steps
            if steps > length:
                length = steps
                found(pools[p], length, "dfs")
            elif done == tries and p == 1:  # aim at calls of about DFS_CALL seconds, to stop on time
                took = time.perf_counter() - d0
                tries = max(1, min(10 * tries, int(tries * DFS_CALL / max(took, 1e-6))))
    result.seconds = round(time.perf_counter() - t0, 3)
    return result


__all__ = ["MAX_LONG", "Improvement", "LongResult", "check", "long_decks", "walk_cap"]
