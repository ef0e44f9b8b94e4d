"""The plain rules: the reference every search is checked against."""

import pytest

from conftest import load_data
from puzzlesearch.topswops import rules

DATA = load_data("topswops")
F = {int(k): v for k, v in DATA["max_steps"]["values"].items()}
COUNTS = {int(k): v for k, v in DATA["optimal_deck_count"]["values"].items()}


def test_flip_reverses_as_many_cards_as_the_top_card_says():
    assert rules.flip((3, 1, 2, 4)) == (2, 1, 3, 4)
    assert rules.flip((4, 3, 2, 1)) == (1, 2, 3, 4)


def test_trace_runs_until_one_is_on_top():
    assert rules.trace((3, 1, 2)) == [(3, 1, 2), (2, 1, 3), (1, 2, 3)]
    assert rules.steps((3, 1, 2)) == 2
    assert rules.steps((1, 3, 2)) == 0


@pytest.mark.parametrize("n", range(1, 9))
def test_brute_force_over_all_decks_gives_the_published_values(n):
    best, decks = rules.max_steps_brute(n)
    assert best == F[n]
    assert len(decks) == COUNTS[n]


@pytest.mark.parametrize("n", ["16", "17"])
def test_published_optimal_decks_replay_to_f(n):
    deck = DATA["example_optimal_decks"]["decks"][n]
    assert rules.is_deck(deck)
    assert rules.steps(deck) == F[int(n)]


def test_is_deck_wants_a_permutation_of_one_to_n():
    assert rules.is_deck([2, 3, 1])
    assert not rules.is_deck([1, 2, 2])
    assert not rules.is_deck([0, 1])
    assert not rules.is_deck([])
