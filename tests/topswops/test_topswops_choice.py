"""The method chosen by Knuth's probes (choice.py, plan.py), the chained listing
(bottom.compute with k2), and a bottom bound the results store keeps damaged."""

import json
import sqlite3

import pytest

from conftest import load_data
from puzzlesearch import topswops
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.topswops import bottom, choice, forward, known, plan, rules
from puzzlesearch.topswops.forward import Tree

DATA = load_data("topswops")
F = {int(k): v for k, v in DATA["max_steps"]["values"].items()}
BOUNDS = tuple([0] + [F[m] for m in range(1, 17)])


@pytest.mark.parametrize("n", [11, 12, 13])
def test_the_choice_weighs_listings_at_k_above_what_the_witness_leaves(n):
    witness = forward.search(Tree.plain(n, BOUNDS), RunOptions(workers=1)).decks[0]
    left = bottom.steps_left_at_bottom(witness)
    smaller = forward.search(Tree.plain(n - 1, BOUNDS), RunOptions(workers=1)).decks[0]
    inner = bottom.steps_left_at_bottom(smaller)
    c = choice.choose(n, BOUNDS[:n], F[n], left, probes=2_000)
    assert c.method in ("plain", "deep") and c.why
    assert c.plain > 0 and left < c.k < BOUNDS[n - 1]
    assert c.deep == pytest.approx(sum(c.parts.values()))
    assert c.nodes() == (c.plain if c.method == "plain" else c.deep)
    assert c.k2 is None  # no known deck of n - 1 cards: no floor for the chain's bound
    chained = choice.choose(n, BOUNDS[:n], F[n], left, None, inner, probes=2_000)
    if chained.k2 is not None:
        assert inner < chained.k2 <= chained.k and set(chained.parts) == {"search", "listing", "chain"}
    # a bound the store keeps: nothing to list
    kept = choice.choose(n, BOUNDS[:n], F[n], left, c.k - 1, probes=2_000)
    assert kept.parts["listing"] == 0 and kept.k is None


def test_no_deep_plan_when_the_witness_leaves_f_of_n_minus_1_or_more():
    c = choice.choose(10, BOUNDS[:10], F[10], F[9] - 1, probes=500)
    assert (c.method, c.deep) == ("plain", None)


@pytest.mark.parametrize(("n", "k", "k2"), [(11, 45, 15), (12, 48, 20), (13, 60, 30)])
def test_the_chained_listing_finds_the_same_bound_as_the_plain_one(tmp_path, n, k, k2):
    run = RunOptions(workers=1, store=str(tmp_path / "store.sqlite"))
    plain = bottom.compute(n, F[n], k, BOUNDS[:n], run)
    chained = bottom.compute(n, F[n], k, BOUNDS[:n], run, k2)
    assert chained.k2 == k2
    assert (chained.bound, chained.listed, chained.longest) == (plain.bound, plain.listed, plain.longest)
    # the chain's own bound (card n - 1 at the bottom, games of >= k steps) is kept with what made it
    inner = bottom.stored(n - 1, k, run.store)
    assert inner is not None and (inner.target, inner.k) == (k, k2)
    # ... and, tighter than f(n-2), prunes the listing: fewer nodes, the same games
    assert chained.inner == inner.bound < BOUNDS[n - 2]
    assert chained.nodes < plain.nodes


def test_a_damaged_bottom_bound_is_named_and_computed_again(tmp_path, capsys, bottom_listings):
    store = str(tmp_path / "store.sqlite")
    run = RunOptions(workers=1, store=store)
    witness = forward.search(Tree.plain(10, BOUNDS), run).decks[0]
    good, _ = bottom.bottom_bound(10, F[10], witness, BOUNDS[:10], run)
    db = sqlite3.connect(store)
    for damaged in ([{**json.loads(json.dumps(good.__dict__)), "bound": "many"}],
                    [{"n": 10, "target": F[10]}],
                    [{**good.__dict__, "deck": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "longest": 50}],
                    {"not": "a list"}):
        db.execute("update results set value = ? where key = ?", (json.dumps(damaged), known.bottom_key(10)))
        db.commit()
        capsys.readouterr()
        again, source = bottom.bottom_bound(10, F[10], witness, BOUNDS[:10], run)
        err = capsys.readouterr().err
        assert source == "listing" and again.bound == good.bound
        assert err.count("\n") == 1 and "damaged" in err and "n=10" in err
        # the damaged record is gone: the next run reads the new one back, and says nothing
        assert bottom.bottom_bound(10, F[10], witness, BOUNDS[:10], run) == (again, "store")
        assert capsys.readouterr().err == ""


def test_a_chosen_method_finds_f_n_and_says_why(tmp_path, monkeypatch):
    # the choice made at a small n (as from CHOOSE_FROM on): whichever it takes, the answer
    # is f(n) with every optimal deck
    monkeypatch.setattr(plan, "CHOOSE_FROM", 9)
    monkeypatch.setattr(plan, "PLAIN_BELOW", 0.0)
    run = RunOptions(workers=1, store=str(tmp_path / "store.sqlite"))
    s = topswops.solve(11, "forward", run=run)
    assert s.forward == F[11] and s.plan.choice is not None and s.plan.choice.why
    assert s.decks == topswops.optimal(11, run=RunOptions(workers=1)).decks
    assert all(rules.steps(d) == F[11] for d in s.decks)
    assert s.plan.deep == (s.plan.choice.method == "deep")


def test_the_estimate_names_the_plan_solve_would_choose(tmp_path, monkeypatch):
    monkeypatch.setattr(plan, "CHOOSE_FROM", 9)
    monkeypatch.setattr(plan, "PLAIN_BELOW", 0.0)
    run = RunOptions(workers=2, store=str(tmp_path / "store.sqlite"))
    e = topswops.estimate(11, probes=2_000, run=run)
    assert e.method in ("plain", "deep") and e.why and e.plan_seconds > 0
    if e.method == "deep":
        assert e.plan_nodes == pytest.approx(sum(e.parts.values())) and e.k is not None
    else:
        assert e.plan_nodes == e.nodes
    monkeypatch.setattr(plan, "CHOOSE_FROM", 14)
    small = topswops.estimate(11, probes=2_000, run=run)
    assert (small.method, small.why) == ("plain", "below n = 14 it is Knuth's search")
