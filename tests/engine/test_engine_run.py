"""run_tasks gives the same answer in-process, on local workers and on a real Dask cluster."""

from __future__ import annotations

import io
import itertools
import sys
import time

import pytest

from puzzlesearch.engine import run as engine_run
from puzzlesearch.engine._selftest import combine, derangement_tasks, derangements, nodes, raise_target
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.progress import Display, Progress
from puzzlesearch.engine.run import run_tasks
from puzzlesearch.engine.store import Checkpoint
from puzzlesearch.engine.tasks import split


def brute_force(n: int) -> tuple[int, int, list[list[int]]]:
    """The self-test search's answer from itertools: (count, largest displacement, its derangements)."""
    ds = [list(p) for p in itertools.permutations(range(n)) if all(p[i] != i for i in range(n))]
    score = [sum(abs(p[i] - i) for i in range(n)) for p in ds]
    best = max(score)
    return len(ds), best, sorted(p for p, s in zip(ds, score, strict=True) if s == best)


def subfactorial(n: int) -> int:
    a, b = 1, 0  # D(0), D(1)
    for k in range(2, n + 1):
        a, b = b, (k - 1) * (a + b)
    return b if n else a


@pytest.mark.parametrize("n", [2, 3, 5, 7])
@pytest.mark.parametrize("at_least", [1, 10, 100])
def test_selftest_search_is_right(n, at_least):
    # the toy search the engine tests rely on, checked against itertools and D(n)
    results = [derangements(t, None) for t in derangement_tasks(n, at_least)]
    assert combine(results) == brute_force(n)
    assert combine(results)[0] == subfactorial(n)


def test_split_expands_whole_levels_in_depth_first_order():
    def children(p):
        return [p + c for c in "ab"] if len(p) < 3 else []

    assert split("", children, 1) == [""]
    assert split("", children, 2) == ["a", "b"]
    assert split("", children, 3) == ["aa", "ab", "ba", "bb"]
    assert split("", children, 100) == ["aaa", "aab", "aba", "abb", "baa", "bab", "bba", "bbb"]


def test_split_keeps_leaves_and_stops_when_nothing_grows():
    def children(p):
        return [] if p in ("b", "ab") or len(p) == 2 else [p + "a", p + "b"]

    assert split("", children, 5) == ["aa", "ab", "b"]


N = 8  # 227 tasks, 14833 derangements
ONE = RunOptions(workers=1)


def at(checkpoint, workers: int = 1) -> RunOptions:
    """Run options: `workers` local workers, checkpointing to `checkpoint`."""
    return RunOptions(workers=workers, checkpoint=str(checkpoint))


def on_dask(scheduler: str, checkpoint) -> RunOptions:
    return RunOptions(scheduler=scheduler, checkpoint=str(checkpoint))


@pytest.fixture(scope="module")
def tasks():
    return derangement_tasks(N, 200)


@pytest.fixture(scope="module")
def serial(tasks):
    return run_tasks(derangements, tasks, update=raise_target, options=ONE)


def test_serial_run_is_right(tasks, serial):
    assert len(tasks) >= 200
    assert combine(serial) == brute_force(N)


def test_two_workers_equal_one(tasks, serial):
    two = run_tasks(derangements, tasks, update=raise_target, options=RunOptions(workers=2))
    assert combine(two) == combine(serial)
    # what does not depend on the shared bound is identical task by task
    assert [(r["count"], r["nodes"]) for r in two] == [(r["count"], r["nodes"]) for r in serial]


def test_without_update_every_result_is_identical(tasks):
    one = run_tasks(derangements, tasks, options=ONE)
    assert run_tasks(derangements, tasks, options=RunOptions(workers=2)) == one
    assert run_tasks(derangements, tasks, options=RunOptions(workers=3)) == one


def test_tasks_started_later_see_the_results_so_far(tasks):
    # with one worker every task after the first starts with the best found so far
    seen = []

    def watch(task, shared):
        seen.append(shared)
        return derangements(task, shared)

    run_tasks(watch, tasks, update=raise_target, options=ONE)
    assert seen[0] is None
    assert seen == sorted(seen, key=lambda s: -1 if s is None else s)
    assert seen[-1] == brute_force(N)[1]


def test_results_are_json_values(tasks):
    results = run_tasks(lambda task, shared: (task["prefix"], {1: "x"}), tasks[:3], options=ONE)
    assert results[0] == [tasks[0]["prefix"], {"1": "x"}]


def test_numpy_values_are_refused_with_advice(tasks):
    np = pytest.importorskip("numpy")
    with pytest.raises(TypeError, match=r"result of task 0 is not JSON-serialisable.*tolist"):
        run_tasks(lambda task, shared: np.int64(3), tasks[:2], options=ONE)
    with pytest.raises(TypeError, match="task list is not JSON-serialisable"):
        run_tasks(derangements, [np.arange(3)], options=ONE)


def test_a_failing_task_raises_in_the_caller(tasks):
    bad = [*tasks[:5], {**tasks[5], "fail": True}, *tasks[6:]]
    with pytest.raises(RuntimeError, match="failed on purpose"):
        run_tasks(derangements, bad, options=RunOptions(workers=2))
    with pytest.raises(RuntimeError, match="failed on purpose"):
        run_tasks(derangements, bad, options=ONE)


def test_worker_processes_need_a_module_level_function(tasks):
    with pytest.raises(TypeError, match="module-level function"):
        run_tasks(lambda task, shared: 0, tasks, options=RunOptions(workers=2))


def test_workers_must_be_positive(tasks):
    with pytest.raises(ValueError, match="at least 1"):
        run_tasks(derangements, tasks, options=RunOptions(workers=0))


def test_no_tasks_no_results():
    assert run_tasks(derangements, [], options=RunOptions(workers=2)) == []


def test_scheduler_without_dask_says_how_to_install(tasks, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    with pytest.raises(ImportError, match=r"the \[cluster\] extra: pip install .distributed."):
        run_tasks(derangements, tasks, options=RunOptions(scheduler="tcp://127.0.0.1:8786"))


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:1", "nonsense", "tcp://127.0.0.1"])
def test_unreachable_or_bad_scheduler_is_refused_quickly(tasks, address):
    t0 = time.monotonic()
    with pytest.raises(ValueError, match="scheduler"):
        run_tasks(derangements, tasks, options=RunOptions(scheduler=address))
    assert time.monotonic() - t0 < 5


@pytest.mark.slow
def test_dask_cluster_equals_one_worker(tasks, serial, dask_cluster):
    on_dask = run_tasks(derangements, tasks, update=raise_target, options=RunOptions(scheduler=dask_cluster))
    assert combine(on_dask) == combine(serial)
    assert [(r["count"], r["nodes"]) for r in on_dask] == [(r["count"], r["nodes"]) for r in serial]


@pytest.mark.slow
def test_dask_resumes_a_checkpoint_made_by_local_workers(tmp_path, tasks, serial, dask_cluster):
    ck = tmp_path / "run.ckpt"
    bad = [*tasks[:-1], {**tasks[-1], "fail": True}]  # same length, so another task list
    with pytest.raises(RuntimeError):
        run_tasks(derangements, bad, update=raise_target, options=at(ck))
    with pytest.raises(ValueError, match="other subproblems"):
        run_tasks(derangements, tasks, update=raise_target, options=on_dask(dask_cluster, ck))
    ck.unlink()
    calls = []

    def stop_halfway(task, shared):
        if len(calls) == len(tasks) // 2:
            raise KeyboardInterrupt
        calls.append(task)
        return derangements(task, shared)

    with pytest.raises(KeyboardInterrupt):
        run_tasks(stop_halfway, tasks, update=raise_target, options=at(ck))
    with Checkpoint(ck, None, tasks) as half:
        kept = half.done()
    assert sorted(kept) == list(range(len(tasks) // 2))
    resumed = run_tasks(derangements, tasks, update=raise_target, options=on_dask(dask_cluster, ck))
    assert combine(resumed) == combine(serial)
    assert all(resumed[i] == kept[i] for i in kept)


@pytest.mark.slow
def test_dask_failing_task_raises_in_the_caller(tasks, dask_cluster):
    bad = [{**tasks[0], "fail": True}, *tasks[1:20]]
    with pytest.raises(RuntimeError, match="failed on purpose"):
        run_tasks(derangements, bad, options=RunOptions(scheduler=dask_cluster))


@pytest.mark.slow
def test_local_workers_still_run_after_a_dask_client(tasks, serial, dask_cluster):
    # the dask client left threads behind: the pool must not fork under them
    assert engine_run._start_method() != "fork"
    two = run_tasks(derangements, tasks[:30], options=RunOptions(workers=2))
    assert two == run_tasks(derangements, tasks[:30], options=ONE)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_tasks_nodes_best_only_on_a_terminal(tasks, monkeypatch):
    monkeypatch.setenv("COLUMNS", "150")
    quiet = _Terminal()
    monkeypatch.setattr(sys, "stderr", quiet)
    run_tasks(derangements, tasks[:20], options=ONE.but(progress=False))
    assert quiet.getvalue() == ""

    shown = _Terminal()
    monkeypatch.setattr(sys, "stderr", shown)
    run_tasks(
        derangements, tasks[:20], update=raise_target, options=ONE.but(progress=True),
        display=Display(label="derangements", nodes=nodes, best=lambda s: f"best displacement {s}"),
    )
    text = shown.getvalue()
    assert "derangements" in text and "20/20" in text
    assert "nodes/s" in text and "best displacement" in text

    pipe = io.StringIO()
    monkeypatch.setattr(sys, "stderr", pipe)
    run_tasks(derangements, tasks[:20], options=ONE.but(progress=True), display=Display(nodes=nodes))
    assert pipe.getvalue() == ""


def test_progress_time_left_counts_only_this_runs_tasks(monkeypatch):
    clock = iter([100.0, 110.0, 110.0])
    monkeypatch.setattr("puzzlesearch.engine.progress.monotonic", lambda: next(clock))
    # 10 tasks, 4 restored from a checkpoint
    bar = Progress(Display(), list(range(10)), [True] * 4 + [False] * 6, enabled=False)
    bar.advance(4, nodes=5_000_000)  # 1 task in 10 s -> 5 left take 50 s
    assert bar._stats() == "500.0k nodes/s  about 0:00:50 left"
