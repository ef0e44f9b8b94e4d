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

When every piece is distinct and the moves tie them together in ways no twist sum or
parity tells, the pieces' index holds many times the states (the TurnFour's 256 times,
Conway's M24 puzzle's 10^15 times). Such a puzzle's states are the elements of the group
its moves generate, and the census indexes exactly those (`engine.group_space`), ranked
by the stabiliser chain of `schreier`, whenever the pieces' index would hold GROUP_FACTOR
times the states or more.

With a checkpoint, the census also keeps every state's distance mod 3 in it (twice the
memory), so that the finished file is a table `walk` solves any state from in one pass.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from math import prod

from puzzlesearch.engine import figures, layers
from puzzlesearch.engine.group_space import group_index, group_space, group_state, point_moves
from puzzlesearch.engine.layers_common import (
    MAX_STATES,
    NOT_REACHED,
    check_checkpoint,
    depth,
    memory_needed,
    memory_needed_for,
    stored_census_answers,
)
from puzzlesearch.engine.memory import gib, refused_for_memory, require
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.params import number_text
from puzzlesearch.engine.paths import show as shown
from puzzlesearch.engine.space import GROUP, PieceSet, Space, pieces_index, pieces_space, pieces_state
from puzzlesearch.engine.store import ResultsStore, canonical_json, saving
from puzzlesearch.perm import group, schreier
from puzzlesearch.perm.layout import Layout, full_state, index_size, layout, orbit_move, orbit_state
from puzzlesearch.perm.rules import Rules, State, apply, inverse, state_text

STORE_PUZZLE = "perm census"
STORED_FARTHEST = 100  # farthest states kept in the store (more are computed again)
MAX_SHOW = 10_000  # farthest states a census lists at most
#: the census indexes the group's elements once the pieces' index holds this many times the
#: states (or more than one search indexes, the states not): an image costs a sift through
#: the chain there, k(k - 1)/2 dependent lookups for k levels, against a few table rows for
#: the pieces. Both ways on 2 threads (Xeon VM): twsearch's Pyraminx, 12 times, 121 s by
#: its group against 24 s by its pieces; its Skewb, 9 times, 8.5 s against 2.1 s; the
#: break-even is near 60
GROUP_FACTOR = 64


@dataclass(frozen=True)
class Census:
    """The whole state space from the solved puzzle, by breadth-first search, 2 bits a state.

    Attributes:
        puzzle: The puzzle's name.
        states: The states reachable from the solved puzzle.
        diameter: The largest distance: God's number in the puzzle's metric.
        histogram: The states at each distance: ``histogram[d]`` at distance d.
        farthest: Up to `show` states at the largest distance, the first by index, as
            text.
        farthest_count: How many states are at the largest distance.
        indexed: The states the bit array covers.
        bytes: The size of the bit array.
        directions: How each layer was found: "t" top-down, "b" bottom-up.
        workers: The threads that ran the search.
        seconds: The time the search took.
        source: "run", or "store" when the results store answered.
        resumed_at: The layer a checkpoint resumed this run at (None: from the start).
    """

    puzzle: str
    states: int
    diameter: int
    histogram: tuple[int, ...]
    farthest: tuple[str, ...]
    farthest_count: int
    indexed: int
    bytes: int
    directions: str
    workers: int
    seconds: float
    source: str
    resumed_at: int | None = None

    def _repr_svg_(self) -> str | None:
        """A notebook shows a census as its distance histogram (None without matplotlib)."""
        from puzzlesearch.perm import pictures

        return figures.notebook_svg(pictures.histogram_figure, self)


def check_show(show: int) -> None:
    if isinstance(show, bool) or not isinstance(show, int) or not 0 <= show <= MAX_SHOW:
        raise ValueError(f"--show must be between 0 and {MAX_SHOW:,}, got {show}")


def check_census(rules: Rules, lay: Layout, run: RunOptions) -> int:
    """Refuse (ValueError, one line with the memory it would need) a full search beyond the
    engine's index or the memory cap; else the states it indexes. From the sizes alone
    (and, for distinct pieces, the group's order: `group_chain`)."""
    if run.memory is not None and run.scheduler is None and _distinct(lay):
        # the count that chooses the index (group_chain) keeps to the cap as well: counted
        # under it first, a refusal for memory is the answer; another limit of the count
        # (a group it cannot count) leaves the choice to the pieces' index, as it does there
        try:
            group.count(rules, run.memory)
        except ValueError as e:
            if refused_for_memory(e):
                raise
    size = indexed(rules, lay)
    need = census_memory(rules, lay, _keeps_depths(run))
    if size > MAX_STATES:
        raise ValueError(f"full BFS of {rules.name} indexes {number_text(size)} states: it would need "
                         f"{gib(need)} (2 bits each), beyond the {MAX_STATES:,} states one search indexes")
    if run.scheduler is None:  # partitions on the cluster's workers, not here
        kind = "stabiliser chain tables" if group_chain(rules) is not None else "move tables"
        tables = f" and {kind}" if need > memory_needed_for(size, _keeps_depths(run)) else ""
        require(need, run.memory,
                f"full BFS of {rules.name} ({number_text(size)} states, 2 bits each{tables})")
    return size


def census_memory(rules: Rules, lay: Layout, depths: bool = False) -> int:
    """The bytes a census allocates: its bits (engine.layers_common.memory_needed_for) and,
    for a space the engine indexes, the move tables of its coordinates
    (engine.pieces_tables), planned without building them."""
    size = indexed(rules, lay)
    if size > MAX_STATES:  # refused by its size: the bits say how far beyond
        return memory_needed_for(size, depths)
    return memory_needed(space(rules, lay), depths)


def _keeps_depths(run: RunOptions) -> bool:
    """Whether a census keeps the distances mod 3: into a checkpoint on this machine (a
    cluster's checkpoint holds no bits)."""
    return run.checkpoint is not None and run.scheduler is None


def indexed(rules: Rules, lay: Layout) -> int:
    """The states the census indexes: the group's order when it indexes the group's
    elements (`group_chain`), else the pieces' index (`layout.index_size`)."""
    chain = group_chain(rules)
    return prod(len(o) for o in chain[1]) if chain is not None else index_size(lay)


@functools.lru_cache(maxsize=32)
def group_chain(rules: Rules) -> tuple | None:
    """The stabiliser chain (base, orbits, inverted rows; `engine.group_space`) of the group
    the moves generate on the points, when the census indexes its elements: every piece
    distinct, and the pieces' index GROUP_FACTOR times the states or more, or beyond what
    one search indexes (MAX_STATES) when the states are not. None otherwise, and for a
    group `group.count` cannot count (the pieces' index then refuses it by its size). The
    chain is grown to the proved order, from a fixed seed: the same chain, so the same
    indices, in every process (a checkpoint's, a cluster worker's)."""
    lay = layout(rules)
    if not _distinct(lay):
        return None
    try:
        order = group.group_order(rules)
    except ValueError:
        return None
    pieces = index_size(lay)
    if pieces < GROUP_FACTOR * order and not pieces > MAX_STATES >= order:
        return None
    sets, moves = _pieces(rules, lay)
    gens = list(dict.fromkeys(point_moves(sets, moves)))
    chain = schreier.Chain(gens)
    if chain.grow(order) != order:
        return None
    orbits = chain.points
    rows = [[[int(x) for x in chain.rows[chain.where[j, p]]] for p in orbit]
            for j, orbit in enumerate(orbits)]
    return [int(b) for b in chain.base[:chain.levels]], orbits, rows


def _distinct(lay: Layout) -> bool:
    """Whether every piece is distinct: each state is then one element of the group."""
    return all(len(counts) >= len(orbit) for counts, orbit in zip(lay.counts, lay.orbits, strict=True))


def _pieces(rules: Rules, lay: Layout) -> tuple[list[PieceSet], list]:
    """The orbits as the engine's sets of pieces, from the solved state, and the moves on them."""
    solved = rules.solved[0]
    sets = [PieceSet(len(orbit), k, tuple(solved[g] for g in orbit), s)
            for orbit, k, s in zip(lay.orbits, lay.twists, lay.twist_sum, strict=True)]
    moves = [[orbit_move(lay, m, o) for o in range(len(lay.orbits))] for m in rules.moves]
    return sets, moves


def space(rules: Rules, lay: Layout) -> Space:
    """The puzzle as the engine's space, one set an orbit, from the solved state: the
    group's elements (GROUP) when `group_chain` gives a chain, else the pieces' space."""
    sets, moves = _pieces(rules, lay)
    chain = group_chain(rules)
    if chain is not None:
        return group_space(rules.name, sets, moves, {"puzzle": "perm"}, chain)
    return pieces_space(rules.name, sets, moves, {"puzzle": "perm"}, "states")


def _index(sp: Space, parts: list) -> int:
    return group_index(sp, parts) if sp.kind == GROUP else pieces_index(sp, parts)


def state_of(rules: Rules, lay: Layout, sp: Space, index: int) -> str:
    """The state with this index, in the file's words."""
    parts = group_state(sp, index) if sp.kind == GROUP else pieces_state(sp, index)
    return state_text(rules, full_state(rules, lay, parts))


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
    # with a checkpoint the search runs (a finished file answers without a layer), so that
    # the file is the table `walk` reads, whatever the store holds
    if run.checkpoint is None and stored_census_answers(stored, show):
        hist = tuple(stored["histogram"])
        far = tuple(state_of(rules, lay, sp, i) for i in stored["farthest"][:show])
        return Census(rules.name, sum(hist), len(hist) - 1, hist, far, stored["farthest_count"], sp.size,
                      (sp.size + 3) // 4, stored["directions"], stored["workers"], time.perf_counter() - t0,
                      "store")
    found = layers.search(sp, run=run, show=max(show, STORED_FARTHEST), depths=_keeps_depths(run))
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


def undone_by_moves(rules: Rules) -> bool:
    """Whether every move's inverse is a move: then a state's distance from the solved
    puzzle (what a census finds) is also its distance to it, and neighbours' distances
    differ by at most one."""
    ks = rules.ks
    moves = {(m.perm, m.twist) for m in rules.moves}
    return all(((u := inverse(m, ks)).perm, u.twist) in moves for m in rules.moves)


@dataclass(frozen=True)
class Table:
    """The distances mod 3 of every state (engine.layers_common.depth) that a finished
    census left in its checkpoint, and its histogram."""

    space: Space
    depths: object  # numpy array of 2-bit values
    histogram: tuple[int, ...]
    file: str


def table(rules: Rules, lay: Layout, checkpoint: str) -> Table | None:
    """The table a finished census of this puzzle left in `checkpoint`; None when the file
    does not exist or is empty (no census was made there). ValueError (one line) for a file
    that is no finished table of this puzzle, or a puzzle whose moves are not all undone by
    moves (its census's distances are from the solved puzzle, not to it)."""
    sp = space(rules, lay)
    found = layers.read_table(sp, checkpoint)
    if found is None:
        return None
    if not undone_by_moves(rules):
        raise ValueError(f"{rules.name}: some move's inverse is not a move, so the census's distances "
                         "from the solved puzzle are not distances to it: solve without --checkpoint")
    return Table(sp, found[0], found[1], str(checkpoint))


def walk(rules: Rules, lay: Layout, start: State, tab: Table) -> tuple[str, ...] | None:
    """A shortest sequence of moves from `start` to the solved puzzle, down the table: from
    each state, the first move to a state whose distance is one less (mod 3; the other
    neighbours are as far or one farther), until the solved puzzle. None when the census
    never reached `start`. ValueError for a table that does not lead down (damaged)."""
    sp, depths = tab.space, tab.depths

    def index(state: State) -> int:
        return _index(sp, [orbit_state(lay, state, o) for o in range(len(lay.orbits))])

    try:
        d = depth(depths, index(start))
    except ValueError:
        if sp.kind != GROUP:
            raise
        return None  # no element of the group: never reached, as an index the census did not reach
    if d == NOT_REACHED:
        return None
    damaged = f"checkpoint {shown(tab.file)} does not hold this puzzle's distances"
    sequence: list[str] = []
    current = start
    while current != rules.solved:
        if len(sequence) >= len(tab.histogram):  # no state is farther than the diameter
            raise ValueError(damaged)
        below = (d - 1) % 3
        for m in rules.moves:
            after = apply(current, m, rules.ks)
            if depth(depths, index(after)) == below:
                sequence.append(m.name)
                current, d = after, below
                break
        else:
            raise ValueError(f"{damaged}: no move of {state_text(rules, current)} leads one nearer")
    return tuple(sequence)


__all__ = ["MAX_SHOW", "STORE_PUZZLE", "Census", "census", "census_memory", "check_census", "check_show",
           "group_chain", "indexed", "space", "state_of", "Table", "table", "undone_by_moves", "walk"]
