"""The forward search split into subproblems: in-process, on 2 local workers and on a real
Dask cluster, the answer and the optimal decks are those of the serial search; a run
killed with SIGKILL resumes from its checkpoint to the same answer."""

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

N = 11


@pytest.fixture(scope="module")
def serial():
    return forward.solve_forward(N)


def test_one_worker_with_subproblems_equals_the_serial_search(serial, tmp_path):
    r = forward.solve_forward(N, run=RunOptions(workers=1, checkpoint=str(tmp_path / "c")))
    assert r.subproblems >= 100
    assert (r.steps, r.decks) == (serial.steps, serial.decks)


def test_two_workers_equal_the_serial_search(serial):
    r = forward.solve_forward(N, run=RunOptions(workers=2))
    assert (r.steps, r.decks) == (serial.steps, serial.decks)


def test_a_dask_cluster_equals_the_serial_search(serial):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=":0", host="127.0.0.1") as cluster:
        r = run_cli("topswops", "solve", "-n", N, "--mode", "forward", "--scheduler",
                    cluster.scheduler_address, "--json")
    assert r.code == 0, r.err
    j = r.json()
    assert (j["forward"], j["decks"]) == (serial.steps, [list(d) for d in serial.decks])


def _done(path) -> int:
    try:
        with sqlite3.connect(path, timeout=5) as db:
            return db.execute("select count(*) from done").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_a_killed_run_resumes_from_its_checkpoint_to_the_same_answer(tmp_path):
    n = 13
    uninterrupted = forward.solve_forward(n, run=RunOptions(workers=1))
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
    r = run_cli("topswops", "solve", "-n", n, "--mode", "forward", "--workers", "1",
                "--checkpoint", ck, "--json")
    assert r.code == 0, r.err
    j = json.loads(r.out)
    assert 5 <= kept < _done(ck)
    assert (j["forward"], j["decks"]) == (uninterrupted.steps, [list(d) for d in uninterrupted.decks])


def test_a_checkpoint_made_with_two_workers_finishes_with_one(serial, tmp_path):
    ck = tmp_path / "c"
    first = forward.solve_forward(N, run=RunOptions(workers=2, checkpoint=str(ck)))
    again = forward.solve_forward(N, run=RunOptions(workers=1, checkpoint=str(ck)))  # every task read back
    assert (first.steps, first.decks) == (again.steps, again.decks) == (serial.steps, serial.decks)
