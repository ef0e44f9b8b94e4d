"""A permutation puzzle in plain Python: its pieces, its moves, its states, and the plain
breadth-first search the engine's answers are checked against.

Throughout this package:

* a *position* is a named place on the puzzle ("ufr", "3"); positions come in *sets*
  (`Pieces`: a cube's corners, its edges), numbered 0..n-1 over all sets in the order the
  puzzle file lists them;
* a *piece* is named by its home, the position it holds when the puzzle is solved; in a
  set with *colours* the pieces of one colour are identical and a piece is named by its
  colour;
* a *twist* is a piece's orientation at its position, 0..k-1 for a set of k twists;
* a *move* is ``(perm, twist)``: after it, position i holds the piece that was at
  ``perm[i]``, turned by ``twist[i]`` (mod k). In cycle notation ``(a b+1 c)`` sends the
  piece at a to b, turned by 1 as it arrives, the piece at b to c, and the one at c to a;
* a *state* is ``(labels, twists)``: the label of the piece at each position (an index
  into `Rules.names`) and its twist. Written for people it is one token a position, in
  order: the piece's name, with ``+t`` when its twist t is not 0 (`state_text`,
  `parse_state`).

Everything here works on tuples; it is what a reader can check against a puzzle's
statement in a minute, and the reference for the faster searches of the package.
"""

from __future__ import annotations

import re
import sys
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import gcd, lcm

from puzzlesearch.engine.params import plural
from puzzlesearch.engine.space import multinomial

State = tuple[tuple[int, ...], tuple[int, ...]]
#: what may not appear in a position's or a colour's name: the cycle notation's own signs
NAME = re.compile(r"[^\s()+,']+")
#: the digits of the largest count a puzzle has (4,096! arrangements, 255 twists each: about
#: 23,000): Python refuses to print an int of more than 4,300 digits unless told, a guard
#: against text read from outside, which these counts never are
COUNT_DIGITS = 25_000
if 0 < sys.get_int_max_str_digits() < COUNT_DIGITS:
    sys.set_int_max_str_digits(COUNT_DIGITS)
MAX_TURNS = 1000  # the largest count of turns a scramble's token may give (R1000)


@dataclass(frozen=True)
class Pieces:
    """One set of positions and the pieces that move among them.

    positions  their names, in the file's order
    twists     the orientations of a piece (1: none)
    colours    the colour of the piece at each position when solved; () = every piece
               different (then a piece is named by its home position)
    """

    name: str
    positions: tuple[str, ...]
    twists: int = 1
    colours: tuple[str, ...] = ()


@dataclass(frozen=True)
class Move:
    """A move: position i receives the piece from perm[i], turned by twist[i]."""

    name: str
    perm: tuple[int, ...]
    twist: tuple[int, ...]


@dataclass(frozen=True)
class Rules:
    """A puzzle as the searches see it.

    sets     the sets of pieces, positions numbered across them in order
    moves    every move a search makes (the file's moves and the powers its metric adds)
    base     the file's own moves, whose powers a scramble may name (R, R2, R')
    fixed    positions held in place (each move is followed by the turn of the whole
             puzzle that brings them back, when the file gives such turns)
    """

    name: str
    sets: tuple[Pieces, ...]
    moves: tuple[Move, ...]
    base: tuple[Move, ...]
    fixed: tuple[str, ...] = ()
    metric: str = "powers"
    description: str = ""
    source: str = ""

    @property
    def positions(self) -> tuple[str, ...]:
        return tuple(p for s in self.sets for p in s.positions)

    @property
    def size(self) -> int:
        return sum(len(s.positions) for s in self.sets)

    @property
    def ks(self) -> tuple[int, ...]:
        """The twists of each position's set."""
        return tuple(s.twists for s in self.sets for _ in s.positions)

    @property
    def set_of(self) -> tuple[int, ...]:
        """The set of each position."""
        return tuple(i for i, s in enumerate(self.sets) for _ in s.positions)

    @property
    def names(self) -> tuple[str, ...]:
        """Label -> what a state calls the piece: labels 0..n-1 are the pieces of sets
        without colours (named by their home), then each set's colours in order."""
        return self.positions + tuple(c for s in self.sets for c in _colour_names(s))

    @property
    def solved(self) -> State:
        labels = []
        colour_base = self.size
        offset = 0
        for s in self.sets:
            if s.colours:
                names = _colour_names(s)
                labels += [colour_base + names.index(c) for c in s.colours]
                colour_base += len(names)
            else:
                labels += range(offset, offset + len(s.positions))
            offset += len(s.positions)
        return tuple(labels), (0,) * self.size

    def move(self, name: str) -> Move:
        for m in self.moves:
            if m.name == name:
                return m
        raise KeyError(name)


def _colour_names(s: Pieces) -> tuple[str, ...]:
    return tuple(dict.fromkeys(s.colours))


# --- moves ------------------------------------------------------------------------------------------


def apply(state: State, move: Move, ks: Sequence[int]) -> State:
    """The state after one move."""
    labels, twists = state
    return (tuple(labels[p] for p in move.perm),
            tuple((twists[p] + t) % k for p, t, k in zip(move.perm, move.twist, ks, strict=True)))


def play(rules: Rules, state: State, moves: Iterable[Move]) -> State:
    """The state after the moves, in order."""
    ks = rules.ks
    for m in moves:
        state = apply(state, m, ks)
    return state


def compose(a: Move, b: Move, ks: Sequence[int], name: str = "") -> Move:
    """a, then b."""
    return Move(name, tuple(a.perm[p] for p in b.perm),
                tuple((a.twist[p] + t) % k for p, t, k in zip(b.perm, b.twist, ks, strict=True)))


def identity(n: int, name: str = "") -> Move:
    return Move(name, tuple(range(n)), (0,) * n)


def is_identity(m: Move) -> bool:
    return all(p == i for i, p in enumerate(m.perm)) and not any(m.twist)


def inverse(m: Move, ks: Sequence[int], name: str = "") -> Move:
    perm = [0] * len(m.perm)
    for i, p in enumerate(m.perm):
        perm[p] = i
    # position p sends its piece to i = perm^-1[p]; undoing it takes back the twist added at i
    return Move(name, tuple(perm), tuple((-m.twist[perm[p]]) % ks[p] for p in range(len(perm))))


def order(m: Move, ks: Sequence[int], most: int) -> int:
    """The smallest p >= 1 with m^p the identity; 0 when it is larger than `most`. From the
    cycles: a cycle of length L whose twists add up to T (mod k) comes back after L turns
    turned by T, so after L x k / gcd(T, k); the move's order is the lcm over its cycles
    (a pass over the positions, where powering would take up to `most` of them)."""
    seen = [False] * len(m.perm)
    found = 1
    for start in range(len(m.perm)):
        if seen[start]:
            continue
        length, total, i = 0, 0, start
        while not seen[i]:
            seen[i] = True
            total += m.twist[i]
            length += 1
            i = m.perm[i]
        k = ks[start]
        found = lcm(found, length * (k // gcd(total % k, k)))
        if found > most:
            return 0
    return found


def power_name(name: str, p: int, n: int) -> str:
    """What a puzzler calls the p-th power of a move of order n: R, R2, R' (and R2' ...)."""
    if 2 * p <= n:
        return name + (str(p) if p > 1 else "")
    q = n - p
    return name + (str(q) if q > 1 else "") + "'"


def touched(moves: Sequence[Move]) -> list[bool]:
    """For each position, whether some move changes what it holds."""
    n = len(moves[0].perm) if moves else 0
    return [any(m.perm[i] != i or m.twist[i] for m in moves) for i in range(n)]


# --- states for people -----------------------------------------------------------------------------


def state_text(rules: Rules, state: State) -> str:
    """One token a position, in order: the piece's name, +t when it is twisted by t."""
    names = rules.names
    return " ".join(names[c] + (f"+{t}" if t else "") for c, t in zip(*state, strict=True))


def parse_state(rules: Rules, text: str) -> State:
    """The state a text names (see `state_text`); ValueError in one line naming the fault:
    a count of tokens that is not one a position, a piece foreign to its position's set or
    there too often or too rarely, a twist out of range."""
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    if len(tokens) != rules.size:
        raise ValueError(f"a state of {rules.name} names the piece at each of its {rules.size} positions "
                         f"({_first_positions(rules)}), got {len(tokens)} "
                         f"{plural(len(tokens), 'token')}")
    names = rules.names
    solved_labels = rules.solved[0]
    labels, twists = [], []
    offset = 0
    for s in rules.sets:
        m = len(s.positions)
        own = {names[c]: c for c in solved_labels[offset:offset + m]}
        for i, token in enumerate(tokens[offset:offset + m]):
            match = re.fullmatch(r"(.+?)(?:\+(\d+))?", token)
            piece, twist = match[1], int(match[2] or 0)
            if piece not in own:
                kind = "colours" if s.colours else "pieces"
                raise ValueError(f"position {s.positions[i]} holds one of the {kind} of {s.name} "
                                 f"({_listing(own)}), not {piece!r}")
            if not 0 <= twist < s.twists:
                raise ValueError(f"{token}: a piece of {s.name} has "
                                 + (f"twists 0..{s.twists - 1}" if s.twists > 1 else "no twist"))
            labels.append(own[piece])
            twists.append(twist)
        want = sorted(solved_labels[offset:offset + m])
        got = sorted(labels[offset:offset + m])
        if got != want:
            extra = next(c for c in got if got.count(c) > want.count(c))
            missing = [names[c] for c in dict.fromkeys(want) if got.count(c) < want.count(c)]
            raise ValueError(f"{s.name}: {names[extra]} is there {got.count(extra)} times, "
                             f"{want.count(extra)} in the solved puzzle (missing: {', '.join(missing)})")
        offset += m
    return tuple(labels), tuple(twists)


def _first_positions(rules: Rules, most: int = 6) -> str:
    pos = rules.positions
    return " ".join(pos[:most]) + (" ..." if len(pos) > most else "")


def _listing(names: Iterable[str], most: int = 8) -> str:
    names = list(names)
    return ", ".join(names[:most]) + (", ..." if len(names) > most else "")


def parse_moves(rules: Rules, text: str) -> list[Move]:
    """The moves a scramble names, in order: "R U R' F2". A token is a move the searches
    make (R, R2, R' as the metric gives them), or any power of one of the file's moves:
    its name, then a count of turns, then ' for the inverse (R3, R2'). ValueError naming
    the first token that is neither."""
    by_name = {m.name: m for m in rules.moves}
    bases = sorted(rules.base, key=lambda m: -len(m.name))
    ks = rules.ks
    found = []
    for token in (t for t in re.split(r"[\s,]+", text.strip()) if t):
        if token in by_name:
            found.append(by_name[token])
            continue
        for b in bases:
            rest = token[len(b.name):] if token.startswith(b.name) else None
            match = re.fullmatch(r"(\d*)('?)", rest) if rest is not None else None
            if match:
                turns = int(match[1] or 1)
                if turns > MAX_TURNS:
                    raise ValueError(f"{token}: at most {MAX_TURNS} turns of one move in a token")
                move = identity(rules.size, token)
                for _ in range(turns):
                    move = compose(move, b, ks)
                found.append(inverse(move, ks, token) if match[2] else Move(token, move.perm, move.twist))
                break
        else:
            raise ValueError(f"{token!r} is not a move of {rules.name} (its moves: "
                             f"{_listing(m.name for m in rules.moves)})")
    return found


# --- the plain searches ---------------------------------------------------------------------------


def bfs_histogram(rules: Rules, start: State | None = None) -> list[int]:
    """States at each distance from start (default: solved): the dict-and-deque search."""
    start = rules.solved if start is None else start
    ks = rules.ks
    seen = {start: 0}
    queue = deque([start])
    hist = [1]
    while queue:
        state = queue.popleft()
        d = seen[state] + 1
        for m in rules.moves:
            nxt = apply(state, m, ks)
            if nxt not in seen:
                seen[nxt] = d
                if d == len(hist):
                    hist.append(0)
                hist[d] += 1
                queue.append(nxt)
    return hist


def bfs_distance(rules: Rules, start: State, goal: State | None = None) -> int:
    """Fewest moves from start to goal (default: solved) by the plain search; -1 when the
    goal cannot be reached."""
    goal = rules.solved if goal is None else goal
    ks = rules.ks
    seen = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if state == goal:
            return seen[state]
        for m in rules.moves:
            nxt = apply(state, m, ks)
            if nxt not in seen:
                seen[nxt] = seen[state] + 1
                queue.append(nxt)
    return -1


def arrangements(s: Pieces) -> int:
    """Every way to place the set's pieces on its positions (identical ones alike), each
    piece in any of its twists."""
    m = len(s.positions)
    counts = [s.colours.count(c) for c in _colour_names(s)] if s.colours else [1] * m
    return multinomial(counts) * s.twists**m


__all__ = ["Move", "Pieces", "Rules", "State", "apply", "arrangements", "bfs_distance", "bfs_histogram",
           "compose", "identity", "inverse", "is_identity", "order", "parse_moves", "parse_state", "play",
           "power_name", "state_text", "touched"]
