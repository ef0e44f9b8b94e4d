"""N-Queens: count all and unique solutions, list them lazily, complete given queens.

Counting builds half boards from one table of quarter placements and counts the pairs of
halves that fit (E. Kluev's method, the default from n = 17, with the unique count by
Burnside's lemma); or searches one start constellation of each symmetry class (the four
edge queens; the method of Preusser and Engelhardt's Q27 project); or with
`method="corner"` uses the corner/rotation method (Takaken, after Jeff Somers). The
counting kernels are compiled ahead of time where a C compiler is found. `estimate` says
what a count by half boards would take. Listing and completion use a bitboard
backtracker; `solve` builds one board for any n without search (the explicit
construction of Hoffman, Loessi and Moore). `queens.rules` is the plain-Python
reference the kernels are checked against.
"""

from .api import MAX_COUNT_N, MAX_N, Count, Estimate, Givens, count, estimate, givens, solutions
from .construct import MAX_SOLVE_N, NoBoard, Solved, board, solve, verify

__all__ = ["MAX_COUNT_N", "MAX_N", "Count", "Estimate", "Givens", "count", "estimate", "givens", "solutions",
           "MAX_SOLVE_N", "NoBoard", "Solved", "board", "solve", "verify"]
