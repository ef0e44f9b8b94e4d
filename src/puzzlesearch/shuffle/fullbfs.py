"""Everything reachable, by breadth-first search over permutation ranks ("God's algorithm").

One byte per deck, indexed by its rank (see `ranking`), holds its distance from the start
(255 = not reached yet); when every move is even only the start's parity is indexed.
Layer d+1 is found from layer d in one of two ways (Beamer's direction-optimising BFS):

* top-down: scan for decks at distance d, apply each move, mark the unreached images;
* bottom-up: scan for unreached decks, apply the inverse moves, and mark the deck as
  soon as one of its predecessors is at distance d.

Each deck handled costs one unranking and m rankings either way, so bottom-up is used
once the unreached decks are fewer than the frontier: for these puzzles, the last two
or three layers. Both are a linear scan plus random probes into the byte array. The
scan steps the Lehmer digits of consecutive frontier decks instead of unranking each,
and a move that leaves the bottom cards in place leaves their digits alone too, so only
the top digits are recomputed. (Korf 2008 for BFS over permutation ranks; Beamer,
Asanovic and Patterson 2012 for the direction switch.)
The array is the whole memory cost, so it is computed from the size alone and checked
against the memory cap (puzzle.check_census) before it is allocated. Each layer's kernel
runs through engine.interrupt (Ctrl-C is seen at once), and a bar shows the decks
reached so far (engine.progress.Meter).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from math import factorial

import numpy as np
from numba import njit

from puzzlesearch.engine import interrupt
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.progress import Meter
from puzzlesearch.shuffle.puzzle import PermPuzzle, census_bytes, check_census, check_show, parity
from puzzlesearch.shuffle.ranking import digits_of, perm_of, popcount, rank_deck, step, unrank_deck

UNSEEN = 255


@dataclass(frozen=True)
class Census:
    """The whole reachable state space: histogram[d] = decks at distance d from the start."""

    puzzle: str
    start: tuple[int, ...]
    states: int  # decks reachable from the start
    diameter: int  # largest distance (for pancakes: the pancake number)
    histogram: tuple[int, ...]
    farthest: tuple[tuple[int, ...], ...]  # up to `show` decks at the largest distance
    farthest_count: int
    indexed: int  # decks the byte array covers (n! or n!/2)
    bytes: int
    directions: str  # per layer: 't' top-down, 'b' bottom-up
    seconds: float


@njit(cache=True)
def image_ranks(perm, digits, n, moves, reach, fact, compressed, suffix, ranks):
    """ranks[j] = rank of perm after move j.

    A move leaves positions reach[j].. in place, and a Lehmer digit depends only on the
    cards before it, so those digits are perm's own: only the first reach[j] are recomputed.
    """
    suffix[n] = 0
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + digits[i] * fact[n - 1 - i]
    for j in range(moves.shape[0]):
        top = reach[j]
        used = 0
        r = 0
        for i in range(top):
            c = perm[moves[j, i]]
            r += (c - popcount(used & ((1 << c) - 1))) * fact[n - 1 - i]
            used |= 1 << c
        r += suffix[top]
        ranks[j] = (r >> 1) if compressed else r


@njit(cache=True)
def locate(idx, last, n, compressed, par, perm, digits):
    """perm, digits = the deck at idx, stepping the digits from `last` when it is close."""
    if 0 <= last and idx - last <= 16:
        for _ in range(idx - last):
            step(digits, n, compressed)
    else:
        digits_of(idx, n, compressed, digits)
    perm_of(digits, n, compressed, par, perm)


@njit(cache=True, nogil=True)
def top_down(depth, d, n, moves, reach, fact, compressed, par):
    """Mark every unreached image of a deck at distance d with d+1; how many were marked."""
    m = moves.shape[0]
    perm = np.empty(n, dtype=np.int64)
    digits = np.zeros(n, dtype=np.int64)
    suffix = np.empty(n + 1, dtype=np.int64)
    ranks = np.empty(m, dtype=np.int64)
    marked = 0
    last = -1
    for idx in range(depth.shape[0]):
        if depth[idx] != d:
            continue
        locate(idx, last, n, compressed, par, perm, digits)
        last = idx
        # all ranks first, then the probes: independent loads the CPU can overlap
        image_ranks(perm, digits, n, moves, reach, fact, compressed, suffix, ranks)
        for j in range(m):
            if depth[ranks[j]] == 255:
                depth[ranks[j]] = d + 1
                marked += 1
    return marked


@njit(cache=True, nogil=True)
def bottom_up(depth, d, n, inverse, reach, fact, compressed, par):
    """Mark every unreached deck with a predecessor at distance d with d+1; how many.

    Its scratch arrays and scan mirror `top_down`'s on purpose: the two loops differ in
    their test and their marking, and each stays one flat numba loop.
    """
    m = inverse.shape[0]
    perm = np.empty(n, dtype=np.int64)
    digits = np.zeros(n, dtype=np.int64)
    suffix = np.empty(n + 1, dtype=np.int64)
    ranks = np.empty(m, dtype=np.int64)
    marked = 0
    last = -1
    for idx in range(depth.shape[0]):
        if depth[idx] != 255:
            continue
        locate(idx, last, n, compressed, par, perm, digits)
        last = idx
        image_ranks(perm, digits, n, inverse, reach, fact, compressed, suffix, ranks)
        for j in range(m):
            if depth[ranks[j]] == d:
                depth[idx] = d + 1
                marked += 1
                break
    return marked


@njit(cache=True, nogil=True)
def histogram(depth):
    counts = np.zeros(256, dtype=np.int64)
    for idx in range(depth.shape[0]):
        counts[depth[idx]] += 1
    return counts


@njit(cache=True, nogil=True)
def collect(depth, d, limit, out):
    """The first `limit` indices at distance d into out; how many there are in all."""
    k = 0
    for idx in range(depth.shape[0]):
        if depth[idx] == d:
            if k < limit:
                out[k] = idx
            k += 1
    return k


def index_size(puzzle: PermPuzzle) -> tuple[int, bool]:
    """Decks the byte array must cover, and whether it covers one parity only."""
    compressed = _one_parity(puzzle)
    return census_bytes(puzzle.size, compressed), compressed


def _one_parity(puzzle: PermPuzzle) -> bool:
    return puzzle.size >= 2 and len(puzzle.moves) > 0 and puzzle.all_moves_even()


def distances(puzzle: PermPuzzle, start: Sequence[int] | None = None, *,
              run: RunOptions = RunOptions()) -> tuple[np.ndarray, bool, int, str]:  # noqa: B008 (frozen)
    """The distance byte array from start; (depth, compressed, parity, directions).

    Refuses (ValueError) a puzzle beyond the rank limit or the memory cap `run.memory`
    before allocating; `run.progress` draws a bar of the decks reached on a terminal.
    """
    n = puzzle.size
    compressed = _one_parity(puzzle)
    size = check_census(puzzle.name, n, compressed, run.memory, puzzle.unit, puzzle.item)
    start = tuple(range(1, n + 1)) if start is None else tuple(start)
    par = parity(start)
    moves = np.array(puzzle.moves, dtype=np.int64).reshape(-1, n)
    inverse = np.array(puzzle.inverse_moves(), dtype=np.int64).reshape(-1, n)
    # first position from which each move leaves the deck alone (same for its inverse)
    reach = np.array([max((i + 1 for i in range(n) if mv[i] != i), default=0) for mv in puzzle.moves],
                     dtype=np.int64)
    fact = np.array([factorial(i) for i in range(n + 1)], dtype=np.int64)
    depth = np.full(size, UNSEEN, dtype=np.uint8)
    depth[rank_deck(start, compressed)] = 0
    frontier, unseen, d = 1, size - 1, 0
    directions = []
    with Meter(puzzle.name, size, puzzle.unit, enabled=run.progress) as meter:
        meter.update(1, note="layer 0")
        while frontier and unseen:
            if d + 1 >= UNSEEN:
                raise ValueError("distances beyond 254 do not fit the one-byte array")
            if unseen < frontier:  # both ways cost about the same per deck scanned
                directions.append("b")
                frontier = interrupt.call(bottom_up, depth, d, n, inverse, reach, fact, compressed, par)
            else:
                directions.append("t")
                frontier = interrupt.call(top_down, depth, d, n, moves, reach, fact, compressed, par)
            unseen -= frontier
            d += 1
            meter.update(size - unseen, note=f"layer {d}: {frontier:,} {puzzle.unit}")
    return depth, compressed, par, "".join(directions)


def census(puzzle: PermPuzzle, start: Sequence[int] | None = None, show: int = 10, *,
           run: RunOptions = RunOptions()) -> Census:  # noqa: B008 (frozen)
    """Full BFS from start (default: the sorted deck): histogram, diameter, farthest decks
    (the first `show` of them, at most puzzle.MAX_SHOW)."""
    check_show(show)
    t0 = time.perf_counter()
    start = tuple(range(1, puzzle.size + 1)) if start is None else tuple(start)
    depth, compressed, par, directions = distances(puzzle, start, run=run)
    counts = interrupt.call(histogram, depth)
    reached = counts[:UNSEEN]
    diameter = int(np.flatnonzero(reached)[-1])
    hist = tuple(int(c) for c in reached[: diameter + 1])
    out = np.empty(show, dtype=np.int64)
    total = interrupt.call(collect, depth, diameter, show, out)
    far = tuple(unrank_deck(int(i), puzzle.size, compressed, par) for i in out[: min(show, total)])
    return Census(puzzle.name, start, sum(hist), diameter, hist, far, int(total), len(depth), depth.nbytes,
                  directions, time.perf_counter() - t0)
