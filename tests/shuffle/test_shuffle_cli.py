"""The command line: outputs, JSON keys, one-line errors."""

from __future__ import annotations

import sys

import pytest

from conftest import assert_bad_input, load_data, run_cli
from puzzlesearch.shuffle import rules

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
    assert data["paths"] >= 1


def test_solve_custom_goal_and_unreachable():
    r = run_cli("shuffle", "solve", "-n", "2", "--goal", "2,1,3,4")
    assert r.code == 0 and "cannot be reached" in r.out
    r = run_cli("shuffle", "solve", "-n", "3", "--start", "1 2 3 4 5 6", "--goal", "2 3 4 1 5 6", "--json")
    assert r.json()["sequence"] == [1]


def test_god_json_and_human():
    r = run_cli("shuffle", "god", "-n", "3", "--json")
    data = r.json()
    assert data["states"] == 720 and sum(data["histogram"]) == 720
    assert data["diameter"] == len(data["histogram"]) - 1
    r = run_cli("shuffle", "god", "-n", "2")
    want = "block shuffle D=4 B=2: 12 decks reachable (the even half of 4!), diameter 4"
    assert r.out.splitlines()[0] == want


def test_god_plot(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "h.png"
    r = run_cli("shuffle", "god", "-n", "3", "--plot", str(out))
    assert r.code == 0 and out.stat().st_size > 1000


def test_plot_without_matplotlib(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert_bad_input(run_cli("pancake", "god", "-n", "4", "--plot", str(tmp_path / "h.png")))


def test_pancake_solve():
    r = run_cli("pancake", "solve", "3", "1", "2", "5", "4", "--json")
    data = r.json()
    assert data["stack"] == [3, 1, 2, 5, 4]
    assert rules.play_flips((3, 1, 2, 5, 4), data["sequence"]) == (1, 2, 3, 4, 5)
    assert all(2 <= k <= 5 for k in data["sequence"])
    r = run_cli("pancake", "solve", "1")
    assert r.code == 0 and "0 flips" in r.out


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
])
def test_bad_input(args):
    assert_bad_input(run_cli(*args))
