"""The forward search's bounds f(m), m < n: each this program's own result.

A value is read back from the results store (engine.store.ResultsStore), or computed now
by the forward search, smallest m first (each with the bounds before it), and stored;
never taken from a published table. The search starts at the first target f(n-1) + 1,
which every n reaches (put n on top of an optimal (n-1)-deck reversed).
"""

from __future__ import annotations

from collections.abc import Sequence

#: results store: puzzle name, and the key of f(m)
STORE_PUZZLE = "topswops"


def key(m: int) -> str:
    return f"f({m})"


def first_target(bounds: Sequence[int], n: int) -> int:
    """f(n-1) + 1, the fewest steps an optimal deck of n cards makes (0 for n = 1)."""
    return bounds[n - 1] + 1 if n > 1 else 0


def own_bounds(n: int, store: str | None = None, *, progress: bool = False) -> list[int]:
    """f(0..n-1), each this program's own result: read back from the results store, or
    computed now by the forward search in this process (smallest first, each using the
    ones before) and stored. f(0) = 0 by convention (it is never used: a placeholder is
    always on top). `progress`: a meter for the long ones (forward.solve_forward)."""
    from puzzlesearch.engine.options import RunOptions
    from puzzlesearch.engine.store import ResultsStore
    from puzzlesearch.topswops.forward import solve_forward  # forward.py imports this module

    bounds = [0]
    with ResultsStore(store) as db:
        for m in range(1, n):
            value = db.get(STORE_PUZZLE, key(m))
            if value is None:
                r = solve_forward(m, bounds, run=RunOptions(workers=1, progress=progress))
                value = r.steps
                db.put(STORE_PUZZLE, key(m), value, "forward", r.seconds)
            bounds.append(int(value))
    return bounds


def remember(n: int, steps: int, method: str, seconds: float, store: str | None = None) -> None:
    """Keep a computed f(n) in the results store for later runs to use as a bound."""
    from puzzlesearch.engine.store import ResultsStore

    with ResultsStore(store) as db:
        db.put(STORE_PUZZLE, key(n), steps, method, seconds)


__all__ = ["STORE_PUZZLE", "first_target", "key", "own_bounds", "remember"]
