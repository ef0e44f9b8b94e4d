"""Topswops, the game itself, in plain Python: the reference every search is checked against.

Cards 1..n lie in a row (position 0 is the top). Look at the top card k. If k = 1, stop;
otherwise reverse the top k cards. The *steps* of a deck are the number of reversals made
before 1 comes to the top; f(n) is the largest number of steps over all n! decks
(J. H. Conway's game, also called "Topswops"; OEIS A000375).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Deck = tuple[int, ...]


def is_deck(cards: Sequence[int]) -> bool:
    """True when `cards` is a permutation of 1..len(cards).

    Args:
        cards: The cards, top first.
    """
    return len(cards) > 0 and sorted(cards) == list(range(1, len(cards) + 1))


def flip(deck: Sequence[int]) -> Deck:
    """One move: reverse the top k cards, k being the top card.

    Args:
        deck: The deck, top card first.
    """
    k = deck[0]
    return tuple(deck[:k][::-1]) + tuple(deck[k:])


def trace(deck: Sequence[int]) -> list[Deck]:
    """Every deck from `deck` until 1 is on top, both ends included.

    Args:
        deck: The deck, top card first.
    """
    decks = [tuple(deck)]
    while decks[-1][0] != 1:
        decks.append(flip(decks[-1]))
    return decks


def steps(deck: Sequence[int]) -> int:
    """The number of reversals `deck` makes before 1 is on top.

    Args:
        deck: The deck, top card first.
    """
    count = 0
    while deck[0] != 1:
        deck = flip(deck)
        count += 1
    return count


def all_decks(n: int) -> Iterable[Deck]:
    """All n! decks of n cards (for exhaustive checks at small n).

    Args:
        n: The number of cards.
    """
    from itertools import permutations

    return permutations(range(1, n + 1))


def max_steps_brute(n: int) -> tuple[int, list[Deck]]:
    """f(n) and every deck reaching it, by playing all n! decks (small n only).

    Args:
        n: The number of cards.
    """
    best, decks = -1, []
    for deck in all_decks(n):
        s = steps(deck)
        if s > best:
            best, decks = s, [deck]
        elif s == best:
            decks.append(deck)
    return best, decks
