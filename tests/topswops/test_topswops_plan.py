"""The forward search's plan (plan.py): each step says where its value came from, a stored
value is reused rather than computed again, and the deep search it plans finds the same
decks as Knuth's search."""


from conftest import load_data
from puzzlesearch import topswops
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.topswops import forward, plan, rules

DATA = load_data("topswops")
F = {int(k): v for k, v in DATA["max_steps"]["values"].items()}
COUNTS = {int(k): v for k, v in DATA["optimal_deck_count"]["values"].items()}
#: a deck of 10 cards making 31 = f(9) + 1 steps; its bottom listing meets a deck of f(10) = 38
SHORT_10 = (2, 3, 4, 5, 7, 1, 9, 10, 6, 8)


def test_knuths_search_plans_its_bounds_and_first_target_only(tmp_path):
    run = RunOptions(workers=1, store=str(tmp_path / "s.sqlite"))
    p = plan.make(9, run, deep=False)
    assert (p.bounds_from, p.target_from, p.target) == ("forward", "f(n-1)+1", F[8] + 1)
    assert p.bounds == tuple([0] + [F[m] for m in range(1, 9)])
    assert (p.witness, p.witness_from, p.bottom, p.bottom_search, p.estimate) == (None,) * 5
    assert p.start_json() is None
    assert plan.make(9, run, deep=False).bounds_from == "store"  # f(1..8) read back


def test_a_stored_bottom_bound_is_reused_by_the_next_plan(tmp_path, bottom_listings):
    run = RunOptions(workers=1, store=str(tmp_path / "s.sqlite"))
    best = topswops.optimal(10).decks[0]
    first = plan.make(10, run, deep=True, start=best)
    assert (first.witness_from, first.witness_steps, first.target_from, first.target) == \
        ("given", F[10], "witness", F[10])
    # the listing, and its chain's when the choice chained it (a bound for 9 cards, target k)
    chain = [] if first.bottom_search.k2 is None else [first.bottom_search.k]
    assert first.bottom_from == "listing" and bottom_listings == [F[10], *chain]
    again = plan.make(10, run, deep=True, start=best)
    assert again.bottom_from == "store" and bottom_listings == [F[10], *chain]
    assert again.bottom_search == first.bottom_search and again.bottom == first.bottom


def test_a_longer_deck_met_by_the_bottom_listing_raises_the_target(tmp_path):
    assert rules.steps(SHORT_10) == F[9] + 1
    run = RunOptions(workers=1, store=str(tmp_path / "s.sqlite"))
    p = plan.make(10, run, deep=True, start=SHORT_10)
    assert (p.target_from, p.target) == ("bottom", F[10]) and p.bottom_search.longest == F[10]
    assert rules.steps(p.bottom_search.deck) == F[10]
    assert p.bottom is None  # its bound is no tighter than f(9): not used
    r = forward.search(p, run)
    assert (r.steps, r.decks) == (F[10], topswops.optimal(10).decks)


def test_the_deck_long_finds_is_kept_and_the_next_plan_starts_there(tmp_path):
    run = RunOptions(workers=1, store=str(tmp_path / "s.sqlite"))
    found = plan.make(8, run, deep=True, long_seconds=0.3, seed=3)
    assert found.witness_from == "long" and rules.steps(found.witness) == found.witness_steps
    assert found.start_json()["long"]["deck"] == list(found.witness)
    kept = plan.make(8, run, deep=True)
    assert (kept.witness_from, kept.witness) == ("store", found.witness)


def test_a_long_deep_search_is_estimated_first(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(plan, "ESTIMATE_FROM", 12)
    run = RunOptions(workers=1, store=str(tmp_path / "s.sqlite"), progress=True)
    witness = (2, 6, 1, 10, 11, 8, 12, 3, 4, 7, 9, 5)
    s = topswops.solve(12, "forward", run=run, start=witness)
    assert s.forward == F[12] and s.decks == [witness]
    e = s.plan.estimate
    assert 0.5 <= e.nodes / s.nodes["forward"] <= 2 and e.seconds > 0  # Knuth's estimate of this very tree
    assert "estimate: " in capsys.readouterr().err
    # the bottom bound from its definition: the published count says the witness is the one
    # deck of f(12) steps, so the most steps left once card 12 is at the bottom, over the
    # games of at least f(12) steps, are the witness's own, played out with the rules; the
    # listing of games of at least k steps (k chosen by cost, above that) gives k - 1 or that
    assert COUNTS[12] == 1 and rules.steps(witness) == F[12]
    trace = rules.trace(witness)
    landed = next(i for i, d in enumerate(trace) if d[-1] == 12)
    left = len(trace) - 1 - landed
    k = s.plan.bottom_search.k
    assert k > left and s.plan.bottom == max(k - 1, left) < F[11]
