"""Ranked state spaces: what the breadth-first engine (`layers`) searches, knowing no puzzle.

A space numbers its states 0..size-1 by a mixed-radix rank and describes its moves by plain
tuples, the form the kernels take (`layers_kernel`, whose module docstring gives the
ranks). Three kinds are built here from a puzzle's own words:

* permutations (`perm_space`): moves given as position permutations ``new[i] = old[perm[i]]``
  on decks of cards 1..n, top first. When every move is even, only the start's parity is
  reachable and the space indexes that half alone (`parity`);
* signed permutations (`signed_space`): burnt pancakes, a flip of the top k reversing them
  and turning each over;
* Hanoi positions (`hanoi_space`): one base-p digit a disc.

Building a space loads no numba; reading a state back (`deck_of`) does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from math import prod

import numpy as np

#: the kinds of space: the numbers layers_kernel's kernels dispatch on, repeated here so that
#: building a space does not load numba (tests/engine check that the two agree)
PERM, SIGNED, HANOI, FLIPS = 0, 1, 2, 3


@dataclass(frozen=True, eq=False)
class Space:
    """A ranked state space and its moves, in the form the kernels take (see layers_kernel).

    kind     PERM (FLIPS when every move is a flip), SIGNED or HANOI
    n        cards (or discs)
    radix    the radix of each digit, most significant first; size = their product
             (halved when compressed)
    moves    PERM: move j as a gather on bottom-first decks, q'[i] = q[moves[j][i]]
    reach    PERM: the top cards move j may change; SIGNED: the k of each burnt flip
    inverse  the moves backwards (and inverse_reach): what a bottom-up pass applies
    start    the index the search starts from
    key      what identifies the space in checkpoints and the results store
    """

    name: str
    kind: int
    n: int
    radix: tuple[int, ...]
    start: int
    key: dict
    pegs: int = 0
    moves: tuple[tuple[int, ...], ...] = ()
    reach: tuple[int, ...] = ()
    inverse: tuple[tuple[int, ...], ...] = ()
    inverse_reach: tuple[int, ...] = ()
    compressed: bool = False
    parity: int = 0
    unit: str = "states"
    size: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", prod(self.radix) // (2 if self.compressed else 1))

    def arrays(self, backwards: bool = False) -> tuple:
        """The kernel arguments after (cells, lo, hi[, start]): kind .. reach."""
        radix = np.array(self.radix, dtype=np.int64)
        weights = np.array([prod(self.radix[i + 1:]) for i in range(self.n)], dtype=np.int64)
        moves = self.inverse if backwards else self.moves
        reach = self.inverse_reach if backwards else self.reach
        mv = np.array(moves, dtype=np.int64).reshape(-1, self.n) if moves else np.zeros((1, self.n), np.int64)
        return (self.kind, self.n, self.pegs, self.compressed, self.parity, radix, weights, mv,
                np.array(reach, dtype=np.int64))

    def digits(self, index: int) -> tuple[list[int], list[int]]:
        """The digits and cards (bottom first) of one index."""
        from puzzlesearch.engine import layers_kernel as k  # numba: only when a state is read back

        kind, n, _, compressed, parity, radix, *_ = self.arrays()
        digits, cards = np.zeros(n, np.int64), np.zeros(n, np.int64)
        k.state_of(index, kind, n, radix, compressed, parity, digits, cards)
        return [int(d) for d in digits], [int(c) for c in cards]


def parity(perm: Sequence[int]) -> int:
    """0 for an even permutation of 0..n-1 (or of any distinct values), 1 for odd."""
    seen = [False] * len(perm)
    order = sorted(perm)
    pos = {v: i for i, v in enumerate(order)}
    swaps = 0
    for i in range(len(perm)):
        if not seen[i]:
            j, length = i, 0
            while not seen[j]:
                seen[j] = True
                j = pos[perm[j]]
                length += 1
            swaps += length - 1
    return swaps & 1


def _lehmer(q: Sequence[int]) -> list[int]:
    return [sum(1 for c in q[i + 1:] if c < q[i]) for i in range(len(q))]


def _index(digits: Sequence[int], radix: Sequence[int], compressed: bool = False) -> int:
    r = 0
    for d, b in zip(digits, radix, strict=True):
        r = r * b + d
    return r >> 1 if compressed else r


def perm_space(name: str, n: int, moves: Sequence[Sequence[int]], start: Sequence[int], key: dict,
               unit: str = "decks") -> Space:
    """Moves on decks of n cards, each a tuple ``new[i] = old[perm[i]]`` with position 0 the
    top; start: cards 1..n, top first. When every move is even the space holds the start's
    parity only."""

    def bottom_first(mv: Sequence[int]) -> tuple[int, ...]:
        return tuple(n - 1 - mv[n - 1 - i] for i in range(n))

    def inverse(mv: Sequence[int]) -> tuple[int, ...]:
        inv = [0] * n
        for i, p in enumerate(mv):
            inv[p] = i
        return tuple(inv)

    def reach(mv: Sequence[int]) -> int:
        return max((i + 1 for i in range(n) if mv[i] != i), default=0)

    order = sorted(range(len(moves)), key=lambda j: reach(moves[j]))  # nearby images first
    fwd = [tuple(moves[j]) for j in order]
    back = [inverse(mv) for mv in fwd]
    compressed = n >= 2 and bool(fwd) and all(parity(mv) == 0 for mv in fwd)
    q = [c - 1 for c in reversed(start)]
    radix = tuple(range(n, 0, -1))
    flips = all(mv == tuple(range(r - 1, -1, -1)) + tuple(range(r, n)) for mv, r in
                ((mv, reach(mv)) for mv in fwd))
    return Space(name, FLIPS if flips else PERM, n, radix, _index(_lehmer(q), radix, compressed), key,
                 moves=tuple(bottom_first(mv) for mv in fwd), reach=tuple(reach(mv) for mv in fwd),
                 inverse=tuple(bottom_first(mv) for mv in back),
                 inverse_reach=tuple(reach(mv) for mv in back),
                 compressed=compressed, parity=parity(q), unit=unit)


def signed_space(name: str, n: int, key: dict, start: Sequence[int] | None = None,
                 unit: str = "stacks") -> Space:
    """Burnt pancakes: n cards, each burnt side up or down; flip k (1..n) reverses the top k
    and turns each over. start: cards 1..n top first, negative = burnt side up."""
    start = tuple(range(1, n + 1)) if start is None else tuple(start)
    q = [abs(c) - 1 for c in reversed(start)]
    signs = [1 if c < 0 else 0 for c in reversed(start)]
    radix = tuple(2 * (n - i) for i in range(n))
    digits = [2 * d + s for d, s in zip(_lehmer(q), signs, strict=True)]
    flips = tuple(range(1, n + 1))
    return Space(name, SIGNED, n, radix, _index(digits, radix), key, reach=flips, inverse_reach=flips,
                 unit=unit)


def hanoi_space(name: str, n: int, pegs: int, start: Sequence[int], key: dict) -> Space:
    """n discs on `pegs` pegs; start[i] = the peg (0..pegs-1) of the (i+1)-th largest disc
    (largest disc first); the index is that base-`pegs` number."""
    radix = (pegs,) * n
    return Space(name, HANOI, n, radix, _index(start, radix), key, pegs=pegs, unit="positions")


def hanoi_index(space: Space, position: Sequence[int]) -> int:
    return _index(position, space.radix)


def deck_of(space: Space, index: int) -> tuple[int, ...]:
    """PERM/SIGNED: the deck with this index, cards 1..n, top first (SIGNED: a burnt side
    up is a negative card)."""
    digits, cards = space.digits(index)
    if space.kind == SIGNED:
        return tuple(-(c + 1) if d & 1 else c + 1 for c, d in reversed(list(zip(cards, digits, strict=True))))
    return tuple(c + 1 for c in reversed(cards))


__all__ = ["FLIPS", "HANOI", "PERM", "SIGNED", "Space", "deck_of", "hanoi_index", "hanoi_space", "parity",
           "perm_space", "signed_space"]
