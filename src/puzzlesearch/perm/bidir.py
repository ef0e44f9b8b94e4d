"""Fewest moves from a state to the solved puzzle, by bidirectional breadth-first search.

One search grows from the state with the moves, the other from the solved puzzle with
the moves undone (so directed moves, such as block shuffles, are handled), each layer by
layer, and the side with the smaller last layer grows next (Pohl 1971). A new layer at
depth a + 1 is compared with the other side's last layer, at depth b: since every pair of
layers with smaller depths has been compared without meeting, the shortest solution is
longer than a + b, and a meeting now has length a + 1 + b, which is therefore the
shortest. A side whose new layer is empty has found everything reachable from its end
without a meeting: the two ends are not connected.

A state is stored packed into 64-bit words (each kept position's label and twist as one
small number, `Packing`); a layer is a sorted array of packed states, without repeats and
without the states of the side's earlier layers. A layer is made by unpacking the last one
a chunk at a time, applying every move to the whole chunk with numpy, packing, sorting and
dropping what was seen (`Seen`: sorted runs merged as a binary counter carries, so that
the test costs O(log n) per state however many layers there are). The solution is read
back through the depths stored. Sizes are checked against the memory cap (engine.memory)
before each layer is made, and the states stored against a bound (`most`) when given.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from puzzlesearch.engine.memory import require
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.progress import Meter
from puzzlesearch.perm.layout import Layout
from puzzlesearch.perm.rules import Move, Rules, State, inverse

CHUNK = 1 << 16  # states unpacked and moved at a time


@dataclass(frozen=True)
class Found:
    """moves: the move names in order (None: the two ends are not connected); layers: the
    sizes of the layers grown from the state and from the solved puzzle."""

    moves: tuple[str, ...] | None
    forward: tuple[int, ...]
    backward: tuple[int, ...]
    seconds: float

    @property
    def states(self) -> int:
        return sum(self.forward) + sum(self.backward)


class Packing:
    """The kept positions' values (label code x k + twist) packed into 64-bit words, a
    position never split between two words."""

    def __init__(self, rules: Rules, lay: Layout) -> None:
        self.kept = np.array(lay.kept, dtype=np.int64)
        ks = rules.ks
        solved = rules.solved[0]
        # each orbit numbers its own labels: a colour may be in two orbits of one set
        self.labels_of: dict[int, list[int]] = {}  # position -> the labels of its orbit, by code
        for orbit in lay.orbits:
            labels = list(dict.fromkeys(solved[g] for g in orbit))
            for g in orbit:
                self.labels_of[g] = labels
        self.codes = {g: {c: j for j, c in enumerate(labels)} for g, labels in self.labels_of.items()}
        self.where = {g: i for i, g in enumerate(lay.kept)}
        self.k = np.array([ks[g] for g in lay.kept], dtype=np.int64)
        bits = [max(1, (len(self.labels_of[g]) * ks[g] - 1).bit_length()) for g in lay.kept]
        self.word, self.shift = [], []
        w, used = 0, 0
        for b in bits:
            if used + b > 64:
                w, used = w + 1, 0
            self.word.append(w)
            self.shift.append(used)
            used += b
        self.words = w + 1
        self.bits = bits

    def values(self, state: State) -> np.ndarray:
        labels, twists = state
        return np.array([[self.codes[int(g)][labels[g]] * int(self.k[i]) + twists[g]
                          for i, g in enumerate(self.kept)]], dtype=np.int64)

    def state(self, rules: Rules, values: np.ndarray) -> State:
        labels, twists = list(rules.solved[0]), [0] * rules.size
        for i, g in enumerate(self.kept):
            code, t = divmod(int(values[i]), int(self.k[i]))
            labels[g], twists[g] = self.labels_of[int(g)][code], t
        return tuple(labels), tuple(twists)

    def pack(self, values: np.ndarray) -> np.ndarray:
        words = np.zeros((len(values), self.words), dtype=np.uint64)
        for i, (w, s) in enumerate(zip(self.word, self.shift, strict=True)):
            words[:, w] |= values[:, i].astype(np.uint64) << np.uint64(s)
        return keys_of(words)

    def unpack(self, keys: np.ndarray) -> np.ndarray:
        words = words_of(keys, self.words)
        values = np.empty((len(keys), len(self.kept)), dtype=np.int64)
        for i, (w, s, b) in enumerate(zip(self.word, self.shift, self.bits, strict=True)):
            values[:, i] = ((words[:, w] >> np.uint64(s)) & np.uint64((1 << b) - 1)).astype(np.int64)
        return values


def keys_of(words: np.ndarray) -> np.ndarray:
    """Packed states as one sortable value each: the word itself, or the words' bytes
    (big-endian, so that byte order is number order) as one void value."""
    if words.shape[1] == 1:
        return words[:, 0].copy()
    big = np.ascontiguousarray(words.astype(">u8"))
    return big.view(np.dtype((np.void, 8 * words.shape[1]))).ravel()


def words_of(keys: np.ndarray, n: int) -> np.ndarray:
    if n == 1:
        return keys.reshape(-1, 1)
    return np.frombuffer(np.ascontiguousarray(keys).tobytes(), dtype=">u8").reshape(-1, n).astype(np.uint64)


class _Mover:
    """The moves as gathers over the kept positions, and the twists they add."""

    def __init__(self, rules: Rules, lay: Layout, moves: Sequence[Move], pk: Packing) -> None:
        where = pk.where
        self.moves = [(np.array([where[m.perm[g]] for g in lay.kept], dtype=np.int64),
                       np.array([m.twist[g] for g in lay.kept], dtype=np.int64)) for m in moves]
        self.k = pk.k

    def images(self, values: np.ndarray, j: int) -> np.ndarray:
        gather, twist = self.moves[j]
        out = values[:, gather]
        turned = np.nonzero(twist)[0]
        if turned.size:
            sub, k = out[:, turned], self.k[turned]
            out[:, turned] = sub - sub % k + (sub % k + twist[turned]) % k
        return out


def _contains(layer: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """For each key, whether the sorted layer holds it."""
    if len(layer) == 0:
        return np.zeros(len(keys), dtype=bool)
    at = np.searchsorted(layer, keys)
    at[at == len(layer)] = 0
    return layer[at] == keys


class Seen:
    """Every state one side has stored, with its depth: sorted runs of keys whose sizes at
    least double from the newest to the oldest (two runs are merged as soon as the newer
    is at least half the older, as a binary counter carries). A lookup costs one binary
    search per run, O(log n) runs, and each state is merged O(log n) times, so a search of
    a thousand layers of ten states costs what one of ten layers of a thousand does, not a
    look into every earlier layer for every new one."""

    def __init__(self, first: np.ndarray) -> None:
        self.runs: list[tuple[np.ndarray, np.ndarray]] = []
        self.layers = 0
        self.add(first)

    def add(self, layer: np.ndarray) -> None:
        self.runs.append((layer, np.full(len(layer), self.layers, dtype=np.int32)))
        self.layers += 1
        while len(self.runs) > 1 and 2 * len(self.runs[-1][0]) >= len(self.runs[-2][0]):
            (a, da), (b, db) = self.runs.pop(), self.runs.pop()
            keys = np.concatenate((b, a))
            order = np.argsort(keys, kind="stable")
            self.runs.append((keys[order], np.concatenate((db, da))[order]))

    @property
    def nbytes(self) -> int:
        return sum(k.nbytes + d.nbytes for k, d in self.runs)

    def new(self, keys: np.ndarray) -> np.ndarray:
        """The keys not stored yet."""
        for run_keys, _ in self.runs:
            keys = keys[~_contains(run_keys, keys)]
        return keys

    def depth(self, key) -> int:
        """The layer that holds `key` (-1: none)."""
        probe = np.array([key])
        for run_keys, depths in self.runs:
            at = int(np.searchsorted(run_keys, probe)[0])
            if at < len(run_keys) and run_keys[at] == key:
                return int(depths[at])
        return -1


def search(rules: Rules, lay: Layout, start: State, *, run: RunOptions = RunOptions(),  # noqa: B008
           most: int | None = None, meter: Meter | None = None) -> Found:
    """The fewest moves from `start` to the solved puzzle (see the module docstring)."""
    t0 = time.perf_counter()
    ks = rules.ks
    pk = Packing(rules, lay)
    forward = _Mover(rules, lay, rules.moves, pk)
    backward = _Mover(rules, lay, [inverse(m, ks) for m in rules.moves], pk)
    firsts = [pk.pack(pk.values(start)), pk.pack(pk.values(rules.solved))]
    seen = [Seen(firsts[0]), Seen(firsts[1])]
    last = list(firsts)
    sizes: list[list[int]] = [[1], [1]]
    movers = [forward, backward]
    if firsts[0][0] == firsts[1][0]:
        return Found((), (1,), (1,), time.perf_counter() - t0)
    while True:
        side = 0 if len(last[0]) <= len(last[1]) else 1
        stored = sum(sum(x) for x in sizes)
        if most is not None and stored + len(last[side]) * len(rules.moves) > most:
            raise SearchBound(stored, most, tuple(sizes[0]), tuple(sizes[1]))
        layer = _grow(seen[side], last[side], movers[side], pk, len(rules.moves), run, seen[1 - side].nbytes)
        if len(layer) == 0:
            return Found(None, tuple(sizes[0]), tuple(sizes[1]), time.perf_counter() - t0)
        met = _contains(last[1 - side], layer)
        seen[side].add(layer)
        last[side] = layer
        sizes[side].append(len(layer))
        if meter is not None:
            meter.update(stored + len(layer), note=f"layers {len(sizes[0]) - 1} + {len(sizes[1]) - 1}")
        if met.any():
            x = layer[np.argmax(met)]
            moves = _path(rules, pk, seen, movers, x)
            return Found(tuple(moves), tuple(sizes[0]), tuple(sizes[1]), time.perf_counter() - t0)


class SearchBound(Exception):
    """The search stored `stored` states, and its next layer could take it past `most`."""

    def __init__(self, stored: int, most: int, forward: tuple[int, ...], backward: tuple[int, ...]) -> None:
        super().__init__(f"{stored:,} states stored")
        self.stored, self.most, self.forward, self.backward = stored, most, forward, backward


def _grow(seen: Seen, last: np.ndarray, mover: _Mover, pk: Packing, nmoves: int, run: RunOptions,
          other: int) -> np.ndarray:
    """The next layer: the images of the last one, sorted, without repeats or earlier
    states (directed moves may lead back to any earlier layer, not only the last two)."""
    images = len(last) * nmoves
    require(images * (8 * pk.words) * 3 + 2 * seen.nbytes + other, run.memory,
            f"a layer of {images:,} images of the bidirectional search")
    parts = []
    for lo in range(0, len(last), CHUNK):
        values = pk.unpack(last[lo:lo + CHUNK])
        for j in range(nmoves):
            parts.append(pk.pack(mover.images(values, j)))
    return seen.new(np.unique(np.concatenate(parts)))


def _path(rules: Rules, pk: Packing, seen: list[Seen], movers: list[_Mover], x) -> list[str]:
    """The moves from the start to the solved puzzle through the meeting state x."""
    names = [m.name for m in rules.moves]
    before: list[str] = []
    key = x
    fwd = seen[0]
    depth = fwd.depth(key)
    while depth > 0:
        values = pk.unpack(np.array([key]))
        for j in range(len(names)):  # a predecessor: undo move j, look in the layer before
            prev = pk.pack(movers[1].images(values, j))
            if fwd.depth(prev[0]) == depth - 1:
                before.append(names[j])
                key, depth = prev[0], depth - 1
                break
    before.reverse()
    after: list[str] = []
    key = x
    back = seen[1]
    depth = back.depth(key)
    while depth > 0:
        values = pk.unpack(np.array([key]))
        for j in range(len(names)):  # a successor one step nearer the solved puzzle
            nxt = pk.pack(movers[0].images(values, j))
            if back.depth(nxt[0]) == depth - 1:
                after.append(names[j])
                key, depth = nxt[0], depth - 1
                break
    return before + after


__all__ = ["Found", "Packing", "SearchBound", "Seen", "search"]
