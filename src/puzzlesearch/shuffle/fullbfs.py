"""Everything reachable, layer by layer ("God's algorithm"), on the shared engine.

A permutation puzzle (block shuffles, pancakes) or burnt pancakes become a ranked space
(`engine.space`) that `engine.layers` searches (2 bits a state, all cores, a checkpoint
after every layer); this module turns its answer into a `Census` of decks and keeps it in
the results store, so that asking again is instant.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from puzzlesearch.engine import figures, layers
from puzzlesearch.engine import space as ranked
from puzzlesearch.engine.layers_common import check_checkpoint, stored_census_answers
from puzzlesearch.engine.options import RunOptions, checked
from puzzlesearch.engine.params import shown
from puzzlesearch.engine.space import Space
from puzzlesearch.engine.store import ResultsStore, canonical_json, saving
from puzzlesearch.shuffle.puzzle import MAX_SHOW, PermPuzzle, check_deck, check_show

STORE_PUZZLE = "census"
STORED_FARTHEST = 100  # farthest decks kept in the store (more are computed again)


@dataclass(frozen=True)
class Census:
    """The whole state space reachable from a start, by breadth-first search, 2 bits a state.

    Attributes:
        puzzle: The puzzle's name.
        start: The deck the search starts from.
        states: The decks reachable from the start.
        diameter: The largest distance from the start (for pancakes from the sorted
            stack: the pancake number).
        histogram: The decks at each distance: ``histogram[d]`` at distance d.
        farthest: Up to `show` decks at the largest distance, the first by index.
        farthest_count: How many decks are at the largest distance.
        indexed: The states the bit array covers (n!, n!/2 or 2^n n!).
        indexed_as: That number in words: "12!", "12!/2", "2^9 x 9!".
        bytes: The size of the bit array.
        directions: How each layer was found: "t" top-down (from the last layer), "b"
            bottom-up (from the states not yet seen).
        workers: The threads that ran the search.
        seconds: The time the search took.
        source: "run", or "store" when the results store answered.
        resumed_at: The layer a checkpoint resumed this run at (None: from the start).
    """

    puzzle: str
    start: tuple[int, ...]
    states: int
    diameter: int
    histogram: tuple[int, ...]
    farthest: tuple[tuple[int, ...], ...]
    farthest_count: int
    indexed: int
    indexed_as: str
    bytes: int
    directions: str
    workers: int
    seconds: float
    source: str
    resumed_at: int | None = None

    def _repr_svg_(self) -> str | None:
        """A notebook shows a census as its distance histogram (None without matplotlib)."""
        from puzzlesearch.shuffle import pictures

        # pancake stacks are named so by their puzzle ("pancakes n=9", "burnt pancakes n=5")
        unit = "stacks" if "pancakes" in self.puzzle else "decks"
        return figures.notebook_svg(pictures.histogram_figure, self, unit)


def perm_space(puzzle: PermPuzzle, start: Sequence[int]) -> Space:
    return ranked.perm_space(puzzle.name, puzzle.size, puzzle.moves, start,
                             {"puzzle": puzzle.name, "moves": [list(m) for m in puzzle.moves]}, puzzle.unit)


def burnt_space(n: int, start: Sequence[int] | None = None) -> Space:
    return ranked.signed_space(f"burnt pancakes n={n}", n, {"puzzle": f"burnt pancakes n={n}"}, start)


def index_size(puzzle: PermPuzzle) -> tuple[int, bool]:
    """States the bit array must cover, and whether it covers one parity only."""
    space = perm_space(puzzle, tuple(range(1, puzzle.size + 1)))
    return space.size, space.compressed


def _indexed_as(space: Space) -> str:
    if space.kind == ranked.SIGNED:
        return f"2^{space.n} x {space.n}!"
    return f"{space.n}!" + ("/2" if space.compressed else "")


def census(puzzle: PermPuzzle, start: Sequence[int] | None = None, show: int = 10, *,
           run: RunOptions = RunOptions()) -> Census:  # noqa: B008 (frozen)
    """Breadth-first search of every deck any permutation puzzle reaches from a start.

    Args:
        puzzle: The puzzle.
        start: The deck to start from (None: the sorted deck).
        show: How many of the farthest decks to return (the first by index).
        run: As for `god`: the memory cap, threads, checkpoint and results store.

    Returns:
        The size of each layer, the diameter and the farthest decks.
    """
    if not isinstance(puzzle, PermPuzzle):
        raise TypeError(f"puzzle must be a PermPuzzle, got {shown(puzzle)}")
    start = tuple(range(1, puzzle.size + 1)) if start is None else check_deck(start, puzzle.size, "start")
    check_show(show)
    checked(run)
    return search(perm_space(puzzle, start), start, show, run=run)


def burnt_census(n: int, show: int = 10, *, run: RunOptions = RunOptions()) -> Census:  # noqa: B008
    """Full BFS of n burnt pancakes from the sorted stack, burnt sides down; the diameter is
    the burnt pancake number. A burnt side up is shown as a negative pancake."""
    return search(burnt_space(n), tuple(range(1, n + 1)), show, run=run)


def search(space: Space, start: tuple[int, ...], show: int = 10, *,
           run: RunOptions = RunOptions()) -> Census:  # noqa: B008 (frozen)
    """The census of a space: from the results store when it has it (with enough farthest
    decks), else by `engine.layers.search` (run.workers threads, run.memory, run.checkpoint,
    run.progress), then kept in the store. A store that cannot be written costs the answer
    nothing (engine.store.NotSaved carries it)."""
    check_show(show)
    if run.checkpoint is not None:  # another command's checkpoint is refused even when the store answers
        check_checkpoint(run.checkpoint)
    t0 = time.perf_counter()
    key = canonical_json({**space.key, "start": list(start)})
    with ResultsStore(run.store) as db:
        stored = db.get(STORE_PUZZLE, key)
    if stored_census_answers(stored, show):
        far = tuple(tuple(d) for d in stored["farthest"][:show])
        hist = tuple(stored["histogram"])
        return Census(space.name, start, sum(hist), len(hist) - 1, hist, far, stored["farthest_count"],
                      space.size, _indexed_as(space), (space.size + 3) // 4, stored["directions"],
                      stored["workers"], time.perf_counter() - t0, "store")
    found = layers.search(space, run=run, show=max(show, STORED_FARTHEST))
    decks = [ranked.deck_of(space, i) for i in found.farthest]
    result = Census(space.name, start, found.states, found.diameter, found.histogram, tuple(decks[:show]),
                    found.farthest_count, space.size, _indexed_as(space), found.bytes, found.directions,
                    found.workers, time.perf_counter() - t0, "run", found.resumed_at)
    with saving(result, f"the census of {space.name}"), ResultsStore(run.store) as db:
        db.put(STORE_PUZZLE, key, {"histogram": list(found.histogram), "farthest": [list(d) for d in decks],
                                   "farthest_count": found.farthest_count, "directions": found.directions,
                                   "workers": found.workers, "seconds": found.seconds},
               "breadth-first layers", found.seconds)
    return result


__all__ = ["MAX_SHOW", "Census", "burnt_census", "burnt_space", "census", "index_size", "perm_space",
           "search"]
