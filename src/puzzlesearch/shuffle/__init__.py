"""Block shuffles and pancake flips: fewest moves and whole state spaces.

The public API is `puzzlesearch.shuffle.api`, re-exported here (see its docstring for
examples). `Census` and `census` load numba on first use only, so that small solves and
the command line's refusals never start the JIT.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from puzzlesearch.shuffle import api
from puzzlesearch.shuffle.api import (
    Path,
    PermPuzzle,
    RunOptions,
    block_shuffle_puzzle,
    block_size,
    check_plot,
    god,
    pancake_god,
    pancake_puzzle,
    plot,
    shortest_path,
    solve,
    solve_pancakes,
)

if TYPE_CHECKING:
    from puzzlesearch.shuffle.fullbfs import Census, census


def __getattr__(name: str):
    if name in api.LAZY:
        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Census", "Path", "PermPuzzle", "RunOptions", "block_shuffle_puzzle", "block_size", "census",
    "check_plot", "god", "pancake_god", "pancake_puzzle", "plot", "shortest_path", "solve", "solve_pancakes",
]
