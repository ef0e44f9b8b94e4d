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
# How balanced_tasks weighs the row sets of a case: in blocks of consecutive ranks, 16 a
# task (at most 2^20 blocks in all, never fewer than 16 a case), the work of each from 4 of
# its row sets, evenly spaced; a row set costs PROFILE_BASE besides its pairs, in the
# model's units (a pair about 2e-14 s of a core at n = 23): the 21 ns that a row set left to
# an image took there (case (0, 0) from rank 600,000), its unranking and the test for
# images. Changing any of these changes the tasks of a count, and with them the checkpoints
# a count resumes: that is a new tasks.ASSEMBLY_SPLIT.
PROFILE_BLOCKS = 16
PROFILE_SAMPLES = 4
PROFILE_MAX_BLOCKS = 1 << 20
PROFILE_BASE = 1e6
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
def quarter_starts(h: int) -> np.ndarray:
    """Where each key's cells start in the quarter table of side h (the table's first array,
    read only), counted without making the cells: what balanced_tasks weighs row sets by."""
    start = np.zeros((1 << (2 * h)) + 1, np.int64)
    _table_kernels(h).quarter(h, False, start, start)
    np.cumsum(start, out=start)
    start.flags.writeable = False
    return start


@built_once(maxsize=2)
def table(h: int) -> tuple[np.ndarray, np.ndarray]:
    """The quarter table of side h: (start, cells), the cells of key k in start[k]:start[k+1]."""
    start = quarter_starts(h)
    cells = np.zeros(int(start[-1]), np.int64)
    fill = start[:-1].copy()
    _table_kernels(h).quarter(h, True, fill, cells)
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


def balanced_count(n: int, target: int) -> int:
    """len(balanced_tasks(n, target)), without the quarter table: `target`, but at least a
    task a case and at most a task a row set."""
    sets = [layout(n, case)["sets"] for case in cases(n)]
    return max(len(sets), min(target, sum(sets)))


def balanced_tasks(n: int, target: int) -> list[dict]:
    """The tasks of n cut so that each holds about as much work: ``balanced_count(n,
    target)`` ranges of ranks, each case given as many as make its tasks' work alike to the
    others' (_apportion), and its ranks cut where its work reaches equal shares.

    The work of a row set is the kernel's model (task_work): (east pairs) x (west pairs) of
    quarter placements, 0 for a row set left to an image, plus PROFILE_BASE for the row set
    itself. Over Q(23)'s tasks on quiet cores it put the time of the cases within 0.89 to
    1.3 times one another (the centre-queen case 1.55 times). Ranges of equal length left
    half the centre case's tasks of Q(23) with nothing to count, and its first ones took up
    to 295 s. Each case is weighed in blocks of ranks (PROFILE_BLOCKS a task,
    PROFILE_SAMPLES row sets a block, PROFILE_MAX_BLOCKS in all: 1.6 s at n = 23 once the
    index is built), and a cut falls inside its block in proportion to the ranks.
    Deterministic: the same n and target give the same tasks on any machine, so a
    checkpoint resumes them."""
    all_cases = cases(n)
    sets = [layout(n, case)["sets"] for case in all_cases]
    total_tasks = balanced_count(n, target)
    if total_tasks == len(all_cases):  # a task a case: nothing to weigh
        return [{"n": n, "case": list(c), "first": 0, "count": s}
                for c, s in zip(all_cases, sets, strict=True)]
    h = n // 2
    start = quarter_starts(h)
    profile = _kernels().work_profile
    # the blocks of all cases: PROFILE_BLOCKS a task, but never more than PROFILE_MAX_BLOCKS
    # (millions of tasks at n = 26 and 27: there a block may hold several tasks' cuts)
    budget = min(PROFILE_BLOCKS * total_tasks, PROFILE_MAX_BLOCKS)
    all_sets = sum(sets)
    works, edges = [], []
    for case, count in zip(all_cases, sets, strict=True):
        lay = layout(n, case)
        blocks = min(count, max(PROFILE_BLOCKS, -(-budget * count // all_sets)))
        work = np.zeros(blocks, np.float64)
        profile(h, start, lay["free_rows"], lay["east"], lay["west"], lay["sym"], 0, count,
                PROFILE_SAMPLES, work)
        # block i holds the ranks edge[i] .. edge[i + 1] - 1, as work_profile cuts them
        edge = (count * np.arange(blocks + 1, dtype=np.int64)) // blocks
        work += PROFILE_BASE * np.diff(edge)
        works.append(work)
        edges.append(edge)
    shares = _apportion([float(w.sum()) for w in works], sets, total_tasks)
    out = []
    for case, count, work, edge, share in zip(all_cases, sets, works, edges, shares, strict=True):
        cum = np.concatenate(([0.0], np.cumsum(work)))
        # rank where the case's work reaches k / share of its whole, the ranks of a block
        # taken as sharing its work alike
        cuts = np.interp(cum[-1] * np.arange(share) / share, cum, edge.astype(np.float64))
        # every task at least one row set: first[k] = min(max(cut[k], first[k - 1] + 1),
        # count - share + k), which is k + min(running max of cut[j] - j, count - share)
        # (share <= count leaves room for all)
        k = np.arange(share, dtype=np.int64)
        firsts = k + np.minimum(np.maximum.accumulate(np.round(cuts).astype(np.int64) - k), count - share)
        lasts = np.append(firsts[1:], count)
        out += [{"n": n, "case": list(case), "first": int(f), "count": int(g - f)}
                for f, g in zip(firsts, lasts, strict=True)]
    return out


def _apportion(weights: list[float], caps: list[int], total: int) -> list[int]:
    """Whole shares of `total`, share i between 1 and caps[i], that make the largest
    weights[i] / share[i] as small as can be (the work of a case's task, where the case's
    tasks hold alike work); sum(caps) >= total >= len(weights). The least level `level` at
    which shares of ceil(weight / level) fit, by bisection, then the tasks left one by one
    to the heaviest work per task that has room (ties: the fewest tasks, the first case)."""
    w = np.asarray(weights, np.float64)
    cap = np.asarray(caps, np.int64)

    def shares(level: float) -> np.ndarray:
        return np.clip(np.ceil(w / level), 1, cap).astype(np.int64)

    lo, hi = 0.0, max(float(w.max()), 1.0)  # shares(hi) are all 1: they fit
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid <= lo or mid >= hi:
            break
        if shares(mid).sum() <= total:
            hi = mid
        else:
            lo = mid
    share = shares(hi)
    while share.sum() < total:
        room = np.flatnonzero(share < cap)
        i = min(room, key=lambda i: (-w[i] / share[i], share[i], i))
        share[i] += 1
    return [int(x) for x in share]


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
    return _count(task, shared)


def _count(task: dict, shared: object, work: np.ndarray | None = None) -> list[int]:
    """run_task, with the room for the half boards given (``work``, as _work makes it) or
    made for this call alone."""
    n = task["n"]
    case = tuple(task["case"])
    lay = layout(n, case)
    start, cells = table(lay["h"])
    widest = _widest(lay["h"])
    out = np.zeros(2, np.int64)
    work = _work(lay["h"]) if work is None else work
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
    ``kernels`` as for run_task.

    A task pays once for what a call of the kernel costs beside its row sets, and a sample
    would pay it for one row set: the call itself (about 9 us at n = 19, where a row set
    takes 66 us on average) and the first writes to the room for the half boards, fresh
    pages the system must supply (about 8% of a row set's time at n = 23). So the samples
    share one room, written through before the first, and each case's samples are timed
    less the median cost of a call that counts no row set. Timed with their calls, two
    seeds' estimates of n = 19 came to 1.15 and 1.19 times its count in the same thread."""
    rng = np.random.default_rng(seed)
    all_cases = cases(n)
    per = max(2, -(-samples // len(all_cases)))
    h = n // 2
    table(h)
    work = _work(h)
    work.fill(0)  # the pages a task has written after its first row sets
    _count({"n": n, "case": list(all_cases[0]), "first": 0, "count": 1}, kernels, work)  # compiled, warm
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
            _count({"n": n, "case": list(case), "first": int(rank), "count": 1}, kernels, work)
            spent += time.thread_time() - t0
            timed += 1
        total += max(0.0, spent / strata - _call_seconds(n, case, kernels, work)) * sets
    return total, timed


def _call_seconds(n: int, case: tuple[int, int], kernels: str | None, work: np.ndarray,
                  calls: int = 15) -> float:
    """The median CPU time of a call of the kernel for `case` that counts no row set."""
    spent = []
    for _ in range(calls):
        t0 = time.thread_time()
        _count({"n": n, "case": list(case), "first": 0, "count": 0}, kernels, work)
        spent.append(time.thread_time() - t0)
    return float(np.median(spent))


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
