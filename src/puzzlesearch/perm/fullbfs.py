"""Every state of a puzzle, layer by layer ("God's algorithm"), on the shared engine.

The puzzle becomes a ranked space of pieces (`engine.space.pieces_space`): one set of
pieces for each orbit (`layout`), the positions no move touches left out, the last twist
of an orbit left out when the moves keep its twist sum. `engine.layers` searches it with
2 bits a state on all cores (top-down or bottom-up per layer, a checkpoint after every
layer, a Dask cluster with ``run.scheduler``); this module turns its answer into a
`Census` of states written in the file's words and keeps it in the results store, so that
asking again is instant. One orbit of distinct pieces without twists (a deck of cards, a
stack of pancakes) is a permutation space, searched exactly as `shuffle god` and
`pancake god` search theirs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from puzzlesearch.engine import figures, layers
from puzzlesearch.engine.layers_common import (
    MAX_STATES,
    check_checkpoint,
    memory_needed_for,
    stored_census_answers,
)
from puzzlesearch.engine.memory import gib, require
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.space import PieceSet, Space, pieces_space, pieces_state
from puzzlesearch.engine.store import ResultsStore, canonical_json, saving
from puzzlesearch.perm.layout import Layout, full_state, index_size, layout, orbit_move
from puzzlesearch.perm.rules import Rules, state_text

STORE_PUZZLE = "perm census"
STORED_FARTHEST = 100  # farthest states kept in the store (more are computed again)
MAX_SHOW = 10_000  # farthest states a census lists at most


@dataclass(frozen=True)
class Census:
    """The whole state space from the solved puzzle: histogram[d] = states at distance d."""

    puzzle: str
    states: int  # states reachable from the solved puzzle
    diameter: int  # the largest distance: God's number in the puzzle's metric
    histogram: tuple[int, ...]
    farthest: tuple[str, ...]  # up to `show` states at the largest distance, by index, as text
    farthest_count: int
    indexed: int  # states the bit array covers
    bytes: int
    directions: str  # per layer: 't' top-down, 'b' bottom-up
    workers: int
    seconds: float
    source: str  # "run", or "store" when the results store answered
    resumed_at: int | None = None  # the layer a checkpoint resumed this run at

    def _repr_svg_(self) -> str | None:
        """A notebook shows a census as its distance histogram (None without matplotlib)."""
        from puzzlesearch.perm import pictures

        return figures.notebook_svg(pictures.histogram_figure, self)


def check_show(show: int) -> None:
    if isinstance(show, bool) or not isinstance(show, int) or not 0 <= show <= MAX_SHOW:
        raise ValueError(f"--show must be between 0 and {MAX_SHOW:,}, got {show}")


def check_census(rules: Rules, lay: Layout, run: RunOptions) -> int:
    """Refuse (ValueError, one line with the memory it would need) a full search beyond the
    engine's index or the memory cap; else the states it indexes. From the sizes alone."""
    size = index_size(lay)
    need = memory_needed_for(size)
    if size > MAX_STATES:
        raise ValueError(f"full BFS of {rules.name} indexes {size:,} states: it would need {gib(need)} "
                         f"(2 bits each), beyond the {MAX_STATES:,} states one search indexes")
    if run.scheduler is None:  # partitions on the cluster's workers, not here
        require(need, run.memory, f"full BFS of {rules.name} ({size:,} states, 2 bits each)")
    return size


def space(rules: Rules, lay: Layout) -> Space:
    """The puzzle as the engine's space of pieces, one set an orbit, from the solved state."""
    solved = rules.solved[0]
    sets = [PieceSet(len(orbit), k, tuple(solved[g] for g in orbit), s)
            for orbit, k, s in zip(lay.orbits, lay.twists, lay.twist_sum, strict=True)]
    moves = [[orbit_move(lay, m, o) for o in range(len(lay.orbits))] for m in rules.moves]
    return pieces_space(rules.name, sets, moves, {"puzzle": "perm"}, "states")


def state_of(rules: Rules, lay: Layout, sp: Space, index: int) -> str:
    """The state with this index, in the file's words."""
    return state_text(rules, full_state(rules, lay, pieces_state(sp, index)))


def census(rules: Rules, show: int = 10, *, run: RunOptions = RunOptions()) -> Census:  # noqa: B008 (frozen)
    """Full BFS from the solved puzzle: histogram, diameter, the first `show` farthest
    states (by index, at most MAX_SHOW). From the results store when it has it (with enough
    farthest states), else by `engine.layers.search` (run.workers threads, run.memory,
    run.checkpoint, run.progress, run.scheduler), then kept in the store. A store that
    cannot be written costs the answer nothing (engine.store.NotSaved carries it)."""
    check_show(show)
    if run.checkpoint is not None:  # another command's checkpoint is refused even when the store answers
        check_checkpoint(run.checkpoint)
    lay = layout(rules)
    check_census(rules, lay, run)
    t0 = time.perf_counter()
    sp = space(rules, lay)
    key = canonical_json(sp.key)
    with ResultsStore(run.store) as db:
        stored = db.get(STORE_PUZZLE, key)
    if stored_census_answers(stored, show):
        hist = tuple(stored["histogram"])
        far = tuple(state_of(rules, lay, sp, i) for i in stored["farthest"][:show])
        return Census(rules.name, sum(hist), len(hist) - 1, hist, far, stored["farthest_count"], sp.size,
                      (sp.size + 3) // 4, stored["directions"], stored["workers"], time.perf_counter() - t0,
                      "store")
    found = layers.search(sp, run=run, show=max(show, STORED_FARTHEST))
    far = tuple(state_of(rules, lay, sp, i) for i in found.farthest[:show])
    result = Census(rules.name, found.states, found.diameter, found.histogram, far, found.farthest_count,
                    sp.size, found.bytes, found.directions, found.workers, time.perf_counter() - t0, "run",
                    found.resumed_at)
    with saving(result, f"the census of {rules.name}"), ResultsStore(run.store) as db:
        db.put(STORE_PUZZLE, key, {"histogram": list(found.histogram), "farthest": list(found.farthest),
                                   "farthest_count": found.farthest_count, "directions": found.directions,
                                   "workers": found.workers, "seconds": found.seconds},
               "breadth-first layers", found.seconds)
    return result


__all__ = ["MAX_SHOW", "STORE_PUZZLE", "Census", "census", "check_census", "check_show", "space", "state_of"]
