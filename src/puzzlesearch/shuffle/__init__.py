"""Block shuffles and pancake flips: fewest moves and whole state spaces.

    >>> from puzzlesearch import shuffle
    >>> shuffle.solve(5).moves            # reverse 10 cards, moving 5 at a time
    12
    >>> shuffle.pancake_god(9).diameter   # the pancake number p(9)
    10
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from puzzlesearch.shuffle.bidir import Path, shortest_path
from puzzlesearch.shuffle.puzzle import PermPuzzle, block_shuffle_puzzle, check_deck, pancake_puzzle

if TYPE_CHECKING:
    from puzzlesearch.shuffle.fullbfs import Census


def __getattr__(name: str):
    # the full BFS needs numba; importing it only when asked keeps small solves JIT-free
    if name in ("Census", "census"):
        from puzzlesearch.shuffle import fullbfs

        return getattr(fullbfs, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "Census", "Path", "PermPuzzle", "block_shuffle_puzzle", "census", "god", "pancake_god",
    "pancake_puzzle", "shortest_path", "solve", "solve_pancakes",
]


def solve(n: int | None = None, deck: int | None = None, block: int | None = None,
          start: Sequence[int] | None = None, goal: Sequence[int] | None = None,
          count_paths: bool = False, memory: int | None = None) -> Path:
    """Fewest block moves from start (default sorted) to goal (default reversed).

    Either n (the book's case: 2n cards, blocks of n) or deck and block.
    """
    puzzle = block_shuffle_puzzle(2 * n, n) if n is not None else block_shuffle_puzzle(deck, block)
    size = puzzle.size
    start = tuple(range(1, size + 1)) if start is None else check_deck(start, size, "start")
    goal = tuple(range(size, 0, -1)) if goal is None else check_deck(goal, size, "goal")
    return shortest_path(puzzle, start, goal, count_paths, memory)


def solve_pancakes(stack: Sequence[int], count_paths: bool = False, memory: int | None = None) -> Path:
    """Fewest flips sorting the stack (listed top first; sorted = 1 on top)."""
    stack = check_deck(stack, len(stack), "stack")
    return shortest_path(pancake_puzzle(len(stack)), stack, tuple(sorted(stack)), count_paths, memory)


def god(n: int | None = None, deck: int | None = None, block: int | None = None, show: int = 10,
        memory: int | None = None) -> Census:
    """Full BFS of the block shuffle from the sorted deck."""
    from puzzlesearch.shuffle.fullbfs import census

    puzzle = block_shuffle_puzzle(2 * n, n) if n is not None else block_shuffle_puzzle(deck, block)
    return census(puzzle, show=show, memory=memory)


def pancake_god(n: int, show: int = 10, memory: int | None = None) -> Census:
    """Full BFS of n pancakes from the sorted stack; the diameter is the pancake number p(n)."""
    from puzzlesearch.shuffle.fullbfs import census

    return census(pancake_puzzle(n), show=show, memory=memory)
