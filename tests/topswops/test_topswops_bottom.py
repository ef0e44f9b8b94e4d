"""The bound with card n at the bottom (bottom.py) and the forward search's fixed target:
against brute force over all decks with the plain rules, and the forward search with and
without them."""

from functools import cache
from itertools import permutations

import pytest

from conftest import load_data
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.topswops import bottom, forward, rules
from puzzlesearch.topswops.forward import Tree

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


def left_when_n_lands(deck):
    """The steps of `deck`'s game after card n first reaches the bottom (None if it never
    does), played out with the plain rules."""
    n, left = len(deck), None
    while True:
        if left is None and deck[-1] == n:
            left = 0
        if deck[0] == 1:
            return left
        deck = rules.flip(deck)
        if left is not None:
            left += 1


def deranged(deck):
    return all(deck[j - 1] != j for j in range(2, len(deck) + 1))


@pytest.mark.parametrize(("m", "k"), [(5, 3), (6, 5), (7, 9), (8, 12), (8, 20)])
def test_every_deck_listing_covers_each_long_derangement_and_nothing_shorter(m, k):
    r = forward.search(Tree(m, BOUNDS[:m], k, every=True), RunOptions(workers=1))
    covered = set()
    for p in r.decks:
        for d in completions(p):
            assert lengths(m)[d] >= k, (p, d)
            covered.add(d)
    assert {d for d, s in lengths(m).items() if s >= k and deranged(d)} <= covered
    assert r.steps == max(lengths(m).values()) if k <= F[m] else r.steps == -1


@pytest.mark.parametrize(("n", "target", "k"), [(6, 7, 4), (7, 14, 6), (8, 18, 8), (8, 16, 5), (9, 28, 14),
                                               (9, 25, 10), (9, 30, 20), (7, 16, 12)])
def test_the_bound_is_the_most_steps_left_after_card_n_lands_in_a_long_game(n, target, k):
    # the definition, by brute force: over every deck of n cards of at least `target` steps
    # (card n not at the bottom from the start: a derangement), the most steps its game makes
    # once card n is at the bottom, or k - 1 if that is more
    b = bottom.compute(n, target, k, BOUNDS[: n - 1], RunOptions(workers=1))
    worst = max((left for d, s in lengths(n).items() if s >= target and deranged(d)
                 if (left := left_when_n_lands(d)) is not None), default=-1)
    assert b.bound == max(k - 1, worst)
    # the longest game met is a real one, at most f(n)
    assert b.deck == () or rules.steps(b.deck) == b.longest <= F[n]


def test_the_steps_left_after_card_n_lands_follow_the_rules():
    for d in permutations(range(1, 7)):
        assert bottom.steps_left_at_bottom(d) == left_when_n_lands(d)


@pytest.mark.parametrize("n", range(7, 12))
def test_forward_search_with_the_bottom_bound_finds_the_same_decks(n):
    plain = forward.search(Tree.plain(n, BOUNDS), RunOptions(workers=1))
    witness = plain.decks[0]
    left = bottom.steps_left_at_bottom(witness)
    assert left is not None
    b = bottom.compute(n, plain.steps, left + 1, BOUNDS[: n - 1], RunOptions(workers=1))
    assert b.bound < F[n - 1] or n < 9  # it is tighter where it matters
    fast = forward.search(Tree(n, BOUNDS[:n], plain.steps, bottom=b.bound), RunOptions(workers=1))
    assert (fast.steps, fast.decks) == (plain.steps, plain.decks) == (F[n], plain.decks)
    assert fast.nodes <= plain.nodes


def test_split_every_deck_listing_equals_the_serial_one(tmp_path):
    tree = Tree(9, BOUNDS[:9], 20, every=True)
    serial = forward.search(tree, RunOptions(workers=1))
    split = forward.search(tree, RunOptions(workers=1, checkpoint=str(tmp_path / "c.sqlite")))
    assert split.subproblems > 1
    assert split.decks == serial.decks and len(serial.decks) > 10


def test_a_stored_bottom_bound_is_reused_for_a_target_at_least_its_own(tmp_path, bottom_listings):
    run = RunOptions(workers=1, store=str(tmp_path / "store.sqlite"))
    witness = forward.search(Tree.plain(10, BOUNDS), run).decks[0]
    first, source = bottom.bottom_bound(10, F[10], witness, BOUNDS[:10], run)
    assert (source, bottom_listings) == ("listing", [F[10]])
    assert bottom.bottom_bound(10, F[10], witness, BOUNDS[:10], run) == (first, "store")
    assert bottom_listings == [F[10]]  # read back, not computed again
    # a bound for a higher target does not hold for a lower one: computed again, and kept too
    lower, source = bottom.bottom_bound(10, F[10] - 3, witness, BOUNDS[:10], run)
    assert source == "listing" and bottom_listings == [F[10], F[10] - 3] and lower.target == F[10] - 3
    # the tightest bound that holds is the one used
    tightest = min(first, lower, key=lambda b: b.bound)
    assert bottom.bottom_bound(10, F[10], witness, BOUNDS[:10], run) == (tightest, "store")
