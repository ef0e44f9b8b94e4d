"""What the breadth-first search on one machine (`layers`) and on a Dask cluster
(`layers_dask`) share: the result, the memory and index limits of a space, and the
checkpoint file.

A checkpoint is MAGIC, one JSON header line (the search's parameters, the histogram so far,
whether it is done) and, on one machine, the 2-bit array after it; a cluster's checkpoint
holds the header only (its partitions are files of their own, written the same way by
`write_bits`). A file is always written whole, to a temporary file renamed over it.

A search asked for its distances (``depths``, in its parameters) keeps a second 2-bit array
and writes it after the first: each state's distance mod 3 (NOT_REACHED for a state not
reached yet). The search's own array cannot give them (`layers_kernel`: it keeps only which
states are older than the last layer); with them, a shortest path is a walk down the table
(a neighbour whose distance is one less is the one whose value is one less, mod 3, when
every move is undone by a move, since neighbours' distances then differ by at most one).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from puzzlesearch.engine.memory import gib, require
from puzzlesearch.engine.paths import replacing, show
from puzzlesearch.engine.space import GROUP, PIECES, Space
from puzzlesearch.engine.store import LAYERS_COMMANDS, LAYERS_MAGIC, SQLITE_HEADER, canonical_json

BLOCK = 1 << 14  # states whose CUR count is kept, to deal a top-down pass out evenly
BUFFER = 1 << 22  # buffered far images of a top-down round, all threads together (32 MiB)
MAX_STATES = 1 << 40  # 256 GiB of bits: beyond any one machine here
MAGIC = LAYERS_MAGIC
FORMAT = 1
MAX_HEADER = 1 << 20
NOT_REACHED = 3  # a state's value in the distances mod 3 before the search reaches it


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


def passes(kind: int) -> ModuleType:
    """The kernels whose push, emit and pull search this kind of space (the first of
    Space.arrays): pieces_kernel for PIECES, group_kernel for GROUP, layers_kernel for the
    others. Loads numba."""
    if kind == GROUP:
        from puzzlesearch.engine import group_kernel

        return group_kernel
    if kind == PIECES:
        from puzzlesearch.engine import pieces_kernel

        return pieces_kernel
    from puzzlesearch.engine import layers_kernel

    return layers_kernel


# --- memory ---------------------------------------------------------------------------------------------


def buffered(states: int) -> int:
    """Far images a top-down round buffers, all threads together: BUFFER, or one for
    every 64 states of a smaller space (at least 4,096)."""
    return min(BUFFER, max(4096, states // 64))


def memory_needed_for(states: int, depths: bool = False) -> int:
    """Bytes a search of `states` allocates: the array and the buffers of far images, and
    the array of distances mod 3 when it keeps them."""
    return (states + 3) // 4 * (2 if depths else 1) + 8 * buffered(states)


def memory_needed(space: Space, depths: bool = False) -> int:
    """memory_needed_for the space's size, and the move tables of a puzzle of pieces."""
    return memory_needed_for(space.size, depths) + space.table_bytes


def check_space(space: Space, budget: int | None, depths: bool = False) -> int:
    """Refuse (ValueError, one line) a space beyond the index limit or the memory cap; else
    the bytes needed."""
    need = memory_needed(space, depths)
    if space.size > MAX_STATES:
        raise ValueError(f"{space.name} has {space.size:,} {space.unit}, beyond the {MAX_STATES:,} "
                         f"this breadth-first search indexes (it would need {gib(need)})")
    require(need, budget, f"full BFS of {space.name} ({space.size:,} {space.unit}, 2 bits each)")
    return need


# --- checkpoints ----------------------------------------------------------------------------------------


def space_hash(space: Space) -> str:
    """What identifies a space's moves and names in a checkpoint: 16 hex digits of its key."""
    return hashlib.sha256(canonical_json(space.key).encode()).hexdigest()[:16]


def read_header(path: Path) -> tuple[bytes, int, int] | None:
    """A checkpoint's JSON header line, where its bits start and the file's size; None when
    there is none yet (no file, or an empty one: what a run killed before its first layer
    leaves); ValueError for a file that is not a checkpoint or cannot be read."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(MAGIC))
            if not head:
                return None
            if head.startswith(SQLITE_HEADER):  # the checkpoints of engine.store
                raise ValueError(f"checkpoint {show(path)} belongs to another command, not to a "
                                 f"breadth-first search ({LAYERS_COMMANDS})")
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
    read_header(Path(path))


def read_checkpoint(path: Path, params: dict) -> dict | None:
    """The saved state of this search, None if there is none yet (see read_header);
    ValueError for a file that is not a checkpoint, is damaged, or belongs to another search."""
    header = read_header(path)
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
                         f"{describe(meta.get('params'))}, not {describe(params)}")
    arrays = 2 if params.get("depths") else 1
    if size != offset + arrays * nbytes or nbytes != (params["size"] + 3) // 4:
        raise ValueError(f"{damaged} ({size:,} bytes, expected {offset + arrays * nbytes:,}); "
                         "delete it to start the run afresh")
    both = np.fromfile(path, dtype=np.uint8, offset=offset)
    return {"cells": both[:nbytes], "depths": both[nbytes:] if arrays == 2 else None, "histogram": hist,
            "directions": str(meta.get("directions", "")),
            "found": {int(a): int(b) for a, b in meta.get("found", {}).items()},
            "done": bool(meta.get("done"))}


def describe(params: Any) -> str:
    """A checkpoint's search in a message: its space and start (and whether it keeps the
    distances)."""
    if not isinstance(params, dict) or "space" not in params:
        return "an unknown search"
    kept = " keeping distances mod 3" if params.get("depths") else ""
    return f"{params['space']} from index {params.get('start')}{kept}"


def write_checkpoint(path: Path, params: dict, cells: np.ndarray, hist: list[int], directions: str,
                     found: dict[int, int], done: bool, depths: np.ndarray | None = None) -> None:
    meta = {"params": params, "histogram": hist, "directions": directions, "bytes": int(cells.nbytes),
            "found": {str(a): b for a, b in found.items()}, "done": done}
    write_bits(path, "--checkpoint", MAGIC, meta, cells, depths)


def write_bits(path: Path, what: str, magic: bytes, head: dict, cells: np.ndarray,
               more: np.ndarray | None = None) -> None:
    """A file of 2-bit states, whole and on disk before it replaces the old one: `magic`,
    `head` as one JSON line, then the bytes of `cells` (and of `more`)."""
    with replacing(path, what) as tmp, open(tmp, "wb") as f:
        f.write(magic + json.dumps(head).encode() + b"\n")
        cells.tofile(f)
        if more is not None:
            more.tofile(f)
        f.flush()
        os.fsync(f.fileno())


#: per byte of the search's array: the mask of its states that are in the current layer
#: (layers_kernel's CUR, 1); per distance mod 3: that value in all four states of a byte
_CUR_MASK = np.array([sum(3 << (2 * s) for s in range(4) if (b >> (2 * s)) & 3 == 1) for b in range(256)],
                     dtype=np.uint8)
_FILL = np.array([0x00, 0x55, 0xAA], dtype=np.uint8)


def record_layer(cells: np.ndarray, depths: np.ndarray, lo: int, hi: int, distance: int) -> None:
    """Write distance mod 3 into `depths` for the states of bytes lo..hi-1 that `cells`
    holds in the current layer: one table lookup a byte (numpy, which lets go of the GIL)."""
    mask = _CUR_MASK[cells[lo:hi]]
    part = depths[lo:hi]
    part ^= (part ^ _FILL[distance % 3]) & mask


def depth(depths: np.ndarray, i: int) -> int:
    """State i's distance mod 3 in an array of `record_layer`, or NOT_REACHED."""
    return (int(depths[i >> 2]) >> ((i & 3) << 1)) & 3


def stored_census_answers(stored: object, show: int) -> bool:
    """Whether a census kept in the results store (its histogram, farthest states and how
    the layers ran) answers a request for the first `show` farthest states: it lists that
    many, or all there are. A damaged entry answers nothing, and the census runs again."""
    if not isinstance(stored, dict) or not {"histogram", "farthest", "farthest_count", "directions",
                                            "workers"} <= set(stored):
        return False
    return len(stored["farthest"]) >= min(show, stored["farthest_count"])


__all__ = ["BLOCK", "BUFFER", "FORMAT", "MAGIC", "MAX_STATES", "NOT_REACHED", "Layers", "buffered",
           "check_checkpoint", "check_space", "depth", "describe", "memory_needed",
           "memory_needed_for", "passes", "read_checkpoint", "read_header", "record_layer", "space_hash",
           "stored_census_answers", "write_bits", "write_checkpoint"]
