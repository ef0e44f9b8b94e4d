"""N-Queens searches as task lists for the engine: the split, one task's run, its work estimate.

Either search is split on its first rows into independent tasks (``engine.tasks.split``):
a task is a prefix of placed rows, as a JSON dict, and its result a short list of ints.
The split depends on n (and the given queens) only, never on how the tasks are run, so
that a checkpoint can be finished with other workers or on a Dask cluster.

- The corner/rotation search (corner.py): a task is ``{"n", "side", "bound1", "cols"}``
  (a corner board with row 1's queen in column ``bound1``, or a side board with row 0's
  queen there; ``cols`` the columns of the rows placed) and its result ``[c8, c4, c2]``.
- The constellation search (constellation.py): a task is ``{"n", "cons"}``, a list of
  constellations, and its result ``[solutions, 8 * unique]``.
- The completion search (complete.py): a task is ``{"n", "fixed", "cols"}`` (``fixed[r]``
  the given column of row r, or -1) and its result ``[nodes, solutions, class units]``.

Corner tasks differ in cost by a factor of a hundred and more, so the progress bar's time
left is estimated from each one's weight (``corner_weight``): the number of nodes its
subtree has a few rows further down, the same depth for every task. Completion tasks are
alike enough without: counted alike, the time left at 10% to 90% of the run was 0.8-1.3
times the true one (n = 13 and 15, three sets of givens), and no look-ahead did better.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping

import numpy as np

from puzzlesearch.engine import interrupt
from puzzlesearch.engine.tasks import split

from . import aot, edges

# The slots of a task's result, a list (results travel between processes as JSON):
C8, C4, C2 = 0, 1, 2  # corner/rotation: boards whose symmetry class has 8, 4 and 2 members
SOLUTIONS, UNIQUE8 = 0, 1  # constellation: solutions, and 8 x the unique ones
NODES, FOUND, UNITS = 0, 1, 2  # completion: queens placed, solutions, class units (complete.CLASS_UNIT)

# Boards up to this size are counted in milliseconds: one task per first-row choice (no
# split), and the engine's policy for quick jobs runs them in this process.
QUICK_N = 12

# From n = 20 on, the largest corner tasks take seconds (about 4 s at n = 20, 7 times more
# for each further n). The ahead-of-time kernels hold the GIL for a whole task, so in this
# process Ctrl-C would wait for it: a count run there (one worker) then uses the JIT kernels,
# which release the GIL (engine.interrupt), at the same speed (n = 16 on one core, three
# runs each: 1.26-1.30 s JIT, 1.29-1.48 s ahead of time). Below 20 a task takes at most
# 0.2 s (n = 17), and the ahead-of-time kernels spare the 0.5 s of importing numba.
JIT_IN_PROCESS_N = 20
# From this n on a count is long enough (a minute or more of CPU) that the build of the
# kernels for this very CPU (about 15 s, once a machine) pays for itself: it is made before
# the count where only the packaged one exists (aot.kernels(tuned=True)).
TUNED_N = 19

# How many rows below the deepest task the work estimate looks: a few milliseconds for a
# few hundred tasks (20 ms for the 2983 of n = 18). From 10% to 80% of a run of n = 16 or
# 17 (one worker), the time left it gave was 0.96-1.66 times the true one, where counting
# the tasks alike gave 0.06-1.04 times (0.06 and 0.18 at 10%: "1 s left" with 8 s to go).
LOOKAHEAD = 3
# A side board costs about 1.5 times a corner board per node a few rows down (the bound2
# rule below it and the rotation check at each leaf): measured on n = 16 and 17.
SIDE_COST = 1.5


def _split_target(n: int) -> int:
    # Depends on n only (never on the workers), so every run of n has the same tasks. Each
    # task costs the parent about 0.3 ms of a core the workers could use, so up to n = 17
    # they stay a few hundred (212 for n = 16, 243 for n = 17, the largest 2-3% of the
    # work); from n = 18 on tasks are long, and thousands of them balance a cluster too.
    return 100 if n <= 17 else 1000


# --- the corner/rotation search --------------------------------------------------------------------


def corner_tasks(n: int) -> list[dict]:
    """Independent subproblems of the corner/rotation search of an n x n board (n >= 4)."""
    kernels, _ = aot.kernels()

    def children(node: dict | None) -> list[dict]:
        if node is None:
            roots = [{"n": n, "side": False, "bound1": b, "cols": [0, b]} for b in range(2, n - 1)]
            roots += [{"n": n, "side": True, "bound1": b, "cols": [b]} for b in range(1, n) if b < n - 1 - b]
            return roots
        depth = len(node["cols"]) + 1
        if depth >= n - 1:  # the last row is judged by the kernel, never split on
            return []
        prefix = _bits(node["cols"])
        out = np.zeros((n + 1, n), np.int64)
        found = kernels.split_kernel(n, node["side"], node["bound1"], prefix, depth, out)
        return [{**node, "cols": _columns(out[i, :depth])} for i in range(found)]

    if n <= QUICK_N:
        return children(None)
    return split(None, children, _split_target(n))


def shared_kernels(n: int, workers: int, on_cluster: bool) -> str | None:
    """The kernels a count's tasks run: "jit" for the JIT kernels, None for those of
    ``aot.kernels()``.

    The ahead-of-time kernels hold the GIL for a whole task, so wherever tasks share a
    process with other threads they would run one at a time: on a Dask worker, whose
    threads run tasks side by side, and in this process (one worker) from
    JIT_IN_PROCESS_N on, where Ctrl-C would wait for a long task. There the JIT kernels
    run, which release it. ``PUZZLESEARCH_KERNELS=aot`` keeps the ahead-of-time ones.
    """
    if os.environ.get("PUZZLESEARCH_KERNELS", "").strip().lower() == "aot":  # see aot.py
        return None
    if on_cluster:
        return "jit"
    return "jit" if workers == 1 and n >= JIT_IN_PROCESS_N else None


def corner_task(task: dict, kernels: str | None = None) -> list[int]:
    """Run one corner/rotation task: [c8, c4, c2].

    ``kernels`` (the engine's shared value) is "jit" to run corner.py's JIT kernels, else
    None for those of ``aot.kernels()``.
    """
    n, prefix = task["n"], _bits(task["cols"])
    if kernels == "jit":
        from . import corner as chosen
    else:
        chosen, _ = aot.kernels()
    if task["side"]:
        c8, c4, c2 = chosen.side_kernel(n, task["bound1"], prefix)
        return [int(c8), int(c4), int(c2)]
    return [int(chosen.corner_kernel(n, task["bound1"], prefix)), 0, 0]


def corner_weight(n: int, tasks: list[dict]) -> Callable[[dict], float]:
    """The estimated work of each of `tasks`: its prefixes LOOKAHEAD rows below the deepest task."""
    kernels, _ = aot.kernels()
    depth = min(max(len(t["cols"]) for t in tasks) + LOOKAHEAD, n - 2)
    out = np.zeros((0, n), np.int64)  # the prefixes are only counted

    def weight(task: dict) -> float:
        if len(task["cols"]) >= depth:
            below = 1
        else:
            below = kernels.split_kernel(n, task["side"], task["bound1"], _bits(task["cols"]), depth, out)
        return below * (SIDE_COST if task["side"] else 1.0)

    return weight


# --- the constellation search ----------------------------------------------------------------------


def _constellation_target(n: int) -> int:
    # A count of n takes about 7.5 times the time of n - 1 (8 s of CPU for n = 17). Up to
    # n = 20 the split of the corner search serves (a few seconds per task at n = 20);
    # beyond, 4000 tasks keep one under a minute or so at n = 22 (about 30,000
    # constellations), so that a killed run loses little and a cluster stays busy.
    if n <= QUICK_N:
        return 1
    return _split_target(n) if n <= 20 else 4000



def constellation_tasks(n: int) -> list[dict]:
    """The constellation search of an n x n board (n >= 4) as tasks: ``{"n", "cons"}``, each
    a list of constellation rows (a, b, c, d, orbit, sym), dealt out in turn so that every
    task gets large and small ones alike."""
    rows = edges.constellations(n).tolist()
    count = min(len(rows), _constellation_target(n))
    return [{"n": n, "cons": rows[i::count]} for i in range(count)]


def constellation_task(task: dict, kernels: str | None = None) -> list[int]:
    """Run one constellation task: [solutions, 8 * unique] (``kernels`` as for corner_task)."""
    if kernels == "jit":
        from . import constellation as chosen
    else:
        chosen, _ = aot.kernels()
    cons = np.array(task["cons"], np.int64).reshape(-1, 6)
    total, unique8 = chosen.count_batch(task["n"], cons)
    return [int(total), int(unique8)]


# --- the completion search -------------------------------------------------------------------------


def _complete_children(n: int, fixed_row: list[int]) -> Callable[[dict], list[dict]]:
    """The children of a completion task: its prefix with one more row, as the givens allow."""
    full = (1 << n) - 1

    def children(node: dict) -> list[dict]:
        cols = node["cols"]
        row = len(cols)
        if row >= n - 1:
            return []
        left = down = right = 0
        for c in cols:
            bit = 1 << c
            left, down, right = ((left | bit) << 1) & full, down | bit, (right | bit) >> 1
        free = full & ~(left | down | right)
        if fixed_row[row] >= 0:
            free &= 1 << fixed_row[row]
        return [{**node, "cols": cols + [c]} for c in range(n) if free >> c & 1]

    return children


def complete_tasks(n: int, fixed: Mapping[int, int]) -> list[dict]:
    """Independent subproblems of the completion search: prefixes of the first rows."""
    fixed_row = fixed_array(n, fixed).tolist()
    root = {"n": n, "fixed": fixed_row, "cols": []}
    if n <= QUICK_N:
        return [root]
    return split(root, _complete_children(n, fixed_row), _split_target(n))


def complete_task(task: dict, shared: object = None) -> list[int]:
    """Run one completion task: [nodes, solutions, class units]."""
    from . import complete

    fixed = np.array(task["fixed"], np.int64)
    prefix = np.array(task["cols"], np.int64)
    nodes, found, units = complete.complete_kernel(task["n"], fixed, prefix)
    return [int(nodes), int(found), int(units)]


# --- the assembly method ---------------------------------------------------------------------------


# The CPU seconds of one core an assembly count of n takes, to size its tasks: Q(18) to
# Q(21) took 8.5, 70, 321 and 2204 CPU seconds, and `queens estimate` puts Q(22) at 23,048
# and Q(23) at 140,842 (benchmarks/results/queens_assembly*.json). From n to n + 2 the time
# grew 31 to 38 times over n = 18..21 and 64 to 72 times over n = 20..23: about 8 times a
# step of n lately, and quickening. Beyond n = 23 a step is taken as 9 times, so that a
# model in error makes tasks too short rather than too long; below 18, as 8 times (there
# the least number of tasks decides anyway).
ASSEMBLY_CPU_SECONDS = {18: 8.5, 19: 70.0, 20: 321.0, 21: 2204.0, 22: 23048.0, 23: 140842.0}
ASSEMBLY_GROWTH = 9.0
# The mean CPU seconds of an assembly task, where the count is long enough to need more
# tasks than the least below. A killed run loses the tasks in flight; tasks of one count
# differ (those of Q(21): the median 0.91 times the mean, 90% under 1.44 times, 99% under
# 2.2 times, the largest 7.9 times), so with 45 s most take under a minute.
ASSEMBLY_TASK_SECONDS = 45.0
# The least CPU seconds of an assembly task, where the count is short: each task costs the
# engine a round trip, and on a Dask cluster also the scheduler's and the client's time,
# about a millisecond or more on the cores the work shares. Q(18) on 2 dask worker
# processes of 2 threads, all on 2 cores: 5.1 s with 399 tasks of 21 ms, 4.1 s with 100 of
# 85 ms, against 3.5 s on --workers 2 (which 100 tasks do not slow).
ASSEMBLY_TASK_LEAST_SECONDS = 0.08
# How a count cuts its row sets into tasks, among a checkpoint's parameters ("split"): 1,
# ranges of ranks of equal length, about ASSEMBLY_TASK_SECONDS each (assembly.tasks; the
# checkpoints made before there was a choice name none); 2, ranges of equal work by the
# kernel's model, about ASSEMBLY_BALANCED_TASK_SECONDS each (assembly.balanced_tasks).
# Equal lengths gave Q(23)'s centre-queen case tasks of up to 295 s (a kill lost that
# much) while half of its tasks found nothing to count; on even boards they also put the
# bar's time left far out, which task_weight mends for the checkpoints that keep them.
ASSEMBLY_SPLIT = 2
ASSEMBLY_BALANCED_TASK_SECONDS = 30.0


def assembly_cpu_seconds(n: int) -> float:
    """One core's seconds for the assembly count of n, by the model above."""
    known = ASSEMBLY_CPU_SECONDS
    lo, hi = min(known), max(known)
    if n > hi:
        return known[hi] * ASSEMBLY_GROWTH ** (n - hi)
    return known[n] if n >= lo else known[lo] / 8.0 ** (lo - n)


def _assembly_target(n: int) -> int:
    # Depends on n only (a checkpoint resumes only the same tasks, and the split never
    # depends on the workers). At least a few hundred tasks, 2000 from n = 20 (0.16 s each
    # at n = 20, 1.1 s at 21, 12 s at 22), so that a cluster's threads each get many, but
    # none shorter than ASSEMBLY_TASK_LEAST_SECONDS where that leaves 64 or more; from
    # n = 23 on, as many as make the mean task ASSEMBLY_TASK_SECONDS long. Up to n = 22 the
    # least is the larger: their tasks, and so the checkpoint of Q(21) in benchmarks/runs/,
    # are the same as with 2000 tasks alone.
    if n <= QUICK_N:
        return 1
    cpu = assembly_cpu_seconds(n)
    least = 64 if n <= 16 else (400 if n <= 19 else 2000)
    least = max(64, min(least, int(cpu / ASSEMBLY_TASK_LEAST_SECONDS)))  # none too short
    return max(least, math.ceil(cpu / ASSEMBLY_TASK_SECONDS))


def _balanced_target(n: int) -> int:
    # as _assembly_target, the mean task ASSEMBLY_BALANCED_TASK_SECONDS long where the count
    # is long enough: tasks of equal work spread less than ranges of equal length, but the
    # model still puts a case's time within 0.89 to 1.55 times another's (assembly.balanced_tasks)
    if n <= QUICK_N:
        return 1
    return max(_assembly_target(n), math.ceil(assembly_cpu_seconds(n) / ASSEMBLY_BALANCED_TASK_SECONDS))


def assembly_task_seconds(n: int) -> float:
    """The mean CPU seconds of one assembly task of n as a count splits it now
    (ASSEMBLY_SPLIT), by the model (assembly_cpu_seconds)."""
    from . import assembly

    return assembly_cpu_seconds(n) / assembly.balanced_count(n, _balanced_target(n))


def assembly_split(n: int, made: Mapping | None = None) -> tuple[int, int]:
    """(split, target): how the count of n cuts its row sets into tasks (see ASSEMBLY_SPLIT)
    and how many it asks for. Those of ``made``, the parameters of a checkpoint of this
    count, where there is one, so that it resumes the tasks it was made with; else the
    current ones. ValueError for a split this version does not know."""
    if made and made.get("method") == "assembly" and made.get("n") == n:
        split = made.get("split", 1)
        if split == 1:
            return 1, _assembly_target(n)
        if split == 2 and isinstance(made.get("split_tasks"), int) and made["split_tasks"] > 0:
            return 2, made["split_tasks"]
        raise ValueError(f"the checkpoint's tasks were cut by split {split!r}, which this puzzlesearch "
                         "does not know: resume it with the puzzlesearch that made it")
    return ASSEMBLY_SPLIT, _balanced_target(n)


def assembly_tasks(n: int, split: int = ASSEMBLY_SPLIT, target: int | None = None) -> list[dict]:
    """The assembly count of an n x n board as tasks: ``{"n", "case", "first", "count"}``,
    cut by ``split`` into about ``target`` of them (by default as a new count cuts them)."""
    from . import assembly

    if split == 1:
        return assembly.tasks(n, target or _assembly_target(n))
    # weighing the row sets builds the quarter table's index first (11 s of a quiet core at
    # n = 26), and weighing the 3.4 million tasks of n = 26 took about a minute more
    return interrupt.call(assembly.balanced_tasks, n, target or _balanced_target(n))


def assembly_params(n: int, split: int, target: int) -> dict:
    """The parameters a checkpoint of the assembly count of n keeps (split 1: none, as the
    checkpoints made before there was a choice)."""
    from . import assembly

    params = {"puzzle": "queens", "n": n, "method": "assembly", "kernel": assembly.KERNEL_VERSION}
    return params | ({"split": split, "split_tasks": target} if split != 1 else {})


def assembly_plan(n: int, made: Mapping | None = None) -> tuple[int, list[dict], dict]:
    """(split, tasks, parameters) of the assembly count of n: resuming the checkpoint whose
    parameters are ``made`` where it is one of this count (assembly_split)."""
    split, target = assembly_split(n, made)
    return split, assembly_tasks(n, split, target), assembly_params(n, split, target)


def weighed(n: int, split: int) -> bool:
    """Whether the progress bar weighs the tasks (assembly.task_weight): on even boards cut
    into ranges of equal length, whose later ranks are mostly left to their images."""
    return split == 1 and n % 2 == 0


def assembly_task(task: dict, kernels: str | None = None) -> list[int]:
    """Run one assembly task: [solutions, half boards] (``kernels`` as for corner_task)."""
    from . import assembly

    return assembly.run_task(task, kernels)


def prepare_assembly(n: int, kernels: str | None = None, notice: Callable[[str], None] | None = None) -> str:
    """Load the assembly kernels and build n's quarter table in this process, so that forked
    workers inherit both (the table is shared with them, not copied). Returns "aot" or "jit":
    where the kernels come from (``kernels`` as for corner_task; ``notice`` as for
    aot.kernels)."""
    from . import assembly

    _, kind = aot.kernels(tuned=n >= TUNED_N and kernels != "jit", notice=notice)
    assembly.run_task({"n": 6, "case": [0, 0], "first": 0, "count": 1}, kernels)
    # in a helper thread, so that Ctrl-C is seen at once: the table of n = 22 takes seconds
    interrupt.call(assembly.table, n // 2)
    return kernels or kind


# --- both ------------------------------------------------------------------------------------------


def warm_up(method: str, n: int = 0, notice: Callable[[str], None] | None = None) -> str:
    """Load a method's kernels in this process, so that forked workers inherit them compiled
    (for a count of n >= TUNED_N, the build for this CPU: aot.kernels, which tells
    ``notice`` when it compiles).

    Returns "aot" or "jit": where the corner/rotation kernels come from ("jit" for complete).
    """
    if method == "constellation":
        kernels, kind = aot.kernels(tuned=n >= TUNED_N, notice=notice)
        kernels.count_batch(5, edges.constellations(5))
        return kind
    if method == "corner":
        kernels, kind = aot.kernels(tuned=n >= TUNED_N, notice=notice)
        kernels.corner_kernel(5, 2, _bits([0, 2]))
        kernels.side_kernel(5, 1, _bits([1]))
        return kind
    from . import complete

    complete.complete_kernel(4, np.full(4, -1, np.int64), np.zeros(0, np.int64))
    return "jit"


def fixed_array(n: int, fixed: Mapping[int, int] | None) -> np.ndarray:
    """The given queens {row: column} as the kernels take them: fixed[row] = column, or -1."""
    row = np.full(n, -1, np.int64)
    for r, c in (fixed or {}).items():
        row[r] = c
    return row


def _bits(cols: list[int]) -> np.ndarray:
    return np.array([1 << c for c in cols], np.int64)


def _columns(bits: np.ndarray) -> list[int]:
    return [int(b).bit_length() - 1 for b in bits]
