"""N-Queens: count all and unique solutions, list them lazily, complete given queens.

Counting builds half boards from one table of quarter placements and counts the pairs of
halves that fit (E. Kluev's method, assembly.py, the default from n = 17, with the unique
count by Burnside's lemma); or searches one start constellation of each symmetry class
(the four edge queens; the method of Preusser and Engelhardt's Q27 project,
constellation.py); or with `method="corner"` uses the corner/rotation method (Takaken,
after Jeff Somers, corner.py). The backtracking kernels are compiled ahead of time by
aot.py; every count is split into tasks for the shared engine (tasks.py). `estimate`
says what an assembly count would take. Listing and completion use a plain bitboard
backtracker (complete.py); `queens.solve` builds one board for any n without search
(construct.py). `rules` is the plain-Python reference, `pictures` draws boards. The
public API is `api`, re-exported here.
"""

from .api import MAX_COUNT_N, MAX_N, Count, Estimate, Givens, count, estimate, givens, solutions
from .construct import MAX_SOLVE_N, NoBoard, Solved, board, solve, verify

__all__ = ["MAX_COUNT_N", "MAX_N", "Count", "Estimate", "Givens", "count", "estimate", "givens", "solutions",
           "MAX_SOLVE_N", "NoBoard", "Solved", "board", "solve", "verify"]
