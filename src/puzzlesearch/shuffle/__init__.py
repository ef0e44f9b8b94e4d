"""Block shuffles and pancake flips: fewest moves and whole state spaces.

The public API is `puzzlesearch.shuffle.api`, re-exported here (see its docstring for
examples). Numba is loaded by the searches that run kernels only, so that small solves
and the command line's refusals never start the JIT.
"""

from __future__ import annotations

from puzzlesearch.shuffle.api import (
    Census,
    Path,
    PermPuzzle,
    RunOptions,
    block_shuffle_puzzle,
    block_size,
    census,
    check_plot,
    god,
    pancake_god,
    pancake_puzzle,
    plot,
    shortest_path,
    solve,
    solve_pancakes,
)

__all__ = [
    "Census", "Path", "PermPuzzle", "RunOptions", "block_shuffle_puzzle", "block_size", "census",
    "check_plot", "god", "pancake_god", "pancake_puzzle", "plot", "shortest_path", "solve", "solve_pancakes",
]
