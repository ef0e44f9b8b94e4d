"""The passes of puzzles of pieces (pieces_kernel): the top-down pass marks every image
itself, one atomic step a state (mark_next): each byte value, threads marking the same
bytes at once, a push from one state whose images all lie outside its range; the passes
move the last coordinate alone through its row when only it changed: their images, over
every index in turn and over indices far apart, are those `images` computes from scratch,
on random puzzles with every coordinate through a table, none, and some."""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest
from numba import njit
from test_pieces_space import space_of
from test_pieces_tables import budgets, random_pieces, space_within

from puzzlesearch.engine import layers_kernel, pieces_kernel
from puzzlesearch.engine import space as ranked
from puzzlesearch.engine.layers_kernel import NEXT, UNSEEN


@njit(nogil=True)
def mark_all(cells, states):
    """mark_next each of `states` in turn; how many it marked."""
    address = cells.ctypes.data
    marked = 0
    for t in states:
        marked += layers_kernel.mark_next(address, t)
    return marked


def cell(byte: int, s: int) -> int:
    return (byte >> (2 * s)) & 3


@pytest.mark.parametrize("s", range(4))
def test_an_unseen_state_becomes_next_and_its_neighbours_stay(s):
    for byte in range(256):
        if cell(byte, s) not in (UNSEEN, NEXT):  # the only values a pass marks
            continue
        cells = np.array([0, byte, 0], dtype=np.uint8)
        marked = mark_all(cells, np.array([4 + s], dtype=np.int64))
        assert marked == (cell(byte, s) == UNSEEN)
        assert cell(int(cells[1]), s) == NEXT
        others = [o for o in range(4) if o != s]
        assert [cell(int(cells[1]), o) for o in others] == [cell(byte, o) for o in others]
        assert cells[0] == 0 and cells[2] == 0


@pytest.mark.parametrize("seed", range(3))
def test_threads_marking_the_same_bytes_mark_each_state_once(seed):
    rng = random.Random(seed)
    size = 1 << 14
    cells = np.full(size // 4, 0xFF, dtype=np.uint8)
    lists = [np.array([rng.randrange(size) for _ in range(200_000)], dtype=np.int64) for _ in range(4)]
    counts = [0] * len(lists)

    def run(w: int) -> None:
        counts[w] = mark_all(cells, lists[w])

    mark_all(np.full(1, 0xFF, dtype=np.uint8), np.zeros(1, dtype=np.int64))  # compiled before the race
    threads = [threading.Thread(target=run, args=(w,)) for w in range(len(lists))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wanted = set(np.concatenate(lists).tolist())
    assert sum(counts) == len(wanted)
    assert all(layers_kernel.get(cells, i) == (NEXT if i in wanted else UNSEEN) for i in range(size))


@pytest.mark.parametrize("name", ["three sets", "one parity", "cube <U,R>"])
def test_a_push_marks_images_outside_its_range_and_buffers_none(name):
    space = space_of(name)
    arrays = space.arrays()
    cells = np.full((space.size + 3) // 4, 0xFF, dtype=np.uint8)
    layers_kernel.put(cells, space.start, layers_kernel.CUR)
    buf = np.zeros(64, dtype=np.int64)
    counts = np.zeros(2, dtype=np.int64)
    end = pieces_kernel.push(cells, space.start, space.start + 1, space.start, *arrays, buf, counts)
    out = np.zeros(len(space.moves), dtype=np.int64)
    pieces_kernel.images(space.start, *arrays[1:], out)
    images = set(out.tolist()) - {space.start}
    assert end == space.start + 1
    assert list(counts) == [len(images), 0]
    assert {i for i in range(space.size) if layers_kernel.get(cells, i) == NEXT} == images


@pytest.mark.parametrize("inverses", [False, True], ids=["moves", "closed"])
@pytest.mark.parametrize("seed", range(50, 70))
def test_the_images_a_pass_emits_are_those_computed_from_scratch(monkeypatch, seed, inverses):
    sets, moves = random_pieces(seed, inverses)
    rng = random.Random(seed)
    for budget in budgets(sets, moves).values():
        space = space_within(monkeypatch, budget, sets, moves)
        if space.kind != ranked.PIECES:
            continue
        arrays, m = space.arrays(), len(moves)
        for gap in (1, 2, 7, 1000):  # every index, then fewer: carries into the coordinates above
            chosen = sorted(rng.sample(range(space.size), max(1, space.size // gap)))
            cells = np.full((space.size + 3) // 4, 0xFF, dtype=np.uint8)
            for i in chosen:
                layers_kernel.put(cells, i, layers_kernel.OLD)
            buf = np.zeros(len(chosen) * m + m, dtype=np.int64)
            counts = np.zeros(2, dtype=np.int64)
            pieces_kernel.emit(cells, 0, space.size, 0, layers_kernel.OLD, *arrays, buf, counts)
            out = np.zeros(m, dtype=np.int64)
            wanted = []
            for i in chosen:
                pieces_kernel.images(i, *arrays[1:], out)
                wanted += out.tolist()
            assert counts[0] == len(wanted) and buf[:counts[0]].tolist() == wanted
