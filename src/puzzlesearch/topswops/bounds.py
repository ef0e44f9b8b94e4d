"""The forward search's bounds, in the words the searches share.

bounds      f(0..n-1), each this program's own result (forward.own_bounds); f(0) = 0 by
            convention (never used: a placeholder is always on top)
first target  f(n-1) + 1, the fewest steps an optimal deck of n cards makes: every n
            reaches it (put n on top of an optimal (n-1)-deck reversed)
bottom      at most this many steps are left once card n is at the bottom (bottom.py),
            for the games of at least the target's steps: the search prunes with
            min(f(t), bottom) where it used f(t) (t < n: the bottom block holds card n)

This module imports no numba.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def first_target(bounds: Sequence[int], n: int) -> int:
    """f(n-1) + 1 (0 for n = 1, whose one deck makes 0 steps)."""
    return bounds[n - 1] + 1 if n > 1 else 0


def pruned(bounds: Sequence[int], n: int, bottom: int | None = None) -> list[int]:
    """The bounds f(0..n-1) the forward search prunes with: each at most `bottom` if given."""
    own = list(bounds[:n])
    return own if bottom is None else [min(b, bottom) for b in own]


def bound_array(n: int, bounds: Sequence[int]) -> np.ndarray:
    """The kernels' bound: f(0..n-1) from `bounds`, then a 0 for the whole deck (never pruned)."""
    return np.array(list(bounds[:n]) + [0], dtype=np.int64)


__all__ = ["bound_array", "first_target", "pruned"]
