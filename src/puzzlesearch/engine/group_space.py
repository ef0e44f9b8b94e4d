"""The states of a puzzle whose pieces are all distinct, as the elements of a permutation
group, ranked by a stabiliser chain (kind GROUP of `space`).

Number every position and twist of a piece a *point*: set s's position q with twist u is
point ``offset[s] + q * k + u``. A move sends the piece at position p with twist u to
position i with twist u + twist[i], which is a permutation of the points (`point_moves`).
When every piece differs from every other, a state is one permutation of the points too:
the one that takes each piece's start (its position and twist) to where it is now, its
twist offset kept. The states reached from the start are then exactly the elements of the
group G the moves generate, and a move applied to a state is the product M∘g.

A puzzle whose moves tie the pieces together in ways no twist sum or parity tells (the
TurnFour, Conway's M24 puzzle) has far fewer states than the pieces' index of
`space.pieces_space` numbers: 92,897,280 of 23,781,703,680 for the TurnFour, and for M24
244,823,040 of 3.1 x 10^23. A stabiliser chain numbers them densely. With base points
b_0 .. b_{k-1}, level j's orbit O_j (the images of b_j under the elements fixing
b_0 .. b_{j-1}) and one transversal element u_{j,d} for each of its points, every g in G
is one product u_{0,d_0} ∘ u_{1,d_1} ∘ ... ∘ u_{k-1,d_{k-1}} (Sims 1970), and its index
is the mixed-radix number of the digits d_0 d_1 ... (radix |O_j|): 0 .. |G| - 1, every
number a state. The digits of an element are those of its sift: d_0 is the position of
g(b_0) in O_0, then g becomes u_{0,d_0}^{-1} ∘ g, which fixes b_0, and so on. Only the
base points' images are carried through the sift, k(k - 1)/2 lookups of the inverted
rows, never a whole product: that is what `group_kernel` does for every image.

The chain is made by the caller (perm builds it with its Schreier–Sims, `perm.schreier`)
and given as (base, orbits, rows): rows[j][d] the *inverted* transversal element of
orbits[j][d], the permutation of the points that sends it to base[j]. The chain must be
complete (its orbit lengths multiply to |G|); `group_space` checks what a row can show.
Plain Python; the kernels read the chain through `space.chain_arrays`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from math import prod

from puzzlesearch.engine.space import (
    GROUP,
    MAX_INDEX,
    Move,
    PieceSet,
    Space,
    _check_part,
    _check_set,
    _move_sets,
)


def offsets(sets: Sequence[PieceSet]) -> list[int]:
    """The first point of each set: its positions times its twists, the sets in turn."""
    found, n = [], 0
    for s in sets:
        found.append(n)
        n += s.size * s.twists
    return found


def point_moves(sets: Sequence[PieceSet], moves: Sequence[Move]) -> list[tuple[int, ...]]:
    """Each move as a permutation of the points: image[x] is where the move takes point x,
    (perm[i], u) -> (i, u + twist[i]) in each set."""
    sets = [_check_set(i, s) for i, s in enumerate(sets)]
    base = offsets(sets)
    n = sum(s.size * s.twists for s in sets)
    found = []
    for j, mv in enumerate(moves):
        image = [0] * n
        for i, (s, off, part) in enumerate(zip(sets, base, _move_sets(j, mv, tuple(sets)), strict=True)):
            perm, twist = _check_part(j, i, s, part)
            k = s.twists
            for q in range(s.size):
                for u in range(k):
                    image[off + perm[q] * k + u] = off + q * k + (u + twist[q]) % k
        found.append(tuple(image))
    return found


def group_space(name: str, sets: Sequence[PieceSet], moves: Sequence[Move], key: dict,
                chain: tuple[Sequence[int], Sequence[Sequence[int]], Sequence[Sequence[Sequence[int]]]],
                unit: str = "states") -> Space:
    """The elements of the group the moves generate (each set's pieces all distinct; moves
    as pieces_space takes them), ranked by the complete stabiliser chain `chain` (see the
    module's docstring), starting from the sets' start. ValueError, in words, for pieces
    that are not all distinct, a chain whose rows are not what they must be, a space beyond
    an index of 63 bits or a start the chain does not hold."""
    sets = tuple(_check_set(i, s) for i, s in enumerate(sets))
    if not sets:
        raise ValueError(f"{name} has no set of pieces")
    for i, s in enumerate(sets):
        if len(set(s.labels)) != s.size:
            raise ValueError(f"set {i} has identical pieces: a state is no group element")
    forward = point_moves(sets, moves)
    n = sum(s.size * s.twists for s in sets)
    base, orbits, rows = _check_chain(name, n, chain)
    back = []
    for image in forward:
        inv = [0] * n
        for x, y in enumerate(image):
            inv[y] = x
        back.append(tuple(inv))
    size = prod(len(o) for o in orbits)
    if size > MAX_INDEX:
        raise ValueError(f"{name} has {size:,} {unit}, beyond what an index of 63 bits numbers")
    digest = hashlib.sha256(json.dumps([base, orbits, rows]).encode()).hexdigest()[:16]
    key = {**key, "group": {"sets": [[s.size, s.twists, list(s.labels), list(s.start_twists)] for s in sets],
                            "moves": [list(m) for m in forward], "base": base,
                            "orbits": [len(o) for o in orbits], "chain": digest}}
    space = Space(name, GROUP, n, tuple(len(o) for o in orbits), 0, key, moves=tuple(forward),
                  inverse=tuple(back), unit=unit, sets=sets, chain=(base, orbits, rows),
                  table_bytes=3 * len(base) * max(len(o) for o in orbits) * n * 4)
    start = group_index(space, [(s.labels, s.start_twists) for s in sets])
    return Space(name, GROUP, n, space.radix, start, key, moves=space.moves, inverse=space.inverse,
                 unit=unit, sets=sets, chain=space.chain, table_bytes=space.table_bytes)


def _check_chain(name: str, n: int, chain: tuple) -> tuple[list[int], list[list[int]], list[list[list[int]]]]:
    """The chain as lists, or ValueError: each row a permutation of the n points that sends
    its orbit point to its level's base point and fixes the earlier base points."""
    base, orbits, rows = ([int(b) for b in chain[0]], [[int(x) for x in o] for o in chain[1]],
                          [[[int(x) for x in r] for r in level] for level in chain[2]])
    wrong = f"the stabiliser chain given for {name}"
    if not base or len(orbits) != len(base) or len(rows) != len(base):
        raise ValueError(f"{wrong} needs a level for each base point")
    points = list(range(n))
    for j, (b, orbit, level) in enumerate(zip(base, orbits, rows, strict=True)):
        if not orbit or orbit[0] != b or len(level) != len(orbit) or len(set(orbit)) != len(orbit):
            raise ValueError(f"{wrong}: level {j}'s orbit must start at its base point, a row for each point")
        for x, row in zip(orbit, level, strict=True):
            if sorted(row) != points or row[x] != b or any(row[e] != e for e in base[:j]):
                raise ValueError(f"{wrong}: level {j}'s row of point {x} does not send it to {b} "
                                 "fixing the earlier base points")
    return base, orbits, rows


def _element(space: Space, state: Sequence[tuple[Sequence[int], Sequence[int]]]) -> list[int]:
    """The permutation of the points that makes `state` from the start: each piece's start
    point, with every twist offset, to where the piece is now (ValueError for a state of
    other pieces, or twists out of range)."""
    if len(state) != len(space.sets):
        raise ValueError(f"a state of {space.name} has {len(space.sets)} sets, not {len(state)}")
    g = [0] * space.n
    for i, (s, off, (labels, twists)) in enumerate(zip(space.sets, offsets(space.sets), state, strict=True)):
        labels, twists = tuple(labels), tuple(twists) or (0,) * s.size
        if sorted(labels) != sorted(s.labels):
            raise ValueError(f"set {i} holds the pieces {sorted(s.labels)}, not {sorted(labels)}")
        if len(twists) != s.size or any(not 0 <= t < s.twists for t in twists):
            raise ValueError(f"set {i} needs {s.size} twists in 0..{s.twists - 1}, not {list(twists)}")
        home = {c: q for q, c in enumerate(s.labels)}
        k = s.twists
        for q, (c, t) in enumerate(zip(labels, twists, strict=True)):
            h, t0 = home[c], s.start_twists[home[c]]
            for a in range(k):
                g[off + h * k + (t0 + a) % k] = off + q * k + (t + a) % k
    return g


def group_index(space: Space, state: Sequence[tuple[Sequence[int], Sequence[int]]]) -> int:
    """The index of a state given per set as (labels, twists), as pieces_index takes it;
    ValueError for a state outside the space: other pieces, a twist out of range, or an
    arrangement the moves never reach (it does not sift through the chain)."""
    g = _element(space, state)
    base, orbits, rows = space.chain
    images = [g[b] for b in base]
    index = 0
    for j, orbit in enumerate(orbits):
        try:
            d = orbit.index(images[j])
        except ValueError:
            raise ValueError(f"that state of {space.name} is not reachable: no sequence of its moves "
                             "makes it") from None
        index = index * len(orbit) + d
        row = rows[j][d]
        images = [row[y] for y in images]
        g = [row[y] for y in g]
    if g != list(range(space.n)):
        raise ValueError(f"that state of {space.name} is not reachable: no sequence of its moves makes it")
    return index


def group_state(space: Space, index: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Per set, the labels and the twists at its positions in the state with this index."""
    if not 0 <= index < space.size:
        raise ValueError(f"index {index} is outside 0..{space.size - 1} ({space.name})")
    base, orbits, rows = space.chain
    digits = []
    for orbit in reversed(orbits):
        index, d = divmod(index, len(orbit))
        digits.append(d)
    digits.reverse()
    g = list(range(space.n))  # u_0 ∘ u_1 ∘ ...: each transversal element the inverse of its row
    for level, d in zip(rows, digits, strict=True):
        u = [0] * space.n
        for x, y in enumerate(level[d]):
            u[y] = x
        g = [g[y] for y in u]
    state = []
    for s, off in zip(space.sets, offsets(space.sets), strict=True):
        k = s.twists
        labels, twists = [0] * s.size, [0] * s.size
        for h in range(s.size):
            where, t = divmod(g[off + h * k + s.start_twists[h]] - off, k)
            labels[where], twists[where] = s.labels[h], t
        state.append((tuple(labels), tuple(twists)))
    return state


__all__ = ["group_index", "group_space", "group_state", "offsets", "point_moves"]
