"""perm solve: the bidirectional search's solutions are shortest (their length is the
plain search's distance, or the engine's) and replay to the solved puzzle; states are
read and refused in one line."""

from __future__ import annotations

import doctest
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
