"""Both searches against published values, against their plain-Python versions, against
brute force, and against each other; every deck replayed with the rules."""

import pytest

from conftest import load_data
from puzzlesearch import topswops
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.store import ResultsStore
from puzzlesearch.topswops import backward, forward, plain, rules
from puzzlesearch.topswops.bounds import bound_array, first_target
from puzzlesearch.topswops.forward import Tree

DATA = load_data("topswops")
F = {int(k): v for k, v in DATA["max_steps"]["values"].items()}
COUNTS = {int(k): v for k, v in DATA["optimal_deck_count"]["values"].items()}


def knuth(n, run=RunOptions(workers=1)):  # noqa: B008 (frozen)
    """Knuth's forward search for f(n), with this program's own bounds."""
    return forward.search(Tree.plain(n, forward.own_bounds(n)), run)


@pytest.mark.parametrize("n", range(1, 12))
def test_backward_search_finds_f_and_every_optimal_deck(n):
    r = backward.solve_backward(n)
    assert r.steps == F[n]
    assert len(r.decks) == COUNTS[n]
    assert all(rules.steps(d) == F[n] for d in r.decks)
    assert r.nodes == sum(r.nodes_per_level)


@pytest.mark.parametrize("n", range(1, 12))
def test_forward_search_finds_f_and_every_optimal_deck(n):
    r = knuth(n)
    assert r.steps == F[n]
    assert len(r.decks) == COUNTS[n]
    assert all(rules.steps(d) == F[n] for d in r.decks)
    assert r.bounds == [0] + [F[m] for m in range(1, n)]


@pytest.mark.parametrize("n", range(2, 9))
def test_backward_kernel_equals_its_plain_python_version(n):
    r = backward.solve_backward(n)
    assert plain.backward(n) == (r.steps, r.partial_decks)


@pytest.mark.parametrize("n", range(1, 10))
def test_forward_kernel_equals_its_plain_python_version(n):
    f = forward.own_bounds(n)
    r = forward.search(Tree.plain(n, f), RunOptions(workers=1))
    assert plain.forward(n, f) == (r.steps, r.decks)


@pytest.mark.parametrize("n", [*range(2, 10), *(pytest.param(n, marks=pytest.mark.slow) for n in (10, 11))])
def test_forward_kernel_walks_the_plain_python_tree_node_for_node(n):
    # the same pruning at the same moments (the target rising at the same leaves): the
    # same nodes on every level
    f = forward.own_bounds(n)
    nodes = []
    plain.forward(n, f, nodes=nodes)
    found = forward.search_below(n, bound_array(n, f), first_target(f, n))
    assert nodes == [int(x) for x in found.nodes]


@pytest.mark.parametrize("n", range(1, 9))
def test_both_searches_list_exactly_the_decks_brute_force_finds(n):
    best, decks = rules.max_steps_brute(n)
    assert topswops.optimal(n, "backward").decks == sorted(decks)
    assert topswops.optimal(n, "forward").decks == sorted(decks)


def test_backward_records_deepen_one_level_at_a_time_and_replay():
    r = backward.solve_backward(7)
    assert [d for d, _ in r.records] == list(range(F[7] + 1))
    for depth, partial in r.records:
        full = backward.completions(partial)[0]
        assert rules.steps(full) == depth


@pytest.mark.slow
def test_subproblems_on_two_workers_give_the_serial_answer_and_decks():
    serial = knuth(10)
    split = knuth(10, RunOptions(workers=2))
    assert split.subproblems >= 100
    assert (split.steps, split.decks) == (serial.steps, serial.decks)


def test_split_tasks_cover_the_search_exactly():
    tree = Tree.plain(9, forward.own_bounds(9))
    tasks, above = forward.split_tasks(tree, at_least=20)
    parts = [above] + [forward.forward_task(t, -1) for t in tasks]  # -1: no deck found yet
    best, decks, _ = forward.merge(parts)
    assert (best, decks) == (F[9], forward.search(tree, RunOptions(workers=1)).decks)


def test_bounds_are_computed_once_then_read_back_from_the_results_store(tmp_path):
    path = tmp_path / "results.sqlite"
    assert forward.own_bounds(8, store=path) == [0] + [F[m] for m in range(1, 8)]
    with ResultsStore(path) as db:
        assert [db.get("topswops", f"f({m})") for m in range(1, 8)] == [F[m] for m in range(1, 8)]
        db.put("topswops", "f(7)", 99, "test")  # a stored value is what later runs use
    assert forward.own_bounds(8, store=path)[7] == 99


def test_solve_both_cross_checks_and_stores_its_answer(tmp_path):
    s = topswops.solve(9, "both", run=RunOptions(store=str(tmp_path / "r.sqlite")))
    assert (s.backward, s.forward, s.match) == (F[9], F[9], True)
    with ResultsStore(tmp_path / "r.sqlite") as db:
        assert db.get("topswops", "f(9)") == F[9]


def test_limits_are_refused_with_a_reason():
    with pytest.raises(ValueError, match="n <= 15"):
        backward.solve_backward(16)
    with pytest.raises(ValueError, match="n <= 32"):
        forward.search(Tree(33, [0] * 33, 1), RunOptions(workers=1))
