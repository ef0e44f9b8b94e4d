"""Permutation puzzles their users describe: how many states, God's number, optimal solutions.

The public API is `puzzlesearch.perm.api`, re-exported here (see its docstring for
examples); the file format is described in `puzzlesearch.perm.puzzlefile`. sympy is
loaded when a group is counted, numba when a whole state space is searched.
"""

from __future__ import annotations

from puzzlesearch.perm.api import (
    MAX_SHOW,
    Census,
    Example,
    Info,
    Puzzle,
    RunOptions,
    Solution,
    check_plot,
    examples,
    find,
    plot,
)

__all__ = ["MAX_SHOW", "Census", "Example", "Info", "Puzzle", "RunOptions", "Solution", "check_plot",
           "examples", "find", "plot"]
