"""Fewest moves between two decks by bidirectional breadth-first search.

The decks are permutations and a move multiplies by a fixed permutation on the right,
so the search may start from the sorted deck and look for t = start^-1 . goal; the
decks at distance b *before* t are then t . w^-1 for the words w at distance b *after*
the identity. So only the forward side is searched (by layers, each a sorted array of
packed decks, see `packed`), and the backward layer of the same depth is that layer
inverted and multiplied by t: the inverse moves of the directed graph come for free.
Lengths are tested in order:
L = 2a asks whether layer a meets backward layer a, L = 2a + 1 whether the images of
layer a meet it (a shortest path's decks have exact distances i and L - i, so checking
the last layers is enough). A layer is made by writing all the images of the last one
into one array, bucketed by their top bits (a count pass, then a write pass), sorting
each bucket in cache by radix digits (both cores), dropping repeats and the decks of
the stored layers, in place. While the next layer's images are small against the memory
cap, the backward layer is kept sorted and the meetings are a merge; for a big layer
(likely the last) it is never made: y is at distance a from the goal iff y^-1 . t is in
layer a, so those queries are made, sorted and merged with layer a a chunk at a time,
stopping at the first chunk that meets. Memory is the forward ball of radius about L/2
plus the images of its last layer; sizes are checked against the memory cap
(engine.memory) before each allocation. The first layers
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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from puzzlesearch.engine import interrupt
from puzzlesearch.engine.failures import CheckFailed
from puzzlesearch.engine.memory import cap, require
from puzzlesearch.engine.options import RunOptions, checked, cores
from puzzlesearch.engine.params import flag, shown
from puzzlesearch.engine.progress import Meter
from puzzlesearch.engine.space import parity
from puzzlesearch.shuffle import words
from puzzlesearch.shuffle.puzzle import PermPuzzle, check_deck, check_packed

CHUNK = 1 << 23  # images counted or written per kernel call (Ctrl-C and the bar between calls)
QUERIES = 1 << 24  # decks looked up at a time by the streamed meeting test
SMALL = 1 << 16  # up to this many images, numpy (words.py) instead of the kernels (packed.py)
SCRATCH = 1 << 22  # longest bucket sorted by its second radix digit (longer ones by np.sort)
THREADS = min(2, cores())  # buckets sorted in parallel
BACK_SHARE = 4  # the goal's side is kept as a sorted layer while the next images take <= 1/4 of the cap


def _kernels():
    """The numba kernels, imported only when a layer outgrows numpy (starting the JIT costs ~0.5 s)."""
    from puzzlesearch.shuffle import packed

    return packed


@dataclass(frozen=True)
class Path:
    """A shortest solution, found by bidirectional breadth-first search.

    Attributes:
        puzzle: The puzzle's name.
        start: The deck it starts from, top card first.
        goal: The deck it reaches.
        moves: The fewest moves from start to goal (-1 when the goal cannot be reached).
        sequence: One shortest solution: the label (k) of each move.
        paths: How many shortest solutions there are (None unless counted).
        layers: The decks at distance 0, 1, ... from the start (the same from the goal).
        states: The decks the search stored.
        seconds: The time the search took.
    """

    puzzle: str
    start: tuple[int, ...]
    goal: tuple[int, ...]
    moves: int
    sequence: tuple[int, ...]
    paths: int | None
    layers: tuple[int, ...] = field(default=())
    states: int = 0
    seconds: float = 0.0


def _digit(size: int) -> tuple[np.uint64, np.uint64, int]:
    """The bucket digit of a deck of `size` cards: its top BUCKET used bits (shift, mask, buckets)."""
    bits = min(_kernels().BUCKET, 4 * size)
    return np.uint64(4 * size - bits), np.uint64((1 << bits) - 1), 1 << bits


def _sort_buckets(packed, a: np.ndarray, starts: np.ndarray, low: np.uint64) -> None:
    """Sort each bucket of `a` (values grouped by their digit, `starts` = bucket offsets), the
    buckets shared between THREADS threads (the kernel releases the GIL), about CHUNK
    values a call."""
    sizes = np.diff(starts)
    scratch = min(SCRATCH, int(sizes.max(initial=0)))
    cuts = np.unique(np.concatenate(([0], np.searchsorted(starts, np.arange(CHUNK, starts[-1], CHUNK)),
                                     [len(sizes)])))
    jobs = list(zip(cuts[:-1].tolist(), cuts[1:].tolist(), strict=True))

    def work(mine: list[tuple[int, int]]) -> None:
        tmp = np.empty(scratch, dtype=np.uint64)
        cnt = np.empty((1 << packed.RADIX) + 1, dtype=np.int64)
        cnt2 = np.empty((1 << packed.RADIX) + 1, dtype=np.int64)
        for first, last in mine:
            packed.sort_buckets(a, starts, first, last, int(low), tmp, cnt, cnt2)

    def run() -> None:
        if THREADS == 1 or len(jobs) == 1:
            return work(jobs)
        with ThreadPoolExecutor(THREADS) as pool:
            for f in [pool.submit(work, jobs[i::THREADS]) for i in range(THREADS)]:
                f.result()

    interrupt.call(run)


def _offsets(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    starts = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=starts[1:])
    return starts, starts[:-1].copy()


def _sorted_values(packed, buf: np.ndarray, n: int, out: np.ndarray, size: int) -> None:
    """buf[:n] sorted into out[:n] (with repeats)."""
    low, dm, nb = _digit(size)
    counts = np.zeros(nb, dtype=np.int64)
    interrupt.call(packed.count_values, buf, n, low, dm, counts)
    starts, pos = _offsets(counts)
    interrupt.call(packed.scatter_values, buf, n, low, dm, pos, out)
    _sort_buckets(packed, out, starts, low)


def _sorted_images(packed, frontier: np.ndarray, moves: words.Segments, size: int, out: np.ndarray,
                   meter: Meter | None) -> int:
    """Every image of the frontier into out, sorted (with repeats); how many. The images are
    made twice, once to count them by bucket and once to write them there: no second array."""
    low, dm, nb = _digit(size)
    step = max(1, CHUNK // len(moves.shift))
    counts = np.zeros(nb, dtype=np.int64)
    for lo in range(0, len(frontier), step):
        hi = min(len(frontier), lo + step)
        interrupt.call(packed.count_images, frontier, lo, hi, *moves, low, dm, counts)
    starts, pos = _offsets(counts)
    for lo in range(0, len(frontier), step):
        hi = min(len(frontier), lo + step)
        interrupt.call(packed.scatter_images, frontier, lo, hi, *moves, low, dm, pos, out)
        if meter is not None:
            meter.update(hi)
    if meter is not None:
        meter.update(len(frontier), note=f"sorting {int(starts[-1]):,} images")
    _sort_buckets(packed, out, starts, low)
    return int(starts[-1])


def _backward(layer: np.ndarray, t: np.uint64, size: int) -> np.ndarray:
    """The backward layer t . w^-1 (w in layer), sorted."""
    if len(layer) <= SMALL:
        return np.sort(words.inverted(layer, t, size))
    packed = _kernels()
    buf = np.empty(len(layer), dtype=np.uint64)
    interrupt.call(packed.then_inverse_all, layer, t, size, buf)
    out = np.empty(len(layer), dtype=np.uint64)
    _sorted_values(packed, buf, len(buf), out, size)
    return out


def _common(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The decks in both sorted arrays (a merge kernel once they are big: no index arrays)."""
    if len(a) <= SMALL:
        return a[words.members(a, b)]
    hits = np.empty(min(len(a), len(b)), dtype=np.uint64)
    return hits[: interrupt.call(_kernels().common, a, len(a), b, hits)].copy()


def _keeps_back(layer: int, m: int, budget: int) -> bool:
    """Is the goal's side of this layer kept as a sorted array? Yes while the images of the
    layer are small (numpy) or take at most 1/BACK_SHARE of the cap; else the layer is likely
    the last one, and its meetings are looked up by `_stream` without it."""
    return layer * m <= SMALL or layer * m * 8 * BACK_SHARE <= budget


def _grow_small(layers: list[np.ndarray], back: np.ndarray,
                moves: words.Segments) -> tuple[np.ndarray | None, np.ndarray]:
    """`_grow` for a small last layer, with numpy."""
    cand = words.unique(np.sort(words.images(layers[-1], moves)))
    hit = words.members(cand, back)
    if hit.any():
        return None, cand[hit]
    for layer in layers:
        cand = cand[~words.members(cand, layer)]
    return cand, np.empty(0, dtype=np.uint64)


def _drop_known(packed, cand: np.ndarray, n: int, layers: list[np.ndarray]) -> int:
    """Drop from sorted cand[:n] every deck of the stored layers; the new length. A layer of
    at least n/16 decks is merged with cand; the smaller ones are looked up in it, their
    positions collected, and dropped in one pass."""
    small = [x for x in layers if 16 * len(x) < n]
    for layer in layers:
        if 16 * len(layer) >= n:
            n = interrupt.call(packed.remove_known, cand, n, layer)
    if small:
        where = np.empty(sum(len(x) for x in small), dtype=np.int64)
        k = 0
        for layer in small:
            k = interrupt.call(packed.find_known, cand, n, layer, 0, len(layer), where, k)
        where = np.unique(where[:k])  # ordered (the layers are disjoint, so are their positions)
        n = interrupt.call(packed.drop_positions, cand, n, where, len(where))
    return n


def _grow(layers: list[np.ndarray], back: np.ndarray | None, moves: words.Segments, size: int, budget: int,
          stored: int, meter: Meter | None = None) -> tuple[np.ndarray | None, np.ndarray]:
    """Expand the last layer: (the next layer, or None once it meets `back`; the meeting decks).

    All the images are written at once into one array, sorted by buckets (`_sorted_images`),
    made unique, checked against `back` (the goal's side of the last layer, unless None),
    and cleared of the decks of the stored layers, in place: the next layer is a prefix of
    that array. `meter` is told how many decks of the last layer are expanded.
    """
    frontier = layers[-1]
    m = len(moves.shift)
    if len(frontier) * m <= SMALL and back is not None:
        return _grow_small(layers, back, moves)
    packed = _kernels()
    bound = len(frontier) * m
    require((stored + bound + min(bound, SCRATCH)) * 8, budget,
            f"expanding layer {len(layers) - 1}" if bound <= CHUNK else
            f"layer {len(layers)} (up to {bound:,} decks, {len(frontier):,} x {m} moves)")
    out = np.empty(bound, dtype=np.uint64)
    n = _sorted_images(packed, frontier, moves, size, out, meter)
    n = interrupt.call(packed.unique_sorted, out, n)
    if back is not None:
        meet = _common(out[:n], back)
        if len(meet):
            return None, meet
    if meter is not None:
        meter.update(len(frontier), note=f"dropping the {n:,} images already seen")
    n = _drop_known(packed, out, n, layers)
    return (out[:n].copy() if n < 0.75 * bound else out[:n]), np.empty(0, dtype=np.uint64)


def _stream(layer: np.ndarray, images: bool, moves: words.Segments, t: np.uint64, size: int, budget: int,
            stored: int, every_meeting: bool, what: str, meter: Meter | None = None) -> np.ndarray:
    """The decks y (the layer's images if `images`, else its own decks) at distance
    len(layers) - 1 from the goal, that is with y^-1 . t in `layer`, sorted. The queries
    y^-1 . t are made, sorted and merged with the layer QUERIES at a time, so the goal's
    side of a big layer is never stored; the first chunk that meets ends the test, unless
    `every_meeting` (for counting paths)."""
    packed = _kernels()
    m = len(moves.shift) if images else 1
    step = max(1, QUERIES // m)
    chunk = min(len(layer), step) * m
    require((stored + 2 * chunk + min(chunk, SCRATCH)) * 8, budget, what)
    tshift = np.array([4 * ((int(t) >> (4 * i)) & 15) for i in range(16)], dtype=np.uint64)
    buf = np.empty(chunk, dtype=np.uint64)
    out = np.empty(chunk, dtype=np.uint64)
    met = []
    for lo in range(0, len(layer), step):
        hi = min(len(layer), lo + step)
        n = interrupt.call(packed.queries, layer, lo, hi, images, *moves, tshift, size, buf)
        _sorted_values(packed, buf, n, out, size)
        c = interrupt.call(packed.common, out, n, layer, buf)
        if meter is not None and images:
            meter.update(hi)
        if c:
            hits = buf[: packed.unique_sorted(buf, c)]
            y = np.empty(len(hits), dtype=np.uint64)
            packed.then_inverse_all(hits, t, size, y)
            met.append(y)
            if not every_meeting:
                break
    if not met:
        return np.empty(0, dtype=np.uint64)
    meet = np.sort(np.concatenate(met))
    return meet[: packed.unique_sorted(meet, len(meet))]


def _walk_forward(x: int, layers: list[np.ndarray], inverse: words.Segments) -> list[int]:
    """Moves from the start to x, x one move beyond the last of `layers`."""
    out = []
    for layer in reversed(layers):
        for j in range(len(inverse.shift)):
            y = words.apply_one(x, inverse, j)
            if words.members(np.array([y], dtype=np.uint64), layer)[0]:
                out.append(j)
                x = y
                break
        else:  # pragma: no cover - would mean the layers are inconsistent
            raise CheckFailed("the path's chain of layers", f"no move leads back into layer {len(out)}")
    return out[::-1]


def _walk_backward(x: int, layers: list[np.ndarray], t: np.uint64, size: int,
                   moves: words.Segments) -> list[int]:
    """Moves from x to t, x one move before backward layer len(layers)-1: y there iff y^-1 t in layers."""
    out = []
    for layer in reversed(layers):
        for j in range(len(moves.shift)):
            y = words.apply_one(x, moves, j)
            if words.members(np.array([words.inverse_then(y, t, size)], dtype=np.uint64), layer)[0]:
                out.append(j)
                x = y
                break
        else:  # pragma: no cover
            raise CheckFailed("the path's chain of layers",
                              f"no move leads on into backward layer {len(out)}")
    return out


def _layer_counts(layers: list[np.ndarray], inverse: words.Segments) -> list[np.ndarray]:
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


def _meter(puzzle: PermPuzzle, d: int, frontier: np.ndarray, moves: words.Segments, run: RunOptions) -> Meter:
    """The progress bar of making layer d: the decks of layer d - 1 expanded so far. Only
    for layers big enough for the kernels (the small ones take milliseconds)."""
    big = len(frontier) * len(moves.shift) > SMALL
    return Meter(f"{puzzle.name}, layer {d}", len(frontier), puzzle.unit, enabled=run.progress and big)


def shortest_path(puzzle: PermPuzzle, start: Sequence[int], goal: Sequence[int], count_paths: bool = False,
                  *, run: RunOptions = RunOptions()) -> Path:  # noqa: B008 (frozen)
    """Fewest moves of any permutation puzzle from start to goal, by bidirectional search.

    Args:
        puzzle: The puzzle (at most 16 cards).
        start: The deck it starts from: cards 1..D, top first.
        goal: The deck to reach.
        count_paths: Also count the shortest solutions.
        run: ``run.memory`` caps the bytes the search may allocate (default: a share of
            what the system has available); ``run.progress`` draws a bar for each big
            layer on a terminal.

    Returns:
        The fewest moves, one shortest solution and the size of each layer.

    Raises:
        ValueError: A layer that would not fit in the memory cap, before it is allocated.
    """
    t0 = time.perf_counter()
    if not isinstance(puzzle, PermPuzzle):
        raise TypeError(f"puzzle must be a PermPuzzle, got {shown(puzzle)}")
    size = puzzle.size
    check_packed(size, puzzle.unit, puzzle.item)
    start, goal = check_deck(start, size, "start"), check_deck(goal, size, "goal")
    count_paths, run = flag(count_paths, "count_paths"), checked(run)
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
    m = len(moves.shift)
    back = _backward(layers[-1], t, size)
    while True:  # lengths up to 2a are ruled out, a = len(layers) - 1; back = its goal's side, or None
        stored = sum(len(x) for x in layers)
        a = len(layers) - 1
        with _meter(puzzle, a + 1, layers[-1], moves, run) as meter:
            if back is None:  # L = 2a + 1, streamed; then the next layer, if it did not meet
                meet = _stream(layers[-1], True, moves, t, size, budget, stored, count_paths,
                               f"expanding layer {a}", meter)
                if len(meet) == 0:
                    new, _ = _grow(layers, None, moves, size, budget, stored, meter)
            else:
                new, meet = _grow(layers, back, moves, size, budget, stored + len(back), meter)
            if len(meet):  # L = 2a + 1
                meter.update(len(layers[-1]), note=f"met the goal's side: {2 * a + 1} moves")
                fa, fb = a + 1, a
                break
            del back  # before the next one is made: the two largest arrays never coexist
            if len(new) == 0:
                return result(-1, (), 0 if count_paths else None)
            layers.append(new)
            if _keeps_back(len(new), m, budget):
                meter.update(len(layers[-2]), note=f"{len(new):,} new {puzzle.unit}; inverting them")
                back = _backward(new, t, size)
                meet = _common(new, back)
            else:
                meter.update(len(layers[-2]), note=f"{len(new):,} new {puzzle.unit}; looking them up")
                back = None
                meet = _stream(new, False, moves, t, size, budget, stored + len(new), count_paths,
                               f"expanding layer {a}")
            met = f"; met the goal's side: {2 * a + 2} moves" if len(meet) else ""
            meter.update(len(layers[-2]), note=f"{len(new):,} new {puzzle.unit}{met}")
        if len(meet):  # L = 2a
            fa = fb = len(layers) - 1
            break
    x = int(meet[0])
    seq = _walk_forward(x, layers[:fa], inverse) + _walk_backward(x, layers[:fb], t, size, moves)
    end = puzzle.play(start, [puzzle.labels[j] for j in seq])  # the witness, by the plain moves
    if end != goal:
        raise CheckFailed("the path's replay", f"its {len(seq)} moves take {start} to {end}, not {goal}")
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
