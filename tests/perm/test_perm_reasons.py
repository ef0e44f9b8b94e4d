"""What `perm info` and `perm solve` say about why states are not reached is true: each
invariant claimed holds on every state a breadth-first search reaches, and the factors
printed multiply to the share of arrangements reached."""

from __future__ import annotations

import random
import re
from fractions import Fraction
from math import factorial, prod

import pytest

from conftest import run_cli
from puzzlesearch.engine.space import parity
from puzzlesearch.perm import Puzzle, group
from puzzlesearch.perm.layout import layout
from puzzlesearch.perm.rules import apply, parse_state


def reached(rules) -> set:
    seen, todo = {rules.solved}, [rules.solved]
    while todo:
        nxt = []
        for s in todo:
            for m in rules.moves:
                t = apply(s, m, rules.ks)
                if t not in seen:
                    seen.add(t)
                    nxt.append(t)
        todo = nxt
    return seen


TWIST_CLAIM = re.compile(r"the twists of the (.+) always add up to (0|a multiple of (\d+)) \(mod (\d+)\)")
EVEN_CLAIM = re.compile(r"the (.+) always make an even permutation")
SAME_CLAIM = re.compile(r"the (.+) always have the same parity")


def check_claims(puzzle: Puzzle) -> None:
    """Every invariant `info` states holds on every reached state; the factors multiply to
    arrangements / states; the states are the states a breadth-first search reaches."""
    rules = puzzle.rules
    lay = layout(rules)
    comps = group.invariants(lay)
    orbit_of = {group.orbit_name(rules, lay, o): o for o in range(len(lay.orbits))}
    found = group.count(rules)
    states = reached(rules)
    assert found.states == len(states)
    factors = prod((f for _, f in found.constraints), start=Fraction(1))
    assert factors == Fraction(found.arrangements, len(states))
    solved = rules.solved[0]

    def vector(state):
        labels, twists = state
        return group.move_vector(lay, comps, group._element(lay, solved, labels), twists)

    vectors = [vector(s) for s in states]
    for text, _ in found.constraints:
        if m := TWIST_CLAIM.fullmatch(text):
            o, k = orbit_of[m[1]], int(m[4])
            d = k if m[2] == "0" else int(m[3])
            j = next(i for i, c in enumerate(comps) if c.kind == group.TWIST and c.orbit == o)
            assert all(v[j] % d == 0 for v in vectors), text
        elif m := SAME_CLAIM.fullmatch(text):
            js = [next(i for i, c in enumerate(comps) if c.kind == group.PARITY and c.orbit == orbit_of[name])
                  for name in m[1].split(" and the ")]
            assert all(len({v[j] for j in js}) == 1 for v in vectors), text
        elif m := EVEN_CLAIM.fullmatch(text):
            j = next(i for i, c in enumerate(comps) if c.kind == group.PARITY and c.orbit == orbit_of[m[1]])
            assert all(v[j] == 0 for v in vectors), text
    invariants = [t for t, _ in found.constraints if TWIST_CLAIM.fullmatch(t) or SAME_CLAIM.fullmatch(t)
                  or EVEN_CLAIM.fullmatch(t) or "twist sums and parities" in t]
    for text, _ in found.constraints:  # "the invariants above" only when some are above
        assert "invariants above" not in text or invariants, found.constraints


def test_twists_of_four_whose_sum_stays_even():
    p = Puzzle(pieces={"p": {"positions": ["a", "b", "c"], "twists": 4}},
               moves={"X": "(a b c)", "Y": "(a b)", "T": "(a+1)(b+1)"})
    info = p.info()
    assert info.constraints == ("the twists of the p always add up to a multiple of 2 (mod 4) (x 2)",)
    states = reached(p.rules)
    # all four combinations of an even twist sum and a parity are reached
    combos = {(sum(t) % 4, parity(group._element(layout(p.rules), p.rules.solved[0], lab)))
              for lab, t in states}
    assert combos == {(0, 0), (0, 1), (2, 0), (2, 1)}
    assert parse_state(p.rules, "a+2 b c") in states and parse_state(p.rules, "a+1 b c") not in states
    assert p.solve("a+1 b c").reason == ("the twists of the p add up to 1 (mod 4); every move keeps that sum "
                                         "a multiple of 2")
    check_claims(p)


def test_a_held_piece_is_said_to_be_held():
    r = run_cli("perm", "solve", "topspin-12-4", *"2 1 3 4 5 6 7 8 9 10 11 12".split())
    assert r.code == 1
    assert "1 is held in place (fixed: its piece never moves), and it holds 2, not 1" in r.out
    assert "no move touches" not in r.out


def test_identical_pieces_left_where_no_move_goes():
    p = Puzzle(pieces={"p": {"positions": ["a", "b", "c"], "solved": ["x", "x", "y"]}}, moves={"X": "(b c)"})
    info = p.info()
    assert (info.states, info.arrangements) == (2, 3)
    assert info.constraints == ("no move touches a (x 1.5)",)
    check_claims(p)


def test_ties_beyond_the_orbits_name_no_invariant_above():
    # identical pieces on three turning positions whose moves make a smaller group than
    # the invariants allow
    p = Puzzle(pieces={"p": {"positions": ["a", "b", "c"], "twists": 3, "solved": ["y", "y", "z"]}},
               moves={"X": "(a b+1 c+2)", "Y": "(a+1 b c+2)"})
    check_claims(p)


def _random_puzzle(rng: random.Random) -> Puzzle | None:
    k = rng.choice([1, 2, 3, 4, 6])
    n = rng.randint(2, 5)
    while factorial(n) * k**n > 20_000:
        n -= 1
    sets = {}
    names = [f"p{i}" for i in range(n)]
    linked = rng.random() < 0.3 and n >= 4  # two sets moved by the same moves
    split = n // 2 if linked else n
    sets["p"] = {"positions": names[:split], "twists": k}
    if linked:
        sets["q"] = {"positions": names[split:]}
    if rng.random() < 0.4:
        sets["p"]["solved"] = [rng.choice("xy") for _ in names[:split]]
    moves = {}
    for mi in range(rng.randint(1, 3)):
        cycles = []
        for group_names, twists in ((names[:split], k), (names[split:], 1)):
            order = group_names[:]
            rng.shuffle(order)
            length = rng.randint(0, len(order))
            cycle = order[:length]
            if len(cycle) >= 2 or (cycle and twists > 1):
                cycles.append("(" + " ".join(x + (f"+{rng.randrange(twists)}" if twists > 1 else "")
                                             for x in cycle) + ")")
        if cycles:
            moves[f"M{mi}"] = "".join(cycles).replace("+0", "")
    if not moves:
        return None
    try:
        return Puzzle(pieces=sets, moves=moves)
    except ValueError:  # a move that changes nothing, say
        return None


@pytest.mark.parametrize("seed", range(40))
def test_random_small_puzzles_claim_only_true_invariants(seed):
    rng = random.Random(seed)
    checked = 0
    while checked < 5:
        p = _random_puzzle(rng)
        if p is not None:
            check_claims(p)
            checked += 1
