"""Take-and-break games (octal games and Grundy's game): the values of heaps 0..N-1 and the
period they prove, computed by the kernels of ``takebreak_kernel`` (heap by heap, the
rare/common split) and ``blocks_kernel`` (blocks of heaps on several threads).

A computation's arrays travel from one call to the next in a TakeBreakState. The driver
(takebreak_values) cuts the heaps into ranges, so that a long run shows its progress, sees
Ctrl-C and is checkpointed between them; a kernel that stops because the rare arrays are
full has them grown (within the memory cap) and is called again from where it stopped. A
checkpoint (TakeBreakCheckpoint) keeps each finished range's state in the engine's SQLite
checkpoint and its values in a file beside it, which must prove that it is whole on resume.
The period is proven by the octal periodicity theorem (``periods.octal_period``).
"""

from __future__ import annotations

import os
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from puzzlesearch.engine import figures, interrupt
from puzzlesearch.engine.failures import CheckFailed
from puzzlesearch.engine.memory import require
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.params import flag
from puzzlesearch.engine.paths import check_writable, show, target
from puzzlesearch.engine.progress import Meter
from puzzlesearch.engine.store import Checkpoint

from .blocks_kernel import (
    BLOCK,
    BLOCK_BYTES,
    BLOCK_FROM,
    CURSOR_SLOTS,
    RARE_FOR_BLOCKS,
    SHARED,
    WINDOW,
    takebreak_block_finish,
    takebreak_block_partial,
)
from .limits import HEAP_BYTES, RARE_BYTES, VALUE_BYTES, VALUE_LIMIT
from .periods import octal_period
from .rules import OctalCode
from .takebreak_kernel import (
    CARRIED,
    DENSE_PROBES,
    FIRST_CHOICE,
    FULL,
    LARGEST,
    MASK,
    NEW_RARE_VALUES,
    NEXT_CHOICE,
    OVERFLOW,
    RARE_COUNT,
    RARE_HEAPS,
    RARE_MASK,
    RARE_NEEDED,
    RARE_SEARCHES,
    RESUME_AT,
    SCALARS,
    STATS,
    STOP,
    list_rare,
    rechoose,
    takebreak_range,
)

#: rare heaps the first rare arrays hold (they double when full: TakeBreakState.grow)
FIRST_RARE = 1 << 16


@dataclass(frozen=True)
class TakeBreakValues:
    """G(0..count-1) of a take-and-break game, with the periodicity found (octal games).

    Attributes:
        game: The game's code ("0.77", "hex:0.F", "grundys").
        count: The heaps computed: 0..count-1.
        values: G(n) of each heap n (not shown in the repr).
        max_value: The largest value.
        period: The least period the octal periodicity theorem proves within the values
            (None: not proven yet).
        preperiod: The heap the period starts at (None: no period).
        rare_mask: The mask of the rare/common split: a value v is rare when v & mask
            has even parity (0: the plain mex was used).
        rare_heaps: The heaps with a rare value.
        new_rare_values: The heaps whose value was rare and reached by no pair with a
            rare part: found by a search of every split.
        seconds: The time the values took.
    """

    game: str
    count: int
    values: np.ndarray = field(repr=False)
    max_value: int
    period: int | None
    preperiod: int | None
    rare_mask: int
    rare_heaps: int
    new_rare_values: int
    seconds: float

    def _repr_svg_(self) -> str | None:
        """A notebook shows the values against the heap (pictures.values_figure; None
        without matplotlib)."""
        from . import pictures

        return figures.notebook_svg(pictures.values_figure, self)

    def to_json(self, values: bool = True) -> dict:
        """The fields as JSON values.

        Args:
            values: Include the values (False: all fields but the values, for a caller
                that writes them itself).
        """
        values = flag(values, "values")
        obj = {"game": self.game, "count": self.count}
        if values:
            obj["values"] = self.values.tolist()
        obj.update({
            "max_value": self.max_value,
            "period": self.period,
            "preperiod": self.preperiod,
            "rare_mask": self.rare_mask,
            "rare_heaps": self.rare_heaps,
            "seconds": round(self.seconds, 4),
        })
        return obj


class TakeBreakState:
    """Arrays a take-and-break computation carries from one range of heaps to the next.

    Values are uint16 (VALUE_LIMIT = 2^15): 2 bytes a heap. The rare heaps (those whose
    value v has parity(v & mask) = 0, under the mask chosen) are listed with their values;
    those arrays start small and double when the kernel says they are full (stats[STOP] ==
    FULL, with the heap to resume from in scalars[RESUME_AT] and the room needed in
    scalars[RARE_NEEDED]). The slots of `scalars` and `stats` are named in takebreak_kernel.
    """

    def __init__(self, count: int, rare: int = FIRST_RARE) -> None:
        self.g = np.zeros(max(count, 1), np.uint16)
        self.stamp = np.full(VALUE_LIMIT + 1, -1, np.int64)  # stamp[v] == n: v is an option of heap n
        self.hist = np.zeros(VALUE_LIMIT, np.int64)  # how many heaps have each value
        self.rare = np.empty(rare, np.int32)  # the rare heaps, ascending
        self.rare_value = np.empty(rare, np.uint16)  # g[rare[s]], read sequentially
        # no rare heap listed, mask 0 (every heap is rare, and none is listed), largest value 0
        self.scalars = np.zeros(SCALARS, np.int64)
        self.scalars[NEXT_CHOICE] = FIRST_CHOICE
        self.stats = np.zeros(STATS, np.int64)
        self.reach = np.zeros((1, VALUE_LIMIT // 64 + 1), np.uint64)  # takebreak_advance's bitmap of options
        self.rows: np.ndarray | None = None  # takebreak_advance's phase-one bitmaps, a row per heap
        self.cursors: np.ndarray | None = None  # where phase one's search stopped, a row per heap

    def grown_size(self) -> int:
        """The rare arrays' size after grow(): doubled until they hold the rare heaps asked for
        (scalars[RARE_NEEDED])."""
        size = len(self.rare)
        while size < self.scalars[RARE_NEEDED]:
            size *= 2
        return size

    def grow(self) -> int:
        """Room for at least the rare heaps the kernel asked for (grown_size); the new size."""
        size = self.grown_size()
        rare = np.empty(size, np.int32)
        value = np.empty(size, np.uint16)
        n = int(self.scalars[RARE_COUNT])
        rare[:n], value[:n] = self.rare[:n], self.rare_value[:n]
        self.rare, self.rare_value = rare, value
        self.stats[STOP] = 0
        return size


def heap_by_heap(digits: np.ndarray, unequal: bool, count: int, probes: int = DENSE_PROBES
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Values g[0..count-1] of the take-and-break game with octal digits `digits`, in one go,
    heap by heap (takebreak_range, on one thread, without blocks).

    `unequal`: the two heaps of a split must differ in size (Grundy's game); `probes`: see
    takebreak_kernel._dense_mex. Returns (g, stats) (stats: its slots in takebreak_kernel);
    stats[STOP] == OVERFLOW means a value reached VALUE_LIMIT and g is incomplete.
    """
    st = TakeBreakState(count)
    start = 0
    while True:
        takebreak_range(digits, unequal, start, count, st.g, st.stamp, st.hist, st.rare, st.rare_value,
                        st.scalars, st.stats, probes)
        if st.stats[STOP] != FULL:
            return st.g[:count], st.stats
        start = int(st.scalars[RESUME_AT])
        st.grow()


def takebreak_advance(digits: np.ndarray, unequal: bool, start: int, end: int, st: TakeBreakState,
                      workers: int = 1, block_from: int = BLOCK_FROM, block: int = BLOCK,
                      window: int = WINDOW, shared_rows: int = SHARED, rare_for_blocks: int = RARE_FOR_BLOCKS
                      ) -> None:
    """Fill st.g[start:end], as takebreak_range does (and stopping as it does), on `workers`
    threads: heaps from `block_from` on go in blocks of `block`, each in two phases. Phase one
    (takebreak_block_partial) does, side by side for every heap of the block, the splits
    whose parts are both below the block, the bulk of the work; phase two
    (takebreak_block_finish) adds, heap after heap, the splits with a part in the block.
    With mask 0 (_dense_mex), or while fewer than `rare_for_blocks` heaps are rare, heaps go
    one by one all the same. `window` and `shared_rows`: see takebreak_block_partial."""
    block = min(block, block_from)
    n = start
    sc = st.scalars
    pool = ThreadPoolExecutor(workers) if workers > 1 else None
    try:
        while n < end:
            if n >= block_from and n == sc[NEXT_CHOICE]:  # (below block_from takebreak_range does it)
                mask, k, need = rechoose(n, st.g, st.hist, sc[LARGEST], sc[MASK], sc[RARE_COUNT], st.rare,
                                         st.rare_value)
                if need:
                    st.stats[STOP] = FULL
                    sc[RESUME_AT], sc[RARE_NEEDED] = n, need
                    return
                sc[MASK], sc[RARE_COUNT] = mask, k
                sc[NEXT_CHOICE] *= 2
            if n < block_from or sc[MASK] == 0 or sc[RARE_COUNT] < rare_for_blocks:
                # one by one: below block_from; with mask 0 (_dense_mex settles a heap in about
                # one vectorized pass over its splits); or with few rare heaps (Kayles, 0.1777,
                # ...): a heap costs little, while a block's first phase would miss the splits
                # with a small part that it needs
                stop = min(end, block_from if n < block_from else int(sc[NEXT_CHOICE]))
                takebreak_range(digits, unequal, n, stop, st.g, st.stamp, st.hist, st.rare, st.rare_value,
                                sc, st.stats)
                if st.stats[STOP]:
                    return
                n = stop
                continue
            n1 = min(end, n + block, int(sc[NEXT_CHOICE]))
            bits = max(int(sc[LARGEST]).bit_length(), 6)
            words = 1 << (bits - 6)
            if st.rows is None or st.rows.shape[0] < block or st.rows.shape[1] < words:
                st.rows = np.empty((block, words), np.uint64)
                st.cursors = np.empty((block, CURSOR_SLOTS), np.int64)
            mask, n_rare = int(sc[MASK]), int(sc[RARE_COUNT])
            cuts = np.linspace(n, n1, (workers if pool else 1) + 1).astype(np.int64)
            jobs = [(int(a), int(b)) for a, b in zip(cuts[:-1], cuts[1:], strict=True) if b > a]

            def partial(job: tuple[int, int], n0: int = n, mask: int = mask, n_rare: int = n_rare,
                        words: int = words) -> None:
                takebreak_block_partial(digits, unequal, n0, job[0], job[1], st.g, st.rare, st.rare_value,
                                        n_rare, mask, words, st.rows, st.cursors, window, shared_rows)

            if pool is None:
                partial(jobs[0])
            else:
                list(pool.map(partial, jobs))
            takebreak_block_finish(digits, unequal, n, n, n1, words, st.rows, st.cursors, st.g, st.hist,
                                   st.rare, st.rare_value, st.reach, sc, st.stats)
            if st.stats[STOP]:
                return
            n = n1
    finally:
        if pool is not None:
            pool.shutdown()
    sc[RESUME_AT] = end


def takebreak_values(game: str, label: str, digits: tuple[int, ...], unequal: bool, count: int,
                     t: int | None, run: RunOptions) -> TakeBreakValues:
    """Values of heaps 0..count-1 (1 <= count <= COUNT_MAX) of the take-and-break game with octal
    digits `digits` (`unequal`: a split leaves heaps of different sizes), and the period the
    octal periodicity theorem proves from them with t the most tokens a move removes (None:
    no period looked for). `game` names it in a checkpoint and a message, `label` in the
    progress and the memory messages."""
    first_rare = min(FIRST_RARE, count + 1)
    fixed = HEAP_BYTES * count + VALUE_BYTES + (BLOCK_BYTES if count > BLOCK_FROM else 0)
    # threads for the heaps from BLOCK_FROM on (below it the values come one by one)
    threads = run.workers_for(quick=count <= BLOCK_FROM) or 1
    require(fixed + RARE_BYTES * first_rare, run.memory, f"{label} to {count:,} heaps")
    t0 = time.perf_counter()
    d = np.array(digits, np.int64)
    st = TakeBreakState(count, first_rare)
    # ranges of heaps, so that a long run shows its progress, sees Ctrl-C and is
    # checkpointed between them
    bounds = np.linspace(0, count, min(1000, count // (1 << 16)) + 2).astype(np.int64)
    bounds = np.unique(bounds)
    ranges = [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
    ckpt = None
    first = 0  # the first range still to compute
    try:
        if run.checkpoint is not None:
            ckpt = TakeBreakCheckpoint(run.checkpoint, game, digits, unequal, count, ranges)
            first = ckpt.restore(st, fixed, run.memory, label)
        with Meter(label, count, "heaps", run.progress) as meter:
            if first:  # resumed: the finished ranges count as done
                meter.update(ranges[first][0] if first < len(ranges) else count)
            for index in range(first, len(ranges)):
                start, end = ranges[index]
                at = int(start)
                while True:
                    interrupt.call(takebreak_advance, d, unequal, at, int(end), st, threads)
                    if st.stats[STOP] == OVERFLOW:
                        raise OverflowError(f"{game}: a value reached {VALUE_LIMIT}, beyond this program's "
                                            "limit")
                    if st.stats[STOP] != FULL:
                        break
                    at = int(st.scalars[RESUME_AT])
                    rare = f"{int(st.scalars[RARE_NEEDED]):,} rare heaps at heap {at:,}"
                    _grow_rare(st, fixed, run.memory, f"{label} to {count:,} heaps ({rare})")
                if ckpt is not None:
                    ckpt.save(index, st)
                meter.update(int(end))
    finally:
        if ckpt is not None:
            ckpt.db.close()
    g, stats = st.g[:count], st.stats
    period = preperiod = None
    if t is not None:
        p, e = interrupt.call(octal_period, g, t)
        if p:
            period, preperiod = int(p), int(e)
    g.setflags(write=False)
    return TakeBreakValues(
        game=game,
        count=count,
        values=g,
        max_value=int(g.max()),
        period=period,
        preperiod=preperiod,
        rare_mask=int(stats[RARE_MASK]),
        rare_heaps=int(stats[RARE_HEAPS]),
        new_rare_values=int(stats[NEW_RARE_VALUES]),
        seconds=time.perf_counter() - t0,
    )


def octal_values(game: OctalCode, count: int, run: RunOptions) -> TakeBreakValues:
    """takebreak_values of an octal game, its period proven by the octal periodicity theorem."""
    label = f"octal game {game.code}"
    return takebreak_values(game.code, label, game.digits, False, count, game.max_take, run)


def grundys_values(count: int, run: RunOptions) -> TakeBreakValues:
    """takebreak_values of Grundy's game (split a heap into two unequal heaps): no period looked for."""
    return takebreak_values("grundy's game", "Grundy's game", (4,), True, count, None, run)


def _grow_rare(st: TakeBreakState, fixed: int, memory: int | None, what: str) -> None:
    """Grow the rare arrays to hold the rare heaps asked for, once the grown total (`fixed`
    bytes and the arrays) is within the memory cap."""
    require(fixed + RARE_BYTES * st.grown_size(), memory, what)
    st.grow()


def _check_values_owned(path: str) -> None:
    """Refuse (ValueError, one line) a values file beside a checkpoint that does not exist
    yet (or is empty): no run with this checkpoint made it, so it is some other file of the
    user's, which the run would overwrite. Beside an existing checkpoint it is the run's own,
    and the resume checks it against the checkpoint's records."""
    values = target(f"{path}.values")
    if not values.exists():
        return
    checkpoint = target(path)
    if checkpoint.exists() and checkpoint.stat().st_size > 0:
        return
    raise ValueError(f"--checkpoint {show(path)}: {show(f'{path}.values')} exists but no run with this "
                     "checkpoint made it; move it away or choose another --checkpoint")


#: what a finished range's record holds: the kernel's state, and what vouches for its values
_RANGE_RECORD = {"scalars", "searches", "values", "crc32", "largest"}


class TakeBreakCheckpoint:
    """A take-and-break run's checkpoint: the engine's Checkpoint (SQLite) holds one task
    per range of heaps, whose result is the kernel's state after it (mask, largest value,
    ...); the values themselves go to CHECKPOINT.values (2 bytes a heap, written and
    flushed to disk before the range is recorded). A resumed run reads the values of the
    finished ranges back, and rebuilds the histogram and the rare heaps from them.

    The values file must prove that it is whole: each range's record vouches for its values
    with their count (the heaps 0..end-1 done), a CRC-32 of the range's bytes (computed once,
    when the range is flushed: 2 MB a range) and the largest value so far. On resume the
    file's first `end` values must match every finished range's CRC-32 and the largest value
    recorded, which is below VALUE_LIMIT; otherwise the run is refused in one line (ValueError,
    exit 2) naming what does not match: the values are never recomputed behind the user's
    back, nor trusted. Values past the last recorded range (a run killed between flushing a
    range and recording it) are ignored and overwritten. The check reads every value once per
    resume: CRC-32 runs at about 1.5 GB/s, so 10^9 values (2 GB) take about 1.3 s more.
    """

    def __init__(self, path: str, game: str, digits: tuple[int, ...], unequal: bool, count: int,
                 ranges: list[tuple[int, int]]):
        check_writable(f"{path}.values", "--checkpoint's values file")  # before the checkpoint is made
        _check_values_owned(path)
        params = {"puzzle": "grundy-takebreak", "game": game, "digits": list(digits), "unequal": unequal,
                  "count": count}
        self.db = Checkpoint(path, params, [list(r) for r in ranges])
        self.ranges = ranges
        self.values = Path(f"{path}.values")

    def _refused(self, why: str) -> ValueError:
        return ValueError(f"checkpoint {self.db.path}: the values file {self.values} does not match its "
                          f"checkpoint ({why}); delete both to start afresh")

    def restore(self, st: TakeBreakState, fixed: int, memory: int | None, label: str) -> int:
        """Put the finished ranges' state into `st`; the index of the first range left."""
        done = self.db.done()
        first = 0
        while first in done:
            first += 1
        if first == 0:
            self.values.unlink(missing_ok=True)
            self.values.touch()
            return 0
        end = self.ranges[first - 1][1]
        states = [done[i] for i in range(first)]
        if any(not isinstance(s, dict) or not _RANGE_RECORD <= s.keys() for s in states):
            raise ValueError(f"checkpoint {self.db.path} records no checksum of its values file (made by "
                             "another version of the program); delete both to start afresh")
        try:
            with open(self.values, "rb") as f:
                raw = f.read(2 * end)
        except OSError as e:
            raise ValueError(f"checkpoint {self.db.path}: cannot read {self.values}: {e.strerror}") from None
        if len(raw) < 2 * end:
            raise self._refused(f"it holds {len(raw) // 2:,} values, not the {end:,} recorded")
        view = memoryview(raw)
        for (start, stop), state in zip(self.ranges[:first], states, strict=True):
            if state["values"] != stop:
                raise self._refused(f"the record of heaps {start:,}..{stop - 1:,} counts {state['values']} "
                                    f"values, not {stop:,}")
            if zlib.crc32(view[2 * start: 2 * stop]) != state["crc32"]:
                raise CheckFailed("the CRC-32 of the checkpoint's values",
                                  f"{self.values}: heaps {start:,}..{stop - 1:,} differ from their CRC-32 in "
                                  f"{self.db.path}; delete both to start afresh")
        st.g[:end] = np.frombuffer(raw, np.uint16)
        largest = int(st.g[:end].max())
        if largest >= VALUE_LIMIT:
            raise self._refused(f"it holds the value {largest:,}; values stay below {VALUE_LIMIT:,}")
        if largest != states[-1]["largest"]:
            raise self._refused(f"its largest value is {largest:,}, not the {states[-1]['largest']} recorded")
        state = states[-1]
        sc = st.scalars
        sc[:CARRIED] = state["scalars"]
        sc[RESUME_AT] = end
        st.stats[RARE_SEARCHES:] = state["searches"]
        st.hist[:] = np.bincount(st.g[:end], minlength=VALUE_LIMIT)[:VALUE_LIMIT]
        mask = int(sc[MASK])
        if mask:
            need = int(list_rare(st.g, end, mask, st.rare, st.rare_value))
            if need > len(st.rare):
                sc[RARE_COUNT], sc[RARE_NEEDED] = 0, need
                _grow_rare(st, fixed, memory, f"{label} ({need:,} rare heaps, resumed)")
                list_rare(st.g, end, mask, st.rare, st.rare_value)
            sc[RARE_COUNT] = need
        st.stats[RARE_MASK], st.stats[RARE_HEAPS] = mask, (need if mask else end)
        return first

    def save(self, index: int, st: TakeBreakState) -> None:
        start, end = self.ranges[index]
        data = st.g[start:end].tobytes()
        with open(self.values, "r+b") as f:
            f.seek(2 * start)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        state = {"scalars": [int(x) for x in st.scalars[:CARRIED]],
                 "searches": [int(x) for x in st.stats[RARE_SEARCHES:]],
                 "values": int(end), "crc32": zlib.crc32(data), "largest": int(st.scalars[LARGEST])}
        self.db.record(index, list(self.ranges[index]), state)


__all__ = ["FIRST_RARE", "TakeBreakCheckpoint", "TakeBreakState", "TakeBreakValues", "grundys_values",
           "heap_by_heap", "octal_values", "takebreak_advance", "takebreak_values"]
