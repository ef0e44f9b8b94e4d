"""Which forward search for f(n) costs least, by Knuth's random probes (probes.py), before
any of it runs.

Given the bounds f(0..n-1) and a witness (a deck of W steps whose game puts card n at the
bottom with `left` steps to go), two plans find every deck of f(n) steps:

  plain   the search with target W (the real search raises its target to the best deck
          it meets, and meets one early: its tree is close to this one, probes.py);
  deep    first the bottom bound (bottom.py): list the games of n - 1 cards of at least
          k steps, for some k > left, and undo moves from them with card n under them;
          then the search with target W, pruned with the bound k - 1 once card n is at
          the bottom. The listing may itself be pruned the same way, with card n - 1 at
          the bottom, by a listing of n - 2 cards of at least k2 steps: the chain
          [B. Chaffin, "Longest Topswops decks for sizes 20 and 21" (2026), who chose his
          k the same way, by timing samples of both searches]. The chain is weighed only
          when a deck of n - 1 cards is known (the results store's longest, of f(n-1)
          steps, at least k): the steps its game leaves once card n - 1 is at the bottom,
          inner_left, are a floor of that bound, so k2 > inner_left.

The cost of a plan is the estimated nodes of its searches, each weighed by the speed of its
kernel (a deck past MAX_PACKED cards costs WIDE_COST times a packed one). A bound is
estimated at its best, k - 1 (the listing may show that more steps are left, never fewer),
so a deep plan must beat the plain one by DEEP_MARGIN to be chosen. A bound the results
store already keeps costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from puzzlesearch.topswops.bounds import bound_array, pruned
from puzzlesearch.topswops.limits import MAX_PACKED
from puzzlesearch.topswops.longdecks import rng_state
from puzzlesearch.topswops.probes import probe

#: probes per estimated tree: enough for a few per cent (the standard errors of `estimate`)
PROBES = 20_000
#: k values tried for each listing
CANDIDATES = 6
#: the deep plan is chosen when it costs less than this share of the plain one (and a
#: chained listing when it costs less than this share of the plain listing)
DEEP_MARGIN = 0.85
#: nodes of the kernel for decks past MAX_PACKED cards, in packed nodes (measured: n = 13,
#: 5.1 s against 2.5 s for the same 1.26e8 nodes, medians of 7 fresh processes taken in
#: turn, `benchmarks/topswops.py --wide`)
WIDE_COST = 2.0


@dataclass(frozen=True)
class Choice:
    """The plan chosen, and the estimates it was chosen by (nodes, not weighed)."""

    method: str  # "plain" or "deep"
    why: str  # one line: what was compared
    plain: float  # nodes of the plain search
    deep: float | None = None  # nodes of the cheapest deep plan, all its parts (None: none possible)
    k: int | None = None  # its listing: games of n - 1 cards of at least k steps
    k2: int | None = None  # its chain: games of n - 2 cards of at least k2 steps (None: no chain)
    parts: dict[str, float] = field(default_factory=dict)  # nodes of each part of the deep plan

    def nodes(self) -> float:
        """Nodes of the chosen plan."""
        return self.plain if self.method == "plain" else float(self.deep)


def _cost(n: int, nodes: float) -> float:
    return nodes * (WIDE_COST if n > MAX_PACKED else 1.0)


def _spread(low: int, high: int, count: int) -> list[int]:
    """Up to `count` whole numbers from low to high - 1, evenly spread."""
    if high <= low:
        return []
    return sorted({int(x) for x in np.linspace(low, high - 1, num=min(count, high - low))})


class _Trees:
    """Estimated nodes of forward trees, each estimated once."""

    def __init__(self, bounds: tuple[int, ...], probes: int, seed: int):
        self.bounds, self.probes, self.seed, self.seen = bounds, probes, seed, {}

    def __call__(self, m: int, target: int, bottom: int | None = None) -> float:
        key = (m, target, bottom)
        if key not in self.seen:
            bound = bound_array(m, pruned(self.bounds, m, bottom))
            probed = probe(m, bound, target, self.probes, rng_state(self.seed))
            self.seen[key] = float(probed.estimates.mean())
        return self.seen[key]


def choose(n: int, bounds: tuple[int, ...], target: int, left: int | None, stored: int | None = None,
           inner_left: int | None = None, *, probes: int = PROBES, seed: int = 0) -> Choice:
    """The cheaper plan for f(n): `bounds` f(0..n-1), `target` the witness's steps, `left`
    the steps its game has left once card n is at the bottom (None: it never gets there),
    `stored` a bottom bound for this target the results store keeps (None: none),
    `inner_left` the same for a known deck of n - 1 cards and f(n-1) steps (None: no
    chain)."""
    trees = _Trees(bounds, probes, seed)
    plain = trees(n, target)
    if n < 3 or left is None or left + 1 >= bounds[n - 1]:
        return Choice("plain", "no bottom bound can be tighter than f(n-1) for this witness", plain)
    if stored is not None:
        deep = trees(n, target, stored) if stored < bounds[n - 1] else plain
        choice = Choice("deep", "", plain, deep, parts={"search": deep, "listing": 0.0})
        return _verdict(choice, plain, deep, f"the bound {stored} kept in the results store")
    best = None
    for k in _spread(left + 1, bounds[n - 1], CANDIDATES):
        search = trees(n, target, k - 1)
        listing, k2 = _listing(n - 1, k, trees, inner_left)
        total = _cost(n, search) + listing[0]
        if best is None or total < best[0]:
            best = (total, k, k2, {"search": search, **listing[1]})
    total, k, k2, parts = best
    deep = sum(parts.values())
    choice = Choice("deep", "", plain, deep, k=k, k2=k2, parts=parts)
    chain = f", chained to {n - 2} cards of >= {k2}" if k2 is not None else ""
    return _verdict(choice, _cost(n, plain), total, f"listing {n - 1} cards of >= {k} steps{chain}")


def _listing(m: int, k: int, trees: _Trees, inner_left: int | None) -> tuple[tuple[float, dict[str, float]],
                                                                             int | None]:
    """The cheapest listing of the games of m cards of at least k steps, plain or chained:
    (weighed cost, nodes of its parts), and the chain's k2 (None: plain listing)."""
    plain = trees(m, k)
    best = ((_cost(m, plain), {"listing": plain}), None)
    if m < 3 or inner_left is None:
        return best
    top = trees.bounds[m - 1]
    for k2 in _spread(inner_left + 1, min(top, k + 1), CANDIDATES - 2):
        chained = trees(m, k, k2 - 1)
        inner = trees(m - 1, k2)
        cost = _cost(m, chained) + _cost(m - 1, inner)
        # its bound too is estimated at its best, k2 - 1: the same margin as the deep plan's
        if cost < DEEP_MARGIN * _cost(m, plain) and cost < best[0][0]:
            best = ((cost, {"listing": chained, "chain": inner}), k2)
    return best


def _verdict(choice: Choice, plain: float, deep: float, what: str) -> Choice:
    """The deep `choice` with its method and why, from the weighed costs of the two plans."""
    ratio = deep / plain if plain > 0 else 1.0
    method = "deep" if ratio < DEEP_MARGIN else "plain"
    why = (f"deep ({what}) is estimated at {ratio:.2f} of the plain search; "
           f"{method} is chosen (deep needs < {DEEP_MARGIN})")
    return replace(choice, method=method, why=why)


__all__ = ["CANDIDATES", "DEEP_MARGIN", "PROBES", "WIDE_COST", "Choice", "choose"]
