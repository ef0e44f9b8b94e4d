"""The move tables of puzzles of pieces (engine.pieces_tables, pieces_kernel): random
puzzles (twists k = 1..4, identical pieces, several sets, sets held at one parity, twist
sums) searched with every coordinate through a table, none, and some, against a plain BFS
over explicit states and against each other; every image the kernel computes against the
plain rules (rank(move(unrank(i)))), forward and backward; the plan within its budget and
its bytes in the memory a search needs."""

from __future__ import annotations

import random
from math import factorial, prod

import numpy as np
import pytest
from test_pieces_space import apply, as_state, histogram, plain_bfs

from puzzlesearch.engine import layers, layers_common, pieces_kernel, pieces_tables
from puzzlesearch.engine import space as ranked
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.space import PieceSet, pieces_index, pieces_space, pieces_state

MOST = 20_000  # the most placements a random puzzle has (its plain BFS stays quick)


def random_pieces(seed: int, inverses: bool = False) -> tuple[list[PieceSet], list]:
    """One to three sets of 1..4 positions with 1..4 twists, distinct or identical pieces,
    a twist sum kept or not, random start twists; one to three random moves, even on the
    sets drawn to hold one parity (with `inverses`: each move's inverse too)."""
    rng = random.Random(seed)
    while True:
        sets = []
        for _ in range(rng.randint(1, 3)):
            m, k = rng.randint(1, 4), rng.choice((1, 2, 3, 4))
            labels = tuple(range(m)) if rng.random() < 0.5 else tuple(rng.randrange(m) for _ in range(m))
            sets.append(PieceSet(m, k, labels, k > 1 and rng.random() < 0.5,
                                 tuple(rng.randrange(k) for _ in range(m))))
        if prod(factorial(s.size) * s.twists ** s.size for s in sets) <= MOST:
            break
    even = [rng.random() < 0.5 for _ in sets]
    moves = []
    for _ in range(rng.randint(1, 3)):
        move = []
        for s, e in zip(sets, even, strict=True):
            perm = list(range(s.size))
            rng.shuffle(perm)
            if e and s.size >= 2 and ranked.parity(perm):
                perm[:2] = perm[1::-1]
            twist = [rng.randrange(s.twists) for _ in range(s.size)]
            if s.twist_sum:
                twist[-1] = (twist[-1] - sum(twist)) % s.twists
            move.append((tuple(perm), tuple(twist)))
        moves.append(move)
    if inverses:
        moves += [[inverse(s, part) for s, part in zip(sets, mv, strict=True)] for mv in moves]
    return sets, moves


def inverse(s: PieceSet, part: tuple) -> tuple:
    perm, twist = part
    inv = [0] * s.size
    for i, p in enumerate(perm):
        inv[p] = i
    return tuple(inv), tuple(-twist[inv[p]] % s.twists for p in range(s.size))


def budgets(sets, moves) -> dict[str, int]:
    """Every coordinate through a table, none, and about half of the tables' bytes."""
    whole = pieces_space("whole", sets, moves, {}).table_bytes
    return {"all": pieces_tables.TABLE_BUDGET, "none": 0, "some": whole // 2}


def space_within(monkeypatch, budget: int, sets, moves) -> ranked.Space:
    monkeypatch.setattr(pieces_tables, "TABLE_BUDGET", budget)
    return pieces_space("random", sets, moves, {})


@pytest.mark.parametrize("inverses", [False, True], ids=["moves", "closed"])
@pytest.mark.parametrize("seed", range(30))
def test_tables_or_ranks_give_the_plain_histogram_and_the_same_farthest_states(monkeypatch, seed, inverses):
    sets, moves = random_pieces(seed, inverses)
    dist = plain_bfs(sets, moves)
    found = {}
    for name, budget in budgets(sets, moves).items():
        space = space_within(monkeypatch, budget, sets, moves)
        if name == "none" and space.kind == ranked.PIECES:
            assert space.table_bytes == 0 and all(off < 0 for off in space.coords[pieces_tables.OFF])
        found[name] = layers.search(space, run=RunOptions(workers=2), show=MOST)
        assert found[name].histogram == histogram(dist)
        far = {s for s, d in dist.items() if d == found[name].diameter}
        assert {as_state(pieces_state(space, i)) for i in found[name].farthest} == far
    assert found["all"].farthest == found["none"].farthest == found["some"].farthest


@pytest.mark.parametrize("inverses", [False, True], ids=["moves", "closed"])
@pytest.mark.parametrize("seed", range(30, 50))
def test_each_image_is_the_rank_of_the_moved_state(monkeypatch, seed, inverses):
    sets, moves = random_pieces(seed, inverses)
    for budget in budgets(sets, moves).values():
        space = space_within(monkeypatch, budget, sets, moves)
        if space.kind != ranked.PIECES:
            continue
        forward, backward = space.arrays()[1:], space.arrays(backwards=True)[1:]
        out = np.zeros(len(moves), dtype=np.int64)
        for i in random.Random(seed).sample(range(space.size), min(space.size, 300)):
            state = as_state(pieces_state(space, i))
            pieces_kernel.images(i, *forward, out)
            assert list(out) == [pieces_index(space, apply(sets, state, mv)) for mv in moves]
            pieces_kernel.images(i, *backward, out)  # the state each move takes to i
            assert [pieces_index(space, apply(sets, as_state(pieces_state(space, int(b))), mv))
                    for b, mv in zip(out, moves, strict=True)] == [i] * len(moves)


def test_the_plan_takes_the_smallest_tables_first_within_the_budget():
    # (radix, weight, position, kind): 720 x 8 moves x 4 bytes = 23,040 does not fit 20,000
    coordinates = [(720, 24, 0, pieces_tables.ARRANGEMENT), (24, 1, 0, pieces_tables.TWIST),
                   (1, 1, 6, pieces_tables.TWIST), (3, 1, 7, pieces_tables.TWIST)]
    rows, used = pieces_tables.plan(coordinates, 8, True, budget=20_000)
    assert rows[pieces_tables.RAD] == (720, 24, 3)  # radix 1: no coordinate
    assert rows[pieces_tables.OFF] == (-1, 3 * 8, 0) and used == (24 + 3) * 8 * 4  # offsets in entries
    rows, used = pieces_tables.plan(coordinates, 8, False, budget=20_000)  # backward tables too
    assert rows[pieces_tables.OFF] == (-1, 3 * 8, 0) and used == (24 + 3) * 8 * 4 * 2
    assert pieces_tables.plan(coordinates, 8, True, budget=10**6)[1] == (720 + 24 + 3) * 32


def test_the_tables_are_counted_in_the_memory_and_built_once():
    sets, moves = random_pieces(7, inverses=True)
    space = pieces_space("random", sets, moves, {})
    assert space.table_bytes > 0
    need = layers_common.memory_needed(space)
    assert need == layers_common.memory_needed_for(space.size) + space.table_bytes
    with pytest.raises(ValueError, match="--memory cap"):
        layers_common.check_space(space, need - 1)
    assert layers_common.check_space(space, need) == need
    a, b = space.arrays()[5], space.arrays(backwards=True)[5]
    assert a is b and not a.flags.writeable  # closed under inverses: one table, read only
    assert a.nbytes == space.table_bytes
