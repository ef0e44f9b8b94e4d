"""The Python API: validate, allocate, call the kernels or the plain-Python methods, and
return small frozen dataclasses. Positions cross this boundary as peg-letter strings
(largest disc first, 'ACB'); moves as (disc, from, to) with pegs numbered 0..p-1.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from . import framestewart, kernels, rules, threepeg
from .rules import Move, Position

BFS_LIMIT = 1 << 24  # positions; dist (uint16) + queue (uint32) then take 96 MiB
DIAMETER_WORK_LIMIT = 1 << 31  # sources x positions for the all-sources diameter


@dataclass(frozen=True)
class Solution:
    n: int
    pegs: int
    start: str
    goal: str
    moves: int
    sequence: list[list[int]]


@dataclass(frozen=True)
class Distance:
    n: int
    pegs: int
    start: str
    goal: str
    moves: int
    method: str


@dataclass(frozen=True)
class Verification:
    n: int
    pegs: int
    positions: int
    reached: int
    bfs_moves: int
    frame_stewart: int
    agree: bool
    sequence_ok: bool
    eccentricity: int
    at_eccentricity: int
    diameter: int | None
    diameter_sources: int | None
    seconds: float


def check_pegs(pegs: int) -> None:
    if not 3 <= pegs <= rules.MAX_PEGS:
        raise ValueError(f"pegs must be between 3 and {rules.MAX_PEGS}, got {pegs}")


def check_n(n: int) -> None:
    if n < 0:
        raise ValueError(f"n must be at least 0, got {n}")


def count(n: int, pegs: int = 3) -> int:
    """Moves to shift a tower of n discs: 2^n - 1 for three pegs, Frame-Stewart beyond."""
    check_n(n)
    check_pegs(pegs)
    return framestewart.frame_stewart(n, pegs)


def counts(nmax: int, pegs: int = 3) -> list[int]:
    """[count(0, pegs), ..., count(nmax, pegs)] in one pass."""
    check_n(nmax)
    check_pegs(pegs)
    return framestewart.frame_stewart_numbers(nmax, pegs)


def moves(n: int, pegs: int = 3) -> Iterator[Move]:
    """The tower moves from peg 0 to peg pegs-1, lazily (closed form for three pegs)."""
    check_n(n)
    check_pegs(pegs)
    if pegs == 3:
        return threepeg.moves_iterative(n, 0, 2)
    return framestewart.moves(n, pegs)


def moves_array(n: int, src: int = 0, dst: int = 2) -> np.ndarray:
    """All 2^n - 1 three-peg moves as a (2^n - 1, 3) uint8 array of (disc, from, to)."""
    check_n(n)
    if n > 40 or not {src, dst} < {0, 1, 2} or src == dst:
        raise ValueError("moves_array needs 0 <= n <= 40 and two different pegs among 0, 1, 2")
    spare = 3 - src - dst
    roles = np.array((src, spare, dst) if n % 2 else (src, dst, spare), dtype=np.int64)
    out = np.empty(((1 << n) - 1, 3), dtype=np.uint8)
    kernels.classic_moves_kernel(n, roles, out)
    return out


def position_after(n: int, m: int, pegs: int = 3) -> str:
    """The position after the first m moves of `moves(n, pegs)`, computed directly."""
    check_n(n)
    check_pegs(pegs)
    if pegs == 3:
        return rules.format_position(threepeg.position_after(n, m))
    return rules.format_position(framestewart.position_after(n, pegs, m))


def _dist_dtype(n: int) -> type:
    bound = (1 << n) - 1  # no two positions are farther apart (module docstring of kernels)
    return np.uint8 if bound < 255 else np.uint16 if bound < 65535 else np.uint32


def _encode(position: Position, pegs: int) -> int:
    index = 0
    for peg in position:  # largest disc first = most significant digit
        index = index * pegs + peg
    return index


def _decode(index: int, n: int, pegs: int) -> Position:
    digits = []
    for _ in range(n):
        index, g = divmod(index, pegs)
        digits.append(g)
    return tuple(reversed(digits))


def _bfs(n: int, pegs: int, source: int) -> tuple[np.ndarray, np.ndarray, tuple[int, int, int]]:
    states = pegs**n
    if states > BFS_LIMIT:
        raise ValueError(
            f"breadth-first search over {pegs}^{n} = {states:,} positions is beyond the limit of "
            f"{BFS_LIMIT:,}; use fewer discs or pegs"
        )
    dtype = _dist_dtype(n)
    unseen = int(np.iinfo(dtype).max)
    dist = np.full(states, unseen, dtype=dtype)
    queue = np.empty(states, dtype=np.uint32)
    stats = kernels.bfs_kernel(n, pegs, source, dist, queue, unseen)
    return dist, queue, tuple(int(x) for x in stats)


def _parse_pair(start: str, goal: str, pegs: int) -> tuple[Position, Position, int]:
    check_pegs(pegs)
    a, b = rules.parse_position(start, pegs), rules.parse_position(goal, pegs)
    if len(a) != len(b):
        raise ValueError(
            f"positions {start!r} and {goal!r} have different numbers of discs ({len(a)}, {len(b)})"
        )
    return a, b, pegs


def distance(start: str, goal: str, pegs: int = 3) -> Distance:
    """Fewest moves between two positions: the largest-disc rule for three pegs (O(n)),
    breadth-first search for more."""
    return path(start, goal, pegs)[0]


def path(start: str, goal: str, pegs: int = 3) -> tuple[Distance, Iterator[Move]]:
    """The distance and an optimal move sequence (lazy for three pegs)."""
    a, b, pegs = _parse_pair(start, goal, pegs)
    n, fmt = len(a), rules.format_position
    if pegs == 3:
        found = Distance(n, pegs, fmt(a), fmt(b), threepeg.distance(a, b), "largest-disc rule")
        return found, threepeg.path(a, b)
    dist, _, _ = _bfs(n, pegs, _encode(b, pegs))
    found = Distance(n, pegs, fmt(a), fmt(b), int(dist[_encode(a, pegs)]), "breadth-first search")
    return found, _descend(a, dist, pegs)


def _descend(position: Position, dist: np.ndarray, pegs: int) -> Iterator[Move]:
    """Walk down the distances to the BFS source: each step to a neighbour one closer."""
    here = int(dist[_encode(position, pegs)])
    while here > 0:
        for move in rules.legal_moves(position, pegs):
            nxt = rules.apply_move(position, move)
            if int(dist[_encode(nxt, pegs)]) == here - 1:
                yield move
                position, here = nxt, here - 1
                break


def solve(n: int, pegs: int = 3) -> Solution:
    """The tower of n discs from peg A to the last peg, with every move (materialised)."""
    sequence = [list(m) for m in moves(n, pegs)]
    start, goal = (rules.format_position(rules.perfect(n, peg)) for peg in (0, pegs - 1))
    return Solution(n, pegs, start, goal, len(sequence), sequence)


def verify(n: int, pegs: int = 4, diameter: bool = False) -> Verification:
    """Breadth-first search over all pegs^n positions from the tower on A: its distance to
    the tower on the last peg against Frame-Stewart, the explicit sequence replayed, the
    farthest positions, and (if asked) the diameter by a search from every position up
    to renaming the pegs."""
    check_n(n)
    check_pegs(pegs)
    t0 = time.perf_counter()
    dist, queue, (reached, far, at_far) = _bfs(n, pegs, 0)
    bfs_moves = int(dist[_encode(rules.perfect(n, pegs - 1), pegs)])
    fs = framestewart.frame_stewart(n, pegs)
    # at most 2^15 moves here: BFS_LIMIT keeps n <= 15 for three pegs and less for more
    sequence_ok = rules.replay(rules.perfect(n, 0), moves(n, pegs), pegs) == rules.perfect(n, pegs - 1)
    diam = sources = None
    if diameter:
        work = _canonical_count(n, pegs) * pegs**n
        if work > DIAMETER_WORK_LIMIT:
            raise ValueError(
                f"the diameter needs {work:,} position visits (limit {DIAMETER_WORK_LIMIT:,}); "
                "use fewer discs"
            )
        unseen = int(np.iinfo(dist.dtype).max)
        diam, sources, _, _ = (int(x) for x in kernels.diameter_kernel(n, pegs, dist, queue, unseen))
    return Verification(
        n, pegs, pegs**n, reached, bfs_moves, fs, bfs_moves == fs, sequence_ok, far, at_far, diam, sources,
        round(time.perf_counter() - t0, 4),
    )


def _canonical_count(n: int, pegs: int) -> int:
    """Positions up to renaming pegs: sum of Stirling numbers S(n, k), k <= pegs."""
    row = [1] + [0] * pegs  # S(0, k)
    for _ in range(n):
        row = [0] + [k * row[k] + row[k - 1] for k in range(1, pegs + 1)]
    return sum(row)
