"""Where the pieces of a puzzle can go: the positions the moves touch, and their orbits.

A position no move touches holds its solved piece for ever, so the searches leave it out.
The others fall into *orbits*: the positions a piece can travel between (the moves'
permutations joined up). A piece never leaves its orbit, so each orbit is a set of its
own for the searches (`engine.space.PieceSet`): the Pyraminx's four axial pieces, which
only turn in place, are four sets of one position (3^4 states) rather than one set of
four (4! x 3^4). Per orbit, two numbers every move keeps or changes in a fixed way are
the *invariants* of `group`: the sum of the twists (mod k) and the parity of the
permutation. When every move keeps an orbit's twist sum at 0, the index of the full
search leaves out the last twist (``twist_sum``); when every move is an even permutation
of an orbit of distinct pieces, it leaves out the other parity (``one_parity``, the rule
of `engine.space.one_parity`).

Plain Python, no sympy and no search: `perm info` on a puzzle of 10^20 states reads its
size from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from puzzlesearch.engine.space import PieceSet, multinomial, one_parity
from puzzlesearch.perm.rules import Move, Rules, State, touched


@dataclass(frozen=True)
class Layout:
    """kept       the positions some move touches, in the file's order
    orbits     the kept positions split into orbits, each in the file's order, ordered
               by their first position
    twists     per orbit: its twists k
    twist_sum  per orbit: whether every move keeps its twists' sum (mod k) (k > 1)
    counts     per orbit: how many pieces of each label it holds when solved
    one_parity per orbit: whether the full search indexes its solved parity only"""

    kept: tuple[int, ...]
    orbits: tuple[tuple[int, ...], ...]
    twists: tuple[int, ...]
    twist_sum: tuple[bool, ...]
    counts: tuple[dict[int, int], ...]
    one_parity: tuple[bool, ...]


def layout(rules: Rules) -> Layout:
    moves = rules.moves
    kept = [i for i, t in enumerate(touched(moves)) if t]
    parent = {i: i for i in kept}

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for m in moves:
        for i in kept:
            a, b = root(i), root(m.perm[i])
            if a != b:
                parent[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for i in kept:
        groups.setdefault(root(i), []).append(i)
    orbits = tuple(tuple(g) for _, g in sorted(groups.items()))
    ks = rules.ks
    labels = rules.solved[0]
    twists = tuple(ks[o[0]] for o in orbits)
    sums = tuple(k > 1 and all(sum(m.twist[i] for i in o) % k == 0 for m in moves)
                 for o, k in zip(orbits, twists, strict=True))
    counts = tuple(_counts(labels[i] for i in o) for o in orbits)
    halved = []
    for o in orbits:
        local = {g: j for j, g in enumerate(o)}
        halved.append(one_parity(PieceSet(len(o), labels=tuple(labels[g] for g in o)),
                                 [[local[m.perm[g]] for g in o] for m in moves]))
    return Layout(tuple(kept), orbits, twists, sums, counts, tuple(halved))


def _counts(labels) -> dict[int, int]:
    found: dict[int, int] = {}
    for c in labels:
        found[c] = found.get(c, 0) + 1
    return found


def dropped(rules: Rules, lay: Layout) -> tuple[int, ...]:
    """The positions no move touches."""
    kept = set(lay.kept)
    return tuple(i for i in range(rules.size) if i not in kept)


def orbit_arrangements(lay: Layout, o: int) -> int:
    """The ways to place an orbit's pieces on its positions (identical ones alike)."""
    return multinomial(list(lay.counts[o].values()))


def index_size(lay: Layout) -> int:
    """The states the full search indexes: per orbit its arrangements (half of them when
    it holds one parity) times k^m twists (k^(m-1) when the twist sum is kept), the orbits
    multiplied (engine.space.pieces_space)."""
    orbits = zip(lay.orbits, lay.twists, lay.twist_sum, lay.one_parity, strict=True)
    return prod(orbit_arrangements(lay, o) // (1 + h) * k ** (len(orbit) - s)
                for o, (orbit, k, s, h) in enumerate(orbits))


def orbit_state(lay: Layout, state: State, o: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """One orbit's part of a state: the labels and twists at its positions."""
    labels, twists = state
    return tuple(labels[i] for i in lay.orbits[o]), tuple(twists[i] for i in lay.orbits[o])


def orbit_move(lay: Layout, m: Move, o: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A move on one orbit, in the orbit's own numbering 0..m-1."""
    orbit = lay.orbits[o]
    local = {g: j for j, g in enumerate(orbit)}
    return tuple(local[m.perm[g]] for g in orbit), tuple(m.twist[g] for g in orbit)


def full_state(rules: Rules, lay: Layout, parts: Sequence[tuple[Sequence[int], Sequence[int]]]) -> State:
    """The state whose orbits hold `parts` (the positions no move touches as solved)."""
    labels, twists = list(rules.solved[0]), [0] * rules.size
    for orbit, (ls, ts) in zip(lay.orbits, parts, strict=True):
        for g, c, t in zip(orbit, ls, ts, strict=True):
            labels[g], twists[g] = c, t
    return tuple(labels), tuple(twists)


__all__ = ["Layout", "dropped", "full_state", "index_size", "layout", "orbit_arrangements", "orbit_move",
           "orbit_state"]
