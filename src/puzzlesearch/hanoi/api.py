"""The Tower of Hanoi's public API: check the parameters, call the closed forms, the
Frame-Stewart code or the breadth-first search, and return plain values or small frozen
dataclasses. Positions cross this boundary as peg-letter strings (largest disc first,
'ACB'); moves as (disc, from, to) with pegs numbered 0..p-1. A notebook shows a
`Distance` or a `Solution` as its start and goal positions side by side (pictures.py;
`pictures.position_figure` draws any one position).

Every limit of the `puzzlesearch hanoi` commands is here, and a refused parameter raises
ValueError with the line the command prints.

    >>> from puzzlesearch import hanoi
    >>> hanoi.count(30, 4), hanoi.count(64)
    (1025, 18446744073709551615)
    >>> hanoi.counts(8, 5)
    [0, 1, 3, 5, 7, 11, 15, 19, 23]
    >>> list(hanoi.moves(2))
    [(1, 0, 1), (2, 0, 2), (1, 1, 2)]
    >>> hanoi.moves_array(3).tolist()[:2]
    [[1, 0, 2], [2, 0, 1]]
    >>> hanoi.solve(2)
    Solution(n=2, pegs=3, start='AA', goal='CC', moves=3, sequence=[[1, 0, 1], [2, 0, 2], [1, 1, 2]])
    >>> hanoi.position_after(64, 2**63)[:4]
    'CBBB'
    >>> hanoi.distance("ABB", "BAA")
    Distance(n=3, pegs=3, start='ABB', goal='BAA', moves=5, method='largest-disc rule')
    >>> found, moves = hanoi.path("ABB", "BAA")   # the moves come lazily
    >>> found.moves, list(moves)
    (5, [(3, 0, 2), (1, 1, 2), (2, 1, 0), (1, 2, 0), (3, 2, 1)])
    >>> v = hanoi.verify(8, 4)
    >>> v.bfs_moves, v.frame_stewart, v.agree
    (33, 33, True)
    >>> hanoi.count(-1)
    Traceback (most recent call last):
    ...
    ValueError: -n must be at least 0, got -1
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from puzzlesearch.engine import figures, interrupt, layers
from puzzlesearch.engine.memory import require
from puzzlesearch.engine.options import RunOptions, checked
from puzzlesearch.engine.params import flag, plural, text, whole
from puzzlesearch.engine.space import hanoi_index, hanoi_space

from . import bfs, framestewart, kernels, pictures, rules, threepeg
from .bfs import BFS_LIMIT, DEFAULT_RUN, DIAMETER_WORK_LIMIT
from .draw import draw
from .rules import MAX_PEGS, Move, Position, format_position, peg_letter

PRINT_LIMIT = 1 << 20  # moves `solve` prints without force
COUNT_LIMIT = 100_000  # discs for `count` and the moves of a tower (2^100000 has 30,103 digits)
TABLE_LIMIT = 10_000  # discs for `counts` (`count --all`)
POSITION_LIMIT = 10_000  # discs for `position_after`
SEQUENCE_BYTES = 100  # memory per move of a materialised sequence (a list of three small ints)


def _start_and_goal(found: Solution | Distance, title: str) -> str | None:
    """A notebook's picture of a result between two positions: its start and goal side by
    side (pictures.py); None beyond pictures.MAX_DISCS discs or without matplotlib."""
    if found.n > pictures.MAX_DISCS:
        return None
    return figures.notebook_svg(pictures.positions_figure,
                                [(f"start: {found.start}", found.start), (f"goal: {found.goal}", found.goal)],
                                found.pegs, title)


@dataclass(frozen=True)
class Solution:
    """The tower of n discs moved from peg A to the last peg, every move listed.

    Attributes:
        n: The number of discs.
        pegs: The number of pegs.
        start: The start position: the peg letter of each disc, largest first ("AAA").
        goal: The goal position, in the same letters ("CCC").
        moves: The number of moves.
        sequence: Every move as [disc, from, to], the pegs numbered from 0.
    """

    n: int
    pegs: int
    start: str
    goal: str
    moves: int
    sequence: list[list[int]]

    def _repr_svg_(self) -> str | None:
        return _start_and_goal(self, f"{self.n} discs, {self.pegs} pegs: {self.moves:,} moves")


@dataclass(frozen=True)
class Distance:
    """The fewest moves between two positions.

    Attributes:
        n: The number of discs.
        pegs: The number of pegs.
        start: The start position: the peg letter of each disc, largest first.
        goal: The goal position, in the same letters.
        moves: The fewest moves from start to goal.
        method: How they were found: "largest-disc rule", "breadth-first search",
            "closed form" or "Frame-Stewart".
    """

    n: int
    pegs: int
    start: str
    goal: str
    moves: int
    method: str

    def _repr_svg_(self) -> str | None:
        return _start_and_goal(self, f"{self.moves:,} {plural(self.moves, 'move')} ({self.method})")


@dataclass(frozen=True)
class Verification:
    """Frame-Stewart's count checked by breadth-first search over every position.

    Attributes:
        n: The number of discs.
        pegs: The number of pegs.
        positions: Every position: pegs^n.
        reached: The positions the search reached from the tower on A.
        bfs_moves: The fewest moves from the tower on A to the tower on the last peg,
            by the search.
        frame_stewart: The same by Frame-Stewart's numbers.
        agree: Whether the two agree.
        sequence_ok: Whether the Frame-Stewart move sequence, replayed by the plain
            rules, is legal and ends on the last peg.
        eccentricity: The largest distance from the tower on A.
        at_eccentricity: The positions at that distance.
        diameter: The largest distance between any two positions (None unless asked).
        diameter_sources: The searches the diameter took, one from each position up to
            renaming the pegs (None unless asked).
        seconds: The time the check took.
        histogram: The positions at each distance from the tower on A (not shown in the
            repr: too long).
        method: "layers" (2 bits a position, on all cores) or "bfs" (with the
            diameter).
    """

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
    histogram: tuple[int, ...] = field(default=(), repr=False)
    method: str = "bfs"


# --- the checks, in the words of the command line ---------------------------------------------------


def check_n(n: int, limit: int | None = None, context: str = "") -> int:
    """-n: at least 0, at most `limit`."""
    n = whole(n, "-n")
    if n < 0:
        raise ValueError(f"-n must be at least 0, got {n}")
    if limit is not None and n > limit:
        raise ValueError(f"-n must be at most {limit:,}{context}, got {n:,}")
    return n


def check_pegs(pegs: int) -> int:
    pegs = whole(pegs, "--pegs")
    if not 3 <= pegs <= MAX_PEGS:
        raise ValueError(f"--pegs must be between 3 and {MAX_PEGS}, got {pegs}")
    return pegs


def check_delay(delay: float) -> float:
    """The pause between the frames of an animation: a finite number of seconds >= 0."""
    delay = float(delay)
    if delay < 0:
        raise ValueError(f"--delay must be at least 0, got {delay}")
    if not math.isfinite(delay):
        raise ValueError(f"--delay must be a finite number of seconds, got {delay}")
    return delay


def _how_many(total: int) -> str:
    """An exact count with commas; beyond 30 digits its order of magnitude."""
    if total < 10**30:
        return f"{total:,}"
    return f"about 10^{int(total.bit_length() * math.log10(2))}"


# --- counts and towers ----------------------------------------------------------------------------


def count(n: int, pegs: int = 3) -> int:
    """Moves to shift a tower of n discs: 2^n - 1 for three pegs, Frame-Stewart beyond.

    Args:
        n: The number of discs, 0 to `COUNT_LIMIT`.
        pegs: The number of pegs, 3 to `MAX_PEGS`.
    """
    n, pegs = check_n(n, COUNT_LIMIT), check_pegs(pegs)
    return framestewart.frame_stewart(n, pegs)


def counts(nmax: int, pegs: int = 3) -> list[int]:
    """[count(0, pegs), ..., count(nmax, pegs)] in one pass.

    Args:
        nmax: The most discs, 0 to `TABLE_LIMIT`.
        pegs: The number of pegs.
    """
    nmax, pegs = check_n(nmax, TABLE_LIMIT, " with --all"), check_pegs(pegs)
    return framestewart.frame_stewart_numbers(nmax, pegs)


def moves(n: int, pegs: int = 3) -> Iterator[Move]:
    """The tower's moves from peg 0 to the last peg, lazily (closed form for three pegs).

    Args:
        n: The number of discs.
        pegs: The number of pegs.

    Returns:
        An iterator of moves (disc, from, to), the pegs numbered from 0.
    """
    n, pegs = check_n(n, COUNT_LIMIT), check_pegs(pegs)
    if pegs == 3:
        return threepeg.moves_iterative(n, 0, 2)
    return framestewart.moves(n, pegs)


def moves_array(n: int, src: int = 0, dst: int = 2, *, run: RunOptions = DEFAULT_RUN) -> np.ndarray:
    """All 2^n - 1 three-peg moves at once, as an array.

    Args:
        n: The number of discs, 0 to 40.
        src: The peg the tower starts on (0, 1 or 2).
        dst: The peg it ends on, another of 0, 1, 2.
        run: ``run.memory``: the memory cap the array must fit in.

    Returns:
        A (2^n - 1, 3) uint8 array of (disc, from, to).
    """
    n, src, dst, run = check_n(n), whole(src, "src"), whole(dst, "dst"), checked(run)
    if n > 40 or not {src, dst} < {0, 1, 2} or src == dst:
        raise ValueError("moves_array needs 0 <= n <= 40 and two different pegs among 0, 1, 2")
    require(3 * ((1 << n) - 1), run.memory, f"the {(1 << n) - 1:,} moves of {n} discs")
    spare = 3 - src - dst
    roles = np.array((src, spare, dst) if n % 2 else (src, dst, spare), dtype=np.int64)
    out = np.empty(((1 << n) - 1, 3), dtype=np.uint8)
    interrupt.call(kernels.classic_moves_kernel, n, roles, out)
    return out


def position_after(n: int, m: int, pegs: int = 3) -> str:
    """The position after the first m moves of `moves(n, pegs)`, computed directly.

    Args:
        n: The number of discs, 0 to `POSITION_LIMIT`.
        m: The number of moves made.
        pegs: The number of pegs.

    Returns:
        The position: the peg letter of each disc, largest first.
    """
    n, pegs, m = check_n(n, POSITION_LIMIT), check_pegs(pegs), whole(m, "-m")
    if pegs == 3:
        return format_position(threepeg.position_after(n, m))
    return format_position(framestewart.position_after(n, pegs, m))


# --- between positions ------------------------------------------------------------------------------


def _parse_pair(start: str, goal: str, pegs: int) -> tuple[Position, Position, int]:
    pegs = check_pegs(pegs)
    start, goal = text(start, "start (--from)"), text(goal, "goal (--to)")
    a, b = rules.parse_position(start, pegs), rules.parse_position(goal, pegs)
    if not a and not b:
        raise ValueError("the positions are empty: give the peg letter of every disc, largest first")
    if len(a) != len(b):
        raise ValueError(
            f"positions {start!r} and {goal!r} have different numbers of discs ({len(a)}, {len(b)})"
        )
    return a, b, pegs


def distance(start: str, goal: str, pegs: int = 3, *, run: RunOptions = DEFAULT_RUN) -> Distance:
    """Fewest moves between two positions: the largest-disc rule for three pegs (O(n)),
    breadth-first search for more.

    Args:
        start: The start position: the peg letter of each disc, largest first ("ABB").
        goal: The goal position, with as many discs.
        pegs: The number of pegs.
        run: ``run.memory``: the memory cap of a breadth-first search.
    """
    return path(start, goal, pegs, run=run)[0]


def path(start: str, goal: str, pegs: int = 3, *, run: RunOptions = DEFAULT_RUN
         ) -> tuple[Distance, Iterator[Move]]:
    """The distance and an optimal move sequence between two positions.

    Args:
        start: The start position: the peg letter of each disc, largest first.
        goal: The goal position, with as many discs.
        pegs: The number of pegs.
        run: ``run.memory``: the memory cap of a breadth-first search.

    Returns:
        The distance, and the moves lazily (a generator: ``list(moves)`` for a list),
        so that a path of 2^1000 moves can be started.
    """
    a, b, pegs = _parse_pair(start, goal, pegs)
    checked(run)
    n = len(a)
    if pegs == 3:
        found = Distance(n, pegs, format_position(a), format_position(b), threepeg.distance(a, b),
                         "largest-disc rule")
        return found, threepeg.path(a, b)
    dist, _, _ = bfs.search(n, pegs, bfs.encode(b, pegs), run)
    found = Distance(n, pegs, format_position(a), format_position(b), int(dist[bfs.encode(a, pegs)]),
                     "breadth-first search")
    return found, bfs.descend(a, dist, pegs)


def plan(n: int | None = None, pegs: int = 3, start: str | None = None, goal: str | None = None, *,
         force: bool = False, run: RunOptions = DEFAULT_RUN) -> tuple[Distance, Iterator[Move]]:
    """What `hanoi solve` prints: the tower of n discs from A to the last peg, or the
    moves between two positions.

    Args:
        n: The number of discs (with no positions, or as many as they have).
        pegs: The number of pegs.
        start: The start position (None: the tower on A).
        goal: The goal position (None: the tower on the last peg).
        force: Allow more than `PRINT_LIMIT` moves.
        run: ``run.memory``: the memory cap of a breadth-first search.

    Returns:
        The distance, and the moves lazily.
    """
    pegs, force, run = check_pegs(pegs), flag(force, "force"), checked(run)
    if start is not None:
        text(start, "start (--from)")
    if goal is not None:
        text(goal, "goal (--to)")
    if start is None and goal is None:
        if n is None:
            raise ValueError("give the number of discs with -n, or positions with --from/--to")
        n = check_n(n, COUNT_LIMIT)
        tower = (format_position(rules.perfect(n, 0)), format_position(rules.perfect(n, pegs - 1)))
        found = Distance(n, pegs, *tower, count(n, pegs), "closed form" if pegs == 3 else "Frame-Stewart")
        sequence = None
    else:
        size = len(start if start is not None else goal)
        if n is not None and check_n(n) != size:
            raise ValueError(f"-n {n} does not match the {size} discs of the position given")
        start = peg_letter(0) * size if start is None else start
        goal = peg_letter(pegs - 1) * size if goal is None else goal
        found, sequence = path(start, goal, pegs, run=run)  # lazy: nothing generated yet
    if found.moves > PRINT_LIMIT and not force:
        raise ValueError(f"that is {_how_many(found.moves)} moves, more than {PRINT_LIMIT:,} (2^20) to "
                         "print; add --force to print them anyway, or use `hanoi count`")
    return found, moves(found.n, pegs) if sequence is None else sequence


def solve(n: int, pegs: int = 3, *, run: RunOptions = DEFAULT_RUN) -> Solution:
    """The tower of n discs from peg A to the last peg, with every move in a list.

    Refused beyond the memory cap; `moves` yields the moves lazily.

    Args:
        n: The number of discs.
        pegs: The number of pegs.
        run: ``run.memory``: the memory cap the list must fit in.
    """
    total = count(n, pegs)
    checked(run)
    require(total * SEQUENCE_BYTES, run.memory, f"the list of {_how_many(total)} moves")
    sequence = [list(m) for m in moves(n, pegs)]
    start, goal = (format_position(rules.perfect(n, peg)) for peg in (0, pegs - 1))
    return Solution(n, pegs, start, goal, len(sequence), sequence)


# --- pictures ----------------------------------------------------------------------------------------


def move_text(move: Move) -> str:
    """'disc 1: A -> C'."""
    disc, a, b = move
    return f"disc {disc}: {peg_letter(a)} -> {peg_letter(b)}"


def frames(start: str, sequence: Iterable[Move], pegs: int = 3) -> Iterator[tuple[str, list[str]]]:
    """(title, picture lines) for the start and after each move: 'start', 'move 1: disc 1: A -> B', ..."""
    position = rules.parse_position(start, check_pegs(pegs))
    yield "start", draw(position, pegs)
    for k, move in enumerate(sequence, 1):
        position = rules.apply_move(position, move)
        yield f"move {k}: {move_text(move)}", draw(position, pegs)


# --- the breadth-first check --------------------------------------------------------------------------


def verify(n: int, pegs: int = 4, diameter: bool = False, *, run: RunOptions = DEFAULT_RUN
           ) -> Verification:
    """Breadth-first search over all pegs^n positions from the tower on A.

    Its distance to the tower on the last peg is checked against Frame-Stewart, the
    explicit sequence replayed, the farthest positions found. Sizes are checked before
    any search.

    Args:
        n: The number of discs.
        pegs: The number of pegs.
        diameter: Also find the diameter, by a search from every position up to
            renaming the pegs.
        run: The memory cap, threads and progress.
    """
    n, pegs, diameter, run = check_n(n), check_pegs(pegs), flag(diameter, "diameter"), checked(run)
    if not diameter:
        return _verify_layers(n, pegs, run)
    bfs.check_size(n, pegs)
    bfs.check_diameter(n, pegs)
    goal = rules.perfect(n, pegs - 1)
    t0 = time.perf_counter()
    dist, queue, (reached, far, at_far) = bfs.search(n, pegs, 0, run)
    bfs_moves = int(dist[bfs.encode(goal, pegs)])
    fs = framestewart.frame_stewart(n, pegs)
    sequence_ok = _replays(n, pegs)
    diam, sources = bfs.diameter(n, pegs, dist, queue, run)
    return Verification(
        n, pegs, pegs**n, reached, bfs_moves, fs, bfs_moves == fs, sequence_ok, far, at_far, diam, sources,
        round(time.perf_counter() - t0, 4),
    )


def _replays(n: int, pegs: int) -> bool:
    """The Frame-Stewart sequence is legal and ends on the last peg."""
    return rules.replay(rules.perfect(n, 0), moves(n, pegs), pegs) == rules.perfect(n, pegs - 1)


def _verify_layers(n: int, pegs: int, run: RunOptions) -> Verification:
    """The search from the tower on A by the shared breadth-first engine (engine.layers:
    2 bits a position, run.workers threads, a checkpoint after every layer)."""
    bfs.check_layers(n, pegs, run.memory, cluster=run.scheduler is not None)
    goal = rules.perfect(n, pegs - 1)
    t0 = time.perf_counter()
    name = f"hanoi {pegs} pegs, {n} discs"
    space = hanoi_space(name, n, pegs, rules.perfect(n, 0), {"puzzle": "hanoi", "n": n, "pegs": pegs})
    fs = framestewart.frame_stewart(n, pegs)
    sequence_ok = _replays(n, pegs)
    target = hanoi_index(space, goal)
    found = layers.search(space, run=run, show=0, watch=[target])
    bfs_moves = found.found.get(target, -1)
    return Verification(n, pegs, space.size, found.states, bfs_moves, fs, bfs_moves == fs, sequence_ok,
                        found.diameter, found.farthest_count, None, None, round(time.perf_counter() - t0, 4),
                        found.histogram, "layers")


__all__ = [
    "BFS_LIMIT", "COUNT_LIMIT", "DIAMETER_WORK_LIMIT", "MAX_PEGS", "POSITION_LIMIT", "PRINT_LIMIT",
    "TABLE_LIMIT", "Distance", "Solution", "Verification", "check_delay", "count", "counts", "distance",
    "format_position", "frames", "move_text", "moves", "moves_array", "path", "peg_letter", "plan",
    "position_after", "solve", "verify",
]
