"""A puzzle described in a TOML file (or the same tables in Python) becomes `rules.Rules`.

The file, in full (only ``[pieces]`` and ``[moves]`` are needed)::

    name = "2x2x2 cube"                  # default: the file's name
    description = "..."                  # one line for `perm list` and `perm info`
    source = "..."                       # where the puzzle and its numbers come from
    metric = "powers"                    # "powers": each move, its inverse and the powers
                                         #   between (R, R2, R'); "inverses": R and R';
                                         #   "given": the moves as written, nothing added
    fixed = ["dbl"]                      # positions whose pieces stay in place

    [pieces.corners]                     # a set of pieces: its positions, in order
    positions = ["ufr", "ufl", "ubl"]    # or a count n: positions "1" .. "n"
    twists = 3                           # orientations of a piece (default 1: none)
    solved = ["w", "w", "y"]             # colours when solved: equal = identical pieces

    [moves]                              # cycle notation over the positions;
    U = "(ufr ufl ubl)"                  # name+t: the piece arriving there turns by t
    R = { cycles = "(ufr+1 ubl+2)", metric = "given" }   # a metric for this move alone

    [rotations]                          # turns of the whole puzzle: after each move, the
    y = "(ufr ufl ubl)"                  # one that brings the fixed pieces back is applied

A mistake is reported in one line with the file and the line of the key it concerns
(tomllib gives the line of a syntax error only, so `key_lines` finds each key's line in
the text): ``cube.toml:12: move R: unknown position 'urf' ...``.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from puzzlesearch.perm.rules import (
    NAME,
    Move,
    Pieces,
    Rules,
    compose,
    identity,
    inverse,
    is_identity,
    order,
    power_name,
)

METRICS = {
    "powers": "each move, its inverse and the powers between (R, R2, R')",
    "inverses": "each move and its inverse (R, R')",
    "given": "the moves as written",
}
TOP_KEYS = ("name", "description", "source", "metric", "fixed", "pieces", "moves", "rotations")
SET_KEYS = ("positions", "twists", "solved")
MOVE_KEYS = ("cycles", "metric")
MAX_TWISTS = 255
MAX_POSITIONS = 4096
MAX_ORDER = 10_000  # a move whose inverse is generated repeats within this many turns
MAX_POWERS = 64  # the most powers of one move metric = "powers" makes moves
MAX_ROTATIONS = 100_000  # the turns of the whole puzzle [rotations] generates at most
MAX_FILE_BYTES = 16 << 20  # a puzzle file's largest size (4,096 positions with long move lists fit)
#: a key at the start of a line: bare, "quoted" or 'quoted' parts joined by dots
_PART = r"""(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')"""
KEY = re.compile(rf"\s*({_PART}(?:\s*\.\s*{_PART})*)\s*=")
MOVE_NAME = re.compile(r"[^\s()+,'\"]+")

Path_ = tuple[str, ...]


class SpecError(ValueError):
    """A mistake in a puzzle's description, at `path` (the keys leading to it)."""

    def __init__(self, path: Path_, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


# --- reading a file -----------------------------------------------------------------------------------


def load(filename: str | Path, shown: str | None = None) -> Rules:
    """The puzzle a TOML file describes; ValueError "FILE:LINE: problem" in one line."""
    path = Path(filename)
    shown = shown or str(filename)
    return loads(read_text(path, shown), shown, path.stem)


def read_text(path: Path, shown: str) -> str:
    """A puzzle file's text; ValueError in one line when it cannot be read as UTF-8 text.

    Only a regular file of at most MAX_FILE_BYTES is read: what it is, and its size, are
    asked of the file system first (os.stat), so that a FIFO (whose open would wait for a
    writer), a device that never ends (/dev/zero) or a folder is refused at once, without
    being opened. The file is then opened without blocking and read up to one byte past
    the cap, in case it changed since. A byte-order mark, which some editors put at the
    start of a UTF-8 file, is dropped."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise ValueError(f"{shown}: no such file") from None
    except OSError as e:
        raise ValueError(f"{shown}: cannot be read ({e.strerror or e})") from None
    if stat.S_ISDIR(st.st_mode):
        raise ValueError(f"{shown} is a folder, not a puzzle file")
    if not stat.S_ISREG(st.st_mode):
        raise ValueError(f"{shown} is {_kind(st.st_mode)}, not a puzzle file (a regular file is read)")
    if st.st_size > MAX_FILE_BYTES:
        raise ValueError(f"{shown}: {st.st_size:,} bytes, more than a puzzle file's {MAX_FILE_BYTES:,}")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # replaced since the stat
                raise ValueError(f"{shown}: not a regular file, not a puzzle file")
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise ValueError(f"{shown}: cannot be read ({e.strerror or e})") from None
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"{shown}: more than a puzzle file's {MAX_FILE_BYTES:,} bytes")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(f"{shown}: not a text file (UTF-8)") from None


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def loads(text: str, shown: str, stem: str = "puzzle") -> Rules:
    """The puzzle a TOML text describes (`shown` names it in messages, `stem` is the
    default name)."""
    try:
        spec = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        message = str(e)
        at = re.search(r"\(at line (\d+), column \d+\)", message)
        where = f"{shown}:{at[1]}" if at else shown
        problem = re.sub(r" \(at line .*?\)", "", message)
        raise ValueError(f"{where}: not valid TOML: {problem}") from None
    spec.setdefault("name", stem)
    return build_at(spec, key_lines(text), shown)


def build_at(spec: dict[str, Any], lines: dict[Path_, int], shown: str) -> Rules:
    """`build`, its SpecError turned into ValueError "FILE:LINE: problem" by `lines`, the
    line of each key path in the file (a reader of another format gives its own)."""
    try:
        return build(spec)
    except SpecError as e:
        line = line_of(lines, e.path)
        raise ValueError(f"{shown}:{line}: {e.message}" if line else f"{shown}: {e.message}") from None


def key_lines(text: str) -> dict[Path_, int]:
    """The line (1-based) of every table header and key in a TOML text, by its path of
    keys. A reader of the text's layout, not a TOML parser: it follows table headers,
    dotted and quoted keys, and skips the insides of multi-line arrays, inline tables and
    multi-line strings (a key inside an inline table has the line of the table's key)."""
    found: dict[Path_, int] = {}
    table: Path_ = ()
    depth = 0
    in_string: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if in_string is not None:
            if in_string in line:
                in_string = None
            continue
        if depth == 0:
            header = re.match(r"\s*\[\[?\s*([^\[\]]+?)\s*\]\]?\s*(#.*)?$", line)
            if header:
                table = _split_key(header[1])
                found.setdefault(table, number)
                continue
            key = KEY.match(line)
            if key:
                found.setdefault(table + _split_key(key[1]), number)
                line = line[key.end():]
        depth, in_string = _scan(line, depth)
    return found


def _split_key(text: str) -> Path_:
    parts = re.findall(r"\"([^\"]*)\"|'([^']*)'|([A-Za-z0-9_-]+)", text)
    return tuple(next(p for p in part if p) if any(part) else "" for part in parts)


def _scan(line: str, depth: int) -> tuple[int, str | None]:
    """The bracket depth after a line's brackets outside strings and comments, and the
    multi-line string left open at its end (if any)."""
    i = 0
    while i < len(line):
        c = line[i]
        if c == "#":
            break
        if line.startswith('"""', i) or line.startswith("'''", i):
            quote = line[i:i + 3]
            end = line.find(quote, i + 3)
            if end < 0:
                return depth, quote
            i = end + 3
            continue
        if c in "\"'":
            end = i + 1
            while end < len(line) and line[end] != c:
                end += 2 if c == '"' and line[end] == "\\" else 1
            i = end + 1
            continue
        if c in "[{":
            depth += 1
        elif c in "]}":
            depth = max(0, depth - 1)
        i += 1
    return depth, None


def line_of(lines: dict[Path_, int], path: Path_) -> int | None:
    """The line of the longest prefix of `path` the text names."""
    for n in range(len(path), 0, -1):
        if path[:n] in lines:
            return lines[path[:n]]
    return None


# --- building the rules -----------------------------------------------------------------------------


def build(spec: dict[str, Any]) -> Rules:
    """The rules a description (the TOML file's tables as a dict) gives; SpecError naming
    the key at fault."""
    _known_keys(spec, TOP_KEYS, (), "a puzzle")
    name = _text(spec, "name", "puzzle")
    description = _text(spec, "description", "")
    source = _text(spec, "source", "")
    metric = _metric(spec.get("metric", "powers"), ("metric",))
    sets = _sets(spec)
    where = {p: i for i, p in enumerate(q for s in sets for q in s.positions)}
    ks = [s.twists for s in sets for _ in s.positions]
    set_of = [i for i, s in enumerate(sets) for _ in s.positions]
    if "moves" not in spec:
        raise SpecError((), "no [moves] table: a puzzle needs its moves, e.g. [moves] then X = \"(a b c)\"")
    raw = _table(spec["moves"], ("moves",), "[moves]")
    if not raw:
        raise SpecError(("moves",), "[moves] is empty: a puzzle needs at least one move")
    fixed = _fixed(spec, where)
    rotations = _rotations(spec, where, ks, set_of, sets, bool(fixed))
    positions = list(where)
    base, searched, owner = [], [], {}
    for move_name, value in raw.items():
        path = ("moves", move_name)
        if not MOVE_NAME.fullmatch(move_name):
            raise SpecError(path, f"move name {move_name!r} may not hold spaces, quotes or the signs ( ) + ,")
        cycles, own_metric = _move_value(value, path, metric)
        move = parse_cycles(cycles, move_name, where, ks, set_of, sets, path)
        if is_identity(move):
            raise SpecError(path, f"move {move_name} changes nothing")
        n = order(move, ks, MAX_ORDER)
        if n == 0 and own_metric != "given":
            raise SpecError(path, f"move {move_name} repeats only after more than {MAX_ORDER:,} turns; "
                                  "give it metric = \"given\"")
        if n > MAX_POWERS + 1 and own_metric == "powers":
            raise SpecError(path, f"move {move_name} has order {n:,}: its {n - 1:,} powers would all be "
                                  "moves; give it metric = \"inverses\" or \"given\"")
        powers = {"given": [1], "inverses": sorted({1, n - 1}), "powers": list(range(1, n))}[own_metric]
        power = identity(len(ks))
        made = {}
        # powers one by one up to the last asked for, but the inverse at once: a long cycle
        # has thousands of powers before it
        last = max(p for p in powers if p == 1 or own_metric == "powers")
        for p in range(1, last + 1):
            power = compose(power, move, ks)
            if p in powers:
                made[p] = _turn_back(power, fixed, rotations, ks, positions, power_name(move_name, p, n)
                                     if n else move_name, path)
        for p in powers:
            if p not in made:
                made[p] = _turn_back(inverse(move, ks), fixed, rotations, ks, positions,
                                     power_name(move_name, p, n), path)
        base.append(Move(move_name, made[1].perm, made[1].twist))
        for p, m in made.items():
            shown = power_name(move_name, p, n) if n else move_name
            if owner.setdefault(shown, move_name) != move_name:
                raise SpecError(path, f"two moves would be called {shown}: one of {owner[shown]} and one of "
                                      f"{move_name}; rename one")
            searched.append(Move(shown, m.perm, m.twist))
    held = tuple(positions[i] for i in fixed)
    return Rules(name, tuple(sets), _distinct_moves(searched), tuple(base), held, metric, description, source)


def _known_keys(table: dict, keys: Sequence[str], path: Path_, what: str) -> None:
    for key in table:
        if key not in keys:
            raise SpecError(path + (key,), f"unknown key {key!r} in {what} (it takes {', '.join(keys)})")


def _text(spec: dict, key: str, default: str) -> str:
    value = spec.get(key, default)
    if not isinstance(value, str):
        raise SpecError((key,), f"{key} must be a string, got {_shown(value)}")
    return " ".join(value.split())


def _metric(value: Any, path: Path_) -> str:
    if value not in METRICS:
        known = ", ".join(f'"{m}" ({w})' for m, w in METRICS.items())
        raise SpecError(path, f"metric must be one of {known}; got {_shown(value)}")
    return value


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _table(value: Any, path: Path_, what: str) -> dict:
    if not isinstance(value, dict):
        raise SpecError(path, f"{what} must be a table, got {_shown(value)}")
    return value


def _sets(spec: dict) -> list[Pieces]:
    if "pieces" not in spec:
        raise SpecError((), "no [pieces] table: a puzzle needs its positions, "
                            "e.g. [pieces.p] then positions = [\"a\", \"b\", \"c\"]")
    pieces = _table(spec["pieces"], ("pieces",), "[pieces]")
    if not pieces:
        raise SpecError(("pieces",), "[pieces] is empty: give a set, e.g. [pieces.p] with its positions")
    sets, seen = [], {}
    for set_name, table in pieces.items():
        path = ("pieces", set_name)
        table = _table(table, path, f"[pieces.{set_name}]")
        _known_keys(table, SET_KEYS, path, f"[pieces.{set_name}]")
        if "positions" not in table:
            raise SpecError(path, f"[pieces.{set_name}] has no positions = [...]")
        positions = _positions(table["positions"], path + ("positions",))
        for p in positions:
            if p in seen:
                raise SpecError(path + ("positions",), f"position {p} is in both {seen[p]} and {set_name}")
            seen[p] = set_name
        twists = table.get("twists", 1)
        if isinstance(twists, bool) or not isinstance(twists, int) or not 1 <= twists <= MAX_TWISTS:
            raise SpecError(path + ("twists",), f"twists must be a whole number from 1 (no orientation) "
                                                f"to {MAX_TWISTS}, got {_shown(twists)}")
        colours = _colours(table.get("solved"), positions, path + ("solved",))
        sets.append(Pieces(set_name, positions, twists, colours))
    if len(seen) > MAX_POSITIONS:
        raise SpecError(("pieces",), f"a puzzle has at most {MAX_POSITIONS:,} positions, got {len(seen):,}")
    return sets


def _positions(value: Any, path: Path_) -> tuple[str, ...]:
    if isinstance(value, int) and not isinstance(value, bool):
        if not 1 <= value <= MAX_POSITIONS:
            raise SpecError(path, f"positions = n needs 1 <= n <= {MAX_POSITIONS:,}, got {value}")
        return tuple(str(i) for i in range(1, value + 1))
    if not isinstance(value, list) or not value:
        raise SpecError(path, f"positions must be a list of names or a count, got {_shown(value)}")
    names = []
    for p in value:
        if not isinstance(p, str) or not NAME.fullmatch(p):
            raise SpecError(path, f"a position is named by a word without spaces, quotes or the signs "
                                  f"( ) + , — got {_shown(p)}")
        if p in names:
            raise SpecError(path, f"position {p} is listed twice")
        names.append(p)
    return tuple(names)


def _colours(value: Any, positions: tuple[str, ...], path: Path_) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or len(value) != len(positions):
        raise SpecError(path, f"solved must list the colour at each of the {len(positions)} positions, "
                              f"got {_shown(value)}")
    for c in value:
        if not isinstance(c, str) or not NAME.fullmatch(c):
            raise SpecError(path, f"a colour is a word without spaces, quotes or the signs ( ) + , — "
                                  f"got {_shown(c)}")
    return tuple(value)


def _move_value(value: Any, path: Path_, metric: str) -> tuple[str, str]:
    if isinstance(value, str):
        return value, metric
    if isinstance(value, dict):
        _known_keys(value, MOVE_KEYS, path, f"move {path[-1]}")
        if "cycles" not in value or not isinstance(value["cycles"], str):
            raise SpecError(path, f"move {path[-1]} needs cycles = \"(a b c)\"")
        return value["cycles"], _metric(value.get("metric", metric), path + ("metric",))
    raise SpecError(path, f"move {path[-1]} must be cycles such as \"(a b c)(d e)\", got {_shown(value)}")


def parse_cycles(text: str, name: str, where: dict[str, int], ks: Sequence[int], set_of: Sequence[int],
                 sets: Sequence[Pieces], path: Path_) -> Move:
    """A move in cycle notation: "(a b+1 c)(d e)" sends a to b (turned by 1), b to c, c to
    a, d to e and e to d; a 1-cycle "(a+1)" turns a piece in place."""
    n = len(ks)
    perm, twist = list(range(n)), [0] * n
    rest = re.sub(r"\(([^()]*)\)", " ", text)
    if rest.strip() or not text.strip():
        shown = rest.strip() or "nothing"
        raise SpecError(path, f"move {name}: expected cycles such as \"(a b c)(d e)\", found {shown!r}")
    used: set[int] = set()
    for body in re.findall(r"\(([^()]*)\)", text):
        cycle = []
        for token in re.split(r"[\s,]+", body.strip()):
            if not token:
                continue
            m = re.fullmatch(r"(.+?)(?:\+(\d+))?", token)
            pos, turn = m[1], int(m[2]) if m[2] is not None else 0
            if pos not in where:
                raise SpecError(path, f"move {name}: unknown position {pos!r} ({_known(where)})")
            i = where[pos]
            if i in used:
                raise SpecError(path, f"move {name} is not a permutation: position {pos} appears twice")
            used.add(i)
            if turn >= ks[i]:
                s = sets[set_of[i]]
                allowed = f"twists 0..{ks[i] - 1}" if ks[i] > 1 else "no twist (twists = 1)"
                raise SpecError(path, f"move {name}: {token}: the orientation {turn} is out of range, "
                                      f"{s.name} has {allowed}")
            cycle.append((i, turn))
        if not cycle:
            raise SpecError(path, f"move {name}: an empty cycle ()")
        kinds = {set_of[i] for i, _ in cycle}
        if len(kinds) > 1:
            names = " and ".join(sets[k].name for k in sorted(kinds))
            raise SpecError(path, f"move {name} is not a permutation of pieces: a cycle mixes {names}")
        for (src, _), (dst, turn) in zip(cycle, cycle[1:] + cycle[:1], strict=True):
            perm[dst] = src
            twist[dst] = turn
    return Move(name, tuple(perm), tuple(twist))


def cycles_text(move: Move, positions: Sequence[str]) -> str:
    """A move in the cycle notation `parse_cycles` reads: "(a b+1 c)(d+2)"; "" for none.
    A piece's path is followed forwards, from the position it leaves to the one it
    reaches, since the notation gives each twist at the position a piece arrives at."""
    goes = [0] * len(move.perm)
    for dst, src in enumerate(move.perm):
        goes[src] = dst
    done, cycles = set(), []
    for start in range(len(move.perm)):
        if start in done or (goes[start] == start and not move.twist[start]):
            continue
        cycle, i = [], start
        while i not in done:
            done.add(i)
            cycle.append(positions[i] + (f"+{move.twist[i]}" if move.twist[i] else ""))
            i = goes[i]
        cycles.append("(" + " ".join(cycle) + ")")
    return "".join(cycles)


def _known(where: dict[str, int], most: int = 8) -> str:
    names = list(where)
    return "the positions are " + ", ".join(names[:most]) + (", ..." if len(names) > most else "")


def _fixed(spec: dict, where: dict[str, int]) -> list[int]:
    value = spec.get("fixed", [])
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        raise SpecError(("fixed",), f"fixed must be a list of positions, got {_shown(value)}")
    for p in value:
        if p not in where:
            raise SpecError(("fixed",), f"fixed: unknown position {p!r} ({_known(where)})")
    return [where[p] for p in value]


def _rotations(spec: dict, where: dict[str, int], ks: Sequence[int], set_of: Sequence[int],
               sets: Sequence[Pieces], has_fixed: bool) -> list[Move]:
    """Every turn of the whole puzzle that [rotations] generates (the identity first)."""
    if "rotations" not in spec:
        return []
    table = _table(spec["rotations"], ("rotations",), "[rotations]")
    if not has_fixed:
        raise SpecError(("rotations",), "[rotations] turn the puzzle back to its fixed pieces: "
                                        "give them too, e.g. fixed = [\"dbl\"]")
    gens = []
    for name, value in table.items():
        if not isinstance(value, str):
            raise SpecError(("rotations", name), f"rotation {name} must be cycles such as \"(a b c)\"")
        gens.append(parse_cycles(value, name, where, ks, set_of, sets, ("rotations", name)))
    group = {identity(len(ks))}
    frontier = list(group)
    while frontier:
        nxt = []
        for g in frontier:
            for r in gens:
                h = compose(g, r, ks)
                if h not in group:
                    group.add(h)
                    nxt.append(h)
                    if len(group) > MAX_ROTATIONS:  # checked at each new turn: a layer may be huge
                        raise SpecError(("rotations",), f"[rotations] generate more than {MAX_ROTATIONS:,} "
                                                        "turns; they should be the turns of the whole puzzle")
        frontier = nxt
    return sorted(group, key=lambda g: not is_identity(g))


def _turn_back(move: Move, fixed: list[int], rotations: list[Move], ks: Sequence[int], positions: list[str],
               shown: str, path: Path_) -> Move:
    """The move followed by the one turn of the whole puzzle that brings every fixed piece
    back home, untwisted (the move itself when it leaves them alone)."""

    def home(m: Move) -> bool:
        return all(m.perm[i] == i and m.twist[i] == 0 for i in fixed)

    if home(move):
        return move
    if not rotations:
        moved = next(i for i in fixed if move.perm[i] != i or move.twist[i])
        raise SpecError(path, f"move {shown} moves the fixed position {positions[moved]}; "
                              "give [rotations] (turns of the whole puzzle) to bring it back")
    fits = [compose(move, r, ks) for r in rotations if home(compose(move, r, ks))]
    if not fits:
        raise SpecError(path, f"no turn of [rotations] brings the fixed pieces back after move {shown}")
    if len(set(fits)) > 1:
        raise SpecError(path, f"{len(set(fits))} turns of [rotations] bring the fixed pieces back after "
                              f"move {shown}: fix more pieces, so that one turn does")
    move = Move(shown, fits[0].perm, fits[0].twist)
    if is_identity(move):
        raise SpecError(path, f"move {shown} is a turn of the whole puzzle: with the fixed pieces held "
                              "it changes nothing")
    return move


def _distinct_moves(moves: list[Move]) -> tuple[Move, ...]:
    """The moves, each permutation once (the first name kept): a move the fixed pieces
    turn into another one adds nothing to a search."""
    kept: dict[tuple, Move] = {}
    for m in moves:
        kept.setdefault((m.perm, m.twist), m)
    return tuple(kept.values())


def from_tables(pieces: dict, moves: dict, **rest: Any) -> Rules:
    """The rules given as Python tables (the TOML file's, as dicts); ValueError naming the
    key at fault: "moves.Y: move Y: unknown position 'e' ..."."""
    spec = {"pieces": pieces, "moves": moves, **{k: v for k, v in rest.items() if v is not None}}
    try:
        return build(spec)
    except SpecError as e:
        where = ".".join(e.path)
        raise ValueError(f"{where}: {e.message}" if where else e.message) from None


__all__ = ["METRICS", "SpecError", "build", "build_at", "cycles_text", "from_tables", "key_lines", "line_of",
           "load", "loads", "parse_cycles", "read_text"]
