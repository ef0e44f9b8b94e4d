"""Fewest moves between two decks by bidirectional breadth-first search.

The decks are permutations and a move multiplies by a fixed permutation on the right,
so the search may start from the sorted deck and look for t = start^-1 . goal; the
decks at distance b *before* t are then t . w^-1 for the words w at distance b *after*
the identity. So only the forward side is searched (by layers, each a sorted array of
packed decks, see `packed`), and the backward layer of the same depth is that layer
inverted and multiplied by t: the inverse moves of the directed graph come for free.
Lengths are tested in order: L = 2a asks whether layer a meets backward layer a,
L = 2a + 1 whether the images of layer a meet it (a shortest path's decks have exact
distances i and L - i, so checking the last layers is enough). The images of a layer
are made, sorted and checked a chunk at a time and the search stops at the first
meeting, so the largest layer, one step beyond the middle, is usually never finished,
and is not even kept on the way when it would take over a quarter of the memory.
Memory is the forward ball of radius about L/2 plus one backward layer; sizes are
checked against the memory cap (engine.memory) before each allocation. The first layers
are small and go through numpy (`words`); the numba kernels (`packed`) take over, and the
JIT starts, only when a layer outgrows them. Each big step (a chunk, a sort of a whole
layer, an inversion) runs through engine.interrupt, so Ctrl-C is seen at once, and each
big layer shows a progress bar of the decks expanded (engine.progress.Meter).

A shortest move sequence is read back through the stored layers; the number of
shortest sequences (optional) by summing path counts layer by layer.
(Pohl 1971 for bidirectional search; Korf's sorted-layer BFS for the representation.)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from puzzlesearch.engine import interrupt
from puzzlesearch.engine.memory import cap, require
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.progress import Meter
from puzzlesearch.shuffle import words
from puzzlesearch.shuffle.puzzle import PermPuzzle, check_packed, parity

CHUNK = 1 << 23  # images made, sorted and checked at a time
SMALL = 1 << 16  # up to this many images, numpy (words.py) instead of the kernels (packed.py)


def _kernels():
    """The numba kernels, imported only when a layer outgrows numpy (starting the JIT costs ~0.5 s)."""
    from puzzlesearch.shuffle import packed

    return packed


@dataclass(frozen=True)
class Path:
    """A shortest solution: `moves` = its length (-1 if unreachable), `sequence` = the k of each move."""

    puzzle: str
    start: tuple[int, ...]
    goal: tuple[int, ...]
    moves: int
    sequence: tuple[int, ...]
    paths: int | None  # number of shortest sequences, when asked for
    layers: tuple[int, ...] = field(default=())  # decks at distance 0, 1, ... (same both ways)
    states: int = 0  # decks stored by the search
    seconds: float = 0.0


def _backward(layer: np.ndarray, t: np.uint64, size: int) -> np.ndarray:
    """The backward layer t . w^-1 (w in layer), sorted."""
    if len(layer) <= SMALL:
        return np.sort(words.inverted(layer, t, size))
    out = np.empty(len(layer), dtype=np.uint64)
    interrupt.call(_inverted_sorted, _kernels(), layer, t, size, out)
    return out


def _inverted_sorted(packed, layer: np.ndarray, t: np.uint64, size: int, out: np.ndarray) -> None:
    packed.then_inverse_all(layer, t, size, out)
    out.sort()


def _common(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The decks in both sorted arrays (a merge kernel once they are big: no index arrays)."""
    if len(a) <= SMALL:
        return a[words.members(a, b)]
    hits = np.empty(min(len(a), len(b)), dtype=np.uint64)
    return hits[: interrupt.call(_kernels().common, a, len(a), b, hits)].copy()


def _grow_small(layers: list[np.ndarray], back: np.ndarray,
                moves: tuple) -> tuple[np.ndarray | None, np.ndarray]:
    """`_grow` for a small last layer, with numpy."""
    cand = words.unique(np.sort(words.images(layers[-1], moves)))
    hit = words.members(cand, back)
    if hit.any():
        return None, cand[hit]
    for layer in layers:
        cand = cand[~words.members(cand, layer)]
    return cand, np.empty(0, dtype=np.uint64)


def _chunk(packed, frontier: np.ndarray, lo: int, hi: int, moves: tuple, back: np.ndarray, buf: np.ndarray,
           hits: np.ndarray, layers: list[np.ndarray] | None, out: np.ndarray, pos: int) -> tuple[int, int]:
    """One chunk of `_grow`: the images of frontier[lo:hi], sorted and without repeats in
    buf, checked against `back` (the meetings into hits). Unless they meet, or `layers`
    is None, the new ones (in no stored layer) go to out[pos:]. (new decks kept, meetings)."""
    n = packed.expand(frontier, lo, hi, *moves, buf)
    cand = buf[:n]
    cand.sort()
    n = packed.unique_sorted(cand, n)
    c = packed.common(cand, n, back, hits)
    if c or layers is None:
        return 0, c
    for layer in reversed(layers):
        n = packed.remove_known(cand, n, layer)
    out[pos : pos + n] = cand[:n]
    return n, 0


def _merged(packed, new: np.ndarray) -> int:
    """Sort the concatenated sorted chunks (timsort merges their runs), drop repeats; the length."""
    new.sort(kind="stable")
    return packed.unique_sorted(new, len(new))


def _grow(layers: list[np.ndarray], back: np.ndarray, moves: tuple, budget: int, stored: int,
          every_meeting: bool, meter: Meter | None = None,
          keep: bool | None = None) -> tuple[np.ndarray | None, np.ndarray]:
    """Expand the last layer: (the next layer, or None once it meets `back`; the meeting decks).

    The images are made, sorted and checked a chunk at a time, and the search stops at
    the first meeting unless `every_meeting` (for counting paths). They are kept (`keep`)
    as they go when the next layer would take at most a quarter of the budget; a bigger
    layer is only checked first, since it is often the last, and made in a second pass
    if it does not meet. `meter` is told how many decks of the last layer are expanded.
    """
    frontier = layers[-1]
    m = moves[0].shape[0]
    if len(frontier) * m <= SMALL:
        return _grow_small(layers, back, moves)
    packed = _kernels()
    step = max(1, CHUNK // m)
    bound = len(frontier) * m
    chunk = min(len(frontier), step) * m
    fits = (stored + bound + 2 * chunk) * 8 <= budget
    build = fits and (bound * 8 * 4 <= budget if keep is None else keep)
    require((stored + 2 * chunk) * 8, budget, f"expanding layer {len(layers) - 1}")
    out = np.empty(bound if build else 0, dtype=np.uint64)
    buf = np.empty(chunk, dtype=np.uint64)
    hits = np.empty(chunk, dtype=np.uint64)
    met = []
    pos = 0
    if meter is not None:
        meter.update(0, note="second pass: keeping the new ones" if keep else "")
    for lo in range(0, len(frontier), step):
        hi = min(len(frontier), lo + step)
        added, c = interrupt.call(_chunk, packed, frontier, lo, hi, moves, back, buf, hits,
                                  layers if build and not met else None, out, pos)
        pos += added
        if meter is not None:
            meter.update(hi)
        if c:
            met.append(hits[:c].copy())
            if not every_meeting:
                break
    if met:
        meet = np.sort(np.concatenate(met))
        return None, meet[: packed.unique_sorted(meet, len(meet))]
    if not build:
        require((stored + bound + 2 * chunk) * 8, budget,
                f"layer {len(layers)} (up to {bound:,} decks, {len(frontier):,} x {m} moves)")
        return _grow(layers, back, moves, budget, stored, every_meeting, meter, keep=True)
    if meter is not None:
        meter.update(len(frontier), note=f"sorting {pos:,} new {meter.unit}")
    k = interrupt.call(_merged, packed, out[:pos])
    return (out[:k].copy() if k < 0.75 * bound else out[:k]), np.empty(0, dtype=np.uint64)


def _walk_forward(x: int, layers: list[np.ndarray], inverse: tuple) -> list[int]:
    """Moves from the start to x, x one move beyond the last of `layers`."""
    out = []
    for layer in reversed(layers):
        for j in range(len(inverse[3])):
            y = words.apply_one(x, inverse, j)
            if words.members(np.array([y], dtype=np.uint64), layer)[0]:
                out.append(j)
                x = y
                break
        else:  # pragma: no cover - would mean the layers are inconsistent
            raise AssertionError("broken layer chain")
    return out[::-1]


def _walk_backward(x: int, layers: list[np.ndarray], t: np.uint64, size: int, moves: tuple) -> list[int]:
    """Moves from x to t, x one move before backward layer len(layers)-1: y there iff y^-1 t in layers."""
    out = []
    for layer in reversed(layers):
        for j in range(len(moves[3])):
            y = words.apply_one(x, moves, j)
            if words.members(np.array([words.inverse_then(y, t, size)], dtype=np.uint64), layer)[0]:
                out.append(j)
                x = y
                break
        else:  # pragma: no cover
            raise AssertionError("broken backward chain")
    return out


def _layer_counts(layers: list[np.ndarray], inverse: tuple) -> list[np.ndarray]:
    """Shortest-path counts from the start for every deck of every layer."""
    packed = _kernels()
    counts = [np.ones(1, dtype=np.uint64)]
    for i in range(1, len(layers)):
        c = np.empty(len(layers[i]), dtype=np.uint64)
        big = interrupt.call(packed.count_paths, layers[i], layers[i - 1], counts[-1], *inverse, c)
        if big >= 2.0**63:
            raise OverflowError("the number of shortest paths does not fit in 64 bits")
        counts.append(c)
    return counts


def _meter(puzzle: PermPuzzle, d: int, frontier: np.ndarray, moves: tuple, run: RunOptions) -> Meter:
    """The progress bar of making layer d: the decks of layer d - 1 expanded so far. Only
    for layers big enough for the kernels (the small ones take milliseconds)."""
    big = len(frontier) * moves[0].shape[0] > SMALL
    return Meter(f"{puzzle.name}, layer {d}", len(frontier), puzzle.unit, enabled=run.progress and big)


def shortest_path(puzzle: PermPuzzle, start: Sequence[int], goal: Sequence[int], count_paths: bool = False,
                  *, run: RunOptions = RunOptions()) -> Path:  # noqa: B008 (frozen)
    """Fewest moves of `puzzle` from start to goal (decks of cards 1..D, top first).

    `run.memory` caps the bytes the search may allocate (default: a share of what the
    system has available); a layer that would not fit is refused (ValueError) before it
    is allocated. `run.progress` draws a bar for each big layer on a terminal.
    """
    t0 = time.perf_counter()
    size = puzzle.size
    check_packed(size, puzzle.unit, puzzle.item)
    start, goal = tuple(start), tuple(goal)
    budget = cap(run.memory)
    where = {card: i for i, card in enumerate(start)}
    target = tuple(where[card] + 1 for card in goal)  # start^-1 . goal
    t = np.uint64(words.pack(target))
    moves = words.segments(puzzle.moves)
    inverse = words.segments(puzzle.inverse_moves())
    layers = [np.array([words.pack(range(1, size + 1))], dtype=np.uint64)]

    def result(moves: int, seq: Sequence[int], paths: int | None) -> Path:
        return Path(puzzle.name, start, goal, moves, tuple(puzzle.labels[j] for j in seq), paths,
                    tuple(len(x) for x in layers), sum(len(x) for x in layers), time.perf_counter() - t0)

    if target == tuple(range(1, size + 1)):
        return result(0, (), 1 if count_paths else None)
    if puzzle.all_moves_even() and parity(target):
        return result(-1, (), 0 if count_paths else None)  # the moves never change the parity
    back = _backward(layers[-1], t, size)
    while True:
        stored = sum(len(x) for x in layers)
        with _meter(puzzle, len(layers), layers[-1], moves, run) as meter:
            new, meet = _grow(layers, back, moves, budget, stored + len(back), count_paths, meter)
            if new is None:  # L = 2a + 1
                meter.update(len(layers[-1]), note=f"met the goal's side: {2 * len(layers) - 1} moves")
                fa, fb = len(layers), len(layers) - 1
                break
            del back  # before the next one is made: the two largest arrays never coexist
            if len(new) == 0:
                return result(-1, (), 0 if count_paths else None)
            layers.append(new)
            meter.update(len(layers[-2]), note=f"{len(new):,} new {puzzle.unit}; inverting them")
            back = _backward(new, t, size)
            meet = _common(new, back)
            met = f"; met the goal's side: {2 * len(layers) - 2} moves" if len(meet) else ""
            meter.update(len(layers[-2]), note=f"{len(new):,} new {puzzle.unit}{met}")
        if len(meet):  # L = 2a
            fa = fb = len(layers) - 1
            break
    x = int(meet[0])
    seq = _walk_forward(x, layers[:fa], inverse) + _walk_backward(x, layers[:fb], t, size, moves)
    paths = None
    if count_paths:
        packed = _kernels()
        require(2 * sum(len(x) for x in layers) * 8, budget, "counting the shortest paths")
        counts = _layer_counts(layers, inverse)
        if fa == len(layers):
            c_head = np.empty(len(meet), dtype=np.uint64)
            big = interrupt.call(packed.count_paths, meet, layers[-1], counts[-1], *inverse, c_head)
            if big >= 2.0**63:
                raise OverflowError("the number of shortest paths does not fit in 64 bits")
        else:
            c_head = counts[fa][np.searchsorted(layers[fa], meet)]
        z = np.empty(len(meet), dtype=np.uint64)
        interrupt.call(packed.inverse_then_all, meet, t, size, z)
        c_tail = counts[fb][np.searchsorted(layers[fb], z)]
        paths = sum(int(a) * int(b) for a, b in zip(c_head, c_tail, strict=True))
    return result(len(seq), seq, paths)
