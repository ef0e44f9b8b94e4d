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

Before the workers start, one greedy beam (width 1) runs to its end whatever the time
(0.2 s at n = 255), so that a run however short answers with a deck a search found, not
the start deck (f(2) = 1 by it alone).

Each longer deck is replayed by the plain rules (rules.steps) before it is reported.
The workers (--workers, threads) run this loop side by side with their own random
numbers; a deck is reported when it beats every worker's best. Measured
(benchmarks/topswops.py --long): see the README; this is a heuristic, and from n = 17
on it stays short of f(n).

The run ends `seconds` after long_decks is called (loading or compiling the kernels
counts): a beam runs in kernel calls of about BEAM_CALL seconds with the clock read
between them (nopython code cannot read it), and one cut short by the deadline gives the
deepest deck it has reached; a depth-first call stops at the nodes it can visit in the
time left (at the speed the worker measured last). With more workers than cores, one
kernel per core runs at a time, so that no call crawls past the deadline. Numba's first
compilation cannot be cut short: on a fresh install the first run compiles every kernel
of the search at its start (about 9 s here) and overruns by that; later runs load them
from numba's cache.
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from puzzlesearch.engine.failures import CheckFailed
from puzzlesearch.engine.params import number, whole
from puzzlesearch.topswops import calls, rules
from puzzlesearch.topswops.limits import MAX_LONG_WORKERS

#: cards are stored as bytes, 0 marking an undecided position: n <= 255
MAX_LONG = 255


def walk_cap(n: int) -> int:
    """The longest walk kept, in un-moves (f(n) < 0.8 n^2 for every known value)."""
    return max(1024, 2 * n * n)


#: bytes the beams of all workers may hold together (each grows its width while its share fits)
BEAM_BYTES = 1 << 31
FIRST_WIDTH = 64
#: seconds a depth-first kernel call aims at, and a beam's kernel calls: the clock is read
#: between calls, so the beam's bound how far a run can go past its deadline (a depth-first
#: call is also cut at the nodes it can visit in the time left, at the speed last measured)
DFS_CALL = 0.2
BEAM_CALL = 0.05
DFS_BUDGET_LOG = 20
#: depth-first nodes per second assumed until a call has measured them: below the speed
#: measured at every n (n = 255: 1.6e6, n = 16: 1.4e7), so that a first call near the
#: deadline ends in time
DFS_FIRST_SPEED = 1e6
#: depths of parent links per block a beam allocates as it goes deeper
BLOCK_ROWS = 256


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


class LongInterrupted(KeyboardInterrupt):
    """Ctrl-C during long_decks: ``result`` is the LongResult of the decks found until then
    (its seconds: the run's until then), so that an interrupted run loses none of them."""

    def __init__(self, result: LongResult):
        super().__init__()
        self.result = result


def check(n: object, seconds: object) -> tuple[int, float]:
    """n and seconds if `long` supports them, else ValueError in the command line's words."""
    n = whole(n, "n")
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    if n > MAX_LONG:
        raise ValueError(f"long supports n <= {MAX_LONG} (cards are stored as bytes, 0 marking an undecided "
                         f"position), got n={n}")
    seconds = number(seconds, "--seconds")
    if not 0 < seconds < 1e7:  # also refuses nan and inf
        raise ValueError(f"--seconds must be more than 0 (and less than 1e7), got {seconds}")
    return n, seconds


def rng_state(seed: int) -> np.ndarray:
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
    threads (at most MAX_LONG_WORKERS; a kernel per core runs at a time), each with its own
    random numbers (from `seed` and its number). Each longer
    deck is replayed with rules.steps, then passed to `report` at once. Ctrl-C raises
    LongInterrupted, a KeyboardInterrupt carrying the decks found so far (the kernels run
    through engine.interrupt).
    For n = 1 the deck (1) makes 0 steps. `goal`: stop as soon as a deck makes that many."""
    t0 = time.perf_counter()  # the kernels' loading (numba) counts in the run's seconds
    n, seconds = check(n, seconds)
    if not 1 <= workers <= MAX_LONG_WORKERS:
        raise ValueError(f"--workers must be between 1 and {MAX_LONG_WORKERS} for long, got {workers}")
    from puzzlesearch.engine import interrupt
    from puzzlesearch.engine.options import cores
    from puzzlesearch.topswops.longdecks_kernel import start_deck

    result = LongResult(n=n, seed=seed)
    lock = threading.Lock()
    stop = threading.Event()
    # at most a kernel per core at once: with more workers than cores, each kernel call
    # still runs at a core's speed, so that the calls under way at the deadline end soon
    slots = threading.BoundedSemaphore(min(workers, cores()))

    def found(walk: np.ndarray, steps: int, method: str) -> bool:
        """Report the walk's deck if it beats the best of every worker (under the lock)."""
        with lock:
            if steps <= result.steps:
                return False
            deck = tuple(int(x) for x in start_deck(n, walk, steps))
            played = rules.steps(deck)
            if played != steps:
                raise CheckFailed("the deck's replay", f"deck {deck} makes {played} steps, not {steps}")
            took = round(time.perf_counter() - t0, 3)
            imp = Improvement(steps=steps, deck=deck, seconds=took, method=method)
            result.improvements.append(imp)
            result.steps, result.deck = steps, deck
            if report is not None:
                report(imp)
            if goal is not None and steps >= goal:
                stop.set()
            return True

    jobs = [lambda w=w: _search(n, t0 + seconds, rng_state(seed + (w << 40)), found, stop, slots,
                                BEAM_BYTES // workers, f" (worker {w})" if workers > 1 else "")
            for w in range(workers)]
    try:
        found(np.zeros(walk_cap(n), np.uint8), 0, "start")
        if n > 1:
            _load_kernels()
            # a beam of width 1 runs to its end whatever the deadline (0.2 s at n = 255), so
            # that even the shortest run answers with a deck a search found, not the start
            found(*beam(n, 1, rng_state(seed), walk_cap(n)), "beam 1")
        interrupt.parallel(jobs, workers)
    except KeyboardInterrupt as e:
        stop.set()
        with lock:  # a copy: a worker still finishing its call must not change it
            partial = LongResult(n=n, seed=seed, steps=result.steps, deck=result.deck,
                                 improvements=list(result.improvements),
                                 seconds=round(time.perf_counter() - t0, 3))
        raise LongInterrupted(partial) from e
    finally:
        stop.set()  # the other workers stop at their next look
    result.seconds = round(time.perf_counter() - t0, 3)
    return result


def _load_kernels() -> None:
    """Every kernel of the search called once on a tiny input: loaded from numba's cache,
    or compiled on a fresh install. So a run that compiles compiles them all, at its start
    (its seconds count it), rather than a later run compiling the one it had not reached."""
    from puzzlesearch.topswops.longdecks_kernel import dfs_kernel

    beam(2, 1, rng_state(0), 2)
    calls.call(dfs_kernel, 2, np.zeros(2, np.uint8), 0, rng_state(0), 1, DFS_BUDGET_LOG, 1)


def beam(n: int, width: int, rng: np.ndarray, maxdepth: int, deadline: float = math.inf,
         stop: threading.Event | None = None, slots: threading.Semaphore | None = None
         ) -> tuple[np.ndarray, int]:
    """A beam search of `width` (longdecks_kernel.beam_kernel) to at most `maxdepth` un-moves,
    ending when the beam does, at `deadline` (a time.perf_counter() value) or when `stop`
    is set: the walk of a deepest deck reached (an array of maxdepth un-moves) and its
    length. The kernel is called again and again, each call sized to about BEAM_CALL
    seconds (and to the time left), so that the clock is read often; where the calls end
    changes nothing in the beam (the kernel's docstring). Each call holds one of `slots`."""
    from puzzlesearch.topswops.longdecks_kernel import COUNT, DEPTH, DONE, beam_kernel, beam_walk

    rows = width * (n - 1)  # every legal un-move of every deck: at most n - 1 each
    cur = np.zeros((width, n), np.uint8)
    cur_free = np.zeros(width, np.int64)
    kids = np.zeros((rows, n), np.uint8)
    kid_from, kid_k = np.zeros(rows, np.int64), np.zeros(rows, np.uint8)
    score, keys, order = np.zeros(rows, np.int64), np.zeros(rows, np.uint64), np.zeros(rows, np.int64)
    cur[0, 0] = 1
    cur_free[0] = n - 1
    state = np.zeros(5, np.int64)
    state[COUNT] = 1
    blocks: list[tuple[int, np.ndarray, np.ndarray]] = []  # (first depth, parents, un-moves)
    budget = 1  # decks to expand in the next call; grows to BEAM_CALL seconds' worth
    while not state[DONE]:
        depth = int(state[DEPTH])
        if not blocks or depth - blocks[-1][0] == len(blocks[-1][1]):
            size = min(BLOCK_ROWS, maxdepth - depth)
            blocks.append((depth, np.zeros((size, width), np.int32), np.zeros((size, width), np.uint8)))
        base, par, park = blocks[-1]
        with slots or contextlib.nullcontext():
            c0 = time.perf_counter()
            if c0 >= deadline:
                break
            work = calls.call(beam_kernel, n, width, rng, cur, cur_free, kids, kid_from, kid_k, score, keys,
                              order, state, par, park, base, budget, maxdepth)
            now = time.perf_counter()
        if now >= deadline or (stop is not None and stop.is_set()):
            break
        speed = max(work, 1) / max(now - c0, 1e-6)
        budget = max(1, min(10 * budget, int(speed * min(BEAM_CALL, deadline - now))))
    depth = int(state[DEPTH])
    walk = np.zeros(maxdepth, np.uint8)
    b = 0  # the walk of deck 0 at the last depth, read back through the parents
    for base, par, park in reversed(blocks):
        if depth > base:
            b = beam_walk(par, park, min(len(par), depth - base), b, walk, base)
    return walk, depth


def _search(n: int, deadline: float, rng: np.ndarray, found: Callable[[np.ndarray, int, str], bool],
            stop: threading.Event, slots: threading.Semaphore, budget: int, who: str) -> None:
    """One worker: beam searches of doubling width while the next fits in `budget` bytes
    (then again at the widest that fits, each with new random tie-breaks) and in the time
    left, and between them depth-first searches from two walks; all of it ends at
    `deadline` (time.perf_counter()). Each kernel call holds one of `slots`."""
    from puzzlesearch.topswops.longdecks_kernel import dfs_kernel

    cap = walk_cap(n)
    # two walks improved by depth-first searches: pools[0] takes each better beam walk,
    # pools[1] starts empty and never does (the beam's decks are much alike)
    pools = [np.zeros(cap, np.uint8), np.zeros(cap, np.uint8)]
    lengths = [0, 0]
    width, beam_took, tries = FIRST_WIDTH, 0.0, 1
    speed = DFS_FIRST_SPEED
    while not stop.is_set() and n > 1:
        left = deadline - time.perf_counter()
        if left <= 0:
            break
        if beam_bytes(n, width) <= budget and beam_took * 2.5 < left:
            b0 = time.perf_counter()
            walk, steps = beam(n, width, rng, cap, deadline, stop, slots)
            beam_took = time.perf_counter() - b0
            if steps > lengths[0]:
                pools[0][:] = walk
                lengths[0] = steps
            found(walk, steps, f"beam {width}{who}")
            if beam_bytes(n, 2 * width) <= budget:
                width *= 2
            # else the widest beam that fits runs again, with new random tie-breaks
        for p in range(2):
            with slots:
                d0 = time.perf_counter()
                left = deadline - d0
                if left <= 0:  # (a `stop` is seen at the loop's head, after both calls)
                    break
                most = max(1, int(speed * left))  # the nodes it can visit before the deadline
                steps, done, nodes = calls.call(dfs_kernel, n, pools[p], lengths[p], rng, tries,
                                                DFS_BUDGET_LOG, most)
                ran = time.perf_counter() - d0
            if ran > 1e-3:  # long enough for the call's overhead not to count
                speed = nodes / ran
            lengths[p] = steps
            if not found(pools[p], steps, f"dfs{who}") and done == tries and p == 1:
                # aim at calls of about DFS_CALL seconds, to stop on time
                took = time.perf_counter() - d0
                tries = max(1, min(10 * tries, int(tries * DFS_CALL / max(took, 1e-6))))


__all__ = ["MAX_LONG", "Improvement", "LongResult", "beam", "beam_bytes", "check",
           "long_decks", "rng_state", "walk_cap"]
