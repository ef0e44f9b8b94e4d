"""Sizes refused before any work, in the same words from the API and the CLI; the
breadth-first search in slices (progress, Ctrl-C) equal to one call; SIGINT exits 130."""

import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from conftest import ANNOUNCING, KERNEL_RUNNING, assert_bad_input, run_cli
from puzzlesearch import hanoi
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.hanoi import api, bfs, kernels

HUGE = 10**20


@pytest.mark.parametrize(
    "args, words",
    [
        (("solve", "-n", HUGE), "-n must be at most 100,000, got 100,000,000,000,000,000,000"),
        (("solve", "-n", 100_000), "that is about 10^30102 moves, more than 1,048,576 (2^20) to print"),
        (("count", "-n", HUGE), "-n must be at most 100,000, got"),
        (("count", "-n", HUGE, "--all"), "-n must be at most 10,000 with --all, got"),
        (("position", "-n", HUGE, "-m", 1), "-n must be at most 10,000, got"),
        (("position", "-n", 5, "-m", HUGE), "move number must be between 0 and 2^5 - 1"),
        (("verify", "-n", HUGE), f"breadth-first search over 4^{HUGE} positions is beyond the limit"),
        (("verify", "-n", 3, "--pegs", HUGE), "--pegs must be between 3 and 26"),
        (("verify", "-n", 8, "--memory", "0.00001"), "breadth-first search over 4^8 positions needs 48 KiB"),
        (("distance", "--from", "A" * 8, "--to", "D" * 8, "--pegs", 4, "--memory", "0.0001"),
         "needs 384 KiB"),
        (("verify", "-n", 8, "--memory", "nan"), "--memory"),
        (("solve", "-n", 3, "--delay", "nan", "--animate"),
         "--delay must be a finite number of seconds, got nan"),
        (("solve", "-n", 3, "--delay", "inf"), "--delay must be a finite number of seconds, got inf"),
    ],
)
def test_huge_and_special_sizes_are_one_line_before_any_work(args, words):
    start = time.monotonic()
    r = run_cli("hanoi", *args)
    assert_bad_input(r)
    assert words in r.err
    assert time.monotonic() - start < 2


@pytest.mark.parametrize(
    "call, args",
    [
        (hanoi.count, ("hanoi", "count", "-n", -2)),
        (lambda: hanoi.count(5, 27), ("hanoi", "count", "-n", 5, "--pegs", 27)),
        (lambda: hanoi.count(100_001), ("hanoi", "count", "-n", 100_001)),
        (lambda: hanoi.counts(10_001), ("hanoi", "count", "-n", 10_001, "--all")),
        (lambda: hanoi.position_after(10_001, 0), ("hanoi", "position", "-n", 10_001, "-m", 0)),
        (lambda: hanoi.position_after(3, 8), ("hanoi", "position", "-n", 3, "-m", 8)),
        (lambda: hanoi.verify(21, 4), ("hanoi", "verify", "-n", 21, "--pegs", 4)),
        (lambda: hanoi.verify(13, 4, diameter=True),
         ("hanoi", "verify", "-n", 13, "--pegs", 4, "--diameter")),
        (lambda: hanoi.verify(10, 4, diameter=True), ("hanoi", "verify", "-n", 10, "--diameter")),
        (lambda: hanoi.distance("ABX", "AAA"), ("hanoi", "distance", "--from", "ABX", "--to", "AAA")),
        (lambda: api.plan(21), ("hanoi", "solve", "-n", 21)),
        (lambda: api.plan(3, start="AB"), ("hanoi", "solve", "-n", 3, "--from", "AB")),
        (lambda: api.plan(), ("hanoi", "solve")),
        (lambda: api.check_delay(-1), ("hanoi", "solve", "-n", 2, "--delay", -1)),
    ],
)
def test_the_api_refuses_what_the_cli_refuses_in_the_same_words(call, args):
    if call is hanoi.count:
        call = lambda: hanoi.count(-2)  # noqa: E731
    with pytest.raises(ValueError) as refused:
        call()
    r = run_cli(*args)
    assert_bad_input(r)
    assert r.err == f"puzzlesearch: error: {refused.value}\n"


def test_api_takes_whole_numbers_only():
    for bad in (3.0, "3", True, None):
        with pytest.raises(ValueError, match="-n must be a whole number"):
            hanoi.count(bad)
    assert hanoi.count(np.int64(5)) == 31


def test_a_materialised_sequence_is_refused_beyond_the_memory_cap():
    with pytest.raises(ValueError, match=r"the list of 1,073,741,823 moves needs 100.0 GiB"):
        hanoi.solve(30, run=RunOptions(memory=1 << 30))
    with pytest.raises(ValueError, match="needs 96 MiB"):
        hanoi.moves_array(25, run=RunOptions(memory=1 << 20))


@pytest.mark.parametrize("n", [16, pytest.param(21, marks=pytest.mark.slow)])
def test_solve_json_is_written_as_the_moves_come_and_equals_the_materialised_one(n):
    r = run_cli("hanoi", "solve", "-n", n, "--force", "--json")
    out = r.json()
    assert out["moves"] == len(out["sequence"]) == 2**n - 1
    assert out["sequence"] == api.moves_array(n).tolist()
    assert run_cli("hanoi", "solve", "-n", 0, "--json").out == (
        '{"n":0,"pegs":3,"from":"","to":"","moves":0,"sequence":[]}\n')


def test_big_distances_print_every_digit():
    r = run_cli("hanoi", "distance", "--from", "A" * 20_000, "--to", "C" * 20_000)
    assert r.code == 0 and int(r.out) == 2**20_000 - 1


def test_bfs_in_slices_equals_one_kernel_call(monkeypatch):
    n, pegs = 7, 4
    monkeypatch.setattr(bfs, "SLICE", 37)
    dist, queue, stats = bfs.search(n, pegs, 1234)
    one = np.full(pegs**n, np.iinfo(dist.dtype).max, dist.dtype)
    reached, far, at_far = kernels.bfs_kernel(n, pegs, 1234, one, np.empty(pegs**n, np.uint32),
                                              int(np.iinfo(dist.dtype).max))
    assert (dist == one).all() and stats == (reached, far, at_far) and reached == pegs**n
    sliced = hanoi.verify(5, 4, diameter=True)  # one search per slice
    monkeypatch.undo()
    whole = hanoi.verify(5, 4, diameter=True)
    assert (sliced.diameter, sliced.diameter_sources) == (whole.diameter, whole.diameter_sources)


def test_progress_counts_positions_up_to_all_of_them(monkeypatch, meter_recorder):
    Recorder = meter_recorder
    monkeypatch.setattr(bfs, "Meter", Recorder)
    monkeypatch.setattr(bfs, "SLICE", 1000)
    Recorder.seen = []
    hanoi.verify(6, 4, diameter=True)
    search, diameter = Recorder.seen
    assert (search["unit"], search["total"], search["done"][-1]) == ("positions", 4**6, 4**6)
    assert len(search["done"]) == 5 and search["done"] == sorted(search["done"])
    assert diameter["unit"] == "positions" and diameter["done"][-1] == diameter["total"] == 187 * 4**6


def test_no_command_prints_the_help():
    r = run_cli("hanoi")
    assert r.code == 0 and r.err == "" and "Commands:" in r.out and "verify" in r.out




@pytest.mark.slow
def test_ctrl_c_during_a_long_verify_exits_130_at_once():
    # the diameter's searches take about 17 s in all
    p = subprocess.Popen([sys.executable, "-c", ANNOUNCING, "hanoi", "verify", "--pegs", "4", "-n", "8",
                          "--diameter"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = p.stderr.readline()
        assert first == KERNEL_RUNNING, (first, p.poll())
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
    finally:
        p.kill()
    assert time.monotonic() - sent < 5
    err = "".join(line for line in err.splitlines(keepends=True) if line != KERNEL_RUNNING)
    assert (p.returncode, out, err) == (130, "", "puzzlesearch: interrupted\n")


def test_api_examples_run():
    import doctest

    result = doctest.testmod(api)
    assert result.attempted >= 10 and result.failed == 0
