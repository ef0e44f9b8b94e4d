"""Breadth-first search over a whole ranked state space, 2 bits a state, on all cores.

"God's algorithm": every state reachable from a start, layer by layer, giving the
histogram of distances, the diameter (the largest distance) and the states that reach
it. A state is an index 0..size-1 (its rank, see `layers_kernel` for permutations, signed
permutations and Hanoi positions, `pieces_kernel` for puzzles of pieces) and its two bits
say whether it is unseen, in the layer being expanded, newly found or done, so 13
pancakes (6.2e9 stacks) take 1.45 GiB.

Each layer is found one of two ways (Beamer, Asanovic and Patterson 2012):

* top-down ("push"): each state of the layer marks its unseen images, wherever they lie,
  by an atomic step on their byte, so that threads taking chunks of the index range lose
  no mark (a buffer of far images for the thread owning them is what a Dask worker
  keeps, `layers_dask`);
* bottom-up ("pull"): each unseen state looks for a predecessor in the layer, nearby
  moves first, and stops at the first. Threads take chunks and write only their own.

Top-down costs about the layer's size, bottom-up about the unseen states': the search
pulls once the unseen states are fewer than PULL_RATIO times the layer. Between layers a
table pass relabels the bits (and counts nothing: every thread counts what it marked).

With a checkpoint file, the array and the layer counts are written after every layer
(to a temporary file, then renamed), so a killed run resumes at its last finished layer.
Asked for ``depths``, the search also keeps every state's distance mod 3 in a second
2-bit array, one table pass a layer, and writes it into the checkpoint: a finished file
is then a table that `read_table` gives back, down which a shortest path is walked.
The memory is computed from the size alone and refused before anything is allocated.
Kernels run in daemon threads named like engine.interrupt's, so Ctrl-C is seen at once
and the command line leaves without waiting for them.

The spaces are built by `engine.space`; the result, the limits and the checkpoint file are
shared with the search on a Dask cluster (`layers_common`, `layers_dask`). The kernels
(numba) are imported by the functions that run them, so that a space refused by its size,
the memory cap or its checkpoint is refused without loading numba.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from puzzlesearch.engine import interrupt
from puzzlesearch.engine.layers_common import (
    BLOCK,
    FORMAT,
    NOT_REACHED,
    Layers,
    check_space,
    passes,
    read_checkpoint,
    record_layer,
    space_hash,
    write_checkpoint,
)
from puzzlesearch.engine.layers_dask import search_on_cluster
from puzzlesearch.engine.options import RunOptions, cores
from puzzlesearch.engine.paths import check_writable
from puzzlesearch.engine.paths import show as shown
from puzzlesearch.engine.progress import Meter
from puzzlesearch.engine.space import Space

CHUNK = 1 << 22  # states a thread takes at a time (1 MiB of bits): Ctrl-C and balance
JOBS_PER_WORKER = 8  # jobs a top-down pass is cut into, per thread
PULL_RATIO = 2.0  # pull once unseen < PULL_RATIO x frontier
#: the count a top-down kernel call returns first in its array of two
MARKED = 0
#: a top-down job: its range [lo, hi) and where it starts
LO, HI, AT = 0, 1, 2


def _params(space: Space, depths: bool) -> dict:
    """What a checkpoint must have been made for to be resumed (or read as a table)."""
    params = {"format": FORMAT, "space": space.name, "start": space.start, "size": space.size,
              "key": space_hash(space)}
    return params | {"depths": True} if depths else params


def search(space: Space, *, run: RunOptions = RunOptions(), show: int = 10,  # noqa: B008 (frozen)
           watch: Sequence[int] = (), depths: bool = False) -> Layers:
    """Every state reachable from space.start, layer by layer (see the module docstring).

    run.workers threads (default: all cores), run.memory caps the bytes (refused before
    allocating), run.checkpoint is a file written after each layer and resumed from,
    run.progress draws a bar. `watch`: indices whose distance to report (found).
    `depths`: keep every state's distance mod 3 too, in the checkpoint (twice the memory).
    With run.scheduler, the search runs on that Dask cluster instead (engine.layers_dask),
    which keeps no distances.
    """
    if run.scheduler is not None:
        return search_on_cluster(space, run=run, show_count=show, watch=watch)
    workers = run.workers or cores()
    check_space(space, run.memory, depths)
    ckpt = Path(run.checkpoint) if run.checkpoint is not None else None
    if ckpt is not None:
        check_writable(ckpt, "--checkpoint")
    params = _params(space, depths)
    saved = read_checkpoint(ckpt, params) if ckpt is not None else None
    from puzzlesearch.engine import layers_kernel as k
    t0 = time.perf_counter()
    nbytes = (space.size + 3) // 4
    if saved is not None:
        cells, hist, directions = saved["cells"], saved["histogram"], saved["directions"]
        found, dist = saved["found"], saved["depths"]
        resumed = len(hist) - 1
    else:
        cells = np.full(nbytes, 0xFF, dtype=np.uint8)
        for i in range(space.size, 4 * nbytes):  # padding: OLD, never expanded nor counted
            k.put(cells, i, k.OLD)
        k.put(cells, space.start, k.CUR)
        hist, directions, found, resumed = [1], "", {}, None
        dist = np.full(nbytes, 0xFF, dtype=np.uint8) if depths else None  # NOT_REACHED everywhere
        if dist is not None:
            record_layer(cells, dist, space.start >> 2, (space.start >> 2) + 1, 0)
    watch = [int(w) for w in watch]
    forward, backward = space.arrays(), space.arrays(backwards=True)
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
                new = _push(cells, space.size, forward, workers, meter, seen, blocks)
            done = new == 0
            if not done:
                interrupt.parallel([lambda lo=lo, hi=hi: k.relabel(cells, lo, hi, BLOCK // 4, blocks)
                                    for lo, hi in _ranges(len(blocks), CHUNK // BLOCK)], workers)
                hist.append(new)
                seen += new
                _watch(cells, watch, found, len(hist) - 1)
                if dist is not None:
                    _record(cells, dist, nbytes, len(hist) - 1, workers)
            meter.update(seen, note=f"layer {len(hist) - 1}: {hist[-1]:,} {space.unit}")
            if ckpt is not None:
                write_checkpoint(ckpt, params, cells, hist, directions, found, done, dist)
    out = np.empty(show, dtype=np.int64)
    far = tuple(int(i) for i in out[: k.first(cells, space.size, k.CUR, show, out)])
    return Layers(tuple(hist), far, hist[-1], directions, nbytes, workers, time.perf_counter() - t0,
                  resumed,
                  {w: found[w] for w in watch if w in found})


def read_table(space: Space, path: str | Path) -> tuple[np.ndarray, tuple[int, ...]] | None:
    """The distances mod 3 (see layers_common.depth) and the histogram that a finished
    search of `space` from space.start with ``depths`` left in its checkpoint `path`; None
    when there is no such file or it is empty; ValueError (one line) for a file that is not
    a checkpoint, is damaged, was made for another search (another space, or without
    distances) or is not finished."""
    saved = read_checkpoint(Path(path), _params(space, True))
    if saved is None:
        return None
    if not saved["done"]:
        raise ValueError(f"the search in checkpoint {shown(path)} is not finished (it stopped after layer "
                         f"{len(saved['histogram']) - 1}): run it to its end to use it as a table")
    return saved["depths"], tuple(saved["histogram"])


def _record(cells: np.ndarray, dist: np.ndarray, nbytes: int, d: int, workers: int) -> None:
    """The layer just found, at distance d, into the distances mod 3, a chunk a thread."""
    interrupt.parallel([lambda lo=lo, hi=hi: record_layer(cells, dist, lo, hi, d)
                        for lo, hi in _ranges(nbytes, CHUNK // 4)], workers)


def _watch(cells: np.ndarray, watch: list[int], found: dict[int, int], d: int) -> None:
    from puzzlesearch.engine import layers_kernel as k
    for w in watch:
        if w not in found and k.get(cells, w) == k.CUR:
            found[w] = d


def _ranges(size: int, chunk: int) -> list[tuple[int, int]]:
    return [(lo, min(lo + chunk, size)) for lo in range(0, size, chunk)]


def _pull(cells, size, arrays, workers, meter, seen) -> int:
    k = passes(arrays[0])
    counts: list[int] = []

    def job(lo: int, hi: int) -> Callable[[], None]:
        return lambda: counts.append(k.pull(cells, lo, hi, *arrays))

    def tick() -> None:
        meter.update(seen + sum(counts))

    interrupt.parallel([job(lo, hi) for lo, hi in _ranges(size, CHUNK)], workers, tick)
    return sum(counts)


def _jobs(blocks: np.ndarray, size: int, workers: int) -> list[list[int]]:
    """Ranges of whole blocks holding about the same number of CUR states each (a few per
    thread), skipping blocks with none: jobs [lo, hi, where to go on] (LO, HI, AT)."""
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


def _push(cells, size, arrays, workers, meter, seen, blocks) -> int:
    """Every job on the threads at once: each push marks its images itself, wherever they
    lie (an atomic step each), so nothing waits for a round to end."""
    k = passes(arrays[0])
    jobs = _jobs(blocks, size, workers)
    counts = [np.zeros(2, dtype=np.int64) for _ in jobs]
    unused = np.empty(1, dtype=np.int64)  # a local push buffers nothing

    def job(item: list[int], c: np.ndarray) -> Callable[[], None]:
        return lambda: k.push(cells, item[LO], item[HI], item[AT], *arrays, unused, c)

    def tick() -> None:
        meter.update(seen + sum(int(c[MARKED]) for c in counts))

    interrupt.parallel([job(item, c) for item, c in zip(jobs, counts, strict=True)], workers, tick)
    return sum(int(c[MARKED]) for c in counts)


__all__ = ["NOT_REACHED", "read_table", "search"]
