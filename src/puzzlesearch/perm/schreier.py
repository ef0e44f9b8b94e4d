"""The order of a permutation group on many points: a randomized Schreier–Sims (Sims 1970;
the random version as Leon 1980 and Seress, *Permutation Group Algorithms*, 2003, ch. 4)
over numpy arrays, proved exact by an upper bound.

A stabiliser chain has base points b_0, b_1, ... and, for each level j, the orbit of b_j
under elements that fix b_0 .. b_{j-1}, with one element of the group for each orbit
point (its transversal, stored inverted: the row that sends the point back to b_j). Every
element so stored is a product of the moves, and products of one transversal element a
level are all different (each level decides the image of its base point), so the product
of the orbit lengths is a *lower* bound of |G| whatever elements have been found. Random
elements of G (Celler et al.'s product replacement, 1995) are sifted through the chain;
what does not sift to the identity becomes a new element of its level and the orbit
grows. The caller supplies an *upper* bound (the order of everything the puzzle's
invariants allow, `group.count`); when the two meet, the order is proved, with no
probability in the answer. When they have not met after `patience` random elements in a
row that sift to the identity, the answer is None: the invariants do not describe the
group, and an exact method must decide.

Memory: the transversals hold up to d(d+1)/2 rows of d points (2 bytes each below 32,768
points, `need_bytes`); the rows are allocated as they come, twice as many each time,
each time checked against the cap (engine.memory). At most MAX_POINTS points.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import prod

import numpy as np

from puzzlesearch.engine.memory import require
from puzzlesearch.perm import schreier_kernel

#: the most points (positions x twists) a group is counted on: the symmetric group on 512
#: points takes about 2 s and 300 MiB, on 1,024 points fifteen seconds and 1.2 GiB (its
#: transversals grow as the cube of the points); beyond, refused at once
MAX_POINTS = 512


def need_bytes(degree: int) -> int:
    """The most the chain of a group on `degree` points takes (the symmetric group's): its
    transversal rows, 2 bytes a point (4 from 32,768 points), and the table of rows."""
    return degree * (degree + 1) // 2 * degree * (2 if degree < 2**15 else 4) + degree * degree * 8


class Chain:
    """A stabiliser chain grown from random elements of the group `gens` generate. The
    inverted transversal rows of every level are rows of one array (`rows`), and
    `where[j, x]` is the row of point x at level j (-1: not in the orbit), so that the
    sift runs compiled (`schreier_kernel.sift`)."""

    def __init__(self, gens: Sequence[Sequence[int]], seed: int = 0, memory: int | None = None,
                 what: str = "Schreier-Sims") -> None:
        n = self.degree = len(gens[0]) if gens else 0
        self.dtype = np.int16 if n < 2**15 else np.int32
        self.gens = [np.array(g, dtype=self.dtype) for g in gens]
        self.memory, self.what = memory, what
        self.rows = np.empty((min(n * (n + 1) // 2 + 1, 4 * n + 4), n), dtype=self.dtype)
        self.nrows = 0
        self.where = np.full((max(1, n), n), -1, dtype=np.int64)
        self.base = np.zeros(max(1, n), dtype=np.int64)
        self.points: list[list[int]] = []  # each level's orbit, in the order of its rows
        self.strong: list[list[tuple[np.ndarray, np.ndarray]]] = []  # each level's elements, inverses
        self.rng = random.Random(seed)
        # product replacement: a few slots holding products, and an accumulator
        self.slots = [g.copy() for g in self.gens] * max(1, 10 // max(1, len(self.gens)) + 1)
        self.acc = np.arange(n, dtype=self.dtype)
        for _ in range(100):
            self._random()

    def _random(self) -> np.ndarray:
        s, t = self.rng.sample(range(len(self.slots)), 2)
        if self.rng.random() < 0.5:
            self.slots[s] = self.slots[t][self.slots[s]]
        else:
            self.slots[s] = self.slots[s][self.slots[t]]
        self.acc = self.slots[s][self.acc]
        return self.acc

    @property
    def levels(self) -> int:
        return len(self.points)

    @property
    def order(self) -> int:
        """The product of the orbit lengths: a lower bound of |G|, exact once complete."""
        return prod(len(p) for p in self.points)

    def _row(self, level: int, point: int, row: np.ndarray) -> None:
        if self.nrows == len(self.rows):  # twice the rows, within the memory cap
            more = np.empty((2 * len(self.rows), self.degree), dtype=self.dtype)
            require(2 * more.nbytes, self.memory, self.what)  # the old rows, the new and the table
            more[:self.nrows] = self.rows
            self.rows = more
        self.rows[self.nrows] = row
        self.where[level, point] = self.nrows
        self.nrows += 1
        self.points[level].append(point)

    def _new_level(self, point: int) -> None:
        self.base[self.levels] = point
        self.points.append([])
        self.strong.append([])
        self._row(self.levels - 1, point, np.arange(self.degree, dtype=self.dtype))

    def _add(self, j: int, g: np.ndarray) -> None:
        """A new element of level j (it fixes the earlier base points): the orbit closed."""
        inv = np.empty_like(g)
        inv[g] = np.arange(len(g), dtype=g.dtype)
        self.strong[j].append((g, inv))
        points, where = self.points[j], self.where[j]
        todo = list(range(len(points)))  # orbit points whose images under the new element are unseen
        pairs = [(g, inv)]
        while todo:
            later = []
            for gen, ginv in pairs:
                for i in todo:
                    z = int(gen[points[i]])
                    if where[z] < 0:
                        self._row(j, z, self.rows[where[points[i]]][ginv])  # (u_y s)^-1 = s^-1 u_y^-1
                        later.append(len(points) - 1)
            todo = later
            pairs = self.strong[j]
        return None

    def sift(self, g: np.ndarray) -> tuple[np.ndarray, int]:
        """(what is left of g, the level where it stopped: `levels` if it got through)."""
        out = np.empty_like(g)
        j = schreier_kernel.sift(g, self.base, self.levels, self.where, self.rows, out)
        return out, j

    def grow(self, upper: int, patience: int | None = None) -> int | None:
        """Grow the chain until its order reaches `upper` (then the order, proved), or until
        `patience` random elements in a row sift to the identity (then None; default 40 +
        half the degree: a large group's random products mix slowly)."""
        patience = 40 + self.degree // 2 if patience is None else patience
        identity = np.arange(self.degree, dtype=self.dtype)
        if not self.gens or all((g == identity).all() for g in self.gens):
            return 1 if upper == 1 else None
        quiet = 0
        found = self.order
        while found < upper:
            if quiet >= patience:
                return None
            h, j = self.sift(self._random())
            if j == self.levels:
                moved = np.nonzero(h != identity)[0]
                if not len(moved):
                    quiet += 1
                    continue
                self._new_level(int(moved[0]))
            quiet = 0
            self._add(j, h)
            found = self.order
        return found if found == upper else None


def order(gens: Sequence[Sequence[int]], upper: int, memory: int | None, what: str) -> int | None:
    """|G| for the group `gens` generate, when it equals `upper` (the order of what the
    invariants allow, never exceeded), else None. Refused (ValueError, one line) on more
    than MAX_POINTS points, and when the chain would pass the memory cap."""
    degree = len(gens[0]) if gens else 0
    if degree > MAX_POINTS:
        raise ValueError(f"{what}: a group is counted on at most {MAX_POINTS:,} points (positions x twists), "
                         f"got {degree:,}")
    require(degree * degree * 8, memory, what)
    return Chain(gens, memory=memory, what=what).grow(upper)


__all__ = ["MAX_POINTS", "Chain", "need_bytes", "order"]
