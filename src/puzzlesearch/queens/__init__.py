"""N-Queens: count all and unique solutions, list them lazily, complete given queens.

Counting uses the corner/rotation method (Takaken, after Jeff Somers) in numba kernels
(corner.py, compiled ahead of time by aot.py), split into tasks for the shared engine
(tasks.py); listing and completion use a plain bitboard backtracker (complete.py).
`rules` is the plain-Python reference. The public API is `api`, re-exported here.
"""

from .api import MAX_COUNT_N, MAX_N, Count, Givens, count, givens, solutions
from .construct import MAX_SOLVE_N, NoBoard, Solved, board, solve, verify

__all__ = ["MAX_COUNT_N", "MAX_N", "Count", "Givens", "count", "givens", "solutions",
           "MAX_SOLVE_N", "NoBoard", "Solved", "board", "solve", "verify"]
