"""Every search's tasks in several threads of one process, as a Dask worker with
``--nthreads`` runs them: the same results as one after another.

The kernels release the GIL, so two tasks of one worker really run at once: a buffer
shared between calls, or a table two threads build at the same moment, gives wrong
answers here (N-Queens' assembly once summed 15,005,965 for Q(16) this way, with 51 of its
64 tasks wrong). Each driver's task function runs its task list serially, then in
THREADS threads with every task started at once, and the results must be equal, task for
task.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from puzzlesearch.engine.shared import built_once
from puzzlesearch.games import survey
from puzzlesearch.queens import assembly
from puzzlesearch.queens import tasks as queens_tasks
from puzzlesearch.topswops import forward

THREADS = 4


def in_threads(func, tasks, *args):
    """func(task, *args) for every task, THREADS at a time, the first THREADS released together."""
    assert len(tasks) >= THREADS, "too few tasks to run side by side"
    gate = threading.Barrier(THREADS)

    def first(task):
        gate.wait()  # the first THREADS tasks start at the same moment
        return func(task, *args)

    with ThreadPoolExecutor(THREADS) as pool:
        head = [pool.submit(first, t) for t in tasks[:THREADS]]
        rest = [pool.submit(func, t, *args) for t in tasks[THREADS:]]
        return [f.result() for f in head + rest]


def serial(func, tasks, *args):
    return [func(t, *args) for t in tasks]


@pytest.mark.parametrize("kernels", [None, "jit"])  # compiled ahead of time (or JIT), and JIT
def test_queens_assembly_in_threads(kernels):
    assembly.table.cache_clear()  # the threads build the quarter table too, once
    todo = assembly.tasks(14, 64)
    threaded = in_threads(assembly.run_task, todo, kernels)
    assert threaded == serial(assembly.run_task, todo, kernels)
    assert sum(r[0] for r in threaded) == 365_596  # Q(14), OEIS A000170


@pytest.mark.slow
def test_queens_assembly_of_an_odd_board_in_threads():
    todo = assembly.tasks(17, 64)
    threaded = in_threads(assembly.run_task, todo, "jit")  # what a Dask worker's threads run
    assert threaded == serial(assembly.run_task, todo, "jit")
    assert sum(r[0] for r in threaded) == 95_815_104  # Q(17), OEIS A000170


@pytest.mark.parametrize("method, n", [("constellation", 13), ("corner", 12)])
def test_queens_kernels_in_threads(method, n):
    make = {"constellation": queens_tasks.constellation_tasks, "corner": queens_tasks.corner_tasks}[method]
    func = {"constellation": queens_tasks.constellation_task, "corner": queens_tasks.corner_task}[method]
    todo = make(n)
    assert in_threads(func, todo, None) == serial(func, todo, None)


def test_queens_completion_in_threads():
    todo = queens_tasks.complete_tasks(13, {0: 1})
    assert in_threads(queens_tasks.complete_task, todo) == serial(queens_tasks.complete_task, todo)


def test_topswops_forward_in_threads():
    # every deck of at least the target: a result that depends on nothing but the task
    tree = forward.Tree(n=10, bounds=(0, 0, 1, 2, 4, 7, 10, 16, 22, 30), target=31, every=True)
    todo, _ = forward.split_tasks(tree)
    assert in_threads(forward.forward_task, todo, -1) == serial(forward.forward_task, todo, -1)


def test_grundy_survey_in_threads():
    todo = survey.survey_tasks(2, 2000)

    def untimed(rows):
        return [{k: v for k, v in row.items() if k != "seconds"} for row in rows]

    threaded = [untimed(r) for r in in_threads(survey.survey_task, todo, [])]
    assert threaded == [untimed(r) for r in serial(survey.survey_task, todo, [])]
    assert sum(len(r) for r in threaded) > THREADS


def test_a_shared_table_is_built_once_however_many_threads_ask():
    built = []

    @built_once(maxsize=2)
    def table(h):
        built.append(h)
        time.sleep(0.2)  # long enough for every thread to ask while it is being built
        return object()

    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(table, [5] * 8 + [6] * 8))
    assert built == [5, 6] or built == [6, 5]
    assert len({id(g) for g in got[:8]}) == 1 and len({id(g) for g in got[8:]}) == 1
    table(7)  # a third value drops the least recently used
    table(5)
    assert built[2:] == [7, 5]


def test_a_failed_build_is_tried_again():
    calls = []

    @built_once(maxsize=1)
    def flaky(x):
        calls.append(x)
        if len(calls) == 1:
            raise OSError("no room")
        return x * 2

    with pytest.raises(OSError):
        flaky(3)
    assert flaky(3) == 6 and calls == [3, 3]
