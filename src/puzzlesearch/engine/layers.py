"""Breadth-first search over a whole ranked state space, 2 bits a state, on all cores.

"God's algorithm": every state reachable from a start, layer by layer, giving the
histogram of distances, the diameter (the largest distance) and the states that reach
it. A state is an index 0..size-1 (its rank, see `layers_kernel` for the three kinds:
permutations, signed permutations, Hanoi positions) and its two bits say whether it is
unseen, in the layer being expanded, newly found or done, so 13 pancakes (6.2e9 stacks)
take 1.45 GiB.

Each layer is found one of two ways (Beamer, Asanovic and Patterson 2012):

* top-down ("push"): each state of the layer marks its unseen images. Threads take
  chunks of the index range; an image inside the thread's own chunk is marked at once,
  one elsewhere is buffered and marked afterwards by the thread owning that range;
* bottom-up ("pull"): each unseen state looks for a predecessor in the layer, nearby
  moves first, and stops at the first. Threads take chunks and write only their own.

Top-down costs about the layer's size, bottom-up about the unseen states': the search
pulls once the unseen states are fewer than PULL_RATIO times the layer. Between layers a
table pass relabels the bits (and counts nothing: every thread counts what it marked).

With a checkpoint file, the array and the layer counts are written after every layer
(to a temporary file, then renamed), so a killed run resumes at its last finished layer.
The memory is computed from the size alone and refused before anything is allocated.
Kernels run in daemon threads named like engine.interrupt's, so Ctrl-C is seen at once
and the command line leaves without waiting for them.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import prod
from pathlib import Path
from typing import Any

import numpy as np

from puzzlesearch.engine import interrupt
from puzzlesearch.engine.memory import gib, require
from puzzlesearch.engine.options import RunOptions, cores
from puzzlesearch.engine.paths import check_writable, replacing, show
from puzzlesearch.engine.progress import Meter
from puzzlesearch.engine.store import canonical_json

PERM, SIGNED, HANOI, FLIPS = 0, 1, 2, 3  # the kinds of space (layers_kernel's module docstring)
CHUNK = 1 << 22  # states a thread takes at a time (1 MiB of bits): Ctrl-C and balance
BLOCK = 1 << 14  # states whose CUR count is kept, to deal a top-down pass out evenly
JOBS_PER_WORKER = 8  # jobs a top-down pass is cut into, per thread
BUFFER = 1 << 22  # buffered far images of a top-down round, all threads together (32 MiB)
PULL_RATIO = 2.0  # pull once unseen < PULL_RATIO x frontier
MAX_STATES = 1 << 40  # 256 GiB of bits: beyond any one machine here
MAGIC = b"puzzlesearch breadth-first layers\n"
FORMAT = 1
MAX_HEADER = 1 << 20


@dataclass(frozen=True, eq=False)
class Space:
    """A ranked state space and its moves, in the form the kernels take (see layers_kernel).

    kind     layers_kernel.PERM (FLIPS when every move is a flip), SIGNED or HANOI
    n        cards (or discs)
    radix    the radix of each digit, most significant first; size = their product
             (halved when compressed)
    moves    PERM: move j as a gather on bottom-first decks, q'[i] = q[moves[j][i]]
    reach    PERM: the top cards move j may change; SIGNED: the k of each burnt flip
    inverse  the moves backwards (and inverse_reach): what a bottom-up pass applies
    start    the index the search starts from
    key      what identifies the space in checkpoints and the results store
    """

    name: str
    kind: int
    n: int
    radix: tuple[int, ...]
    start: int
    key: dict
    pegs: int = 0
    moves: tuple[tuple[int, ...], ...] = ()
    reach: tuple[int, ...] = ()
    inverse: tuple[tuple[int, ...], ...] = ()
    inverse_reach: tuple[int, ...] = ()
    compressed: bool = False
    parity: int = 0
    unit: str = "states"
    size: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", prod(self.radix) // (2 if self.compressed else 1))

    def arrays(self, backwards: bool = False) -> tuple:
        """The kernel arguments after (cells, lo, hi[, start]): kind .. reach."""
        radix = np.array(self.radix, dtype=np.int64)
        weights = np.array([prod(self.radix[i + 1:]) for i in range(self.n)], dtype=np.int64)
        moves = self.inverse if backwards else self.moves
        reach = self.inverse_reach if backwards else self.reach
        mv = np.array(moves, dtype=np.int64).reshape(-1, self.n) if moves else np.zeros((1, self.n), np.int64)
        return (self.kind, self.n, self.pegs, self.compressed, self.parity, radix, weights, mv,
                np.array(reach, dtype=np.int64))

    def digits(self, index: int) -> tuple[list[int], list[int]]:
        """The digits and cards (bottom first) of one index."""
        from puzzlesearch.engine import layers_kernel as k

        kind, n, _, compressed, parity, radix, *_ = self.arrays()
        digits, cards = np.zeros(n, np.int64), np.zeros(n, np.int64)
        k.state_of(index, kind, n, radix, compressed, parity, digits, cards)
        return [int(d) for d in digits], [int(c) for c in cards]


# --- building spaces -------------------------------------------------------------------------------------


def _lehmer(q: Sequence[int]) -> list[int]:
    return [sum(1 for c in q[i + 1:] if c < q[i]) for i in range(len(q))]


def _index(digits: Sequence[int], radix: Sequence[int], compressed: bool = False) -> int:
    r = 0
    for d, b in zip(digits, radix, strict=True):
        r = r * b + d
    return r >> 1 if compressed else r


def perm_space(name: str, n: int, moves: Sequence[Sequence[int]], start: Sequence[int], key: dict,
               unit: str = "decks") -> Space:
    """Moves on decks of n cards, each a tuple ``new[i] = old[perm[i]]`` with position 0 the
    top (shuffle.puzzle's convention); start: cards 1..n, top first. When every move is
    even the space holds the start's parity only."""
    from puzzlesearch.shuffle.puzzle import parity as parity_of

    def bottom_first(mv: Sequence[int]) -> tuple[int, ...]:
        return tuple(n - 1 - mv[n - 1 - i] for i in range(n))

    def inverse(mv: Sequence[int]) -> tuple[int, ...]:
        inv = [0] * n
        for i, p in enumerate(mv):
            inv[p] = i
        return tuple(inv)

    def reach(mv: Sequence[int]) -> int:
        return max((i + 1 for i in range(n) if mv[i] != i), default=0)

    order = sorted(range(len(moves)), key=lambda j: reach(moves[j]))  # nearby images first
    fwd = [tuple(moves[j]) for j in order]
    back = [inverse(mv) for mv in fwd]
    compressed = n >= 2 and bool(fwd) and all(parity_of(mv) == 0 for mv in fwd)
    q = [c - 1 for c in reversed(start)]
    radix = tuple(range(n, 0, -1))
    flips = all(mv == tuple(range(r - 1, -1, -1)) + tuple(range(r, n)) for mv, r in
                ((mv, reach(mv)) for mv in fwd))
    return Space(name, FLIPS if flips else PERM, n, radix, _index(_lehmer(q), radix, compressed), key,
                 moves=tuple(bottom_first(mv) for mv in fwd), reach=tuple(reach(mv) for mv in fwd),
                 inverse=tuple(bottom_first(mv) for mv in back),
                 inverse_reach=tuple(reach(mv) for mv in back),
                 compressed=compressed, parity=parity_of(q), unit=unit)


def deck_of(space: Space, index: int) -> tuple[int, ...]:
    """PERM/SIGNED: the deck with this index, cards 1..n, top first (SIGNED: a burnt side
    up is a negative card)."""
    digits, cards = space.digits(index)
    if space.kind == SIGNED:
        return tuple(-(c + 1) if d & 1 else c + 1 for c, d in reversed(list(zip(cards, digits, strict=True))))
    return tuple(c + 1 for c in reversed(cards))


def signed_space(name: str, n: int, key: dict, start: Sequence[int] | None = None,
                 unit: str = "stacks") -> Space:
    """Burnt pancakes: n cards, each burnt side up or down; flip k (1..n) reverses the top k
    and turns each over. start: cards 1..n top first, negative = burnt side up."""
    start = tuple(range(1, n + 1)) if start is None else tuple(start)
    q = [abs(c) - 1 for c in reversed(start)]
    signs = [1 if c < 0 else 0 for c in reversed(start)]
    radix = tuple(2 * (n - i) for i in range(n))
    digits = [2 * d + s for d, s in zip(_lehmer(q), signs, strict=True)]
    flips = tuple(range(1, n + 1))
    return Space(name, SIGNED, n, radix, _index(digits, radix), key, reach=flips, inverse_reach=flips,
                 unit=unit)


def hanoi_space(name: str, n: int, pegs: int, start: Sequence[int], key: dict) -> Space:
    """n discs on `pegs` pegs; start[i] = the peg (0..pegs-1) of the (i+1)-th largest disc
    (hanoi.rules' positions, largest disc first); the index is that base-`pegs` number."""
    radix = (pegs,) * n
    return Space(name, HANOI, n, radix, _index(start, radix), key, pegs=pegs, unit="positions")


def hanoi_index(space: Space, position: Sequence[int]) -> int:
    return _index(position, space.radix)


# --- the search ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Layers:
    """What a whole breadth-first search found: histogram[d] = states at distance d."""

    histogram: tuple[int, ...]
    farthest: tuple[int, ...]  # up to `show` indices at the largest distance
    farthest_count: int
    directions: str  # per layer: 't' top-down, 'b' bottom-up
    bytes: int  # the 2-bit array
    workers: int
    seconds: float  # this run's, resumed or not
    resumed_at: int | None  # the layer a checkpoint resumed at
    found: dict[int, int]  # index -> distance, for the indices asked with `watch`

    @property
    def diameter(self) -> int:
        return len(self.histogram) - 1

    @property
    def states(self) -> int:
        return sum(self.histogram)


def buffered(states: int) -> int:
    """Far images a top-down round buffers, all threads together: BUFFER, or one for
    every 64 states of a smaller space (at least 4,096)."""
    return min(BUFFER, max(4096, states // 64))


def memory_needed_for(states: int) -> int:
    """Bytes a search of `states` allocates: the array and the buffers of far images."""
    return (states + 3) // 4 + 8 * buffered(states)


def memory_needed(space: Space) -> int:
    return memory_needed_for(space.size)


def check_space(space: Space, budget: int | None) -> int:
    """Refuse (ValueError, one line) a space beyond the index limit or the memory cap; else
    the bytes needed."""
    need = memory_needed(space)
    if space.size > MAX_STATES:
        raise ValueError(f"{space.name} has {space.size:,} {space.unit}, beyond the {MAX_STATES:,} "
                         f"this breadth-first search indexes (it would need {gib(need)})")
    require(need, budget, f"full BFS of {space.name} ({space.size:,} {space.unit}, 2 bits each)")
    return need


def search(space: Space, *, run: RunOptions = RunOptions(), show: int = 10,  # noqa: B008 (frozen)
           watch: Sequence[int] = ()) -> Layers:
    """Every state reachable from space.start, layer by layer (see the module docstring).

    run.workers threads (default: all cores), run.memory caps the bytes (refused before
    allocating), run.checkpoint is a file written after each layer and resumed from,
    run.progress draws a bar. `watch`: indices whose distance to report (found).
    With run.scheduler, the search runs on that Dask cluster instead (engine.layers_dask).
    """
    from puzzlesearch.engine import layers_kernel as k

    if run.scheduler is not None:
        from puzzlesearch.engine.layers_dask import search_on_cluster

        return search_on_cluster(space, run=run, show_count=show, watch=watch)
    workers = run.workers or cores()
    check_space(space, run.memory)
    ckpt = Path(run.checkpoint) if run.checkpoint is not None else None
    if ckpt is not None:
        check_writable(ckpt, "--checkpoint")
    params = {"format": FORMAT, "space": space.name, "start": space.start, "size": space.size,
              "key": hashlib.sha256(canonical_json(space.key).encode()).hexdigest()[:16]}
    saved = _read_checkpoint(ckpt, params) if ckpt is not None else None
    t0 = time.perf_counter()
    nbytes = (space.size + 3) // 4
    if saved is not None:
        cells, hist, directions = saved["cells"], saved["histogram"], saved["directions"]
        found = saved["found"]
        resumed = len(hist) - 1
    else:
        cells = np.full(nbytes, 0xFF, dtype=np.uint8)
        for i in range(space.size, 4 * nbytes):  # padding: OLD, never expanded nor counted
            k.put(cells, i, k.OLD)
        k.put(cells, space.start, k.CUR)
        hist, directions, found, resumed = [1], "", {}, None
    watch = [int(w) for w in watch]
    forward, backward = space.arrays(), space.arrays(backwards=True)
    bufs = [np.empty(buffered(space.size) // workers, dtype=np.int64) for _ in range(workers)]
    blocks = np.zeros(-(-space.size // BLOCK), dtype=np.int64)  # CUR states in each block
    interrupt.parallel([lambda lo=lo, hi=hi: k.count_cur(cells, lo, hi, BLOCK // 4, blocks)
                        for lo, hi in _ranges(len(blocks), CHUNK // BLOCK)], workers)
    _watch(cells, watch, found, len(hist) - 1)
    done = saved is not None and saved["done"]
    seen = sum(hist)
    with Meter(space.name, space.size, space.unit, enabled=run.progress) as meter:
        meter.update(seen, note=f"layer {len(hist) - 1}")
        while not done:
            frontier, unseen = hist[-1], space.size - seen
            if unseen < PULL_RATIO * frontier:
                directions += "b"
                new = _pull(cells, space.size, backward, workers, meter, seen)
            else:
                directions += "t"
                new = _push(cells, space.size, forward, bufs, workers, meter, seen, blocks)
            done = new == 0
            if not done:
                interrupt.parallel([lambda lo=lo, hi=hi: k.relabel(cells, lo, hi, BLOCK // 4, blocks)
                                    for lo, hi in _ranges(len(blocks), CHUNK // BLOCK)], workers)
                hist.append(new)
                seen += new
                _watch(cells, watch, found, len(hist) - 1)
            meter.update(seen, note=f"layer {len(hist) - 1}: {hist[-1]:,} {space.unit}")
            if ckpt is not None:
                _write_checkpoint(ckpt, params, cells, hist, directions, found, done)
    out = np.empty(show, dtype=np.int64)
    total = k.collect(cells, space.size, k.CUR, show, out)
    far = tuple(int(i) for i in out[: min(show, total)])
    return Layers(tuple(hist), far, int(total), directions, nbytes, workers, time.perf_counter() - t0,
                  resumed,
                  {w: found[w] for w in watch if w in found})


def _watch(cells: np.ndarray, watch: list[int], found: dict[int, int], d: int) -> None:
    from puzzlesearch.engine import layers_kernel as k
    for w in watch:
        if w not in found and k.get(cells, w) == k.CUR:
            found[w] = d


def _ranges(size: int, chunk: int) -> list[tuple[int, int]]:
    return [(lo, min(lo + chunk, size)) for lo in range(0, size, chunk)]


def _pull(cells, size, arrays, workers, meter, seen) -> int:
    from puzzlesearch.engine import layers_kernel as k
    counts: list[int] = []

    def job(lo: int, hi: int) -> Callable[[], None]:
        return lambda: counts.append(k.pull(cells, lo, hi, *arrays))

    def tick() -> None:
        meter.update(seen + sum(counts))

    interrupt.parallel([job(lo, hi) for lo, hi in _ranges(size, CHUNK)], workers, tick)
    return sum(counts)


def _jobs(blocks: np.ndarray, size: int, workers: int) -> list[list[int]]:
    """Ranges of whole blocks holding about the same number of CUR states each (a few per
    thread), skipping blocks with none: [lo, hi, where to go on]."""
    total = int(blocks.sum())
    share = max(1, total // (JOBS_PER_WORKER * workers))
    jobs: list[list[int]] = []
    lo = None
    count = 0
    for b in np.flatnonzero(blocks):
        b = int(b)
        if lo is None:
            lo, count = b, 0
        count += int(blocks[b])
        last = b
        if count >= share or (b + 1) * BLOCK - lo * BLOCK >= CHUNK:
            jobs.append([lo * BLOCK, min((last + 1) * BLOCK, size), lo * BLOCK])
            lo = None
    if lo is not None:
        jobs.append([lo * BLOCK, min((last + 1) * BLOCK, size), lo * BLOCK])
    return jobs


def _push(cells, size, arrays, bufs, workers, meter, seen, blocks) -> int:
    """Rounds: each thread pushes from a job until done or its buffer fills, then each
    thread marks the buffered images that fall in its own (byte-aligned) share."""
    pending = _jobs(blocks, size, workers)
    share = ((size + workers - 1) // workers + 3) // 4 * 4
    owners = [(lo, min(lo + share, size)) for lo in range(0, size, share)]
    marked = 0
    while pending:
        batch, pending = pending[:workers], pending[workers:]
        counts = [np.zeros(2, dtype=np.int64) for _ in batch]

        jobs = [_pusher(cells, item, arrays, buf, c)
                for item, buf, c in zip(batch, bufs, counts, strict=False)]
        interrupt.parallel(jobs, workers)
        marked += sum(int(c[0]) for c in counts)
        got: list[int] = []
        if any(c[1] for c in counts):
            far = [(buf, int(c[1])) for buf, c in zip(bufs, counts, strict=False)]
            interrupt.parallel([_marker(cells, lo, hi, far, got) for lo, hi in owners], workers)
        marked += sum(got)
        pending = [b for b in batch if b[2] < b[1]] + pending
        meter.update(seen + marked)
    return marked


def _pusher(cells: np.ndarray, item: list[int], arrays: tuple, buf: np.ndarray, counts: np.ndarray
            ) -> Callable[[], None]:
    from puzzlesearch.engine import layers_kernel as k
    def job() -> None:
        lo, hi, start = item
        item[2] = k.push(cells, lo, hi, start, *arrays, buf, counts)
    return job


def _marker(cells: np.ndarray, lo: int, hi: int, far: list[tuple[np.ndarray, int]], got: list[int]
            ) -> Callable[[], None]:
    from puzzlesearch.engine import layers_kernel as k
    return lambda: got.append(sum(k.mark(cells, lo, hi, buf, nb) for buf, nb in far))


# --- checkpoints -----------------------------------------------------------------------------------------


def _read_header(path: Path) -> tuple[bytes, int, int] | None:
    """A checkpoint's JSON header line, where its bits start and the file's size; None when
    there is none yet (no file, or an empty one: what a run killed before its first layer
    leaves); ValueError for a file that is not a checkpoint or cannot be read. Shared with
    the cluster's checkpoints (layers_dask), which hold the header only."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(MAGIC))
            if not head:
                return None
            if head.startswith(b"SQLite format 3\x00"):  # the checkpoints of engine.store
                raise ValueError(f"checkpoint {show(path)} belongs to another command, not to a "
                                 "breadth-first search (pancake god, shuffle god, hanoi verify)")
            if head != MAGIC:
                raise ValueError(f"{show(path)} is not a puzzlesearch breadth-first-search checkpoint")
            line = f.readline(MAX_HEADER)
            return line, f.tell(), os.fstat(f.fileno()).st_size
    except FileNotFoundError:
        return None
    except OSError as e:
        raise ValueError(f"--checkpoint {show(path)} cannot be read ({e.strerror or e})") from None


def check_checkpoint(path: str | os.PathLike) -> None:
    """Refuse (ValueError, one line) a file that is not a breadth-first search's checkpoint
    (an empty or missing one is a new checkpoint); whether it is this search's is checked
    when the search reads it."""
    _read_header(Path(path))


def _read_checkpoint(path: Path, params: dict) -> dict | None:
    """The saved state of this search, None if there is none yet (see _read_header);
    ValueError for a file that is not a checkpoint, is damaged, or belongs to another search."""
    header = _read_header(path)
    if header is None:
        return None
    line, offset, size = header
    damaged = f"checkpoint {show(path)} is damaged"
    try:
        meta = json.loads(line)
        hist = [int(x) for x in meta["histogram"]]
        nbytes = int(meta["bytes"])
    except (ValueError, KeyError, TypeError) as e:
        raise ValueError(f"{damaged} (its header: {e}); delete it to start the run afresh") from None
    if meta.get("params") != params:
        raise ValueError(f"checkpoint {show(path)} was made for another search: "
                         f"{_describe(meta.get('params'))}, not {_describe(params)}")
    if size != offset + nbytes or nbytes != (params["size"] + 3) // 4:
        raise ValueError(f"{damaged} ({size:,} bytes, expected {offset + nbytes:,}); "
                         "delete it to start the run afresh")
    cells = np.fromfile(path, dtype=np.uint8, offset=offset)
    return {"cells": cells, "histogram": hist, "directions": str(meta.get("directions", "")),
            "found": {int(a): int(b) for a, b in meta.get("found", {}).items()},
            "done": bool(meta.get("done"))}


def _describe(params: Any) -> str:
    if not isinstance(params, dict) or "space" not in params:
        return "an unknown search"
    return f"{params['space']} from index {params.get('start')}"


def _write_checkpoint(path: Path, params: dict, cells: np.ndarray, hist: list[int], directions: str,
                      found: dict[int, int], done: bool) -> None:
    meta = {"params": params, "histogram": hist, "directions": directions, "bytes": int(cells.nbytes),
            "found": {str(a): b for a, b in found.items()}, "done": done}
    with replacing(path, "--checkpoint") as tmp, open(tmp, "wb") as f:
        f.write(MAGIC + json.dumps(meta).encode() + b"\n")
        cells.tofile(f)
        f.flush()
        os.fsync(f.fileno())


__all__ = ["Layers", "Space", "check_checkpoint", "check_space", "deck_of", "hanoi_index", "hanoi_space",
           "memory_needed", "memory_needed_for", "perm_space", "search", "signed_space"]
