"""The deeper bound with card n at the bottom (deep.py) and the forward search's fixed
target: against brute force over all decks, and the forward search with and without them."""

from functools import cache
from itertools import permutations

import pytest

from conftest import load_data
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.topswops import deep, forward, rules

DATA = load_data("topswops")
F = {int(k): v for k, v in DATA["max_steps"]["values"].items()}
BOUNDS = [0] + [F[m] for m in range(1, 17)]


@cache
def lengths(n: int) -> dict[tuple[int, ...], int]:
    return {d: rules.steps(d) for d in permutations(range(1, n + 1))}


def completions(pattern):
    n = len(pattern)
    holes = [i for i, x in enumerate(pattern) if x == 0]
    unused = sorted(set(range(1, n + 1)) - set(pattern))
    for values in permutations(unused):
        d = list(pattern)
        for i, v in zip(holes, values, strict=True):
            d[i] = v
        yield tuple(d)


@pytest.mark.parametrize(("m", "k"), [(5, 3), (6, 5), (7, 9), (8, 12), (8, 20)])
def test_every_deck_listing_covers_each_long_derangement_and_nothing_shorter(m, k):
    r = forward.solve_forward(m, BOUNDS[:m], target=k, every=True)
    covered = set()
    for p in r.decks:
        for d in completions(p):
            assert lengths(m)[d] >= k, (p, d)
            covered.add(d)
    deranged = {d for d, s in lengths(m).items() if s >= k and all(d[j - 1] != j for j in range(2, m + 1))}
    assert deranged <= covered
    assert r.steps == max(lengths(m).values()) if k <= F[m] else r.steps == -1


def steps_left_when_n_lands(deck):
    return deep.steps_left_at_bottom(deck)


@pytest.mark.parametrize(("n", "target", "k"), [(6, 7, 4), (7, 14, 6), (8, 18, 8), (8, 16, 5), (9, 28, 14),
                                               (9, 25, 10)])
def test_the_bound_holds_for_every_deck_reaching_the_target(n, target, k):
    b = deep.compute(n, target, k, BOUNDS[: n - 1])
    assert k - 1 <= b.bound
    deranged = (d for d, s in lengths(n).items()
                if s >= target and all(d[j - 1] != j for j in range(2, n + 1)))
    worst = max((left for d in deranged if (left := steps_left_when_n_lands(d)) is not None), default=-1)
    assert worst <= b.bound
    # the longest game met is a real one, at most f(n)
    assert b.deck == () or rules.steps(b.deck) == b.longest <= F[n]


@pytest.mark.parametrize("n", range(7, 12))
def test_forward_search_with_the_deep_bound_finds_the_same_decks(n):
    plain = forward.solve_forward(n, BOUNDS[:n])
    witness = plain.decks[0]
    left = deep.steps_left_at_bottom(witness)
    assert left is not None
    b = deep.compute(n, plain.steps, left + 1, BOUNDS[: n - 1])
    assert b.bound < F[n - 1] or n < 9  # it is tighter where it matters
    fast = forward.solve_forward(n, BOUNDS[:n], target=plain.steps, bottom=b.bound)
    assert (fast.steps, fast.decks) == (plain.steps, plain.decks) == (F[n], plain.decks)
    assert fast.nodes <= plain.nodes


def test_split_every_deck_listing_equals_the_serial_one(tmp_path):
    serial = forward.solve_forward(9, BOUNDS[:9], target=20, every=True)
    split = forward.solve_forward(9, BOUNDS[:9], target=20, every=True,
                                  run=RunOptions(workers=1, checkpoint=str(tmp_path / "c.sqlite")))
    assert split.subproblems > 1
    assert split.decks == serial.decks and len(serial.decks) > 10


def test_bottom_bound_is_stored_and_reused(tmp_path):
    store = str(tmp_path / "store.sqlite")
    witness = forward.solve_forward(10, BOUNDS[:10]).decks[0]
    first = deep.bottom_bound(10, F[10], witness, BOUNDS[:9], run=RunOptions(workers=1, store=store))
    again = deep.bottom_bound(10, F[10], witness, BOUNDS[:9], run=RunOptions(workers=1, store=store))
    assert first == again
    lower = deep.bottom_bound(10, F[10] - 3, witness, BOUNDS[:9], run=RunOptions(workers=1, store=store))
    assert lower != first  # a bound for a higher target does not hold for a lower one: computed again


def test_a_long_deep_search_is_estimated_first(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(deep, "ESTIMATE_FROM", 12)
    run = RunOptions(workers=1, store=str(tmp_path / "s.sqlite"), progress=True)
    r = deep.solve(12, run=run, start=(2, 6, 1, 10, 11, 8, 12, 3, 4, 7, 9, 5))
    e = r.start["estimate"]
    assert r.steps == 65 and r.bottom == 38
    assert 0.5 <= e["nodes"] / r.nodes <= 2 and e["seconds"] > 0  # Knuth's estimate of this very tree
    assert "estimate: " in capsys.readouterr().err
