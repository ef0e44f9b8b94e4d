"""N-Queens driver: validate, split into tasks, run the kernels, return small results.

``count(n)`` counts all solutions and the unique ones (one per class under the 8
symmetries of the square) in one search with the corner/rotation method (corner.py);
with given queens, or for n < 4 where that method has nothing to hold on to, it counts
completions with the plain backtracker (complete.py). Either search is split on its first
rows into independent tasks (engine.tasks.split: at least a few hundred, the same however
it is run), and the tasks run through ``engine.run.run_tasks``: in this process, on local
worker processes, or on a Dask cluster, with an optional checkpoint to resume from.

``solutions(n)`` lists solutions lazily, in lexicographic order, one batch per kernel call.

The corner/rotation kernels come from ``aot.kernels()``: compiled ahead of time when
possible, so that counting all solutions never imports numba, else corner.py's JIT
kernels. The modules with JIT kernels (corner, complete) are imported only by the paths
that use them (completions and listings use complete.py's).

Boards in the Python API are tuples of 0-based columns, one per row; given queens are a
mapping {row: column}, 0-based. The command line speaks 1-based ``row:column``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import numpy as np

from puzzlesearch.engine.run import run_tasks
from puzzlesearch.engine.tasks import split

from . import aot
from .rules import Board, attacks

# Rows are bits of a signed 64-bit integer, and the diagonal masks are shifted one place
# past the board before they are cut back: 62 columns fit.
MAX_N = 62
LIST_BATCH = 256  # solutions per kernel call of a listing
SMALL_N = 12  # boards this small are counted in this process by default: a pool costs more


@dataclass(frozen=True)
class Count:
    """The outcome of one count. `unique` counts symmetry classes holding a counted board."""

    n: int
    solutions: int
    unique: int
    fixed: str  # the given queens as 1-based "row:col,...", "" for none
    method: str  # "corner" (corner/rotation method) or "complete" (plain completion search)
    nodes: int | None  # queens placed by the completion kernel (the corner kernels do not count)
    tasks: int
    seconds: float
    note: str = ""
    kernels: str = "jit"  # "aot": the corner/rotation kernels compiled ahead of time (aot.py)


def check_n(n: int) -> None:
    """Raise ValueError unless 1 <= n <= MAX_N."""
    if n < 1:
        raise ValueError(f"-n must be at least 1, got {n}")
    if n > MAX_N:
        raise ValueError(f"-n must be at most {MAX_N} (rows are 64-bit masks), got {n}")


def parse_fixed(text: str, n: int) -> list[tuple[int, int]]:
    """'1:3,4:7' (1-based row:column) -> [(0, 2), (3, 6)]. ValueError when malformed or off the board.

    Two queens in one row are allowed here (they attack each other: see `conflict`).
    """
    pairs: list[tuple[int, int]] = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        parts = item.split(":")
        if len(parts) != 2 or not all(p.strip().lstrip("-").isdigit() for p in parts):
            raise ValueError(f"--fixed expects row:column pairs like 1:3,4:7, got {item!r}")
        r, c = (int(p) for p in parts)
        if not (1 <= r <= n and 1 <= c <= n):
            raise ValueError(f"--fixed square {r}:{c} is off the {n}x{n} board (rows and columns are 1..{n})")
        if (r - 1, c - 1) in pairs:
            raise ValueError(f"--fixed gives the square {r}:{c} twice")
        pairs.append((r - 1, c - 1))
    if not pairs:
        raise ValueError("--fixed needs at least one row:column pair")
    return pairs


def conflict(pairs: list[tuple[int, int]]) -> str:
    """'' if the given queens (0-based squares) are peaceful, else a note naming two that attack."""
    for i, (r1, c1) in enumerate(pairs):
        for r2, c2 in pairs[i + 1 :]:
            if attacks(r1, c1, r2, c2):
                return f"the given queens {r1 + 1}:{c1 + 1} and {r2 + 1}:{c2 + 1} attack each other"
    return ""


def format_fixed(pairs: list[tuple[int, int]]) -> str:
    """0-based squares -> the command line's 1-based 'row:col,...', in row order."""
    return ",".join(f"{r + 1}:{c + 1}" for r, c in sorted(pairs))


# --- tasks ---------------------------------------------------------------------------------------


def _split_target(n: int) -> int:
    # Depends on n only (never on the workers), so every run of n has the same tasks. Each
    # task costs the parent about 0.3 ms of a core the workers could use, so up to n = 17
    # they stay a few hundred (212 for n = 16, 243 for n = 17, the largest 2-3% of the
    # work); from n = 18 on tasks are long, and thousands of them balance a cluster too.
    return 100 if n <= 17 else 1000


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

    if n <= SMALL_N:
        # small boards take milliseconds: one task per (corner or side, bound1)
        return children(None)
    return split(None, children, _split_target(n))


def complete_tasks(n: int, fixed: Mapping[int, int]) -> list[dict]:
    """Independent subproblems of the completion search: prefixes of the first rows."""
    fixed_row = _fixed_array(n, fixed).tolist()
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

    root = {"n": n, "fixed": fixed_row, "cols": []}
    if n <= SMALL_N:
        return [root]
    return split(root, children, _split_target(n))


def corner_task(task: dict, shared: object = None) -> list[int]:
    """Run one corner/rotation task: [c8, c4, c2]."""
    n, prefix = task["n"], _bits(task["cols"])
    kernels, _ = aot.kernels()
    if task["side"]:
        c8, c4, c2 = kernels.side_kernel(n, task["bound1"], prefix)
        return [int(c8), int(c4), int(c2)]
    return [int(kernels.corner_kernel(n, task["bound1"], prefix)), 0, 0]


def complete_task(task: dict, shared: object = None) -> list[int]:
    """Run one completion task: [nodes, solutions, class units]."""
    from . import complete

    fixed = np.array(task["fixed"], np.int64)
    prefix = np.array(task["cols"], np.int64)
    nodes, found, units = complete.complete_kernel(task["n"], fixed, prefix)
    return [int(nodes), int(found), int(units)]


def _bits(cols: list[int]) -> np.ndarray:
    return np.array([1 << c for c in cols], np.int64)


def _columns(bits: np.ndarray) -> list[int]:
    return [int(b).bit_length() - 1 for b in bits]


def _fixed_array(n: int, fixed: Mapping[int, int] | None) -> np.ndarray:
    row = np.full(n, -1, np.int64)
    for r, c in (fixed or {}).items():
        if not (0 <= r < n and 0 <= c < n):
            raise ValueError(f"given queen ({r}, {c}) is off the {n}x{n} board")
        row[r] = c
    return row


def warm_up(method: str) -> str:
    """Load a method's kernels in this process, so that forked workers inherit them compiled.

    Returns "aot" or "jit": where the corner/rotation kernels come from ("jit" for complete).
    """
    if method == "corner":
        kernels, kind = aot.kernels()
        kernels.corner_kernel(5, 2, _bits([0, 2]))
        kernels.side_kernel(5, 1, _bits([1]))
        return kind
    from . import complete

    complete.complete_kernel(4, np.full(4, -1, np.int64), np.zeros(0, np.int64))
    return "jit"


# --- counting ------------------------------------------------------------------------------------


def count(
    n: int,
    fixed: Mapping[int, int] | str | None = None,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    checkpoint: str | os.PathLike | None = None,
    progress: bool = False,
) -> Count:
    """Count the solutions of n-queens (and the unique ones), or the completions of `fixed`.

    `fixed` is {row: column} (0-based) or the command line's '1:3,4:7' (1-based). Given
    queens that attack each other have no completion: the Count says so in `note`.
    `workers` defaults to all cores, except for n <= SMALL_N (run in this process).
    """
    t0 = time.perf_counter()
    check_n(n)
    if isinstance(fixed, str):
        pairs = parse_fixed(fixed, n)
    else:
        pairs = sorted((fixed or {}).items())
        _fixed_array(n, dict(pairs))
    given = format_fixed(pairs)
    note = conflict(pairs)
    if note:
        return Count(n, 0, 0, given, "complete", 0, 0, time.perf_counter() - t0, note)
    fixed = dict(pairs)
    label = f"queens n={n}"
    if workers is None and scheduler is None and n <= SMALL_N:
        workers = 1
    run = dict(workers=workers, scheduler=scheduler, checkpoint=checkpoint, progress=progress, label=label)
    if fixed or n < 4:
        from . import complete

        warm_up("complete")
        tasks = complete_tasks(n, fixed)
        params = {"puzzle": "queens", "n": n, "fixed": given, "method": "complete"}
        results = run_tasks(complete_task, tasks, params=params, nodes=lambda r: r[0], **run)
        units = sum(r[2] for r in results)
        if units % complete.CLASS_UNIT:
            raise AssertionError(f"class units {units} are not a multiple of {complete.CLASS_UNIT}")
        return Count(
            n,
            sum(r[1] for r in results),
            units // complete.CLASS_UNIT,
            given,
            "complete",
            sum(r[0] for r in results),
            len(tasks),
            time.perf_counter() - t0,
        )
    kind = warm_up("corner")
    tasks = corner_tasks(n)
    params = {"puzzle": "queens", "n": n, "method": "corner"}
    results = run_tasks(corner_task, tasks, params=params, **run)
    c8 = sum(r[0] for r in results)
    c4 = sum(r[1] for r in results)
    c2 = sum(r[2] for r in results)
    return Count(
        n,
        8 * c8 + 4 * c4 + 2 * c2,
        c8 + c4 + c2,
        "",
        "corner",
        None,
        len(tasks),
        time.perf_counter() - t0,
        kernels=kind,
    )


# --- listing -------------------------------------------------------------------------------------


def solutions(n: int, unique: bool = False, fixed: Mapping[int, int] | None = None) -> Iterator[Board]:
    """All solutions (or one per symmetry class) extending `fixed`, lexicographically, lazily.

    With `unique`, each class is represented by its smallest board among those of its
    boards that extend `fixed`.
    """
    from . import complete

    check_n(n)
    fixed_row = _fixed_array(n, fixed)
    state = np.array([-2], np.int64)
    cols = np.zeros(n, np.int64)
    cand = np.zeros(n + 1, np.int64)
    left = np.zeros(n + 1, np.int64)
    down = np.zeros(n + 1, np.int64)
    right = np.zeros(n + 1, np.int64)
    out = np.zeros((LIST_BATCH, n), np.int64)
    while state[0] != -1:
        got = complete.list_kernel(n, fixed_row, unique, state, cols, cand, left, down, right, out)
        for i in range(got):
            yield tuple(int(c) for c in out[i])
