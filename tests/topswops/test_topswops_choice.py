"""The method chosen by Knuth's probes (choice.py, plan.py), deep where the witness leaves
few steps and plain where no bound can save anything, the expected seconds of the deep plan
(plan.with_plan: past MAX_PACKED cards the listings run the packed kernel), the chained
listing (bottom.compute with k2), and a bottom bound the results store keeps damaged."""

import json
import sqlite3

import pytest

from conftest import load_data
from puzzlesearch import topswops
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.topswops import bottom, choice, forward, known, plan, rules
from puzzlesearch.topswops.forward import Tree
from puzzlesearch.topswops.limits import MAX_PACKED
from puzzlesearch.topswops.probes import Estimate

DATA = load_data("topswops")
F = {int(k): v for k, v in DATA["max_steps"]["values"].items()}
BOUNDS = tuple([0] + [F[m] for m in range(1, 17)])
PUBLISHED = {int(k): tuple(v) for k, v in DATA["example_optimal_decks"]["decks"].items()}
#: a deck of 10 cards making 1 step: it reaches no target of the forward search for f(10)
SHORT_10 = (2, 1, 3, 4, 5, 6, 7, 8, 9, 10)


def _estimate(n: int, target: int, witness: tuple[int, ...] | None, *, nodes: float = 5e12,
              rate: float = 1.5e7, workers: int = 2) -> Estimate:
    """An Estimate as probes.estimate returns it (the plain search's nodes and seconds),
    for plan.with_plan to add the plan to."""
    seconds = nodes / (rate * workers)
    return Estimate(n=n, target=target, target_from="store", long_seconds=0.0, first_target=F[n - 1] + 1,
                    nodes=nodes, stderr=None, probes=1, nodes_per_level=[], upper=nodes,
                    nodes_per_second=rate, sampled_nodes=0, workers=workers, seconds=seconds, took=0.0,
                    plan_nodes=nodes, plan_seconds=seconds, witness=witness)


@pytest.mark.parametrize("n", [11, 12, 13])
def test_the_choice_weighs_listings_at_k_above_what_the_witness_leaves(n):
    witness = forward.search(Tree.plain(n, BOUNDS), RunOptions(workers=1)).decks[0]
    left = bottom.steps_left_at_bottom(witness)
    smaller = forward.search(Tree.plain(n - 1, BOUNDS), RunOptions(workers=1)).decks[0]
    inner = bottom.steps_left_at_bottom(smaller)
    c = choice.choose(n, BOUNDS[:n], F[n], left, probes=2_000)
    # below MAX_PACKED cards every part runs the packed kernel: the nodes are the costs
    assert c.method == ("deep" if c.deep / c.plain < choice.DEEP_MARGIN else "plain")
    assert f"estimated at {c.deep / c.plain:.2f} of the plain search" in c.why
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


def test_a_kept_bound_no_tighter_than_f_n_minus_1_leaves_the_plain_search():
    # the deep search with that bound is the plain search's tree, at no saving: plain
    left = bottom.steps_left_at_bottom(PUBLISHED[16])
    c = choice.choose(16, BOUNDS, F[16], left, BOUNDS[15], probes=500)
    assert (c.method, c.deep, c.plain) == ("plain", c.plain, c.plain)
    assert c.why == (f"deep (the bound {BOUNDS[15]} kept in the results store) is estimated at 1.00 of the "
                     f"plain search; plain is chosen (deep needs < {choice.DEEP_MARGIN})")


def _store_with_bounds_and_decks(tmp_path, n: int) -> str:
    """A results store holding f(1..n) and the longest decks of 1..n cards, each computed by
    the forward search (forward.own_bounds)."""
    store = str(tmp_path / "store.sqlite")
    forward.own_bounds(n + 1, store)
    return store


def test_a_witness_that_leaves_few_steps_makes_the_deep_search_the_choice(tmp_path, monkeypatch):
    # the optimal deck of 10 cards, kept in the store, leaves 20 steps once card 10 is at the
    # bottom (f(9) = 30): the listing and the search pruned by its bound cost less than the
    # plain search by more than DEEP_MARGIN
    monkeypatch.setattr(plan, "CHOOSE_FROM", 9)
    monkeypatch.setattr(plan, "PLAIN_BELOW", 0.0)
    store = _store_with_bounds_and_decks(tmp_path, 10)
    witness, inner_deck = known.deck(10, store), known.deck(9, store)
    assert rules.steps(witness) == F[10] and rules.steps(inner_deck) == F[9]
    left, inner = bottom.steps_left_at_bottom(witness), bottom.steps_left_at_bottom(inner_deck)
    run = RunOptions(workers=1, store=store)
    s = topswops.solve(10, "forward", run=run)
    p, c = s.plan, s.plan.choice
    assert c == choice.choose(10, BOUNDS[:10], F[10], left, None, inner)
    assert c.method == "deep" and c.deep / c.plain < choice.DEEP_MARGIN
    assert c.deep == pytest.approx(sum(c.parts.values())) and set(c.parts) == {"search", "listing", "chain"}
    assert left < c.k < F[9] and inner < c.k2 <= c.k
    assert c.why == (f"deep (listing 9 cards of >= {c.k} steps, chained to 8 cards of >= {c.k2}) is "
                     f"estimated at {c.deep / c.plain:.2f} of the plain search; deep is chosen (deep needs "
                     f"< {choice.DEEP_MARGIN})")
    # the plan is the deep one the choice named: the store's deck, its listing, its bound
    assert (p.deep, p.witness, p.witness_from, p.target, p.target_from) == (True, witness, "store", F[10],
                                                                            "witness")
    assert (p.bottom_from, p.bottom_search.k, p.bottom_search.k2) == ("listing", c.k, c.k2)
    assert p.bottom == p.bottom_search.bound < F[9]
    # ... and finds every deck of f(10) steps, in fewer nodes than the same tree unpruned
    assert (s.forward, s.decks) == (F[10], topswops.optimal(10, run=RunOptions(workers=1)).decks)
    unpruned = forward.search(Tree(10, BOUNDS[:10], F[10]), RunOptions(workers=1))
    assert s.details["forward"].nodes < unpruned.nodes


def test_a_witness_short_of_the_first_target_leaves_the_plain_search(tmp_path, monkeypatch):
    monkeypatch.setattr(plan, "CHOOSE_FROM", 9)
    monkeypatch.setattr(plan, "PLAIN_BELOW", 0.0)
    store = _store_with_bounds_and_decks(tmp_path, 9)
    known.keep_deck(10, SHORT_10, rules.steps(SHORT_10), "a test", store)
    s = topswops.solve(10, "forward", run=RunOptions(workers=1, store=store))
    p = s.plan
    assert (p.choice.method, p.choice.why) == ("plain", "no bottom bound can be tighter than f(n-1) for this "
                                                        "witness")
    assert (p.deep, p.target, p.target_from, p.bottom_search) == (False, F[9] + 1, "f(n-1)+1", None)
    assert (s.forward, s.decks) == (F[10], topswops.optimal(10, run=RunOptions(workers=1)).decks)
    assert known.deck(10, store) == s.decks[0]  # the longer deck found is kept


def test_the_estimate_names_the_deep_plan_solve_would_choose(tmp_path, monkeypatch):
    monkeypatch.setattr(plan, "CHOOSE_FROM", 9)
    monkeypatch.setattr(plan, "PLAIN_BELOW", 0.0)
    store = _store_with_bounds_and_decks(tmp_path, 10)
    run = RunOptions(workers=2, store=store)
    e = topswops.estimate(10, probes=2_000, run=run)
    assert (e.target, e.target_from, e.witness) == (F[10], "store", known.deck(10, store))
    left = bottom.steps_left_at_bottom(e.witness)
    c = choice.choose(10, BOUNDS[:10], F[10], left, None, bottom.steps_left_at_bottom(known.deck(9, store)))
    assert (e.method, e.why, e.k, e.k2, e.parts) == ("deep", c.why, c.k, c.k2, c.parts)
    assert e.plan_nodes == pytest.approx(sum(c.parts.values()))
    # 10 and 9 cards both run the packed kernel: every part at the measured speed
    assert e.plan_seconds == pytest.approx(e.plan_nodes / (e.nodes_per_second * e.workers))
    assert e.plan_seconds < e.seconds
    monkeypatch.setattr(plan, "CHOOSE_FROM", 14)
    small = topswops.estimate(10, probes=2_000, run=run)
    assert (small.method, small.why, small.plan_seconds) == ("plain", "below n = 14 it is Knuth's search",
                                                             small.seconds)


def test_the_deep_plan_past_max_packed_weighs_its_listings_as_packed_nodes(tmp_path, monkeypatch):
    # 17 cards: the search runs the wide kernel, the listings of 16 and 15 cards the packed one
    assert 17 > MAX_PACKED >= 16
    store = str(tmp_path / "store.sqlite")
    for m in range(1, 17):
        known.remember_f(m, F[m], "published (tests/data/topswops.json)", 0.0, store)
    known.keep_deck(16, PUBLISHED[16], F[16], "published (tests/data/topswops.json)", store)
    chosen = []
    real = plan.choose

    def spy(*args, **kw):
        chosen.append((args, real(*args, **kw)))
        return chosen[-1][1]

    monkeypatch.setattr(plan, "choose", spy)
    witness = PUBLISHED[17]
    assert rules.steps(witness) == F[17]
    e = plan.with_plan(_estimate(17, F[17], witness), RunOptions(workers=2, store=store))
    [(args, c)] = chosen
    left, inner = bottom.steps_left_at_bottom(witness), bottom.steps_left_at_bottom(PUBLISHED[16])
    assert args == (17, BOUNDS, F[17], left, None, inner)
    assert (e.method, e.why, e.k, e.k2, e.parts) == ("deep", c.why, c.k, c.k2, c.parts)
    assert left < e.k < F[16] and inner < e.k2 <= e.k and set(e.parts) == {"search", "listing", "chain"}
    search, listings = e.parts["search"], e.parts["listing"] + e.parts["chain"]
    # the choice weighs the search by WIDE_COST against the listings ...
    ratio = (choice.WIDE_COST * search + listings) / (choice.WIDE_COST * c.plain)
    assert ratio < choice.DEEP_MARGIN and f"estimated at {ratio:.2f} of the plain search" in e.why
    # ... and the expected seconds, at the wide kernel's measured speed, count a listing node
    # as 1 / WIDE_COST of a search node
    assert e.plan_nodes == pytest.approx(search + listings)
    assert e.plan_seconds == pytest.approx((search + listings / choice.WIDE_COST) / (1.5e7 * 2))
    assert e.plan_seconds < e.plan_nodes / (1.5e7 * 2)


@pytest.mark.parametrize(("n", "wide"), [(16, 1.0), (17, choice.WIDE_COST), (18, 1.0)])
def test_the_listings_are_weighed_only_when_the_search_alone_runs_the_wide_kernel(monkeypatch, n, wide):
    parts = {"search": 6e12, "listing": 1e12, "chain": 2e11}
    fixed = choice.Choice("deep", "the deep plan", 9e12, sum(parts.values()), k=100, k2=80, parts=parts)
    monkeypatch.setattr(plan, "own_bounds", lambda m, store=None, **kw: [0] + [F[i] for i in range(1, m)])
    monkeypatch.setattr(plan, "early_choice", lambda *args: None)
    monkeypatch.setattr(plan, "_method", lambda *args: fixed)
    e = plan.with_plan(_estimate(n, F[n], None, rate=1e7, workers=4), RunOptions(workers=4))
    assert (e.method, e.why, e.k, e.k2, e.parts) == ("deep", "the deep plan", 100, 80, parts)
    assert e.plan_nodes == pytest.approx(7.2e12)
    assert e.plan_seconds == pytest.approx((6e12 + 1.2e12 / wide) / 4e7)


def test_an_estimate_whose_witness_misses_its_target_plans_the_plain_search(tmp_path, monkeypatch):
    monkeypatch.setattr(plan, "CHOOSE_FROM", 9)
    monkeypatch.setattr(plan, "PLAIN_BELOW", 0.0)
    e = _estimate(10, F[10], SHORT_10, nodes=2e5, rate=5e7)
    out = plan.with_plan(e, RunOptions(workers=2, store=str(tmp_path / "store.sqlite")))
    assert (out.method, out.why) == ("plain", "no bottom bound can be tighter than f(n-1) for this witness")
    assert (out.plan_nodes, out.plan_seconds, out.k, out.parts) == (e.nodes, e.seconds, None, None)
