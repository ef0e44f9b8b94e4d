"""--json for the judges, sizes and memory refused before any work in the same words from
the API and the CLI, long outputs written in blocks, progress in heaps, SIGINT exits 130."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import assert_bad_input, load_data, run_cli
from puzzlesearch import games
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.games import api, takebreak

DATA = load_data("games")


def test_judges_answer_as_one_json_object():
    sample = DATA["cutting_game_poj2311_sample"]
    r = run_cli("grundy", "cutting", "--json", input=sample["input"])
    assert (r.code, r.err) == (0, "")
    assert r.json() == {"games": [[2, 2], [3, 2], [4, 2]], "answers": sample["output"].split()}
    sample = DATA["cow_digit_game_usaco2009_sample"]
    r = run_cli("grundy", "digits", "--json", input=sample["input"])
    assert r.json() == {"games": [9, 10], "answers": sample["output"].split()}
    assert run_cli("grundy", "cutting", "--json", input="\n").json() == {"games": [], "answers": []}
    assert run_cli("grundy", "digits", "--json", input="0\n").json() == {"games": [], "answers": []}
    assert_bad_input(run_cli("grundy", "cutting", "--json", input="2 201\n"))


@pytest.mark.parametrize(
    "call, args, stdin",
    [
        (lambda: games.grundys_values(0), ("grundys", "--count", "0"), None),
        (lambda: games.grundys_values(10**20), ("grundys", "-n", str(10**20)), None),
        (lambda: games.octal_values("0.77", 10**9 + 1), ("octal", "0.77", "-n", str(10**9 + 1)), None),
        (lambda: games.octal_values("0.78"), ("octal", "0.78"), None),
        (lambda: games.popcount_values(0), ("popcount", "--parts", "0"), None),
        (lambda: games.popcount_values(7, 65), ("popcount", "--max-k", "65"), None),
        (lambda: games.cutting_answers("2 201\n"), ("cutting",), "2 201\n"),
        (lambda: games.digits_answers("2\n9\n"), ("digits",), "2\n9\n"),
        (lambda: games.grundys_values(10**9, run=RunOptions(memory=1 << 30)),
         ("grundys", "-n", str(10**9), "--memory", "1"), None),
    ],
)
def test_the_api_refuses_what_the_cli_refuses_in_the_same_words(call, args, stdin):
    with pytest.raises(ValueError) as refused:
        call()
    start = time.monotonic()
    r = run_cli("grundy", *args, input=stdin)
    assert_bad_input(r)
    assert r.err == f"puzzlesearch: error: {refused.value}\n"
    assert time.monotonic() - start < 2


def test_memory_is_estimated_before_allocating():
    # 2 bytes a heap, the first rare arrays (65,536 heaps of 6 bytes) and 16 bytes a value
    r = run_cli("grundy", "octal", "0.77", "-n", str(10**9), "--memory", "1.5")
    assert r.err == ("puzzlesearch: error: octal game 0.77 to 1,000,000,000 heaps needs 1.9 GiB, more than "
                     "1.5 GiB, the --memory cap\n")
    for bad in ("nan", "inf", "1e400", "0", "-1", "x"):
        assert_bad_input(run_cli("grundy", "grundys", "--memory", bad))
    assert run_cli("grundy", "grundys", "-n", "30", "--memory", "0.01").code == 0


def test_workers_are_checked_and_change_nothing_but_the_time():
    for bad in ("0", "x", "1.5"):
        assert_bad_input(run_cli("grundy", "grundys", "-n", "100", "--workers", bad))
    assert_bad_input(run_cli("grundy", "octal", "0.77", "-n", "100", "--workers", "-1"))
    assert_bad_input(run_cli("grundy", "grundys", "--scheduler", "tcp://127.0.0.1:1"))  # threads only
    one = run_cli("grundy", "grundys", "-n", "70000", "--json", "--workers", "1")
    two = run_cli("grundy", "grundys", "-n", "70000", "--json", "--workers", "2")
    assert one.code == two.code == 0
    assert json.loads(one.out)["values"] == json.loads(two.out)["values"]


def test_long_json_and_rows_are_written_in_blocks_with_the_same_bytes(monkeypatch):
    monkeypatch.setattr("puzzlesearch.games.cli.BLOCK", 40)  # a multiple of ROW, as required
    result = games.octal_values("0.77", 1234)
    obj = run_cli("grundy", "octal", "0.77", "-n", "1234", "--json").json()
    expected = result.to_json()
    assert list(obj) == list(expected)
    assert {**obj, "seconds": 0} == {**expected, "seconds": 0}
    rows = run_cli("grundy", "octal", "0.77", "-n", "1234").out.splitlines()[1:-2]
    values = result.values.tolist()
    assert rows == [f"{n:>4}: " + " ".join(map(str, values[n:n + 10])) for n in range(0, 1234, 10)]
    monkeypatch.undo()
    result = games.octal_values("0.77", 200_000)  # more than one block of the default size
    rows = run_cli("grundy", "octal", "0.77", "-n", "200000").out.splitlines()[1:-2]
    values = result.values.tolist()
    assert rows == [f"{n:>6}: " + " ".join(map(str, values[n:n + 10])) for n in range(0, 200_000, 10)]
    assert run_cli("grundy", "octal", "0.77", "-n", "200000", "--json").json()["values"] == values
    obj = run_cli("grundy", "grundys", "-n", "95", "--json").json()
    assert "period" not in obj and obj["values"] == games.grundys_values(95).values.tolist()


def test_progress_counts_heaps(monkeypatch, meter_recorder):
    Recorder = meter_recorder
    monkeypatch.setattr(takebreak, "Meter", Recorder)
    Recorder.seen = []
    games.octal_values("0.77", 300_000, run=RunOptions(progress=True))
    (bar,) = Recorder.seen
    assert (bar["label"], bar["unit"], bar["total"]) == ("octal game 0.77", "heaps", 300_000)
    assert bar["enabled"]
    assert len(bar["done"]) == 5 and bar["done"][-1] == 300_000 and bar["done"] == sorted(bar["done"])


def test_no_command_prints_the_help():
    r = run_cli("grundy")
    assert r.code == 0 and r.err == "" and "Commands:" in r.out and "grundys" in r.out


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system, every thread) a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.parametrize("sig", [signal.SIGINT, pytest.param(signal.SIGTERM, marks=pytest.mark.slow)])
def test_ctrl_c_during_a_long_table_exits_130_at_once(sig):
    src = Path(__file__).resolve().parents[2] / "src"
    env = {**os.environ, "PYTHONPATH": str(src)}
    args = ["grundy", "grundys", "-n", "20000000", "--summary"]
    p = subprocess.Popen([sys.executable, "-m", "puzzlesearch", *args],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    # the imports and numba's cache take about 0.7 s of CPU: past 1.5 s the child is in the
    # kernel (about 5 minutes in all), however loaded the machine
    deadline = time.monotonic() + 60
    while cpu_seconds(p.pid) < 1.5:
        assert p.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    sent = time.monotonic()
    p.send_signal(sig)
    out, err = p.communicate(timeout=30)
    assert time.monotonic() - sent < 5
    assert (p.returncode, out) == (130, "")
    assert err == "puzzlesearch: interrupted; give --checkpoint FILE to make a long run resumable\n"


def test_api_examples_run():
    import doctest

    result = doctest.testmod(api)
    assert result.attempted >= 8 and result.failed == 0


# ---------------------------------------------------------------- checkpoints of long runs


@pytest.mark.parametrize("code, count, stop", [
    ("0.77", 1_500_000, 7),  # 22 ranges of heaps, rare heaps under a mask
    ("grundys", 140_000, 1),  # 3 ranges, the last ones in blocks
    pytest.param("grundys", 1_500_000, 7, marks=pytest.mark.slow),
])
def test_a_run_killed_between_ranges_resumes_to_the_same_values(tmp_path, monkeypatch, code, count, stop):
    def values(run):
        if code == "grundys":
            return games.grundys_values(count, run=run)
        return games.octal_values(code, count, run=run)

    whole = values(RunOptions())
    ck = str(tmp_path / "run.ckpt")
    saved: list[int] = []  # the ranges recorded, by index
    ranges: list[tuple[int, int]] = []
    real_save = takebreak.TakeBreakCheckpoint.save

    def record(self, index, st):
        real_save(self, index, st)
        saved.append(index)
        ranges[:] = self.ranges

    def record_then_stop(self, index, st):
        record(self, index, st)
        if len(saved) == stop:
            raise KeyboardInterrupt  # as Ctrl-C between two ranges

    monkeypatch.setattr(takebreak.TakeBreakCheckpoint, "save", record_then_stop)
    with pytest.raises(KeyboardInterrupt):
        values(RunOptions(checkpoint=ck))
    assert saved == list(range(stop))
    monkeypatch.setattr(takebreak.TakeBreakCheckpoint, "save", record)
    computed: list[tuple[int, int]] = []  # the heaps each call of the kernels is asked for
    real_advance = takebreak.takebreak_advance

    def counted(digits, unequal, start, end, st, workers):
        computed.append((start, end))
        real_advance(digits, unequal, start, end, st, workers)

    monkeypatch.setattr(takebreak, "takebreak_advance", counted)
    saved.clear()
    resumed = values(RunOptions(checkpoint=ck))
    assert (resumed.values == whole.values).all()
    assert (resumed.max_value, resumed.rare_mask, resumed.rare_heaps, resumed.period, resumed.preperiod) == (
        whole.max_value, whole.rare_mask, whole.rare_heaps, whole.period, whole.preperiod)
    # the resume computed the ranges left, from the first one not recorded, and none before it
    assert saved == list(range(stop, len(ranges))) and 0 < len(saved) < len(ranges)
    assert min(start for start, _ in computed) == computed[0][0] == ranges[stop][0]
    assert max(end for _, end in computed) == count
    saved.clear()
    computed.clear()
    again = values(RunOptions(checkpoint=ck))  # every range done: nothing computed
    assert saved == computed == []
    assert (again.values == whole.values).all() and again.rare_heaps == whole.rare_heaps


def test_a_checkpoint_for_another_game_or_with_lost_values_is_one_line(tmp_path):
    ck = tmp_path / "run.ckpt"
    assert run_cli("grundy", "grundys", "-n", "70000", "--summary", "--checkpoint", ck).code == 0
    other = run_cli("grundy", "octal", "0.77", "-n", "70000", "--checkpoint", ck)
    assert_bad_input(other)
    assert "made for other parameters" in other.err
    (tmp_path / "run.ckpt.values").write_bytes(b"\0" * 10)
    lost = run_cli("grundy", "grundys", "-n", "70000", "--checkpoint", ck)
    assert_bad_input(lost)
    assert "holds 5 values" in lost.err
