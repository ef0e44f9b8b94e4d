"""Topswops (J. H. Conway's card game): f(n), the decks that reach it, plain play.

Cards 1..n lie in a row; while the top card k is not 1, reverse the top k cards. f(n) is
the most reversals any deck of n cards makes (OEIS A000375). `solve` computes it by two
independent searches (the backward search of Pepperdine and Knuth, and Knuth's forward
branch and bound with Chaffin's deep start), `optimal` lists the decks that reach it,
`long` finds long decks of any n up to 255 in a time given, `estimate` says what a
forward search would take, and `play` plays a deck with the plain rules
(`topswops.rules`).
"""

from . import rules
from .api import (
    DEEP_FROM,
    MAX_LONG_WORKERS,
    MODES,
    SEARCHES,
    Optimal,
    Play,
    RunOptions,
    Solution,
    deck,
    estimate,
    long,
    optimal,
    play,
    solve,
)

__all__ = ["DEEP_FROM", "MAX_LONG_WORKERS", "MODES", "SEARCHES", "Optimal", "Play", "RunOptions", "Solution",
           "deck", "estimate", "long", "optimal", "play", "rules", "solve"]
