"""The small cases the site computes with the library while it is built.

The records in benchmarks/results/ start where a search takes a measurable time; the
sizes below them (f(n) for n <= 9, Q(n) for n <= 11), the Grundy values drawn on the
Sprague–Grundy pictures and the games and boards drawn move by move are computed here,
each in well under a second, so that the tables and pictures start at n = 1 and every
drawing is of something this program found. Each function is computed once a build.
"""

from __future__ import annotations

from functools import cache

#: the largest n whose f(n) and optimal decks the build computes (Knuth's backward search,
#: about a second for n = 9 with numba's cache loaded)
TOPSWOPS_UPTO = 9
#: the largest n the build counts N-Queens solutions for (in this process: a few ms each)
QUEENS_UPTO = 11
#: heaps of Grundy's game the picture shows: enough for the rare heaps to be chosen by the
#: kernel (its mask settles after a few ten thousand heaps), about a second to compute
GRUNDYS_HEAPS = 100_000
#: the Topswops game drawn move by move: the first longest game of this many cards
GAME_CARDS = 6
#: the N-Queens board drawn: the first board of this n the listing yields
BOARD_N = 8
#: the Hanoi position drawn: the tower of this many discs on 3 pegs after this many moves
HANOI_DISCS, HANOI_MOVES = 8, 100


@cache
def topswops_optimal() -> dict[int, tuple[int, list[tuple[int, ...]]]]:
    """n -> (f(n), every deck reaching it), n = 1..TOPSWOPS_UPTO."""
    from puzzlesearch import topswops

    found = {}
    for n in range(1, TOPSWOPS_UPTO + 1):
        r = topswops.optimal(n)
        found[n] = (r.steps, list(r.decks))
    return found


@cache
def queens_counts() -> dict[int, tuple[int, int]]:
    """n -> (all solutions, unique solutions), n = 1..QUEENS_UPTO."""
    from puzzlesearch import queens

    return {n: (c.solutions, c.unique) for n in range(1, QUEENS_UPTO + 1) for c in [queens.count(n)]}


@cache
def grundys_values():
    """Grundy's game, heaps 0..GRUNDYS_HEAPS-1 (a TakeBreakValues: values, rare_mask, ...)."""
    from puzzlesearch.games import grundys_values as values

    return values(GRUNDYS_HEAPS)

