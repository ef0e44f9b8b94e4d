"""Kernels and driver: published counts, the plain backtracker, the completion search, listings."""

import random
from dataclasses import replace

import numpy as np
import pytest

from conftest import load_data
from puzzlesearch.queens import corner, driver, rules

DATA = load_data("queens")
TOTAL = {int(k): v for k, v in DATA["all_solutions"]["values"].items()}
UNIQUE = {int(k): v for k, v in DATA["unique_solutions"]["values"].items()}


def test_counts_match_oeis_for_n_up_to_13():
    for n in range(1, 14):
        c = driver.count(n, workers=1)
        assert (c.solutions, c.unique) == (TOTAL[n], UNIQUE[n]), n
        assert c.method == ("corner" if n >= 4 else "complete")


def test_corner_method_agrees_with_plain_backtracker():
    for n in range(1, 11):
        c = driver.count(n, workers=1)
        assert (c.solutions, c.unique) == rules.count(n)


def test_completion_search_is_an_independent_count():
    # the plain kernel with no given queens: every solution met, classes weighted 1/k
    for n in (*range(1, 12), 13):  # 13: split into many tasks
        tasks = driver.complete_tasks(n, {})
        assert len(tasks) >= (100 if n > driver.SMALL_N else 1)
        results = [driver.complete_task(t) for t in tasks]
        units = sum(r[2] for r in results)
        assert units % 840 == 0
        assert (sum(r[1] for r in results), units // 840) == (TOTAL[n], UNIQUE[n])


def test_split_depth_does_not_change_the_count():
    n = 11
    roots = [(False, b, [0, b]) for b in range(2, n - 1)]
    roots += [(True, b, [b]) for b in range(1, n) if b < n - 1 - b]
    whole = np.zeros(3, np.int64)
    for side, b, cols in roots:
        r = driver.corner_task({"n": n, "side": side, "bound1": b, "cols": cols})
        whole += r
        # split this root at every depth: the pieces add up to the whole
        for depth in range(len(cols) + 1, n - 1):
            out = np.zeros((5000, n), np.int64)
            found = corner.split_kernel(n, side, b, driver._bits(cols), depth, out)
            assert found <= len(out)
            prefixes = [driver._columns(out[i, :depth]) for i in range(found)]
            tasks = [{"n": n, "side": side, "bound1": b, "cols": p} for p in prefixes]
            parts = sum(np.array(driver.corner_task(t)) for t in tasks)
            if found:
                assert list(parts) == r, (side, b, depth)
    assert 8 * whole[0] + 4 * whole[1] + 2 * whole[2] == TOTAL[n]


def test_tasks_depend_on_n_only_and_are_plenty():
    for n in (13, 14, 16):
        tasks = driver.corner_tasks(n)
        assert tasks == driver.corner_tasks(n)
        assert len(tasks) >= 100


def test_two_workers_agree_with_one():
    assert replace(driver.count(12, workers=2), seconds=0) == replace(driver.count(12, workers=1), seconds=0)
    two, one = driver.count(11, "1:2", workers=2), driver.count(11, "1:2", workers=1)
    assert replace(two, seconds=0) == replace(one, seconds=0)


def test_checkpoint_resumes_and_refuses_other_params(tmp_path):
    path = tmp_path / "q.sqlite"
    first = driver.count(11, workers=1, checkpoint=path)
    again = driver.count(11, workers=1, checkpoint=path)
    assert (first.solutions, first.unique) == (again.solutions, again.unique) == (TOTAL[11], UNIQUE[11])
    with pytest.raises(ValueError):
        driver.count(12, workers=1, checkpoint=path)


def test_listing_yields_every_solution_once():
    for n in range(1, 10):
        boards = list(driver.solutions(n))
        assert len(boards) == len(set(boards)) == TOTAL[n]
        assert all(rules.is_solution(b, n) for b in boards)
        assert boards == sorted(boards)


def test_unique_listing_gives_one_canonical_board_per_class():
    for n in range(1, 10):
        boards = list(driver.solutions(n, unique=True))
        assert len(boards) == UNIQUE[n]
        assert all(rules.canonical(b) == b for b in boards)
        assert len({rules.canonical(b) for b in boards}) == UNIQUE[n]


def test_listing_is_lazy_across_batches():
    gen = driver.solutions(12)
    first = [next(gen) for _ in range(driver.LIST_BATCH + 3)]
    assert first == sorted(first) and len(set(first)) == len(first)
    assert first[0] == next(iter(rules.solutions(12)))


def _extends(board, fixed):
    return all(board[r] == c for r, c in fixed.items())


def test_completions_agree_with_filtering_the_full_list():
    rng = random.Random(5)
    for n in (5, 6, 7, 8, 9):
        full = list(rules.solutions(n))
        for _ in range(6):
            rows = rng.sample(range(n), rng.randint(1, 3))
            fixed = {r: rng.randrange(n) for r in rows}
            expected = [b for b in full if _extends(b, fixed)]
            text = ",".join(f"{r + 1}:{c + 1}" for r, c in fixed.items())
            got = driver.count(n, text, workers=1)
            classes = {rules.canonical(b) for b in expected}
            assert got.solutions == len(expected), (n, fixed)
            assert got.unique == len(classes), (n, fixed)
            assert list(driver.solutions(n, fixed=fixed)) == expected
            reps = list(driver.solutions(n, unique=True, fixed=fixed))
            assert reps == sorted(min(b for b in expected if rules.canonical(b) == k) for k in classes)


def test_attacking_givens_have_no_completion_and_a_note():
    c = driver.count(8, "1:1,3:3")
    assert (c.solutions, c.unique) == (0, 0)
    assert "1:1" in c.note and "3:3" in c.note
    two = driver.count(8, "2:5,2:1")  # two queens in one row
    assert two.note and two.fixed == "2:1,2:5"


def test_bad_sizes_and_squares_are_refused():
    for n in (0, -3, driver.MAX_N + 1):
        with pytest.raises(ValueError):
            driver.count(n)
        with pytest.raises(ValueError):
            next(driver.solutions(n))
    for text in ("9:1", "1:0", "x", "1:2:3", "", "1:1,1:1"):
        with pytest.raises(ValueError):
            driver.parse_fixed(text, 8)


def test_larger_boards_list():
    b = next(driver.solutions(24))
    assert rules.is_solution(b, 24)
