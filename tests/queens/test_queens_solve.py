"""One board without search (construct.py) and `puzzlesearch queens solve`: the verifier
against the plain rules, the construction for every residue class, the command line."""

import doctest
import itertools
import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import assert_bad_input, run_cli
from puzzlesearch import queens
from puzzlesearch.engine.failures import CheckFailed
from puzzlesearch.engine.paths import device, show
from puzzlesearch.queens import construct, rules


def clashes(board: tuple[int, ...]) -> dict[str, list[tuple[int, int]]]:
    """Every pair of rows r1 < r2 whose queens share a column or a diagonal, by kind, by brute force."""
    found: dict[str, list[tuple[int, int]]] = {"column": [], "row + column": [], "row - column": []}
    for r1, r2 in itertools.combinations(range(len(board)), 2):
        c1, c2 = board[r1], board[r2]
        if c1 == c2:
            found["column"].append((r1, r2))
        elif r1 + c1 == r2 + c2:
            found["row + column"].append((r1, r2))
        elif r1 - c1 == r2 - c2:
            found["row - column"].append((r1, r2))
    return found


# --- the verifier ---------------------------------------------------------------------------------


def test_the_examples_in_the_module_docstring_run():
    result = doctest.testmod(construct, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 5 and result.failed == 0


def test_the_package_exports_the_construction():
    assert queens.solve is construct.solve and queens.verify is construct.verify
    assert queens.board is construct.board and queens.MAX_SOLVE_N == construct.MAX_SOLVE_N >= 10**7


def test_verify_accepts_every_solution_of_small_boards():
    for n in range(1, 9):
        for b in rules.solutions(n):
            assert construct.verify(b) == construct.verify(np.array(b, np.int32), n) == ""


def test_verify_names_a_column_clash():
    assert construct.verify([1, 3, 0, 2, 1]) == "the queens 1:2 and 5:2 share a column"


def test_verify_names_each_diagonal_clash():
    # rows 5 and 6 (1-based) at columns 6 and 5: row + column = 11 twice
    assert construct.verify([1, 3, 0, 2, 5, 4]) == (
        "the queens 5:6 and 6:5 share a diagonal (row + column = 11)")
    # rows 5 and 6 at columns 5 and 6: row - column = 0 twice
    assert construct.verify([1, 3, 0, 2, 4, 5]) == (
        "the queens 5:5 and 6:6 share a diagonal (row - column = 0)")


def test_verify_names_the_shape_and_columns_off_the_board():
    assert construct.verify([1, 3, 0, 2], 5) == "a board of n=5 has 5 rows, got 4"
    assert construct.verify([]) == "a board needs at least one row"
    assert construct.verify([1, 3, 0, 4]) == "row 4's queen is in column 5, off the 4x4 board (columns 1..4)"
    assert construct.verify([1, -1, 0, 2]).startswith("row 2's queen is in column 0, off the 4x4 board")
    assert construct.verify([[1, 3], [0, 2]]).endswith("got an array of shape (2, 2)")
    assert construct.verify([1.0, 3.0, 0.0, 2.0]) == "a board's columns are whole numbers, got float64 values"
    assert construct.verify([True]) == "a board's columns are whole numbers, got bool values"
    assert construct.verify([1, 3, 0, 2**70]).startswith("a board's columns are whole numbers")


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 9).flatmap(lambda n: st.lists(st.integers(-1, n), min_size=n, max_size=n)))
def test_verify_agrees_with_the_plain_rules(board):
    """Any small array: valid exactly when rules.is_solution says so, and a refusal names the
    first problem (by kind, then by its later row) found by brute force."""
    n = len(board)
    problem = construct.verify(board)
    assert (problem == "") == rules.is_solution(tuple(board), n)
    if problem == "" or any(not 0 <= c < n for c in board):
        return
    kind, pairs = next((k, p) for k, p in clashes(tuple(board)).items() if p)
    r1, r2 = min(pairs, key=lambda p: (p[1], p[0]))
    assert problem.startswith(f"the queens {r1 + 1}:{board[r1] + 1} and {r2 + 1}:{board[r2] + 1} share ")
    assert ("column" if kind == "column" else kind) in problem


# --- the construction -----------------------------------------------------------------------------


def test_the_construction_is_valid_for_every_n_up_to_2000():
    for n in [1, *range(4, 2001)]:
        b = construct.board(n)
        assert b.dtype == np.int32 and b.shape == (n,)
        assert construct.verify(b, n) == "", n
        if n <= 60:  # the plain rules, O(n^2) in Python
            assert rules.is_solution(tuple(b.tolist()), n), n


@pytest.mark.parametrize("r", range(12))
def test_the_construction_is_valid_in_every_residue_class_mod_12(r):
    # mod 12 covers mod 6; a large n of each class and the smallest ones the plain rules replay
    small = [n for n in range(r, 80, 12) if n >= 4 or n == 1]
    for n in small:
        assert rules.is_solution(tuple(construct.board(n).tolist()), n), n
    n = 12 * 8_333 + r
    assert construct.verify(construct.board(n), n) == "", n


def test_big_boards_are_valid():
    for n in (10**5, 10**5 + 3, 10**5 + 4):  # residues 4, 1 and 2 mod 6
        s = construct.solve(n)
        assert s.n == n and construct.verify(s.columns, n) == ""


def test_no_board_for_2_and_3():
    for n in (2, 3):
        with pytest.raises(construct.NoBoard, match=f"^no board exists for n={n}: "):
            construct.solve(n)
        assert not any(rules.is_solution(p, n) for p in itertools.permutations(range(n)))


@pytest.mark.parametrize(("n", "message"), [
    (0, "-n must be at least 1, got 0"),
    (-5, "-n must be at least 1, got -5"),
    (10**7 + 1, "-n must be at most 10,000,000 to build a board, got 10000001"),
    (10**40, "-n must be at most 10,000,000 to build a board, got 10000000000000000000..."),
    (8.0, "-n must be a whole number, got 8.0"),
    ("8", "-n must be a whole number, got '8'"),
    (True, "-n must be a whole number, got True"),
])
def test_bad_sizes_are_refused_in_the_command_lines_words(n, message):
    with pytest.raises(ValueError) as e:
        construct.solve(n)
    assert str(e.value) == message


def test_a_wrong_construction_is_never_returned(monkeypatch):
    monkeypatch.setattr(construct, "board", lambda n: np.arange(n, dtype=np.int32))
    with pytest.raises(CheckFailed, match="the board of n=8 is wrong: the queens 1:1 and 2:2"):
        construct.solve(8)
    r = run_cli("queens", "solve", "-n", "8")
    assert (r.code, r.out) == (1, "")
    assert r.err.startswith("puzzlesearch: check failed: the constructed board's replay: the board of n=8 ")


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 300_000))
def test_every_constructed_board_is_valid(n):
    if n in (2, 3):
        with pytest.raises(construct.NoBoard):
            construct.board(n)
        return
    b = construct.board(n)
    assert construct.verify(b, n) == ""
    assert np.array_equal(np.sort(b), np.arange(n))  # a permutation, independently of verify


def test_text_formats():
    b = construct.board(4)
    assert "".join(construct.text(b)) == "2 4 1 3\n"
    assert "".join(construct.text(b, "rows")) == ".Q..\n...Q\nQ...\n..Q.\n"
    assert "".join(construct.text(b, "board")).splitlines()[0] == "· ♛ · ·"
    big = construct.board(3 * construct.CHUNK + 5)  # pieces join into one line
    line = "".join(construct.text(big))
    assert line.count("\n") == 1 and [int(c) - 1 for c in line.split()] == big.tolist()
    with pytest.raises(ValueError, match="^--format rows draws boards up to n = 1000 "):
        list(construct.text(construct.board(1001), "rows"))


# --- the command line -----------------------------------------------------------------------------


def test_solve_prints_the_columns_on_one_line_replayed_by_the_rules():
    for n in (1, 4, 5, 8, 9, 14, 15, 20, 33):
        r = run_cli("queens", "solve", "-n", str(n))
        assert r.code == 0 and r.err == "", r.err
        assert r.out.endswith("\n") and r.out.count("\n") == 1
        board = tuple(int(c) - 1 for c in r.out.split())
        assert rules.is_solution(board, n), (n, r.out)


def test_solve_formats_draw_the_same_board():
    cols = run_cli("queens", "solve", "-n", "8").out
    board = tuple(int(c) - 1 for c in cols.split())
    rows = run_cli("queens", "solve", "-n", "8", "--format", "rows").out.splitlines()
    assert rows == ["." * c + "Q" + "." * (7 - c) for c in board]
    drawn = run_cli("queens", "solve", "-n", "8", "--format", "board").out.splitlines()
    assert [line.split().index("♛") for line in drawn] == list(board)


def test_solve_json():
    r = run_cli("queens", "solve", "-n", "10", "--json")
    d = r.json()
    assert list(d) == ["n", "columns", "verified", "seconds"]
    assert d["n"] == 10 and d["verified"] is True and d["seconds"] >= 0
    assert rules.is_solution(tuple(c - 1 for c in d["columns"]), 10)
    big = run_cli("queens", "solve", "-n", str(2 * construct.CHUNK + 1), "--json").json()
    assert construct.verify(np.array(big["columns"]) - 1, 2 * construct.CHUNK + 1) == ""


def test_solve_out_writes_the_file_atomically(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text("an old board\n")
    r = run_cli("queens", "solve", "-n", "1000", "--out", path)
    assert r.code == 0 and r.err == ""
    assert r.out == f"n=1000  verified  out={path}\n"
    text = path.read_text()
    assert text == run_cli("queens", "solve", "-n", "1000").out  # the file holds what stdout would
    assert rules.is_solution(tuple(int(c) - 1 for c in text.split()), 1000)
    r = run_cli("queens", "solve", "-n", "12", "--out", path, "--format", "rows", "--json")
    d = r.json()
    assert d == {"n": 12, "out": str(path), "verified": True, "seconds": d["seconds"]}
    board = tuple(line.index("Q") for line in path.read_text().splitlines())
    assert rules.is_solution(board, 12)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.txt"]  # no temporary file left


def test_a_failed_write_leaves_the_old_file_whole(tmp_path, monkeypatch):
    path = tmp_path / "board.txt"
    path.write_text("an old board\n")

    def disk_full(cols, fmt="columns"):
        yield "1 2 "
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(construct, "text", disk_full)
    r = run_cli("queens", "solve", "-n", "8", "--out", path)
    assert r.code == 1 and r.out == ""
    assert r.err == ("puzzlesearch: the board was not saved: no space left on "
                     f"{device(path)} for {show(path)}\n")
    assert path.read_text() == "an old board\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.txt"]


def test_an_unwritable_out_is_refused_before_the_construction(tmp_path, monkeypatch):
    def never(n):
        raise AssertionError("built before --out was checked")

    monkeypatch.setattr(construct, "solve", never)
    for out in ("/nonexistent/dir/b.txt", str(tmp_path), "/proc/nope/b.txt", ""):
        r = run_cli("queens", "solve", "-n", "8", "--out", out)
        assert_bad_input(r)
        assert "--out" in r.err


@pytest.mark.parametrize("n", ["2", "3"])
def test_no_board_is_one_line_and_exit_1(n):
    for extra in ([], ["--json"], ["--format", "rows"]):
        r = run_cli("queens", "solve", "-n", n, *extra)
        assert r.code == 1 and r.out == ""
        assert r.err.startswith(f"puzzlesearch: no board exists for n={n}: ") and r.err.count("\n") == 1


@pytest.mark.parametrize("args", [
    ["-n", "0"], ["-n", "-4"], ["-n", "x"], ["-n", "1.5"], ["-n", "10000001"],
    ["-n", "100000000000000000000"], ["-n", "8", "--format", "bogus"], [],
    ["-n", "1001", "--format", "board"], ["-n", "5000", "--format", "rows", "--out", "/tmp/x"],
])
def test_bad_input_is_one_line_and_exit_2(args):
    r = run_cli("queens", "solve", *args)
    assert_bad_input(r)


def test_a_board_of_a_million_through_the_out_file(tmp_path):
    n = 10**6
    path = tmp_path / "big.txt"
    r = run_cli("queens", "solve", "-n", str(n), "--out", path)
    assert r.code == 0, r.err
    cols = np.array(path.read_text().split(), dtype=np.int64)
    assert cols.size == n and construct.verify(cols - 1, n) == ""


# --- show beyond the search -----------------------------------------------------------------------


def test_show_beyond_the_search_shows_the_constructed_board():
    n = construct.SEARCH_N + 1
    r = run_cli("queens", "show", "-n", str(n), "--format", "columns")
    assert r.code == 0 and r.err == ""  # the note goes to stderr only on a terminal
    assert r.out == run_cli("queens", "solve", "-n", str(n)).out
    d = run_cli("queens", "show", "-n", str(n), "--json", "--limit", "3").json()
    assert d["shown"] == 1 and len(d["solutions"]) == 1 and d["limit"] == 3
    assert rules.is_solution(tuple(c - 1 for c in d["solutions"][0]), n)
    assert d["note"].startswith(f"n > {construct.SEARCH_N}: one board built by the explicit construction")


def test_show_1000_draws_a_valid_board():
    r = run_cli("queens", "show", "-n", "1000")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert len(lines) == 1000 and all(line.count("♛") == 1 for line in lines)
    board = tuple(line.split().index("♛") for line in lines)
    assert construct.verify(board, 1000) == ""


def test_show_up_to_the_search_limit_still_lists_in_order():
    r = run_cli("queens", "show", "-n", "12", "--limit", "1", "--format", "columns")
    assert r.out == "1 3 5 8 10 12 6 11 2 7 9 4\n"  # the lexicographically first, not the constructed


@pytest.mark.parametrize("args", [
    ["-n", "100", "--unique"], ["-n", "100", "--fixed", "1:1"], ["-n", "10000001"], ["-n", "1001"],
    ["-n", "40", "--limit", "-1"], ["-n", "40", "--fixed", ""],
])
def test_show_refusals_beyond_the_search(args):
    assert_bad_input(run_cli("queens", "show", *args))


def test_random_boards_of_the_cli_are_checked_by_the_rules():
    rng = random.Random(14)
    for n in rng.sample(range(4, 200), 8):
        out = run_cli("queens", "solve", "-n", str(n), "--json").out
        assert rules.is_solution(tuple(c - 1 for c in json.loads(out)["columns"]), n)
