"""Checkpoints: resume after an error, a SIGKILL or Ctrl-C; refuse files that are not ours."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from puzzlesearch.engine._selftest import combine, derangement_tasks, derangements, raise_target
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.run import run_tasks
from puzzlesearch.engine.store import Checkpoint, ResultsStore

N, AT_LEAST = 7, 100  # 134 tasks
PARAMS = {"puzzle": "selftest", "n": N}
ONE = RunOptions(workers=1)


def at(checkpoint: Path, workers: int = 1) -> RunOptions:
    """Run options: `workers` local workers, checkpointing to `checkpoint`."""
    return RunOptions(workers=workers, checkpoint=str(checkpoint))


@pytest.fixture(scope="module")
def tasks():
    return derangement_tasks(N, AT_LEAST)


@pytest.fixture(scope="module")
def uninterrupted(tasks):
    return run_tasks(derangements, tasks, update=raise_target, options=ONE)


class Stop(Exception):
    pass


def counting(stop_after: int | None = None):
    """derangements, counting its calls and failing after `stop_after` of them."""
    calls = []

    def func(task, shared):
        if stop_after is not None and len(calls) == stop_after:
            raise Stop
        calls.append(task)
        return derangements(task, shared)

    return func, calls


def done_count(path: Path) -> int:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as db:
            return db.execute("select count(*) from done").fetchone()[0]
    except sqlite3.Error:  # not created yet
        return 0


def same_answer(results, uninterrupted):
    assert combine(results) == combine(uninterrupted)
    # what does not depend on the shared bound must be identical task by task
    assert [(r["count"], r["nodes"]) for r in results] == [(r["count"], r["nodes"]) for r in uninterrupted]


def test_resume_runs_only_the_unfinished_tasks(tmp_path, tasks, uninterrupted):
    ck = tmp_path / "run.ckpt"
    first, calls = counting(stop_after=len(tasks) // 2)
    with pytest.raises(Stop):
        run_tasks(first, tasks, update=raise_target, params=PARAMS, options=at(ck))
    assert done_count(ck) == len(calls) == len(tasks) // 2

    second, calls = counting()
    resumed = run_tasks(second, tasks, update=raise_target, params=PARAMS, options=at(ck))
    assert calls == tasks[len(tasks) // 2 :]
    same_answer(resumed, uninterrupted)

    # a finished checkpoint answers without running anything, and returns the same results
    third, calls = counting()
    assert run_tasks(third, tasks, update=raise_target, params=PARAMS, options=at(ck)) == resumed
    assert calls == []


def test_restored_results_raise_the_shared_bound_first(tmp_path, tasks):
    ck = tmp_path / "run.ckpt"
    first, _ = counting(stop_after=len(tasks) // 2)
    with pytest.raises(Stop):
        run_tasks(first, tasks, update=raise_target, params=PARAMS, options=at(ck))
    restored = Checkpoint(ck, PARAMS, tasks).done()
    bound = None
    for r in restored.values():
        bound = raise_target(bound, r)
    seen = []

    def watch(task, shared):
        seen.append(shared)
        return derangements(task, shared)

    run_tasks(watch, tasks, update=raise_target, params=PARAMS, options=at(ck))
    assert bound is not None and seen[0] == bound


def test_resume_with_another_number_of_workers(tmp_path, tasks, uninterrupted):
    ck = tmp_path / "run.ckpt"
    first, _ = counting(stop_after=40)
    with pytest.raises(Stop):
        run_tasks(first, tasks, update=raise_target, params=PARAMS, options=at(ck))
    resumed = run_tasks(derangements, tasks, update=raise_target, params=PARAMS, options=at(ck, workers=2))
    same_answer(resumed, uninterrupted)


def _start(ck: Path, workers: int, sleep: float) -> subprocess.Popen:
    code = textwrap.dedent(f"""
        from puzzlesearch.engine._selftest import derangement_tasks, derangements, raise_target
        from puzzlesearch.engine.options import RunOptions
        from puzzlesearch.engine.run import run_tasks
        run_tasks(derangements, derangement_tasks({N}, {AT_LEAST}), update=raise_target,
                  params={PARAMS!r}, options=RunOptions(workers={workers}, checkpoint={str(ck)!r}))
        print("finished")
    """)
    env = {**os.environ, "PUZZLESEARCH_SELFTEST_SLEEP": str(sleep)}
    return subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _wait_for(ck: Path, count: int, proc: subprocess.Popen, timeout: float = 60) -> int:
    deadline = time.monotonic() + timeout
    while (n := done_count(ck)) < count:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, f"only {n} tasks done"
        time.sleep(0.05)
    return n


def _children(pid: int) -> list[int]:
    kids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                kids.append(int(entry.name))
    return kids


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _all_gone(pids: list[int], timeout: float = 10) -> bool:
    deadline = time.monotonic() + timeout
    while any(_alive(p) for p in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_sigkill_loses_at_most_the_tasks_in_flight(tmp_path, tasks, uninterrupted):
    ck = tmp_path / "run.ckpt"
    proc = _start(ck, workers=2, sleep=0.02)
    seen = _wait_for(ck, 25, proc)
    workers = _children(proc.pid)
    proc.kill()
    proc.wait()
    # before reading its output: orphaned workers would hold the pipe open
    assert workers and _all_gone(workers), "worker processes outlived their killed parent"
    assert "finished" not in proc.stdout.read()

    kept = done_count(ck)
    assert seen <= kept < len(tasks)
    second, calls = counting()
    resumed = run_tasks(second, tasks, update=raise_target, params=PARAMS, options=at(ck))
    assert len(calls) == len(tasks) - kept
    same_answer(resumed, uninterrupted)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_stops_workers_at_once_keeps_the_checkpoint_and_resumes(tmp_path, tasks, uninterrupted):
    ck = tmp_path / "run.ckpt"
    first, _ = counting(stop_after=40)
    with pytest.raises(Stop):
        run_tasks(first, tasks, update=raise_target, params=PARAMS, options=at(ck))
    # the rest in a child whose tasks each sleep a minute: interrupted while two of them sleep
    proc = _start(ck, workers=2, sleep=60.0)
    try:
        sleeping = [proc.stderr.readline() for _ in range(2)]
        assert all(line.startswith("task ") for line in sleeping), f"expected two sleeping tasks: {sleeping}"
        workers = _children(proc.pid)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        assert time.monotonic() - t0 < 20, "the run waited for its tasks instead of stopping them"
    finally:
        proc.kill()
    assert "KeyboardInterrupt" in err and "finished" not in out
    assert _all_gone(workers)
    # the finished tasks are in the file itself, none left in its write-ahead log: a copy of
    # the file alone, as a user makes after Ctrl-C, resumes them all
    wal = ck.with_name(ck.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0

    with Checkpoint(ck, PARAMS, tasks) as kept:
        done = kept.done()
    assert sorted(done) == list(range(40))
    for i, result in done.items():
        assert (result["count"], result["nodes"]) == (uninterrupted[i]["count"], uninterrupted[i]["nodes"])
    second, calls = counting()
    resumed = run_tasks(second, tasks, update=raise_target, params=PARAMS, options=at(ck))
    assert calls == tasks[40:]
    same_answer(resumed, uninterrupted)


def test_other_parameters_are_refused(tmp_path, tasks):
    ck = tmp_path / "run.ckpt"
    run_tasks(derangements, tasks[:5], params=PARAMS, options=at(ck))
    with pytest.raises(ValueError, match=r"run\.ckpt was made for other parameters: .*\"n\":7"):
        run_tasks(derangements, tasks[:5], params={**PARAMS, "n": 8}, options=at(ck))
    with pytest.raises(ValueError, match="was made for other parameters.*other subproblems"):
        run_tasks(derangements, tasks[:6], params=PARAMS, options=at(ck))
    # the refused runs left the file as it was
    assert done_count(ck) == 5


def test_params_compare_as_json(tmp_path, tasks):
    # a tuple and a list, keys in another order: the same parameters as JSON, so the second
    # run resumes the first one's checkpoint (and, all tasks done there, computes nothing)
    ck = tmp_path / "run.ckpt"
    first = run_tasks(derangements, tasks[:3], params={"a": (1, 2), "b": 3}, options=at(ck))
    again, calls = counting()
    assert run_tasks(again, tasks[:3], params={"b": 3, "a": [1, 2]}, options=at(ck)) == first
    assert calls == []
    # while other values are other parameters
    with pytest.raises(ValueError, match="made for other parameters"):
        run_tasks(derangements, tasks[:3], params={"a": [2, 1], "b": 3}, options=at(ck))
    with pytest.raises(ValueError, match="made for other parameters"):
        run_tasks(derangements, tasks[:3], params={"a": [1, 2], "b": 3.5}, options=at(ck))


def test_a_garbage_file_is_refused_and_left_alone(tmp_path, tasks):
    ck = tmp_path / "notes.txt"
    ck.write_text("my precious notes\n" * 100)
    with pytest.raises(ValueError, match=r"notes\.txt is not a puzzlesearch checkpoint"):
        run_tasks(derangements, tasks, params=PARAMS, options=at(ck))
    assert ck.read_text() == "my precious notes\n" * 100


def test_another_sqlite_database_is_refused(tmp_path, tasks):
    ck = tmp_path / "other.sqlite"
    with sqlite3.connect(ck) as db:
        db.execute("create table meta (key text, value text)")
        db.execute("create table done (x)")
    with pytest.raises(ValueError, match="is not a puzzlesearch checkpoint.*without its marker"):
        run_tasks(derangements, tasks, params=PARAMS, options=at(ck))


def test_a_results_store_is_not_a_checkpoint(tmp_path, tasks):
    store = tmp_path / "results.sqlite"
    with ResultsStore(store) as s:
        s.put("topswops", "f(5)", 7, "test")
    with pytest.raises(ValueError, match="not a puzzlesearch checkpoint"):
        run_tasks(derangements, tasks, params=PARAMS, options=at(store))


def test_a_damaged_checkpoint_is_refused(tmp_path, tasks):
    ck = tmp_path / "run.ckpt"
    run_tasks(derangements, tasks, params=PARAMS, options=at(ck))
    data = bytearray(ck.read_bytes())
    page = 4096
    assert len(data) >= 4 * page
    for start in range(page, len(data), page):  # break every b-tree page header after the first
        data[start : start + 8] = b"\xff" * 8
    ck.write_bytes(data)
    with pytest.raises(ValueError, match=r"run\.ckpt is damaged .*delete it"):
        run_tasks(derangements, tasks, params=PARAMS, options=at(ck))


def test_a_truncated_checkpoint_is_refused(tmp_path, tasks):
    ck = tmp_path / "run.ckpt"
    run_tasks(derangements, tasks, params=PARAMS, options=at(ck))
    data = ck.read_bytes()
    ck.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="is damaged"):
        run_tasks(derangements, tasks, params=PARAMS, options=at(ck))


def test_an_empty_file_starts_a_new_checkpoint(tmp_path, tasks, uninterrupted):
    # what a run killed while creating its checkpoint may leave behind
    ck = tmp_path / "run.ckpt"
    ck.write_bytes(b"")
    same_answer(run_tasks(derangements, tasks, update=raise_target, params=PARAMS, options=at(ck)),
                uninterrupted)
    assert done_count(ck) == len(tasks)


def test_results_store_keeps_values(tmp_path):
    with ResultsStore(tmp_path / "r.sqlite") as s:
        assert s.get("topswops", "f(5)") is None
        s.put("topswops", "f(5)", {"steps": 7}, "test", 0.1)
    with ResultsStore(tmp_path / "r.sqlite") as s:
        assert s.get("topswops", "f(5)") == {"steps": 7}


def pragmas(db: sqlite3.Connection) -> tuple[str, int]:
    return db.execute("pragma journal_mode").fetchone()[0], db.execute("pragma synchronous").fetchone()[0]


@pytest.fixture
def lax_sqlite(monkeypatch):
    """Connections that start with synchronous=NORMAL, as in SQLite builds whose WAL default
    it is (DEFAULT_WAL_SYNCHRONOUS=1); this one's is FULL."""
    connect = sqlite3.connect

    def lax(*args, **kwargs):
        db = connect(*args, **kwargs)
        db.execute("pragma synchronous=normal")
        return db

    monkeypatch.setattr(sqlite3, "connect", lax)


def test_a_committed_task_survives_a_power_cut(tmp_path, tasks, lax_sqlite):
    # WAL mode with synchronous=FULL (2): each commit flushes the WAL to the disk; with
    # NORMAL (1) a power cut could lose the last commits
    ck = tmp_path / "run.ckpt"
    for _new_then_existing in range(2):
        with Checkpoint(ck, PARAMS, tasks) as c:
            assert pragmas(c._db) == ("wal", 2)
            c.record(0, tasks[0], {"count": 1})


def test_a_stored_value_survives_a_power_cut(tmp_path, lax_sqlite):
    store = tmp_path / "r.sqlite"
    for _new_then_existing in range(2):
        with ResultsStore(store) as s:
            s.put("topswops", "f(5)", {"steps": 7}, "test")
            assert pragmas(s._db) == ("wal", 2)
