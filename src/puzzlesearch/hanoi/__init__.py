"""Tower of Hanoi: optimal moves for any number of pegs, from any position.

Three pegs: the closed-form moves, the position after any move, the largest-disc rule
between arbitrary positions. More pegs: Frame-Stewart numbers and sequences, checked by
breadth-first search over all positions.
"""

from .api import (
    Distance,
    Solution,
    Verification,
    count,
    counts,
    distance,
    moves,
    moves_array,
    path,
    plan,
    position_after,
    solve,
    verify,
)

__all__ = [
    "Distance",
    "Solution",
    "Verification",
    "count",
    "counts",
    "distance",
    "moves",
    "moves_array",
    "path",
    "plan",
    "position_after",
    "solve",
    "verify",
]
