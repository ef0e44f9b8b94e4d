"""The community's puzzle files: ksolve/twsearch definitions (.tws, .def) and cubing.js's
KPuzzle JSON, read as their authors write them (tests/data/perm/SOURCES.md), and
`perm convert` between them and puzzlesearch's TOML."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import assert_bad_input, run_cli
from puzzlesearch.perm import formats
from puzzlesearch.perm.api import Puzzle
from puzzlesearch.perm.rules import bfs_histogram

DATA = Path(__file__).parent.parent / "data" / "perm"

# States by Schreier-Sims against published values, or values the file implies from them
COUNTS = {
    # the Pocket Cube, 3,674,160 (Scherphuis), times its 24 orientations in space: the file
    # turns all six faces and holds no corner
    "2x2x2.tws": 3_674_160 * 24,
    "2x2x2.kpuzzle.json": 3_674_160 * 24,  # U with the rotations x and y: the same group
    "2x2x2-fixed.def": 3_674_160,  # DBL held: the Pocket Cube itself
    # the Skewb, 3,149,280 (Scherphuis), times the 12 orientations its corner turns reach
    "skewb.tws": 3_149_280 * 12,
    # the Pyraminx with tips, 75,582,720 (Scherphuis), times the 12 rotations of the
    # tetrahedron that its large-layer turns bring, less a factor 3: the sum of the axial
    # pieces' twists is tied to the rotation's class in A4 / V4 = Z3
    "pyraminx.tws": 75_582_720 * 12 // 3,
    # the Mathieu group M24, 244,823,040 elements (Conway's generators)
    "m24conway.tws": 244_823_040,
    # identical pieces: C(10, 4) colourings of the corners times C(11, 5) of the edges
    "puzzlernovice.tws": 210 * 462,
}


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_info_counts_the_peer_files_as_published(name):
    r = run_cli("perm", "info", str(DATA / name), "--json")
    assert r.code == 0, r.err
    assert r.json()["states"] == COUNTS[name]


def test_god_on_a_twsearch_file_matches_the_plain_search():
    path = DATA / "puzzlernovice.tws"
    census = run_cli("perm", "god", str(path), "--json", "--show", "0").json()
    assert list(census["histogram"]) == bfs_histogram(Puzzle.from_file(path).rules)
    assert sum(census["histogram"]) == COUNTS["puzzlernovice.tws"]


@pytest.mark.slow
def test_a_ksolve_def_of_the_pocket_cube_is_the_example():
    ksolve_cube = Puzzle.from_file(DATA / "2x2x2-fixed.def").god(show=0)
    assert ksolve_cube.histogram == Puzzle.example("cube2-htm").god(show=0).histogram
    assert ksolve_cube.diameter == 11


def test_powers_are_named_as_ksolve_names_them():
    moves = Puzzle.from_file(DATA / "2x2x2-fixed.def").moves
    assert moves == ("U", "U2", "U'", "R", "R2", "R'", "F", "F2", "F'")


def test_a_ksolve_moves_orientation_goes_with_the_piece_it_moves(tmp_path):
    # ksolve's moves index orientations by the slot a piece leaves (twsearch's
    # ksolveformat notes): the piece leaving slot 1 lands on slot 3, twisted
    path = tmp_path / "t.tws"
    path.write_text("Set A 3 2\nMove X\nA\n2 3 1\n1 0 0\nEnd\n")
    assert Puzzle.from_file(path).play("X") == "A.2 A.3 A.1+1"


def test_a_kpuzzle_moves_orientation_is_given_where_the_piece_lands(tmp_path):
    # cubing.js adds orientationDelta[i] to the piece arriving at slot i
    path = tmp_path / "t.json"
    path.write_text('{"orbits": [{"orbitName": "A", "numPieces": 3, "numOrientations": 2}],'
                    '"moves": {"X": {"A": {"permutation": [1, 2, 0], "orientationDelta": [1, 0, 0]}}}}')
    assert Puzzle.from_file(path).play("X") == "A.2+1 A.3 A.1"


def test_older_kpuzzle_files_are_read(tmp_path):
    path = tmp_path / "old.json"
    path.write_text('{"name": "old", "orbits": {"A": {"numPieces": 3, "numOrientations": 2}},'
                    '"startStateData": {"A": {"pieces": [0, 0, 1], "orientation": [0, 0, 0]}},'
                    '"moves": {"X": {"A": {"permutation": [1, 2, 0], "orientation": [1, 0, 0]}}}}')
    puzzle = Puzzle.from_file(path)
    assert puzzle.solved == "0 0 1"
    assert puzzle.play("X") == "0+1 1 0"


ROUND_TRIP = [*(str(DATA / n) for n in sorted(COUNTS)), "cube2-htm", "pyraminx", "burnt-pancakes-6"]


@pytest.mark.parametrize("source", ROUND_TRIP)
@pytest.mark.parametrize("to", list(formats.FORMATS))
def test_convert_round_trips(source, to, tmp_path):
    first = Puzzle.from_file(source).rules
    there = tmp_path / f"there{formats.FORMATS[to]}"
    r = run_cli("perm", "convert", source, "--to", to, "--out", str(there))
    assert r.code == 0 and r.err == "", r.err
    own = {"": "toml", ".toml": "toml", ".def": "tws", ".tws": "tws", ".json": "json"}
    back_to = own[Path(source).suffix]
    back = tmp_path / f"back{formats.FORMATS[back_to]}"
    assert run_cli("perm", "convert", str(there), "--to", back_to, "--out", str(back)).code == 0
    for path in (there, back):
        assert formats.difference(first, Puzzle.from_file(path).rules) == ""
    if source in (str(DATA / "2x2x2-fixed.def"), "pyraminx", str(DATA / "puzzlernovice.tws")):
        counts = [run_cli("perm", "info", str(p), "--json").json()["states"] for p in (source, there, back)]
        assert counts[0] == counts[1] == counts[2]


def test_convert_prints_without_out():
    r = run_cli("perm", "convert", str(DATA / "2x2x2-fixed.def"), "--to", "toml")
    assert r.code == 0
    assert 'R = "(CORNERS.1+1 CORNERS.4+2 CORNERS.7+1 CORNERS.5+2)"' in r.out
    assert Puzzle.from_file(DATA / "2x2x2-fixed.def").rules.name in r.out
    data = run_cli("perm", "convert", "cube2-htm", "--to", "tws", "--json").json()
    assert data["to"] == "tws" and data["text"].startswith("# The Pocket Cube")


def test_convert_refuses_what_a_format_cannot_hold():
    r = run_cli("perm", "convert", "cube2-qtm", "--to", "tws")
    assert_bad_input(r)
    assert "cannot be written as tws" in r.err and "metric \"inverses\"" in r.err


@pytest.mark.parametrize("args, says", [
    (("cube2-htm", "--to", "xml"), "--to 'xml'"),
    (("cube2-htm", "--to", "toml", "--out", "/"), "--out"),
    (("cube2-htm", "--to", "toml", "--out", "/no/such/folder/x.toml"), "--out"),
])
def test_convert_bad_arguments(args, says):
    r = run_cli("perm", "convert", *args)
    assert_bad_input(r)
    assert says in r.err


BAD = [
    ("t.tws", "Set A 3 1\nMove X\nA\n2 3 1\n", 2, "Move X has no End"),
    ("t.tws", "Set A 3 1\nMove X\nA\n2 3\nEnd\n", 3, "expected 3 numbers"),
    ("t.tws", "Set A 3 1\nMove X\nB\n2 3 1\nEnd\n", 3, "unknown set 'B'"),
    ("t.tws", "Set A 3 1\nMove X\nA\n2 2 1\nEnd\n", 3, "not a permutation of 1..3"),
    ("t.tws", "Set A 3 2\nMove X\nA\n2 3 1\n0 2 0\nEnd\n", 3, "orientation 2 is out of range"),
    ("t.tws", "Set A 3 1\nMove X\nA\n2 3 1\nEnd\nBlock\nA\n1 2\nEnd\n", 6,
     "Block: not supported by puzzlesearch"),
    ("t.def", "Set A 3 1\nIllegal\nEnd\n", 2, "Illegal: not supported by puzzlesearch"),
    ("t.tws", "Set A 3 1\nMoveAlias X Y\n", 2, "MoveAlias: not supported by puzzlesearch"),
    ("t.tws", "Set A 3 1\nMove X\nA\n1 2 3\nEnd\n", 2, "move X changes nothing"),
    ("t.tws", "Set A 3 1\nSolved\nA\n1 2 3\n1 0 0\nEnd\nMove X\nA\n2 3 1\nEnd\n", 3, "out of range"),
    ("t.tws", "Set A 3 1\nFoo\n", 2, "unknown command 'Foo'"),
    ("t.json", '{"orbits": [{"orbitName": "A", "numPieces": 3, "numOrientations": 1}],\n'
               '"moves": {"X": {"B": {"permutation": [1, 2, 0]}}}}', 2, "unknown orbit 'B'"),
    ("t.json", '{"orbits": [{"orbitName": "A", "numPieces": 3, "numOrientations": 1}],\n'
               '"moves": {"X": {"A": {"permutation": [1, 1, 0]}}}}', 2, "not a permutation of 0..2"),
    ("t.json", '{"orbits": [{"orbitName": "A", "numPieces": 3, "numOrientations": 2}],\n'
               '"moves": {"X": {"A": {"permutation": [1, 2, 0], "orientationDelta": [0, 5, 0]}}}}', 2,
     "5 is out of range"),
    ("t.json", '{"orbits": [{"orbitName": "A", "numPieces": 3, "numOrientations": 1}],\n'
               '"moves": {"X": {"A": {"permutation": [1, 2, 0]}}},\n"derivedMoves": {"Y": "X X"}}', 3,
     "derivedMoves: not supported by puzzlesearch"),
    ("t.json", '{"orbits": [\n', 2, "not valid JSON"),
    ("t.json", '{"orbits": [{"orbitName": "A", "numPieces": "3", "numOrientations": 1}],\n'
               '"moves": {"X": {"A": {"permutation": [1, 2, 0]}}}}', 1, "are whole numbers, got '3'"),
    ("t.json", '{"orbits": [{"orbitName": "A", "numPieces": 3, "numOrientations": 1}],\n'
               '"moves": {"X": {"A": {"perm": [1, 2, 0]}}}}', 2, "unknown key 'perm'"),
    ("t.json", '{"orbits": [{"orbitName": "A", "numPieces": 3, "numOrientations": 1}],\n'
               '"moves": {"X": {"A": {"permutation": [1, 2, 0]}}}, "scramble": 1}', 2,
     "unknown key 'scramble'"),
    # a file of another kind under the extension
    ("t.tws", '{"orbits": [{"orbitName": "A", "numPieces": 3, "numOrientations": 1}]}', 1,
     "this looks like JSON"),
    ("t.tws", '# a puzzle\nname = "x"\n[pieces.a]\npositions = 3\n', 2, "this looks like TOML"),
    ("t.def", '[pieces.a]\npositions = 3\n', 1, "this looks like TOML"),
    ("t.json", 'name = "x"\n', 1, "not valid JSON"),
]


@pytest.mark.parametrize("name, text, line, says", BAD)
@pytest.mark.parametrize("command", ["info", "convert"])
def test_bad_files_are_one_line_with_their_line(name, text, line, says, command, tmp_path):
    path = tmp_path / name
    path.write_text(text)
    extra = ("--to", "toml") if command == "convert" else ()
    r = run_cli("perm", command, str(path), *extra)
    assert_bad_input(r)
    assert f"{path}:{line}: " in r.err and says in r.err, r.err


@pytest.mark.parametrize("name, content, says", [
    ("t.tws", bytes(range(256)), "not a text file"),
    ("t.json", b"\x89PNG\r\n\x1a\n\xff\x00", "not a text file"),
    ("t.json", b'{"orbits": [{"orbitName": "A", "numPieces": 3, "numOrientations": 1}]}', "no moves"),
    ("t.json", b"[1, 2]", "a KPuzzle definition is a JSON object"),
    ("t.scr", b"ScrambleState s\nA\n1 2 3\nEnd\n", "a twsearch scramble"),
])
def test_files_that_are_no_definition_are_one_line(name, content, says, tmp_path):
    path = tmp_path / name
    path.write_bytes(content)
    r = run_cli("perm", "info", str(path))
    assert_bad_input(r)
    assert f"{path}:" in r.err and says in r.err, r.err


@pytest.mark.parametrize("to", ["toml", "tws", "json"])
def test_a_byte_order_mark_is_read_in_every_format(to, tmp_path):
    """Some editors start a UTF-8 file with a byte-order mark: the file reads the same."""
    cube = Puzzle.example("cube2-htm")
    path = tmp_path / f"cube.{to}"
    path.write_bytes(b"\xef\xbb\xbf" + cube.convert(to).encode())
    assert Puzzle.from_file(path).info().states == 3674160
    r = run_cli("perm", "info", str(path))
    assert r.code == 0, r.err
