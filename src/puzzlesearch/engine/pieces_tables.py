"""The move tables of a puzzle of pieces: which coordinates get one, what they cost, and
the tables themselves, built once per process.

Each set of a PIECES space (`space.pieces_space`) has two coordinates, its arrangement and
its twists (`pieces_kernel`), each changed by a move in a way that does not depend on the
other. A coordinate whose table (its values x the moves, 4 bytes an entry) fits the
budget, smallest first, moves through it; a larger one (one big set of distinct pieces)
is unranked and its images ranked when its value changes. The index is the same either
way: a table only stores what ranking computes. When every move's inverse is a move, the
backward passes read the forward tables at the inverse's column; otherwise they have
tables of their own, counted too.

Planning is plain Python (`perm info` and the memory cap read it without numba); building
loads the kernels.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from puzzlesearch.engine.shared import built_once

#: the bytes a space's move tables may take, forward and backward together
TABLE_BUDGET = 1 << 28
ENTRY = 4  # bytes an entry (int32: a coordinate's value)
#: the rows of a plan, one column a coordinate (pieces_kernel repeats them)
RAD, CW, OFF, LO, CKIND = range(5)
ARRANGEMENT, TWIST = 0, 1


def plan(coordinates: Sequence[tuple[int, int, int, int]], moves: int, closed: bool,
         budget: int | None = None) -> tuple[tuple[tuple[int, ...], ...], int]:
    """coordinates: (radix, weight, first position of its set, ARRANGEMENT or TWIST), most
    significant first. The plan's rows RAD .. CKIND (OFF: the table's start, -1 for none;
    coordinates of radix 1 left out) and the bytes the tables take (twice, for the
    backward passes, unless the moves are `closed` under inverses) within `budget` bytes
    (TABLE_BUDGET)."""
    budget = TABLE_BUDGET if budget is None else budget
    kept = [c for c in coordinates if c[0] > 1]
    copies = 1 if closed else 2
    offsets = [-1] * len(kept)
    used = 0
    for i in sorted(range(len(kept)), key=lambda i: kept[i][0]):
        cost = kept[i][0] * moves * ENTRY * copies
        if moves and used + cost <= budget:
            offsets[i] = used // (ENTRY * copies)
            used += cost
    rows = ([c[0] for c in kept], [c[1] for c in kept], offsets, [c[2] for c in kept], [c[3] for c in kept])
    return tuple(tuple(r) for r in rows), used


def inverse_columns(forward: Sequence[Sequence[int]], backward: Sequence[Sequence[int]]
                    ) -> tuple[int, ...] | None:
    """Per backward move, the forward move it equals; None when one is no forward move."""
    where = {tuple(mv): j for j, mv in enumerate(forward)}
    cols = [where.get(tuple(mv)) for mv in backward]
    return None if None in cols else tuple(c for c in cols if c is not None)


def entries(rows: Sequence[Sequence[int]]) -> int:
    """The values of the tabled coordinates of a plan, all together."""
    return sum(r for r, off in zip(rows[RAD], rows[OFF], strict=True) if off >= 0)


@built_once(maxsize=4)
def tables(n: int, moves: tuple[tuple[int, ...], ...], table: tuple[tuple[int, ...], ...],
           rows: tuple[tuple[int, ...], ...]) -> np.ndarray:
    """The move tables of these moves (int32, read only), built once per process however
    many threads ask: every tabled coordinate's row for every value."""
    from puzzlesearch.engine import pieces_kernel  # numba: only when a search runs

    mv = np.array(moves, dtype=np.int64).reshape(len(moves), 2 * n)
    tabs = np.zeros(entries(rows) * len(moves), dtype=np.int32)
    pieces_kernel.build_tables(n, mv, np.array(table, dtype=np.int64), np.array(rows, dtype=np.int64), tabs)
    tabs.flags.writeable = False
    return tabs


__all__ = ["ARRANGEMENT", "TABLE_BUDGET", "TWIST", "entries", "inverse_columns", "plan", "tables"]
