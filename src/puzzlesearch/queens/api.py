"""N-Queens, the public API: count all and unique solutions, list them, complete given queens.

``count(n)`` counts all solutions and the unique ones (one per class under the 8
symmetries of the square): from half boards (assembly.py, the default from n = 17), or
in one search by start constellations (constellation.py) or with the corner/rotation
method (corner.py), the cross-check; with given queens, or for n < 4 where those methods
have nothing to hold on to, it counts completions with the plain backtracker
(complete.py). Each count is split into tasks (tasks.py) that the engine runs in this
process, on local worker processes or on a Dask cluster, with an optional checkpoint to
resume from (``run: RunOptions``). ``estimate(n)`` says what an assembly count would take.

``solutions(n)`` lists solutions lazily, in lexicographic order, one batch per kernel call.

The counting kernels come from ``aot.kernels()``: compiled ahead of time when possible
(the wheel carries a build), so that counting does not import numba, else the JIT kernels
(assembly_kernel.py, constellation.py, corner.py). The modules with JIT kernels are
imported only by the paths that use them: completions and listings use complete.py's,
and a count of n >= 20 in this process its method's, which let Ctrl-C through
(``tasks.JIT_IN_PROCESS_N``), as does a count on a Dask cluster, whose worker threads
would otherwise run one task at a time (``tasks.shared_kernels``).

Boards are tuples of 0-based columns, one per row (``rules.Board``, a tuple that a notebook
shows as a chess board; ``plot`` draws one into a file); given queens are a mapping
{row: column}, 0-based, or the command line's 1-based ``"row:column,..."``. Every check
of the command line is made here, with the command line's words: a ValueError.

>>> from puzzlesearch import queens
>>> from puzzlesearch.queens import rules
>>> c = queens.count(10)
>>> c.n, c.solutions, c.unique, c.method, c.tasks
(10, 724, 92, 'constellation', 1)
>>> queens.count(8, {0: 0}).solutions, queens.count(8, "1:3,4:7").unique
(4, 3)
>>> queens.count(8, "1:1,2:2").note
'the given queens 1:1 and 2:2 attack each other'
>>> list(queens.solutions(8, unique=True, limit=2))
[(0, 4, 7, 5, 2, 6, 1, 3), (0, 5, 7, 2, 6, 3, 1, 4)]
>>> b = next(queens.solutions(8, fixed={0: 2}))
>>> b, rules.is_solution(b, 8), rules.canonical(b)
((2, 0, 6, 4, 7, 1, 3, 5), True, (1, 5, 0, 6, 3, 7, 2, 4))
>>> list(queens.solutions(3))
[]
>>> queens.givens(8, "4:7, 1:3")
Givens(squares=((3, 6), (0, 2)), text='1:3,4:7', note='')
>>> queens.count(30)
Traceback (most recent call last):
...
ValueError: -n must be at most 27 to count all solutions (27 is the largest n ever counted, \
and would take decades of CPU time here), got 30
"""

from __future__ import annotations

import numbers
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

import numpy as np

from puzzlesearch.engine import figures, interrupt, memory
from puzzlesearch.engine.failures import CheckFailed
from puzzlesearch.engine.options import RunOptions, checked, cores
from puzzlesearch.engine.params import choice, flag, pairs, plural, shown, whole
from puzzlesearch.engine.params import seed as check_seed
from puzzlesearch.engine.progress import Display, bar_enabled, notice
from puzzlesearch.engine.run import run_tasks
from puzzlesearch.engine.store import Checkpoint

from . import pictures, tasks
from .rules import Board, attacks

# Rows are bits of a signed 64-bit integer, and the diagonal masks are shifted one place
# past the board before they are cut back: 62 columns fit.
MAX_N = 62
# Counting all solutions: Q(27) (2016) is the largest count ever made. Here the assembly
# method would take about 39 CPU-hours for n = 23 (benchmarks/results/
# queens_assembly_estimates.json) and each further n about 8 to 9 times more
# (tasks.assembly_cpu_seconds), so n = 27 about 30 CPU-years, with a quarter table of
# about 48 GiB (assembly.quarter_cells(13) cells of 8 bytes).
MAX_COUNT_N = 27
# Seeds of one estimate: each times its own samples, so that 100 already take 100 times one.
MAX_SEEDS = 100
LIST_BATCH = 256  # solutions per kernel call of a listing


@dataclass(frozen=True)
class Count:
    """The outcome of one count.

    Attributes:
        n: The size of the board.
        solutions: The boards of n queens, no two attacking each other (that extend the
            given queens, if any).
        unique: The symmetry classes (under the 8 rotations and reflections of the
            board) that hold a counted board.
        fixed: The given queens as the command line writes them, 1-based
            "row:col,..." ("" for none).
        method: How the boards were counted: "assembly" (from half boards),
            "constellation" (start constellations), "corner" (the corner/rotation
            method) or "complete" (the completion search of given queens).
        nodes: The queens the completion search placed (None: the other methods do not
            count them).
        tasks: The tasks the count was split into.
        seconds: The time the count took.
        note: Why there is no board ("" unless given queens attack each other).
        kernels: "aot" when the counting kernels compiled ahead of time ran, else "jit"
            (the completion search has JIT kernels only).
    """

    n: int
    solutions: int
    unique: int
    fixed: str
    method: str
    nodes: int | None
    tasks: int
    seconds: float
    note: str = ""
    kernels: str = "jit"


@dataclass(frozen=True)
class Givens:
    """Given queens, checked against the board.

    Attributes:
        squares: The 0-based (row, column) of each queen, in the order given.
        text: The command line's 1-based "row:col,..." in row order ("" for none).
        note: "" if no two attack each other, else a sentence naming two that do.
    """

    squares: tuple[tuple[int, int], ...]
    text: str
    note: str


# --- checks --------------------------------------------------------------------------------------


def check_n(n: int) -> int:
    """n as an int; ValueError unless 1 <= n <= MAX_N."""
    n = whole(n, "-n")
    if n < 1:
        raise ValueError(f"-n must be at least 1, got {n}")
    if n > MAX_N:
        raise ValueError(f"-n must be at most {MAX_N} (rows are 64-bit masks), got {n}")
    return n


def givens(n: int, fixed: Givens | Mapping[int, int] | str | None) -> Givens:
    """Check n and the given queens.

    Two queens in one row are allowed: they attack each other, and the note says so.

    Args:
        n: The size of the board, 1 to `MAX_N`.
        fixed: The given queens: {row: column} (0-based), a sequence of (row, column)
            pairs (0-based), the command line's "1:3,4:7" (1-based row:column), a
            `Givens`, or None for none.

    Returns:
        The queens, checked, with the note.

    Raises:
        ValueError: The queens are malformed or off the board.
        TypeError: A value of another kind.
    """
    n = check_n(n)
    if isinstance(fixed, Givens):
        return fixed
    if isinstance(fixed, str):
        squares = _parse_fixed(fixed, n)
    elif fixed is None or isinstance(fixed, Mapping):
        squares = _mapping_squares(fixed, n)
    else:
        squares = _pair_squares(fixed, n)
    text = ",".join(f"{r + 1}:{c + 1}" for r, c in sorted(squares))
    return Givens(tuple(squares), text, _conflict(squares))


def _pair_squares(fixed: object, n: int) -> list[tuple[int, int]]:
    try:
        given = pairs(fixed, "--fixed")
    except TypeError:
        raise TypeError("--fixed must be {row: column}, (row, column) pairs or text like '1:3,4:7', "
                        f"got {shown(fixed)}") from None
    for r, c in given:
        if not (0 <= r < n and 0 <= c < n):
            raise ValueError(f"given queen ({r}, {c}) is off the {n}x{n} board")
    if len(set(given)) < len(given):
        raise ValueError("--fixed gives a square twice")
    return given


def _parse_fixed(text: str, n: int) -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        parts = [p.strip() for p in item.split(":")]
        try:
            # more than 18 digits is no square, whatever Python's int-length limit is set to
            if len(parts) != 2 or not all(p.lstrip("-").isdecimal() and len(p) <= 18 for p in parts):
                raise ValueError
            r, c = (int(p) for p in parts)
        except ValueError:
            raise ValueError(f"--fixed expects row:column pairs like 1:3,4:7, got {item[:40]!r}") from None
        if not (1 <= r <= n and 1 <= c <= n):
            raise ValueError(f"--fixed square {r}:{c} is off the {n}x{n} board (rows and columns are 1..{n})")
        if (r - 1, c - 1) in pairs:
            raise ValueError(f"--fixed gives the square {r}:{c} twice")
        pairs.append((r - 1, c - 1))
    if not pairs:
        raise ValueError("--fixed needs at least one row:column pair")
    return pairs


def _mapping_squares(fixed: Mapping[int, int] | None, n: int) -> list[tuple[int, int]]:
    pairs = []
    for r, c in sorted((fixed or {}).items()):
        if not all(isinstance(x, numbers.Integral) and not isinstance(x, bool) for x in (r, c)):
            raise ValueError(f"given queens are {{row: column}} with whole numbers, got {r!r}: {c!r}")
        if not (0 <= r < n and 0 <= c < n):
            raise ValueError(f"given queen ({r}, {c}) is off the {n}x{n} board")
        pairs.append((int(r), int(c)))
    return pairs


def _conflict(pairs: list[tuple[int, int]]) -> str:
    for i, (r1, c1) in enumerate(pairs):
        for r2, c2 in pairs[i + 1 :]:
            if attacks(r1, c1, r2, c2):
                return f"the given queens {r1 + 1}:{c1 + 1} and {r2 + 1}:{c2 + 1} attack each other"
    return ""


# --- counting ------------------------------------------------------------------------------------


METHODS = ("assembly", "constellation", "corner")
# From this n on, the assembly method is the default: on 2 workers it takes 3.1 s for n = 17
# where the constellations take 4.6 s; at n = 16 the two tie at about 1 s, and below the
# constellations are faster (benchmarks/results/queens_assembly.json).
ASSEMBLY_FROM = 17


def default_method(n: int) -> str:
    """The method a count of n uses unless told: the faster one for n."""
    return "assembly" if n >= ASSEMBLY_FROM else "constellation"


def count(
    n: int,
    fixed: Givens | Mapping[int, int] | str | None = None,
    *,
    method: str | None = None,
    run: RunOptions = RunOptions(),  # noqa: B008 (frozen: one shared default is safe)
) -> Count:
    """Count the solutions of n-queens (and the unique ones), or the completions of `fixed`.

    Counting all solutions goes up to `MAX_COUNT_N`; completions of given queens up to
    `MAX_N`. The three methods are independent counts.

    Args:
        n: The size of the board.
        fixed: Given queens to complete, as `givens` reads them (None: count all
            solutions). Given queens that attack each other have no completion: the
            Count says so in its note.
        method: How all solutions are counted: "assembly" pairs half boards built from
            one table of quarter placements (E. Kluev's method; the unique count by
            Burnside's lemma; the default from n = 17), "constellation" searches one
            start constellation of each symmetry class (the method of Preusser and
            Engelhardt's Q27 project; the default below 17), "corner" the
            corner/rotation method (Takaken, after Jeff Somers). Completions of given
            queens have their own search.
        run: Where the tasks run (boards up to 12 in this process unless asked
            otherwise), the checkpoint, and whether to draw progress.

    Returns:
        The number of solutions, of unique ones, and how they were counted.

    Raises:
        CheckFailed: A count that fails its check (Burnside's lemma gives a whole
            number of classes).
    """
    t0 = time.perf_counter()
    if method is not None:
        choice(method, METHODS, "--method")
    checked(run)
    given = givens(n, fixed)
    n = check_n(n)
    if method is not None and given.squares:
        raise ValueError("--method chooses how all solutions are counted; completions of --fixed queens "
                         "have their own search")
    if method == "assembly" and not given.squares and n < assembly_min_n():
        raise ValueError(f"--method assembly needs -n {assembly_min_n()} or more (a board of four quarters), "
                         f"got {n}")
    method = method or default_method(n)
    if not given.squares and n > MAX_COUNT_N:
        raise ValueError(
            f"-n must be at most {MAX_COUNT_N} to count all solutions ({MAX_COUNT_N} is the largest n ever "
            f"counted, and would take decades of CPU time here), got {n}"
        )
    if given.note:
        return Count(n, 0, 0, given.text, "complete", 0, 0, time.perf_counter() - t0, given.note)
    free = n - len(given.squares)
    if given.squares and free > MAX_COUNT_N:
        # the queens still to place face a board of `free` rows with a few squares taken:
        # a search of the size of counting all solutions of about that n, refused alike
        raise ValueError(
            f"--fixed gives {len(given.squares)} {plural(len(given.squares), 'queen')} of {n}: the "
            f"other {free} rows are a search like counting all solutions of n={free} (refused above "
            f"{MAX_COUNT_N}, decades of CPU time here); give at least {n - MAX_COUNT_N} queens")
    quick = n <= tasks.QUICK_N
    workers = run.workers_for(quick)
    options = run.but(workers=workers)
    label = f"queens n={n}"
    if given.squares or n < 4:
        from . import complete

        tasks.warm_up("complete")
        fixed_rows = dict(given.squares)
        todo = tasks.complete_tasks(n, fixed_rows)
        params = {"puzzle": "queens", "n": n, "fixed": given.text, "method": "complete"}
        display = Display(label, "queens placed", nodes=lambda r: r[tasks.NODES])
        results = _run(tasks.complete_task, todo, quick, params=params, options=options, display=display)
        units = sum(r[tasks.UNITS] for r in results)
        if units % complete.CLASS_UNIT:
            raise CheckFailed("whole symmetry classes",
                              f"class units {units:,} are not a multiple of {complete.CLASS_UNIT}")
        return Count(
            n,
            sum(r[tasks.FOUND] for r in results),
            units // complete.CLASS_UNIT,
            given.text,
            "complete",
            sum(r[tasks.NODES] for r in results),
            len(todo),
            time.perf_counter() - t0,
        )
    if method == "assembly":
        return _count_assembly(n, run, workers, options, quick, label, t0)
    if method == "constellation":
        kind = tasks.warm_up("constellation", n, notice(run.progress))
        todo = tasks.constellation_tasks(n)
        params = {"puzzle": "queens", "n": n, "method": "constellation"}
        display = Display(label, "solutions", nodes=lambda r: r[tasks.SOLUTIONS])
        shared = tasks.shared_kernels(n, workers, run.scheduler is not None)
        results = _run(tasks.constellation_task, todo, quick, shared=shared, params=params, options=options,
                       display=display)
        unique8 = sum(r[tasks.UNIQUE8] for r in results)
        if unique8 % 8:
            raise CheckFailed("Burnside's lemma",
                              f"8 x unique = {unique8:,} for n={n} is not a multiple of 8")
        total = sum(r[tasks.SOLUTIONS] for r in results)
        return Count(n, total, unique8 // 8, "", "constellation", None, len(todo),
                     time.perf_counter() - t0, kernels=shared or kind)
    kind = tasks.warm_up("corner", n, notice(run.progress))
    todo = tasks.corner_tasks(n)
    params = {"puzzle": "queens", "n": n, "method": "corner"}
    shared = tasks.shared_kernels(n, workers, run.scheduler is not None)
    weight = tasks.corner_weight(n, todo) if bar_enabled(run.progress) else None  # only for a bar
    display = Display(label, "solutions", nodes=lambda r: 8 * r[tasks.C8] + 4 * r[tasks.C4] + 2 * r[tasks.C2],
                      weight=weight)
    results = _run(tasks.corner_task, todo, quick, shared=shared, params=params, options=options,
                   display=display)
    c8 = sum(r[tasks.C8] for r in results)
    c4 = sum(r[tasks.C4] for r in results)
    c2 = sum(r[tasks.C2] for r in results)
    return Count(
        n,
        8 * c8 + 4 * c4 + 2 * c2,
        c8 + c4 + c2,
        "",
        "corner",
        None,
        len(todo),
        time.perf_counter() - t0,
        kernels=shared or kind,
    )


def assembly_min_n() -> int:
    from .assembly import MIN_N

    return MIN_N


def _count_assembly(n: int, run: RunOptions, workers: int, options: RunOptions, quick: bool, label: str,
                    t0: float) -> Count:
    """Count by the assembly method; the unique solutions by Burnside's lemma (assembly.unique)."""
    from . import assembly

    local = 1 if run.scheduler is not None else workers
    memory.require(assembly.need_bytes(n, local), run.memory, f"the assembly count of n={n}")
    if run.checkpoint is not None:  # refused before the quarter table is built
        assembly.check_checkpoint(run.checkpoint, n)
    split, todo, params = tasks.assembly_plan(n, run.checkpoint and Checkpoint.params_of(run.checkpoint))
    if run.checkpoint is not None:
        Checkpoint.check(run.checkpoint, params, todo)
    shared = tasks.shared_kernels(n, workers, run.scheduler is not None)
    kind = tasks.prepare_assembly(n, shared, notice(run.progress))
    weight = assembly.task_weight if bar_enabled(run.progress) and tasks.weighed(n, split) else None
    display = Display(label, "solutions", nodes=lambda r: r[0], weight=weight)
    results = _run(tasks.assembly_task, todo, quick, shared=shared, params=params, options=options,
                   display=display)
    total = sum(r[0] for r in results)
    return Count(n, total, assembly.unique(n, total), "", "assembly", None, len(todo),
                 time.perf_counter() - t0, kernels=kind)


@dataclass(frozen=True)
class Estimate:
    """What a count by the assembly method would take, before it runs.

    Attributes:
        n: The size of the board.
        method: The method estimated ("assembly").
        cpu_seconds: The time of the whole count on one core.
        workers: The workers the time and memory are for.
        seconds: The time on those workers: `cpu_seconds` over the workers.
        memory_bytes: The memory of that many workers on this machine (they share the
            quarter table).
        worker_bytes: The memory of one worker process alone (a Dask worker builds its
            own table).
        sampled: The row sets timed, over all seeds.
        row_sets: The row sets of the whole count (all cases).
        seed: The first seed the samples were drawn with.
        seeds: How many seeds' samples were timed apart.
        cpu_low: The least CPU seconds one seed's samples estimate.
        cpu_high: The most CPU seconds one seed's samples estimate.
    """

    n: int
    method: str
    cpu_seconds: float
    workers: int
    seconds: float
    memory_bytes: int
    worker_bytes: int
    sampled: int
    row_sets: int
    seed: int
    seeds: int = 1
    cpu_low: float = 0.0
    cpu_high: float = 0.0


def estimate(
    n: int,
    *,
    method: str = "assembly",
    samples: int = 300,
    seed: int = 0,
    seeds: int = 1,
    run: RunOptions = RunOptions(),  # noqa: B008 (frozen: one shared default is safe)
) -> Estimate:
    """Estimate a count of all solutions by the assembly method: time and memory.

    It times row sets drawn at random and scales each case's mean up to all its row sets
    (Knuth's estimate of a search by random samples). The quarter table is built for it,
    so the estimate itself is refused beyond the memory cap. With `seeds` K > 1, the
    samples of the seeds seed .. seed + K - 1 are drawn and timed apart: the estimate is
    their mean, and `cpu_low` .. `cpu_high` the spread of the K estimates.

    Args:
        n: The size of the board, from the assembly method's smallest to `MAX_COUNT_N`.
        method: The method to estimate: "assembly", the one with an estimate.
        samples: The row sets to time for each seed, 1 to 1,000,000: more, a closer
            estimate.
        seed: The first seed the samples are drawn with: the same seed, the same samples.
        seeds: How many seeds' samples to time apart, 1 to `MAX_SEEDS`: their spread
            shows how far the estimate can be trusted.
        run: ``run.workers``: the workers the time and memory are for (default: all
            cores); ``run.memory``: the memory cap.

    Returns:
        The time and memory the count would take.
    """
    from . import assembly

    if method != "assembly":
        raise ValueError(f"--method must be assembly (the one method with an estimate), got {shown(method)}")
    checked(run)
    n = check_n(n)
    seed = check_seed(seed)
    if not assembly.MIN_N <= n <= MAX_COUNT_N:
        raise ValueError(f"-n must be between {assembly.MIN_N} and {MAX_COUNT_N} for the assembly method, "
                         f"got {n}")
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= 10**6:
        raise ValueError(f"--samples must be between 1 and 1000000, got {shown(samples)}")
    if isinstance(seeds, bool) or not isinstance(seeds, int) or not 1 <= seeds <= MAX_SEEDS:
        raise ValueError(f"--seeds must be between 1 and {MAX_SEEDS}, got {shown(seeds)}")
    if seed + seeds - 1 > 2**63 - 1:
        raise ValueError(f"--seed + --seeds - 1 must be at most {2**63 - 1}, got {seed + seeds - 1}")
    workers = run.workers or cores()
    memory.require(assembly.need_bytes(n, 1), run.memory,
                   f"the estimate of n={n} (it builds the quarter table)")
    kernels = tasks.shared_kernels(n, 1, False)  # in this process: those of a one-worker count
    each = [interrupt.call(assembly.sample_seconds, n, samples, s, kernels)
            for s in range(seed, seed + seeds)]
    cpu = sum(c for c, _ in each) / seeds
    sets = sum(assembly.layout(n, c)["sets"] for c in assembly.cases(n))
    return Estimate(n, method, cpu, workers, cpu / workers, assembly.need_bytes(n, workers),
                    assembly.need_bytes(n, 1), sum(t for _, t in each), sets, seed, seeds,
                    min(c for c, _ in each), max(c for c, _ in each))


def _run(func: Callable, todo: list[dict], quick: bool, *, shared: object = None, **how: Any) -> list:
    """The tasks' results: through the engine, or for a quick job in this process (no pool, no
    checkpoint), in one interruptible call: the engine's call per task would cost more than
    the tasks (n = 11: 1.2 ms against 0.2 ms)."""
    if quick and how["options"].serial(quick):
        return interrupt.call(lambda: [func(t, shared) for t in todo])
    return run_tasks(func, todo, shared=shared, **how)


# --- listing -------------------------------------------------------------------------------------


def check_limit(limit: int) -> None:
    """Raise ValueError unless 0 <= limit <= sys.maxsize (how many boards a listing shows)."""
    if not isinstance(limit, numbers.Integral) or isinstance(limit, bool) or limit < 0:
        raise ValueError(f"--limit must be at least 0 (0 shows all), got {shown(limit)}")
    if limit > sys.maxsize:  # islice's largest; a listing that long would never end anyway
        raise ValueError(f"--limit must be at most {sys.maxsize} (0 shows all), got {limit}")


def solutions(
    n: int, unique: bool = False, fixed: Givens | Mapping[int, int] | str | None = None, *, limit: int = 0
) -> Iterator[Board]:
    """All solutions (or one per symmetry class) extending `fixed`, in lexicographic order.

    The arguments are checked at once; the search runs as the boards are taken (Ctrl-C
    stops it at once).

    Args:
        n: The size of the board.
        unique: One board per symmetry class: the smallest of its boards that extend
            `fixed`.
        fixed: Given queens, as `givens` reads them (None: none).
        limit: The most boards to list (0: all).

    Returns:
        An iterator of boards, each a tuple of 0-based columns, one per row (none when
        given queens attack each other).
    """
    given = givens(n, fixed)
    n, unique = check_n(n), flag(unique, "unique")
    check_limit(limit)
    if given.note:
        return iter(())
    boards = _listing(n, unique, tasks.fixed_array(n, dict(given.squares)))
    return islice(boards, limit) if limit else boards


def _listing(n: int, unique: bool, fixed_row: np.ndarray) -> Iterator[Board]:
    from . import complete

    state = np.array([complete.BEFORE_START], np.int64)
    cols = np.zeros(n, np.int64)
    cand = np.zeros(n + 1, np.int64)
    left = np.zeros(n + 1, np.int64)
    down = np.zeros(n + 1, np.int64)
    right = np.zeros(n + 1, np.int64)
    out = np.zeros((LIST_BATCH, n), np.int64)
    while state[0] != complete.EXHAUSTED:
        got = interrupt.call(
            complete.list_kernel, n, fixed_row, unique, state, cols, cand, left, down, right, out
        )
        for i in range(got):
            yield Board(out[i].tolist())


# --- pictures ------------------------------------------------------------------------------------


def check_plot(filename: str, n: int) -> None:
    """Before the work: a picture of a board of n can be drawn into `filename` (the file,
    matplotlib and the image format: engine.figures.check_plot; n <= pictures.MAX_N)."""
    pictures.check_n(n)
    figures.check_plot(filename)


def plot(board: Sequence[int], filename: str) -> None:
    """The board (0-based column of each row's queen) drawn into an image file
    (pictures.board_figure), in the format its suffix names; OSError or ValueError when it
    cannot be saved."""
    figures.save(pictures.board_figure(board), filename)


__all__ = ["ASSEMBLY_FROM", "Estimate", "default_method", "estimate", "LIST_BATCH", "MAX_COUNT_N", "MAX_N",
           "METHODS", "Board", "Count", "Givens", "check_limit", "check_n", "count", "givens", "solutions"]
