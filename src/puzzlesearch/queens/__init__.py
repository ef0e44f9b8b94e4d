"""N-Queens: count all and unique solutions, list them lazily, complete given queens.

Counting uses the corner/rotation method (Takaken, after Jeff Somers) in numba kernels,
split into tasks for the shared engine; listing and completion use a plain bitboard
backtracker. `rules` is the plain-Python reference. See `driver` for the API.
"""

from .driver import MAX_N, Count, count, solutions

__all__ = ["MAX_N", "Count", "count", "solutions"]
