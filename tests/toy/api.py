"""The toy puzzle's public API: every limit is checked here, in the words the CLI prints.

>>> steps(27)
111
>>> longest(30)
Longest(n=30, start=27, steps=111)
>>> longest(0)
Traceback (most recent call last):
...
ValueError: n must be between 1 and 1,000,000, got 0
"""

from __future__ import annotations

from dataclasses import dataclass

from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.progress import Display
from puzzlesearch.engine.run import run_tasks
from puzzlesearch.engine.store import ResultsStore, saving

from . import rules

MAX_N = 1_000_000
#: numbers per task
CHUNK = 1000


@dataclass(frozen=True)
class Longest:
    """The longest chain starting at 1..n: its start and its steps."""

    n: int
    start: int
    steps: int


def _whole(value: object, name: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"{name} must be between {lo:,} and {hi:,}, got {value}")
    return value


def steps(k: int) -> int:
    """Steps from k to 1."""
    return rules.steps(_whole(k, "k", 1, 10**18))


def chunk(task: list[int], shared: object) -> list[int]:
    """One task: the longest chain starting in [lo, hi)."""
    return list(rules.longest_in(task[0], task[1]))


def longest(n: int, *, run: RunOptions = RunOptions()) -> Longest:  # noqa: B008 (frozen)
    """The longest chain starting at 1..n, split into tasks of CHUNK numbers run by the
    engine (workers, checkpoint as ``run`` says); saved in the results store afterwards
    (``engine.store.NotSaved`` carries the answer if that fails)."""
    _whole(n, "n", 1, MAX_N)
    run.check_paths(store=True)
    tasks = [[lo, min(lo + CHUNK, n + 1)] for lo in range(1, n + 1, CHUNK)]
    quick = n <= 10 * CHUNK
    options = run.but(workers=run.workers_for(quick))
    results = run_tasks(chunk, tasks, params={"puzzle": "toy", "n": n}, options=options,
                        display=Display(label=f"toy n={n}", unit="numbers", weight=lambda t: t[1] - t[0]))
    best_steps, start = max(results, key=lambda r: (r[0], -r[1]))
    answer = Longest(n, start, best_steps)
    with saving(answer, f"the longest chain up to {n} (from {start}, {best_steps} steps)"):
        with ResultsStore(run.store) as store:
            store.put("toy", f"longest({n})", [start, best_steps], "split search")
    return answer
