"""Ranked state spaces: what the breadth-first engine (`layers`) searches, knowing no puzzle.

A space numbers its states 0..size-1 by a mixed-radix rank and describes its moves by plain
tuples, the form the kernels take (`layers_kernel`, whose module docstring gives the
ranks). Four kinds are built here from a puzzle's own words, and a fifth in `group_space`:

* permutations (`perm_space`): moves given as position permutations ``new[i] = old[perm[i]]``
  on decks of cards 1..n, top first. When every move is even, only the start's parity is
  reachable and the space indexes that half alone (`parity`);
* signed permutations (`signed_space`): burnt pancakes, a flip of the top k reversing them
  and turning each over;
* Hanoi positions (`hanoi_space`): one base-p digit a disc;
* pieces (`pieces_space`): any permutation puzzle described by sets of positions
  (`PieceSet`: the corners of a cube, its edges, ...), each piece with a twist 0..k-1 and
  pieces of a set possibly identical. A move is a gather and a twist added in each set.
  A set of distinct pieces on which every move is even holds its start's parity only,
  and its index that half alone (`one_parity`), as a deck's does;
* group elements (GROUP, `group_space`): pieces all distinct, each state an element of the
  group the moves generate, ranked by the digits of a stabiliser chain: exactly the
  reachable states, where the pieces' index would hold many times more.

Building a space loads no numba; reading a deck back (`deck_of`) does; reading pieces
back (`pieces_state`, `pieces_index`) is plain Python.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from math import factorial, prod

import numpy as np

from puzzlesearch.engine import pieces_tables as pt

#: the kinds of space: the numbers layers_kernel's kernels dispatch on, repeated here so that
#: building a space does not load numba (tests/engine check that the two agree)
PERM, SIGNED, HANOI, FLIPS, PIECES, GROUP = 0, 1, 2, 3, 4, 5
#: PIECES: the rows of Space.table, one column a position (see pieces_kernel, which
#: repeats them, like the kinds)
K, AW, TW, HI, DISTINCT, ARR, TWN, W, TOTAL, TSUM, NLAB, COUNT, PAR = range(13)
#: the largest index pieces_space gives (an int64)
MAX_INDEX = (1 << 63) - 1


@dataclass(frozen=True)
class PieceSet:
    """Positions holding one sort of piece (a cube's corners, its edges, ...).

    size          positions, m
    twists        the orientations of a piece there, k (1: none); a twist is 0..k-1
    labels        the piece at each position at the start, 0-based; () = all distinct,
                  0..m-1. Equal labels are identical pieces (colours): swapping them is
                  no change
    twist_sum     the moves keep the sum of the twists (mod k), so the last position's
                  twist follows from the others: the index holds k^(m-1) twists, not k^m
    start_twists  the twists at the start; () = all 0
    """

    size: int
    twists: int = 1
    labels: tuple[int, ...] = ()
    twist_sum: bool = False
    start_twists: tuple[int, ...] = ()


@dataclass(frozen=True, eq=False)
class Space:
    """A ranked state space and its moves, in the form the kernels take (see layers_kernel).

    kind     PERM (FLIPS when every move is a flip), SIGNED, HANOI, PIECES or GROUP
    n        cards (or discs; PIECES: positions, all sets together; GROUP: points)
    radix    the radix of each digit, most significant first; size = their product
             (halved when compressed); PIECES: the size of each set
    moves    PERM: move j as a gather on bottom-first decks, q'[i] = q[moves[j][i]];
             PIECES: the gather over all positions, then the twist each position adds;
             GROUP: the image of each point
    reach    PERM: the top cards move j may change; SIGNED: the k of each burnt flip
    inverse  the moves backwards (and inverse_reach): what a bottom-up pass applies
    start    the index the search starts from
    key      what identifies the space in checkpoints and the results store
    table    PIECES: each set's description (pieces_kernel)
    sets     a space pieces_space built: its PieceSets, for pieces_state and pieces_index
    coords   PIECES: its coordinates, which of them move through tables (pieces_tables.plan)
    table_bytes  PIECES: the bytes those tables take; GROUP: those of its chain's rows
    chain    GROUP: its stabiliser chain (base, orbits, rows), see group_space
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
    table: tuple[tuple[int, ...], ...] = ()
    sets: tuple[PieceSet, ...] = ()
    coords: tuple[tuple[int, ...], ...] = ()
    table_bytes: int = 0
    chain: tuple = ()
    size: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", prod(self.radix) // (2 if self.compressed else 1))

    def arrays(self, backwards: bool = False) -> tuple:
        """The kernel arguments after (cells, lo, hi[, start]): kind .. reach; PIECES: kind,
        n, moves, table, coords, tabs, cols (pieces_kernel; the move tables are built here,
        once per process); GROUP: kind, n, moves, base, pos, inv, fwd, weights (group_kernel)."""
        moves = self.inverse if backwards else self.moves
        if self.kind == GROUP:
            return (self.kind, self.n, np.array(moves, dtype=np.int32).reshape(len(moves), self.n),
                    *chain_arrays(self.n, self.chain))
        if self.kind == PIECES:
            cols = tuple(range(len(moves)))
            source = moves
            if backwards and (inverse := pt.inverse_columns(self.moves, self.inverse)) is not None:
                cols, source = inverse, self.moves  # the forward tables, at each inverse's column
            tabs = pt.tables(self.n, source, self.table, self.coords)
            return (self.kind, self.n, np.array(moves, dtype=np.int64).reshape(len(moves), 2 * self.n),
                    np.array(self.table, dtype=np.int64),
                    np.array(self.coords, dtype=np.int64), tabs,
                    np.array(cols, dtype=np.int64))
        radix = np.array(self.radix, dtype=np.int64)
        weights = np.array([prod(self.radix[i + 1:]) for i in range(self.n)], dtype=np.int64)
        reach = self.inverse_reach if backwards else self.reach
        mv = np.array(moves, dtype=np.int64).reshape(-1, self.n) if moves else np.zeros((1, self.n), np.int64)
        return (self.kind, self.n, self.pegs, self.compressed, self.parity, radix, weights, mv,
                np.array(reach, dtype=np.int64))

    def digits(self, index: int) -> tuple[list[int], list[int]]:
        """The digits and cards (bottom first) of one index; PIECES: the twist and the label
        of the piece at each position."""
        digits, cards = np.zeros(self.n, np.int64), np.zeros(self.n, np.int64)
        if self.kind == PIECES:
            from puzzlesearch.engine import pieces_kernel as p  # numba: only when a state is read back

            p.state_of(index, self.n, self.arrays()[3], cards, digits)
        else:
            from puzzlesearch.engine import layers_kernel as k

            kind, n, _, compressed, parity, radix, *_ = self.arrays()
            k.state_of(index, kind, n, radix, compressed, parity, digits, cards)
        return [int(d) for d in digits], [int(c) for c in cards]


def chain_arrays(n: int, chain: tuple) -> tuple[np.ndarray, ...]:
    """A GROUP space's chain as group_kernel takes it: the base points; pos[j, x], the digit
    of point x at level j (-1: not in its orbit); inv[j, d], the inverted transversal row of
    digit d (it sends that orbit point to base[j]); fwd[j, d], the row itself; the weight
    of each level's digit."""
    base, orbits, rows = chain
    k, width = len(base), max((len(o) for o in orbits), default=1)
    pos = np.full((k, n), -1, dtype=np.int32)
    inv = np.zeros((k, width, n), dtype=np.int32)
    fwd = np.zeros((k, width, n), dtype=np.int32)
    for j, (orbit, level) in enumerate(zip(orbits, rows, strict=True)):
        for d, (x, row) in enumerate(zip(orbit, level, strict=True)):
            pos[j, x] = d
            inv[j, d] = row
            fwd[j, d, np.array(row, dtype=np.int64)] = np.arange(n, dtype=np.int32)
    weights = [prod(len(o) for o in orbits[j + 1:]) for j in range(k)]
    return np.array(base, dtype=np.int64), pos, inv, fwd, np.array(weights, dtype=np.int64)


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


def _even(m: int, perms: Sequence[Sequence[int]]) -> bool:
    """Whether moves (perms of 0..m-1, at least one) keep the parity of an arrangement of
    m >= 2 positions: then only the start's parity is reachable."""
    return m >= 2 and bool(perms) and all(parity(p) == 0 for p in perms)


def one_parity(s: PieceSet, perms: Sequence[Sequence[int]]) -> bool:
    """Whether pieces_space indexes only the start's parity of set s, the moves acting on it
    as `perms`: its pieces are all distinct (swapping two identical ones changes the parity,
    not the state) and every move is an even permutation of its positions."""
    return _distinct(s) and _even(s.size, perms)


def multinomial(counts: Sequence[int]) -> int:
    """The arrangements of a multiset (counts[v]: how many pieces of label v): n! over the
    factorial of each count."""
    return factorial(sum(counts)) // prod(factorial(c) for c in counts)


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
    compressed = _even(n, fwd)
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


# --- pieces ---------------------------------------------------------------------------------------------
#
# A state is, per set, the label of the piece at each position and its twist. Its index:
# per set, the rank of its labels among the arrangements of that multiset of labels
# (the Lehmer code when all are distinct) times the twists held (k^m, or k^(m-1) with
# twist_sum) plus the twists as a base-k number; the sets then as the digits of a
# mixed-radix number, the first set most significant. A set of distinct pieces that the
# moves keep at one parity (one_parity) holds half the ranks: its Lehmer rank halved (the
# last digit is always 0 and the one before it, of weight 1, follows from the parity of the
# others). The kernels (layers_kernel) compute the same from Space.table (pieces_kernel).

Move = Sequence[tuple[Sequence[int], Sequence[int]]]


def pieces_space(name: str, sets: Sequence[PieceSet], moves: Sequence[Move], key: dict,
                 unit: str = "states") -> Space:
    """A puzzle of pieces: moves[j][s] = (perm, twist) for set s, the piece at position i
    after the move being the one that was at perm[i], its twist (old + twist[i]) mod k (a
    set the move leaves alone: the identity and zeros; twist () = zeros). The search starts
    from the sets' labels and start_twists. ValueError, in words, for a description that
    is not one (a perm that is not a permutation of 0..m-1, a twist out of range, labels of
    the wrong count, a move that breaks a twist_sum) or a space beyond an index of 63 bits.

    One set of distinct pieces without twists is a permutation space (perm_space): the
    moves of `shuffle god` and `pancake god`, at their speed. A set on which every move is
    even is indexed at the start's parity alone (one_parity)."""
    sets = tuple(_check_set(i, s) for i, s in enumerate(sets))
    if not sets:
        raise ValueError(f"{name} has no set of pieces")
    parts = [[_check_part(j, i, s, part) for i, (s, part) in enumerate(zip(sets, _move_sets(j, mv, sets),
                                                                         strict=True))]
             for j, mv in enumerate(moves)]
    halved = [one_parity(s, [mv[i][0] for mv in parts]) for i, s in enumerate(sets)]
    key = {**key, "pieces": {"sets": [[s.size, s.twists, list(s.labels), s.twist_sum, list(s.start_twists)]
                                      for s in sets],
                             "moves": [[[list(p), list(t)] for p, t in mv] for mv in parts]}}
    if any(halved):  # a halved set's ranks mean other states: its checkpoints and census are its own
        key["pieces"]["one parity"] = [i for i, h in enumerate(halved) if h]
    sizes = [_arrangements(s) // (1 + h) * _twists_held(s) for s, h in zip(sets, halved, strict=True)]
    total = prod(sizes)
    if total > MAX_INDEX or any(_arrangements(s) * s.size > MAX_INDEX for s in sets):
        raise ValueError(f"{name} has {total:,} {unit}, beyond what an index of 63 bits numbers")
    if len(sets) == 1 and sets[0].twists == 1 and _distinct(sets[0]):
        values = sorted(sets[0].labels)
        start = [values.index(c) + 1 for c in sets[0].labels]
        space = perm_space(name, sets[0].size, [mv[0][0] for mv in parts], start, key, unit)
        return replace(space, sets=sets)
    offsets = [sum(s.size for s in sets[:i]) for i in range(len(sets))]
    n = sum(s.size for s in sets)
    forward, back = [], []
    for mv in parts:
        gather = [off + p for off, (perm, _) in zip(offsets, mv, strict=True) for p in perm]
        twist = [t for _, tw in mv for t in tw]
        forward.append(tuple(gather + twist))
        inv = [0] * n
        for i, g in enumerate(gather):
            inv[g] = i
        ks = [s.twists for s in sets for _ in range(s.size)]
        back.append(tuple(inv + [-twist[inv[p]] % ks[p] for p in range(n)]))
    coordinates = []  # per set: its arrangement, then its twists held
    for i, (s, size, off) in enumerate(zip(sets, sizes, offsets, strict=True)):
        weight = prod(sizes[i + 1:])
        coordinates += [(size // _twists_held(s), weight * _twists_held(s), off, pt.ARRANGEMENT),
                        (_twists_held(s), weight, off, pt.TWIST)]
    coords, nbytes = pt.plan(coordinates, len(forward), pt.inverse_columns(forward, back) is not None)
    space = Space(name, PIECES, n, tuple(sizes), 0, key, moves=tuple(forward), inverse=tuple(back), unit=unit,
                  table=_table(sets, sizes, halved, n), sets=sets, coords=coords, table_bytes=nbytes)
    return replace(space, start=pieces_index(space, [(s.labels, s.start_twists) for s in sets]))


def pieces_state(space: Space, index: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Per set, the labels and the twists at its positions in the state with this index."""
    if not space.sets:
        raise ValueError(f"{space.name} is not a puzzle of pieces")
    if not 0 <= index < space.size:
        raise ValueError(f"index {index} is outside 0..{space.size - 1} ({space.name})")
    if space.kind != PIECES:  # one set of distinct pieces: a deck of perm_space
        values = sorted(space.sets[0].labels)
        return [(tuple(values[c - 1] for c in deck_of(space, index)), (0,) * space.n)]
    state = []
    for i in range(len(space.sets) - 1, -1, -1):
        s, par = space.sets[i], _held_parity(space, i)
        index, sub = divmod(index, space.radix[i])
        arrangement, held = divmod(sub, _twists_held(s))
        twists = []
        for _ in range(s.size - s.twist_sum):
            held, t = divmod(held, s.twists)
            twists.append(t)
        twists.reverse()
        if s.twist_sum:
            twists.append((_total(s) - sum(twists)) % s.twists)
        values = sorted(set(s.labels))
        if par < 0:
            dense = _unrank(arrangement, [s.labels.count(v) for v in values])
        else:  # the last two in order, or swapped for the parity the set holds
            dense = _unrank(2 * arrangement, [1] * s.size)
            if parity(dense) != par:
                dense[-2:] = dense[:-3:-1]
        state.append((tuple(values[c] for c in dense), tuple(twists)))
    return state[::-1]


def pieces_index(space: Space, state: Sequence[tuple[Sequence[int], Sequence[int]]]) -> int:
    """The index of a state given as pieces_state gives it (twists () = zeros); ValueError
    for a state outside the space (other pieces, a twist out of range or breaking the
    twist sum, a parity the moves never reach)."""
    if not space.sets:
        raise ValueError(f"{space.name} is not a puzzle of pieces")
    if len(state) != len(space.sets):
        raise ValueError(f"a state of {space.name} has {len(space.sets)} sets, not {len(state)}")
    ranks = []  # per set: its labels' rank, its twists as a number
    for i, (s, (labels, twists)) in enumerate(zip(space.sets, state, strict=True)):
        labels, twists = tuple(labels), tuple(twists) or (0,) * s.size
        if sorted(labels) != sorted(s.labels):
            raise ValueError(f"set {i} holds the pieces {sorted(s.labels)}, not {sorted(labels)}")
        if len(twists) != s.size or any(not 0 <= t < s.twists for t in twists):
            raise ValueError(f"set {i} needs {s.size} twists in 0..{s.twists - 1}, not {list(twists)}")
        if s.twist_sum and sum(twists) % s.twists != _total(s):
            raise ValueError(f"set {i}'s twists add up to {sum(twists) % s.twists} (mod {s.twists}), "
                             f"but its moves keep them at {_total(s)}")
        values = sorted(set(s.labels))
        dense = [values.index(c) for c in labels]
        held = 0
        for t in twists[: s.size - s.twist_sum]:
            held = held * s.twists + t
        rank = _rank(dense, [s.labels.count(v) for v in values])
        if space.kind == PIECES and (par := _held_parity(space, i)) >= 0:
            if parity(dense) != par:
                raise ValueError(f"set {i}: {list(labels)} has the other parity, which the moves of "
                                 f"{space.name} never reach")
            rank >>= 1
        ranks.append((dense, rank * _twists_held(s) + held))
    if space.kind != PIECES:  # one set of distinct pieces: a deck of perm_space, bottom first
        q = ranks[0][0][::-1]
        if space.compressed and parity(q) != space.parity:
            raise ValueError(f"{list(state[0][0])} has the other parity, which the moves of {space.name} "
                             "never reach")
        return _index(_lehmer(q), space.radix, space.compressed)
    return _index([r for _, r in ranks], space.radix)


def _held_parity(space: Space, i: int) -> int:
    """The parity set i of a PIECES space holds, -1 when it holds both."""
    return space.table[PAR][sum(s.size for s in space.sets[:i])]


def _check_set(i: int, s: PieceSet) -> PieceSet:
    """The set with its labels and start twists written out, or ValueError saying what is wrong."""
    what = f"set {i}"
    if not isinstance(s, PieceSet):
        raise ValueError(f"{what} is not a PieceSet but {s!r}")
    m, k = _integers((s.size, s.twists), f"{what}'s size and twists")
    if m < 1:
        raise ValueError(f"{what} has {m} positions; a set has at least one")
    if k < 1:
        raise ValueError(f"{what} has twists={k}; a piece has at least one orientation (1: none)")
    labels = tuple(_integers(s.labels, f"{what}'s labels")) or tuple(range(m))
    if len(labels) != m:
        raise ValueError(f"{what} has {m} positions but {len(labels)} labels")
    if min(labels) < 0:
        raise ValueError(f"{what}: labels are 0-based, not {min(labels)}")
    start = tuple(_integers(s.start_twists, f"{what}'s start twists")) or (0,) * m
    if len(start) != m:
        raise ValueError(f"{what} has {m} positions but {len(start)} start twists")
    if any(not 0 <= t < k for t in start):
        raise ValueError(f"{what}: the start twists {list(start)} are not all in 0..{k - 1}")
    return PieceSet(m, k, labels, bool(s.twist_sum), start)


def _integers(values: Sequence[int], what: str) -> tuple[int, ...]:
    try:
        return tuple(operator.index(v) for v in values)
    except TypeError:
        raise ValueError(f"{what} are not all integers: {values!r}") from None


def _move_sets(j: int, mv: Move, sets: tuple[PieceSet, ...]) -> Move:
    if len(mv) != len(sets):
        raise ValueError(f"move {j} acts on {len(mv)} sets, the puzzle has {len(sets)}")
    return mv


def _check_part(j: int, i: int, s: PieceSet, part: tuple) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Move j on set i as (perm, twist), or ValueError saying what is wrong."""
    what = f"move {j} on set {i}"
    try:
        perm, twist = part
    except (TypeError, ValueError):
        raise ValueError(f"{what} is not a pair (perm, twist): {part!r}") from None
    perm, twist = _integers(perm, f"{what}'s perm"), _integers(twist, f"{what}'s twists")
    m, k = s.size, s.twists
    if sorted(perm) != list(range(m)):
        raise ValueError(f"{what}: {list(perm)} is not a permutation of 0..{m - 1}")
    twist = twist or (0,) * m
    if len(twist) != m:
        raise ValueError(f"{what} gives {len(twist)} twists for {m} positions")
    if any(not 0 <= t < k for t in twist):
        raise ValueError(f"{what}: the twists {list(twist)} are not all in 0..{k - 1}")
    if s.twist_sum and sum(twist) % k:
        raise ValueError(f"{what}: its twists add up to {sum(twist)}, not a multiple of {k}, so it "
                         "breaks the twist sum the set keeps (twist_sum)")
    return perm, twist


def _distinct(s: PieceSet) -> bool:
    return len(set(s.labels)) == s.size


def _arrangements(s: PieceSet) -> int:
    """The arrangements of the set's pieces: m! over the factorial of each label's count."""
    return multinomial([s.labels.count(v) for v in set(s.labels)])


def _twists_held(s: PieceSet) -> int:
    return s.twists ** (s.size - s.twist_sum)


def _total(s: PieceSet) -> int:
    """What the twists of a twist_sum set add up to (mod k), in every state."""
    return sum(s.start_twists) % s.twists


def _rank(q: Sequence[int], counts: Sequence[int]) -> int:
    """The rank of q among the arrangements of its multiset (counts[v]: how many v), in
    lexicographic order: before position i come the arrangements that put a smaller label
    there, each label v as many as the rest holds with one v taken (arrangements * c_v / r)."""
    counts = list(counts)
    left = len(q)
    ways = multinomial(counts)
    rank = 0
    for x in q:
        rank += ways * sum(counts[:x]) // left
        ways = ways * counts[x] // left
        counts[x] -= 1
        left -= 1
    return rank


def _unrank(rank: int, counts: Sequence[int]) -> list[int]:
    counts = list(counts)
    left = sum(counts)
    ways = multinomial(counts)
    q = []
    for _ in range(left):
        v = 0
        while rank >= (block := ways * counts[v] // left):
            rank -= block
            v += 1
        q.append(v)
        ways = block
        counts[v] -= 1
        left -= 1
    return q


def _table(sets: tuple[PieceSet, ...], sizes: list[int], halved: list[bool], n: int
           ) -> tuple[tuple[int, ...], ...]:
    """The rows K .. PAR of a PIECES space, one column a position (see pieces_kernel)."""
    rows = [[0] * n for _ in range(PAR + 1)]
    off = 0
    for i, (s, half) in enumerate(zip(sets, halved, strict=True)):
        m, k, held = s.size, s.twists, s.size - s.twist_sum
        weight = prod(sizes[i + 1:])
        distinct = _distinct(s)
        values = sorted(set(s.labels))
        par = parity(s.labels) if half else -1
        for q in range(m):
            p = off + q
            rows[K][p], rows[HI][p], rows[W][p], rows[TOTAL][p] = k, off + m, weight, _total(s)
            # halved: the Lehmer digits' weights halved (exact: (m-1-q)! is even for q < m - 2),
            # the last two digits' 0, so the image's rank costs what a whole set's does
            digit = factorial(m - 1 - q) if distinct else 1
            if half:
                digit = digit // 2 if q < m - 2 else 0
            rows[AW][p] = digit
            rows[TW][p] = k ** (held - 1 - q) if q < held else 0
            rows[DISTINCT][p], rows[TWN][p] = int(distinct), _twists_held(s)
            rows[ARR][p] = _arrangements(s) // (1 + half)
            rows[TSUM][p], rows[NLAB][p], rows[PAR][p] = int(s.twist_sum), len(values), par
        for v, value in enumerate(values):
            rows[COUNT][off + v] = s.labels.count(value)
        off += m
    return tuple(tuple(r) for r in rows)


__all__ = ["FLIPS", "GROUP", "HANOI", "PERM", "PIECES", "SIGNED", "PieceSet", "Space", "chain_arrays",
           "deck_of", "hanoi_index", "hanoi_space", "multinomial", "one_parity", "parity", "perm_space",
           "pieces_index", "pieces_space", "pieces_state", "signed_space"]
