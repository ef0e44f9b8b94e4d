"""Breadth-first search over all p^n positions: the size check, the arrays, the kernel
calls in slices (progress on stderr, Ctrl-C seen between them) and the walk back.

A position is the integer with one base-p digit per disc, disc 1 the lowest digit (see
kernels). The search needs a distance array (uint8/16/32 by the largest possible
distance, 2^n - 1) and a uint32 queue, both of p^n entries; it is refused before they
are allocated when p^n is beyond BFS_LIMIT or the two do not fit in the memory cap.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from puzzlesearch.engine import interrupt
from puzzlesearch.engine.layers_common import MAX_STATES, memory_needed_for
from puzzlesearch.engine.memory import require
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.progress import Meter

from . import kernels, rules
from .rules import Move, Position

BFS_LIMIT = 1 << 24  # positions; dist (uint16) + queue (uint32) then take 96 MiB
DIAMETER_WORK_LIMIT = 1 << 31  # sources x positions for the all-sources diameter
SLICE = 1 << 20  # positions expanded per kernel call (about 0.2 s): progress and Ctrl-C between
DEFAULT_RUN = RunOptions()  # frozen, so one shared default is safe


def check_size(n: int, pegs: int) -> int:
    """p^n, or ValueError when it is beyond BFS_LIMIT (without computing p^n for huge n)."""
    if n > 64 or pegs**n > BFS_LIMIT:
        states = f"{pegs}^{n}" + (f" = {pegs**n:,}" if n <= 64 else "")
        raise ValueError(
            f"breadth-first search over {states} positions is beyond the limit of {BFS_LIMIT:,}; "
            "use fewer discs or pegs"
        )
    return pegs**n


def check_layers(n: int, pegs: int, budget: int | None, cluster: bool = False) -> int:
    """The search from one position by the shared engine (engine.layers, 2 bits a position):
    p^n, or ValueError beyond its index limit or the memory cap, from the sizes alone."""
    if n > 64 or pegs**n > MAX_STATES:
        states = f"{pegs}^{n}" + (f" = {pegs**n:,}" if n <= 64 else "")
        raise ValueError(
            f"breadth-first search over {states} positions is beyond the limit of {MAX_STATES:,}; "
            "use fewer discs or pegs"
        )
    if budget is not None or not cluster:
        require(memory_needed_for(pegs**n), budget, f"breadth-first search over {pegs}^{n} positions")
    return pegs**n


def dist_dtype(n: int) -> type:
    bound = (1 << n) - 1  # no two positions are farther apart (module docstring of kernels)
    return np.uint8 if bound < 255 else np.uint16 if bound < 65535 else np.uint32


def encode(position: Position, pegs: int) -> int:
    index = 0
    for peg in position:  # largest disc first = most significant digit
        index = index * pegs + peg
    return index


def decode(index: int, n: int, pegs: int) -> Position:
    digits = []
    for _ in range(n):
        index, g = divmod(index, pegs)
        digits.append(g)
    return tuple(reversed(digits))


def search(n: int, pegs: int, source: int, run: RunOptions = DEFAULT_RUN
           ) -> tuple[np.ndarray, np.ndarray, tuple[int, int, int]]:
    """Distances from `source` to every position: (dist, queue, (reached, farthest
    distance, positions at it)). Refused before allocating beyond the limits."""
    states = check_size(n, pegs)
    dtype = dist_dtype(n)
    require(states * (np.dtype(dtype).itemsize + 4), run.memory,
            f"breadth-first search over {pegs}^{n} positions")
    unseen = int(np.iinfo(dtype).max)
    dist = np.full(states, unseen, dtype=dtype)
    queue = np.empty(states, dtype=np.uint32)
    dist[source] = 0
    queue[0] = source
    head, tail = 0, 1
    with Meter(f"hanoi BFS {pegs} pegs, {n} discs", states, "positions", run.progress) as meter:
        while head < tail:
            head, tail = (int(x) for x in interrupt.call(
                kernels.bfs_steps, n, pegs, dist, queue, head, tail, head + SLICE, unseen))
            meter.update(head)
    far, at_far = kernels.farthest(dist, queue, tail)
    return dist, queue, (tail, int(far), int(at_far))


def canonical_count(n: int, pegs: int) -> int:
    """Positions up to renaming pegs: sum of Stirling numbers S(n, k), k <= pegs."""
    row = [1] + [0] * pegs  # S(0, k)
    for _ in range(n):
        row = [0] + [k * row[k] + row[k - 1] for k in range(1, pegs + 1)]
    return sum(row)


def check_diameter(n: int, pegs: int) -> int:
    """The position visits the diameter takes (one search per canonical source), or
    ValueError beyond DIAMETER_WORK_LIMIT."""
    work = canonical_count(n, pegs) * check_size(n, pegs)
    if work > DIAMETER_WORK_LIMIT:
        raise ValueError(
            f"the diameter needs {work:,} position visits (limit {DIAMETER_WORK_LIMIT:,}); use fewer discs"
        )
    return work


def diameter(n: int, pegs: int, dist: np.ndarray, queue: np.ndarray, run: RunOptions = DEFAULT_RUN
             ) -> tuple[int, int]:
    """(diameter, searches): a search from every canonical position, in slices of about
    SLICE positions; `dist` and `queue` are the arrays of a finished search, reused."""
    states = dist.shape[0]
    unseen = int(np.iinfo(dist.dtype).max)
    budget = max(1, SLICE // states)  # searches per kernel call
    best = sources = start = 0
    with Meter(f"hanoi diameter {pegs} pegs, {n} discs", check_diameter(n, pegs), "positions",
               run.progress) as meter:
        while start < states:
            far, done, _, _, start = (int(x) for x in interrupt.call(
                kernels.diameter_kernel, n, pegs, dist, queue, unseen, start, budget))
            best, sources = max(best, far), sources + done
            meter.update(sources * states)
    return best, sources


def descend(position: Position, dist: np.ndarray, pegs: int) -> Iterator[Move]:
    """Walk down the distances to the search's source: each step to a neighbour one closer."""
    here = int(dist[encode(position, pegs)])
    while here > 0:
        for move in rules.legal_moves(position, pegs):
            nxt = rules.apply_move(position, move)
            if int(dist[encode(nxt, pegs)]) == here - 1:
                yield move
                position, here = nxt, here - 1
                break
