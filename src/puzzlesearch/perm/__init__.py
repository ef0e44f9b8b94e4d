"""Permutation puzzles their users describe: how many states, God's number, optimal solutions.

A `Puzzle` is read from a file (TOML, twsearch and ksolve's .tws and .def, KPuzzle
.json) or one of the `examples`; `Puzzle.info` counts its states exactly
(Schreier–Sims), `Puzzle.god` searches every state for God's number, and
`Puzzle.solve` finds a shortest solution. sympy is loaded when a group is counted,
numba when a whole state space is searched.
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
