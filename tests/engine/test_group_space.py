"""Puzzles of distinct pieces as the elements of their group (engine.group_space,
group_kernel): every index a state and back, the kernel's images against the plain rules,
the histogram and the farthest states against a plain BFS, each pass alone, checkpoints,
the cluster's emit, and chains that are not chains refused in words."""

from __future__ import annotations

from itertools import permutations
from math import factorial

import numpy as np
import pytest
from test_pieces_space import apply, as_state, cycle, histogram, plain_bfs, start_of

from puzzlesearch.engine import group_kernel, layers, layers_common, layers_kernel
from puzzlesearch.engine import space as ranked
from puzzlesearch.engine.group_space import group_index, group_space, group_state, point_moves
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.space import PieceSet, pieces_space
from puzzlesearch.perm import schreier

I3 = (0, 1, 2)


def turns(width: int, height: int) -> tuple[list[PieceSet], list]:
    """A TurnFour of width x height tiles, 4 twists each: every 2x2 square turns a quarter
    (and its square and inverse), each tile it moves turned by one."""
    n = width * height
    moves = []
    for x in range(width - 1):
        for y in range(height - 1):
            a, b, c, d = y * width + x, y * width + x + 1, (y + 1) * width + x + 1, (y + 1) * width + x
            quarter = list(range(n))
            quarter[b], quarter[c], quarter[d], quarter[a] = a, b, c, d  # a -> b -> c -> d -> a
            twist = [1 if i in (a, b, c, d) else 0 for i in range(n)]
            perm, tw = list(range(n)), [0] * n
            for _ in range(3):  # the quarter, the half and the three-quarter turns
                perm = [perm[quarter[i]] for i in range(n)]
                tw = [(tw[quarter[i]] + twist[i]) % 4 for i in range(n)]
                moves.append([(tuple(perm), tuple(tw))])
    return [PieceSet(n, 4, twist_sum=False)], moves


#: distinct pieces whose moves tie them in ways no twist sum or parity tells
PUZZLES = {
    # two sets turned together: 5 states of 3,600 arrangements held
    "locked wheels": ([PieceSet(5), PieceSet(5, 3)],
                      [[(cycle(5, (0, 1, 2, 3, 4)), ()), (cycle(5, (0, 1, 2, 3, 4)), (1, 0, 0, 0, 2))]]),
    # a 3x2 TurnFour: 2 squares, twists in a group of their own
    "turnfour 3x2": turns(3, 2),
    # PGL(2,5) on the projective line of 6 points: x -> x + 1 and x -> 2x, x -> -1/x
    "pgl(2,5)": ([PieceSet(6)], [[((4, 0, 1, 2, 3, 5), ())], [((0, 3, 1, 4, 2, 5), ())],
                                 [((5, 4, 2, 3, 1, 0), ())]]),
    # a set with twists and one without, a move on each and one on both
    "mixed": ([PieceSet(4, 3), PieceSet(3)],
              [[(cycle(4, (0, 1, 2, 3)), (1, 0, 0, 0)), (I3, ())],
               [(cycle(4, (0, 1)), ()), ((1, 2, 0), ())]]),
}


def chain_of(sets, moves) -> tuple:
    """The stabiliser chain of the moves' group, grown to its order (the plain BFS's count)."""
    order = len(plain_bfs(sets, moves))
    chain = schreier.Chain(list(dict.fromkeys(point_moves(sets, moves))))
    assert chain.grow(order) == order
    orbits = chain.points
    rows = [[[int(x) for x in chain.rows[chain.where[j, p]]] for p in o] for j, o in enumerate(orbits)]
    return [int(b) for b in chain.base[:chain.levels]], orbits, rows


def space_of(name: str) -> ranked.Space:
    sets, moves = PUZZLES[name]
    return group_space(name, sets, moves, {"puzzle": name}, chain_of(sets, moves))


def test_the_kind_agrees_with_the_kernels():
    assert ranked.GROUP == layers_kernel.GROUP
    assert layers_common.passes(ranked.GROUP) is group_kernel


@pytest.mark.parametrize("name", list(PUZZLES))
def test_every_index_is_a_reachable_state_and_back(name):
    sets, moves = PUZZLES[name]
    dist = plain_bfs(sets, moves)
    space = space_of(name)
    assert space.size == len(dist) <= pieces_space(name, sets, moves, {}).size
    states = [as_state(group_state(space, i)) for i in range(space.size)]
    assert set(states) == set(dist)
    assert [group_index(space, s) for s in states] == list(range(space.size))
    assert space.start == group_index(space, start_of(sets))
    arrays = space.arrays()
    got = np.zeros(len(moves), dtype=np.int64)
    for i, s in enumerate(states):  # the kernel's images are the plain rules'
        group_kernel.images_of(i, *arrays[1:], got)
        assert list(got) == [group_index(space, apply(sets, s, mv)) for mv in moves]


@pytest.mark.parametrize("ratio", [None, 0.0, 1e9], ids=["both", "top-down", "bottom-up"])
@pytest.mark.parametrize("name", list(PUZZLES))
def test_the_histogram_and_the_farthest_states_are_those_of_a_plain_bfs(name, ratio, monkeypatch):
    if ratio is not None:
        monkeypatch.setattr(layers, "PULL_RATIO", ratio)
    sets, moves = PUZZLES[name]
    dist = plain_bfs(sets, moves)
    space = space_of(name)
    found = layers.search(space, run=RunOptions(workers=2), show=10_000)
    assert found.histogram == histogram(dist)
    far = {s for s, d in dist.items() if d == found.diameter}
    assert {as_state(group_state(space, i)) for i in found.farthest} == far
    if ratio is not None:
        assert set(found.directions) == ({"t"} if ratio == 0 else {"b"})


def test_a_start_other_than_the_solved_one():
    sets, moves = turns(3, 2)
    space = group_space("from a twist", [PieceSet(6, 4, start_twists=(1, 0, 0, 0, 0, 3))], moves, {},
                        chain_of(sets, moves))
    shifted = [PieceSet(6, 4, start_twists=(1, 0, 0, 0, 0, 3))]
    dist = plain_bfs(shifted, moves)
    assert space.start == 0  # the start is the identity element, whatever its twists
    assert layers.search(space, run=RunOptions(workers=2)).histogram == histogram(dist)
    assert {as_state(group_state(space, i)) for i in range(space.size)} == set(dist)


def test_tiny_chunks_and_blocks_and_a_checkpoint_agree(monkeypatch, tmp_path):
    space = space_of("turnfour 3x2")
    whole = layers.search(space, run=RunOptions(workers=1), show=100)
    monkeypatch.setattr(layers, "CHUNK", 1 << 8)
    monkeypatch.setattr(layers, "BLOCK", 1 << 6)
    ckpt = tmp_path / "run.ckpt"
    got = layers.search(space, run=RunOptions(workers=2, checkpoint=str(ckpt)), show=100)
    assert (got.histogram, got.farthest) == (whole.histogram, whole.farthest)
    again = layers.search(space, run=RunOptions(workers=2, checkpoint=str(ckpt)), show=100)
    assert again.histogram == whole.histogram and again.resumed_at == len(whole.histogram) - 1
    with pytest.raises(ValueError, match="made for another search"):  # another chain's indices
        sets, moves = PUZZLES["turnfour 3x2"]
        other = group_space(space.name, sets, moves[:3], {"puzzle": space.name}, chain_of(sets, moves[:3]))
        layers.search(other, run=RunOptions(checkpoint=str(ckpt)))


def test_emit_gives_every_image_of_the_states_asked_for():
    space = space_of("mixed")
    arrays = space.arrays()
    m = len(space.moves)
    cells = np.zeros((space.size + 3) // 4, dtype=np.uint8)
    for i in range(0, space.size, 3):
        layers_kernel.put(cells, i, layers_kernel.NEXT)
    buf, filled = np.zeros(space.size * m + m, dtype=np.int64), np.zeros(1, dtype=np.int64)
    assert group_kernel.emit(cells, 0, space.size, 0, layers_kernel.NEXT, *arrays, buf, filled) == space.size
    want = []
    for i in range(0, space.size, 3):
        want += [group_index(space, apply(PUZZLES["mixed"][0], as_state(group_state(space, i)), mv))
                 for mv in PUZZLES["mixed"][1]]
    assert list(buf[: filled[0]]) == want


def test_states_the_moves_never_reach_are_refused():
    space = space_of("pgl(2,5)")
    assert factorial(6) > space.size
    reachable = {as_state(group_state(space, i)) for i in range(space.size)}
    other = next(((labels, (0,) * 6),) for labels in permutations(range(6))
                 if ((labels, (0,) * 6),) not in reachable)
    with pytest.raises(ValueError, match="not reachable"):
        group_index(space, other)
    with pytest.raises(ValueError, match="holds the pieces"):
        group_index(space, [((0, 1, 2, 3, 4, 4), ())])
    with pytest.raises(ValueError, match="outside"):
        group_state(space, space.size)


def test_chains_that_are_not_chains_and_identical_pieces_are_refused():
    sets, moves = PUZZLES["pgl(2,5)"]
    base, orbits, rows = chain_of(sets, moves)
    with pytest.raises(ValueError, match="identical pieces"):
        group_space("colours", [PieceSet(6, labels=(0, 0, 1, 1, 2, 2))], moves, {}, (base, orbits, rows))
    swapped = [list(level) for level in rows]
    swapped[0][1], swapped[0][2] = swapped[0][2], swapped[0][1]
    with pytest.raises(ValueError, match="does not send it to"):
        group_space("bad rows", sets, moves, {}, (base, orbits, swapped))
    with pytest.raises(ValueError, match="a level for each base point"):
        group_space("short", sets, moves, {}, (base, orbits[:-1], rows))


@pytest.mark.slow
def test_the_cluster_finds_what_one_machine_finds(dask_cluster, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    space = space_of("turnfour 3x2")  # the chain travels with the space to the workers
    here = layers.search(space, run=RunOptions(workers=2), show=30, watch=[space.start, 7])
    there = layers.search(space, run=RunOptions(scheduler=dask_cluster), show=30, watch=[space.start, 7])
    assert (there.histogram, there.farthest, there.farthest_count, there.found) == (
        here.histogram, here.farthest, here.farthest_count, here.found)
