"""Ctrl-C (SIGINT) and SIGTERM while a search runs: exit 130 at once, one line on stderr
(with resume advice where a checkpoint exists), no crash, and a checkpoint that resumes to
the right answer. Each command runs in its own process, as a user's would; the signal is
sent once its kernel is running (the kernels run in a second thread of the process,
engine.interrupt), which the child says on stderr."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import load_data, run_cli
from puzzlesearch.topswops import forward, rules

DATA = load_data("topswops")
F = {int(k): v for k, v in DATA["max_steps"]["values"].items()}
COUNTS = {int(k): v for k, v in DATA["optimal_deck_count"]["values"].items()}

#: what the child writes on stderr from a kernel's thread as the kernel starts
MARK = "test: a kernel runs\n"
#: `puzzlesearch ARGS` as the program itself, each kernel call in this process marked with MARK
CHILD = f"""
import sys

from puzzlesearch.engine import interrupt

real = interrupt.call


def call(kernel, *args):
    def marked(*a):
        sys.stderr.write({MARK!r})
        sys.stderr.flush()
        return kernel(*a)
    return real(marked, *args)


interrupt.call = call
sys.argv[0] = "puzzlesearch"
from puzzlesearch.cli import main

main()
"""
#: seconds from the signal to the exit: the kernel is left running, so it is at once; the
#: margin is for a loaded machine
PROMPT = 5.0


@pytest.fixture(scope="module", autouse=True)
def _bounds_in_the_store():
    forward.own_bounds(13)  # f(1..12) in the tests' store, so the commands start their search at once


def _done(path: Path) -> int:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as db:
            return db.execute("select count(*) from done").fetchone()[0]
    except sqlite3.Error:
        return 0


def _interrupt(args: list[str], sig: int = signal.SIGINT, ready=None):
    """Start `puzzlesearch ARGS`, wait until its first kernel runs (or, given, until
    ready()), send `sig`; return (exit status, stdout, stderr without the marks, seconds
    from the signal to the exit)."""
    proc = subprocess.Popen([sys.executable, "-c", CHILD, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    seen = proc.stderr.readline()  # blocks until the child's first kernel starts, or it ends
    assert seen == MARK, f"the command ended before its kernel ran: {seen}{proc.communicate()}"
    deadline = time.monotonic() + 60
    while ready is not None and not ready() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert proc.poll() is None, f"the command ended before the signal: {proc.communicate()}"
    sent = time.monotonic()
    proc.send_signal(sig)
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    err = "".join(line for line in err.splitlines(keepends=True) if line != MARK)
    return proc.returncode, out, err, time.monotonic() - sent


def _one_clean_line(code: int, out: str, err: str, seconds: float, line: str) -> None:
    assert code == 130, (code, err[-2000:])
    assert seconds < PROMPT
    assert (out, err) == ("", line + "\n")


@pytest.mark.slow
def test_ctrl_c_ends_the_backward_search_at_once_without_a_crash():
    # the keypress must not wait for the kernel to end, and the kernel's end must not crash
    # the process (a segfault) once Python has begun to exit
    _one_clean_line(*_interrupt(["topswops", "solve", "-n", "13", "--mode", "backward"]),
                    "puzzlesearch: interrupted")


@pytest.mark.slow
def test_sigterm_ends_the_default_search_like_ctrl_c():
    _one_clean_line(*_interrupt(["topswops", "solve", "-n", "13"], signal.SIGTERM),
                    "puzzlesearch: interrupted; give --checkpoint FILE to make a long run resumable")


def test_ctrl_c_ends_the_forward_search_in_one_call():
    _one_clean_line(*_interrupt(["topswops", "solve", "-n", "13", "--mode", "forward", "--workers", "1"]),
                    "puzzlesearch: interrupted; give --checkpoint FILE to make a long run resumable")


@pytest.mark.slow
def test_ctrl_c_with_one_worker_and_a_checkpoint_resumes_to_the_answer(tmp_path):
    # one worker runs the tasks in this process: Ctrl-C there must give the resume advice,
    # not a SystemError traceback and exit 1
    ck = tmp_path / "w1.ckpt"
    args = ["topswops", "solve", "-n", "13", "--mode", "forward", "--workers", "1", "--checkpoint", str(ck)]
    result = _interrupt(args, ready=lambda: _done(ck) >= 3)
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
