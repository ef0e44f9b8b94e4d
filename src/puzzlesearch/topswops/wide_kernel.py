"""The forward search's kernel for decks of more than 16 cards (numba), up to MAX_WIDE.

The tree, the rules and what is returned are forward_kernel's, node for node (the tests
compare the two on every n both take, node counts included). Only the deck differs: a
card does not fit in a nibble past 16 values, so the deck of a level is a row of bytes,
as in Knuth's topswops-fwd.w: a card v > 0, or -j for the placeholder that started at
position j - 1. A move reverses the top k bytes in place.

Data structures (one entry per level l = number of values chosen so far), as in
forward_kernel: deck_at[l] (the row of bytes), steps_at, free_at, todo_at, fixed_at, only1,
who, val. Choosing a value for the placeholder on top of level l plays the child's game
in the row of level l + 1, which is scratch until the child is entered.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from puzzlesearch.topswops.forward_kernel import _rebuild
from puzzlesearch.topswops.limits import MAX_FORWARD
from puzzlesearch.topswops.probes_kernel import closure

#: the widest deck (the free values are bits of a 64-bit word; a row is this many bytes)
MAX_WIDE = MAX_FORWARD


def _flip(builder, a, b, k):
    """LLVM IR: the row (A, B) with its top k cards reversed (1 <= k <= 32, an i128 value).

    The row is two 128-bit integers, A (positions 0..15) and B (16..31); with m = k - 16:
      k <= 16: A = (bswap(A) >> (128 - 8k)) | (A & ~0 << 8k)
      k > 16:  A = bswap((A >> 8m) | (B << (128 - 8m))), the 16 cards above position k
               reversed; B = (bswap(A) >> (128 - 8m)) | (B & ~0 << 8m)
    Both are computed and one is selected: the same instructions for every k, no branch
    (a loop of k / 2 swaps mispredicts its exit on nearly every move; LLVM lowers these
    128-bit shifts to a few double-word shifts and conditional moves)."""
    w = ir.IntType(128)
    bswap = cgutils.get_or_insert_function(builder.module, ir.FunctionType(w, [w]), "llvm.bswap.i128")

    def c(v):
        return ir.Constant(w, v)

    ra = builder.call(bswap, [a])
    big = builder.icmp_unsigned(">", k, c(16))
    j = builder.select(big, builder.sub(k, c(16)), k)  # 1 <= j <= 16 either way
    bits = builder.shl(j, c(3))
    # ~0 << 8j and A >> 8j in two shifts each (8j - 1, then 1): a shift by 128 (j = 16) is undefined
    keep = builder.shl(builder.shl(c(-1), builder.sub(bits, c(1))), c(1))
    top = builder.lshr(ra, builder.sub(c(128), bits))
    small_a = builder.or_(top, builder.and_(a, keep))
    low = builder.lshr(builder.lshr(a, builder.sub(bits, c(1))), c(1))
    big_a = builder.call(bswap, [builder.or_(low, builder.shl(b, builder.sub(c(128), bits)))])
    big_b = builder.or_(top, builder.and_(b, keep))
    return builder.select(big, big_a, small_a), builder.select(big, big_b, b)


@intrinsic
def _play(typingctx, rows, src, dst, top, t):
    """Take the row rows[src:src + 32] (at most 32 cards) with `top` put on top, and play
    it while its top card k is more than 1, reversing the top k cards each time; stop
    early right after the move that reversed k = t cards. The row reached is stored at
    rows[dst:dst + 32]. Returns (moves made, the last k looked at): that k is t after
    such an early stop, else the card on top (a placeholder, < 0, or 1).

    The loop keeps the row in registers, two 128-bit integers (_flip), and stores it once
    at the end: a loop through memory would wait on each store to read the next top card."""
    if not (isinstance(rows, types.Array) and rows.ndim == 1 and rows.layout == "C"
            and all(isinstance(x, types.Integer) for x in (src, dst, top, t))):
        return None
    result = types.UniTuple(types.int64, 2)

    def codegen(context, builder, signature, args):
        arr, srcv, dstv, topv, tv = args
        i64, w = ir.IntType(64), ir.IntType(128)
        data = context.make_array(signature.args[0])(context, builder, arr).data

        def row(at, sig):
            start = builder.gep(data, [context.cast(builder, at, sig, types.int64)])
            pa = builder.bitcast(start, w.as_pointer())
            return pa, builder.gep(pa, [ir.Constant(i64, 1)])

        sa, sb = row(srcv, signature.args[1])
        pa, pb = row(dstv, signature.args[2])
        t64 = context.cast(builder, tv, signature.args[4], types.int64)
        top8 = builder.zext(builder.trunc(context.cast(builder, topv, signature.args[3], types.int64),
                                          ir.IntType(8)), w)
        a0 = builder.or_(builder.and_(builder.load(sa, align=1), ir.Constant(w, -256)), top8)
        b0 = builder.load(sb, align=1)
        entry = builder.block
        head = builder.append_basic_block("play.head")
        body = builder.append_basic_block("play.body")
        done = builder.append_basic_block("play.done")
        builder.branch(head)
        builder.position_at_end(head)
        a, b, moves = builder.phi(w), builder.phi(w), builder.phi(i64)
        k = builder.sext(builder.trunc(a, ir.IntType(8)), i64)
        builder.cbranch(builder.icmp_signed(">", k, ir.Constant(i64, 1)), body, done)
        builder.position_at_end(body)
        a2, b2 = _flip(builder, a, b, builder.zext(k, w))
        moves2 = builder.add(moves, ir.Constant(i64, 1))
        builder.cbranch(builder.icmp_signed("==", k, t64), done, head)
        for phi, first, later in ((a, a0, a2), (b, b0, b2), (moves, ir.Constant(i64, 0), moves2)):
            phi.add_incoming(first, entry)
            phi.add_incoming(later, body)
        builder.position_at_end(done)
        out = []
        for stay, moved in ((a, a2), (b, b2), (moves, moves2), (k, k)):
            phi = builder.phi(stay.type)
            phi.add_incoming(stay, head)
            phi.add_incoming(moved, body)
            out.append(phi)
        builder.store(out[0], pa, align=1)
        builder.store(out[1], pb, align=1)
        return context.make_tuple(builder, signature.return_type, [out[2], out[3]])

    return result(rows, src, dst, top, t), codegen


@njit(cache=True, nogil=True)
def wide_kernel(n, bound, target, prefix, split_depth, cap, nodes, rise):
    """forward_kernel.forward_kernel for 1 <= n <= MAX_WIDE: same arguments, same answer
    (the slots of forward_kernel.Found, in its order)."""
    # the rows of all levels in one flat array, indexed by hand: a row taken as a view
    # of a 2-d array costs reference counting on every node (three times the time)
    rows = np.zeros((n + 2) * MAX_WIDE, np.int8)
    steps_at = np.zeros(n + 1, np.int64)
    free_at = np.zeros(n + 1, np.int64)
    todo_at = np.zeros(n + 1, np.int64)
    fixed_at = np.zeros(n + 1, np.int64)
    only1 = np.zeros(n + 1, np.bool_)
    who = np.zeros(n + 1, np.int64)
    val = np.zeros(n + 1, np.int64)
    nodes[:] = 0
    decks = np.zeros((cap, n), np.int8)
    maxpaths = cap if split_depth > 0 else 1
    paths = np.zeros((maxpaths, max(split_depth, 1)), np.int8)
    npaths = 0
    best, count = -1, 0
    for i in range(n):
        rows[i] = -(i + 1)
    fixed_at[0] = n
    free_at[0] = ((np.int64(1) << (n + 1)) - 1) & ~np.int64(3)
    npre = len(prefix)
    level = 0
    if npre == 0:
        nodes[0] = 1
    todo_at[0], only1[0] = _choices(free_at[0], -np.int64(rows[0]), 0, npre, prefix)
    if not rise and npre == 0:
        only1[0] = True
    while True:
        todo = todo_at[level]
        here = level * MAX_WIDE
        j = -np.int64(rows[here])
        if todo == 0:
            if only1[level]:
                # nothing but 1 could be given to -j: the game ends here
                only1[level] = False
                c = steps_at[level]
                nodes[level + 1] += 1
                if c >= target:
                    if c > best:
                        best = c
                        if rise:
                            count = 0
                            target = c
                    if count < cap:
                        _rebuild(n, who, val, level, j, 1, decks[count], rise)
                    count += 1
            if level <= npre:
                break
            level -= 1
            continue
        bit = todo & -todo
        todo_at[level] = todo ^ bit
        v = np.int64(trailing_zeros(bit))
        free = free_at[level] ^ bit
        c = steps_at[level]
        at = here + MAX_WIDE
        if free == 0:
            # v was the last value but 1: the one placeholder left is 1, and the rest
            # of the game is a plain game of known cards, over when that placeholder is
            # on top. Play it, stopping once the bottom block has grown so far that the
            # target is out of reach. (The placeholder stands for 1 in the closure too:
            # both are below every position i >= 1 it looks at.)
            c, t, cut = _run(rows, here, at, v, c, fixed_at[level], bound, target)
            nodes[level + 1] += 1
            if not cut and c >= target:
                if c > best:
                    best = c
                    if rise:
                        count = 0
                        target = c
                if count < cap:
                    who[level] = j
                    val[level] = v
                    _rebuild(n, who, val, level + 1, 0, 0, decks[count], True)
                count += 1
            continue
        # play until a placeholder is on top (no card 1 is known yet)
        c, t, cut = _run(rows, here, at, v, c, fixed_at[level], bound, target)
        if t < n and c + bound[t] < target:
            continue
        who[level] = j
        val[level] = v
        level += 1
        if level > npre:  # a task does not count the nodes of its prefix again
            nodes[level] += 1
        steps_at[level] = c
        free_at[level] = free
        fixed_at[level] = t
        if split_depth > 0 and level == split_depth:
            if npaths < maxpaths:
                for q2 in range(split_depth):
                    paths[npaths, q2] = val[q2]
            npaths += 1
            level -= 1
            continue
        todo_at[level], only1[level] = _choices(free, -np.int64(rows[at]), level, npre, prefix)
        if not rise and level >= npre:
            # listing every deck: "-j is 1" ends a game of c steps, whether or not
            # another value was free
            only1[level] = True
    return best, count, decks, nodes, paths, npaths


@njit(cache=True, inline="always")
def _run(rows, src, at, top, c, t, bound, target):
    """Play the row rows[src:] with `top` put on top, into rows[at:], until a placeholder
    or card 1 is on top, the bottom block t..n-1 growing whenever a move puts card t at the
    bottom of the moving part (forward_kernel._play). Returns the steps, the bottom block,
    and whether the run stopped early because steps + f(t) < target."""
    while True:
        moves, k = _play(rows, src, at, top, t)
        src, top = at, rows[at]
        c += moves
        if k != t or k <= 1:  # 1 on top: the game is over (t = 1 is no move)
            return c, t, False
        t = closure(rows, at, t)
        if c + bound[t] < target:
            return c, t, True


@njit(cache=True, inline="always")
def _choices(free, j, level, npre, prefix):
    """forward_kernel._choices for the placeholder -j on top."""
    todo = free & ~(np.int64(1) << j)
    only1 = todo == 0
    if level < npre:
        todo &= np.int64(1) << prefix[level]
    return todo, only1


__all__ = ["MAX_WIDE", "wide_kernel"]
