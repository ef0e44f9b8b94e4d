"""The numba kernel of take-and-break games (octal games and Grundy's game), heap by heap.

Every value is computed bottom-up (no recursion) and checked in the tests against the plain
O(n^2) mex over every move and the plain rules in ``rules.py`` played through the general
engine.

The rare/common split of Gangolli and Plambeck (1989), as in Flammenkamp's computations of
Grundy's game: fix a bit mask m and call a value *rare* when parity(v & m) = 0, *common*
otherwise. The XOR of two values is common only if exactly one of them is rare. So a common
value is reachable by splitting heap m into a + b iff some pair with a rare part gives it,
and the rare heaps are few: scanning them marks every reachable common value. A rare
candidate for the mex is settled by a scan over all pairs that marks every value it passes
and stops at the candidate; it usually stops soon (common XOR common values are plentiful)
and runs to the end only when a new rare value appears. The result is exact for every mask;
a good mask only makes it fast. The mask is re-chosen at n = FIRST_CHOICE, 2 FIRST_CHOICE,
4 FIRST_CHOICE, ... as the one that makes the fewest heaps rare; when more than one heap in
DENSE_SHARE would be rare, the scan of the rare heaps costs more than it saves, and every
heap is treated as rare (mask 0): the plain mex over all splits, sampled first and then
settled by vectorized scans (_dense_mex).

A computation carries two int64 arrays from one call to the next (takebreak.TakeBreakState),
read and written through the slot names below: `scalars`, the kernel's state, and `stats`,
what it reports. Heaps from blocks_kernel.BLOCK_FROM on may also go in blocks on several
threads (blocks_kernel, takebreak.takebreak_advance), with the same state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import ONE, parity
from .limits import VALUE_LIMIT

#: slots of `scalars`: the rare heaps listed, the mask, the largest value so far, the next heap
#: at which the mask is re-chosen; where a call stopped early, the heap to resume from and the
#: rare heaps the arrays must hold to go on
RARE_COUNT, MASK, LARGEST, NEXT_CHOICE, RESUME_AT, RARE_NEEDED = range(6)
SCALARS = 6
#: the slots a range's record in a checkpoint keeps: RARE_COUNT..NEXT_CHOICE
CARRIED = NEXT_CHOICE + 1
#: slots of `stats`: why the kernel stopped (0, OVERFLOW or FULL), the mask in use, the rare
#: heaps (every heap with mask 0), the searches for a rare candidate, the new rare values found
STOP, RARE_MASK, RARE_HEAPS, RARE_SEARCHES, NEW_RARE_VALUES = range(5)
STATS = 5
#: kernel stops (stats[STOP]): a value reached VALUE_LIMIT; the rare arrays are full
OVERFLOW, FULL = 1, 2
#: the first heap at which the mask is chosen (then each time the heaps double)
FIRST_CHOICE = 256

STRIDE = 97  # scan order for rare candidates (see takebreak_range)
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
            if parity(v & mask) == 0:
                c += hist[v]
        if c < best_count:
            best = mask
            best_count = c
    if DENSE_SHARE * best_count > hist.sum():
        return 0  # too many rare heaps for the rare scan to pay: every heap is rare (_dense_mex)
    return best


@njit(cache=True, nogil=True)
def list_rare(g: np.ndarray, end: int, mask: int, rare: np.ndarray, rare_value: np.ndarray) -> int:
    """The rare heaps below `end` under `mask` (parity(g & mask) = 0) into rare and
    rare_value (when they fit); returns how many there are (a resumed run rebuilds them)."""
    k = 0
    for a in range(end):
        if parity(g[a] & mask) == 0:
            if k < len(rare):
                rare[k] = a
                rare_value[k] = g[a]
            k += 1
    return k


@njit(cache=True, inline='always')
def record(n: int, x: int, g: np.ndarray, hist: np.ndarray, mask: int, rare: np.ndarray,
           rare_value: np.ndarray, n_rare: int, max_value: int) -> tuple[int, int]:
    """G(n) = x: store it, count it, and list heap n when its value is rare (the caller made
    room); the new (rare heaps, largest value)."""
    g[n] = x
    hist[x] += 1
    if mask != 0 and parity(x & mask) == 0:
        rare[n_rare] = n
        rare_value[n_rare] = x
        n_rare += 1
    return n_rare, max(max_value, x)


@njit(cache=True, inline='always')
def top_part(m: int, unequal: bool) -> int:
    """The largest smaller part of a split of m tokens into two heaps (unequal: of different sizes)."""
    return (m - 1) // 2 if unequal else m // 2


@njit(cache=True, nogil=True)
def rechoose(n: int, g: np.ndarray, hist: np.ndarray, max_value: int, mask: int, n_rare: int,
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
            if parity(g[a] & new) == 0:
                need += 1
    if need + 1 > len(rare):  # + 1: heap n itself may be rare
        return mask, n_rare, need + 1
    if new == 0:
        return 0, 0, 0
    return new, list_rare(g, n, new, rare, rare_value), 0


@njit(cache=True, nogil=True)
def takebreak_range(
    digits: np.ndarray, unequal: bool, start: int, end: int, g: np.ndarray, stamp: np.ndarray,
    hist: np.ndarray, rare: np.ndarray, rare_value: np.ndarray, scalars: np.ndarray, stats: np.ndarray,
    probes: int = DENSE_PROBES,
) -> None:
    """Fill g[start:end], given g[:start] and the state the previous range left (TakeBreakState).
    Stops early with stats[STOP] = FULL when the rare arrays are full: heaps
    start..scalars[RESUME_AT]-1 are done, and scalars[RARE_NEEDED] rare heaps are needed to go on.
    `probes`: see _dense_mex."""
    t = len(digits) - 1
    n_rare, mask = scalars[RARE_COUNT], scalars[MASK]
    max_value, next_choice = scalars[LARGEST], scalars[NEXT_CHOICE]
    split = np.array([j for j in range(t + 1) if digits[j] & 4], np.int64)  # split moves, ascending
    n_split = len(split)
    cap = len(rare)
    for n in range(start, end):
        if n == next_choice:
            new, k, need = rechoose(n, g, hist, max_value, mask, n_rare, rare, rare_value)
            if need:  # no room: the caller grows the arrays and calls again from n
                stats[STOP] = FULL
                scalars[RARE_COUNT], scalars[MASK] = n_rare, mask
                scalars[LARGEST], scalars[NEXT_CHOICE] = max_value, next_choice
                scalars[RESUME_AT], scalars[RARE_NEEDED] = n, need
                return
            mask, n_rare = new, k
            next_choice *= 2
        dense = mask == 0 and max_value >= 64  # every split, and values too large for one word: _dense_mex
        if mask != 0 and n_rare == cap:  # heap n may be rare: room for one more first
            stats[STOP] = FULL
            scalars[RARE_COUNT], scalars[MASK] = n_rare, mask
            scalars[LARGEST], scalars[NEXT_CHOICE] = max_value, next_choice
            scalars[RESUME_AT], scalars[RARE_NEEDED] = n, n_rare + 1
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
                    for a in range(1, top_part(m, unequal) + 1):
                        bits |= ONE << np.uint64(g[a] ^ g[m - a])
                    v = 0
                    while bits:
                        if bits & ONE:
                            stamp[v] = n
                        bits >>= ONE
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
                    if parity(y & mask) == 1:
                        stamp[rare_value[s] ^ y] = n
                    s += 1
        # The mex. A rare candidate x resumes one scan over all splits (cursor ca, co)
        # that marks every value it passes, so later candidates are often already seen.
        ca = 1
        co = 1
        x = _dense_mex(g, n, split, unequal, stamp, max_value, probes) if dense else 0
        while not dense and x < VALUE_LIMIT:
            if stamp[x] != n:
                if mask == 0 or parity(x & mask) == 1:
                    break  # not reached by any pair with a rare part, and no other pair exists
                stats[RARE_SEARCHES] += 1
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
                    stats[NEW_RARE_VALUES] += 1
                    break
            x += 1
        if x >= VALUE_LIMIT:
            stats[STOP] = OVERFLOW
            return
        n_rare, max_value = record(n, x, g, hist, mask, rare, rare_value, n_rare, max_value)
    scalars[RARE_COUNT], scalars[MASK] = n_rare, mask
    scalars[LARGEST], scalars[NEXT_CHOICE] = max_value, next_choice
    scalars[RESUME_AT] = end
    stats[RARE_MASK] = mask
    stats[RARE_HEAPS] = end if mask == 0 else n_rare  # mask 0: every heap is rare


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
            total += top_part(m, unequal)
    budget = min(total, probes * (max_value + 1))
    seen = 0
    if total:
        half = top_part(n - split[0], unequal)  # split ascends: the first has the most smaller parts
        for co in range(STRIDE):
            if seen >= budget:
                break
            for c in range(co * DENSE_RUN, half, STRIDE * DENSE_RUN):  # runs c + 1 .. c + DENSE_RUN
                for q in range(len(split)):
                    m = n - split[q]
                    e = min(c + DENSE_RUN, top_part(m, unequal))
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
                _has8(g, m, top_part(m, unequal), cand, found)
        for k in range(8):
            if cand[k] == _NO_VALUE:
                return VALUE_LIMIT
            if not found[k]:
                return cand[k]
            stamp[cand[k]] = n


__all__ = [
    "CARRIED", "DENSE_PROBES", "FIRST_CHOICE", "FULL", "LARGEST", "MASK", "NEW_RARE_VALUES", "NEXT_CHOICE",
    "OVERFLOW", "RARE_COUNT", "RARE_HEAPS", "RARE_MASK", "RARE_NEEDED", "RARE_SEARCHES", "RESUME_AT",
    "SCALARS", "STATS", "STOP", "STRIDE", "list_rare", "rechoose", "record", "takebreak_range", "top_part",
]
