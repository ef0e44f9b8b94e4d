"""Counting kernels of the assembly method: whole boards from half boards, halves from quarters.

The method is E. Kluev's (N-Queens-Count-Sol, 2022); the code here is our own. The board
without its middle row and column (odd n) is four h x h quarters, h = n // 2. Every row
of a solution has its queen in the east or the west half, and each half holds h queens
(one per column), so a solution has a set E of h rows (fewer where a middle queen takes an
east column) whose queens are east. For each E:

1. **Half boards.** A north quarter placement with its queens in the north rows of E is
   paired with every south one in the south rows of E and the other east columns; a pair
   whose queens share a diagonal is dropped, the others are the east half boards. The
   west ones are made alike from the rows not in E. The quarter placements come from one
   table (``quarter``) of every placement on an h x h quarter with any rows empty, filed
   by its rows and columns: a quarter is the same shape wherever it lies, and its
   diagonals, shifted by its place, are the board's.
2. **Counting.** An east and a west half make a solution exactly when no diagonal holds a
   queen of both. Only the diagonals that cross from one half into the other matter: each
   half is one word, the key of those bits (the OR of its quarters' keys, so that a pair
   costs an OR, an AND and a store), and the count is the number of (east, west) pairs
   whose keys are disjoint (``match``). The east keys are stored bit-transposed, 64 to a
   word and eight words to a block of 512: for each bit, the word of those keys that do not
   have it. A west key's count in a block is the popcount of the AND of the words of its
   bits; the words of every value of each chunk of 5 or 8 bits are ANDed once per block,
   so a query is one AND per chunk and eight popcounts per 512 keys.
3. **Sieve.** The east keys are sorted by a few of the most often occupied bits (the cut
   bits: two runs of neighbouring ones, read with a few shifts), and the west keys are
   grouped by them: a block whose keys all hold a cut bit is matched only against the
   west groups without it.

Symmetry (the ``sym`` argument): with nothing in the middle (even n), the flip top to
bottom maps E to its reversal, so only one of E and its reversal is counted, twice. The
main long diagonal (rows = columns) runs through the north-west and south-east quarters,
the other through the north-east and south-west. The mirror in the main diagonal keeps
the main one square by square and swaps the two halves of the other; the mirror in the
other diagonal does the reverse. So, for each long diagonal on its own, the solutions with
its queen in the east half are as many as those with it in the west half: only east halves
with neither long diagonal are kept, and a west half counts 2 for each one it holds.
With the centre queen (odd n), E, its reversal, its complement and the reversal of that
are counted once for all. Where two queens stand in the middle row and column, the driver
counts one position of each class under the 8 symmetries, 8 times (assembly.py).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from puzzlesearch.engine.layers_kernel import popcount

# Bits of a key per table lookup: 8 where many west keys query each block (fewer lookups a
# query: at n = 20 the matching takes 0.81 times as long as with 5), 5 where few do (a
# table of 8-bit chunks costs 8 times as many words to build).
NARROW = 5
WIDE = 8
WIDE_FROM = 4096  # west keys
GROUP = 8  # words of 64 keys in a block: 512 east keys are matched at once
BLOCK = 64 * GROUP
LOW32 = np.int64(0xFFFFFFFF)

# --- the quarter table ------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def quarter(h, fill, start, cells):
    """Every placement of non-attacking queens on an h x h quarter, at most one a row and a
    column, any rows empty. Without `fill`, count them per key (``start[key + 1] += 1``);
    with it, write each into ``cells[start[key]]`` and step ``start[key]``. The key is
    ``rows << h | columns`` (local bit masks); a cell is ``anti | diff << 32``, the bits
    ``i + j`` and ``i - j + h - 1`` of its queens at (row i, column j)."""
    cm = np.zeros(h + 1, np.int64)
    rm = np.zeros(h + 1, np.int64)
    am = np.zeros(h + 1, np.int64)
    dm = np.zeros(h + 1, np.int64)
    nxt = np.zeros(h + 1, np.int64)  # the next choice of each row: -1 empty, else its column
    depth = 0
    nxt[0] = -1
    while depth >= 0:
        if depth == h:
            key = (rm[h] << h) | cm[h]
            if fill:
                cells[start[key]] = am[h] | (dm[h] << 32)
                start[key] += 1
            else:
                start[key + 1] += 1
            depth -= 1
            continue
        c = nxt[depth]
        if c >= h:
            depth -= 1
            continue
        nxt[depth] = c + 1
        if c < 0:
            rm[depth + 1] = rm[depth]
            cm[depth + 1] = cm[depth]
            am[depth + 1] = am[depth]
            dm[depth + 1] = dm[depth]
        else:
            a = np.int64(1) << (depth + c)
            d = np.int64(1) << (depth - c + h - 1)
            if (cm[depth] >> c) & 1 or am[depth] & a or dm[depth] & d:
                continue
            rm[depth + 1] = rm[depth] | (np.int64(1) << depth)
            cm[depth + 1] = cm[depth] | (np.int64(1) << c)
            am[depth + 1] = am[depth] | a
            dm[depth + 1] = dm[depth] | d
        depth += 1
        nxt[depth] = -1


@njit(cache=True, nogil=True)
def quarter_size(h):
    """How many placements ``quarter`` files for side h (the cells of its table), counted
    without the table: row by row on column and diagonal masks, the last row's choices
    counted at once. 0.3 s at h = 11, 1.6 s at 12, 11 s at 13 (one core)."""
    if h == 0:
        return np.int64(1)
    full = (np.int64(1) << h) - 1
    cols = np.zeros(h, np.int64)
    left = np.zeros(h, np.int64)  # the columns the diagonals of the rows above attack
    right = np.zeros(h, np.int64)
    todo = np.zeros(h, np.int64)  # a row's choices left: bit 0 leaves it empty, bit c + 1 column c
    total = np.int64(0)
    depth = 0
    todo[0] = (full << 1) | 1
    while depth >= 0:
        if depth == h - 1:
            total += 1 + popcount(full & ~(cols[depth] | left[depth] | right[depth]))
            depth -= 1
            continue
        t = todo[depth]
        if t == 0:
            depth -= 1
            continue
        low = t & (-t)
        todo[depth] = t ^ low
        b = low >> 1
        c = cols[depth] | b
        lt = ((left[depth] | b) << 1) & full
        rt = (right[depth] | b) >> 1
        depth += 1
        cols[depth] = c
        left[depth] = lt
        right[depth] = rt
        todo[depth] = ((full & ~(c | lt | rt)) << 1) | 1
    return total


# --- half boards ------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def half_bound(h, start, rn, rs, cols):
    """The number of (north, south) quarter pairs of a half: an upper bound of its boards."""
    kn = popcount(rn)
    total = 0
    sub = cols
    while True:
        if popcount(sub) == kn:
            k1 = (rn << h) | sub
            k2 = (rs << h) | (cols ^ sub)
            total += (start[k1 + 1] - start[k1]) * (start[k2 + 1] - start[k2])
        if sub == 0:
            break
        sub = (sub - 1) & cols
    return total


@njit(cache=True, nogil=True, inline="always")
def _key(a, d, lo_a, lo_d, width):
    """The key of a placement (diagonal masks a, d on the board): the `width` crossing
    diagonals of each direction, from bits lo_a and lo_d. Taken bit by bit, so that the key
    of a half board is the OR of the keys of its two quarters."""
    mask = (np.int64(1) << width) - 1
    return ((a >> lo_a) & mask) | (((d >> lo_d) & mask) << width)


@njit(cache=True, nogil=True, inline="always")
def _cut(key, cut_a, cut_d, ncut):
    """A key's cut value: its ncut cut bits, (ncut + 1) // 2 from bit cut_a and ncut // 2
    from bit cut_d (two runs of neighbouring bits, so that it costs a few shifts)."""
    na = (ncut + 1) >> 1
    return ((key >> cut_a) & ((np.int64(1) << na) - 1)) | \
        (((key >> cut_d) & ((np.int64(1) << (ncut >> 1)) - 1)) << na)


@njit(cache=True, nogil=True)
def half(n, h, start, cells, rn, rs, cols, south, co, fa, fd, long_mask, lo_a, lo_d, width, out, south_c,
         south_k):
    """The keys (``_key``) of the half boards with queens in rows rn (north quarter) and rs
    (south quarter), one in each column of `cols` (local masks), written to `out`; returns
    how many. `south` and `co` are the south quarter's first row and the half's first
    column on the board; fa, fd the diagonals the middle queens hold; a half whose key holds
    a bit of `long_mask` is dropped. Returns -1 if they might not fit in `out`. south_c and
    south_k are room for the largest entry of the quarter table."""
    m = 0
    kn = popcount(rn)
    sa_n = co
    sa_s = south + co
    sd_n = n - h - co
    sd_s = south - co + n - h
    # A north and a south placement clash where their diagonals meet: on the board
    # (cell << place) and (south cell << its place) share a bit exactly when the cell and
    # (south cell << south) do, and a cell's diagonals are below bit 2h - 1.
    span = (np.int64(1) << (2 * h - 1)) - 1
    sub = cols
    while True:
        if popcount(sub) == kn:
            k1 = (rn << h) | sub
            k2 = (rs << h) | (cols ^ sub)
            # the south quarter's placements, without those that meet a middle queen,
            # as clash masks and keys, once for all the north ones
            ns = 0
            for j in range(start[k2], start[k2 + 1]):
                ca = cells[j] & LOW32
                cd = cells[j] >> 32
                as_ = ca << sa_s
                ds = cd << sd_s
                south_c[ns] = ((ca << south) & span) | (((cd << south) & span) << 32)
                south_k[ns] = _key(as_, ds, lo_a, lo_d, width)
                ns += ((as_ & fa) | (ds & fd)) == 0
            if ns == 0:
                if sub == 0:
                    break
                sub = (sub - 1) & cols
                continue
            if m + ns * (start[k1 + 1] - start[k1]) > out.shape[0]:
                return -1  # the caller grows the arrays and asks again
            for i in range(start[k1], start[k1 + 1]):
                c = cells[i]
                an = (c & LOW32) << sa_n
                dn = (c >> 32) << sd_n
                if (an & fa) | (dn & fd):
                    continue
                k = _key(an, dn, lo_a, lo_d, width)
                # branch-free: a third of the pairs clash, at random, and a mispredicted
                # branch for each cost more than the rest of the loop (n = 18: 1.7 times)
                for j in range(ns):
                    w = k | south_k[j]
                    out[m] = w
                    m += ((c & south_c[j]) | (w & long_mask)) == 0
        if sub == 0:
            break
        sub = (sub - 1) & cols
    return m


# --- counting disjoint pairs ------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _sort_by_cut(key, m, cut_a, cut_d, ncut, out, first):
    """Counting sort of the keys by cut value (``_cut``); first[v] .. first[v + 1] hold
    value v."""
    nb = 1 << ncut
    for v in range(nb + 1):
        first[v] = 0
    for i in range(m):
        first[_cut(key[i], cut_a, cut_d, ncut) + 1] += 1
    for v in range(nb):
        first[v + 1] += first[v]
    for i in range(m):
        v = _cut(key[i], cut_a, cut_d, ncut)
        p = first[v]
        out[p] = key[i]
        first[v] = p + 1
    for v in range(nb, 0, -1):
        first[v] = first[v - 1]
    first[0] = 0


@njit(cache=True, nogil=True)
def _block_tables(ek, lo, cnt, cut_a, cut_d, ncut, chunk, nchunks, cols, table):
    """The chunk tables of the east keys ek[lo:lo + cnt] (at most BLOCK): table[c, v, g] is
    the word-g mask of the keys without any bit of value v in chunk c. Returns the cut bits
    all of them hold."""
    nbits = nchunks * chunk
    common = np.int64(-1)
    for g in range(GROUP):
        left = cnt - 64 * g
        if left >= 64:
            valid = ~np.uint64(0)
        elif left > 0:
            valid = (np.uint64(1) << np.uint64(left)) - np.uint64(1)
        else:
            valid = np.uint64(0)
        for k in range(nbits):
            cols[k, g] = valid
        for c in range(nchunks):
            table[c, 0, g] = valid  # padding matches no query, not even an empty key
    for i in range(cnt):
        x = ek[lo + i]
        common &= _cut(x, cut_a, cut_d, ncut)
        g = i >> 6
        clear = ~(np.uint64(1) << np.uint64(i & 63))
        while x:
            low = x & (-x)
            cols[_bit_index(low), g] &= clear
            x ^= low
    for c in range(nchunks):
        for v in range(1, 1 << chunk):
            k = c * chunk + _bit_index(v & (-v))
            prev = v & (v - 1)
            for g in range(GROUP):
                table[c, v, g] = table[c, prev, g] & cols[k, g]
    return common


@njit(cache=True, nogil=True, inline="always")
def _bit_index(low):
    return trailing_zeros(low)


@njit(cache=True, nogil=True)
def match(east, me, west, mw, cut_a, cut_d, ncut, nbits, chunk, long_a, long_d, sorted_e, sorted_w):
    """Sum over the west keys of weight x the number of east keys disjoint from it. A west
    key weighs 1, or, where long_a >= 0 (even n), 2 for each of its bits long_a and long_d
    it holds (the long diagonals). sorted_e and sorted_w are room for the keys sorted by cut
    value (``_cut``). Keys have `nbits` bits, looked up `chunk` bits at a time."""
    nchunks = -(-nbits // chunk)
    nb = 1 << ncut
    ef = np.empty(nb + 1, np.int64)
    _sort_by_cut(east, me, cut_a, cut_d, ncut, sorted_e, ef)
    wf = np.empty(nb + 1, np.int64)
    _sort_by_cut(west, mw, cut_a, cut_d, ncut, sorted_w, wf)
    cols = np.empty((nchunks * chunk, GROUP), np.uint64)
    table = np.empty((nchunks, 1 << chunk, GROUP), np.uint64)
    total = 0
    full = nb - 1
    for lo in range(0, me, BLOCK):
        cnt = min(BLOCK, me - lo)
        common = _block_tables(sorted_e, lo, cnt, cut_a, cut_d, ncut, chunk, nchunks, cols, table)
        free = full & ~common  # the west groups this block can match
        qg = free
        while True:
            if long_a >= 0:
                for i in range(wf[qg], wf[qg + 1]):
                    q = sorted_w[i]
                    s = and_count(table, q, nchunks, chunk)
                    total += np.int64(s) << (((q >> long_a) & 1) + ((q >> long_d) & 1))
            else:
                for i in range(wf[qg], wf[qg + 1]):
                    total += and_count(table, sorted_w[i], nchunks, chunk)
            if qg == 0:
                break
            qg = (qg - 1) & free
    return total


@intrinsic
def and_count(typingctx, table, q, nchunks, chunk):
    """The number of keys of a block disjoint from the key q: the popcount of the AND, over
    the chunks c < nchunks, of table[c, chunk c of q (`chunk` bits), :], as one vector of GROUP words (one
    AVX-512 register where the CPU has them: 2.3 times faster than GROUP scalar words, whose
    AND chains LLVM left unvectorised)."""
    if not (isinstance(table, types.Array) and table.ndim == 3 and table.layout == "C"
            and isinstance(q, types.Integer) and isinstance(nchunks, types.Integer)
            and isinstance(chunk, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        tab, qv, nc, ch = args
        data = context.make_array(signature.args[0])(context, builder, tab).data
        i64 = ir.IntType(64)
        vec = ir.VectorType(i64, GROUP)
        qv = context.cast(builder, qv, signature.args[1], types.int64)
        nc = context.cast(builder, nc, signature.args[2], types.int64)
        ch = context.cast(builder, ch, signature.args[3], types.int64)
        values = builder.shl(ir.Constant(i64, 1), ch)
        vmask = builder.sub(values, ir.Constant(i64, 1))

        def row(c):
            shift = builder.mul(c, ch)
            v = builder.and_(builder.ashr(qv, shift), vmask)
            at = builder.add(builder.mul(c, values), v)
            at = builder.mul(at, ir.Constant(i64, GROUP))
            return builder.load(builder.bitcast(builder.gep(data, [at]), vec.as_pointer()), align=8)

        acc = cgutils.alloca_once(builder, vec)
        builder.store(row(ir.Constant(i64, 0)), acc)
        with cgutils.for_range(builder, builder.sub(nc, ir.Constant(i64, 1))) as loop:
            c = builder.add(loop.index, ir.Constant(i64, 1))
            builder.store(builder.and_(builder.load(acc), row(c)), acc)
        mod = builder.module
        ctpop = cgutils.get_or_insert_function(mod, ir.FunctionType(vec, [vec]), f"llvm.ctpop.v{GROUP}i64")
        total = cgutils.get_or_insert_function(mod, ir.FunctionType(i64, [vec]),
                                               f"llvm.vector.reduce.add.v{GROUP}i64")
        return builder.call(total, [builder.call(ctpop, [builder.load(acc)])])

    return types.int64(table, q, nchunks, chunk), codegen


@njit(cache=True, nogil=True)
def match_plain(ekey, me, wkey, wweight, mw):
    """The same sum by a double loop (for the tests)."""
    total = 0
    for i in range(mw):
        for j in range(me):
            if (ekey[j] & wkey[i]) == 0:
                total += wweight[i]
    return total


# --- one task: a range of row sets ------------------------------------------------------------


@njit(cache=True, nogil=True)
def binomial(a, b):
    if b < 0 or b > a:
        return np.int64(0)
    r = np.int64(1)
    for i in range(b):
        r = r * (a - i) // (i + 1)
    return r


@njit(cache=True, nogil=True, inline="always")
def _reverse(x, width):
    r = np.int64(0)
    for i in range(width):
        if (x >> i) & 1:
            r |= np.int64(1) << (width - 1 - i)
    return r


@njit(cache=True, nogil=True, inline="always")
def _multiplicity(rows_e, rows_w, sym, width):
    """How many times the row set rows_e counts: 0 where an image of it is counted instead."""
    if sym == 1:
        rev = _reverse(rows_e, width)
        return 0 if rev < rows_e else (2 if rev > rows_e else 1)
    if sym == 2:
        r1 = _reverse(rows_e, width)
        r2 = rows_w
        r3 = _reverse(rows_w, width)
        if r1 < rows_e or r2 < rows_e or r3 < rows_e:
            return 0
        return 1 + (r1 != rows_e) + (r2 != rows_e and r2 != r1) + (r3 != rows_e and r3 != r1 and r3 != r2)
    return 1


@njit(cache=True, nogil=True)
def _unrank(first, k):
    """The k-subset of rank `first` in colex order, as a bit mask."""
    x = np.int64(0)
    rank = first
    for i in range(k, 0, -1):
        c = i - 1
        while binomial(c + 1, i) <= rank:
            c += 1
        rank -= binomial(c, i)
        x |= np.int64(1) << c
    return x


@njit(cache=True, nogil=True, inline="always")
def _next_subset(x):
    """The next subset with as many bits in colex order (Gosper's hack)."""
    low = x & (-x)
    r = x + low
    return (((r ^ x) >> 2) // low) | r


@njit(cache=True, nogil=True, inline="always")
def _spread(x, pos):
    """The rows of the free-row positions set in x."""
    rows = np.int64(0)
    while x:
        low = x & (-x)
        rows |= np.int64(1) << pos[_bit_index(low)]
        x ^= low
    return rows


@njit(cache=True, nogil=True)
def _free_positions(free_rows, width):
    pos = np.zeros(64, np.int64)
    nfree = 0
    for r in range(width):
        if (free_rows >> r) & 1:
            pos[nfree] = r
            nfree += 1
    return pos


@njit(cache=True, nogil=True)
def task_work(h, start, free_rows, east_cols, west_cols, sym, first, count, samples):
    """The work of the row sets of ranks first .. first + count - 1, from `samples` of them
    evenly spaced: the mean of (east pairs) x (west pairs) of quarter placements over those
    counted (0 for those left to an image), times `count`. For the progress bar."""
    pos = _free_positions(free_rows, 2 * h)
    k = popcount(east_cols)
    hmask = (np.int64(1) << h) - 1
    work = 0.0
    taken = min(samples, count)
    for s in range(taken):
        rows_e = _spread(_unrank(first + (s * count) // taken, k), pos)
        rows_w = free_rows ^ rows_e
        if _multiplicity(rows_e, rows_w, sym, 2 * h):
            east = half_bound(h, start, rows_e & hmask, rows_e >> h, east_cols >> h)
            west = half_bound(h, start, rows_w & hmask, rows_w >> h, west_cols & hmask)
            work += float(east) * float(west) + float(east + west)
    return work * count / taken


@njit(cache=True, nogil=True)
def work_profile(h, start, free_rows, east_cols, west_cols, sym, first, count, samples, out):
    """The work (task_work) of len(out) blocks of the ranks first .. first + count - 1, each
    from `samples` of its row sets: block i holds the ranks from first + count * i // B to
    first + count * (i + 1) // B - 1 (B = len(out)). Split the tasks of a count."""
    blocks = out.shape[0]
    for i in range(blocks):
        lo = first + (count * i) // blocks
        hi = first + (count * (i + 1)) // blocks
        out[i] = task_work(h, start, free_rows, east_cols, west_cols, sym, lo, hi - lo, samples) if hi > lo \
            else 0.0


@njit(cache=True, nogil=True)
def count_range(n, h, start, cells, free_rows, east_cols, west_cols, fa, fd, sym, lo_a, lo_d, width,
                cut_a, cut_d, maxcut, nbits, widest, first, count, work, out):
    """Count the solutions of the row sets E of ranks first .. first + count - 1 (colex order
    of the subsets of free_rows, as many as east_cols has bits; rows and columns are those of
    the board without its middle). out[0] gets the weighted sum of solutions, out[1] the
    half boards made. `widest` is the most placements the quarter table holds under one key.
    `work` is room for the half boards of a row set (HALF_ARRAYS rows), written here: the
    caller makes it for this call alone; a row set with more halves gets arrays of its own."""
    pos = _free_positions(free_rows, 2 * h)
    x = _unrank(first, popcount(east_cols))
    hmask = (np.int64(1) << h) - 1
    south = h + (n & 1)
    cap = work.shape[1]
    east = work[0]
    west = work[1]
    sorted_e = work[2]
    sorted_w = work[3]
    south_c = np.empty(widest, np.int64)
    south_k = np.empty(widest, np.int64)
    # with the long-diagonal rule (even n): the key bits of the two long diagonals
    long_a = n - 1 - lo_a if sym == 1 else -1
    long_d = width + n - 1 - lo_d if sym == 1 else -1
    long_mask = (np.int64(1) << long_a) | (np.int64(1) << long_d) if sym == 1 else np.int64(0)
    total = 0
    halves = 0
    for step in range(count):
        rows_e = _spread(x, pos)
        rows_w = free_rows ^ rows_e
        mult = _multiplicity(rows_e, rows_w, sym, 2 * h)
        if mult:
            while True:
                me = half(n, h, start, cells, rows_e & hmask, rows_e >> h, east_cols >> h, south, south, fa,
                          fd, long_mask, lo_a, lo_d, width, east, south_c, south_k)
                mw = 0
                if me >= 0:
                    mw = half(n, h, start, cells, rows_w & hmask, rows_w >> h, west_cols & hmask, south, 0,
                              fa, fd, np.int64(0), lo_a, lo_d, width, west, south_c, south_k)
                if me >= 0 and mw >= 0:
                    break
                cap = max(1024, 2 * cap)
                east = np.empty(cap, np.int64)
                west = np.empty(cap, np.int64)
                sorted_e = np.empty(cap, np.int64)
                sorted_w = np.empty(cap, np.int64)
            halves += me + mw
            if me and mw:
                ncut = 0  # about one block of east keys per cut value
                while ncut < maxcut and (BLOCK << (ncut + 1)) <= me:
                    ncut += 1
                chunk = WIDE if mw >= WIDE_FROM else NARROW
                total += mult * match(east, me, west, mw, cut_a, cut_d, ncut, nbits, chunk, long_a, long_d,
                                      sorted_e, sorted_w)
        if step + 1 < count:
            x = _next_subset(x)
    out[0] = total
    out[1] = halves
