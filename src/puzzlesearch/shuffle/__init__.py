"""Block shuffles and pancake flips: fewest moves and whole state spaces.

A block shuffle lifts B consecutive cards of a deck of D and puts them on top; a pancake
flip reverses the top k pancakes of a stack. `solve` and `solve_pancakes` find the
fewest moves between two decks by bidirectional breadth-first search; `god` and
`pancake_god` search every deck from the sorted one, 2 bits a deck, for God's number and
the pancake numbers. `shortest_path` and `census` do the same for any puzzle whose moves
permute the positions of a deck (`PermPuzzle`). numba is loaded by the searches that
run kernels only, so that small solves never start the compiler.
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
