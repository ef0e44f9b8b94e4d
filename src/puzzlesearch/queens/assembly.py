"""The assembly method's driver: its cases, its tasks, its memory, and one task's run.

The kernels (assembly_kernel.py, compiled ahead of time where possible: aot.py) count the
solutions of a range of row sets E of one *case*. For even n there is one case: nothing in
the middle. For odd n the middle row and column hold one queen (the centre) or two: one
in the middle row, ``a`` columns east of the centre, one in the middle column, ``b`` rows
south of it. The 8 symmetries of the square map these two to every sign and order of
(a, b), and |a| = |b| puts them on one diagonal, so every solution has an image with
0 < a < b <= h: those cases are counted, 8 times each (as in Kluev's program). A task is
a case and a range of ranks of E: ``{"n", "case", "first", "count"}`` with case [0, 0] for
the even board or the centre queen, and its result ``[solutions, half boards]``.

The quarter table is built once per process (``table``, under a lock: a Dask worker runs
tasks in several threads of one process) and kept, read only: it is what the method needs
most memory for, and ``need_bytes`` says how much before anything is built (its size,
``quarter_cells``, is counted without it). The arrays a kernel writes into are made by each
task, never shared.
"""

from __future__ import annotations

import os
import time
from math import comb

import numpy as np

from puzzlesearch.engine.failures import CheckFailed
from puzzlesearch.engine.paths import show
from puzzlesearch.engine.shared import built_once
from puzzlesearch.engine.store import Checkpoint

from . import aot

# The version of the kernels a count's tasks ran on. A checkpoint keeps it among its
# parameters and a run resumes only a checkpoint of its own version, so that every task
# of one count is counted by one kernel: a record names the kernel that counted it, and a
# fault found in one version is known to touch only the counts it made.
KERNEL_VERSION = 2
# A board of four quarters with a queen in each half: n = 4 is the smallest with solutions.
MIN_N = 4
# How many cut bits of each direction the sieve may use (fewer where an E has few east
# halves): 4, 6 and 8 in all timed alike at n = 18, within the noise of the machine (6.0 to
# 6.7 s on one core).
RUN = 3

# The cells of the quarter table of every side a count may use (n <= 27: h <= 13), so that
# need_bytes refuses a count for memory before any kernel is loaded, compiled or run (the
# count takes 0.3 s at h = 11, 1.6 s at 12 and 11 s at 13 on one core). Counted once by
# ``python -c "from puzzlesearch.queens import assembly_kernel as k; print(k.quarter_size(13))"``
# and checked by the tests. Larger h are counted when asked (2 min at h = 14, the count
# growing 9.5 to 10.6 times an h over h = 11..14).
COUNTED_CELLS = {1: 2, 2: 5, 3: 18, 4: 87, 5: 462, 6: 2635, 7: 16870, 8: 118969, 9: 915442,
                 10: 7535369, 11: 66807234, 12: 633443407, 13: 6354135838}
# From this side on the quarter table takes seconds to build (h = 11: 6 s, h = 10: 0.7 s,
# on the Intel Xeon VM with both cores busy; about 9 times more each further h): the JIT
# kernels build it, which release the GIL, so that Ctrl-C is seen meanwhile (the kernels
# compiled ahead of time hold it for a whole call). A first count of a smaller board need
# not import numba for it.
JIT_TABLE_H = 11
# Half boards of one E at most, per cell of the quarter table (n = 16..20 measured: 0.02-0.03);
# four words are kept per half board (east and west, as made and sorted).
HALF_PER_CELL = 0.05
HALF_ARRAYS = 4


def cases(n: int) -> list[tuple[int, int]]:
    """The cases of an n x n board: [(0, 0)] for even n; for odd n the centre queen (0, 0)
    and the pairs 0 < a < b <= h."""
    h = n // 2
    if n % 2 == 0:
        return [(0, 0)]
    return [(0, 0)] + [(a, b) for b in range(1, h + 1) for a in range(1, b)]


@built_once(maxsize=64)
def layout(n: int, case: tuple[int, int]) -> dict:
    """Everything the kernel needs to know of a case but the quarter table."""
    h = n // 2
    odd = n % 2
    a, b = case
    all_rows = (1 << (2 * h)) - 1
    east = ((1 << h) - 1) << h
    west = (1 << h) - 1
    fa = fd = 0
    sym = 1 if not odd else (2 if case == (0, 0) else 0)
    mult = 8 if odd and case != (0, 0) else 1
    free_rows = all_rows
    if odd and case == (0, 0):
        fa, fd = 1 << (2 * h), 1 << (n - 1)
    elif odd:
        # queens at (h, h + a) and (h + b, h); the board without its middle row and column
        # loses row h + b - 1 and column h + a - 1 (both counted from 0, east / south)
        fa = (1 << (2 * h + a)) | (1 << (2 * h + b))
        fd = (1 << (n - 1 - a)) | (1 << (n - 1 + b))
        free_rows ^= 1 << (h + b - 1)
        east ^= 1 << (h + a - 1)
    lo_a = h + odd  # the crossing diagonals: bits lo .. lo + width - 1 of each direction
    lo_d = n - h
    width = n + h - 1 - lo_a
    # The cut bits: the crossing diagonals nearest the middle are the most often held (half
    # of all halves each at n = 18): a run of RUN neighbouring ones of each direction,
    # where no key has a bit — the middle queens' diagonals (holes in every key), and with
    # the long-diagonal rule (even n) the long diagonals, which no east half holds.
    empty_a = {t for t in range(width) if fa >> (lo_a + t) & 1}
    empty_d = {t for t in range(width) if fd >> (lo_d + t) & 1}
    if sym == 1:
        empty_a.add(n - 1 - lo_a)
        empty_d.add(n - 1 - lo_d)
    cut_a, cut_d = _run(width, empty_a), _run(width, empty_d)
    sieve = cut_a is not None and cut_d is not None  # small boards may have no room for one
    return {
        "h": h, "free_rows": free_rows, "east": east, "west": west, "fa": fa, "fd": fd, "sym": sym,
        "mult": mult, "lo_a": lo_a, "lo_d": lo_d, "width": width,
        "cut_a": cut_a if sieve else 0, "cut_d": width + cut_d if sieve else 0,
        "maxcut": 2 * RUN if sieve else 0,
        "nbits": 2 * width,
        "sets": comb(bin(free_rows).count("1"), bin(east).count("1")),
    }


def _run(width: int, empty: set[int]) -> int | None:
    """The first of the RUN neighbouring bits nearest the middle of `width` that miss `empty`
    (None if there is no such run)."""
    middle = (width - RUN) / 2
    return min((t for t in range(width - RUN + 1) if not empty & set(range(t, t + RUN))),
               key=lambda t: (abs(t - middle), t), default=None)


@built_once(maxsize=2)
def table(h: int) -> tuple[np.ndarray, np.ndarray]:
    """The quarter table of side h: (start, cells), the cells of key k in start[k]:start[k+1]."""
    start = np.zeros((1 << (2 * h)) + 1, np.int64)
    kernels = _table_kernels(h)
    kernels.quarter(h, False, start, start)
    np.cumsum(start, out=start)
    cells = np.zeros(int(start[-1]), np.int64)
    fill = start[:-1].copy()
    kernels.quarter(h, True, fill, cells)
    return start, cells


@built_once(maxsize=16)
def quarter_cells(h: int) -> int:
    """The cells of the quarter table of side h, the size of ``table(h)[1]``, without building
    it (need_bytes must know it before the table is built)."""
    if h in COUNTED_CELLS:
        return COUNTED_CELLS[h]
    return int(_table_kernels(h).quarter_size(h))


def _table_kernels(h: int):
    """The kernels that build (or count) the quarter table of side h: JIT from JIT_TABLE_H on."""
    return _kernels("jit" if h >= JIT_TABLE_H else None)


def _work(h: int) -> np.ndarray:
    """The kernel's room for the half boards of a row set, one per task: as much as
    need_bytes counts a worker thread. Never kept for the next task: two tasks running in
    threads of one process at once would write into the same arrays. Untouched pages cost
    nothing, so a task pays only for the half boards it writes."""
    return np.empty((HALF_ARRAYS, max(1024, int(quarter_cells(h) * HALF_PER_CELL))), np.int64)


@built_once(maxsize=2)
def _widest(h: int) -> int:
    return int(np.diff(table(h)[0]).max())


def need_bytes(n: int, workers: int = 1) -> int:
    """The memory a count of n needs: the quarter table (built once, before the workers
    start, and shared with them) and each worker's arrays for the largest row set."""
    h = n // 2
    cells = quarter_cells(h)
    return (4 ** h + 1) * 8 + cells * 8 + workers * int(cells * HALF_PER_CELL) * HALF_ARRAYS * 8


def unique(n: int, total: int) -> int:
    """The unique solutions from Q(n) = `total`, by Burnside's lemma: the classes under the 8
    symmetries are the mean number of solutions each fixes. The identity fixes all, the
    quarter turns R90(n) each, the half turn R180(n), and no reflection fixes any for
    n >= 2 (symmetric_kernel.py says why): U(n) = (Q(n) + 2 R90(n) + R180(n)) / 8."""
    kernels = _kernels()
    fixed = total + 2 * int(kernels.quarter_turn_count(n)) + int(kernels.half_turn_count(n))
    if fixed % 8:
        raise CheckFailed("Burnside's lemma",
                          f"Q + 2 R90 + R180 = {fixed:,} for n={n} is not a multiple of 8")
    return fixed // 8


def _splits(n: int, target: int) -> list[tuple[tuple[int, int], int, int]]:
    """Each case of n with its row sets and the ranks of one task: about target / cases
    ranges of ranks a case, at most one a row set."""
    all_cases = cases(n)
    per = max(1, target // len(all_cases))
    out = []
    for case in all_cases:
        total = layout(n, case)["sets"]
        out.append((case, total, -(-total // min(per, total))))
    return out


def tasks(n: int, target: int) -> list[dict]:
    """The tasks of n: each case's row sets in about target / cases ranges of ranks."""
    return [{"n": n, "case": list(case), "first": f, "count": min(step, total - f)}
            for case, total, step in _splits(n, target) for f in range(0, total, step)]


def task_count(n: int, target: int) -> int:
    """len(tasks(n, target)), without making them (millions for n = 26 and 27)."""
    return sum(-(-total // step) for _, total, step in _splits(n, target))


def _kernels(shared: object = None):
    """The assembly kernels: JIT where ``shared`` is "jit" (tasks.shared_kernels says when),
    else those of ``aot.kernels()``."""
    if shared == "jit":
        from . import assembly_kernel

        return assembly_kernel
    return aot.kernels()[0]


def run_task(task: dict, shared: object = None) -> list[int]:
    """One task's [solutions, half boards] (``shared``: "jit" for the JIT kernels, as
    ``_kernels`` says)."""
    n = task["n"]
    case = tuple(task["case"])
    lay = layout(n, case)
    start, cells = table(lay["h"])
    widest = _widest(lay["h"])
    out = np.zeros(2, np.int64)
    work = _work(lay["h"])
    _kernels(shared).count_range(n, lay["h"], start, cells, lay["free_rows"], lay["east"], lay["west"],
                                 lay["fa"], lay["fd"], lay["sym"], lay["lo_a"], lay["lo_d"], lay["width"],
                                 lay["cut_a"], lay["cut_d"], lay["maxcut"], lay["nbits"], widest,
                                 task["first"], task["count"], work, out)
    return [int(out[0]) * lay["mult"], int(out[1])]


def sample_seconds(n: int, samples: int, seed: int, kernels: str | None = None) -> tuple[float, int]:
    """Knuth-style estimate of a count's CPU time: the mean time of row sets drawn at random
    in each case (the same number in each), times the case's row sets, summed. Returns the
    seconds of one core and how many row sets were timed. Builds the quarter table.

    The ranks are stratified, one drawn in each of `per` equal ranges: a row set's cost
    drifts with its rank (the even board leaves most of its later ranks to their images),
    and plain random ranks let the estimate of n = 20 range over 0.7 to 1.4 times the run.
    ``kernels`` as for run_task."""
    rng = np.random.default_rng(seed)
    all_cases = cases(n)
    per = max(2, -(-samples // len(all_cases)))
    h = n // 2
    table(h)
    run_task({"n": n, "case": list(all_cases[0]), "first": 0, "count": 1}, kernels)  # compiled, tables warm
    total = 0.0
    timed = 0
    for case in all_cases:
        sets = layout(n, case)["sets"]
        spent = 0.0
        strata = min(per, sets)
        for rank in ((np.arange(strata) + rng.random(strata)) * (sets / strata)).astype(np.int64):
            # the CPU time of this thread, not the wall's: on a shared machine the other
            # processes' load would count as the count's (n = 20 at a load of 11 on 2
            # cores: 9 times the wall time of a quiet machine)
            t0 = time.thread_time()
            run_task({"n": n, "case": list(case), "first": int(rank), "count": 1}, kernels)
            spent += time.thread_time() - t0
            timed += 1
        total += spent / strata * sets
    return total, timed


def task_weight(task: dict) -> float:
    """A task's work for the progress bar of an even board, from 16 of its row sets
    (assembly_kernel.task_work). There the later ranks are mostly left to their images, so
    tasks counted alike put the time left at 1.4 to 5 times the true one (n = 18, from 10%
    to 90% of the run, one core); weighed, it is 0.98 to 1.22 times. On odd boards the
    tasks are alike enough without (0.84 to 1.01 times at n = 19; weighed, 0.72 to 0.83)."""
    lay = layout(task["n"], tuple(task["case"]))
    start, _ = table(lay["h"])
    return _kernels().task_work(lay["h"], start, lay["free_rows"], lay["east"], lay["west"], lay["sym"],
                                task["first"], task["count"], 16)


def count(n: int) -> int:
    """Q(n) in this process, one task a case (for the tests and small n)."""
    return sum(run_task(t)[0] for t in tasks(n, 1))


def check_checkpoint(path: str | os.PathLike, n: int) -> None:
    """Refuse a checkpoint of this count made by another version of the assembly kernels
    (one made before checkpoints named theirs is of version 1)."""
    made = Checkpoint.params_of(path)
    if made and made.get("method") == "assembly" and made.get("n") == n:
        version = made.get("kernel", 1)
        if version != KERNEL_VERSION:
            raise ValueError(f"checkpoint {show(path)} was made by version {version} of the assembly "
                             f"kernels, this is version {KERNEL_VERSION}: resume it with the "
                             "puzzlesearch that made it, or delete it to count afresh")
