"""Puzzles in cubing.js's KPuzzle JSON (the definitions of cubing.js and twsearch's
`.kpuzzle.json` samples).

The format, as cubing.js writes it today (older files give ``orbits`` as a table by name,
``startStateData`` for ``defaultPattern`` and ``orientation`` for ``orientationDelta``,
and are read as well)::

    {"name": "2x2x2",
     "orbits": [{"orbitName": "CORNERS", "numPieces": 8, "numOrientations": 3}],
     "defaultPattern": {"CORNERS": {"pieces": [0, 1, 2, 3, 4, 5, 6, 7],
                                    "orientation": [0, 0, 0, 0, 0, 0, 0, 0]}},
     "moves": {"U": {"CORNERS": {"permutation": [1, 2, 3, 0, 4, 5, 6, 7],
                                 "orientationDelta": [0, 0, 0, 0, 0, 0, 0, 0]}}}}

cubing.js applies a move as puzzlesearch does: slot i receives the piece from
``permutation[i]`` and adds ``orientationDelta[i]`` to its orientation (both indexed by
the slot the piece arrives at), so the numbers carry over as they are. Pieces are numbered
from 0; a number repeated in the default pattern makes identical pieces. Every power of a
move is a move (R, R2, R'), as cubing.js turns R2 and R'. ``derivedMoves`` (moves written
as algorithms of other moves) are refused in one line. ``orientationMod`` 1 in the default
pattern (the piece's orientation does not count) is read where it covers whole orbits of
the moves, as twsearch's ``?`` (`ksolve`); other moduli are refused.
"""

from __future__ import annotations

import json
import re
from typing import Any

from puzzlesearch.perm.ksolve import mixed_orbit, position, split_unoriented
from puzzlesearch.perm.puzzlefile import build_at, cycles_text
from puzzlesearch.perm.rules import Move, Rules

TOP_KEYS = ("name", "orbits", "orbitOrdering", "defaultPattern", "startStateData", "moves", "$schema")
REFUSED = ("derivedMoves", "experimentalDerivedMoves", "experimentalPuzzleDescription")
MAX_PIECES = 4096


class _Fault(Exception):
    """A mistake and the key whose line names it."""

    def __init__(self, key: str, message: str, after: str = "") -> None:
        super().__init__(message)
        self.key, self.message, self.after = key, message, after


def loads(text: str, shown: str, stem: str = "puzzle") -> Rules:
    """The puzzle a KPuzzle JSON text describes; ValueError "FILE:LINE: problem"."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{shown}:{e.lineno}: not valid JSON: {e.msg}") from None
    try:
        spec = _spec(data, stem)
    except _Fault as e:
        line = _line(text, e.key, e.after)
        raise ValueError(f"{shown}:{line}: {e.message}" if line else f"{shown}: {e.message}") from None
    lines = {("moves", m): _line(text, m, "moves") for m in spec["moves"]}
    lines.update({("pieces", o): _line(text, o, "orbits") for o in spec["pieces"]})
    return build_at(spec, {k: v for k, v in lines.items() if v}, shown)


def _line(text: str, key: str, after: str = "") -> int | None:
    """The line of the first `"key":` (after the first `"after":`), 1-based."""
    start = 0
    if after:
        found = re.search(rf'"{re.escape(after)}"\s*:', text)
        start = found.end() if found else 0
    # an orbit of today's files is named by its "orbitName" value rather than by a key
    patterns = [rf'"orbitName"\s*:\s*"{re.escape(key)}"'] if after == "orbits" else []
    patterns += [rf'"{re.escape(key)}"\s*:', rf'"{re.escape(key)}"']
    found = next((f for f in (re.compile(x).search(text, start) for x in patterns) if f), None)
    return text.count("\n", 0, found.start()) + 1 if found else None


def _spec(data: Any, stem: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise _Fault("", "a KPuzzle definition is a JSON object with orbits, defaultPattern and moves")
    for key in data:
        if key in REFUSED:
            raise _Fault(key, f"{key}: not supported by puzzlesearch")
        if key not in TOP_KEYS:
            raise _Fault(key, f"unknown key {key!r} in a KPuzzle definition (it takes {', '.join(TOP_KEYS)})")
    name = data.get("name", stem)
    if not isinstance(name, str):
        raise _Fault("name", "name must be a string")
    for key in ("orbits", "moves"):
        if key not in data:
            raise _Fault("", f"no {key}: a KPuzzle definition is a JSON object with orbits, defaultPattern "
                             "and moves")
    orbits = _orbits(data.get("orbits"))
    pattern_key = "defaultPattern" if "defaultPattern" in data else "startStateData"
    pattern = _table(data.get(pattern_key, {}), pattern_key)
    moves = _table(data.get("moves"), "moves")
    if not moves:
        raise _Fault("moves", "moves is empty: a puzzle needs at least one move")
    for orbit in pattern:
        if orbit not in orbits:
            raise _Fault(orbit, f"{pattern_key}: unknown orbit {orbit!r} (the orbits: {', '.join(orbits)})",
                         pattern_key)
    turns = {m: _move(m, _table(value, m, "moves"), orbits) for m, value in moves.items()}
    pieces: dict[str, Any] = {}
    positions: list[str] = []
    unoriented: list[bool] = []
    for orbit, (count, twists) in orbits.items():
        names = [position(orbit, i) for i in range(count)]
        seen = _table(pattern.get(orbit, {}), orbit, pattern_key)
        _known(seen, ("pieces", "orientation", "orientationMod"), orbit, pattern_key)
        solved = _numbers(seen.get("pieces", list(range(count))), count, count,
                          f"{pattern_key}.{orbit}.pieces", orbit, pattern_key)
        twist = _numbers(seen.get("orientation", [0] * count), count, twists,
                         f"{pattern_key}.{orbit}.orientation", orbit, pattern_key)
        if any(twist):
            raise _Fault(orbit, f"{pattern_key}.{orbit}: a solved orientation other than 0: "
                                "not supported by puzzlesearch", pattern_key)
        wild = _wild(seen, orbit, count, twists, [turn[orbit][0] for turn in turns.values()], pattern_key)
        labels = [str(p) for p in solved] if solved != list(range(count)) else None
        pieces.update(split_unoriented(orbit, names, twists, labels, wild))
        positions += names
        unoriented += [i in wild for i in range(count)]
    cycles = {}
    for move_name, turn in turns.items():
        perm, twist = [], []
        for orbit in orbits:
            p, o = turn[orbit]
            offset = len(perm)
            perm += [offset + q for q in p]
            twist += o
        twist = [0 if loose else t for t, loose in zip(twist, unoriented, strict=True)]
        written = cycles_text(Move(move_name, tuple(perm), tuple(twist)), positions)
        cycles[move_name] = written or f"({positions[0]})"
    return {"name": name, "metric": "powers", "pieces": pieces, "moves": cycles}


def _orbits(value: Any) -> dict[str, tuple[int, int]]:
    """Each orbit's pieces and orientations, from the list (cubing.js today) or the table
    by name (older files)."""
    if isinstance(value, list):
        rows = []
        for row in value:
            if not isinstance(row, dict) or not isinstance(row.get("orbitName"), str):
                raise _Fault("orbits", "orbits: each is {\"orbitName\": ..., \"numPieces\": ..., "
                                       "\"numOrientations\": ...}")
            rows.append((row["orbitName"], row))
    elif isinstance(value, dict):
        rows = list(value.items())
    else:
        raise _Fault("orbits" if value is not None else "", "orbits: a list of orbits (orbitName, numPieces, "
                                                             "numOrientations) is needed")
    orbits: dict[str, tuple[int, int]] = {}
    for name, row in rows:
        row = _table(row, name, "orbits")
        for key in row:
            if key in REFUSED:
                raise _Fault(key, f"{key}: not supported by puzzlesearch")
        count, twists = row.get("numPieces"), row.get("numOrientations")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (count, twists)) \
                or not 1 <= count <= MAX_PIECES or twists < 1:
            raise _Fault(name, f"orbit {name}: numPieces (1 to {MAX_PIECES:,}) and numOrientations (at "
                               f"least 1) are whole numbers, got {count!r} and {twists!r}", "orbits")
        if name in orbits:
            raise _Fault(name, f"orbit {name} is given twice", "orbits")
        orbits[name] = (count, twists)
    if not orbits:
        raise _Fault("orbits", "orbits is empty: a puzzle needs its pieces")
    return orbits


def _move(name: str, value: dict, orbits: dict[str, tuple[int, int]]
          ) -> dict[str, tuple[list[int], list[int]]]:
    """A move's permutation and orientation deltas in each orbit."""
    for orbit in value:
        if orbit not in orbits:
            raise _Fault(name, f"move {name}: unknown orbit {orbit!r} (the orbits: {', '.join(orbits)})",
                         "moves")
    turn = {}
    for orbit, (count, twists) in orbits.items():
        entry = _table(value.get(orbit, {}), name, "moves")
        _known(entry, ("permutation", "orientationDelta", "orientation"), name, "moves")
        where = f"move {name}: {orbit}"
        p = _numbers(entry.get("permutation", list(range(count))), count, count, f"{where} permutation", name,
                     "moves")
        if len(set(p)) != count:
            twice = next(q for q in p if p.count(q) > 1)
            raise _Fault(name, f"{where}: {p} is not a permutation of 0..{count - 1} ({twice} twice)",
                         "moves")
        delta = entry.get("orientationDelta", entry.get("orientation", [0] * count))
        turn[orbit] = (p, _numbers(delta, count, twists, f"{where} orientationDelta", name, "moves"))
    return turn


def _wild(seen: dict, orbit: str, count: int, twists: int, perms: list[list[int]],
          pattern_key: str) -> set[int]:
    """The slots whose orientation does not count: ``orientationMod`` 1 (0 or the orbit's
    numOrientations count it whole); other moduli are refused, and so is a slot of
    orientationMod 1 that the moves join to one whose orientation counts."""
    if "orientationMod" not in seen:
        return set()
    what = f"{pattern_key}.{orbit}.orientationMod"
    mods = _numbers(seen["orientationMod"], count, twists + 1, what, orbit, pattern_key)
    odd = next((m for m in mods if m not in (0, 1, twists)), None)
    if odd is not None:
        raise _Fault(orbit, f"{what}: {odd} (an orientation known mod {odd} of {twists}): not supported by "
                            "puzzlesearch", pattern_key)
    wild = {i for i, m in enumerate(mods) if m == 1 and twists > 1}
    clash = mixed_orbit(count, wild, perms)
    if clash:
        raise _Fault(orbit, f"{what}: the moves take a piece whose orientation does not count "
                            f"({position(orbit, clash[0])}) to where one whose orientation counts is "
                            f"({position(orbit, clash[1])}): not supported by puzzlesearch", pattern_key)
    return wild


def _numbers(value: Any, count: int, bound: int, what: str, key: str, after: str) -> list[int]:
    if not isinstance(value, list) or len(value) != count or \
            not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise _Fault(key, f"{what}: a list of {count} whole numbers is needed", after)
    bad = next((v for v in value if not 0 <= v < bound), None)
    if bad is not None:
        raise _Fault(key, f"{what}: {bad} is out of range (0..{bound - 1})", after)
    return value


def _table(value: Any, key: str, after: str = "") -> dict:
    if not isinstance(value, dict):
        raise _Fault(key, f"{key} must be a JSON object, got {type(value).__name__}", after)
    return value


def _known(table: dict, keys: tuple[str, ...], key: str, after: str) -> None:
    for k in table:
        if k in REFUSED:
            raise _Fault(k, f"{k}: not supported by puzzlesearch", after)
        if k not in keys:
            raise _Fault(key, f"{key}: unknown key {k!r} (it takes {', '.join(keys)})", after)


def dumps(rules: Rules, moves: list[Move]) -> str:
    """A KPuzzle definition of the puzzle with these moves (whose powers cubing.js makes)."""
    orbits = [{"orbitName": s.name, "numPieces": len(s.positions), "numOrientations": s.twists}
              for s in rules.sets]
    pattern = {}
    for s in rules.sets:
        m = len(s.positions)
        pieces = _colour_numbers(s.colours) if s.colours else list(range(m))
        pattern[s.name] = {"pieces": pieces, "orientation": [0] * m}
    table = {}
    for move in moves:
        entry, offset = {}, 0
        for s in rules.sets:
            m = len(s.positions)
            entry[s.name] = {"permutation": [p - offset for p in move.perm[offset:offset + m]],
                             "orientationDelta": list(move.twist[offset:offset + m])}
            offset += m
        table[move.name] = entry
    text = json.dumps({"name": rules.name, "orbits": orbits, "defaultPattern": pattern, "moves": table},
                      indent=2, ensure_ascii=False)
    # a list of numbers on one line, as cubing.js's files have them
    return re.sub(r"\[\s*([-\d,\s]*?)\s*\]",
                  lambda m: "[" + ", ".join(v.strip() for v in m[1].split(",")) + "]", text) + "\n"


def _colour_numbers(colours: tuple[str, ...]) -> list[int]:
    """The numbers of identical pieces: the colours themselves when they are numbers
    0..n-1, else 0, 1, ... in order of first appearance."""
    if all(c.isdigit() and int(c) < len(colours) for c in colours):
        return [int(c) for c in colours]
    order = list(dict.fromkeys(colours))
    return [order.index(c) for c in colours]


__all__ = ["dumps", "loads"]
