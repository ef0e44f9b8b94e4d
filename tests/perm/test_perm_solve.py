"""perm solve: the bidirectional search's solutions are shortest (their length is the
plain search's distance, or the engine's) and replay to the solved puzzle; states are
read and refused in one line."""

from __future__ import annotations

import doctest
import json
import random

import pytest
from perm_cases import random_puzzle

from puzzlesearch import shuffle
from puzzlesearch.engine import layers
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.space import pieces_index
from puzzlesearch.perm import Puzzle, api, fullbfs, layout, rules


def reachable(puzzle: Puzzle, rng: random.Random, count: int) -> list:
    """`count` states reached by random moves from the solved puzzle."""
    r = puzzle.rules
    found = []
    for _ in range(count):
        moves = [rng.choice(r.moves) for _ in range(rng.randint(0, 30))]
        found.append(rules.play(r, r.solved, moves))
    return found


@pytest.mark.parametrize("colours", [False, True])
@pytest.mark.parametrize("seed", range(15))
def test_solutions_are_as_short_as_the_plain_search_finds(seed, colours):
    puzzle = random_puzzle(seed, colours)
    r = puzzle.rules
    rng = random.Random(seed)
    for state in reachable(puzzle, rng, 5):
        solution = puzzle.solve(rules.state_text(r, state))
        assert solution.moves == rules.bfs_distance(r, state) == len(solution.sequence)
        assert rules.play(r, state, [r.move(m) for m in solution.sequence]) == r.solved
        assert solution.path[-1:] in ((), (puzzle.solved,))


def test_directed_moves_block_shuffle_against_shuffle_solve():
    puzzle = Puzzle.example("block-shuffle-10")
    rng = random.Random(7)
    for _ in range(5):
        deck = list(range(1, 11))
        rng.shuffle(deck)
        solution = puzzle.solve(" ".join(map(str, deck)))
        theirs = shuffle.solve(deck=10, block=5, start=deck, goal=list(range(1, 11)))
        assert solution.moves == theirs.moves
        ks = [int(k) for k in solution.sequence]  # the moves are named by their k, as shuffle's
        assert shuffle.rules.play_shuffles(deck, ks, 5) == tuple(range(1, 11))


def test_pancakes_against_pancake_solve():
    puzzle = Puzzle.example("pancakes-10")
    rng = random.Random(3)
    for _ in range(5):
        stack = list(range(1, 11))
        rng.shuffle(stack)
        assert puzzle.solve(" ".join(map(str, stack))).moves == shuffle.solve_pancakes(stack).moves


def test_the_2x2x2_solutions_are_the_engines_distances(tmp_path):
    puzzle = Puzzle.example("cube2-htm")
    r = puzzle.rules
    lay = layout.layout(r)
    space = fullbfs.space(r, lay)
    states = reachable(puzzle, random.Random(11), 6)
    index = [pieces_index(space, [layout.orbit_state(lay, s, o) for o in range(len(lay.orbits))])
             for s in states]
    found = layers.search(space, run=RunOptions(store=str(tmp_path / "s.sqlite")), watch=index)
    for s, i in zip(states, index, strict=True):
        assert puzzle.solve(rules.state_text(r, s)).moves == found.found[i]


def test_a_scramble_and_its_solution():
    cube = Puzzle.example("cube2-htm")
    solution = cube.solve(scramble="R U R' F2")
    assert solution.sequence == ("F2", "R", "U'", "R'")
    assert solution.start == cube.play("R U R' F2")
    assert solution.path[-1] == cube.solved
    assert cube.solve(cube.solved).moves == 0


def test_the_quarter_turn_metric_makes_half_turns_two_moves():
    qtm = Puzzle.example("cube2-qtm")
    assert qtm.solve(scramble="R2").sequence in (("R", "R"), ("R'", "R'"))


@pytest.mark.parametrize(("state", "message"), [
    ("a b c", "a state of demo names the piece at each of its 4 positions (a b c d), got 3 tokens"),
    ("a b c e", "position d holds one of the pieces of p (a, b, c, d), not 'e'"),
    ("a b c c", "p: c is there 2 times, 1 in the solved puzzle (missing: d)"),
    ("a b c d+1", "d+1: a piece of p has no twist"),
])
def test_a_state_that_is_not_one_is_refused(state, message):
    demo = Puzzle(pieces={"p": ["a", "b", "c", "d"]}, moves={"X": "(a b c)", "Y": "(c d)"}, name="demo")
    with pytest.raises(ValueError) as e:
        demo.solve(state)
    assert str(e.value) == message


def test_state_or_scramble():
    cube = Puzzle.example("cube2-htm")
    with pytest.raises(ValueError, match="give the state to solve, or a scramble that makes it"):
        cube.solve()
    with pytest.raises(ValueError, match="give the state to solve, or a scramble that makes it"):
        cube.solve(cube.solved, scramble="R")
    with pytest.raises(ValueError, match="'Q' is not a move of 2x2x2 cube, half-turn metric"):
        cube.solve(scramble="R Q")
    with pytest.raises(ValueError, match="R1001: at most 1000 turns"):
        cube.solve(scramble="R1001")


def test_the_memory_cap_refuses_a_layer_before_it_is_made():
    with pytest.raises(ValueError, match="bidirectional search needs .*, more than 1 KiB, the --memory cap"):
        Puzzle.example("cube2-htm").solve(scramble="R U F R' U' F'", run=RunOptions(memory=1024))


def test_a_colour_shared_by_two_orbits_of_a_set():
    # r is in both orbits of p ({a, b} and {c, d}): each orbit numbers its own colours
    puzzle = Puzzle(pieces={"p": {"positions": ["a", "b", "c", "d"], "solved": ["r", "g", "b", "r"]}},
                    moves={"X": "(a b)", "Y": "(c d)"})
    solution = puzzle.solve("g r r b")
    assert solution.sequence in (("X", "Y"), ("Y", "X"))
    assert puzzle.god().histogram == (1, 2, 1)


def test_the_api_docstring_runs():
    result = doctest.testmod(api, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted >= 8


# --- from a finished table ------------------------------------------------------------------------------


def tabled(puzzle: Puzzle, tmp_path, name: str = "god.ckpt") -> RunOptions:
    """The run options that solve from the table of a finished census of `puzzle`."""
    run = RunOptions(store=str(tmp_path / "r.sqlite"), checkpoint=str(tmp_path / name))
    puzzle.god(run=run)
    return run


@pytest.mark.parametrize("colours", [False, True])
@pytest.mark.parametrize("seed", range(10))
def test_the_table_walk_is_as_short_as_the_bidirectional_search_and_the_plain_one(tmp_path, seed, colours):
    puzzle = random_puzzle(seed, colours)
    r = puzzle.rules
    if not fullbfs.undone_by_moves(r):
        pytest.skip("a move without its inverse: the census's distances are not to the solved puzzle")
    run = tabled(puzzle, tmp_path)
    for state in reachable(puzzle, random.Random(seed), 20):
        text = rules.state_text(r, state)
        table, searched = puzzle.solve(text, run=run), puzzle.solve(text)
        assert (table.method, searched.method) == ("table", "bidirectional")
        assert table.moves == searched.moves == rules.bfs_distance(r, state) == len(table.sequence)
        assert rules.play(r, state, [r.move(m) for m in table.sequence]) == r.solved


@pytest.mark.parametrize("name", ["pancakes-8", "cube2-htm"])
def test_the_table_walk_on_the_examples(tmp_path, name):
    puzzle = Puzzle.example(name)
    run = tabled(puzzle, tmp_path)
    rng = random.Random(5)
    names = [m.name for m in puzzle.rules.base]
    for _ in range(12):
        scramble = " ".join(rng.choice(names) for _ in range(rng.randint(1, 25)))
        table, searched = puzzle.solve(scramble=scramble, run=run), puzzle.solve(scramble=scramble)
        assert table.method == "table" and table.moves == searched.moves
        assert puzzle.play(" ".join(table.sequence), table.start) == puzzle.solved


def test_the_solved_state_and_an_unreachable_one_from_the_table(tmp_path):
    cube = Puzzle.example("cube2-htm")
    run = tabled(cube, tmp_path)
    assert cube.solve(cube.solved, run=run).moves == 0
    twisted = cube.solve("ufr+1 ufl ubl ubr dfr dfl dbl dbr", run=run)
    assert twisted.moves == -1 and "twists" in twisted.reason


def test_a_table_of_another_puzzle_or_unfinished_is_refused_in_one_line(tmp_path, monkeypatch):
    cube = Puzzle.example("cube2-htm")
    run = tabled(Puzzle.example("pancakes-8"), tmp_path)
    with pytest.raises(ValueError, match=r"was made for another search: pancakes n=8 .*not 2x2x2 cube"):
        cube.solve(scramble="R U", run=run)
    # a census without distances (a checkpoint of `pancake god`): another search too
    plain = tmp_path / "plain.ckpt"
    layers.search(fullbfs.space(cube.rules, layout.layout(cube.rules)), run=RunOptions(checkpoint=str(plain)))
    with pytest.raises(ValueError, match=r"made for another search: .* not .* keeping distances mod 3"):
        cube.solve(scramble="R U", run=RunOptions(checkpoint=str(plain), store=run.store))
    # a census killed after its third layer
    real = layers._push

    def killed(*args):
        if killed.calls == 3:
            raise KeyboardInterrupt
        killed.calls += 1
        return real(*args)

    killed.calls = 0
    monkeypatch.setattr(layers, "_push", killed)
    unfinished = RunOptions(store=run.store, checkpoint=str(tmp_path / "killed.ckpt"))
    with pytest.raises(KeyboardInterrupt):
        cube.god(run=unfinished)
    monkeypatch.undo()
    with pytest.raises(ValueError, match=r"is not finished \(it stopped after layer 3\)"):
        cube.solve(scramble="R U", run=unfinished)


def test_directed_moves_refuse_a_table(tmp_path):
    puzzle = Puzzle.example("block-shuffle-10")
    run = tabled(puzzle, tmp_path)
    with pytest.raises(ValueError, match="some move's inverse is not a move"):
        puzzle.solve("2 1 3 4 5 6 7 8 9 10", run=run)


def test_a_checkpoint_not_made_yet_searches_with_a_note(tmp_path):
    run = RunOptions(store=str(tmp_path / "r.sqlite"), checkpoint=str(tmp_path / "none.ckpt"))
    solution = Puzzle.example("cube2-htm").solve(scramble="R U", run=run)
    assert solution.method == "bidirectional" and solution.moves == 2
    assert "holds no census yet" in solution.note
    assert not (tmp_path / "none.ckpt").exists()


def test_a_damaged_table_fails_its_walk(tmp_path):
    cube = Puzzle.example("cube2-htm")
    run = tabled(cube, tmp_path)
    path = tmp_path / "god.ckpt"
    data = bytearray(path.read_bytes())
    half = (len(data) - data.index(b"\n") - 1) // 2  # the distances are the second half of the bits
    data[len(data) - half:] = bytes(half)  # every distance 0 mod 3
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="does not hold this puzzle's distances"):
        cube.solve(scramble="R U R'", run=run)


def test_the_json_says_which_method_ran(tmp_path, monkeypatch):
    from conftest import run_cli

    monkeypatch.chdir(tmp_path)
    assert run_cli("perm", "god", "pancakes-8", "--checkpoint", "p.ckpt", "--store", "r.sqlite").code == 0
    for extra, method in ((("--checkpoint", "p.ckpt"), "table"), ((), "bidirectional")):
        r = run_cli("perm", "solve", "pancakes-8", "--json", *extra, "--store", "r.sqlite", "3 1 2 4 5 6 7 8")
        assert r.code == 0, r.err
        assert json.loads(r.out)["method"] == method
    r = run_cli("perm", "solve", "pancakes-8", "-v", "--checkpoint", "p.ckpt", "--store", "r.sqlite",
                "3 1 2 4 5 6 7 8")
    assert r.code == 0 and r.out.splitlines()[-1].startswith("read down the table in p.ckpt")
