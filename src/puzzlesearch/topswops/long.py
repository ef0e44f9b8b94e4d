"""Long decks for any n (`topswops long`): an anytime search, not a proof.

Search backward from the final deck "1 _ _ ... _" (Pepperdine; Knuth's topswops.w, see
backward.py), where a walk of k un-moves is a deck of k steps. Exhaustive search stops
being possible near n = 16, so this keeps only what looks promising:

  1. beam search: at each depth keep the `width` partial decks with the highest score,
     undecided positions (freedom left for the un-moves to come) plus MOBILITY (2) times
     the legal un-moves (what can be undone right now), ties broken at random, no deck
     twice; the deepest deck reached is the run's deck. Widths double from one run to the
     next (a new random tie-break each time) while the time and the memory allow; then
     the widest beam that fits runs again and again, each time with new tie-breaks.
     Measured (2 workers, benchmarks/results/topswops_long.json): with undecided
     positions alone the beam stalls at 109, 129, 142 for n = 15, 16, 17; with the legal
     un-moves it reaches f(15) = 113 and f(16) = 139 in seconds, and 157 for n = 17.
  2. between beam runs, depth-first searches from a random prefix of the best walk, with
     children in random order and a random node budget (up to 2**20): a walk at least as
     long replaces the best, so the search drifts along plateaus.

Each longer deck is replayed by the plain rules (rules.steps) before it is reported.
The workers (--workers, threads) run this loop side by side with their own random
numbers; a deck is reported when it beats every worker's best. Measured
(benchmarks/topswops.py --long): see the README; this is a heuristic, and from n = 17
on it stays short of f(n).
"""

from __future__ import annotations

import operator
import threading
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


#: bytes the beams of all workers may hold together (each grows its width while its share fits)
BEAM_BYTES = 1 << 31
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


def beam_bytes(n: int, width: int) -> int:
    """Bytes one beam_kernel call holds at this width: its children (a deck, a hash, a score,
    an order, a parent and an un-move each), its two layers, and a parent link per depth."""
    kids = width * (n - 1)
    return kids * (n + 33) + 2 * width * n + 5 * width * min(walk_cap(n), n * n)


def long_decks(n: int, seconds: float = 60.0, seed: int = 0,
               report: Callable[[Improvement], None] | None = None, goal: int | None = None,
               workers: int = 1) -> LongResult:
    """The longest deck found in about `seconds` (beam searches of doubling width and
    depth-first searches from the best walk, see the module docstring), on `workers`
    threads, each with its own random numbers (from `seed` and its number). Each longer
    deck is replayed with rules.steps, then passed to `report` at once. Ctrl-C raises
    KeyboardInterrupt (the kernels run through engine.interrupt); what was reported stays.
    For n = 1 the deck (1) makes 0 steps. `goal`: stop as soon as a deck makes that many."""
    from puzzlesearch.engine import interrupt
    from puzzlesearch.topswops.long_kernel import start_deck

    n, seconds = check(n, seconds)
    if not 1 <= workers <= 1024:
        raise ValueError(f"workers must be between 1 and 1024, got {workers}")
    t0 = time.perf_counter()
    result = LongResult(n=n, seed=seed)
    lock = threading.Lock()
    stop = threading.Event()

    def found(walk: np.ndarray, steps: int, method: str) -> bool:
        """Report the walk's deck if it beats the best of every worker (under the lock)."""
        with lock:
            if steps <= result.steps:
                return False
            deck = tuple(int(x) for x in start_deck(n, walk, steps))
            played = rules.steps(deck)
            if played != steps:
                raise AssertionError(f"deck {deck} makes {played} steps, not {steps}")
            took = round(time.perf_counter() - t0, 3)
            imp = Improvement(steps=steps, deck=deck, seconds=took, method=method)
            result.improvements.append(imp)
            result.steps, result.deck = steps, deck
            if report is not None:
                report(imp)
            if goal is not None and steps >= goal:
                stop.set()
            return True

    found(np.zeros(walk_cap(n), np.uint8), 0, "start")
    jobs = [lambda w=w: _search(n, seconds, _rng(seed + (w << 40)), t0, found, stop,
                                BEAM_BYTES // workers, f" (worker {w})" if workers > 1 else "")
            for w in range(workers)]
    try:
        interrupt.parallel(jobs, workers)
    finally:
        stop.set()  # the other workers stop at their next look
    result.seconds = round(time.perf_counter() - t0, 3)
    return result


def _search(n: int, seconds: float, rng: np.ndarray, t0: float, found: Callable[[np.ndarray, int, str], bool],
            stop: threading.Event, budget: int, who: str) -> None:
    """One worker: beam searches of doubling width while the next fits in `budget` bytes
    (then again at the widest that fits, each with new random tie-breaks) and in the time
    left, and between them depth-first searches from two walks."""
    from puzzlesearch.topswops.long_kernel import beam_kernel, dfs_kernel

    cap = walk_cap(n)
    # two walks improved by depth-first searches: pools[0] takes each better beam walk,
    # pools[1] starts empty and never does (the beam's decks are much alike)
    pools = [np.zeros(cap, np.uint8), np.zeros(cap, np.uint8)]
    lengths = [0, 0]
    width, beam_took, tries = FIRST_WIDTH, 0.0, 1
    while not stop.is_set() and n > 1:
        left = seconds - (time.perf_counter() - t0)
        if left <= 0:
            break
        if beam_bytes(n, width) <= budget and beam_took * 2.5 < left:
            walk = np.zeros(cap, np.uint8)
            b0 = time.perf_counter()
            steps = calls.call(beam_kernel, n, width, rng, walk, cap)
            beam_took = time.perf_counter() - b0
            if steps > lengths[0]:
                pools[0][:] = walk
                lengths[0] = steps
            found(walk, steps, f"beam {width}{who}")
            if beam_bytes(n, 2 * width) <= budget:
                width *= 2
            # else the widest beam that fits runs again, with new random tie-breaks
        for p in range(2):
            d0 = time.perf_counter()
            steps, done = calls.call(dfs_kernel, n, pools[p], lengths[p], rng, tries, DFS_BUDGET_LOG)
            lengths[p] = steps
            if not found(pools[p], steps, f"dfs{who}") and done == tries and p == 1:
                # aim at calls of about DFS_CALL seconds, to stop on time
                took = time.perf_counter() - d0
                tries = max(1, min(10 * tries, int(tries * DFS_CALL / max(took, 1e-6))))


__all__ = ["MAX_LONG", "Improvement", "LongResult", "beam_bytes", "check", "long_decks", "walk_cap"]
