"""The public API of the Sprague-Grundy games: the general engine (from ``general``) and
the built-in games' tables: check the parameters, allocate, call a kernel, return a
result.

Each table function returns a numpy array (read-only) or a small frozen dataclass whose
values are a read-only numpy array (``.tolist()`` for plain lists). Every limit of the
`puzzlesearch grundy` commands is here, and a refused parameter raises ValueError with
the line the command prints; sizes and memory are checked before anything is allocated.

    >>> from puzzlesearch.games import Sum, impartial, octal_values, grundys_values
    >>> @impartial
    ... def nim(heap):
    ...     return range(heap)
    >>> nim.grundy(Sum(3, 4, 5)), nim.winning_move(Sum(3, 4, 5))
    (2, Sum(1, 4, 5))
    >>> r = octal_values("0.77", 1000)
    >>> r.values[:12].tolist(), r.period, r.preperiod
    ([0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6], 12, 71)
    >>> grundys_values(21).values.tolist()
    [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0]
    >>> popcount_values(7, 64).values[-1]
    23734709
    >>> int(cutting_table(200)[4, 2]), int(digits_table(10**6)[10])
    (1, 0)
    >>> cutting_answers("2 2\\n3 2\\n4 2\\n").answers
    ('LOSE', 'LOSE', 'WIN')
    >>> grundys_values(0)
    Traceback (most recent call last):
    ...
    ValueError: --count must be between 1 and 1,000,000,000, got 0
"""

from __future__ import annotations

import os
import re
import time
import zlib
from dataclasses import dataclass, field
from math import comb
from pathlib import Path

import numpy as np

from puzzlesearch.engine import interrupt
from puzzlesearch.engine.memory import require
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.params import whole as _whole
from puzzlesearch.engine.progress import Meter

from . import kernels
from .general import ImpartialGame, Sum, impartial, mex
from .position import GRUNDYS, HEAPS_MAX, Move, PositionMoves, parse_game, parse_heaps, position_moves
from .rules import (
    SUBTRACTION_MAX,
    SUBTRACTION_SIZE_MAX,
    OctalCode,
    SubtractionSet,
    parse_hex,
    parse_octal,
    parse_subtraction,
)
from .subtraction import SubtractionValues, subtraction_values

CUTTING_MAX = 200  # the judge's largest sheet side (POJ 2311)
CUTTING_TABLE_MAX = 4000  # the largest table cutting_table computes
DIGITS_MAX = 1_000_000  # the judge's largest N (USACO 2009)
DIGITS_TABLE_MAX = 10**9  # the largest table digits_table computes (1 byte a value)
DIGITS_GAMES_MAX = 10**7  # the judge's G: numbers on stdin
COUNT_MAX = 10**9  # heaps of an octal game or Grundy's game (2 bytes each and the rare heaps: about 2 GiB)
POPCOUNT_BITS = 64
POPCOUNT_MEMORY = 1 << 28  # bytes for the bitmaps of reachable XORs (7 parts need 32 MiB)
#: bytes per heap of a take-and-break computation: its value (uint16); the rare heaps
#: take kernels.RARE_BYTES more each, in arrays that grow (checked against the cap as they do)
HEAP_BYTES = 2
#: the arrays indexed by value: stamp and hist (int64)
VALUE_BYTES = 16 * (kernels.VALUE_LIMIT + 1)

DEFAULT_RUN = RunOptions()  # frozen, so one shared default is safe


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


# ---------------------------------------------------------------- cutting, digits


def cutting_table(n: int = CUTTING_MAX) -> np.ndarray:
    """G(w, h) of the cutting game for 2 <= w, h <= n (rows/columns 0, 1 unused)."""
    n = _whole(n, "cutting table size")
    if not 2 <= n <= CUTTING_TABLE_MAX:
        raise ValueError(f"cutting table size {n} outside 2..{CUTTING_TABLE_MAX}")
    return _frozen(interrupt.call(kernels.cutting_kernel, n))


def digits_table(n_max: int = DIGITS_MAX, *, run: RunOptions = DEFAULT_RUN) -> np.ndarray:
    """G(n) of the Cow Digit Game for 0 <= n <= n_max; the first player wins iff G(n) > 0."""
    n_max = _whole(n_max, "digit game limit")
    if not 0 <= n_max <= DIGITS_TABLE_MAX:
        raise ValueError(f"digit game limit {n_max} outside 0..10^9")
    require(n_max + 1, run.memory, f"the digit game table to {n_max:,}")
    return _frozen(interrupt.call(kernels.digits_kernel, n_max))


@dataclass(frozen=True)
class Answers:
    """A judge's input answered in its order: each game (a sheet (W, H) or a number N)
    and the judge's word for it (WIN/LOSE, YES/NO: the player to move wins or not)."""

    games: tuple
    answers: tuple[str, ...]


def _lines(text: str) -> list[tuple[int, str]]:
    """Non-blank lines with their 1-based line numbers."""
    return [(i, s.strip()) for i, s in enumerate(text.splitlines(), 1) if s.strip()]


def _judge_int(token: str, lineno: int, what: str, lo: int, hi: int) -> int:
    if not re.fullmatch(r"[+-]?[0-9]+", token):  # int() would also take '1_000' and non-ASCII digits
        raise ValueError(f"line {lineno}: {what} must be an integer, got {token!r}")
    v = int(token)
    if not lo <= v <= hi:
        raise ValueError(f"line {lineno}: {what} = {v} is outside {lo}..{hi:,}")
    return v


def cutting_answers(text: str) -> Answers:
    """POJ 2311's input (lines 'W H', 2 <= W, H <= 200) answered WIN or LOSE each. All
    of it is checked first: a bad line is a ValueError naming it."""
    games = []
    for lineno, line in _lines(text):
        tokens = line.split()
        if len(tokens) != 2:
            raise ValueError(f"line {lineno}: expected two integers 'W H', got {line!r}")
        w = _judge_int(tokens[0], lineno, "W", 2, CUTTING_MAX)
        h = _judge_int(tokens[1], lineno, "H", 2, CUTTING_MAX)
        games.append((w, h))
    if not games:
        return Answers((), ())
    g = cutting_table(max(max(w, h) for w, h in games))
    return Answers(tuple(games), tuple("WIN" if g[w, h] else "LOSE" for w, h in games))


def digits_answers(text: str) -> Answers:
    """USACO 2009's input (G, then G numbers 1..1,000,000) answered YES or NO each. All
    of it is checked first: a bad line is a ValueError naming it."""
    lines = _lines(text)
    if not lines:
        raise ValueError("line 1: missing the number of games G")
    first, line = lines[0]
    count = _judge_int(line, first, "G", 0, DIGITS_GAMES_MAX)
    numbers = []
    for lineno, line in lines[1:]:
        if len(numbers) == count:
            raise ValueError(f"line {lineno}: more numbers than G = {count}")
        numbers.append(_judge_int(line, lineno, "N", 1, DIGITS_MAX))
    if len(numbers) < count:
        raise ValueError(f"line {lines[-1][0] + 1}: expected {count} numbers after G, got {len(numbers)}")
    if not numbers:
        return Answers((), ())
    g = digits_table(max(numbers))
    return Answers(tuple(numbers), tuple("YES" if g[n] else "NO" for n in numbers))


# ---------------------------------------------------------------- popcount game


@dataclass(frozen=True)
class PopcountValues:
    """G(k) for k = 0..max_k set bits when a number becomes 1..parts numbers with fewer bits."""

    parts: int
    values: tuple[int, ...]
    seconds: float


def popcount_values(parts: int = 7, max_k: int = POPCOUNT_BITS) -> PopcountValues:
    """G(k) = mex of the XORs of multisets of 1..parts values G(k'), k' < k.

    Method: bitmaps R_j of the XORs of at most j of the values found so far (G(0) = 0
    pads a multiset, so "at most" equals "1 to"). G(k) is the least number missing from
    R_parts; then R_j |= G(k) XOR R_(j-1) for j = parts..1 adds the new value. The
    bitmaps double whenever a value needs another bit; using G(k) twice cancels, so
    each update is one XOR-translation per level. A doubling beyond POPCOUNT_MEMORY is
    refused before it is allocated (the values, so the sizes, are not known sooner).
    """
    parts, max_k = _whole(parts, "--parts"), _whole(max_k, "--max-k")
    if parts < 1:
        raise ValueError(f"--parts must be at least 1, got {parts}")
    if not 0 <= max_k <= POPCOUNT_BITS:
        raise ValueError(f"--max-k must be between 0 and {POPCOUNT_BITS}, got {max_k}")
    t0 = time.perf_counter()
    asked = parts
    parts = min(parts, max(max_k, 1))  # more parts than non-zero values add no new XOR
    levels = np.zeros((parts + 1, 1), np.uint64)
    levels[:, 0] = 1  # only 0 is reachable with the values {G(0)} = {0}
    values = [0]
    for k in range(1, max_k + 1):
        g = int(kernels.first_zero_kernel(levels[parts]))
        values.append(g)
        words = levels.shape[1]
        need = max(1, (1 << g.bit_length()) // 64)
        if need > words:
            if (parts + 1) * need * 8 > POPCOUNT_MEMORY:
                raise ValueError(
                    f"G({k}) = {g} needs bitmaps of 2^{g.bit_length()} bits per level, over the "
                    f"{POPCOUNT_MEMORY >> 20} MiB limit; try fewer --parts or a smaller --max-k"
                )
            grown = np.zeros((parts + 1, need), np.uint64)
            grown[:, :words] = levels
            levels = grown
        for j in range(parts, 0, -1):
            kernels.xor_or_kernel(levels[j], levels[j - 1], g)
    return PopcountValues(asked, tuple(values), time.perf_counter() - t0)


def popcount_value_bound(parts: int, k: int) -> int:
    """|{XORs of at most `parts` of k-1 distinct non-zero values}| bound: G(k) <= this."""
    return sum(comb(k - 1, j) for j in range(min(parts, k - 1) + 1)) if k else 0


# ---------------------------------------------------------------- take-and-break games


@dataclass(frozen=True)
class TakeBreakValues:
    """G(0..count-1) of a take-and-break game, with the periodicity found (octal games)."""

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

    def to_json(self, values: bool = True) -> dict:
        """The fields as JSON values (``values=False``: all but the values, for a caller
        that writes them itself)."""
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


def check_count(count: int) -> int:
    """--count: the number of heaps, 1..COUNT_MAX."""
    count = _whole(count, "--count")
    if not 1 <= count <= COUNT_MAX:
        raise ValueError(f"--count must be between 1 and {COUNT_MAX:,}, got {count:,}")
    return count


def _takebreak(game: str, label: str, digits: tuple[int, ...], unequal: bool, count: int, t: int | None,
               run: RunOptions) -> TakeBreakValues:
    count = check_count(count)
    first_rare = min(kernels.FIRST_RARE, count + 1)
    fixed = HEAP_BYTES * count + VALUE_BYTES + (kernels.BLOCK_BYTES if count > kernels.BLOCK_FROM else 0)
    # threads for the heaps from BLOCK_FROM on (below it the values come one by one)
    threads = run.workers_for(quick=count <= kernels.BLOCK_FROM) or 1
    require(fixed + kernels.RARE_BYTES * first_rare, run.memory, f"{label} to {count:,} heaps")
    t0 = time.perf_counter()
    d = np.array(digits, np.int64)
    st = kernels.TakeBreakState(count, first_rare)
    # ranges of heaps, so that a long run shows its progress, sees Ctrl-C and is
    # checkpointed between them
    bounds = np.linspace(0, count, min(1000, count // (1 << 16)) + 2).astype(np.int64)
    bounds = np.unique(bounds)
    ranges = [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
    ckpt = None
    first = 0  # the first range still to compute
    try:
        if run.checkpoint is not None:
            ckpt = _TakeBreakCheckpoint(run.checkpoint, game, digits, unequal, count, ranges)
            first = ckpt.restore(st, fixed, run.memory, label)
        with Meter(label, count, "heaps", run.progress) as meter:
            if first:  # resumed: the finished ranges count as done
                meter.update(ranges[first][0] if first < len(ranges) else count)
            for index in range(first, len(ranges)):
                start, end = ranges[index]
                at = int(start)
                while True:
                    interrupt.call(kernels.takebreak_advance, d, unequal, at, int(end), st, threads)
                    if st.stats[0] == kernels.OVERFLOW:
                        limit = kernels.VALUE_LIMIT
                        raise OverflowError(f"{game}: a value reached {limit}, beyond this program's limit")
                    if st.stats[0] != kernels.FULL:
                        break
                    at = int(st.scalars[4])
                    rare = f"{int(st.scalars[5]):,} rare heaps at heap {at:,}"
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
        p, e = interrupt.call(kernels.period_kernel, g, t)
        if p:
            period, preperiod = int(p), int(e)
    return TakeBreakValues(
        game=game,
        count=count,
        values=_frozen(g),
        max_value=int(g.max()),
        period=period,
        preperiod=preperiod,
        rare_mask=int(stats[1]),
        rare_heaps=int(stats[2]),
        new_rare_values=int(stats[4]),
        seconds=time.perf_counter() - t0,
    )


def _grow_rare(st: kernels.TakeBreakState, fixed: int, memory: int | None, what: str) -> None:
    """Grow the rare arrays to hold the rare heaps asked for, once the grown total (`fixed`
    bytes and the arrays) is within the memory cap."""
    require(fixed + kernels.RARE_BYTES * st.grown_size(), memory, what)
    st.grow()


#: what a finished range's record holds: the kernel's state, and what vouches for its values
_RANGE_RECORD = {"scalars", "searches", "values", "crc32", "largest"}


class _TakeBreakCheckpoint:
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
        from puzzlesearch.engine.paths import check_writable
        from puzzlesearch.engine.store import Checkpoint

        check_writable(f"{path}.values", "--checkpoint's values file")  # before the checkpoint is made
        params = {"puzzle": "grundy-takebreak", "game": game, "digits": list(digits), "unequal": unequal,
                  "count": count}
        self.db = Checkpoint(path, params, [list(r) for r in ranges])
        self.ranges = ranges
        self.values = Path(f"{path}.values")

    def _refused(self, why: str) -> ValueError:
        return ValueError(f"checkpoint {self.db.path}: the values file {self.values} does not match its "
                          f"checkpoint ({why}); delete both to start afresh")

    def restore(self, st: kernels.TakeBreakState, fixed: int, memory: int | None, label: str) -> int:
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
                raise self._refused(f"heaps {start:,}..{stop - 1:,} differ from their CRC-32")
        st.g[:end] = np.frombuffer(raw, np.uint16)
        largest = int(st.g[:end].max())
        if largest >= kernels.VALUE_LIMIT:
            raise self._refused(f"it holds the value {largest:,}; values stay below {kernels.VALUE_LIMIT:,}")
        if largest != states[-1]["largest"]:
            raise self._refused(f"its largest value is {largest:,}, not the {states[-1]['largest']} recorded")
        state = states[-1]
        st.scalars[:4] = state["scalars"]
        st.scalars[4] = end
        st.stats[3:] = state["searches"]
        st.hist[:] = np.bincount(st.g[:end], minlength=kernels.VALUE_LIMIT)[: kernels.VALUE_LIMIT]
        mask = int(st.scalars[1])
        if mask:
            need = int(kernels.list_rare(st.g, end, mask, st.rare, st.rare_value))
            if need > len(st.rare):
                st.scalars[0], st.scalars[5] = 0, need
                _grow_rare(st, fixed, memory, f"{label} ({need:,} rare heaps, resumed)")
                kernels.list_rare(st.g, end, mask, st.rare, st.rare_value)
            st.scalars[0] = need
        st.stats[1], st.stats[2] = mask, (need if mask else end)
        return first

    def save(self, index: int, st: kernels.TakeBreakState) -> None:
        start, end = self.ranges[index]
        data = st.g[start:end].tobytes()
        with open(self.values, "r+b") as f:
            f.seek(2 * start)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        state = {"scalars": [int(x) for x in st.scalars[:4]], "searches": [int(x) for x in st.stats[3:]],
                 "values": int(end), "crc32": zlib.crc32(data), "largest": int(st.scalars[2])}
        self.db.record(index, list(self.ranges[index]), state)


def octal_values(code: str | OctalCode, count: int = 1000, *, run: RunOptions = DEFAULT_RUN
                 ) -> TakeBreakValues:
    """Values of heaps 0..count-1 of an octal game, and its period if already proven.

    The period is the least p for which the octal periodicity theorem (Guy and Smith
    1956) applies within the computed values; `period` is None when none does yet.
    `run.progress` draws a bar on stderr when it is a terminal; `run.memory` caps the
    memory (2 bytes a heap, and 6 for each rare heap).
    """
    game = code if isinstance(code, OctalCode) else parse_octal(code)
    return _takebreak(game.code, f"octal game {game.code}", game.digits, False, count, game.max_take, run)


HEX3_COUNT_MAX = 100_000  # heaps of a game with 3-heap splits (time grows as count^2)
#: bytes per heap of a game with 3-heap splits: g (int32) and two bitmaps of reachable values
HEX3_HEAP_BYTES = 4 + 16 * kernels.HEX_WORDS


def hex_values(code: str | OctalCode, count: int = 1000, *, run: RunOptions = DEFAULT_RUN) -> TakeBreakValues:
    """Values of heaps 0..count-1 of a hexadecimal take-and-break game (0.F, 4.8, ...),
    and its period once proven.

    Without a digit with bit 8 the code is an octal game and goes through octal_values'
    engine. With one (leave three heaps), the values come from ``kernels.hex_range`` (the
    plain mex, over bitmaps of the values of 2- and 3-heap splits; count <= HEX3_COUNT_MAX)
    and the period from the periodicity theorem's three-part form
    (``kernels.split_period_kernel``).
    """
    game = code if isinstance(code, OctalCode) else parse_hex(code)
    label = f"hexadecimal game {game.code}"
    if not any(d & 8 for d in game.digits):
        return _takebreak(game.code, label, game.digits, False, count, game.max_take, run)
    count = check_count(count)
    if count > HEX3_COUNT_MAX:
        raise ValueError(f"--count must be at most {HEX3_COUNT_MAX:,} for a game that leaves three heaps "
                         f"(its time grows as the square of the count), got {count:,}")
    require(HEX3_HEAP_BYTES * count, run.memory, f"{label} to {count:,} heaps")
    t0 = time.perf_counter()
    d = np.array(game.digits, np.int64)
    g = np.zeros(count, np.int32)
    s2 = np.zeros((count, kernels.HEX_WORDS), np.uint64)
    t3 = np.zeros((count, kernels.HEX_WORDS), np.uint64)
    scalars = np.array([6, 0], np.int64)
    bounds = np.unique(np.linspace(0, count, min(100, count // 1000) + 2).astype(np.int64))
    with Meter(label, count, "heaps", run.progress) as meter:
        for start, end in zip(bounds[:-1], bounds[1:], strict=True):
            interrupt.call(kernels.hex_range, d, int(start), int(end), g, s2, t3, scalars)
            if scalars[1]:
                raise OverflowError(f"{game.code}: a value reached {kernels.HEX_VALUE_LIMIT}, beyond this "
                                    "program's limit for games that leave three heaps")
            meter.update(int(end))
    p, e = interrupt.call(kernels.split_period_kernel, g, game.max_take, 3)
    return TakeBreakValues(
        game=game.code, count=count, values=_frozen(g), max_value=int(g.max()),
        period=int(p) if p else None, preperiod=int(e) if p else None,
        rare_mask=0, rare_heaps=0, new_rare_values=0, seconds=time.perf_counter() - t0,
    )


def grundys_values(count: int = 1000, *, run: RunOptions = DEFAULT_RUN) -> TakeBreakValues:
    """Values of heaps 0..count-1 of Grundy's game (split a heap into two unequal heaps)."""
    return _takebreak("grundy's game", "Grundy's game", (4,), True, count, None, run)


# the survey of many octal games builds on octal_values above (survey.py imports this module)
from .survey import SURVEY_DIGITS_MAX, Survey, SurveyRow, octal_survey  # noqa: E402

__all__ = [
    "SURVEY_DIGITS_MAX", "Survey", "SurveyRow", "octal_survey",
    "GRUNDYS", "HEAPS_MAX", "SUBTRACTION_MAX", "SUBTRACTION_SIZE_MAX", "Move", "PositionMoves",
    "SubtractionSet", "SubtractionValues", "parse_game", "parse_heaps", "parse_subtraction", "position_moves",
    "subtraction_values", "HEX3_COUNT_MAX", "hex_values", "parse_hex",
    "COUNT_MAX", "CUTTING_MAX", "DIGITS_MAX", "POPCOUNT_BITS", "Answers", "ImpartialGame", "OctalCode",
    "PopcountValues", "Sum", "TakeBreakValues", "check_count", "cutting_answers", "cutting_table",
    "digits_answers", "digits_table", "grundys_values", "impartial", "mex", "octal_values", "parse_octal",
    "popcount_value_bound", "popcount_values",
]
