"""The API (api.py) and the tasks (tasks.py): published counts, the plain backtracker, the
completion search, listings, and the checks the command line relies on."""

import doctest
import random
import sys
from dataclasses import replace

import numpy as np
import pytest

from conftest import load_data
from puzzlesearch import queens
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.queens import aot, api, construct, corner, rules, tasks

DATA = load_data("queens")
TOTAL = {int(k): v for k, v in DATA["all_solutions"]["values"].items()}
UNIQUE = {int(k): v for k, v in DATA["unique_solutions"]["values"].items()}
ONE = RunOptions(workers=1)


def test_the_examples_in_the_api_docstring_run():
    result = doctest.testmod(api, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10 and result.failed == 0


def test_the_package_exports_the_api():
    assert queens.count is api.count and queens.solutions is api.solutions and queens.Count is api.Count
    assert set(queens.__all__) <= set(api.__all__) | set(construct.__all__)


def test_counts_match_oeis_for_n_up_to_13():
    for n in range(1, 14):
        c = queens.count(n, run=ONE)
        assert (c.solutions, c.unique) == (TOTAL[n], UNIQUE[n]), n
        assert c.method == ("constellation" if n >= 4 else "complete")


def test_every_method_agrees_with_plain_backtracker():
    for n in range(1, 11):
        for method in api.METHODS:
            if method == "assembly" and n < 4:  # no board of four quarters: refused
                with pytest.raises(ValueError, match="--method assembly needs -n 4 or more"):
                    queens.count(n, method=method, run=ONE)
                continue
            c = queens.count(n, method=method, run=ONE)
            assert (c.solutions, c.unique) == rules.count(n), (n, method)


def test_completion_search_is_an_independent_count():
    # the plain kernel with no given queens: every solution met, classes weighted 1/k
    for n in (*range(1, 12), 13):  # 13: split into many tasks
        todo = tasks.complete_tasks(n, {})
        assert len(todo) >= (100 if n > tasks.QUICK_N else 1)
        results = [tasks.complete_task(t) for t in todo]
        units = sum(r[tasks.UNITS] for r in results)
        assert units % 840 == 0
        assert (sum(r[tasks.FOUND] for r in results), units // 840) == (TOTAL[n], UNIQUE[n])


def test_split_depth_does_not_change_the_count():
    n = 11
    roots = [(False, b, [0, b]) for b in range(2, n - 1)]
    roots += [(True, b, [b]) for b in range(1, n) if b < n - 1 - b]
    whole = np.zeros(3, np.int64)
    for side, b, cols in roots:
        r = tasks.corner_task({"n": n, "side": side, "bound1": b, "cols": cols})
        whole += r
        # split this root at every depth: the pieces add up to the whole
        for depth in range(len(cols) + 1, n - 1):
            out = np.zeros((5000, n), np.int64)
            found = corner.split_kernel(n, side, b, tasks._bits(cols), depth, out)
            assert found <= len(out)
            prefixes = [tasks._columns(out[i, :depth]) for i in range(found)]
            pieces = [{"n": n, "side": side, "bound1": b, "cols": p} for p in prefixes]
            parts = sum((np.array(tasks.corner_task(t)) for t in pieces), np.zeros(3, np.int64))
            assert list(parts) == r, (side, b, depth)
    assert 8 * whole[0] + 4 * whole[1] + 2 * whole[2] == TOTAL[n]
    assert whole.sum() == UNIQUE[n]


def test_tasks_depend_on_n_only_and_are_plenty():
    # the split the README and tasks._split_target speak of: 212 tasks for n = 16, 243 for 17
    for n, expected in ((12, 14), (13, 115), (14, 147), (16, 212), (17, 243)):
        todo = tasks.corner_tasks(n)
        assert len(todo) == expected, n
        assert todo == tasks.corner_tasks(n)
        assert len({str(t) for t in todo}) == len(todo)


def test_the_jit_kernels_give_the_same_task_results():
    n = 13
    for t in tasks.corner_tasks(n)[::7]:
        assert tasks.corner_task(t, "jit") == tasks.corner_task(t), t


def test_long_counts_in_this_process_and_cluster_threads_use_the_kernels_that_release_the_gil(monkeypatch):
    monkeypatch.delenv("PUZZLESEARCH_KERNELS", raising=False)
    big = tasks.JIT_IN_PROCESS_N
    assert tasks.shared_kernels(big - 1, 1, False) is None
    assert tasks.shared_kernels(big, 1, False) == "jit"
    assert tasks.shared_kernels(big, 2, False) is None  # worker processes: the GIL is their own
    assert tasks.shared_kernels(5, 2, True) == "jit"  # a Dask worker's threads share one process
    monkeypatch.setenv("PUZZLESEARCH_KERNELS", "aot")  # forced: kept
    assert tasks.shared_kernels(big, 1, False) is None
    assert tasks.shared_kernels(big, 2, True) is None
    monkeypatch.delenv("PUZZLESEARCH_KERNELS")
    # a count from that size on, made small here: in this process on the JIT kernels, on
    # workers as chosen by aot.kernels()
    monkeypatch.setattr(tasks, "JIT_IN_PROCESS_N", 13)
    c = queens.count(13, run=ONE)
    assert (c.solutions, c.unique, c.kernels) == (TOTAL[13], UNIQUE[13], "jit")
    c = queens.count(13, run=RunOptions(workers=2))
    assert (c.solutions, c.unique, c.kernels) == (TOTAL[13], UNIQUE[13], aot.kernels()[1])


def test_two_workers_agree_with_one():
    two, one = queens.count(12, run=RunOptions(workers=2)), queens.count(12, run=ONE)
    assert replace(two, seconds=0) == replace(one, seconds=0)
    assert (one.solutions, one.unique) == (TOTAL[12], UNIQUE[12])
    two, one = queens.count(11, "1:2", run=RunOptions(workers=2)), queens.count(11, "1:2", run=ONE)
    assert replace(two, seconds=0) == replace(one, seconds=0)
    expected = [b for b in rules.solutions(11) if b[0] == 1]
    assert one.solutions == len(expected) and one.unique == len({rules.canonical(b) for b in expected})


class Stop(Exception):
    pass


def test_an_interrupted_count_resumes_with_the_unfinished_tasks_only(tmp_path, monkeypatch):
    path = tmp_path / "q.sqlite"
    run = RunOptions(workers=1, checkpoint=str(path))
    todo = tasks.constellation_tasks(13)
    assert len(todo) >= 100
    real, calls = tasks.constellation_task, []

    def counted(task, kernels=None):
        if len(calls) == stop_after:
            raise Stop
        calls.append(task)
        return real(task, kernels)

    monkeypatch.setattr(tasks, "constellation_task", counted)
    stop_after = len(todo) // 2
    with pytest.raises(Stop):
        queens.count(13, run=run)
    assert calls == todo[:stop_after]
    calls.clear()
    stop_after = None
    again = queens.count(13, run=run)
    assert calls == todo[len(todo) // 2:]  # the finished half is read back, not run again
    assert (again.solutions, again.unique) == (TOTAL[13], UNIQUE[13])
    calls.clear()
    done = queens.count(13, run=run)
    assert calls == [] and (done.solutions, done.unique) == (TOTAL[13], UNIQUE[13])
    with pytest.raises(ValueError, match="was made for other parameters"):
        queens.count(12, run=run)


def test_small_boards_run_in_this_process_by_the_engines_policy():
    # the one worker policy: a quick job (n <= 12) runs in this process unless asked otherwise
    assert RunOptions().workers_for(quick=12 <= tasks.QUICK_N) == 1
    assert RunOptions(workers=2).workers_for(quick=True) == 2
    assert tasks.QUICK_N == 12


def test_listing_yields_every_solution_once():
    for n in range(1, 10):
        boards = list(queens.solutions(n))
        assert len(boards) == len(set(boards)) == TOTAL[n]
        assert all(rules.is_solution(b, n) for b in boards)
        assert boards == list(rules.solutions(n))


def test_unique_listing_gives_one_canonical_board_per_class():
    for n in range(1, 10):
        boards = list(queens.solutions(n, unique=True))
        assert len(boards) == UNIQUE[n]
        assert all(rules.canonical(b) == b for b in boards)
        assert len({rules.canonical(b) for b in boards}) == UNIQUE[n]


def test_listing_is_lazy_across_batches():
    gen = queens.solutions(12)
    first = [next(gen) for _ in range(api.LIST_BATCH + 3)]
    reference = rules.solutions(12)
    assert first == [next(reference) for _ in range(api.LIST_BATCH + 3)]


def test_listing_limits():
    assert list(queens.solutions(8, limit=3)) == list(rules.solutions(8))[:3]
    assert len(list(queens.solutions(8, limit=0))) == TOTAL[8]
    assert len(list(queens.solutions(8, limit=sys.maxsize))) == TOTAL[8]


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
            got = queens.count(n, text, run=ONE)
            classes = {rules.canonical(b) for b in expected}
            assert got.solutions == len(expected), (n, fixed)
            assert got.unique == len(classes), (n, fixed)
            assert list(queens.solutions(n, fixed=fixed)) == expected
            assert list(queens.solutions(n, fixed=text)) == expected
            reps = list(queens.solutions(n, unique=True, fixed=fixed))
            assert reps == sorted(min(b for b in expected if rules.canonical(b) == k) for k in classes)


def test_attacking_givens_have_no_completion_and_a_note():
    c = queens.count(8, "1:1,3:3")
    assert (c.solutions, c.unique, c.method) == (0, 0, "complete")
    assert c.note == "the given queens 1:1 and 3:3 attack each other"
    two = queens.count(8, "2:5,2:1")  # two queens in one row
    assert two.note == "the given queens 2:5 and 2:1 attack each other" and two.fixed == "2:1,2:5"
    assert list(queens.solutions(8, fixed="2:5,2:1")) == []


def test_givens_are_parsed_once_into_one_value():
    g = queens.givens(8, " 4:7 , 1:3 ,")
    assert g == queens.Givens(((3, 6), (0, 2)), "1:3,4:7", "")
    assert queens.givens(8, g) is g
    assert queens.givens(8, {3: 6, 0: 2}) == queens.Givens(((0, 2), (3, 6)), "1:3,4:7", "")
    assert queens.givens(8, None) == queens.Givens((), "", "")
    assert queens.count(8, g).solutions == queens.count(8, "1:3,4:7").solutions == 3


@pytest.mark.parametrize(("call", "message"), [
    (lambda: queens.count(0), "-n must be at least 1, got 0"),
    (lambda: queens.count(-3), "-n must be at least 1, got -3"),
    (lambda: queens.count(63), "-n must be at most 62 (rows are 64-bit masks), got 63"),
    (lambda: queens.count(10**20), "-n must be at most 62 (rows are 64-bit masks), got 1000000000000000000"),
    (lambda: queens.count(28), "-n must be at most 27 to count all solutions (27 is the largest n ever "
                               "counted, and would take decades of CPU time here), got 28"),
    (lambda: queens.count(8.0), "-n must be a whole number, got 8.0"),
    (lambda: queens.count(True), "-n must be a whole number, got True"),
    (lambda: queens.solutions(0), "-n must be at least 1, got 0"),
    (lambda: queens.solutions(63), "-n must be at most 62 (rows are 64-bit masks), got 63"),
    (lambda: queens.solutions(8, limit=-1), "--limit must be at least 0 (0 shows all), got -1"),
    (lambda: queens.solutions(8, limit=2**63),
     "--limit must be at most 9223372036854775807 (0 shows all), got 9223372036854775808"),
    (lambda: queens.givens(8, "9:1"), "--fixed square 9:1 is off the 8x8 board (rows and columns are 1..8)"),
    (lambda: queens.givens(8, "1:0"), "--fixed square 1:0 is off the 8x8 board (rows and columns are 1..8)"),
    (lambda: queens.givens(8, "x"), "--fixed expects row:column pairs like 1:3,4:7, got 'x'"),
    (lambda: queens.givens(8, "1:2:3"), "--fixed expects row:column pairs like 1:3,4:7, got '1:2:3'"),
    (lambda: queens.givens(8, "²:1"), "--fixed expects row:column pairs like 1:3,4:7, got '²:1'"),
    (lambda: queens.givens(8, "1" * 5000 + ":1"), "--fixed expects row:column pairs like 1:3,4:7, got '1111"),
    (lambda: queens.givens(8, ""), "--fixed needs at least one row:column pair"),
    (lambda: queens.givens(8, "1:1,1:1"), "--fixed gives the square 1:1 twice"),
    (lambda: queens.givens(8, {0: 8}), "given queen (0, 8) is off the 8x8 board"),
    (lambda: queens.givens(8, {0: "a"}), "given queens are {row: column} with whole numbers, got 0: 'a'"),
])
def test_bad_sizes_and_squares_are_refused_at_once(call, message):
    with pytest.raises(ValueError) as e:
        call()  # solutions() checks when called, not when the first board is taken
    assert str(e.value).startswith(message)
    assert len(str(e.value)) < 200


@pytest.mark.slow
def test_completions_go_beyond_the_counting_limit():
    # given queens bound the work: the limit of counting all solutions does not apply
    first = next(rules.solutions(30))
    fixed = {r: c for r, c in enumerate(first) if r < 22}
    c = queens.count(30, fixed, run=ONE)
    expected = [b for b in rules.solutions(30, fixed)]
    assert (c.solutions, c.method) == (len(expected), "complete") and c.solutions >= 1


def test_larger_boards_list():
    b = next(queens.solutions(24))
    assert rules.is_solution(b, 24)
    assert b == next(rules.solutions(24))


def test_corner_weights_count_the_subtree_a_few_rows_down():
    # a task's weight is the number of its prefixes at one depth for all tasks (side boards
    # weigh SIDE_COST each), so the tasks split from one first-row choice weigh what it weighs
    n = 14
    todo = tasks.corner_tasks(n)
    weight = tasks.corner_weight(n, todo)
    depth = max(len(t["cols"]) for t in todo) + tasks.LOOKAHEAD
    for side, b, cols in [(False, 2, [0, 2]), (False, 7, [0, 7]), (True, 1, [1]), (True, 5, [5])]:
        root = {"n": n, "side": side, "bound1": b, "cols": cols}
        parts = [t for t in todo if (t["side"], t["bound1"], t["cols"][: len(cols)]) == (side, b, cols)]
        assert len(parts) > 1 and weight(root) == sum(weight(t) for t in parts) > 0
        out = np.zeros((10**5, n), np.int64)
        found = corner.split_kernel(n, side, b, tasks._bits(cols), depth, out)
        assert weight(root) == found * (tasks.SIDE_COST if side else 1)


@pytest.mark.parametrize("n,fixed", [(62, "1:1"), (40, "1:1,2:3"), (29, "1:1")])
def test_completions_with_rows_beyond_the_counting_limit_are_refused(n, fixed):
    free = n - len(fixed.split(","))
    with pytest.raises(ValueError, match=rf"^--fixed gives .* of {n}: the other {free} rows are a search "
                                         rf"like counting all solutions of n={free} \(refused above "
                                         rf"{api.MAX_COUNT_N}, decades of CPU time here\); give at least "
                                         rf"{n - api.MAX_COUNT_N} queens$"):
        queens.count(n, fixed)


def test_the_command_line_refuses_a_large_completion_in_one_line():
    from conftest import assert_bad_input, run_cli

    r = run_cli("queens", "count", "-n", "62", "--fixed", "1:1")
    assert_bad_input(r)
    assert "the other 61 rows are a search like counting all solutions of n=61" in r.err
