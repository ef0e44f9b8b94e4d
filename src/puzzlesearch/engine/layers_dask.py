"""The breadth-first engine beyond one machine: the index range cut into partitions, each
held as a file, layers exchanged as sorted per-partition files (delayed duplicate
detection, after Korf, IJCAI 2003), tasks on a Dask cluster.

A partition file is a JSON header line (its range, the layer it holds, what that layer
found) and the 2 bits of each of its states, in engine.layers_kernel's encoding, with one
shift: after layer d is found, its states are NEXT and layer d - 1's are CUR.

Each layer d -> d + 1 is two rounds of tasks, one per partition:

* expand p: read partition p, list the images of its NEXT states, sort them, drop
  repeats, and write the share of each partition q to ``layer-{d+1}/p{p}-c{c}-q{q}.npy``
  (c: chunks of EMIT images); read only;
* merge q: read partition q, relabel it (CUR -> OLD, NEXT -> CUR), mark NEXT every
  UNSEEN state listed in the files for q, write it back (a temporary file, then renamed)
  with the count of new states: the layer's share of partition q.

So a partition costs its own bits in memory, and the network carries only the new
layers' files. The folder must be one that every worker and this process see (on one
machine any folder; on several a shared file system): the partitions live in
``CHECKPOINT.parts/`` with ``--checkpoint CHECKPOINT``, else in a temporary folder in
the current directory, removed at the end, however the run ends (Ctrl-C included).

Killed anywhere, the run resumes: the checkpoint file (the histogram so far) is written
before the partitions' folder is made, and after each layer's merges (so a
``CHECKPOINT.parts`` that exists without its checkpoint is no run's, and is refused before
any work); a marker file says a layer's expansions are all written, so a resumed run goes
straight to the merges; a partition already merged says so in its header and is not
merged twice.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from puzzlesearch.engine.layers_common import (
    BLOCK,
    FORMAT,
    Layers,
    check_space,
    describe,
    passes,
    read_header,
    space_hash,
    write_bits,
    write_checkpoint,
)
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.paths import replacing, show
from puzzlesearch.engine.progress import Meter
from puzzlesearch.engine.run import dask_client, deferred_interrupts
from puzzlesearch.engine.space import Space

PART_MAGIC = b"puzzlesearch layers partition\n"
EMIT = 1 << 22  # images per expansion chunk (32 MiB of ranks, and as much to sort them)
TASKS_PER_THREAD = 2  # partitions per cluster thread
MIN_PARTITION = 1 << 12  # states
RANKS = np.dtype("<i8")  # the layer files' ranks


def partitions(size: int, threads: int) -> list[tuple[int, int]]:
    """Ranges [lo, hi) covering 0..size-1, lo a multiple of 4 (whole bytes of bits)."""
    count = max(1, min(TASKS_PER_THREAD * max(threads, 1), size // MIN_PARTITION))
    share = ((size + count - 1) // count + 3) // 4 * 4
    return [(lo, min(lo + share, size)) for lo in range(0, size, share)]


# --- partition files ------------------------------------------------------------------------------------


def _part_path(folder: Path, p: int) -> Path:
    return folder / f"part-{p}.bits"


def _read_part(path: Path) -> tuple[dict, np.ndarray]:
    with open(path, "rb") as f:
        if f.read(len(PART_MAGIC)) != PART_MAGIC:
            raise ValueError(f"{show(path)} is not a partition of a puzzlesearch breadth-first search")
        head = json.loads(f.readline())
        offset = f.tell()
    cells = np.fromfile(path, dtype=np.uint8, offset=offset)
    if len(cells) != (head["hi"] - head["lo"] + 3) // 4:
        raise ValueError(f"partition {show(path)} is damaged; delete the folder to start afresh")
    return head, cells


def _write_part(path: Path, head: dict, cells: np.ndarray) -> None:
    write_bits(path, "partition", PART_MAGIC, head, cells)


@contextmanager
def _owning(folder: Path, p: int) -> Iterator[None]:
    """Partition p's file is read and rewritten by one task at a time. Two can run at once:
    Dask may run a task again while a worker it took for lost still runs it, and tasks
    a Ctrl-C cancelled keep running while the run is resumed. Without this, one that read
    the partition before the other wrote it, and listed the layer's files after the driver
    removed them, would write the partition back with the layer's new states missing.

    The lock file is opened without making its folder (filelock's FileLock makes it): a
    task still running after its run removed the folder fails here instead of leaving a
    new, empty folder behind. The in-process lock is for a worker's threads on a network
    file system, where flock is emulated by locks that one process holds for all its
    threads."""
    import portalocker  # the cluster extra's, as dask is

    path = folder / f"part-{p}.lock"
    with _THREADS_GUARD:
        threads = _THREADS.setdefault(str(path), threading.Lock())
    with threads, open(path, "a") as f:
        portalocker.lock(f, portalocker.LOCK_EX)
        try:
            yield
        finally:
            portalocker.unlock(f)


_THREADS: dict[str, threading.Lock] = {}  # a worker process's lock for each lock file it took
_THREADS_GUARD = threading.Lock()


def _save_array(path: Path, values: np.ndarray) -> None:
    with replacing(path, "partition") as tmp, open(tmp, "wb") as f:
        np.save(f, values.astype(RANKS, copy=False))  # a file object: np.save would add ".npy" to a name


def _load_array(path: Path) -> np.ndarray:
    """The ranks _save_array wrote. Not np.load: it reads the header with ast.literal_eval,
    and CPython 3.11's AST builder keeps one recursion count per interpreter, so two worker
    threads parsing at once can fail with "SystemError: AST constructor recursion depth
    mismatch". The header is only checked to be the one np.save writes for 1-d int64."""
    with open(path, "rb") as f:
        major, _ = np.lib.format.read_magic(f)
        width = 2 if major == 1 else 4
        size = int.from_bytes(f.read(width), "little")
        header = f.read(size).decode("latin1")
        offset = f.tell()
    shape = re.search(r"'shape': \((\d+),\)", header)
    if f"'descr': '{RANKS.str}'" not in header or "'fortran_order': False" not in header or not shape:
        raise ValueError(f"{show(path)} is not a file of ranks of a breadth-first search")
    ranks = np.fromfile(path, dtype=RANKS, offset=offset)
    if len(ranks) != int(shape[1]):
        raise ValueError(f"{show(path)} is damaged; delete the folder to start afresh")
    return ranks


# --- the tasks (module functions: the workers import them) --------------------------------------------


def init_task(folder: str, p: int, lo: int, hi: int, start: int) -> None:
    """Partition p, all unseen but the start (NEXT: layer 0); written unless it exists."""
    from puzzlesearch.engine import layers_kernel as k  # numba: on the workers, not in the client

    path = _part_path(Path(folder), p)
    with _owning(Path(folder), p):
        if path.exists():
            return
        cells = np.full((hi - lo + 3) // 4, 0xFF, dtype=np.uint8)
        for i in range(hi - lo, 4 * len(cells)):
            k.put(cells, i, k.OLD)
        if lo <= start < hi:
            k.put(cells, start - lo, k.NEXT)
        head = {"lo": lo, "hi": hi, "layer": 0, "count": int(lo <= start < hi), "found": {}}
        _write_part(path, head, cells)


def expand_task(folder: str, p: int, layer: int, bounds: list[tuple[int, int]], space: Space) -> int:
    """The images of partition p's NEXT states, sorted, split by partition, into files. The
    space travels, not its arrays: a puzzle of pieces' move tables are built on the worker,
    once per process (engine.pieces_tables)."""
    from puzzlesearch.engine import layers_kernel as k

    arrays = space.arrays()

    emit = passes(arrays[0]).emit
    head, cells = _read_part(_part_path(Path(folder), p))
    if head["layer"] == layer + 1:
        # merged already: a run stopped after the layer's merges, before its checkpoint
        # said so; merge_task returns what that merge found
        return 0
    if head["layer"] != layer:
        raise RuntimeError(f"partition {p} holds layer {head['layer']}, not {layer}")
    out = Path(folder) / f"layer-{layer + 1}"
    out.mkdir(exist_ok=True)
    lows = np.array([lo for lo, _ in bounds], dtype=np.int64)
    buf = np.empty(EMIT, dtype=np.int64)
    filled = np.zeros(1, dtype=np.int64)  # how much of buf a kernel call filled
    lo, hi = head["lo"], head["hi"]
    start, chunk, emitted = lo, 0, 0
    while start < hi:
        start = emit(cells, lo, hi, start, k.NEXT, *arrays, buf, filled)
        ranks = np.unique(buf[: filled[0]])
        emitted += len(ranks)
        cuts = np.searchsorted(ranks, lows)
        for q, (a, b) in enumerate(zip(cuts, [*cuts[1:], len(ranks)], strict=True)):
            if b > a:
                _save_array(out / f"p{p}-c{chunk}-q{q}.npy", ranks[a:b])
        chunk += 1
    return emitted


def merge_task(folder: str, q: int, layer: int, watch: list[int]) -> tuple[int, dict]:
    """Partition q moves to layer + 1: relabelled, the UNSEEN states listed for it marked
    NEXT. Returns (new states, {watched index: layer + 1}); a partition already merged
    returns what it found then."""
    from puzzlesearch.engine import layers_kernel as k

    path = _part_path(Path(folder), q)
    with _owning(Path(folder), q):
        head, cells = _read_part(path)
        if head["layer"] == layer + 1:
            return head["count"], {int(a): b for a, b in head["found"].items()}
        if head["layer"] != layer:
            raise RuntimeError(f"partition {q} holds layer {head['layer']}, not {layer}")
        lo, hi = head["lo"], head["hi"]
        nblocks = -(-(hi - lo) // BLOCK)
        k.relabel(cells, 0, nblocks, BLOCK // 4, np.zeros(nblocks, dtype=np.int64))
        new = 0
        for f in sorted((Path(folder) / f"layer-{layer + 1}").glob(f"p*-c*-q{q}.npy")):
            ranks = _load_array(f) - lo
            new += k.mark(cells, 0, hi - lo, ranks, len(ranks))
        found = {w: layer + 1 for w in watch if lo <= w < hi and k.get(cells, w - lo) == k.NEXT}
        _write_part(path, {**head, "layer": layer + 1, "count": int(new),
                           "found": {str(a): b for a, b in found.items()}}, cells)
    return int(new), found


def collect_task(folder: str, p: int, limit: int) -> tuple[list[int], int]:
    """The first `limit` states of the last layer (CUR after the final, empty merge) in
    partition p, and how many there are."""
    from puzzlesearch.engine import layers_kernel as k

    head, cells = _read_part(_part_path(Path(folder), p))
    out = np.empty(limit, dtype=np.int64)
    total = k.collect(cells, head["hi"] - head["lo"], k.CUR, limit, out)
    return [int(i) + head["lo"] for i in out[: min(limit, total)]], int(total)


# --- the driver -----------------------------------------------------------------------------------------


def search_on_cluster(space: Space, *, run: RunOptions, show_count: int = 10,
                      watch: Sequence[int] = ()) -> Layers:
    """engine.layers.search on the Dask cluster at run.scheduler (see the module docstring).

    Interrupted (Ctrl-C), the run's tasks are cancelled, the client is closed without a
    word (engine.run.dask_client) and a temporary folder is removed; ``CHECKPOINT.parts/``
    stays, for the run to resume from.
    """
    check_space(space, None)  # the index limit; memory is each worker's, a partition at a time
    t0 = time.perf_counter()
    ckpt = Path(run.checkpoint) if run.checkpoint is not None else None
    # Every worker must see the partitions: next to the checkpoint, else in a new folder of
    # the current directory, which on several machines is the shared file system the user
    # runs from (the system's temporary folder would be each machine's own). Absolute: the
    # workers' current folders are their own. Its name is known before it exists, so that
    # the run's end, however it comes, knows what to remove.
    name = f"{ckpt}.parts" if ckpt is not None else f"puzzlesearch-layers-{uuid.uuid4().hex}"
    folder = Path(name).resolve()
    if ckpt is not None:
        _check_parts_owned(ckpt, folder)
    made = False  # the temporary folder exists and is this run's
    try:
        with dask_client(run.scheduler) as cluster:
            threads = cluster.threads()
            saved = _read_meta(ckpt) if ckpt is not None else None
            bounds = [tuple(b) for b in saved["bounds"]] if saved else partitions(space.size, threads)
            params = {"format": FORMAT, "space": space.name, "start": space.start, "size": space.size,
                      "key": space_hash(space), "partitions": len(bounds)}
            if saved is not None and saved["params"] != params:
                raise ValueError(f"checkpoint {show(ckpt)} was made for another search: "
                                 f"{describe(saved['params'])}, not {describe(params)} on a cluster")
            if ckpt is not None:
                if saved is None:  # the checkpoint first: it vouches for the folder made next
                    _write_meta(ckpt, params, bounds, [1], {}, False)
                folder.mkdir(exist_ok=True)
            else:
                with deferred_interrupts():  # made and noted as one step
                    made = _make_folder(folder)
            hist = saved["histogram"] if saved else [1]
            found: dict[int, int] = saved["found"] if saved else {}
            done = bool(saved and saved["done"])
            watch = [int(w) for w in watch]
            if space.start in watch:
                found.setdefault(space.start, 0)
            resumed = len(hist) - 1 if saved else None

            def each(task: Any, *args: Any) -> list:
                """``task(folder, p, *args)`` for every partition p, on the cluster; the results."""
                return cluster.gather([cluster.submit(task, str(folder), p, *args)
                                       for p in range(len(bounds))])

            cluster.gather([cluster.submit(init_task, str(folder), p, lo, hi, space.start)
                            for p, (lo, hi) in enumerate(bounds)])
            with Meter(f"{space.name} on the cluster", space.size, space.unit, enabled=run.progress) as meter:
                meter.update(sum(hist), note=f"layer {len(hist) - 1}")
                while not done:
                    d = len(hist) - 1
                    layer_dir = folder / f"layer-{d + 1}"
                    marker = layer_dir / "EXPANDED"
                    if not marker.exists():
                        each(expand_task, d, bounds, space)
                        layer_dir.mkdir(exist_ok=True)  # no images at all: every partition merged
                        marker.write_text("every partition's images are written\n")
                    merged = each(merge_task, d, watch)
                    new = sum(c for c, _ in merged)
                    for _, f in merged:
                        found.update(f)
                    shutil.rmtree(layer_dir, ignore_errors=True)
                    done = new == 0
                    if not done:
                        hist.append(new)
                    meter.update(sum(hist), note=f"layer {len(hist) - 1}: {hist[-1]:,} {space.unit}")
                    if ckpt is not None:
                        _write_meta(ckpt, params, bounds, hist, found, done)
            parts = each(collect_task, show_count)
            far = [i for ids, _ in parts for i in ids][:show_count]
            total = sum(c for _, c in parts)
    finally:
        if made:  # a temporary folder: nothing to resume from
            _remove(folder)
    return Layers(tuple(hist), tuple(far), total, "t" * (len(hist) - 1), (space.size + 3) // 4, threads,
                  time.perf_counter() - t0, resumed, {w: found[w] for w in watch if w in found})


def _check_parts_owned(ckpt: Path, folder: Path) -> None:
    """Refuse (ValueError, one line) a CHECKPOINT.parts that exists while the checkpoint
    does not (or is empty): a run writes its checkpoint before it makes that folder, so
    this one is some other file or folder of the user's, which the run would write into.
    An empty folder holds nothing to lose: it is used."""
    if not os.path.lexists(folder) or _read_meta(ckpt) is not None:
        return
    if folder.is_dir() and not folder.is_symlink() and not any(folder.iterdir()):
        return
    raise ValueError(f"--checkpoint {show(ckpt)}: {show(f'{ckpt}.parts')} exists but no run with this "
                     "checkpoint made it; move it away or choose another --checkpoint")


def _make_folder(folder: Path) -> bool:
    """Make the run's temporary folder (True), or say in one line why it cannot be."""
    try:
        folder.mkdir(mode=0o700)
    except OSError as e:
        raise ValueError(f"the cluster's partitions need a folder the workers share, made in the current "
                         f"folder, but {show(folder)} cannot be made ({e.strerror or e}); run from a "
                         "writable shared folder, or give --checkpoint FILE") from None
    return True


def _remove(folder: Path) -> None:
    """Remove a run's temporary folder. A task that was already running when the run was
    cancelled may still write into it and add a file while it is emptied; it never makes
    the folder again (tasks make only files and layer folders inside it), so a few tries
    within a second leave nothing."""
    for _ in range(20):
        shutil.rmtree(folder, ignore_errors=True)
        if not folder.exists():
            return
        time.sleep(0.05)


def _write_meta(path: Path, params: dict, bounds: list, hist: list[int], found: dict[int, int],
                done: bool) -> None:
    meta_params = {**params, "bounds": [list(b) for b in bounds]}
    directions = "t" * (len(hist) - 1)
    write_checkpoint(path, meta_params, np.zeros(0, dtype=np.uint8), hist, directions, found, done)


def _read_meta(path: Path) -> dict[str, Any] | None:
    """A cluster run's checkpoint: its parameters, partitions and histogram; None when there
    is none yet (no file, or an empty one)."""
    header = read_header(path)
    if header is None:
        return None
    line = header[0]
    try:
        meta = json.loads(line)
        params = dict(meta["params"])
        bounds = params.pop("bounds", None)
        hist = [int(x) for x in meta["histogram"]]
    except (ValueError, KeyError, TypeError) as e:
        raise ValueError(f"checkpoint {show(path)} is damaged (its header: {e}); "
                         "delete it to start the run afresh") from None
    if bounds is None:
        raise ValueError(f"checkpoint {show(path)} was made for another search: "
                         f"{describe(params)} on one machine, not on a cluster")
    return {"params": params, "bounds": bounds, "histogram": hist, "done": bool(meta.get("done")),
            "found": {int(a): int(b) for a, b in meta.get("found", {}).items()}}


__all__ = ["partitions", "search_on_cluster"]
