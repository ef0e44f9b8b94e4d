"""The puzzle file: its minimal form, the metrics, fixed pieces and turns of the whole
puzzle, colours, and every mistake refused in one line with its file and line."""

from __future__ import annotations

import textwrap

import pytest

from puzzlesearch.perm import Puzzle, api, puzzlefile, rules

MINIMAL = """\
name = "demo"
[pieces.p]
positions = ["a", "b", "c", "d"]
[moves]
X = "(a b c)"
Y = "(c d)"
"""


def write(tmp_path, text: str, name: str = "puzzle.toml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def test_the_minimal_form_works_as_written(tmp_path):
    puzzle = Puzzle.from_file(write(tmp_path, MINIMAL))
    assert puzzle.name == "demo"
    assert puzzle.moves == ("X", "X'", "Y")  # X has order 3: X and X'; Y is its own inverse
    assert puzzle.solved == "a b c d"
    assert rules.bfs_histogram(puzzle.rules) == [1, 3, 4, 6, 6, 3, 1]


def test_a_move_sends_the_piece_at_each_position_to_the_next():
    puzzle = Puzzle(pieces={"p": ["a", "b", "c"]}, moves={"X": "(a b c)"}, metric="given")
    assert puzzle.play("X") == "c a b"  # a's piece is now at b, b's at c, c's at a


def test_twists_are_added_to_the_arriving_piece_mod_k():
    puzzle = Puzzle(pieces={"p": {"positions": ["a", "b"], "twists": 3}}, moves={"X": "(a b+2)"})
    assert puzzle.play("X") == "b a+2"
    assert puzzle.play("X X") == "a+2 b+2"
    assert puzzle.play("X2") == "a+2 b+2"
    assert puzzle.moves == ("X", "X2", "X3", "X2'", "X'")  # order 6


@pytest.mark.parametrize(("metric", "names"), [
    ("powers", ("R", "R2", "R'")),
    ("inverses", ("R", "R'")),
    ("given", ("R",)),
])
def test_the_metric_says_which_powers_are_moves(metric, names):
    puzzle = Puzzle(pieces={"p": 4}, moves={"R": "(1 2 3 4)"}, metric=metric)
    assert puzzle.moves == names


def test_a_move_may_have_its_own_metric():
    puzzle = Puzzle(pieces={"p": 4}, moves={"R": "(1 2 3 4)", "S": {"cycles": "(1 2 3)", "metric": "given"}})
    assert puzzle.moves == ("R", "R2", "R'", "S")


def test_positions_may_be_a_count():
    assert Puzzle(pieces={"cards": 3}, moves={"1": "(1 2)"}).solved == "1 2 3"


def test_a_scramble_may_name_any_power_of_a_move():
    puzzle = Puzzle(pieces={"p": 4}, moves={"R": "(1 2 3 4)"}, metric="inverses")
    assert puzzle.play("R2") == puzzle.play("R R") == puzzle.play("R2'")
    assert puzzle.play("R3") == puzzle.play("R'")
    with pytest.raises(ValueError, match="'Q' is not a move of puzzle"):
        puzzle.play("R Q")


def test_identical_pieces_are_named_by_their_colour():
    puzzle = Puzzle(pieces={"cards": {"positions": 4, "solved": ["r", "r", "b", "b"]}},
                    moves={"T": "(1 2 3 4)"}, metric="given")
    assert puzzle.solved == "r r b b"
    assert puzzle.play("T") == "b r r b"
    assert puzzle.info().states == 4


def test_fixed_pieces_with_rotations_turn_the_puzzle_back(tmp_path):
    # the 2x2x2 cube with all six faces and two turns of the whole cube (x, y): holding dbl,
    # D, L and B become turns of U, R and F once the cube is turned back, nothing new
    cube = Puzzle.example("cube2-htm").rules
    text = api.find("cube2-htm").read_text()
    text += 'D = "(dfr dbr dbl dfl)"\nL = "(ufl+2 dfl+1 dbl+2 ubl+1)"\nB = "(ubl+2 dbl+1 dbr+2 ubr+1)"\n'
    text += ('[rotations]\nx = "(ufr+1 ubr+2 dbr+1 dfr+2)(ufl+2 ubl+1 dbl+2 dfl+1)"\n'
             'y = "(ufr ufl ubl ubr)(dfr dfl dbl dbr)"\n')
    six = Puzzle.from_file(write(tmp_path, text))
    assert six.moves == cube_moves(cube)  # D, L, B and their powers: the same moves as U, R, F
    assert {(m.perm, m.twist) for m in six.rules.moves} == {(m.perm, m.twist) for m in cube.moves}
    assert six.info().states == 3_674_160
    assert six.play("D") == six.play("U")  # D, then the cube turned so that dbl is home again
    assert six.rules.fixed == ("dbl",)


def cube_moves(cube) -> tuple[str, ...]:
    return tuple(m.name for m in cube.moves)


def test_a_move_that_moves_a_fixed_piece_needs_rotations():
    with pytest.raises(ValueError, match=r"moves\.X: move X moves the fixed position a; give \[rotations\]"):
        Puzzle(pieces={"p": ["a", "b"]}, moves={"X": "(a b)"}, fixed=["a"])
    with pytest.raises(ValueError, match="2 turns of \\[rotations\\] bring the fixed pieces back"):
        Puzzle(pieces={"p": ["a", "b", "c"]}, moves={"X": "(a b c)"}, fixed=["a"],
               rotations={"t": "(a b c)", "s": "(b c)"})


# --- mistakes: one line, the file and the line ---------------------------------------------------------

BAD = [
    # (the file, the line it names, what the message says)
    (MINIMAL.replace('Y = "(c d)"', 'Y = "(c e)"'), 6,
     "move Y: unknown position 'e' (the positions are a, b, c, d)"),
    (MINIMAL.replace('Y = "(c d)"', 'Y = "(c d c)"'), 6,
     "move Y is not a permutation: position c appears twice"),
    (MINIMAL.replace('positions = ["a", "b", "c", "d"]', 'positions = ["a", "b", "c", "d"]\ntwists = 3')
     .replace('X = "(a b c)"', 'X = "(a b+3 c)"'), 6,
     "move X: b+3: the orientation 3 is out of range, p has twists 0..2"),
    (MINIMAL.replace('X = "(a b c)"', 'X = "(a b+1 c)"'), 5,
     "move X: b+1: the orientation 1 is out of range, p has no twist (twists = 1)"),
    (MINIMAL.replace("[moves]\n", "").replace('X = "(a b c)"\nY = "(c d)"\n', ""), None,
     "no [moves] table: a puzzle needs its moves"),
    ('name = "x"\n[moves]\nX = "(a b)"\n', None, "no [pieces] table"),
    (MINIMAL.replace('Y = "(c d)"', 'Y = "c d"'), 6,
     "move Y: expected cycles such as \"(a b c)(d e)\", found 'c d'"),
    (MINIMAL.replace('Y = "(c d)"', 'Y = "(a b c)(a)"'), 6, "position a appears twice"),
    (MINIMAL.replace('Y = "(c d)"', 'Y = "()"'), 6, "move Y: an empty cycle ()"),
    (MINIMAL.replace('Y = "(c d)"', 'Y = "(a)"'), 6, "move Y changes nothing"),
    (MINIMAL.replace('name = "demo"', 'name = "demo"\nmetric = "half"'), 2,
     "metric must be one of \"powers\""),
    (MINIMAL.replace('name = "demo"', 'name = "demo"\ncolour = "red"'), 2,
     "unknown key 'colour' in a puzzle"),
    (MINIMAL.replace('positions = ["a", "b", "c", "d"]', 'positions = ["a", "b", "b"]'), 3,
     "position b is listed twice"),
    (MINIMAL + '[pieces.q]\npositions = ["a"]\n', 8, "position a is in both p and q"),
    (MINIMAL.replace('positions = ["a", "b", "c", "d"]', 'positions = ["a", "b", "c", "d"]\nsolved = ["r"]'),
     4, "solved must list the colour at each of the 4 positions"),
    (MINIMAL.replace('positions = ["a", "b", "c", "d"]', 'positions = ["a b", "c"]'), 3,
     "a position is named by a word without spaces"),
    (MINIMAL.replace('name = "demo"', 'name = "demo"\nfixed = ["z"]'), 2, "fixed: unknown position 'z'"),
    (MINIMAL.replace('name = "demo"', 'name = "demo"\nfixed = ["a"]'), 6,
     "move X moves the fixed position a"),
    (MINIMAL + '[rotations]\nT = "(a b)"\n', 7, "[rotations] turn the puzzle back to its fixed pieces"),
    (MINIMAL.replace('Y = "(c d)"', 'Y = {cycles = "(c d)", power = 2}'), 6, "unknown key 'power' in move Y"),
    (MINIMAL.replace('X = "(a b c)"', 'X = 3'), 5, "move X must be cycles such as"),
    (MINIMAL.replace('Y = "(c d)"', '"X2" = "(c d)"').replace('X = "(a b c)"', 'X = "(a b c d)"'), 6,
     "two moves would be called X2: one of X and one of X2"),
    (MINIMAL.replace("[pieces.p]", "[pieces.p]\ntwists = 0"), 3, "twists must be a whole number from 1"),
    (MINIMAL.replace('positions = ["a", "b", "c", "d"]', "positions = 70")
     .replace('X = "(a b c)"', 'X = "(' + " ".join(map(str, range(1, 71))) + ')"')
     .replace('Y = "(c d)"', ""), 5,
     "move X has order 70: its 69 powers would all be moves; give it metric = \"inverses\" or \"given\""),
    (MINIMAL.replace('X = "(a b c)"', 'X = "(a b c"'), 5, "move X: expected cycles such as"),
    (MINIMAL.replace('[moves]', '[moves'), 4, "not valid TOML"),
]


@pytest.mark.parametrize(("text", "line", "message"), BAD)
def test_a_mistake_names_the_file_and_the_line_in_one_line(tmp_path, text, line, message):
    path = write(tmp_path, text, "bad.toml")
    with pytest.raises(ValueError) as e:
        Puzzle.from_file(path)
    got = str(e.value)
    assert "\n" not in got
    where = f"{path}:{line}: " if line else f"{path}: "
    assert got.startswith(where), (got, where)
    assert message in got, got


def test_key_lines_follow_tables_dotted_keys_and_skip_multiline_values():
    text = textwrap.dedent('''\
        name = "x"   # [not.a.table]
        [pieces.p]
        positions = [
          "a", "b",   # X = "(a b)" is no key
        ]
        pieces.q.twists = 2
        [moves]
        "quoted name" = "(a b)"
        R = { cycles = "(a b)", metric = "given" }
        S = """
        T = "(a b)"
        """
        U = "(a b)"
        ''')
    lines = puzzlefile.key_lines(text)
    assert lines[("name",)] == 1
    assert lines[("pieces", "p", "positions")] == 3
    assert lines[("pieces", "p", "pieces", "q", "twists")] == 6
    assert lines[("moves", "quoted name")] == 8
    assert lines[("moves", "R")] == 9
    assert ("moves", "T") not in lines
    assert lines[("moves", "U")] == 13


def test_a_file_that_is_missing_or_not_text(tmp_path):
    with pytest.raises(ValueError, match="nothere.toml: no such file, nor an example of that name"):
        Puzzle.from_file("nothere.toml")
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ValueError, match="bin.toml: not a text file"):
        Puzzle.from_file(tmp_path / "bin.toml")
    with pytest.raises(ValueError, match="is a folder"):
        Puzzle.from_file(tmp_path)


def test_the_python_tables_name_the_key_at_fault():
    with pytest.raises(ValueError, match=r"^moves\.Y: move Y: unknown position 'e'"):
        Puzzle(pieces={"p": ["a", "b"]}, moves={"X": "(a b)", "Y": "(a e)"})
    with pytest.raises(ValueError, match=r"^pieces\.p\.twists: twists must be"):
        Puzzle(pieces={"p": {"positions": 2, "twists": -1}}, moves={"X": "(1 2)"})


def test_every_example_has_a_name_a_description_and_a_source():
    found = api.examples()
    assert {e.name for e in found} >= {"cube2-htm", "cube2-qtm", "pyraminx", "topspin-12-4", "cube3",
                                       "block-shuffle-10", "block-shuffle-12", "pancakes-8", "pancakes-9",
                                       "pancakes-10", "burnt-pancakes-6", "burnt-pancakes-8"}
    for e in found:
        rules_ = Puzzle.from_file(e.file).rules
        assert e.title and rules_.description and rules_.source, e.name
