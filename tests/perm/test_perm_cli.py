"""`puzzlesearch perm ...`: outputs, JSON, exit statuses, one-line refusals."""

from __future__ import annotations

import pytest

from conftest import assert_bad_input, run_cli
from puzzlesearch.perm import api

DEMO = """\
name = "demo"
[pieces.p]
positions = ["a", "b", "c", "d"]
[moves]
X = "(a b c)"
Y = "(c d)"
"""




@pytest.fixture
def demo(tmp_path):
    path = tmp_path / "demo.toml"
    path.write_text(DEMO)
    return str(path)


def test_list_names_every_example():
    r = run_cli("perm", "list")
    assert r.code == 0 and r.err == ""
    names = [line.split()[0] for line in r.out.splitlines()]
    assert names == [e.name for e in api.examples()]
    assert "cube2-htm         2x2x2 cube, half-turn metric" in r.out
    data = run_cli("perm", "list", "--json").json()
    assert {"name", "file", "title", "description"} <= set(data["examples"][0])


def test_info(demo):
    r = run_cli("perm", "info", demo)
    assert r.code == 0, r.err
    assert r.out.splitlines()[0] == "demo: 24 states"
    assert "reachable  every one of the 24 arrangements of the pieces" in r.out
    r = run_cli("perm", "info", "pyraminx")
    assert "reachable  933,120 of the 89,579,520 arrangements (1 in 96):" in r.out
    assert "           the edges always make an even permutation (x 2)" in r.out
    data = run_cli("perm", "info", "cube3", "--json").json()
    assert data["states"] == 43_252_003_274_489_856_000 and data["every_arrangement"] is False
    assert data["constraints"][2] == "the corners and the edges always have the same parity (x 2)"


def test_god(demo):
    r = run_cli("perm", "god", demo, "--show", "1")
    assert r.code == 0, r.err
    assert r.out == ("demo: 24 states reachable (all 24 indexed), God's number 6\n"
                     "distance  states\n       0  1\n       1  3\n       2  4\n       3  6\n       4  6\n"
                     "       5  3\n       6  1\nfarthest (1):\n  b a c d\n")
    data = run_cli("perm", "god", "pancakes-8", "--json", "--show", "2").json()
    assert data["diameter"] == 9 and data["states"] == 40_320 and len(data["farthest"]) == 2


def test_god_draws_its_plot(tmp_path, demo):
    pytest.importorskip("matplotlib")
    out = tmp_path / "hist.svg"
    r = run_cli("perm", "god", demo, "--plot", str(out))
    assert r.code == 0, r.err
    assert out.read_text().lstrip().startswith("<?xml")


def test_solve_move_by_move():
    r = run_cli("perm", "solve", "cube2-htm", "--scramble", "R U R' F2")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[:2] == ["2x2x2 cube, half-turn metric: 4 moves", "F2 R U' R'"]
    assert lines[2].startswith("start  ") and lines[-1] == "R'     ufr ufl ubl ubr dfr dfl dbl dbr"
    state = lines[2].removeprefix("start  ").split()
    again = run_cli("perm", "solve", "cube2-htm", *state, "--json")
    assert again.code == 0 and again.json()["sequence"] == ["F2", "R", "U'", "R'"]


def test_an_unreachable_state_says_why_and_exits_1():
    r = run_cli("perm", "solve", "cube2-htm", "ufr+1 ufl ubl ubr dfr dfl dbl dbr")
    assert r.code == 1 and r.err == ""
    assert r.out == ("2x2x2 cube, half-turn metric: ufr+1 ufl ubl ubr dfr dfl dbl dbr cannot be reached: the "
                     "twists of the corners add up to 1 (mod 3); every move keeps that sum at 0\n")
    data = run_cli("perm", "solve", "pyraminx", "ur ul ub lr lb rb u l r b", "--json")
    assert data.code == 1 and data.json()["moves"] == -1
    assert data.json()["reason"] == "the edges are in an odd permutation; every move makes an even one"


@pytest.mark.parametrize("args", [
    ("perm", "info", "nothere.toml"),
    ("perm", "god", "cube3"),
    ("perm", "god", "topspin-12-4", "--memory", "0.001"),
    ("perm", "god", "pancakes-8", "--show", "-1"),
    ("perm", "god", "pancakes-8", "--plot", "hist.nosuchformat"),
    ("perm", "solve", "cube2-htm"),
    ("perm", "solve", "cube2-htm", "ufr", "--scramble", "R"),
    ("perm", "solve", "cube2-htm", "--scramble", "R Q"),
    ("perm", "solve", "cube2-htm", "ufr ufl"),
    ("perm", "solve", "cube2-htm", "--scramble", "R", "--memory", "-1"),
])
def test_bad_input_is_one_line_and_exit_2(args):
    if "--plot" in args:
        pytest.importorskip("matplotlib")
    assert_bad_input(run_cli(*args))


def test_a_mistake_in_the_file_names_the_file_and_the_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(DEMO.replace('Y = "(c d)"', 'Y = "(c e)"'))
    r = run_cli("perm", "info", str(path))
    assert_bad_input(r)
    assert r.err == (f"puzzlesearch: error: {path}:6: move Y: unknown position 'e' "
                     "(the positions are a, b, c, d)\n")


def test_the_refusal_of_a_puzzle_too_big_names_the_memory():
    r = run_cli("perm", "god", "cube3")
    assert "it would need 18.8 EiB (2 bits each)" in r.err


def test_no_command_prints_the_help():
    r = run_cli("perm")
    assert r.code == 0 and "Commands:" in r.out and "solve" in r.out


@pytest.mark.parametrize("scramble", [" ", ",", " , ,"])
def test_an_empty_scramble_is_refused(demo, scramble):
    r = run_cli("perm", "solve", demo, "--scramble", scramble)
    assert_bad_input(r)
    assert "the scramble has no moves" in r.err


@pytest.mark.parametrize("command", [("info",), ("solve", "--scramble", "X")])
def test_a_damaged_store_is_refused_before_the_work(command, demo, tmp_path):
    """Even where the answer would not need the store: every command with --store does so."""
    store = tmp_path / "store.sqlite"
    assert run_cli("perm", "info", demo, "--store", str(store)).code == 0
    store.write_bytes(store.read_bytes()[:4096])
    r = run_cli("perm", command[0], demo, *command[1:], "--store", str(store))
    assert_bad_input(r)
    assert "cannot be read as a results store" in r.err or "is not a puzzlesearch results store" in r.err


def _symmetric(tmp_path, n: int):
    """The symmetric group on n positions from an n-cycle and a swap: n! states."""
    names = [f"p{i}" for i in range(n)]
    path = tmp_path / f"sym{n}.toml"
    path.write_text(f'name = "sym{n}"\nmetric = "given"\n[pieces.p]\npositions = {names}\n'.replace("'", '"')
                    + f'[moves]\nC = "({" ".join(names)})"\nS = "(p0 p1)"\n')
    return path


def test_info_shortens_numbers_hundreds_of_digits_long(tmp_path):
    import math

    r = run_cli("perm", "info", str(_symmetric(tmp_path, 64)))
    assert r.code == 0, r.err
    digits = str(math.factorial(64))
    short = f"{digits[:8]}...{digits[-4:]} (90 digits)"
    assert r.out.splitlines()[0] == f"sym64: {short} states"
    assert f"reachable  every one of the {short} arrangements of the pieces" in r.out
    assert f"a full search indexes {short} states" in r.out
    assert all(len(line) <= 120 for line in r.out.splitlines() if not line.startswith("solved"))


def test_a_refusal_stays_short_however_large_the_puzzle(tmp_path):
    r = run_cli("perm", "god", str(_symmetric(tmp_path, 512)))
    assert_bad_input(r)
    assert "(1167 digits) states" in r.err and len(r.err) < 220, r.err


def test_the_api_refusal_is_as_short(tmp_path):
    from puzzlesearch.perm import Puzzle

    with pytest.raises(ValueError) as refused:
        Puzzle.from_file(_symmetric(tmp_path, 512)).god()
    assert "(1167 digits) states" in str(refused.value) and len(str(refused.value)) < 200
