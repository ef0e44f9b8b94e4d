"""Decks packed 4 bits a card into one 64-bit word, and the set operations of the
shortest-path search vectorized with numpy.

Card c sits in nibble i when it is at position i (stored as c - 1). A move is a few
shifts and masks instead of a loop over cards: its position permutation is cut into
*runs*, maximal stretches of positions copied in order (``dst+t <- src+t``) or in
reverse order; a reversed run is an ordinary run of the nibble-reversed word. A block
move has at most three runs and a pancake flip two, whatever the deck size.

The numba kernels in `packed` do the same things with loops. These numpy versions
serve the first, small layers of every search: a search that never grows past them
(n <= 5, short pancake stacks) never starts the JIT, which costs more (about half a
second) than the whole search. Tests check both against each other and the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

MASK = np.array([(1 << (4 * t)) - 1 for t in range(16)] + [(1 << 64) - 1], dtype=np.uint64)


def pack(deck: Sequence[int]) -> int:
    """The deck of cards 1..D (top first) as one integer, 4 bits a card."""
    word = 0
    for i, card in enumerate(deck):
        word |= (card - 1) << (4 * i)
    return word


def unpack(word: int, size: int) -> tuple[int, ...]:
    return tuple(((int(word) >> (4 * i)) & 15) + 1 for i in range(size))


class Segments(NamedTuple):
    """Moves as runs (see `segments`), one row per move; passed to the kernels as ``*segments``."""

    shift: np.ndarray
    dst: np.ndarray
    mask: np.ndarray
    reversed: np.ndarray  # bit s of row j: run s of move j copies from the nibble-reversed word


def segments(moves: Sequence[Sequence[int]]) -> Segments:
    """Each move as runs: arrays (shift, dst, mask, reversed bits), one row per move.

    Run s of move j copies ``(w >> shift[j, s]) & mask[j, s]`` to bit ``dst[j, s]``, w being
    the word, or the nibble-reversed word if bit s of reversed[j] is set. Rows are padded
    with empty runs (mask 0) so every move has the same number of runs, at least three:
    block moves and flips need no more, and `apply_move` has an unrolled path for three.
    """
    runs = []
    for perm in moves:
        size = len(perm)
        row, i = [], 0
        while i < size:
            length = 1
            while i + length < size and perm[i + length] == perm[i] + length:
                length += 1
            if length == 1:
                while i + length < size and perm[i + length] == perm[i] - length:
                    length += 1
            if length > 1 and perm[i + 1] == perm[i] - 1:
                row.append((i, 15 - perm[i], length, 1))
            else:
                row.append((i, perm[i], length, 0))
            i += length
        runs.append(row)
    m, width = len(moves), max(3, max((len(r) for r in runs), default=1))
    shift = np.zeros((m, width), dtype=np.uint64)
    dst = np.zeros((m, width), dtype=np.uint64)
    mask = np.zeros((m, width), dtype=np.uint64)
    rev = np.zeros(m, dtype=np.uint64)
    for j, row in enumerate(runs):
        for s, (d, src, length, backwards) in enumerate(row):
            shift[j, s], dst[j, s], mask[j, s] = 4 * src, 4 * d, MASK[length]
            rev[j] |= np.uint64(backwards << s)
    return Segments(shift, dst, mask, rev)


def nibble_reverse(x: np.ndarray) -> np.ndarray:
    """Every word with its 16 nibbles in reverse order."""
    for width, m in ((4, 0x0F0F0F0F0F0F0F0F), (8, 0x00FF00FF00FF00FF), (16, 0x0000FFFF0000FFFF)):
        x = ((x & np.uint64(m)) << np.uint64(width)) | ((x >> np.uint64(width)) & np.uint64(m))
    return (x << np.uint64(32)) | (x >> np.uint64(32))


def images(states: np.ndarray, moves: tuple) -> np.ndarray:
    """Every move applied to every state (moves = `segments(...)`), unsorted."""
    shift, dst, mask, rev = moves
    flipped = nibble_reverse(states) if rev.any() else states
    out = []
    for j in range(shift.shape[0]):
        y = np.zeros_like(states)
        for s in range(shift.shape[1]):
            w = flipped if (int(rev[j]) >> s) & 1 else states
            y |= ((w >> shift[j, s]) & mask[j, s]) << dst[j, s]
        out.append(y)
    return np.concatenate(out)


def apply_one(x: int, moves: tuple, j: int) -> int:
    """Move j applied to one packed deck."""
    return int(images(np.array([x], dtype=np.uint64), tuple(a[j : j + 1] for a in moves))[0])


def inverted(states: np.ndarray, t: int, size: int) -> np.ndarray:
    """t . x^-1 for every x: at position i, the card of t at x's position of card i."""
    t = int(t)
    y = np.zeros_like(states)
    for i in range(size):
        card = (states >> np.uint64(4 * i)) & np.uint64(15)
        y |= np.uint64((t >> (4 * i)) & 15) << (card * np.uint64(4))
    return y


def inverse_then(x: int, t: int, size: int) -> int:
    """x^-1 . t: at position i, the position in x of card t(i)."""
    x, t = int(x), int(t)
    where = {(x >> (4 * i)) & 15: i for i in range(size)}
    return sum(where[(t >> (4 * i)) & 15] << (4 * i) for i in range(size))


def unique(a: np.ndarray) -> np.ndarray:
    """The sorted array without repeats."""
    if len(a) == 0:
        return a
    keep = np.empty(len(a), dtype=bool)
    keep[0] = True
    np.not_equal(a[1:], a[:-1], out=keep[1:])
    return a[keep]


def members(a: np.ndarray, layer: np.ndarray) -> np.ndarray:
    """Which elements of a are in the sorted layer (a boolean mask)."""
    if len(layer) == 0:
        return np.zeros(len(a), dtype=bool)
    i = np.minimum(np.searchsorted(layer, a), len(layer) - 1)
    return layer[i] == a
