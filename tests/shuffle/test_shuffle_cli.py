"""The command line: outputs, JSON keys, one-line errors, refusals before the work, Ctrl-C."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from shuffle_plain import plain_counts, plain_histogram

from conftest import ANNOUNCING, KERNEL_RUNNING, assert_bad_input, load_data, run_cli
from puzzlesearch import shuffle
from puzzlesearch.shuffle import api, puzzle, rules

REF = load_data("shuffle")


def test_solve_n5_json():
    r = run_cli("shuffle", "solve", "-n", "5", "--json")
    assert r.code == 0, r.err
    data = r.json()
    assert data["n"] == 5 and data["moves"] == 12 == len(data["sequence"])
    assert all(1 <= k <= 5 for k in data["sequence"])
    assert rules.play_shuffles(range(1, 11), data["sequence"], 5) == tuple(range(10, 0, -1))


def test_solve_human_and_verbose():
    r = run_cli("shuffle", "solve", "-n", "2", "-v")
    assert r.code == 0
    lines = r.out.splitlines()
    assert lines[0] == "block shuffle D=4 B=2: 4 moves"
    assert lines[1] == "k: 1 1 2 1"
    assert lines[-2].split() == ["k=1", "4", "3", "2", "1"]


def test_solve_general_deck_with_count():
    r = run_cli("shuffle", "solve", "--deck", "6", "--block", "3", "--count-paths", "--json")
    data = r.json()
    published = REF["block_shuffle_reversal"]["values"]["3"]
    assert (data["deck"], data["block"], data["moves"]) == (6, 3, published)
    p = puzzle.block_shuffle_puzzle(6, 3)
    assert (data["moves"], data["paths"]) == plain_counts(p, tuple(range(1, 7)), tuple(range(6, 0, -1)))


def test_solve_custom_goal_and_unreachable():
    r = run_cli("shuffle", "solve", "-n", "2", "--goal", "2,1,3,4")
    # blocks of 2 are even permutations, and 2 1 3 4 is odd
    assert r.code == 0 and r.out == "block shuffle D=4 B=2: 2 1 3 4 cannot be reached from 1 2 3 4\n"
    r = run_cli("shuffle", "solve", "-n", "3", "--start", "1 2 3 4 5 6", "--goal", "2 3 4 1 5 6", "--json")
    assert r.json()["sequence"] == [1]


def test_god_json_and_human():
    r = run_cli("shuffle", "god", "-n", "3", "--json")
    data = r.json()
    assert data["states"] == 720 and data["histogram"] == plain_histogram(puzzle.block_shuffle_puzzle(6, 3))
    assert data["diameter"] == len(data["histogram"]) - 1
    r = run_cli("shuffle", "god", "-n", "2")
    want = "block shuffle D=4 B=2: 12 decks reachable (the even half of 4!), diameter 4"
    assert r.out.splitlines()[0] == want


def test_show_0_lists_no_farthest_decks():
    r = run_cli("shuffle", "god", "-n", "2", "--show", "0")
    assert r.code == 0
    assert r.out.splitlines() == [
        "block shuffle D=4 B=2: 12 decks reachable (the even half of 4!), diameter 4",
        "distance  decks", "       0  1", "       1  2", "       2  3", "       3  4", "       4  2"]
    assert run_cli("pancake", "god", "-n", "3", "--show", "0", "--json").json()["farthest"] == []


def test_god_plot(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "h.png"
    r = run_cli("shuffle", "god", "-n", "3", "--plot", str(out))
    assert r.code == 0 and out.stat().st_size > 1000


def test_plot_without_matplotlib(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setattr(api, "pancake_god", _no_work)
    r = run_cli("pancake", "god", "-n", "4", "--plot", str(tmp_path / "h.png"))
    assert_bad_input(r)
    assert r.err == ("puzzlesearch: error: --plot needs matplotlib (the [plot] extra): "
                     "pip install matplotlib\n")


def _no_work(*args, **kwargs):
    raise AssertionError("the search ran before its output path was checked")


@pytest.mark.parametrize("args", [("pancake", "god", "-n", "10"), ("shuffle", "god", "-n", "6")])
def test_plot_path_is_checked_before_the_work(args, monkeypatch):
    monkeypatch.setattr(api, "pancake_god", _no_work)
    monkeypatch.setattr(api, "god", _no_work)
    r = run_cli(*args, "--plot", "/nonexistent/x.png")
    assert_bad_input(r)
    assert r.err == "puzzlesearch: error: --plot /nonexistent/x.png: the folder /nonexistent does not exist\n"


def test_a_plot_not_saved_after_the_work_keeps_the_answer(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Figure, "savefig", disk_full)
    target = tmp_path / "h.png"
    r = run_cli("pancake", "god", "-n", "4", "--plot", str(target))
    assert r.code == 1
    assert r.out == run_cli("pancake", "god", "-n", "4").out  # the whole answer, printed
    assert r.err.startswith("puzzlesearch: the plot was not saved: no space left on ")
    assert r.err.endswith(f" for {target}\n")
    assert len(r.err.splitlines()) == 1 and list(tmp_path.iterdir()) == []  # nor a temporary file


def test_pancake_solve():
    r = run_cli("pancake", "solve", "3", "1", "2", "5", "4", "--json")
    data = r.json()
    assert data["stack"] == [3, 1, 2, 5, 4]
    assert rules.play_flips((3, 1, 2, 5, 4), data["sequence"]) == (1, 2, 3, 4, 5)
    assert all(2 <= k <= 5 for k in data["sequence"])
    p = puzzle.pancake_puzzle(5)
    assert data["moves"] == rules.bfs_distance((3, 1, 2, 5, 4), (1, 2, 3, 4, 5), p.apply, range(len(p.moves)))
    r = run_cli("pancake", "solve", "1")
    assert r.code == 0 and r.out == "pancakes n=1: 0 flips\nk: (none)\n"


def test_pancake_god_is_pancake_number():
    r = run_cli("pancake", "god", "-n", "7", "--json")
    assert r.json()["diameter"] == REF["pancake_numbers"]["values"][6]


@pytest.mark.parametrize("args", [
    ("shuffle", "solve", "-n", "0"),
    ("shuffle", "solve", "-n", "-3"),
    ("shuffle", "solve", "--deck", "6", "--block", "6"),
    ("shuffle", "solve", "--deck", "6", "--block", "8"),
    ("shuffle", "solve", "--deck", "6", "--block", "0"),
    ("shuffle", "solve", "--deck", "6"),
    ("shuffle", "solve"),
    ("shuffle", "solve", "-n", "3", "--deck", "6", "--block", "3"),
    ("shuffle", "solve", "-n", "9"),
    ("shuffle", "solve", "-n", "3", "--goal", "1 2 3"),
    ("shuffle", "solve", "-n", "3", "--goal", "1 2 3 4 5 5"),
    ("shuffle", "solve", "-n", "3", "--start", "a b c"),
    ("shuffle", "solve", "-n", "6", "--memory", "0.0001"),
    ("shuffle", "solve", "-n", "3", "--memory", "-1"),
    ("shuffle", "solve", "-n", "x"),
    ("shuffle", "god", "-n", "0"),
    ("shuffle", "god", "--deck", "5", "--block", "5"),
    ("shuffle", "god", "-n", "5", "--memory", "0.001"),
    ("shuffle", "god", "-n", "11"),
    ("shuffle", "god", "-n", "3", "--show", "-1"),
    ("pancake", "solve", "3", "1", "2", "2"),
    ("pancake", "solve", "3", "1", "5"),
    ("pancake", "solve", "0", "1"),
    ("pancake", "solve", "a", "b"),
    ("pancake", "solve"),
    ("pancake", "solve", *map(str, range(1, 18))),
    ("pancake", "god", "-n", "0"),
    ("pancake", "god"),
    ("pancake", "god", "-n", "25"),
    ("pancake", "god", "-n", "4", "--show", "10001"),
    ("pancake", "god", "-n", "4", "--plot", "/nonexistent/x.png"),
    ("shuffle", "god", "-n", "3", "--plot", "/proc/nope/x.png"),
    ("shuffle", "solve", "-n", "100000"),
    ("shuffle", "god", "-n", "100000"),
    ("pancake", "god", "-n", "100000"),
    ("shuffle", "solve", "-n", "1000"),
    ("shuffle", "god", "-n", "1000"),
    ("shuffle", "solve", "-n", "100000000000000000000"),
    ("shuffle", "god", "-n", "100000000000000000000"),
    ("shuffle", "solve", "--deck", "100000000000000000000", "--block", "3"),
    ("shuffle", "god", "--deck", "100000000000000000000", "--block", "3"),
    ("shuffle", "god", "--deck", "8", "--block", "100000000000000000000"),
    ("pancake", "god", "-n", "100000000000000000000"),
    ("pancake", "solve", "1", "100000000000000000000"),
    ("shuffle", "solve", "-n", "3", "--memory", "inf"),
    ("shuffle", "god", "-n", "3", "--memory", "1e400"),
    ("pancake", "god", "-n", "3", "--memory", "nan"),
    ("pancake", "solve", "2", "1", "--memory", "-inf"),
])
def test_bad_input(args):
    assert_bad_input(run_cli(*args))


@pytest.mark.parametrize("args,line", [
    (("pancake", "solve", "1", "2", "x"),
     "STACK must be pancakes (whole numbers) separated by spaces or commas, got '1 2 x'"),
    (("shuffle", "solve", "-n", "3", "--start", "1 2 y"),
     "--start must be cards (whole numbers) separated by spaces or commas, got '1 2 y'"),
    (("pancake", "god", "-n", "20", "--memory", "64"),
     "full BFS of pancakes n=20 (2,432,902,008,176,640,000 stacks, 2 bits each) needs 540.2 PiB, "
     "more than 64.0 GiB, the --memory cap"),
    (("shuffle", "god", "-n", "7", "--memory", "2"),
     "full BFS of block shuffle D=14 B=7 (87,178,291,200 decks, 2 bits each) needs 20.3 GiB, "
     "more than 2.0 GiB, the --memory cap"),
    (("shuffle", "solve", "-n", "3", "--memory", "inf"),
     "Invalid value for '--memory': must be at most 1,048,576 GiB, got inf"),
    (("shuffle", "solve", "-n", "3", "--memory", "nan"),
     "Invalid value for '--memory': must be a number of GiB, got nan"),
])
def test_bad_input_lines(args, line):
    r = run_cli(*args)
    assert_bad_input(r)
    assert r.err == f"puzzlesearch: error: {line}\n"


@pytest.mark.parametrize("args,call", [
    (("shuffle", "solve", "--deck", "6", "--block", "6"), lambda: shuffle.solve(deck=6, block=6)),
    (("shuffle", "solve", "-n", "9"), lambda: shuffle.solve(9)),
    (("shuffle", "solve", "-n", "3", "--goal", "1 2 3 4 5 5"),
     lambda: shuffle.solve(3, goal=(1, 2, 3, 4, 5, 5))),
    (("shuffle", "god", "-n", "0"), lambda: shuffle.god(0)),
    (("shuffle", "god", "-n", "11"), lambda: shuffle.god(11)),
    (("shuffle", "god", "-n", "2", "--show", "-1"), lambda: shuffle.god(2, show=-1)),
    (("pancake", "solve", "3", "1", "2", "2"), lambda: shuffle.solve_pancakes([3, 1, 2, 2])),
    (("pancake", "solve", *map(str, range(1, 18))), lambda: shuffle.solve_pancakes(range(1, 18))),
    (("pancake", "god", "-n", "25"), lambda: shuffle.pancake_god(25)),
])
def test_the_api_refuses_what_the_cli_refuses_in_the_same_words(args, call):
    r = run_cli(*args)
    assert_bad_input(r)
    with pytest.raises(ValueError) as e:
        call()
    assert r.err == f"puzzlesearch: error: {e.value}\n"


# One child process under a 2 GiB address-space cap (a regression fails there, not on the
# machine) runs every huge size; each must be refused from its parameters alone: the
# expected line, quickly, without numba, and the child's peak memory stays small.
HUGE = {
    ("shuffle", "solve", "-n", "100000"): "solve handles decks of at most 16 cards, got 200000",
    ("shuffle", "solve", "-n", "100000000000000000000"):
        "solve handles decks of at most 16 cards, got 200000000000000000000",
    ("shuffle", "solve", "--deck", "100000000000000000000", "--block", "3"):
        "solve handles decks of at most 16 cards, got 100000000000000000000",
    ("shuffle", "god", "-n", "100000"): "full BFS indexes decks by rank: at most 20 cards, got 200000",
    ("shuffle", "god", "-n", "1000"): "full BFS indexes decks by rank: at most 20 cards, got 2000",
    ("shuffle", "god", "--deck", "100000000000000000000", "--block", "3"):
        "full BFS indexes decks by rank: at most 20 cards, got 100000000000000000000",
    ("pancake", "god", "-n", "100000"): "full BFS indexes stacks by rank: at most 20 pancakes, got 100000",
    ("pancake", "god", "-n", "20"): "full BFS of pancakes n=20 (2,432,902,008,176,640,000 stacks",
}

CHILD = textwrap.dedent("""
    import contextlib, io, json, resource, sys, time
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    from puzzlesearch.cli import main
    for args in json.loads(sys.argv[1]):
        err = io.StringIO()
        t0 = time.monotonic()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                main(args)
            except SystemExit as e:
                code = e.code
        print(json.dumps([args, code, err.getvalue(), time.monotonic() - t0]))
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over exec from the forked parent (pytest,
    # which is large by the end of the suite); VmHWM belongs to this program's own memory
    hwm = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
    print(json.dumps([hwm, "numba" in sys.modules]))
""")


def test_huge_sizes_are_refused_at_once_in_little_memory():
    t0 = time.monotonic()
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps([list(a) for a in HUGE])],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    *cases, (peak_kib, numba) = map(json.loads, done.stdout.splitlines())
    for (args, code, err, seconds), (want_args, want) in zip(cases, HUGE.items(), strict=True):
        assert args == list(want_args)
        assert code == 2 and err.startswith(f"puzzlesearch: error: {want}") and err.count("\n") == 1, err
        assert seconds < 2, (args, seconds)  # milliseconds; the margin is for a loaded machine
    assert peak_kib < 500 * 1024 and not numba
    assert time.monotonic() - t0 < 2 * len(HUGE)




@pytest.mark.parametrize("args", [("pancake", "god", "-n", "12"),
                                  pytest.param(("shuffle", "solve", "-n", "8"), marks=pytest.mark.slow)])
def test_ctrl_c_in_a_kernel_is_one_line_and_exit_130(args):
    child = subprocess.Popen([sys.executable, "-c", ANNOUNCING, *args, "--quiet"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = child.stderr.readline()
        assert first == KERNEL_RUNNING, (first, child.poll())
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
        waited = time.monotonic() - sent
    finally:
        child.kill()
    hint = "; give --checkpoint FILE to make a long run resumable" if args[1] == "god" else ""
    err = "".join(line for line in err.splitlines(keepends=True) if line != KERNEL_RUNNING)
    assert (child.returncode, out, err) == (130, "", f"puzzlesearch: interrupted{hint}\n")
    assert waited < 5, waited  # searches of tens of seconds and more: Ctrl-C ends them at once
