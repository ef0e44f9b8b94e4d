"""Ctrl-C (SIGINT) and SIGTERM while a search runs (issue 12): exit 130 within 2 s, one
line on stderr (with resume advice where a checkpoint exists), no crash, and a checkpoint
that resumes to the right answer. Each command runs in its own process, as a user's would;
the signal is sent once its kernel is running (a second thread in the process: the
kernels run in one, engine.interrupt)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import load_data, run_cli
from puzzlesearch.topswops import bounds, rules

DATA = load_data("topswops")
F = {int(k): v for k, v in DATA["max_steps"]["values"].items()}
COUNTS = {int(k): v for k, v in DATA["optimal_deck_count"]["values"].items()}

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc to see threads")


@pytest.fixture(scope="module", autouse=True)
def _bounds_in_the_store():
    bounds.own_bounds(13)  # f(1..12) in the session's store, so the commands start their search at once


def _threads(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return 0


def _done(path: Path) -> int:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as db:
            return db.execute("select count(*) from done").fetchone()[0]
    except sqlite3.Error:
        return 0


def _interrupt(args: list[str], sig: int = signal.SIGINT, ready=None, settle: float = 0.5):
    """Start `puzzlesearch ARGS`, wait until ready(pid) (default: a kernel thread runs)
    and `settle` seconds more, send `sig`; return (exit status, stdout, stderr, seconds
    from the signal to the exit)."""
    ready = ready or (lambda pid: _threads(pid) >= 2)
    # numpy's BLAS would start threads of its own at import: one thread, so that a second is the kernel's
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "puzzlesearch", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 60
    while not ready(proc.pid) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(settle)
    assert proc.poll() is None, f"the command ended before the signal: {proc.communicate()}"
    sent = time.monotonic()
    proc.send_signal(sig)
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    return proc.returncode, out, err, time.monotonic() - sent


def _one_clean_line(code: int, out: str, err: str, seconds: float, line: str) -> None:
    assert code == 130, (code, err[-2000:])
    assert seconds < 2.0
    assert (out, err) == ("", line + "\n")


def test_ctrl_c_ends_the_backward_search_at_once_without_a_crash():
    # issue 12, item 1: the keypress was ignored until the search ended, then a segfault
    _one_clean_line(*_interrupt(["topswops", "solve", "-n", "13", "--mode", "backward"]),
                    "puzzlesearch: interrupted")


def test_sigterm_ends_the_default_search_like_ctrl_c():
    _one_clean_line(*_interrupt(["topswops", "solve", "-n", "13"], signal.SIGTERM),
                    "puzzlesearch: interrupted; give --checkpoint FILE to make a long run resumable")


def test_ctrl_c_ends_the_forward_search_in_one_call():
    _one_clean_line(*_interrupt(["topswops", "solve", "-n", "13", "--mode", "forward", "--workers", "1"]),
                    "puzzlesearch: interrupted; give --checkpoint FILE to make a long run resumable")


def test_ctrl_c_with_one_worker_and_a_checkpoint_resumes_to_the_answer(tmp_path):
    # issue 12, item 2: a SystemError traceback, exit 1 and no advice
    ck = tmp_path / "w1.ckpt"
    args = ["topswops", "solve", "-n", "13", "--mode", "forward", "--workers", "1", "--checkpoint", str(ck)]
    result = _interrupt(args, ready=lambda pid: _done(ck) >= 3, settle=0.0)
    _one_clean_line(*result, f"puzzlesearch: interrupted; run the same command again with --checkpoint {ck} "
                             "to resume")
    kept = _done(ck)
    assert kept >= 3
    r = run_cli(*args, "--json")
    assert r.code == 0, r.err
    j = r.json()
    assert (j["forward"], len(j["decks"])) == (F[13], COUNTS[13])
    assert all(rules.steps(d) == F[13] for d in j["decks"])
    assert _done(ck) > kept
