"""Take-and-break values in blocks of heaps, on several threads: the kernels of
takebreak.takebreak_advance.

From BLOCK_FROM on, the heaps go in blocks of BLOCK, each in two phases. Phase one
(takebreak_block_partial) does, side by side for every heap of the block (and on as many
threads as there are), the splits whose parts are both below the block, the bulk of the
work; phase two (takebreak_block_finish) adds, heap after heap, the splits with a part in
the block. The values are those of takebreak_kernel.takebreak_range, under the same mask
and with the same state (its slots), and the tests check them against the plain mex at
sizes small enough for every path to be taken many times.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import ONE, parity
from .limits import VALUE_LIMIT
from .takebreak_kernel import (
    FULL,
    LARGEST,
    MASK,
    NEW_RARE_VALUES,
    OVERFLOW,
    RARE_COUNT,
    RARE_HEAPS,
    RARE_MASK,
    RARE_NEEDED,
    RARE_SEARCHES,
    RESUME_AT,
    STOP,
    STRIDE,
    record,
    top_part,
)

#: heaps from which takebreak_advance computes in blocks (below it: takebreak_range)
BLOCK_FROM = 1 << 16
#: heaps a block holds (at most BLOCK_FROM, so that the smaller part of a split is below the block)
BLOCK = 1024
#: takebreak_advance goes on one heap at a time (takebreak_range) while fewer heaps are rare
RARE_FOR_BLOCKS = 64
#: slots of a heap's row of cursors, where its search for a rare value stopped (_search_start):
#: one split length, the smaller parts 1..SPAN in the strided order, at offset STRIDED_AT of row
#: STRIDED_ROW; then the smaller parts in order, IN_ORDER_AT up to IN_ORDER_END (excluded)
STRIDED_AT, STRIDED_ROW, SPAN, IN_ORDER_AT, IN_ORDER_END = range(5)
CURSOR_SLOTS = 5
#: bytes of takebreak_advance's arrays (a block's rows of bitmaps and cursors at the largest
#: VALUE_LIMIT, and the bitmap of options)
BLOCK_BYTES = 8 * (BLOCK * (VALUE_LIMIT // 64 + CURSOR_SLOTS) + VALUE_LIMIT // 64 + 1)
#: the block's rare-candidate searches first try the smaller parts 1..WINDOW (in a strided
#: order): the values they read then stay in two windows that fit the cache
WINDOW = 1 << 15
#: rows of the search's strided order that phase one does for all heaps at once
SHARED = 2


@njit(cache=True, inline='always')
def _set_row(bitmaps: np.ndarray, i: int, v: int) -> None:
    """Mark v in the bitmap bitmaps[i]. Rows are indexed, never taken as views: a view's
    reference count is shared by the threads, and updating it would bounce between the cores."""
    bitmaps[i, v >> 6] |= ONE << np.uint64(v & 63)


@njit(cache=True, inline='always')
def _has_row(bitmaps: np.ndarray, i: int, v: int) -> bool:
    return (bitmaps[i, v >> 6] >> np.uint64(v & 63)) & ONE != 0


@njit(cache=True)
def _splits(digits: np.ndarray) -> np.ndarray:
    """The numbers of tokens a move may remove while leaving two heaps, ascending."""
    out = np.empty(len(digits), np.int64)
    k = 0
    for j in range(len(digits)):
        if digits[j] & 4:
            out[k] = j
            k += 1
    return out[:k]


@njit(cache=True, inline='always')
def _search_start(n: int, split: np.ndarray, unequal: bool, window: int, curs: np.ndarray, ci: int) -> None:
    """Set up the search (_search) of the splits of heap n for a rare value.

    One split length: the smaller parts 1..span (the window, span <= `window`) in a strided
    order; several: in order from 1, at most `window` of them. Small parts come first:
    below a game's preperiod they have the values that periodic parts lack. The search's place
    is kept in the row curs[ci] (the cursor slots); phase two moves its IN_ORDER_END to the
    last smaller part, so that the search goes on in order over every split.
    """
    if len(split) == 1:
        span = max(0, min(top_part(n - split[0], unequal), window))
        ta = 1 + span
        stop = ta
    else:
        span = 0
        ta = 1
        stop = 1 + window
    curs[ci, STRIDED_AT], curs[ci, STRIDED_ROW], curs[ci, SPAN] = 0, 0, span
    curs[ci, IN_ORDER_AT], curs[ci, IN_ORDER_END] = ta, stop


@njit(cache=True, inline='always')
def _search(g: np.ndarray, n: int, split: np.ndarray, unequal: bool, n0: int, x: int, bitmaps: np.ndarray,
            bi: int, curs: np.ndarray, ci: int) -> bool:
    """Resume the search set up by _search_start until a split of heap n gives x, among the
    splits whose larger part is below n0; marks in bitmaps[bi] every value it meets.
    Neighbouring heaps have correlated values, so visiting 1, 1 + STRIDE, 1 + 2 STRIDE, ...
    first meets every needed value about 4x sooner than 1, 2, 3, ..."""
    ca, co, span = curs[ci, STRIDED_AT], curs[ci, STRIDED_ROW], curs[ci, SPAN]
    ta, stop = curs[ci, IN_ORDER_AT], curs[ci, IN_ORDER_END]
    found = False
    if span > 0:
        m = n - split[0]
        while True:
            if ca >= span:
                co += 1
                if co >= STRIDE or co >= span:
                    span = 0
                    break
                ca = co
            a = 1 + ca
            ca += STRIDE
            if m - a >= n0:
                continue
            y = g[a] ^ g[m - a]
            _set_row(bitmaps, bi, y)
            if y == x:
                found = True
                break
    while not found and ta < stop:
        for q in range(len(split)):
            mq = n - split[q]
            if 2 * ta > mq:
                break  # split ascends, so mq only shrinks
            if (unequal and 2 * ta == mq) or mq - ta >= n0:
                continue
            y = g[ta] ^ g[mq - ta]
            _set_row(bitmaps, bi, y)
            if y == x:
                found = True
        ta += 1
    curs[ci, STRIDED_AT], curs[ci, STRIDED_ROW], curs[ci, SPAN], curs[ci, IN_ORDER_AT] = ca, co, span, ta
    return found


@njit(cache=True, inline='always')
def _search_in_block(g: np.ndarray, n: int, split: np.ndarray, unequal: bool, n0: int, passed: int, x: int,
                     bitmaps: np.ndarray, bi: int) -> bool:
    """Mark every value of a split of heap n whose smaller part is below `passed` and whose
    larger part is at or above n0 (in the block): those phase one's search had to skip;
    whether x is one of them."""
    found = False
    for q in range(len(split)):
        m = n - split[q]
        top = top_part(m, unequal)
        for a in range(1, min(top, passed - 1, m - n0) + 1):
            y = g[a] ^ g[m - a]
            _set_row(bitmaps, bi, y)
            if y == x:
                found = True
    return found


@njit(cache=True, nogil=True)
def takebreak_block_partial(
    digits: np.ndarray, unequal: bool, n0: int, lo_n: int, hi_n: int, g: np.ndarray, rare: np.ndarray,
    rare_value: np.ndarray, n_rare: int, mask: int, words: int, rows: np.ndarray, cursors: np.ndarray,
    window: int = WINDOW, shared_rows: int = SHARED,
) -> None:
    """Phase one of a block of heaps n0, n0 + 1, ... (takebreak_advance), for heaps lo_n..hi_n-1.

    Heaps of one block may be done side by side here: only splits whose two parts are both
    below n0 are used, and those values are known. rows[n - n0, :words] receives, as a
    bitmap, every common value such a split of heap n gives (the rare heaps below n0 are
    rare[:n_rare], under `mask`), and the rare values below the least common value missing
    there that a search among those splits meets. Values below n0 are below 64 * words,
    and so are their XORs. The mask is not 0 (takebreak_advance does mask 0 heap by heap).
    """
    split = _splits(digits)
    n_split = len(split)
    listed = rare[:n_rare]
    for n in range(lo_n, hi_n):
        for w in range(words):
            rows[n - n0, w] = 0
    # a rare smaller part a: rare heap by rare heap, over the heaps n whose split of m = n - j
    # allows it (a <= top, larger part below n0), so that g[m - a] is read in order
    for q in range(n_split):
        j = split[q]
        for s in range(1, n_rare):
            a = rare[s]
            y0 = rare_value[s]
            first = max(lo_n, 2 * a + j + (1 if unequal else 0))
            for n in range(first, min(hi_n, a + j + n0)):
                _set_row(rows, n - n0, y0 ^ g[n - j - a])
    # one split length, heaps far above the window: the first `shared_rows` rows of the
    # search's strided order go smaller part by smaller part, each over the heaps n that
    # allow it (larger part below n0), so that g[m - a] is read in order too
    shared = shared_rows and n_split == 1 and lo_n - split[0] > 2 * (window + 1)
    if shared:
        j = split[0]
        for co in range(shared_rows):
            for off in range(co, window, STRIDE):
                a = 1 + off
                ya = g[a]
                for n in range(lo_n, min(hi_n, a + j + n0)):
                    _set_row(rows, n - n0, ya ^ g[n - j - a])
    for n in range(lo_n, hi_n):
        i = n - n0
        for q in range(n_split):
            m = n - split[q]
            lo = max(1, m - n0 + 1)  # the larger part m - a is below n0
            top = top_part(m, unequal)
            if m < 2 or lo > top:
                continue
            s = np.searchsorted(listed, top + 1)  # the rare smaller parts are done above
            while s < n_rare and rare[s] < m:  # a rare larger part (below n0), a common smaller one
                if 2 * rare[s] > m:
                    y = g[m - rare[s]]
                    if parity(y & mask) == 1:
                        _set_row(rows, i, rare_value[s] ^ y)
                s += 1
        if n_split == 0:
            continue
        # rare values below the least common value missing: a search of the splits of
        # phase one (in the window only) meets them; phase two resumes it where it stopped
        # (cursors[n - n0]) for any still missing
        _search_start(n, split, unequal, window, cursors, i)
        if shared:  # the window's first rows are done
            cursors[i, STRIDED_AT], cursors[i, STRIDED_ROW] = shared_rows, shared_rows
        for x in range(64 * words):
            if _has_row(rows, i, x):
                continue
            if parity(x & mask) == 1 or not _search(g, n, split, unequal, n0, x, rows, i, cursors, i):
                break


@njit(cache=True, nogil=True)
def takebreak_block_finish(
    digits: np.ndarray, unequal: bool, n0: int, start: int, end: int, words: int, rows: np.ndarray,
    cursors: np.ndarray, g: np.ndarray, hist: np.ndarray, rare: np.ndarray, rare_value: np.ndarray,
    reach: np.ndarray, scalars: np.ndarray, stats: np.ndarray,
) -> None:
    """Phase two of the block n0.. : heaps start..end-1 in order, each from its row of phase one
    and the splits with a part in the block; stops like takebreak_range (stats[STOP] = FULL or
    OVERFLOW, the heap to resume from in scalars[RESUME_AT]). The mask is not 0."""
    t = len(digits) - 1
    split = _splits(digits)
    n_split = len(split)
    n_rare, mask, max_value = scalars[RARE_COUNT], scalars[MASK], scalars[LARGEST]
    k0 = np.searchsorted(rare[:n_rare], n0)  # rare[k0:n_rare]: the rare heaps of this block
    cur = np.zeros((1, CURSOR_SLOTS), np.int64)
    cap = len(rare)
    used = reach.shape[1]  # words of reach that may be non-zero
    for n in range(start, end):
        if n_rare == cap:  # heap n may be rare: room for one more first
            stats[STOP] = FULL
            scalars[RARE_COUNT], scalars[LARGEST] = n_rare, max_value
            scalars[RESUME_AT], scalars[RARE_NEEDED] = n, n_rare + 1
            return
        for w in range(used):
            reach[0, w] = 0
        for w in range(words):
            reach[0, w] = rows[n - n0, w]
        used = words
        for j in range(1, min(t, n) + 1):
            d = digits[j]
            if d & 1 and n == j:
                reach[0, 0] |= ONE
            if d & 2 and n > j:
                _set_row(reach, 0, g[n - j])
                used = max(used, (g[n - j] >> 6) + 1)
        # splits whose larger part is in the block (a <= m - n0): with a rare part; those of
        # two common parts give only rare values, which the search below finds when needed
        for q in range(n_split):
            m = n - split[q]
            top = top_part(m, unequal)
            hi = min(top, m - n0)
            if m < 2 or hi < 1:
                continue
            s = 1
            while s < k0 and rare[s] <= hi:
                y = rare_value[s] ^ g[m - rare[s]]
                _set_row(reach, 0, y)
                used = max(used, (y >> 6) + 1)
                s += 1
            for s in range(k0, n_rare):
                h = rare[s]
                if h >= m:
                    break
                y = rare_value[s] ^ g[m - h]
                _set_row(reach, 0, y)
                used = max(used, (y >> 6) + 1)
        # the mex; a rare candidate not reached resumes phase one's search where it stopped
        # (now over splits with a part in the block too), then looks at the splits with a
        # part in the block that it skipped, then goes on over every split
        stage = -1
        x = 0
        while x < VALUE_LIMIT:
            if (x >> 6) < used and _has_row(reach, 0, x):
                x += 1
                continue
            if parity(x & mask) == 1:
                break
            stats[RARE_SEARCHES] += 1
            used = reach.shape[1]  # the search may mark any value
            found = False
            if n_split:
                if stage == -1:
                    stage = 0
                    for k in range(CURSOR_SLOTS):
                        cur[0, k] = cursors[n - n0, k]
                found = _search(g, n, split, unequal, n, x, reach, 0, cur, 0)
                if not found and stage == 0:
                    stage = 1
                    found = _search_in_block(g, n, split, unequal, n0, cur[0, IN_ORDER_AT], x, reach, 0)
                    m = n - split[0]
                    cur[0, IN_ORDER_END] = top_part(m, unequal) + 1
                    if not found:
                        found = _search(g, n, split, unequal, n, x, reach, 0, cur, 0)
            if not found:
                stats[NEW_RARE_VALUES] += 1
                break
            x += 1
        if x >= VALUE_LIMIT:
            stats[STOP] = OVERFLOW
            return
        n_rare, max_value = record(n, x, g, hist, mask, rare, rare_value, n_rare, max_value)
    scalars[RARE_COUNT], scalars[LARGEST] = n_rare, max_value
    scalars[RESUME_AT] = end
    stats[RARE_MASK] = mask
    stats[RARE_HEAPS] = n_rare


__all__ = [
    "BLOCK", "BLOCK_BYTES", "BLOCK_FROM", "CURSOR_SLOTS", "RARE_FOR_BLOCKS", "SHARED", "WINDOW",
    "takebreak_block_finish", "takebreak_block_partial",
]
