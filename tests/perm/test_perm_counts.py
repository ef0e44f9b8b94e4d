"""perm info: the states counted by Schreier–Sims (and, with identical pieces, through the
stabiliser of the colours) against the plain breadth-first search and sympy, the
reasons with their factors, and the invariants that decide which states are reachable."""

from __future__ import annotations

import random
from math import prod

import pytest
from perm_cases import EXAMPLES, random_puzzle
from sympy.combinatorics import Permutation, PermutationGroup

from puzzlesearch.engine.space import GROUP
from puzzlesearch.perm import Puzzle, fullbfs, group, layout, rules


def plain_states(puzzle: Puzzle) -> int:
    return sum(rules.bfs_histogram(puzzle.rules))


@pytest.mark.parametrize("seed", range(40))
def test_random_puzzles_count_what_the_plain_search_finds(seed):
    puzzle = random_puzzle(seed)
    info = puzzle.info()
    assert info.states == plain_states(puzzle)
    assert info.group_order == info.states  # every piece different: one state an element
    # every factor explained: arrangements = states x the product of the reasons' factors
    found = group.count(puzzle.rules)
    assert prod(f for _, f in found.constraints) * found.states == found.arrangements


@pytest.mark.parametrize("seed", range(40))
def test_identical_pieces_count_the_orbit_of_the_colours(seed):
    puzzle = random_puzzle(seed, colours=True)
    found = group.count(puzzle.rules)
    assert found.states == plain_states(puzzle), found.counted_by
    assert prod(f for _, f in found.constraints) * found.states == found.arrangements


def test_the_stabiliser_by_backtracking_agrees_with_the_invariants():
    # every path to |G_C|: the invariants (when they describe G) and sympy's backtrack search
    for seed in range(30):
        puzzle = random_puzzle(seed, colours=True)
        lay = layout.layout(puzzle.rules)
        g = group.group(puzzle.rules, lay)
        stab = group.stabiliser_order(puzzle.rules, lay, g)
        assert int(g.order()) // stab == plain_states(puzzle)


def test_a_group_smaller_than_its_invariants_allow():
    # two orbits moved by the same 3-cycle at once: the invariants allow 3 x 3 placements of
    # even permutations, the moves make 3; a state of the other 6 is refused by membership
    puzzle = Puzzle(pieces={"p": ["a", "b", "c"], "q": ["d", "e", "f"]}, moves={"X": "(a b c)(d e f)"})
    found = group.count(puzzle.rules)
    assert found.states == 3 == plain_states(puzzle)
    assert not found.complete
    assert found.constraints[-1][0] == ("the moves tie the pieces further, in ways no twist sum or parity "
                                        "tells: they reach 3 of the 9 arrangements the invariants above "
                                        "allow")
    solution = puzzle.solve("c a b d e f")
    assert solution.moves == -1 and "not in the group the moves generate" in solution.reason


def test_the_group_order_is_sympys():
    puzzle = Puzzle.example("cube3")
    lay = layout.layout(puzzle.rules)
    assert group.group(puzzle.rules, lay).order() == 43_252_003_274_489_856_000
    # the same group from the sticker permutations sympy ships (its own model of the cube)
    from sympy.combinatorics.named_groups import RubikGroup
    assert RubikGroup(3).order() == puzzle.info().states


def test_the_reasons_of_the_examples():
    assert [r for r, _ in group.count(Puzzle.example("cube3").rules).constraints] == [
        "the twists of the corners always add up to 0 (mod 3)",
        "the twists of the edges always add up to 0 (mod 2)",
        "the corners and the edges always have the same parity",
    ]
    info = Puzzle.example("pyraminx").info()
    assert info.states == 933_120
    assert info.constraints == ("the axials never leave their positions (x 24)",
                                "the twists of the edges always add up to 0 (mod 2) (x 2)",
                                "the edges always make an even permutation (x 2)")
    assert Puzzle.example("cube2-htm").info().constraints[0] == "dbl is held in place (x 24)"
    assert Puzzle.example("block-shuffle-10").info().every_arrangement
    assert not Puzzle.example("block-shuffle-12").info().every_arrangement  # blocks of 6: even moves


@pytest.mark.parametrize(("name", "states", "indexed"), [
    ("cube2-htm", 3_674_160, 3_674_160), ("cube2-qtm", 3_674_160, 3_674_160),
    ("pyraminx", 933_120, 933_120), ("topspin-12-4", 39_916_800, 39_916_800),
    ("block-shuffle-10", 3_628_800, 3_628_800), ("block-shuffle-12", 239_500_800, 239_500_800),
    ("pancakes-8", 40_320, 40_320), ("pancakes-10", 3_628_800, 3_628_800),
    ("cube3", 43_252_003_274_489_856_000, 86_504_006_548_979_712_000),
])
def test_the_examples_count_their_published_states(name, states, indexed):
    info = Puzzle.example(name).info()
    assert (info.states, info.indexed) == (states, indexed)


@pytest.mark.parametrize("puzzle", [*(random_puzzle(seed, colours) for seed in range(20)
                                      for colours in (False, True)),
                                    *(Puzzle.example(name) for name in EXAMPLES if name != "cube3")],
                         ids=lambda p: p.rules.name)
def test_info_indexes_what_the_census_indexes(puzzle):
    # fullbfs.indexed is the size of the space the census builds: layout.index_size, from
    # the sizes alone (halved sets and permutation spaces alike), unless the census indexes
    # the group's elements, which it does only where they are far fewer
    lay = layout.layout(puzzle.rules)
    space = fullbfs.space(puzzle.rules, lay)
    assert fullbfs.indexed(puzzle.rules, lay) == space.size == puzzle.info().indexed
    if space.kind == GROUP:
        assert space.size == puzzle.info().states
        assert layout.index_size(lay) >= fullbfs.GROUP_FACTOR * space.size
    else:
        assert layout.index_size(lay) == space.size


def test_info_reads_no_more_than_the_group():
    info = Puzzle.example("cube3").info()
    assert info.memory > 2**64  # 2 bits for each state indexed: told, never allocated
    assert info.solved.split()[:3] == ["ufr", "ufl", "ubl"]


@pytest.mark.parametrize("seed", range(25))
def test_a_state_is_refused_exactly_when_the_moves_cannot_reach_it(seed):
    # random arrangements of a random puzzle's pieces (each in its own set, any twist):
    # the invariants and membership refuse exactly those the plain search never reaches
    puzzle = random_puzzle(seed)
    r = puzzle.rules
    reached = set()
    start = r.solved
    stack = [start]
    reached.add(start)
    while stack:
        s = stack.pop()
        for m in r.moves:
            t = rules.apply(s, m, r.ks)
            if t not in reached:
                reached.add(t)
                stack.append(t)
    rng = random.Random(seed)
    lay = layout.layout(r)
    for _ in range(20):
        labels, twists = list(start[0]), [rng.randrange(k) for k in r.ks]
        offset = 0
        for s in r.sets:
            part = labels[offset:offset + len(s.positions)]
            rng.shuffle(part)
            labels[offset:offset + len(s.positions)] = part
            offset += len(s.positions)
        state = (tuple(labels), tuple(twists))
        refused = group.unreachable(r, state, lay) or not group.member(r, state, lay)
        assert bool(refused) == (state not in reached), (rules.state_text(r, state), refused)


def test_the_reasons_for_a_state_out_of_reach():
    cube = Puzzle.example("cube3")
    solved = cube.solved.split()
    flipped = " ".join(solved[:8] + ["uf+1"] + solved[9:])
    assert cube.solve(flipped).reason == ("the twists of the edges add up to 1 (mod 2); every move keeps "
                                          "that sum at 0")
    swapped = " ".join(solved[:8] + ["ul", "uf"] + solved[10:])
    assert cube.solve(swapped).reason == ("the parities of the corners and the edges differ; every move "
                                          "changes them together")
    pyraminx = Puzzle.example("pyraminx")
    assert pyraminx.solve("ur ul ub lr lb rb u l r b").reason == ("the edges are in an odd permutation; "
                                                                   "every move makes an even one")
    cube2 = Puzzle.example("cube2-htm")
    assert cube2.solve("ufr ufl ubl ubr dfr dfl dbl+1 dbr").reason == (
        "dbl is held in place (fixed: its piece never moves), and it holds dbl+1, not dbl")


def test_sympy_agrees_on_the_points_of_a_move():
    # the point permutation of a move: (perm[i], u) -> (i, u + twist[i]); its order is the move's
    puzzle = Puzzle(pieces={"p": {"positions": ["a", "b"], "twists": 3}}, moves={"X": "(a b+1)"})
    lay = layout.layout(puzzle.rules)
    pts = group.points(lay)
    x = puzzle.rules.moves[0]
    image = group.as_points(lay, pts, puzzle.rules.ks, x.perm, x.twist)
    assert PermutationGroup([Permutation(image)]).order() == rules.order(x, puzzle.rules.ks, 100) == 6


def test_identical_pieces_beyond_the_invariants_are_decided_by_the_search():
    # X turns both triangles at once: with identical pieces in one, the invariants allow
    # 3 x 3 states but the moves make 3; the search from the other ones runs out
    puzzle = Puzzle(pieces={"p": {"positions": ["a", "b", "c"], "solved": ["r", "r", "b"]},
                            "q": ["d", "e", "f"]}, moves={"X": "(a b c)(d e f)"})
    assert puzzle.info().states == 3 == plain_states(puzzle)
    assert puzzle.solve("b r r f d e").moves == 1
    lost = puzzle.solve("b r r d e f")
    assert lost.moves == -1 and lost.reason.startswith("the search ran out of states reachable from it")
