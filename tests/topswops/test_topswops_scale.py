"""The forward search split into subproblems: in-process, on 2 local workers and on a real
Dask cluster, the answer and the optimal decks are those of the serial search; a run
stopped (an error, or SIGKILL) resumes from its checkpoint to the same answer, running
only the tasks it had not finished."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from conftest import run_cli
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.topswops import forward
from puzzlesearch.topswops.forward import Tree

N = 11


def knuth(n, run):
    return forward.search(Tree.plain(n, forward.own_bounds(n)), run)


class Stop(Exception):
    pass


@pytest.fixture
def counted(monkeypatch):
    """count(stop_after=None): from then on, forward_task counts the tasks it runs (a list
    of them) and fails with Stop after `stop_after` of them. In this process only: a
    search on one worker."""
    real = forward.forward_task

    def count(stop_after=None):
        calls = []

        def task(t, best):
            if stop_after is not None and len(calls) == stop_after:
                raise Stop
            calls.append(t)
            return real(t, best)

        monkeypatch.setattr(forward, "forward_task", task)
        return calls

    return count


@pytest.fixture(scope="module")
def serial():
    return knuth(N, RunOptions(workers=1))


def test_one_worker_with_subproblems_equals_the_serial_search(serial, tmp_path):
    r = knuth(N, RunOptions(workers=1, checkpoint=str(tmp_path / "c")))
    assert r.subproblems >= 100
    assert (r.steps, r.decks) == (serial.steps, serial.decks)


def test_two_workers_equal_the_serial_search(serial):
    r = knuth(N, RunOptions(workers=2))
    assert (r.steps, r.decks) == (serial.steps, serial.decks)


@pytest.mark.slow
def test_a_dask_cluster_equals_the_serial_search(serial, dask_cluster):
    r = run_cli("topswops", "solve", "-n", N, "--mode", "forward", "--scheduler", dask_cluster, "--json")
    assert r.code == 0, r.err
    j = r.json()
    assert (j["forward"], j["decks"]) == (serial.steps, [list(d) for d in serial.decks])


def _done(path) -> int:
    try:
        with sqlite3.connect(path, timeout=5) as db:
            return db.execute("select count(*) from done").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_an_interrupted_run_resumes_with_only_the_tasks_it_had_not_finished(serial, tmp_path, counted):
    ck = tmp_path / "c"
    run = RunOptions(workers=1, checkpoint=str(ck))
    counted(stop_after=30)
    with pytest.raises(Stop):
        knuth(N, run)
    assert _done(ck) == 30
    calls = counted()
    r = knuth(N, run)
    assert len(calls) == r.subproblems - 30 and 0 < len(calls) < r.subproblems
    assert (r.steps, r.decks) == (serial.steps, serial.decks)


@pytest.mark.slow
def test_a_killed_run_resumes_from_its_checkpoint_to_the_same_answer(tmp_path, counted):
    n = 13
    uninterrupted = knuth(n, RunOptions(workers=1))
    ck = tmp_path / "f13.ckpt"
    argv = [sys.executable, "-m", "puzzlesearch", "topswops", "solve", "-n", str(n), "--mode", "forward",
            "--workers", "1", "--checkpoint", str(ck), "--json"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=os.environ.copy())
    deadline = time.monotonic() + 120
    while _done(ck) < 5 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert proc.poll() is None, "the run ended before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    kept = _done(ck)
    calls = counted()
    r = run_cli("topswops", "solve", "-n", n, "--mode", "forward", "--workers", "1",
                "--checkpoint", ck, "--json")
    assert r.code == 0, r.err
    j = json.loads(r.out)
    tasks = _done(ck)
    assert 5 <= kept and len(calls) == tasks - kept and 0 < len(calls) < tasks
    assert (j["forward"], j["decks"]) == (uninterrupted.steps, [list(d) for d in uninterrupted.decks])


@pytest.mark.slow
def test_a_checkpoint_made_with_two_workers_finishes_with_one(serial, tmp_path, counted):
    ck = tmp_path / "c"
    first = knuth(N, RunOptions(workers=2, checkpoint=str(ck)))
    calls = counted()
    again = knuth(N, RunOptions(workers=1, checkpoint=str(ck)))
    assert calls == []  # every task read back
    assert (first.steps, first.decks) == (again.steps, again.decks) == (serial.steps, serial.decks)
