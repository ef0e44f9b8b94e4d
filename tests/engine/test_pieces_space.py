"""Puzzles of pieces on the breadth-first engine (engine.space.pieces_space, pieces_kernel):
the histogram and the farthest states of small puzzles against a plain BFS over explicit
states, the 2x2x2 cube's published tables, indexes and states both ways (sets held at one
parity too), descriptions refused in words, checkpoints resumed, the same answers on a Dask
cluster."""

from __future__ import annotations

from collections import deque
from math import factorial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import load_data
from puzzlesearch.engine import layers, layers_common, layers_kernel, pieces_kernel, pieces_tables
from puzzlesearch.engine import space as ranked
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.space import PieceSet, pieces_index, pieces_space, pieces_state

# --- the plain rules: a state is, per set, (labels, twists) ------------------------------------------------


def start_of(sets) -> tuple:
    return tuple((tuple(s.labels) or tuple(range(s.size)), tuple(s.start_twists) or (0,) * s.size)
                 for s in sets)


def apply(sets, state: tuple, move) -> tuple:
    """The move on the state: the piece at i comes from perm[i], its twist plus twist[i]."""
    return tuple((tuple(labels[p] for p in perm),
                  tuple((twists[p] + (twist[i] if twist else 0)) % s.twists for i, p in enumerate(perm)))
                 for s, (labels, twists), (perm, twist) in zip(sets, state, move, strict=True))


def plain_bfs(sets, moves) -> dict:
    start = start_of(sets)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        for mv in moves:
            t = apply(sets, s, mv)
            if t not in dist:
                dist[t] = dist[s] + 1
                queue.append(t)
    return dist


def histogram(dist: dict) -> tuple[int, ...]:
    hist = [0] * (max(dist.values()) + 1)
    for d in dist.values():
        hist[d] += 1
    return tuple(hist)


def as_state(state) -> tuple:
    return tuple((tuple(labels), tuple(twists)) for labels, twists in state)


# --- puzzles ------------------------------------------------------------------------------------------------

#: the corners of a cube (Kociemba's numbering URF UFL ULB UBR DFR DLF DBL DRB): each face
#: turn as "the corner now at i comes from CP[i]", the twist it gains CO[i]
CP = {"U": (3, 0, 1, 2, 4, 5, 6, 7), "R": (4, 1, 2, 0, 7, 5, 6, 3), "F": (1, 5, 2, 3, 0, 4, 6, 7)}
CO = {"U": (0,) * 8, "R": (2, 0, 0, 1, 1, 0, 0, 2), "F": (1, 2, 0, 0, 2, 1, 0, 0)}
KEEP = (0, 1, 2, 3, 4, 5, 7)  # DBL, which U, R and F leave alone, is held fixed


def cube_moves(faces: str = "URF", powers: tuple[int, ...] = (1, 2, 3)) -> list:
    """The turns of the 2x2x2 cube on its 7 free corners: each face to each power."""
    moves = []
    for f in faces:
        perm, twist = CP[f], CO[f]
        for power in range(1, 4):
            if power in powers:
                moves.append([(tuple(KEEP.index(perm[i]) for i in KEEP), tuple(twist[i] for i in KEEP))])
            # then once more: the corner at i comes from CP[perm[i]], with both twists
            perm, twist = (tuple(perm[CP[f][i]] for i in range(8)),
                           tuple((twist[CP[f][i]] + CO[f][i]) % 3 for i in range(8)))
    return moves


CUBE = [PieceSet(7, 3, twist_sum=True)]


def cycle(m: int, positions: tuple[int, ...]) -> tuple[int, ...]:
    """The perm that moves the piece at positions[i] to positions[i + 1]."""
    perm = list(range(m))
    for a, b in zip(positions, positions[1:] + positions[:1], strict=True):
        perm[b] = a
    return tuple(perm)


I2, I3, I4, I5 = tuple(range(2)), tuple(range(3)), tuple(range(4)), tuple(range(5))

PUZZLES = {
    # 29,160 states: the 2x2x2 cube turned by U and R only, quarter turns
    "cube <U,R>": (CUBE, cube_moves("UR", (1, 3))),
    # identical pieces: a ring of 8 in four colours, turned and its first four reversed (Top-Spin)
    "colours": ([PieceSet(8, labels=(0, 0, 1, 1, 2, 2, 3, 3))],
                [[(cycle(8, tuple(range(8))), ())], [(cycle(8, tuple(range(7, -1, -1))), ())],
                 [((3, 2, 1, 0, 4, 5, 6, 7), ())]]),
    # a twist sum that is not 0 at the start
    "twist sum": ([PieceSet(5, 3, twist_sum=True, start_twists=(1, 0, 0, 0, 0))],
                  [[(cycle(5, (0, 1, 2)), (1, 2, 0, 0, 0))], [(cycle(5, (1, 2, 3, 4)), (0, 1, 1, 1, 0))]]),
    # two sets: distinct pieces with a twist sum, and identical pieces with free twists
    "two sets": ([PieceSet(4, 2, twist_sum=True), PieceSet(3, 3, labels=(0, 0, 1), start_twists=(0, 1, 2))],
                 [[(cycle(4, (0, 1, 2)), (1, 1, 0, 0)), (I3, (1, 0, 0))],
                  [((0, 1, 3, 2), (0, 0, 1, 1)), (cycle(3, (0, 1, 2)), (0, 0, 2))],
                  [(I4, ()), ((1, 0, 2), ())]]),
    # three sets, a repeated label in a twisting set and a set no move touches
    "three sets": ([PieceSet(3, 2, labels=(1, 1, 0)), PieceSet(2, 1), PieceSet(4, 2, labels=(0, 1, 0, 1),
                                                                             twist_sum=True)],
                   [[(cycle(3, (0, 1, 2)), (1, 0, 0)), ((0, 1), ()), (cycle(4, (0, 1, 2, 3)), (1, 1, 0, 0))],
                    [((1, 0, 2), (0, 0, 1)), ((0, 1), ()), ((0, 2, 1, 3), (0, 1, 0, 1))]]),
    # one set of distinct pieces without twists: a permutation space (perm_space)
    "top-spin 8": ([PieceSet(8)], [[(cycle(8, tuple(range(8))), ())], [((3, 2, 1, 0, 4, 5, 6, 7), ())]]),
    # every move even: one parity only (perm_space's compressed index)
    "three-cycles": ([PieceSet(6, labels=(5, 4, 3, 2, 1, 0))],
                     [[(cycle(6, (0, 1, 2)), ())], [(cycle(6, (2, 3, 4)), ())], [(cycle(6, (3, 4, 5)), ())]]),
    # sets of distinct pieces that every move permutes evenly, each held at one parity (the
    # Pyraminx's edges): one twisted, starting odd, between a set with an odd move and a last
    # set without twists
    "one parity": ([PieceSet(2, 3), PieceSet(4, 2, labels=(1, 0, 2, 3), twist_sum=True), PieceSet(4)],
                   [[(I2, (1, 0)), (cycle(4, (0, 1, 2)), (1, 1, 0, 0)), ((1, 0, 3, 2), ())],
                    [((1, 0), ()), (cycle(4, (1, 2, 3)), (0, 1, 0, 1)), (I4, ())],
                    [(I2, (0, 2)), ((1, 0, 3, 2), ()), (cycle(4, (1, 2, 3)), ())]]),
}


def space_of(name: str) -> ranked.Space:
    sets, moves = PUZZLES[name]
    return pieces_space(name, sets, moves, {"puzzle": name})


# --- the kinds and the table --------------------------------------------------------------------------------


def test_the_kinds_and_the_table_rows_agree_with_the_kernels():
    kinds = ("PERM", "SIGNED", "HANOI", "FLIPS", "PIECES")
    assert [getattr(ranked, k) for k in kinds] == [getattr(layers_kernel, k) for k in kinds]
    rows = ("K", "AW", "TW", "HI", "DISTINCT", "ARR", "TWN", "W", "TOTAL", "TSUM", "NLAB", "COUNT", "PAR")
    assert [getattr(ranked, r) for r in rows] == [getattr(pieces_kernel, r) for r in rows] == list(range(13))
    coords = ("RAD", "CW", "OFF", "LO", "CKIND", "ARRANGEMENT", "TWIST")
    assert [getattr(pieces_tables, r) for r in coords] == [getattr(pieces_kernel, r) for r in coords]


def test_one_set_of_distinct_pieces_is_a_permutation_space():
    assert space_of("top-spin 8").kind == ranked.PERM
    assert space_of("three-cycles").kind == ranked.PERM and space_of("three-cycles").compressed
    flips = [[(tuple(range(k - 1, -1, -1)) + tuple(range(k, 6)), ())] for k in range(2, 7)]
    pancakes = pieces_space("pancakes", [PieceSet(6)], flips, {})
    assert pancakes.kind == ranked.FLIPS and pancakes.size == factorial(6)
    rows = load_data("shuffle")["pancake_distance_table"]["rows"]
    assert list(layers.search(pancakes).histogram) == rows["6"]
    for name in ("cube <U,R>", "colours", "two sets"):
        assert space_of(name).kind == ranked.PIECES


# --- against a plain BFS ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(PUZZLES))
def test_the_histogram_and_the_farthest_states_are_those_of_a_plain_bfs(name):
    sets, moves = PUZZLES[name]
    dist = plain_bfs(sets, moves)
    space = space_of(name)
    found = layers.search(space, run=RunOptions(workers=2), show=10_000)
    assert found.histogram == histogram(dist)
    far = {s for s, d in dist.items() if d == found.diameter}
    assert found.farthest_count == len(far)
    assert {as_state(pieces_state(space, i)) for i in found.farthest} == far
    assert space.start == pieces_index(space, start_of(sets))


def test_the_cube_turned_by_u_and_r_has_29160_states():
    # the 2-generator group of the 2x2x2 cube: 5! arrangements of the corners, 3^5 twists
    assert layers.search(space_of("cube <U,R>"), run=RunOptions(workers=2)).states == 29_160 == 120 * 3**5


@pytest.mark.parametrize("workers", [1, 2])
def test_threads_tiny_chunks_buffers_and_blocks_agree(monkeypatch, workers):
    want = {name: layers.search(space_of(name), run=RunOptions(workers=1), show=10_000)
            for name in ("twist sum", "two sets", "colours")}
    monkeypatch.setattr(layers, "CHUNK", 1 << 8)
    monkeypatch.setattr(layers, "BLOCK", 1 << 6)
    monkeypatch.setattr(layers_common, "BUFFER", 64)
    for name, ref in want.items():
        got = layers.search(space_of(name), run=RunOptions(workers=workers), show=10_000)
        assert (got.histogram, got.farthest, got.farthest_count) == (ref.histogram, ref.farthest,
                                                                     ref.farthest_count)


def test_more_images_than_a_tiny_buffer_holds(monkeypatch):
    # 40 moves, a buffer of 32 a thread: a push still has room for one state's images
    monkeypatch.setattr(layers_common, "BUFFER", 64)
    swaps = [cycle(5, (a, b)) for a in range(5) for b in range(a + 1, 5)]
    sets = [PieceSet(5, 2)]
    moves = [[(perm, (t & 1, t >> 1, 0, 0, 0))] for perm in swaps for t in range(4)]
    found = layers.search(pieces_space("swaps", sets, moves, {}), run=RunOptions(workers=2))
    assert found.histogram == histogram(plain_bfs(sets, moves))


@pytest.mark.parametrize("ratio", [0.0, 1e9])
def test_top_down_only_and_bottom_up_only_agree(monkeypatch, ratio):
    monkeypatch.setattr(layers, "PULL_RATIO", ratio)
    for name in ("twist sum", "three sets", "one parity"):
        found = layers.search(space_of(name), run=RunOptions(workers=2), show=10_000)
        assert found.histogram == histogram(plain_bfs(*PUZZLES[name]))
        assert set(found.directions) == ({"t"} if ratio == 0 else {"b"})


def test_watched_states_get_their_distance():
    sets, moves = PUZZLES["two sets"]
    dist = plain_bfs(sets, moves)
    space = space_of("two sets")
    some = sorted(dist, key=lambda s: (-dist[s], s))[::97]
    found = layers.search(space, watch=[pieces_index(space, s) for s in some])
    assert [found.found[pieces_index(space, s)] for s in some] == [dist[s] for s in some]


# --- the 2x2x2 cube -----------------------------------------------------------------------------------------

#: the distance tables of the 2x2x2 cube (Pocket Cube), one corner fixed: God's number is 11
#: in the half-turn metric and 14 in the quarter-turn metric (Jaap Scherphuis, Jaap's Puzzle
#: Page, "Pocket Cube"; also Wikipedia, "Pocket Cube")
HTM = (1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644)
QTM = (1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276)


@pytest.mark.parametrize("powers,table", [((1, 2, 3), HTM), ((1, 3), QTM)], ids=["HTM", "QTM"])
def test_the_2x2x2_cube_has_its_published_distance_table(powers, table):
    space = pieces_space("2x2x2", CUBE, cube_moves("URF", powers), {"puzzle": "2x2x2"})
    assert space.size == factorial(7) * 3**6 == 3_674_160
    found = layers.search(space, run=RunOptions(workers=2), show=50)
    assert found.histogram == table and found.states == 3_674_160
    assert found.diameter == len(table) - 1 and found.farthest_count == table[-1]
    for i in found.farthest:
        ((corners, twists),) = pieces_state(space, i)
        assert sorted(corners) == list(range(7)) and sum(twists) % 3 == 0
        assert pieces_index(space, [(corners, twists)]) == i


# --- indexes and states -------------------------------------------------------------------------------------


@st.composite
def puzzles(draw):
    """Up to three sets, some of distinct pieces, and up to two moves: each a random perm of
    each set (an even one where drawn: sets held at one parity) without twists."""
    sets = []
    for _ in range(draw(st.integers(1, 3))):
        m = draw(st.integers(1, 5))
        k = draw(st.integers(1, 3))
        labels = tuple(draw(st.permutations(range(m)) if draw(st.booleans())
                            else st.lists(st.integers(0, m), min_size=m, max_size=m)))
        twist_sum = draw(st.booleans())
        start = tuple(draw(st.lists(st.integers(0, k - 1), min_size=m, max_size=m)))
        sets.append(PieceSet(m, k, labels, twist_sum, start))
    moves = []
    for _ in range(draw(st.integers(0, 2))):
        move = []
        for s in sets:
            perm = list(draw(st.permutations(range(s.size))))
            if s.size >= 2 and draw(st.booleans()) and ranked.parity(perm):
                perm[:2] = perm[1::-1]
            move.append((tuple(perm), ()))
        moves.append(move)
    return sets, moves


@settings(max_examples=80, deadline=None)
@given(puzzles(), st.data())
def test_an_index_and_its_state_go_both_ways(puzzle, data):
    sets, moves = puzzle
    space = pieces_space("random", sets, moves, {})
    assert space.size == pieces_index_size(sets, moves)
    index = data.draw(st.integers(0, space.size - 1))
    state = pieces_state(space, index)
    assert pieces_index(space, state) == index
    assert [sorted(labels) for labels, _ in state] == [sorted(s.labels) for s in sets]
    if space.kind == ranked.PIECES:  # the kernel reads the same state back, and ranks its images
        twists, labels = space.digits(index)
        values = [sorted(set(s.labels)) for s in sets]
        assert labels == [v.index(c) for v, (ls, _) in zip(values, state, strict=True) for c in ls]
        assert twists == [t for _, ts in state for t in ts]
        got = np.zeros(len(moves), dtype=np.int64)
        pieces_kernel.images(index, *space.arrays()[1:], got)
        assert list(got) == [pieces_index(space, apply(sets, as_state(state), move)) for move in moves]
    assert pieces_index(space, start_of(sets)) == space.start


def pieces_index_size(sets, moves) -> int:
    """The size a space of these sets must have: arrangements times twists held, per set,
    the arrangements halved for a set of distinct pieces that every move permutes evenly."""
    size = 1
    for i, s in enumerate(sets):
        arrangements = factorial(s.size)
        for v in set(s.labels):
            arrangements //= factorial(s.labels.count(v))
        if (len(set(s.labels)) == s.size >= 2 and moves
                and not any(ranked.parity(move[i][0]) for move in moves)):
            arrangements //= 2
        size *= arrangements * s.twists ** (s.size - s.twist_sum)
    return size


def test_a_set_held_at_one_parity_is_indexed_at_half_its_arrangements():
    space = space_of("one parity")
    assert space.radix == (2 * 3**2, 12 * 2**3, 12) and space.size == 20_736
    assert space.key["pieces"]["one parity"] == [1, 2]
    assert "one parity" not in space_of("two sets").key["pieces"]
    start = start_of(PUZZLES["one parity"][0])
    assert pieces_state(space, space.start) == list(start)
    odd = [start[0], ((0, 1, 2, 3), (0,) * 4), start[2]]  # set 1 starts odd: (1 0 2 3)
    with pytest.raises(ValueError, match=r"set 1: \[0, 1, 2, 3\] has the other parity, which the moves "
                                         r"of one parity never reach"):
        pieces_index(space, odd)
    with pytest.raises(ValueError, match=r"set 2: \[1, 0, 2, 3\] has the other parity"):
        pieces_index(space, [start[0], start[1], ((1, 0, 2, 3), ())])


def test_states_outside_the_space_are_refused():
    space = space_of("two sets")
    good = [((0, 1, 2, 3), (0, 0, 0, 0)), ((0, 0, 1), (0, 1, 2))]
    assert pieces_index(space, good) == space.start
    with pytest.raises(ValueError, match=r"set 1 holds the pieces \[0, 0, 1\], not \[0, 1, 1\]"):
        pieces_index(space, [good[0], ((0, 1, 1), (0, 0, 0))])
    with pytest.raises(ValueError, match=r"set 0 needs 4 twists in 0..1, not \[0, 0, 2, 0\]"):
        pieces_index(space, [((0, 1, 2, 3), (0, 0, 2, 0)), good[1]])
    with pytest.raises(ValueError, match=r"set 0's twists add up to 1 \(mod 2\), but its moves keep them at 0"
                       ):
        pieces_index(space, [((0, 1, 2, 3), (0, 0, 1, 0)), good[1]])
    with pytest.raises(ValueError, match="has 2 sets, not 1"):
        pieces_index(space, good[:1])
    with pytest.raises(ValueError, match=r"index 15552 is outside 0..15551"):
        pieces_state(space, 15_552)
    odd = space_of("three-cycles")
    assert pieces_state(odd, pieces_index(odd, [((3, 5, 4, 2, 1, 0), ())])) == [((3, 5, 4, 2, 1, 0),
                                                                                 (0,) * 6)]
    with pytest.raises(ValueError, match="other parity"):
        pieces_index(odd, [((4, 5, 3, 2, 1, 0), ())])
    deck = ranked.perm_space("decks", 3, [(1, 0, 2)], (1, 2, 3), {})
    with pytest.raises(ValueError, match="not a puzzle of pieces"):
        pieces_index(deck, [((0, 1, 2), ())])


@pytest.mark.parametrize("sets,moves,message", [
    ([PieceSet(3)], [[((0, 0, 1), ())]], r"move 0 on set 0: \[0, 0, 1\] is not a permutation of 0..2"),
    ([PieceSet(3)], [[((0, 1), ())]], r"not a permutation of 0..2"),
    ([PieceSet(3, 3)], [[((1, 2, 0), (0, 3, 0))]],
     r"move 0 on set 0: the twists \[0, 3, 0\] are not all in 0..2"),
    ([PieceSet(3, 3)], [[((1, 2, 0), (0, 1))]], "gives 2 twists for 3 positions"),
    ([PieceSet(3, 2, twist_sum=True)], [[((1, 2, 0), (1, 0, 0))]],
     r"its twists add up to 1, not a multiple of 2, so it breaks the twist sum"),
    ([PieceSet(3, labels=(0, 1))], [], "set 0 has 3 positions but 2 labels"),
    ([PieceSet(3, labels=(0, -1, 1))], [], "labels are 0-based, not -1"),
    ([PieceSet(3, labels=(0, 1.5, 1))], [], "labels are not all integers"),
    ([PieceSet(2, 3, start_twists=(0, 3))], [], r"start twists \[0, 3\] are not all in 0..2"),
    ([PieceSet(2, 3, start_twists=(0,))], [], "2 positions but 1 start twists"),
    ([PieceSet(0)], [], "set 0 has 0 positions"),
    ([PieceSet(2, 0)], [], "twists=0; a piece has at least one orientation"),
    ([], [], "has no set of pieces"),
    ([PieceSet(2), PieceSet(2)], [[((1, 0), ())]], "move 0 acts on 1 sets, the puzzle has 2"),
    ([PieceSet(2)], [[((1, 0),)]], r"move 0 on set 0 is not a pair \(perm, twist\)"),
    ([(2, 1)], [], "set 0 is not a PieceSet"),
    ([PieceSet(21)], [], "beyond what an index of 63 bits numbers"),
    ([PieceSet(12, 3), PieceSet(12, 2)], [], "beyond what an index of 63 bits numbers"),
])
def test_descriptions_that_are_not_puzzles_are_refused_in_words(sets, moves, message):
    with pytest.raises(ValueError, match=message):
        pieces_space("bad", sets, moves, {})


def test_the_key_holds_the_description():
    a = space_of("two sets")
    sets, moves = PUZZLES["two sets"]
    b = pieces_space("two sets", sets, moves[:2], {"puzzle": "two sets"})
    assert a.key["puzzle"] == "two sets" and layers_common.space_hash(a) != layers_common.space_hash(b)


# --- checkpoints and clusters -------------------------------------------------------------------------------


class Stop(Exception):
    pass


def test_a_killed_run_resumes_at_its_last_finished_layer(monkeypatch, tmp_path):
    ckpt = tmp_path / "run.ckpt"
    space = space_of("twist sum")
    whole = layers.search(space, run=RunOptions(workers=2), show=50)
    write = layers.write_checkpoint
    written = []

    def write_then_die(*args):
        write(*args)
        written.append(len(args[3]))
        if len(written) == 6:
            raise Stop

    monkeypatch.setattr(layers, "write_checkpoint", write_then_die)
    with pytest.raises(Stop):
        layers.search(space, run=RunOptions(workers=2, checkpoint=str(ckpt)))
    monkeypatch.setattr(layers, "write_checkpoint", write)
    again = layers.search(space, run=RunOptions(workers=2, checkpoint=str(ckpt)), show=50)
    assert again.resumed_at == 6
    assert (again.histogram, again.farthest, again.farthest_count) == (whole.histogram, whole.farthest,
                                                                       whole.farthest_count)
    with pytest.raises(ValueError, match="made for another search"):  # another puzzle of the same name
        sets, moves = PUZZLES["twist sum"]
        layers.search(pieces_space("twist sum", sets, moves[:1], {"puzzle": "twist sum"}),
                      run=RunOptions(checkpoint=str(ckpt)))


@pytest.mark.slow
def test_the_cluster_finds_what_one_machine_finds(dask_cluster, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    space = space_of("two sets")  # identical pieces, twists, a twist sum
    here = layers.search(space, run=RunOptions(workers=2), show=30, watch=[space.start, 0])
    there = layers.search(space, run=RunOptions(scheduler=dask_cluster), show=30, watch=[space.start, 0])
    assert (there.histogram, there.farthest, there.farthest_count, there.found) == (
        here.histogram, here.farthest, here.farthest_count, here.found)
    assert list(tmp_path.iterdir()) == []
