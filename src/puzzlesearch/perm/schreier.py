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
points, `need_bytes`); the rows are reserved at once but take memory only as they are
written, and the cap (engine.memory) is checked each time the rows in use double. At
most MAX_POINTS points.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from puzzlesearch.engine.memory import require
from puzzlesearch.perm import schreier_kernel

#: the most points (positions x twists) a group is counted on: the symmetric group on 512
#: points takes about a second and 300 MiB (benchmarks/results/perm_limits.json), on 1,024
#: points eight times the memory (its transversals grow as the cube of the points); beyond,
#: refused at once
MAX_POINTS = 512


def need_bytes(degree: int) -> int:
    """The most the chain of a group on `degree` points takes (the symmetric group's): its
    transversal rows, 2 bytes a point (4 from 32,768 points), and the tables of rows and
    orbits."""
    return degree * (degree + 1) // 2 * degree * (2 if degree < 2**15 else 4) + 2 * degree * degree * 8


class Chain:
    """A stabiliser chain grown from random elements of the group `gens` generate. The
    inverted transversal rows of every level are rows of one array (`rows`), and
    `where[j, x]` is the row of point x at level j (-1: not in the orbit), so that the
    sift and the closure of an orbit run compiled (`schreier_kernel`): for the symmetric
    group on 512 points the closure makes 131,328 rows, which Python's loop made at about
    10 microseconds each."""

    def __init__(self, gens: Sequence[Sequence[int]], seed: int = 0, memory: int | None = None,
                 what: str = "Schreier-Sims") -> None:
        n = self.degree = len(gens[0]) if gens else 0
        self.dtype = np.int16 if n < 2**15 else np.int32
        self.gens = [np.array(g, dtype=self.dtype) for g in gens]
        self.memory, self.what = memory, what
        # room for the symmetric group's rows at once: the pages are the system's only once
        # written, and rows never copied as they grow (copies took half the time at 512 points);
        # the memory cap is checked as the rows in use pass each power of two (`_room`)
        self.rows = np.empty((n * (n + 1) // 2 + 1, n), dtype=self.dtype)
        self.nrows = 0
        self.checked = min(n * (n + 1) // 2 + 1, 4 * n + 4)
        self.where = np.full((max(1, n), n), -1, dtype=np.int64)
        self.base = np.zeros(max(1, n), dtype=np.int64)
        self.orbit = np.zeros((max(1, n), n), dtype=np.int64)  # level j's orbit: orbit[j, :size[j]]
        self.size = np.zeros(max(1, n), dtype=np.int64)
        self.levels = 0
        # the elements found, each with its inverse, and the indexes of each level's
        self.elements = np.empty((8, n), dtype=self.dtype)
        self.inverses = np.empty((8, n), dtype=self.dtype)
        self.nelements = 0
        self.mine: list[list[int]] = []
        self.order = 1  # the product of the orbit lengths: a lower bound of |G|, exact once complete
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
    def points(self) -> list[list[int]]:
        """Each level's orbit, in the order of its rows."""
        return [[int(x) for x in self.orbit[j, :self.size[j]]] for j in range(self.levels)]

    def _room(self, more: int) -> None:
        """Room for `more` rows, within the memory cap (checked as the rows pass each power of two)."""
        while self.checked < min(self.nrows + more, len(self.rows)):  # never more than the symmetric group's
            self.checked = min(2 * self.checked, len(self.rows))
            require(self.checked * self.degree * self.rows.itemsize, self.memory, self.what)

    def _new_level(self, point: int) -> None:
        j = self.levels
        self.base[j] = point
        self.mine.append([])
        self._room(1)
        self.rows[self.nrows] = np.arange(self.degree, dtype=self.dtype)
        self.where[j, point] = self.nrows
        self.orbit[j, 0] = point
        self.size[j] = 1
        self.nrows += 1
        self.levels += 1

    def _add(self, j: int, g: np.ndarray) -> None:
        """A new element of level j (it fixes the earlier base points): the orbit closed."""
        k = self.nelements
        if k == len(self.elements):
            self.elements = np.concatenate([self.elements, np.empty_like(self.elements)])
            self.inverses = np.concatenate([self.inverses, np.empty_like(self.inverses)])
        self.elements[k] = g
        self.inverses[k, g] = np.arange(len(g), dtype=g.dtype)
        self.nelements += 1
        self.mine[j].append(k)
        before = int(self.size[j])
        self._room(self.degree - before)
        mine = np.array(self.mine[j], dtype=np.int64)
        self.nrows = schreier_kernel.close(j, k, self.elements, self.inverses, mine, self.orbit, self.size,
                                           self.where, self.rows, self.nrows)
        self.order = self.order // before * int(self.size[j])

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
    require(2 * degree * degree * 8, memory, what)  # the tables of rows and orbits
    return Chain(gens, memory=memory, what=what).grow(upper)


__all__ = ["MAX_POINTS", "Chain", "need_bytes", "order"]
