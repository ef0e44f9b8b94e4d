"""Numba kernels of the breadth-first engine (`layers`): 2 bits a state, indexed by rank.

A state's two bits (four to a byte, state i at bits 2*(i % 4) of byte i // 4):

    UNSEEN  not reached yet
    CUR     in the layer being expanded (distance d)
    NEXT    found in this pass (distance d + 1)
    OLD     reached earlier (distance < d)

After each pass ``relabel`` turns CUR into OLD and NEXT into CUR, one table lookup a byte.
(The other classic encoding, distance mod 3, cannot tell layer d from d - 3: a top-down
pass re-expands every third layer, which costs nothing for pancakes, whose layers grow
tenfold, and makes 4-peg Hanoi, with 150-odd layers of similar size, fifty times slower.)

Three kinds of ranked spaces, described by plain arrays (see ``space.Space``); every
rank is a mixed-radix number whose digits are kept most significant first in ``digits``:

PERM    a deck q of n cards 0..n-1, *bottom card first*, ranked by its Lehmer code
        (digit i = cards after position i smaller than q[i], radix n - i). A move is a
        gather q'[i] = q[moves[j, i]] that leaves positions below n - reach[j] in place;
        their digits count cards that stay above them, so they stay too: the image's
        rank is the state's own high part plus the rank of its top reach[j] cards,
        O(reach) with one popcount a card. Flips and block moves touch the top of the
        deck, so the images under short moves lie within reach! ranks: in cache.
        When every move is even only one parity is reachable: ``compressed`` halves the
        index (the last digit is always 0 and the one before it fixes the parity).
FLIPS   PERM whose moves are all flips (reversals of the top k cards): the same ranks, the
        gather computed instead of looked up (a fifth faster).
SIGNED  the same with a burnt side per card: digit i = 2 * Lehmer digit + sign, radix
        2(n - i); moves are burnt flips (reverse the top k and turn each card over).
HANOI   discs on p pegs: digit i = the peg of disc n - 1 - i (the largest disc first),
        radix p; a move takes the top (smallest) disc of a peg to a peg whose top disc is
        larger or that is empty.

A fifth kind, PIECES (puzzles described by sets of pieces), has passes of its own in
`pieces_kernel`, on the same bits and tables, and a sixth, GROUP (the elements of a
permutation group, ranked by a stabiliser chain), in `group_kernel`.

Each kernel works on a range of states. A bottom-up pass writes only the bytes of its own
range, so threads on disjoint, byte-aligned ranges never race; a top-down pass marks
images anywhere, each by one atomic step (`mark_next`), the only change any thread makes
during it (a reader may see a byte change, but only from UNSEEN to NEXT, which no test
here confuses with CUR). The passes meet their images in random order, mostly cache
misses: a top-down pass asks for a state's images (`prefetch`) before it settles the
previous state's, so that the waits overlap.

NO_REFCOUNTS: the loops of the passes (_push, _emit, _pull) are compiled without numba's
reference counting (``_nrt=False``), their scratch arrays made by the kernel that calls
them. With it, numba counts references to the arrays that a state's helpers take, several
atomic increments and decrements a state; each waits for the memory reads before it, so
the prefetched images no longer overlap: on 11 pancakes the counting takes 70% of a pass
(perf), the largest top-down pass 7.8 s on one thread against 1.9 s without it.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

UNSEEN, OLD, CUR, NEXT = 3, 0, 1, 2
PERM, SIGNED, HANOI, FLIPS, PIECES, GROUP = 0, 1, 2, 3, 4, 5
#: the moves a bottom-up pass checks together, after the others one by one: the longest
#: ones, whose images are far away (cache misses)
FAR_MOVES = 3


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per byte value: does it hold an UNSEEN state, does it hold a CUR state, the byte
    after relabelling (CUR -> OLD, NEXT -> CUR), how many CUR states it holds."""
    has_unseen = np.zeros(256, dtype=np.bool_)
    has_cur = np.zeros(256, dtype=np.bool_)
    relabelled = np.zeros(256, dtype=np.uint8)
    cur_count = np.zeros(256, dtype=np.int64)
    for b in range(256):
        out = 0
        for s in range(4):
            v = (b >> (2 * s)) & 3
            has_unseen[b] |= v == UNSEEN
            has_cur[b] |= v == CUR
            cur_count[b] += v == CUR
            out |= {CUR: OLD, NEXT: CUR}.get(v, v) << (2 * s)
        relabelled[b] = out
    return has_unseen, has_cur, relabelled, cur_count


HAS_UNSEEN, HAS_CUR, RELABELLED, CUR_COUNT = _tables()


@njit(cache=True, inline="always")
def get(cells, i):
    return (cells[i >> 2] >> ((i & 3) << 1)) & 3


@njit(cache=True, inline="always")
def put(cells, i, v):
    s = (i & 3) << 1
    cells[i >> 2] = (cells[i >> 2] & ~np.uint8(3 << s)) | np.uint8(v << s)


@intrinsic
def popcount(typingctx, x):
    """The set bits of an integer: LLVM's ctpop, one instruction where the CPU has it."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def fetch_and(typingctx, address, mask):
    """The byte at `address` ANDed with `mask` in one atomic step (LLVM's atomicrmw and);
    the byte it held before."""
    if not isinstance(address, types.Integer) or not isinstance(mask, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        ptr = builder.inttoptr(args[0], ir.IntType(8).as_pointer())
        bits = builder.trunc(args[1], ir.IntType(8)) if mask.bitwidth > 8 else args[1]
        return builder.atomic_rmw("and", ptr, bits, "monotonic")

    return types.uint8(address, mask), codegen


@njit(cache=True, inline="always")
def mark_next(address, t):
    """UNSEEN -> NEXT for state t, safe while other threads do the same to its byte (NEXT is
    UNSEEN with its low bit cleared, and an UNSEEN state becomes nothing else in a pass);
    whether this call marked it."""
    s = (t & 3) << 1
    old = fetch_and(address + (t >> 2), np.uint8(0xFF ^ (1 << s)))
    return ((old >> s) & 3) == UNSEEN


@intrinsic
def prefetch(typingctx, address):
    """Ask the CPU to bring the byte at `address` into its caches, without waiting for it
    (LLVM's prefetch: a read, kept in every cache level)."""
    if not isinstance(address, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        byte = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        kind = ir.FunctionType(ir.VoidType(), [byte, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, kind, "llvm.prefetch.p0i8")
        builder.call(fn, [builder.inttoptr(args[0], byte), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(address), codegen


@njit(cache=True, inline="always")
def settle(cells, address, ranks, k):
    """Mark NEXT the UNSEEN states among ranks[:k] (one atomic step each, mark_next); how
    many this call marked."""
    marked = 0
    for j in range(k):
        t = ranks[j]
        # a seen state never becomes unseen: the plain read spares most atomic steps
        if get(cells, t) == UNSEEN:
            marked += mark_next(address, t)
    return marked


@njit(cache=True)
def digits_of(index, kind, n, radix, compressed, digits):
    """The digits of the state with this index (when compressed, the parity digit n - 2
    is left for `cards_of`)."""
    r = index * 2 if compressed else index
    for i in range(n - 1, -1, -1):
        digits[i] = r % radix[i]
        r //= radix[i]


@njit(cache=True)
def advance(digits, n, radix, compressed, gap):
    """The digits of the index `gap` further on: a mixed-radix addition that stops with its
    carry, so a short gap costs a few digits whatever the size. Returns the first digit
    that changed."""
    i = n - 3 if compressed else n - 1
    if i < 0:
        return 0
    carry = gap
    while True:
        v = digits[i] + carry
        if v < radix[i]:
            digits[i] = v
            return i
        digits[i] = v % radix[i]
        carry = v // radix[i]
        if i == 0:
            return 0
        i -= 1


@njit(cache=True)
def cards_of(kind, digits, n, compressed, parity, cards, first=0):
    """PERM/SIGNED: the cards (bottom first) with these digits, given that digits before
    `first` are those of the cards already in `cards`; when compressed, the parity digit is
    set first. HANOI has no cards: the digits are the pegs."""
    if kind == HANOI:
        return
    shift = 1 if kind == SIGNED else 0
    if compressed:
        s = 0
        for i in range(n - 2):
            s += digits[i]
        digits[n - 2] = (s + parity) & 1
    # the cards left for positions first.., in order (insertion sort of a short tail)
    for i in range(first + 1, n):
        c = cards[i]
        j = i
        while j > first and cards[j - 1] > c:
            cards[j] = cards[j - 1]
            j -= 1
        cards[j] = c
    # digit d picks the d-th card left and closes the gap
    for i in range(first, n):
        d = digits[i] >> shift
        c = cards[i + d]
        for k in range(i + d, i, -1):
            cards[k] = cards[k - 1]
        cards[i] = c


@njit(cache=True)
def locate(idx, last, kind, n, radix, compressed, parity, digits, cards):
    """digits, cards = the state at idx, moving on from the state at `last` (when >= 0)."""
    if 0 <= last <= idx:
        first = advance(digits, n, radix, compressed, idx - last)
        cards_of(kind, digits, n, compressed, parity, cards, first)
    else:
        digits_of(idx, kind, n, radix, compressed, digits)
        for i in range(n):
            cards[i] = i
        cards_of(kind, digits, n, compressed, parity, cards, 0)


@njit(cache=True, inline="always")
def prepare(kind, n, digits, weights, high):
    """PERM/SIGNED: high[i] = the part of the index that digits 0..i-1 make."""
    high[0] = 0
    for i in range(n):
        high[i + 1] = high[i] + digits[i] * weights[i]


@njit(cache=True, inline="always")
def image(j, kind, n, compressed, digits, cards, weights, moves, reach, high):
    """PERM/SIGNED: the index of the state after move j (`prepare` first)."""
    r = reach[j]
    lo = n - r
    low = 0
    seen = 0
    if kind == SIGNED:  # a burnt flip of the top r: reversed, each card turned over
        for i in range(n - 1, lo - 1, -1):
            src = n - 1 - (i - lo)
            c = cards[src]
            below = popcount(seen & ((1 << c) - 1))
            low += (2 * below + 1 - (digits[src] & 1)) * weights[i]
            seen |= 1 << c
    elif kind == FLIPS:  # the top r reversed
        for i in range(n - 1, lo - 1, -1):
            c = cards[n - 1 - (i - lo)]
            low += popcount(seen & ((1 << c) - 1)) * weights[i]
            seen |= 1 << c
    else:
        for i in range(n - 1, lo - 1, -1):
            c = cards[moves[j, i]]
            low += popcount(seen & ((1 << c) - 1)) * weights[i]
            seen |= 1 << c
    rank = high[lo] + low
    return (rank >> 1) if compressed else rank


@njit(cache=True)
def images(idx, kind, n, pegs, compressed, digits, cards, weights, moves, reach, high, top, ranks):
    """ranks[:k] = the indices of the states one move from the state (idx, digits, cards);
    returns k. PERM moves are listed shortest reach first, so nearby images come first."""
    if kind == HANOI:
        for g in range(pegs):
            top[g] = -1
        for i in range(n - 1, -1, -1):  # smallest disc first: the first seen on a peg is its top
            g = digits[i]
            if top[g] < 0:
                top[g] = i
        k = 0
        for a in range(pegs):
            ia = top[a]
            if ia < 0:
                continue
            for b in range(pegs):
                if b != a and top[b] < ia:  # b empty (-1) or its top disc is larger (nearer 0)
                    ranks[k] = idx + (b - a) * weights[ia]
                    k += 1
        return k
    prepare(kind, n, digits, weights, high)
    for j in range(reach.shape[0]):
        ranks[j] = image(j, kind, n, compressed, digits, cards, weights, moves, reach, high)
    return reach.shape[0]


@njit(cache=True, nogil=True)
def push(cells, lo, hi, start, kind, n, pegs, compressed, parity, radix, weights, moves, reach,
         buf, counts):
    """Top-down over the CUR states in [start, hi) of the range [lo, hi): every UNSEEN
    image, inside the range or not, is marked NEXT here by an atomic step (mark_next), so
    that threads pushing at once lose no mark and buffer nothing (counts[1] is 0, buf is
    not used). The images are mostly cache misses: those of one state are asked for
    (prefetch) before the previous state's are settled, so that the wait for memory
    overlaps the work of a whole state.

    counts[0] = states marked; returns hi.
    """
    digits = np.zeros(n, dtype=np.int64)
    cards = np.zeros(n, dtype=np.int64)
    high = np.zeros(n + 1, dtype=np.int64)
    top = np.zeros(max(pegs, 1), dtype=np.int64)
    ranks = np.zeros((2, max(reach.shape[0], pegs * (pegs - 1))), dtype=np.int64)
    idx, counts[0] = _push(cells, hi, start, kind, n, pegs, compressed, parity, radix, weights, moves, reach,
                           digits, cards, high, top, ranks)
    counts[1] = 0
    return idx


@njit(cache=True, nogil=True, _nrt=False)
def _push(cells, hi, start, kind, n, pegs, compressed, parity, radix, weights, moves, reach,
          digits, cards, high, top, ranks):
    """push's loop (see NO_REFCOUNTS): (where it stopped, states marked)."""
    address = cells.ctypes.data
    marked, last = 0, -1
    slot, waiting = 0, 0  # ranks[slot] takes the next state's images; ranks[1 - slot] holds `waiting`
    idx = start
    while idx < hi:
        if (idx & 3) == 0 and idx + 4 <= hi and not HAS_CUR[cells[idx >> 2]]:
            idx += 4
            continue
        if get(cells, idx) != CUR:
            idx += 1
            continue
        locate(idx, last, kind, n, radix, compressed, parity, digits, cards)
        last = idx
        out = ranks[slot]
        k = images(idx, kind, n, pegs, compressed, digits, cards, weights, moves, reach, high, top, out)
        for j in range(k):
            prefetch(address + (ranks[slot, j] >> 2))
        marked += settle(cells, address, ranks[1 - slot], waiting)
        slot, waiting = 1 - slot, k
        idx += 1
    marked += settle(cells, address, ranks[1 - slot], waiting)
    return idx, marked


@njit(cache=True, nogil=True)
def emit(cells, lo, hi, start, value, kind, n, pegs, compressed, parity, radix, weights, moves, reach,
         buf, counts):
    """Every image of the states whose bits are `value` in [start, hi) into buf, read only
    (cells holds the states lo..hi-1 only; lo is a multiple of 4). Stops early, before buf
    could overflow. counts[0] = entries in buf; returns where to go on (hi: done)."""
    digits = np.zeros(n, dtype=np.int64)
    cards = np.zeros(n, dtype=np.int64)
    high = np.zeros(n + 1, dtype=np.int64)
    top = np.zeros(max(pegs, 1), dtype=np.int64)
    ranks = np.zeros(max(reach.shape[0], pegs * (pegs - 1)), dtype=np.int64)
    idx, counts[0] = _emit(cells, lo, hi, start, value, kind, n, pegs, compressed, parity, radix, weights,
                           moves, reach, buf, digits, cards, high, top, ranks)
    return idx


@njit(cache=True, nogil=True, _nrt=False)
def _emit(cells, lo, hi, start, value, kind, n, pegs, compressed, parity, radix, weights, moves, reach,
          buf, digits, cards, high, top, ranks):
    """emit's loop (see NO_REFCOUNTS): (where it stopped, entries in buf)."""
    room = buf.shape[0] - ranks.shape[0]
    nb, last = 0, -1
    idx = start
    while idx < hi:
        if get(cells, idx - lo) != value:
            idx += 1
            continue
        if nb > room:
            break
        locate(idx, last, kind, n, radix, compressed, parity, digits, cards)
        last = idx
        k = images(idx, kind, n, pegs, compressed, digits, cards, weights, moves, reach, high, top, ranks)
        for j in range(k):
            buf[nb] = ranks[j]
            nb += 1
        idx += 1
    return idx, nb


@njit(cache=True, nogil=True)
def mark(cells, lo, hi, buf, nb):
    """Mark NEXT the UNSEEN states of buf[:nb] inside [lo, hi); how many were marked."""
    marked = 0
    for t in range(nb):
        r = buf[t]
        if lo <= r < hi and get(cells, r) == UNSEEN:
            put(cells, r, NEXT)
            marked += 1
    return marked


@njit(cache=True, nogil=True)
def pull(cells, lo, hi, kind, n, pegs, compressed, parity, radix, weights, moves, reach):
    """Bottom-up over [lo, hi): an UNSEEN state with a CUR predecessor (moves and reach
    are the inverse moves) is marked NEXT; how many were marked."""
    digits = np.zeros(n, dtype=np.int64)
    cards = np.zeros(n, dtype=np.int64)
    high = np.zeros(n + 1, dtype=np.int64)
    top = np.zeros(max(pegs, 1), dtype=np.int64)
    ranks = np.zeros(max(reach.shape[0], pegs * (pegs - 1)), dtype=np.int64)
    held = np.zeros(ranks.shape[0], dtype=np.uint8)
    return _pull(cells, lo, hi, kind, n, pegs, compressed, parity, radix, weights, moves, reach,
                 digits, cards, high, top, ranks, held)


@njit(cache=True, nogil=True, _nrt=False)
def _pull(cells, lo, hi, kind, n, pegs, compressed, parity, radix, weights, moves, reach,
          digits, cards, high, top, ranks, held):
    """pull's loop (see NO_REFCOUNTS): how many were marked."""
    marked, last = 0, -1
    idx = lo
    while idx < hi:
        if (idx & 3) == 0 and idx + 4 <= hi and not HAS_UNSEEN[cells[idx >> 2]]:
            idx += 4
            continue
        if get(cells, idx) != UNSEEN:
            idx += 1
            continue
        locate(idx, last, kind, n, radix, compressed, parity, digits, cards)
        last = idx
        if kind == HANOI:
            k = images(idx, kind, n, pegs, compressed, digits, cards, weights, moves, reach, high, top, ranks)
            for j in range(k):
                if get(cells, ranks[j]) == CUR:
                    put(cells, idx, NEXT)
                    marked += 1
                    break
        else:  # nearby images one at a time: most states find a predecessor among them
            prepare(kind, n, digits, weights, high)
            m = reach.shape[0]
            near = max(0, m - FAR_MOVES)
            found = False
            for j in range(near):
                t = image(j, kind, n, compressed, digits, cards, weights, moves, reach, high)
                if get(cells, t) == CUR:
                    found = True
                    break
            if not found:  # the far ones together: their cache misses overlap
                for j in range(near, m):
                    ranks[j] = image(j, kind, n, compressed, digits, cards, weights, moves, reach, high)
                    held[j] = cells[ranks[j] >> 2]
                for j in range(near, m):
                    if (held[j] >> ((ranks[j] & 3) << 1)) & 3 == CUR:
                        found = True
                        break
            if found:
                put(cells, idx, NEXT)
                marked += 1
        idx += 1
    return marked


@njit(cache=True, nogil=True)
def relabel(cells, lo_block, hi_block, block_bytes, counts):
    """CUR -> OLD and NEXT -> CUR over the blocks [lo_block, hi_block) of block_bytes
    bytes; counts[b] = the CUR states of block b afterwards (where the next push goes)."""
    for blk in range(lo_block, hi_block):
        c = 0
        for b in range(blk * block_bytes, min((blk + 1) * block_bytes, cells.shape[0])):
            v = RELABELLED[cells[b]]
            cells[b] = v
            c += CUR_COUNT[v]
        counts[blk] = c


@njit(cache=True, nogil=True)
def count_cur(cells, lo_block, hi_block, block_bytes, counts):
    """counts[b] = the CUR states of block b, for the blocks [lo_block, hi_block)."""
    for blk in range(lo_block, hi_block):
        c = 0
        for b in range(blk * block_bytes, min((blk + 1) * block_bytes, cells.shape[0])):
            c += CUR_COUNT[cells[b]]
        counts[blk] = c


@njit(cache=True, nogil=True)
def collect(cells, size, value, limit, out):
    """The first `limit` indices whose state is `value` into out; how many there are."""
    k = 0
    for idx in range(size):
        if (idx & 3) == 0 and cells[idx >> 2] == 0:  # four OLD states
            continue
        if get(cells, idx) == value:
            if k < limit:
                out[k] = idx
            k += 1
    return k


@njit(cache=True, nogil=True)
def first(cells, size, value, limit, out):
    """The first `limit` indices whose state is `value` into out, and no further look (the
    count of the last layer is its histogram's); how many were put."""
    k = 0
    idx = 0
    while idx < size and k < limit:
        if (idx & 3) == 0 and cells[idx >> 2] == 0:  # four OLD states
            idx += 4
            continue
        if get(cells, idx) == value:
            out[k] = idx
            k += 1
        idx += 1
    return k


@njit(cache=True)
def state_of(idx, kind, n, radix, compressed, parity, digits, cards):
    """The digits and cards of one index (for drivers and tests)."""
    digits_of(idx, kind, n, radix, compressed, digits)
    for i in range(n):
        cards[i] = i
    cards_of(kind, digits, n, compressed, parity, cards, 0)
