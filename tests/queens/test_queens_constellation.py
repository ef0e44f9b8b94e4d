"""The start-constellation counter (edges.py, constellation.py): published values, the
corner/rotation method, and its own parts against plain Python."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import load_data
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.queens import api, constellation, edges, rules

DATA = load_data("queens")
ALL = {int(k): v for k, v in DATA["all_solutions"]["values"].items()}
UNIQUE = {int(k): v for k, v in DATA["unique_solutions"]["values"].items()}


def plain_constellations(n):
    """The classes of edge queens by brute force on sets of squares: one representative each
    (the image whose edge-column queens stand lowest, then the smallest), its orbit, its turns."""
    m = n - 1
    moves = [
        lambda r, c: (r, c), lambda r, c: (c, m - r), lambda r, c: (m - r, m - c), lambda r, c: (m - c, r),
        lambda r, c: (c, r), lambda r, c: (m - c, m - r), lambda r, c: (m - r, c), lambda r, c: (r, m - c),
    ]

    def edge_queens(squares):
        return (
            next(c for r, c in squares if r == 0),
            next(c for r, c in squares if r == m),
            next(r for r, c in squares if c == 0),
            next(r for r, c in squares if c == m),
        )

    out = []
    for a, b, c, d in itertools.product(range(n), repeat=4):
        squares = frozenset({(0, a), (m, b), (c, 0), (d, m)})
        if len({r for r, _ in squares}) < len(squares) or len({c for _, c in squares}) < len(squares):
            continue  # two queens in a row or a column (or one edge holding two)
        if any(rules.attacks(*p, *q) for p in squares for q in squares if p != q):
            continue
        if edge_queens(squares) != (a, b, c, d):
            continue  # a corner square named by one edge only
        images = [frozenset(g(r, col) for r, col in squares) for g in moves]
        keys = [edge_queens(s) for s in images]
        if min(keys, key=lambda t: (-max(t[2], t[3]), t)) != (a, b, c, d):
            continue
        sym = (edges.HALF if images[2] == squares else 0) | (edges.QUARTER if images[1] == squares else 0)
        out.append((a, b, c, d, len(set(keys)), sym))
    return sorted(out)


@pytest.mark.parametrize("n", range(4, 12))
def test_constellations_are_the_classes_of_edge_queens(n):
    assert [tuple(row) for row in edges.constellations(n).tolist()] == plain_constellations(n)


@pytest.mark.parametrize("n", range(4, 15))
def test_counts_equal_the_published_values(n):
    c = api.count(n, method="constellation", run=RunOptions(workers=1))
    assert (c.solutions, c.unique, c.method) == (ALL[n], UNIQUE[n], "constellation")


@pytest.mark.parametrize("n", [15, *(pytest.param(n, marks=pytest.mark.slow) for n in (16, 17))])
def test_the_two_methods_agree_up_to_17(n):
    run = RunOptions(workers=2, progress=False)
    a = api.count(n, method="constellation", run=run)
    b = api.count(n, method="corner", run=run)
    assert (a.solutions, a.unique) == (b.solutions, b.unique) == (ALL[n], UNIQUE[n])


def test_every_board_is_counted_once_by_brute_force():
    """n = 8: every solution's edge queens, made canonical, land on a listed constellation, and
    each constellation's count is the number of solutions with exactly its edge queens."""
    n = 8
    boards = [b for b in itertools.permutations(range(n)) if rules.is_solution(b, n)]
    listed = {tuple(row[:4]): row for row in edges.constellations(n).tolist()}
    per_constellation = dict.fromkeys(listed, 0)
    for board in boards:
        a, b = board[0], board[-1]
        c, d = board.index(0), board.index(n - 1)
        if (a, b, c, d) in per_constellation:
            per_constellation[(a, b, c, d)] += 1
    for key, row in listed.items():
        found, half, quarter = constellation.count_one(n, *key, row[edges.SYM], n)
        assert found == per_constellation[key], key
    assert sum(per_constellation[k] * listed[k][edges.ORBIT] for k in listed) == len(boards) == 92


@settings(max_examples=40, deadline=None)
@given(st.integers(6, 11), st.data())
def test_every_image_of_a_constellation_has_the_same_solutions(n, data):
    cons = edges.constellations(n)
    row = cons[data.draw(st.integers(0, len(cons) - 1))]
    counts = {
        tuple(int(v) for v in constellation.count_one(n, *image, row[edges.SYM], n))
        for image in edges.images(n, *(int(v) for v in row[:4]))
    }
    assert len(counts) == 1
    assert constellation.orient(n, *(int(v) for v in row[:4])) in edges.images(n, *(int(v) for v in row[:4]))


def test_turned_boards_are_found():
    """n = 5: 10 solutions in 2 classes, one of them the 2 boards equal to their quarter turn."""
    cons = edges.constellations(5)
    quarter = sum(int(constellation.count_one(5, *row[:4], row[edges.SYM], 5)[2]) * row[edges.ORBIT]
                  for row in cons.tolist())
    assert quarter == 2
    total, unique8 = constellation.count_batch(5, cons)
    assert (total, unique8) == (10, 16)


def test_tasks_deal_out_every_constellation_once():
    from puzzlesearch.queens import tasks

    for n in (12, 13, 18):
        todo = tasks.constellation_tasks(n)
        dealt = sorted(tuple(r) for t in todo for r in t["cons"])
        assert dealt == sorted(tuple(r) for r in edges.constellations(n).tolist())
        assert all(t["n"] == n for t in todo)
    assert len(tasks.constellation_tasks(18)) == 1000


def test_bad_method_is_refused():
    with pytest.raises(ValueError,
                       match="--method must be one of assembly, constellation, corner, got 'fast'"):
        api.count(8, method="fast")
