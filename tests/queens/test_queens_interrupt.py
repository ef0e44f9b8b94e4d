"""Ctrl-C and SIGTERM during a count: one line, exit 130, and a checkpoint that resumes to the right count.

The counts run as real processes (a signal to this test process would stop the tests).
With --workers 1 the kernels run in the process that receives the signal (through
engine.interrupt); with --workers 2 in a pool that the process stops.
"""

import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from conftest import ANNOUNCING, KERNEL_RUNNING, load_data
from puzzlesearch.queens import tasks

DATA = load_data("queens")
TOTAL = {int(k): v for k, v in DATA["all_solutions"]["values"].items()}
UNIQUE = {int(k): v for k, v in DATA["unique_solutions"]["values"].items()}
N = 16  # about 1.5 s of one core: time to be interrupted, short to resume
TASKS = len(tasks.constellation_tasks(N))  # the default method's


def _count(*args):
    env = {k: v for k, v in os.environ.items() if k != "PUZZLESEARCH_KERNELS"}
    cmd = [sys.executable, "-m", "puzzlesearch", "queens", "count", "-n", str(N), *args]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _finished(path) -> int:
    """Tasks recorded in the checkpoint so far (0 while it does not exist yet)."""
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as db:
            return db.execute("select count(*) from done").fetchone()[0]
    except sqlite3.OperationalError:  # the run has not created its tables yet
        return 0


@pytest.mark.slow
@pytest.mark.parametrize(("workers", "signum"), [
    ("1", signal.SIGINT), ("2", signal.SIGINT), ("1", signal.SIGTERM),
], ids=["one-worker-sigint", "two-workers-sigint", "one-worker-sigterm"])
def test_an_interrupted_count_exits_130_and_resumes_to_the_right_count(tmp_path, workers, signum):
    path = tmp_path / "q.ckpt"
    run = _count("--workers", workers, "--checkpoint", str(path))
    deadline = time.monotonic() + 120
    while _finished(path) < 3 and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert run.poll() is None, "the count ended before it could be interrupted"
    sent = time.monotonic()
    run.send_signal(signum)
    out, err = run.communicate(timeout=60)
    latency = time.monotonic() - sent
    assert (run.returncode, out) == (130, "")
    assert err.splitlines() == [
        f"puzzlesearch: interrupted; run the same command again with --checkpoint {path} to resume"
    ]
    assert latency < 2, latency
    kept = _finished(path)
    assert 3 <= kept < TASKS
    resumed = _count("--workers", "2", "--checkpoint", str(path), "-v")
    out, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, err
    assert out.splitlines()[0] == f"n={N}  solutions={TOTAL[N]}  unique={UNIQUE[N]}"
    assert _finished(path) == TASKS




@pytest.mark.slow
def test_ctrl_c_in_a_listing_is_one_line():
    # the first board of n = 34 takes tens of seconds: the listing kernel is interrupted in it
    # (--unique: without it, show past n = 31 shows the constructed board, found at once)
    env = {k: v for k, v in os.environ.items() if k != "PUZZLESEARCH_KERNELS"}
    run = subprocess.Popen([sys.executable, "-c", ANNOUNCING, "queens", "show", "-n", "34", "--unique"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        first = run.stderr.readline()
        assert first == KERNEL_RUNNING, (first, run.poll())
        sent = time.monotonic()
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=60)
    finally:
        run.kill()
    assert (run.returncode, out, err) == (130, "", "puzzlesearch: interrupted\n")
    assert time.monotonic() - sent < 5
