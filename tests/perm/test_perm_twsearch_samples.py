"""twsearch's sample definitions as their author wrote them (tests/data/perm/SOURCES.md):
the states by Schreier-Sims against the plain breadth-first search's, the census against
the same search, orientations written ``?``, and the samples puzzlesearch refuses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import assert_bad_input, run_cli
from puzzlesearch.perm import Puzzle
from puzzlesearch.perm.rules import bfs_histogram

DATA = Path(__file__).parent.parent / "data" / "perm"

#: small samples: two sets and moves named by an edge (FD) in pyramorphix.tws (96 states),
#: moves named from a digit (1H, 2V) in lo33.tws
SMALL = ["pyramorphix.tws", pytest.param("lo33.tws", marks=pytest.mark.slow)]  # 181,440: 10 s plain


@pytest.mark.parametrize("name", SMALL)
def test_a_sample_counts_and_searches_as_the_plain_search(name):
    path = DATA / name
    plain = bfs_histogram(Puzzle.from_file(path).rules)
    info = run_cli("perm", "info", str(path), "--json")
    assert info.code == 0, info.err
    assert info.json()["states"] == sum(plain)
    census = run_cli("perm", "god", str(path), "--json", "--show", "0")
    assert census.code == 0, census.err
    assert census.json()["histogram"] == plain


def _with_solved_orientations(tmp_path: Path, line: str) -> Path:
    """The 2x2x2 sample with its Solved block's orientation line replaced."""
    text = (DATA / "2x2x2.tws").read_text()
    solved = "Solved\nCORNER\n1 2 3 4 5 6 7 8\n0 0 0 0 0 0 0 0\n"
    assert solved in text
    path = tmp_path / "2x2x2-unoriented.tws"
    path.write_text(text.replace(solved, f"Solved\nCORNER\n1 2 3 4 5 6 7 8\n{line}\n"))
    return path


def test_question_marks_make_the_orientations_not_count(tmp_path):
    # twsearch reads "?" as an orientation that does not count: the corners are then
    # their 8! arrangements, and twsearch -g counts 1 18 243 2646 12516 17624 7080 192
    path = _with_solved_orientations(tmp_path, "? ? ? ? ? ? ? ?")
    puzzle = Puzzle.from_file(path)
    assert [(len(s.positions), s.twists) for s in puzzle.rules.sets] == [(8, 1)]
    census = run_cli("perm", "god", str(path), "--json", "--show", "0").json()
    assert census["histogram"] == bfs_histogram(puzzle.rules) == [1, 18, 243, 2646, 12516, 17624, 7080, 192]
    assert run_cli("perm", "info", str(path), "--json").json()["states"] == 40_320


def test_question_marks_sharing_an_orbit_with_orientations_are_refused(tmp_path):
    # puzzlesearch gives every piece that can reach a slot the same orientations
    path = _with_solved_orientations(tmp_path, "? 0 0 0 0 0 0 0")
    r = run_cli("perm", "info", str(path))
    assert_bad_input(r)
    assert f"{path}:23: Solved: CORNER: the moves take a piece of ? orientation (CORNER.1)" in r.err
    assert "not supported by puzzlesearch" in r.err


@pytest.mark.parametrize("name, line, says", [
    # orientations "?" on some edges, which the moves take to where the others are
    ("maltese.tws", 28, "Solved: EDGES: the moves take a piece of ? orientation (EDGES.2)"),
    # a MoveSequence: moves as sequences of other moves
    ("trapentrix.tws", 27, "MoveSequence: not supported by puzzlesearch"),
])
def test_samples_with_what_puzzlesearch_does_not_take_are_refused_in_one_line(name, line, says):
    r = run_cli("perm", "info", str(DATA / name))
    assert_bad_input(r)
    assert f"{DATA / name}:{line}: {says}" in r.err


def test_a_twsearch_scramble_file_is_not_a_puzzle(tmp_path):
    path = tmp_path / "flip.scr"
    path.write_text("ScrambleState flip\nEDGE\n1 2 3\n1 1 0\nEnd\n")
    r = run_cli("perm", "info", str(path))
    assert_bad_input(r)
    assert f"{path}: a twsearch scramble" in r.err and "not a puzzle definition" in r.err


def _kpuzzle_with_orientation_mod(tmp_path: Path, mods: list[int]) -> Path:
    """The KPuzzle 2x2x2 sample with an orientationMod in its default pattern."""
    data = json.loads((DATA / "2x2x2.kpuzzle.json").read_text())
    data["defaultPattern"]["CORNERS"]["orientationMod"] = mods
    path = tmp_path / "2x2x2-mod.json"
    path.write_text(json.dumps(data, indent=1))
    return path


def test_kpuzzle_orientation_mod_1_is_an_orientation_that_does_not_count(tmp_path):
    # cubing.js's orientationMod 1, as twsearch's "?": the corners keep only their places
    path = _kpuzzle_with_orientation_mod(tmp_path, [1] * 8)
    puzzle = Puzzle.from_file(path)
    assert [(len(s.positions), s.twists) for s in puzzle.rules.sets] == [(8, 1)]
    plain = bfs_histogram(puzzle.rules)
    assert sum(plain) == 40_320
    assert run_cli("perm", "god", str(path), "--json", "--show", "0").json()["histogram"] == plain
    # 0 and numOrientations count the orientation whole: the sample's own puzzle
    whole = Puzzle.from_file(_kpuzzle_with_orientation_mod(tmp_path, [0, 3] * 4)).rules
    assert whole.sets == Puzzle.from_file(DATA / "2x2x2.kpuzzle.json").rules.sets


@pytest.mark.parametrize("mods, says", [
    ([1] + [0] * 7, "the moves take a piece whose orientation does not count (CORNERS.1)"),
    ([0] * 7 + [2], "orientationMod: 2 (an orientation known mod 2 of 3): not supported"),
    ([4] * 8, "4 is out of range"),
])
def test_kpuzzle_orientation_mods_puzzlesearch_cannot_hold_are_refused(mods, says, tmp_path):
    path = _kpuzzle_with_orientation_mod(tmp_path, mods)
    r = run_cli("perm", "info", str(path))
    assert_bad_input(r)
    assert f"{path}:" in r.err and says in r.err, r.err
