"""numba kernels for the built-in games: tables of Sprague–Grundy values.

Every kernel fills an array bottom-up (no recursion) and is checked in the tests
against the plain rules in ``rules.py`` played through the general engine.

Take-and-break games (octal games and Grundy's game) use the rare/common split of
Gangolli and Plambeck (1989), as in Flammenkamp's computations of Grundy's game: fix a
bit mask m and call a value *rare* when parity(v & m) = 0, *common* otherwise. The XOR
of two values is common only if exactly one of them is rare. So a common value is
reachable by splitting heap m into a + b iff some pair with a rare part gives it, and
the rare heaps are few: scanning them marks every reachable common value. A rare
candidate for the mex is settled by a scan over all pairs that marks every value it
passes and stops at the candidate; it usually stops soon (common XOR common values are
plentiful) and runs to the end only when a new rare value appears. The result is exact
for every mask; a good mask only makes it fast. The mask is re-chosen at n = 256, 512,
1024, ... as the one that makes the fewest heaps rare; when more than one heap in
DENSE_SHARE would be rare, the scan of the rare heaps costs more than it saves, and every
heap is treated as rare (mask 0): the plain mex over all splits, sampled first and then
settled by vectorized scans (_dense_mex).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

# Take-and-break values must stay below this (the classic games stay far below it).
VALUE_LIMIT = 1 << 15
STRIDE = 97  # scan order for rare candidates (see takebreak_range)
_ONE = np.uint64(1)


# ---------------------------------------------------------------- cutting game


@njit(cache=True, nogil=True)
def cutting_kernel(n: int) -> np.ndarray:
    """g[w, h] for 2 <= w, h <= n: cuts leave two pieces with all sides >= 2."""
    g = np.zeros((n + 1, n + 1), np.int32)
    size = 1
    while size <= 2 * n + 2:  # values <= number of options <= 2n, so XORs stay below size
        size <<= 1
    stamp = np.zeros(size, np.int64)
    mark = 0
    for w in range(2, n + 1):
        for h in range(2, n + 1):
            mark += 1
            for i in range(2, w - 1):
                stamp[g[i, h] ^ g[w - i, h]] = mark
            for j in range(2, h - 1):
                stamp[g[w, j] ^ g[w, h - j]] = mark
            x = 0
            while stamp[x] == mark:
                x += 1
            g[w, h] = x
    return g


# ---------------------------------------------------------------- cow digit game


@njit(cache=True, nogil=True)
def digits_kernel(n_max: int) -> np.ndarray:
    """g[n] for 0 <= n <= n_max: moves n -> n - largest digit, n - smallest non-zero digit."""
    g = np.zeros(n_max + 1, np.int8)
    for n in range(1, n_max + 1):
        m = n
        hi = 0
        lo = 10
        while m:
            d = m % 10
            m //= 10
            if d:
                hi = max(hi, d)
                lo = min(lo, d)
        a = g[n - hi]
        b = g[n - lo]
        x = 0
        while x == a or x == b:
            x += 1
        g[n] = x
    return g


# ---------------------------------------------------------------- take-and-break games


@njit(cache=True, inline='always')
def _parity(x: int) -> int:
    x ^= x >> 16
    x ^= x >> 8
    x ^= x >> 4
    x ^= x >> 2
    x ^= x >> 1
    return x & 1


@njit(cache=True)
def _best_mask(hist: np.ndarray, max_value: int) -> int:
    """The mask over the value bits that makes the fewest heaps rare (parity 0)."""
    bits = 0
    while (1 << bits) <= max_value:
        bits += 1
    bits = min(bits, 12)
    values = np.nonzero(hist[: max_value + 1])[0]
    best = 0
    best_count = hist.sum()
    for mask in range(1, 1 << bits):
        c = 0
        for v in values:
            if _parity(v & mask) == 0:
                c += hist[v]
        if c < best_count:
            best = mask
            best_count = c
    if DENSE_SHARE * best_count > hist.sum():
        return 0  # too many rare heaps for the rare scan to pay: every heap is rare (_dense_mex)
    return best


#: mask 0 (every heap rare, _dense_mex) once more than one heap in DENSE_SHARE would be rare under
#: the best mask (measured to 10^5 heaps: 0.065, 3.6% rare, is faster by _dense_mex; 0.564 and
#: 0.264, about 2% rare, are 2x and 1.5x faster by the rare heaps)
DENSE_SHARE = 25
#: _dense_mex samples up to DENSE_PROBES splits per value below the largest value so far,
#: in runs of DENSE_RUN neighbouring smaller parts (they share cache lines)
DENSE_PROBES = 16
DENSE_RUN = 64
#: a candidate no XOR of two values below VALUE_LIMIT equals (a free slot of _has8)
_NO_VALUE = 65535

#: rare heaps the first rare arrays hold (they double when full: TakeBreakState.grow)
FIRST_RARE = 1 << 16
#: bytes a rare heap takes: its number (int32) and its value (uint16)
RARE_BYTES = 6
#: kernel stops (stats[0]): a value reached VALUE_LIMIT; the rare arrays are full
OVERFLOW, FULL = 1, 2


class TakeBreakState:
    """Arrays a take-and-break computation carries from one range of heaps to the next.

    Values are uint16 (VALUE_LIMIT = 2^15): 2 bytes a heap. The rare heaps (those whose
    value v has parity(v & mask) = 0, under the mask chosen) are listed with their values;
    those arrays start small and double when the kernel says they are full (stats[0] ==
    FULL, with the heap to resume from in scalars[4] and the room needed in scalars[5]).
    """

    def __init__(self, count: int, rare: int = FIRST_RARE) -> None:
        self.g = np.zeros(max(count, 1), np.uint16)
        self.stamp = np.full(VALUE_LIMIT + 1, -1, np.int64)  # stamp[v] == n: v is an option of heap n
        self.hist = np.zeros(VALUE_LIMIT, np.int64)  # how many heaps have each value
        self.rare = np.empty(rare, np.int32)  # the rare heaps, ascending
        self.rare_value = np.empty(rare, np.uint16)  # g[rare[s]], read sequentially
        # [rare heaps, mask, largest value, next n to re-choose the mask, heap to resume
        # from, rare heaps needed]; mask 0: every heap is rare, and none is listed
        self.scalars = np.array([0, 0, 0, 256, 0, 0], np.int64)
        # [stop (0, OVERFLOW, FULL), mask, rare heaps, rare searches, new rare values]
        self.stats = np.zeros(5, np.int64)
        self.reach = np.zeros((1, VALUE_LIMIT // 64 + 1), np.uint64)  # takebreak_advance's bitmap of options
        self.rows: np.ndarray | None = None  # takebreak_advance's phase-one bitmaps, a row per heap
        self.cursors: np.ndarray | None = None  # where phase one's search stopped, a row per heap

    def grown_size(self) -> int:
        """The rare arrays' size after grow(): doubled until they hold the rare heaps asked for
        (scalars[5])."""
        size = len(self.rare)
        while size < self.scalars[5]:
            size *= 2
        return size

    def grow(self) -> int:
        """Room for at least the rare heaps the kernel asked for (grown_size); the new size."""
        size = self.grown_size()
        rare = np.empty(size, np.int32)
        value = np.empty(size, np.uint16)
        n = int(self.scalars[0])
        rare[:n], value[:n] = self.rare[:n], self.rare_value[:n]
        self.rare, self.rare_value = rare, value
        self.stats[0] = 0
        return size


@njit(cache=True, nogil=True)
def list_rare(g: np.ndarray, end: int, mask: int, rare: np.ndarray, rare_value: np.ndarray) -> int:
    """The rare heaps below `end` under `mask` (parity(g & mask) = 0) into rare and
    rare_value (when they fit); returns how many there are (a resumed run rebuilds them)."""
    k = 0
    for a in range(end):
        if _parity(g[a] & mask) == 0:
            if k < len(rare):
                rare[k] = a
                rare_value[k] = g[a]
            k += 1
    return k


@njit(cache=True, inline='always')
def _record(n: int, x: int, g: np.ndarray, hist: np.ndarray, mask: int, rare: np.ndarray,
            rare_value: np.ndarray, n_rare: int, max_value: int) -> tuple[int, int]:
    """G(n) = x: store it, count it, and list heap n when its value is rare (the caller made
    room); the new (rare heaps, largest value)."""
    g[n] = x
    hist[x] += 1
    if mask != 0 and _parity(x & mask) == 0:
        rare[n_rare] = n
        rare_value[n_rare] = x
        n_rare += 1
    return n_rare, max(max_value, x)


@njit(cache=True, inline='always')
def _top(m: int, unequal: bool) -> int:
    """The largest smaller part of a split of m tokens into two heaps (unequal: of different sizes)."""
    return (m - 1) // 2 if unequal else m // 2


@njit(cache=True, nogil=True)
def _rechoose(n: int, g: np.ndarray, hist: np.ndarray, max_value: int, mask: int, n_rare: int,
              rare: np.ndarray, rare_value: np.ndarray) -> tuple[int, int, int]:
    """At heap n: the mask that makes the fewest heaps rare, and the rare heaps below n listed
    under it. Returns (mask, rare heaps, room needed); room needed > 0 means that the rare
    arrays are too small, and nothing changed."""
    new = _best_mask(hist, max_value)
    if new == mask:
        return mask, n_rare, 0
    need = 0
    if new != 0:
        for a in range(n):
            if _parity(g[a] & new) == 0:
                need += 1
    if need + 1 > len(rare):  # + 1: heap n itself may be rare
        return mask, n_rare, need + 1
    if new == 0:
        return 0, 0, 0
    return new, list_rare(g, n, new, rare, rare_value), 0


def takebreak_kernel(digits: np.ndarray, unequal: bool, count: int, probes: int = DENSE_PROBES
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Values g[0..count-1] of the take-and-break game with octal digits `digits`, in one go.

    `unequal`: the two heaps of a split must differ in size (Grundy's game); `probes`: see
    _dense_mex.
    Returns (g, stats) with stats = [error, mask, rare heaps, rare searches, new rare values];
    error 1 means a value reached VALUE_LIMIT and g is incomplete.
    """
    st = TakeBreakState(count)
    start = 0
    while True:
        takebreak_range(digits, unequal, start, count, st.g, st.stamp, st.hist, st.rare, st.rare_value,
                        st.scalars, st.stats, probes)
        if st.stats[0] != FULL:
            return st.g[:count], st.stats
        start = int(st.scalars[4])
        st.grow()


@njit(cache=True, nogil=True)
def takebreak_range(
    digits: np.ndarray, unequal: bool, start: int, end: int, g: np.ndarray, stamp: np.ndarray,
    hist: np.ndarray, rare: np.ndarray, rare_value: np.ndarray, scalars: np.ndarray, stats: np.ndarray,
    probes: int = DENSE_PROBES,
) -> None:
    """Fill g[start:end], given g[:start] and the state the previous range left (TakeBreakState).
    Stops early with stats[0] = FULL when the rare arrays are full: heaps start..scalars[4]-1
    are done, and scalars[5] rare heaps are needed to go on. `probes`: see _dense_mex."""
    t = len(digits) - 1
    n_rare, mask, max_value, next_choice = scalars[0], scalars[1], scalars[2], scalars[3]
    split = np.array([j for j in range(t + 1) if digits[j] & 4], np.int64)  # split moves, ascending
    n_split = len(split)
    cap = len(rare)
    for n in range(start, end):
        if n == next_choice:
            new, k, need = _rechoose(n, g, hist, max_value, mask, n_rare, rare, rare_value)
            if need:  # no room: the caller grows the arrays and calls again from n
                stats[0] = FULL
                scalars[0], scalars[1], scalars[2], scalars[3] = n_rare, mask, max_value, next_choice
                scalars[4], scalars[5] = n, need
                return
            mask, n_rare = new, k
            next_choice *= 2
        dense = mask == 0 and max_value >= 64  # every split, and values too large for one word: _dense_mex
        if mask != 0 and n_rare == cap:  # heap n may be rare: room for one more first
            stats[0] = FULL
            scalars[0], scalars[1], scalars[2], scalars[3] = n_rare, mask, max_value, next_choice
            scalars[4], scalars[5] = n, n_rare + 1
            return
        for j in range(min(t, n) + 1):
            d = digits[j]
            if j > 0:
                if d & 1 and n == j:
                    stamp[0] = n
                if d & 2 and n > j:
                    stamp[g[n - j]] = n
            if d & 4 and n - j >= 2:
                m = n - j
                if dense:
                    continue
                if mask == 0:  # every heap is rare, values below 64: collect the XORs as bits of
                    # one word, a loop without stores that the compiler can vectorize
                    bits = np.uint64(0)
                    for a in range(1, _top(m, unequal) + 1):
                        bits |= _ONE << np.uint64(g[a] ^ g[m - a])
                    v = 0
                    while bits:
                        if bits & _ONE:
                            stamp[v] = n
                        bits >>= _ONE
                        v += 1
                    continue
                # rare[0] is heap 0 (G(0) = 0 is rare for every mask), never a part
                s = 1
                while s < n_rare and 2 * rare[s] < m:  # the hot loop: rare part a < m - a
                    stamp[rare_value[s] ^ g[m - rare[s]]] = n
                    s += 1
                if s < n_rare and 2 * rare[s] == m:
                    if not unequal:
                        stamp[0] = n
                    s += 1
                while s < n_rare and rare[s] < m:  # rare part a > m - a: skip if both are rare
                    y = g[m - rare[s]]
                    if _parity(y & mask) == 1:
                        stamp[rare_value[s] ^ y] = n
                    s += 1
        # The mex. A rare candidate x resumes one scan over all splits (cursor ca, co)
        # that marks every value it passes, so later candidates are often already seen.
        ca = 1
        co = 1
        x = _dense_mex(g, n, split, unequal, stamp, max_value, probes) if dense else 0
        while not dense and x < VALUE_LIMIT:
            if stamp[x] != n:
                if mask == 0 or _parity(x & mask) == 1:
                    break  # not reached by any pair with a rare part, and no other pair exists
                stats[3] += 1
                found = False
                if n_split == 1:  # one split length (Grundy's game, Kayles' relatives): a tight loop
                    # Visit a = co, co + STRIDE, co + 2 STRIDE, ... for co = 1..STRIDE: neighbouring
                    # heaps have correlated values, so spreading the first visits over the whole
                    # range meets every needed value about 4x sooner than a = 1, 2, 3, ...
                    m = n - split[0]
                    half = m // 2
                    while True:
                        if ca > half:
                            co += 1
                            if co > STRIDE or co > half:
                                break
                            ca = co
                        a = ca
                        ca += STRIDE
                        if unequal and 2 * a == m:
                            continue
                        y = g[a] ^ g[m - a]
                        stamp[y] = n
                        if y == x:
                            found = True
                            break
                while not found and n_split > 1 and 2 * ca <= n - split[0]:
                    a = ca
                    ca += 1
                    for q in range(n_split):
                        m = n - split[q]
                        if 2 * a > m:
                            break  # split[] ascends, so m only shrinks
                        if unequal and 2 * a == m:
                            continue
                        y = g[a] ^ g[m - a]
                        stamp[y] = n
                        if y == x:
                            found = True
                if not found:
                    stats[4] += 1
                    break
            x += 1
        if x >= VALUE_LIMIT:
            stats[0] = OVERFLOW
            return
        n_rare, max_value = _record(n, x, g, hist, mask, rare, rare_value, n_rare, max_value)
    scalars[0], scalars[1], scalars[2], scalars[3] = n_rare, mask, max_value, next_choice
    scalars[4] = end
    stats[1] = mask
    stats[2] = end if mask == 0 else n_rare  # mask 0: every heap is rare


@njit(cache=True, nogil=True)
def _has8(g: np.ndarray, m: int, top: int, cand: np.ndarray, found: np.ndarray) -> None:
    """found[k] |= some smaller part a = 1..top of m gives g[a] ^ g[m - a] == cand[k], for k < 8.

    Eight running minima of y ^ cand[k], one pass over the splits: a loop without branches
    or stores that the compiler vectorizes (16 splits an instruction). The indices are
    unsigned so that numba adds no check for negative ones, which would stop that."""
    c0 = c1 = c2 = c3 = c4 = c5 = c6 = c7 = np.uint16(_NO_VALUE)
    x0, x1, x2, x3 = np.uint16(cand[0]), np.uint16(cand[1]), np.uint16(cand[2]), np.uint16(cand[3])
    x4, x5, x6, x7 = np.uint16(cand[4]), np.uint16(cand[5]), np.uint16(cand[6]), np.uint16(cand[7])
    mm = np.uint64(m)
    for a in range(np.uint64(1), np.uint64(top + 1)):
        y = np.uint16(g[a] ^ g[mm - a])
        c0 = min(c0, np.uint16(y ^ x0))
        c1 = min(c1, np.uint16(y ^ x1))
        c2 = min(c2, np.uint16(y ^ x2))
        c3 = min(c3, np.uint16(y ^ x3))
        c4 = min(c4, np.uint16(y ^ x4))
        c5 = min(c5, np.uint16(y ^ x5))
        c6 = min(c6, np.uint16(y ^ x6))
        c7 = min(c7, np.uint16(y ^ x7))
    found[0] |= c0 == 0
    found[1] |= c1 == 0
    found[2] |= c2 == 0
    found[3] |= c3 == 0
    found[4] |= c4 == 0
    found[5] |= c5 == 0
    found[6] |= c6 == 0
    found[7] |= c7 == 0


@njit(cache=True, nogil=True)
def _dense_mex(g: np.ndarray, n: int, split: np.ndarray, unequal: bool, stamp: np.ndarray, max_value: int,
               probes: int) -> int:
    """G(n) when every split counts (mask 0), given stamp[v] == n for the values of the moves
    that leave no heap or one; VALUE_LIMIT when it would reach that.

    First a sample of the splits marks their values in stamp: up to `probes` splits per value
    up to max_value (all of them when there are no more), in runs of DENSE_RUN neighbouring
    smaller parts, the runs spread over the whole range (STRIDE apart) since neighbouring
    heaps have correlated values. The values still unmarked are then settled eight at a
    time, in order, by _has8 over every split: the first not found is the mex. A sample of
    this size leaves about one such pass per heap, where the plain mex would store a value
    for every split.
    """
    total = 0
    for q in range(len(split)):
        m = n - split[q]
        if m >= 2:
            total += _top(m, unequal)
    budget = min(total, probes * (max_value + 1))
    seen = 0
    if total:
        half = _top(n - split[0], unequal)  # split ascends: the first has the most smaller parts
        for co in range(STRIDE):
            if seen >= budget:
                break
            for c in range(co * DENSE_RUN, half, STRIDE * DENSE_RUN):  # runs c + 1 .. c + DENSE_RUN
                for q in range(len(split)):
                    m = n - split[q]
                    e = min(c + DENSE_RUN, _top(m, unequal))
                    for a in range(c + 1, e + 1):
                        stamp[g[a] ^ g[m - a]] = n
                    seen += max(0, e - c)
                if seen >= budget:
                    break
    x = 0
    if seen >= total:  # every split was seen (the runs cover each smaller part once)
        while x < VALUE_LIMIT and stamp[x] == n:
            x += 1
        return x
    cand = np.empty(8, np.int64)
    found = np.empty(8, np.bool_)
    while True:
        for k in range(8):
            while x < VALUE_LIMIT and stamp[x] == n:
                x += 1
            cand[k] = x if x < VALUE_LIMIT else _NO_VALUE
            found[k] = False
            x += 1
        for q in range(len(split)):
            m = n - split[q]
            if m >= 2:
                _has8(g, m, _top(m, unequal), cand, found)
        for k in range(8):
            if cand[k] == _NO_VALUE:
                return VALUE_LIMIT
            if not found[k]:
                return cand[k]
            stamp[cand[k]] = n


# ---------------------------------------------------------------- take-and-break games in blocks

#: heaps from which takebreak_advance computes in blocks (below it: takebreak_range)
BLOCK_FROM = 1 << 16
#: heaps a block holds (at most BLOCK_FROM, so that the smaller part of a split is below the block)
BLOCK = 1024
#: takebreak_advance goes on one heap at a time (takebreak_range) while fewer heaps are rare
RARE_FOR_BLOCKS = 64
#: bytes of takebreak_advance's arrays (a block's rows of bitmaps and cursors at the largest
#: VALUE_LIMIT, and the bitmap of options)
BLOCK_BYTES = 8 * (BLOCK * (VALUE_LIMIT // 64 + 5) + VALUE_LIMIT // 64 + 1)
#: the block's rare-candidate searches first try the smaller parts 1..WINDOW (in a strided
#: order): the values they read then stay in two windows that fit the cache
WINDOW = 1 << 15
#: rows of the search's strided order that phase one does for all heaps at once
SHARED = 2


@njit(cache=True, inline='always')
def _set_row(bitmaps: np.ndarray, i: int, v: int) -> None:
    """Mark v in the bitmap bitmaps[i]. Rows are indexed, never taken as views: a view's
    reference count is shared by the threads, and updating it would bounce between the cores."""
    bitmaps[i, v >> 6] |= _ONE << np.uint64(v & 63)


@njit(cache=True, inline='always')
def _has_row(bitmaps: np.ndarray, i: int, v: int) -> bool:
    return (bitmaps[i, v >> 6] >> np.uint64(v & 63)) & _ONE != 0


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
    below a game's preperiod they have the values that periodic parts lack. curs[ci] =
    [ca, co, span, next part in order, end of the order]; phase two moves the end to the
    last smaller part, so that the search goes on in order over every split.
    """
    if len(split) == 1:
        span = max(0, min(_top(n - split[0], unequal), window))
        ta = 1 + span
        stop = ta
    else:
        span = 0
        ta = 1
        stop = 1 + window
    curs[ci, 0], curs[ci, 1], curs[ci, 2], curs[ci, 3], curs[ci, 4] = 0, 0, span, ta, stop


@njit(cache=True, inline='always')
def _search(g: np.ndarray, n: int, split: np.ndarray, unequal: bool, n0: int, x: int, bitmaps: np.ndarray,
            bi: int, curs: np.ndarray, ci: int) -> bool:
    """Resume the search set up by _search_start until a split of heap n gives x, among the
    splits whose larger part is below n0; marks in bitmaps[bi] every value it meets.
    Neighbouring heaps have correlated values, so visiting 1, 1 + STRIDE, 1 + 2 STRIDE, ...
    first meets every needed value about 4x sooner than 1, 2, 3, ..."""
    ca, co, span, ta, stop = curs[ci, 0], curs[ci, 1], curs[ci, 2], curs[ci, 3], curs[ci, 4]
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
    curs[ci, 0], curs[ci, 1], curs[ci, 2], curs[ci, 3] = ca, co, span, ta
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
        top = _top(m, unequal)
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
            top = _top(m, unequal)
            if m < 2 or lo > top:
                continue
            s = np.searchsorted(listed, top + 1)  # the rare smaller parts are done above
            while s < n_rare and rare[s] < m:  # a rare larger part (below n0), a common smaller one
                if 2 * rare[s] > m:
                    y = g[m - rare[s]]
                    if _parity(y & mask) == 1:
                        _set_row(rows, i, rare_value[s] ^ y)
                s += 1
        if n_split == 0:
            continue
        # rare values below the least common value missing: a search of the splits of
        # phase one (in the window only) meets them; phase two resumes it where it stopped
        # (cursors[n - n0]) for any still missing
        _search_start(n, split, unequal, window, cursors, i)
        if shared:  # the window's first rows are done
            cursors[i, 0], cursors[i, 1] = shared_rows, shared_rows
        for x in range(64 * words):
            if _has_row(rows, i, x):
                continue
            if _parity(x & mask) == 1 or not _search(g, n, split, unequal, n0, x, rows, i, cursors, i):
                break


@njit(cache=True, nogil=True)
def takebreak_block_finish(
    digits: np.ndarray, unequal: bool, n0: int, start: int, end: int, words: int, rows: np.ndarray,
    cursors: np.ndarray, g: np.ndarray, hist: np.ndarray, rare: np.ndarray, rare_value: np.ndarray,
    reach: np.ndarray, scalars: np.ndarray, stats: np.ndarray,
) -> None:
    """Phase two of the block n0.. : heaps start..end-1 in order, each from its row of phase one
    and the splits with a part in the block; stops like takebreak_range (stats[0] = FULL or
    OVERFLOW, the heap to resume from in scalars[4]). The mask is not 0."""
    t = len(digits) - 1
    split = _splits(digits)
    n_split = len(split)
    n_rare, mask, max_value = scalars[0], scalars[1], scalars[2]
    k0 = np.searchsorted(rare[:n_rare], n0)  # rare[k0:n_rare]: the rare heaps of this block
    cur = np.zeros((1, 5), np.int64)
    cap = len(rare)
    used = reach.shape[1]  # words of reach that may be non-zero
    for n in range(start, end):
        if n_rare == cap:  # heap n may be rare: room for one more first
            stats[0] = FULL
            scalars[0], scalars[2] = n_rare, max_value
            scalars[4], scalars[5] = n, n_rare + 1
            return
        for w in range(used):
            reach[0, w] = 0
        for w in range(words):
            reach[0, w] = rows[n - n0, w]
        used = words
        for j in range(1, min(t, n) + 1):
            d = digits[j]
            if d & 1 and n == j:
                reach[0, 0] |= _ONE
            if d & 2 and n > j:
                _set_row(reach, 0, g[n - j])
                used = max(used, (g[n - j] >> 6) + 1)
        # splits whose larger part is in the block (a <= m - n0): with a rare part; those of
        # two common parts give only rare values, which the search below finds when needed
        for q in range(n_split):
            m = n - split[q]
            top = _top(m, unequal)
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
            if _parity(x & mask) == 1:
                break
            stats[3] += 1
            used = reach.shape[1]  # the search may mark any value
            found = False
            if n_split:
                if stage == -1:
                    stage = 0
                    for k in range(5):
                        cur[0, k] = cursors[n - n0, k]
                found = _search(g, n, split, unequal, n, x, reach, 0, cur, 0)
                if not found and stage == 0:
                    stage = 1
                    found = _search_in_block(g, n, split, unequal, n0, cur[0, 3], x, reach, 0)
                    m = n - split[0]
                    cur[0, 4] = _top(m, unequal) + 1
                    if not found:
                        found = _search(g, n, split, unequal, n, x, reach, 0, cur, 0)
            if not found:
                stats[4] += 1
                break
            x += 1
        if x >= VALUE_LIMIT:
            stats[0] = OVERFLOW
            return
        n_rare, max_value = _record(n, x, g, hist, mask, rare, rare_value, n_rare, max_value)
    scalars[0], scalars[2] = n_rare, max_value
    scalars[4] = end
    stats[1] = mask
    stats[2] = n_rare


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
    pool = ThreadPoolExecutor(workers) if workers > 1 else None
    try:
        while n < end:
            if n >= block_from and n == st.scalars[3]:  # (below block_from takebreak_range does it)
                mask, k, need = _rechoose(n, st.g, st.hist, st.scalars[2], st.scalars[1], st.scalars[0],
                                          st.rare, st.rare_value)
                if need:
                    st.stats[0] = FULL
                    st.scalars[4], st.scalars[5] = n, need
                    return
                st.scalars[1], st.scalars[0] = mask, k
                st.scalars[3] *= 2
            if n < block_from or st.scalars[1] == 0 or st.scalars[0] < rare_for_blocks:
                # one by one: below block_from; with mask 0 (_dense_mex settles a heap in about
                # one vectorized pass over its splits); or with few rare heaps (Kayles, 0.1777,
                # ...): a heap costs little, while a block's first phase would miss the splits
                # with a small part that it needs
                stop = min(end, block_from if n < block_from else int(st.scalars[3]))
                takebreak_range(digits, unequal, n, stop, st.g, st.stamp, st.hist, st.rare, st.rare_value,
                                st.scalars, st.stats)
                if st.stats[0]:
                    return
                n = stop
                continue
            n1 = min(end, n + block, int(st.scalars[3]))
            bits = max(int(st.scalars[2]).bit_length(), 6)
            words = 1 << (bits - 6)
            if st.rows is None or st.rows.shape[0] < block or st.rows.shape[1] < words:
                st.rows = np.empty((block, words), np.uint64)
                st.cursors = np.empty((block, 5), np.int64)
            mask, n_rare = int(st.scalars[1]), int(st.scalars[0])
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
                                   st.rare, st.rare_value, st.reach, st.scalars, st.stats)
            if st.stats[0]:
                return
            n = n1
    finally:
        if pool is not None:
            pool.shutdown()
    st.scalars[4] = end


@njit(cache=True)
def takebreak_naive_kernel(digits: np.ndarray, unequal: bool, count: int) -> np.ndarray:
    """The same values by the plain O(n^2) mex over every move (for tests and benchmarks)."""
    t = len(digits) - 1
    g = np.zeros(count, np.int32)
    stamp = np.full(VALUE_LIMIT + 1, -1, np.int64)
    for n in range(count):
        for j in range(min(t, n) + 1):
            d = digits[j]
            if j > 0:
                if d & 1 and n == j:
                    stamp[0] = n
                if d & 2 and n > j:
                    stamp[g[n - j]] = n
            if d & 4:
                m = n - j
                for a in range(1, m // 2 + 1):
                    if not (unequal and 2 * a == m):
                        stamp[g[a] ^ g[m - a]] = n
        x = 0
        while stamp[x] == n:
            x += 1
        g[n] = x
    return g


# ---------------------------------------------------------------- periods

#: the rolling hash of least_repeat: two primes below 2^30 (every product fits in an int64) and
#: a base for each. Windows whose hashes agree are compared value by value all the same, so a
#: collision costs time, never a wrong period.
_HASH_MOD1, _HASH_MOD2 = 1_000_000_007, 998_244_353
_HASH_BASE1, _HASH_BASE2 = 911_382_323, 972_663_749


@njit(cache=True, nogil=True)
def least_repeat(g: np.ndarray, width: int, p_from: int = 1, budget: int = -1) -> tuple[int, int]:
    """The least shift p >= p_from whose run of repeats holds at least `width` values, and where
    that run starts: (p, e) with g[n] == g[n + p] for every e <= n < len(g) - p, e the least
    such, and len(g) - p - e >= width. (0, 0) when no shift has one (`width` >= 1).

    Every period scan asks this: a period is proven once its run is long enough. Shifts are
    tried in order by comparing values from the end down, while that costs at most `budget`
    comparisons in all (len(g) when negative): in most tables a wrong shift fails within a few
    values, and nothing is faster. Long runs of equal values (the subtraction game {10^6}: a
    million 0s, a million 1s, ...) would make that quadratic, so past the budget the other
    shifts are tried by a rolling hash (_least_repeat_hashed): O(len(g)) in all.
    """
    size = len(g)
    if width < 1:
        return 0, 0
    if budget < 0:
        budget = size
    spent = 0
    for p in range(max(p_from, 1), size - width + 1):
        n = size - 1 - p
        while n >= 0 and g[n] == g[n + p]:
            n -= 1
        run = size - 1 - p - n
        if run >= width:
            return p, n + 1
        spent += run + 1
        if spent > budget:
            return _least_repeat_hashed(g, width, p + 1)
    return 0, 0


@njit(cache=True, nogil=True)
def _least_repeat_hashed(g: np.ndarray, width: int, p_from: int) -> tuple[int, int]:
    """least_repeat from shift p_from >= 1, by hashes: shift p's run holds `width` values iff
    the `width` values ending at len(g) - p equal the last `width` values. Each window's hash
    (sum of (g[s + i] + 1) b^i modulo two primes) comes from the previous one in O(1) as the
    window slides left; a window whose hashes agree with the last one's is compared value by
    value, and when equal, its run is followed down to its start."""
    size = len(g)
    last = size - width  # the largest shift whose window fits
    if p_from > last:
        return 0, 0
    m1, m2, b1, b2 = _HASH_MOD1, _HASH_MOD2, _HASH_BASE1, _HASH_BASE2
    t1 = t2 = h1 = h2 = 0
    s = last - p_from
    for i in range(width - 1, -1, -1):
        v = g[last + i] + 1
        t1 = (t1 * b1 + v) % m1
        t2 = (t2 * b2 + v) % m2
        v = g[s + i] + 1
        h1 = (h1 * b1 + v) % m1
        h2 = (h2 * b2 + v) % m2
    top1 = top2 = 1  # b^(width - 1): the weight of a window's last value
    for _ in range(width - 1):
        top1 = top1 * b1 % m1
        top2 = top2 * b2 % m2
    p = p_from
    while True:
        s = last - p
        if h1 == t1 and h2 == t2:
            same = True
            for i in range(width):
                if g[s + i] != g[last + i]:
                    same = False
                    break
            if same:
                n = s - 1
                while n >= 0 and g[n] == g[n + p]:
                    n -= 1
                return p, n + 1
        if p == last:
            return 0, 0
        drop = g[s + width - 1] + 1
        add = g[s - 1] + 1
        h1 = ((h1 + m1 - drop * top1 % m1) * b1 + add) % m1
        h2 = ((h2 + m2 - drop * top2 % m2) * b2 + add) % m2
        p += 1


@njit(cache=True, nogil=True)
def period_kernel(g: np.ndarray, t: int) -> tuple[int, int]:
    """Smallest period p, with its preperiod e, proven by the octal periodicity theorem.

    Guy–Smith: if g[n + p] == g[n] for all e <= n < 2e + p + t (t = most tokens a move
    removes), then for all n >= e. We ask for it through n = 2e + p + t inclusive, so
    2e + 2p + t <= len(g) - 1, the least e for each p. With e = len(g) - p - run (the run of
    repeats ending at the end), that is run >= (len(g) + 1 + t) / 2 for every p: one
    least_repeat. Returns (0, 0) when no period is proven yet.
    """
    return least_repeat(g, (len(g) + 2 + t) // 2)


# ---------------------------------------------------------------- popcount game

_M = (
    np.uint64(0x5555555555555555),
    np.uint64(0x3333333333333333),
    np.uint64(0x0F0F0F0F0F0F0F0F),
    np.uint64(0x00FF00FF00FF00FF),
    np.uint64(0x0000FFFF0000FFFF),
    np.uint64(0x00000000FFFFFFFF),
)
_M0, _M1, _M2, _M3, _M4, _M5 = _M
_S = tuple(np.uint64(1 << b) for b in range(6))
_S0, _S1, _S2, _S3, _S4, _S5 = _S


@njit(cache=True)
def _xor_bits(x: np.uint64, s: int) -> np.uint64:
    """Bit i of the result is bit i ^ s of x (0 <= s < 64): swap blocks of 2^b for each bit b of s."""
    if s & 1:
        x = ((x & _M0) << _S0) | ((x >> _S0) & _M0)
    if s & 2:
        x = ((x & _M1) << _S1) | ((x >> _S1) & _M1)
    if s & 4:
        x = ((x & _M2) << _S2) | ((x >> _S2) & _M2)
    if s & 8:
        x = ((x & _M3) << _S3) | ((x >> _S3) & _M3)
    if s & 16:
        x = ((x & _M4) << _S4) | ((x >> _S4) & _M4)
    if s & 32:
        x = ((x & _M5) << _S5) | ((x >> _S5) & _M5)
    return x


@njit(cache=True)
def xor_or_kernel(dst: np.ndarray, src: np.ndarray, v: int) -> None:
    """dst |= {x ^ v : x in src}, on bitmaps packed 64 numbers to a word (len >= v/64)."""
    hi = v >> 6
    lo = v & 63
    for w in range(dst.shape[0]):
        dst[w] |= _xor_bits(src[w ^ hi], lo)


@njit(cache=True)
def first_zero_kernel(bits: np.ndarray) -> int:
    """The least number absent from a packed bitmap (64 * len if all are present)."""
    full = np.uint64(0xFFFFFFFFFFFFFFFF)
    for w in range(bits.shape[0]):
        x = bits[w]
        if x != full:
            i = 0
            while (x >> np.uint64(i)) & np.uint64(1):
                i += 1
            return 64 * w + i
    return 64 * bits.shape[0]


# ---------------------------------------------------------------- subtraction games


@njit(cache=True, nogil=True)
def subtraction_range(moves: np.ndarray, start: int, end: int, g: np.ndarray, stamp: np.ndarray) -> None:
    """Fill g[start:end] given g[:start]: G(n) = mex{G(n - s) : s in moves, s <= n}.

    `moves` ascends; `stamp` has len(moves) + 2 entries (a value is at most the number of
    options), and stamp[v] == n marks v as the value of an option of heap n.
    """
    k = len(moves)
    for n in range(start, end):
        for i in range(k):
            s = moves[i]
            if s > n:
                break
            stamp[g[n - s]] = n
        x = 0
        while stamp[x] == n:
            x += 1
        g[n] = x


@njit(cache=True, nogil=True)
def window_period_kernel(g: np.ndarray, window: int) -> tuple[int, int]:
    """Smallest period p, with its preperiod e, proven by a repeated window.

    For a game whose G(n) is a function of the `window` values before it (a subtraction
    game: window = max(S)), g[n + p] == g[n] for `window` consecutive n from e on proves
    it for all n >= e (by induction: the next value is the same function of the same
    window). e is the least with g[n] == g[n + p] for every e <= n < len(g) - p, and p is
    proven when that run of repeats holds >= window values (least_repeat).
    Returns (0, 0) when no period is proven within len(g).
    """
    return least_repeat(g, window)


# ---------------------------------------------------------------- hexadecimal games (3-heap splits)

#: values of a game with 3-heap splits must stay below this (bitmaps of HEX_WORDS words)
HEX_VALUE_LIMIT = 1 << 10
HEX_WORDS = HEX_VALUE_LIMIT // 64


@njit(cache=True, nogil=True)
def hex_range(digits: np.ndarray, start: int, end: int, g: np.ndarray, s2: np.ndarray, t3: np.ndarray,
              scalars: np.ndarray) -> None:
    """Fill g[start:end] of a hexadecimal game (digit bit 8: leave three non-empty heaps).

    Bitmaps of reachable values, HEX_WORDS words a heap: s2[r] = {G(a) ^ G(r - a)} over the
    splits of r into two heaps, t3[r] = {G(a) ^ x : 1 <= a <= r/3, x in s2[r - a]} over the
    splits into three (a the smallest part; s2[r - a] also holds pairs with a part below a,
    which are splits into three all the same). Invariant: every value so far is below
    2^scalars[0] (>= 64), so XORs are too, and only the first 2^scalars[0] / 64 words of a
    bitmap can be non-zero. scalars[1] = 1 when a value reaches HEX_VALUE_LIMIT (g is then
    incomplete).
    """
    t = len(digits) - 1
    any3 = False
    for j in range(t + 1):
        if digits[j] & 8:
            any3 = True
    reach = np.zeros(s2.shape[1], np.uint64)
    bits = scalars[0]
    for n in range(start, end):
        wu = 1 << (bits - 6)
        for w in range(wu):
            s2[n, w] = 0
        for a in range(1, n // 2 + 1):
            v = g[a] ^ g[n - a]
            s2[n, v >> 6] |= _ONE << np.uint64(v & 63)
        if any3:
            for w in range(wu):
                t3[n, w] = 0
            for a in range(1, n // 3 + 1):
                hi = g[a] >> 6
                lo = g[a] & 63
                for w in range(wu):
                    t3[n, w] |= _xor_bits(s2[n - a, w ^ hi], lo)
        for w in range(wu):
            reach[w] = 0
        for j in range(min(t, n) + 1):
            d = digits[j]
            rest = n - j
            if j > 0 and d & 1 and rest == 0:
                reach[0] |= _ONE
            if j > 0 and d & 2 and rest > 0:
                reach[g[rest] >> 6] |= _ONE << np.uint64(g[rest] & 63)
            if d & 4:
                for w in range(wu):
                    reach[w] |= s2[rest, w]
            if d & 8:
                for w in range(wu):
                    reach[w] |= t3[rest, w]
        x = first_zero_kernel(reach[:wu])
        if x >= HEX_VALUE_LIMIT:
            scalars[1] = 1
            return
        g[n] = x
        while (1 << bits) <= x:
            bits += 1
    scalars[0] = bits


@njit(cache=True, nogil=True)
def split_period_kernel(g: np.ndarray, t: int, parts: int) -> tuple[int, int]:
    """Smallest period p, with its preperiod e, proven for a game that splits a heap into
    at most `parts` heaps (parts = 3: hexadecimal games with bit 8).

    The octal periodicity theorem's induction, with three parts: the largest part c of a
    split of n + p - j is >= (n + p - t) / 3, so G(c) = G(c - p) with c - p >= e' = max(e, 1)
    whenever n >= 3e' + 2p + t; hence G(n + p) = G(n) for e <= n < 3e' + 2p + t proves it for
    all n >= e (parts = 2 gives 2e' + p + t, the classic bound with e' for e). We ask
    for it through n = parts e' + (parts - 1) p + t inclusive. Returns (0, 0) when no
    period is proven yet.
    """
    size = len(g)
    # with e >= 1 the condition is run >= width, run = size - p - e the run of repeats ending
    # at the end; with e = 0 it asks `parts` more, so a shift found may fail it: try the next
    width = size - (size - 1 - t) // parts
    p = 1
    while True:
        p, e = least_repeat(g, width, p)
        if p == 0 or p > size // 2:
            return 0, 0
        if parts * max(e, 1) + parts * p + t <= size - 1:
            return p, e
        p += 1
