"""Block shuffles and pancake flips: the public API (re-exported by `puzzlesearch.shuffle`).

The book's puzzle is `solve(n)` (2n cards, blocks of n, fewest moves that reverse the
deck); any deck and block size, start and goal also work. `god` explores everything
reachable from the sorted deck. Pancakes (prefix reversals) use the same two searches:

    >>> from puzzlesearch import shuffle
    >>> shuffle.solve(5).moves            # reverse 10 cards, moving 5 at a time
    12
    >>> shuffle.solve(5).sequence
    (4, 2, 1, 5, 3, 5, 4, 2, 2, 1, 2, 2)
    >>> shuffle.solve(deck=9, block=4, count_paths=True).paths
    1
    >>> shuffle.solve_pancakes([3, 1, 2, 5, 4]).sequence
    (4, 5, 4, 2)
    >>> shuffle.pancake_god(9).diameter   # the pancake number p(9)
    10
    >>> shuffle.god(3).states             # every order of 6 cards is reachable
    720

Limits are checked from the parameters alone, before anything is built or allocated,
and refused in the words the command line prints:

    >>> shuffle.solve(9)
    Traceback (most recent call last):
    ValueError: solve handles decks of at most 16 cards, got 18
    >>> shuffle.god(7, run=shuffle.RunOptions(memory=2**30))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: full BFS of block shuffle D=14 B=7 (87,178,291,200 decks, 2 bits each) needs 20.3 GiB, ...

Any permutation puzzle: a move is a position permutation, new[i] = old[perm[i]]:

    >>> from puzzlesearch.shuffle import PermPuzzle, shortest_path, census
    >>> p = PermPuzzle("rotate or swap", 6, ((1, 2, 3, 4, 5, 0), (1, 0, 2, 3, 4, 5)), (1, 2))
    >>> shortest_path(p, (1, 2, 3, 4, 5, 6), (6, 5, 4, 3, 2, 1)).moves
    15
    >>> census(p).diameter                # all 720 orders
    18

The full BFS (`census`) loads numba when it runs; the shortest paths of small puzzles
never do (their layers are handled by numpy). `plot(census, FILE)` draws a census's
distance histogram (pictures.py), and a `Census` draws itself so in a notebook.
"""

from __future__ import annotations

from collections.abc import Sequence

from puzzlesearch.engine import figures
from puzzlesearch.engine.figures import check_plot
from puzzlesearch.engine.options import RunOptions, checked
from puzzlesearch.engine.params import file_name, flag, shown, text, wholes
from puzzlesearch.shuffle import pictures
from puzzlesearch.shuffle.bidir import Path, shortest_path
from puzzlesearch.shuffle.fullbfs import Census, burnt_census, census
from puzzlesearch.shuffle.puzzle import (
    PermPuzzle,
    block_moves_even,
    block_name,
    block_shuffle_puzzle,
    check_block,
    check_census,
    check_deck,
    check_n,
    check_packed,
    check_show,
    pancake_name,
    pancake_puzzle,
)


def block_size(n: int | None = None, deck: int | None = None, block: int | None = None) -> tuple[int, int]:
    """The deck and block sizes of a block shuffle, checked.

    Give n, or both deck and block.

    Args:
        n: The book's case: 2n cards, blocks of n.
        deck: The number of cards, at least 2.
        block: The cards a move lifts, 1 <= block < deck.

    Returns:
        (deck, block).

    Raises:
        ValueError: Naming what is wrong, in the command line's words.
    """
    if n is not None and (deck is not None or block is not None):
        raise ValueError("give either -n or --deck/--block, not both")
    if n is None and (deck is None or block is None):
        raise ValueError("give -n N (2N cards, blocks of N) or both --deck D and --block B")
    if n is not None:
        n = check_n(n)
        deck, block = 2 * n, n
    return check_block(deck, block)


def solve(n: int | None = None, deck: int | None = None, block: int | None = None,
          start: Sequence[int] | None = None, goal: Sequence[int] | None = None,
          count_paths: bool = False, *, run: RunOptions = RunOptions()) -> Path:  # noqa: B008 (frozen)
    """Fewest block moves from start to goal: by default, that reverse the deck.

    Give n, or both deck and block; at most 16 cards.

    Args:
        n: The book's case: 2n cards, blocks of n.
        deck: The number of cards.
        block: The cards a move lifts.
        start: The deck to start from, top card first (None: sorted, 1 on top).
        goal: The deck to reach (None: the sorted deck reversed).
        count_paths: Also count the shortest solutions.
        run: ``run.memory`` caps the memory (a layer that would not fit is refused
            before it is allocated); ``run.progress`` draws progress on a terminal.

    Returns:
        The fewest moves and one shortest solution.
    """
    deck, block = block_size(n, deck, block)
    check_packed(deck)
    checked(run)
    start = tuple(range(1, deck + 1)) if start is None else check_deck(start, deck, "start")
    goal = tuple(range(deck, 0, -1)) if goal is None else check_deck(goal, deck, "goal")
    return shortest_path(block_shuffle_puzzle(deck, block), start, goal, count_paths, run=run)


def solve_pancakes(stack: Sequence[int], count_paths: bool = False, *,
                   run: RunOptions = RunOptions()) -> Path:  # noqa: B008 (frozen)
    """Fewest flips that sort a stack of pancakes (1 on top).

    Args:
        stack: The pancakes, top first: 1..n in any order, n at most 16.
        count_paths: Also count the shortest solutions.
        run: The memory cap and progress, as for `solve`.

    Returns:
        The fewest flips and one shortest solution: the k of each flip.
    """
    stack = wholes(stack, "stack")
    if len(stack) == 0:
        raise ValueError("a stack needs at least one pancake")
    stack = check_deck(stack, len(stack), "stack")
    count_paths, run = flag(count_paths, "count_paths"), checked(run)
    check_packed(len(stack), "stacks", "pancakes")
    return shortest_path(pancake_puzzle(len(stack)), stack, tuple(sorted(stack)), count_paths, run=run)


def god(n: int | None = None, deck: int | None = None, block: int | None = None, show: int = 10, *,
        run: RunOptions = RunOptions()) -> Census:  # noqa: B008 (frozen)
    """Every deck a block shuffle reaches from the sorted deck, by breadth-first search.

    Its bit array (2 bits for each of D! decks, D!/2 when B is even) is checked against
    the memory cap before anything else. The answer is kept in the results store.

    Args:
        n: The book's case: 2n cards, blocks of n.
        deck: The number of cards (with `block`, instead of n).
        block: The cards a move lifts.
        show: How many of the farthest decks to return (the first by index).
        run: ``run.memory`` (default: a share of the available memory),
            ``run.workers`` threads (default: all cores), ``run.checkpoint`` (written
            after every layer and resumed from), ``run.store``.

    Returns:
        The size of each layer, the diameter (God's number) and the farthest decks.
    """
    deck, block = block_size(n, deck, block)
    check_show(show)
    checked(run)
    check_census(block_name(deck, block), deck, block_moves_even(block), run)
    return census(block_shuffle_puzzle(deck, block), show=show, run=run)


def pancake_god(n: int, show: int = 10, *, burnt: bool = False,
                run: RunOptions = RunOptions()) -> Census:  # noqa: B008 (frozen)
    """Every stack of n pancakes, by breadth-first search from the sorted stack.

    The diameter is the pancake number p(n).

    Args:
        n: The number of pancakes.
        show: How many of the farthest stacks to return (the first by index).
        burnt: Each pancake has a burnt side, which must end down, and a flip turns the
            pancakes it moves over (2^n n! stacks; the diameter is the burnt pancake
            number). A burnt side up is shown as a negative pancake.
        run: The memory cap, threads, checkpoint and results store, as for `god`.

    Returns:
        The size of each layer, the diameter and the farthest stacks.
    """
    n, burnt, run = check_n(n), flag(burnt, "burnt"), checked(run)
    check_show(show)
    name = f"burnt pancakes n={n}" if burnt else pancake_name(n)
    check_census(name, n, False, run, "stacks", "pancakes", signed=burnt)  # flip 2 is odd
    if burnt:
        return burnt_census(n, show=show, run=run)
    return census(pancake_puzzle(n), show=show, run=run)


def plot(result: Census, filename: str, unit: str = "decks") -> None:
    """Draw a census's distance histogram (log scale) into an image file.

    Check the file first with `check_plot`.

    Args:
        result: The census, from `god`, `pancake_god` or `census`.
        filename: The image file, in the format its suffix names (.png, .svg, ...).
        unit: What the states are called on the axis ("decks", "stacks").

    Raises:
        OSError: The file cannot be written.
        ValueError: The suffix names no image format.
    """
    if not isinstance(result, Census):
        raise TypeError(f"result must be a Census, got {shown(result)}")
    figures.save(pictures.histogram_figure(result, text(unit, "unit")), file_name(filename, "filename"))


__all__ = [
    "Census", "Path", "PermPuzzle", "RunOptions", "block_shuffle_puzzle", "block_size", "census",
    "check_plot", "god", "pancake_god", "pancake_puzzle", "plot", "shortest_path", "solve", "solve_pancakes",
]
