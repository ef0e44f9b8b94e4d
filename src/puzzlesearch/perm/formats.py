"""The file formats a puzzle is read from and written to, chosen by the file's extension.

==========  =========================================================  ==============
extension   format                                                     module
==========  =========================================================  ==============
``.toml``   puzzlesearch's own (positions by name, cycle notation)      `puzzlefile`
``.tws``    twsearch's definitions (ksolve's format)                    `ksolve`
``.def``    ksolve and ksolve+ definitions                              `ksolve`
``.json``   cubing.js's KPuzzle definitions                             `kpuzzle`
==========  =========================================================  ==============

A file of any other extension is read as TOML, but for twsearch's scramble files
(``.scr``: positions, no puzzle), refused as such. Every format becomes the same `Rules`, so
every `perm` command takes each. `convert` writes a puzzle in any of them; it reads what
it wrote back and refuses, in one line, a puzzle the format cannot hold (ksolve's and
cubing.js's formats make every power of each move a move, so a quarter-turn metric or
moves without their inverses cannot be written there), so that what it writes is always
the same puzzle.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from puzzlesearch.engine.paths import check_writable, replacing
from puzzlesearch.perm import kpuzzle, ksolve, puzzlefile
from puzzlesearch.perm.rules import Rules

READERS = {".toml": puzzlefile.loads, ".tws": ksolve.loads, ".def": ksolve.loads, ".json": kpuzzle.loads}
#: files of the same programs that hold no puzzle
NOT_PUZZLES = {".scr": "a twsearch scramble (positions to solve)"}
#: what `convert` writes, and the extension of each
FORMATS = {"toml": ".toml", "tws": ".tws", "json": ".json"}
_BARE = re.compile(r"[A-Za-z0-9_-]+")


def load(filename: str | Path, shown: str | None = None) -> Rules:
    """The puzzle a file describes, in the format its extension names (TOML for any
    other); ValueError "FILE:LINE: problem" in one line."""
    path = Path(filename)
    shown = shown or str(filename)
    if path.suffix.lower() in NOT_PUZZLES:
        raise ValueError(f"{shown}: {NOT_PUZZLES[path.suffix.lower()]}, not a puzzle definition")
    text = puzzlefile.read_text(path, shown)
    return READERS.get(path.suffix.lower(), puzzlefile.loads)(text, shown, path.stem)


def check_format(to: str) -> str:
    if to not in FORMATS:
        raise ValueError(f"--to {to!r}: the formats are {', '.join(FORMATS)}")
    return to


def text(rules: Rules, to: str) -> str:
    """The puzzle in format `to`; ValueError when that format cannot hold it."""
    check_format(to)
    if to == "toml":
        written = toml_text(rules)
    elif to == "tws":
        written = ksolve.dumps(rules, list(rules.base))
    else:
        written = kpuzzle.dumps(rules, list(rules.base))
    back = READERS[FORMATS[to]](written, f"(the {to} written)", rules.name)
    problem = difference(rules, back)
    if problem:
        raise ValueError(f"{rules.name} cannot be written as {to}: {problem}")
    return written


def difference(a: Rules, b: Rules) -> str:
    """How two puzzles differ as the searches see them ("" for the same): their sets, their
    moves (as permutations and twists, by name) and their solved state."""
    shape = [(len(s.positions), s.twists) for s in a.sets], [(len(s.positions), s.twists) for s in b.sets]
    if shape[0] != shape[1]:
        return f"its sets (positions, twists) {shape[0]} would become {shape[1]}"
    if a.solved != b.solved:
        return "its solved state would change"
    moves = {m.name: (m.perm, m.twist) for m in a.moves}, {m.name: (m.perm, m.twist) for m in b.moves}
    if moves[0] != moves[1]:
        lost = sorted(set(moves[0]) - set(moves[1])) or sorted(set(moves[1]) - set(moves[0]))
        changed = [m for m in moves[0] if m in moves[1] and moves[0][m] != moves[1][m]]
        if lost:
            return (f"its moves would be {' '.join(moves[1])} (every power of each; metric \"{a.metric}\" "
                    f"makes {' '.join(moves[0])})")
        return f"move {changed[0]} would change"
    return ""


def toml_text(rules: Rules) -> str:
    """The puzzle as puzzlesearch's TOML (`puzzlefile`): its sets, the moves it is built
    from, in cycle notation, and its metric."""
    out = [f"name = {_string(rules.name)}"]
    if rules.description:
        out.append(f"description = {_string(rules.description)}")
    if rules.source:
        out.append(f"source = {_string(rules.source)}")
    out.append(f"metric = {_string(rules.metric)}")
    if rules.fixed:
        out.append(f"fixed = [{', '.join(_string(p) for p in rules.fixed)}]")
    for s in rules.sets:
        out += ["", f"[pieces.{_key(s.name)}]", f"positions = [{', '.join(_string(p) for p in s.positions)}]"]
        if s.twists > 1:
            out.append(f"twists = {s.twists}")
        if s.colours:
            out.append(f"solved = [{', '.join(_string(c) for c in s.colours)}]")
    out += ["", "[moves]"]
    positions = rules.positions
    out += [f"{_key(m.name)} = {_string(puzzlefile.cycles_text(m, positions))}" for m in rules.base]
    return "\n".join(out) + "\n"


def _string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string


def _key(name: str) -> str:
    return name if _BARE.fullmatch(name) else _string(name)


def check_out(path: str | Path) -> Path:
    """ValueError (one line) unless --out `path` can be written: checked before the work."""
    return check_writable(path, "--out")


def save(written: str, path: str | Path) -> Path:
    """Write a converted puzzle to `path` whole (engine.paths.replacing)."""
    with replacing(path, "--out") as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(written)
    return Path(path)


__all__ = ["FORMATS", "READERS", "check_format", "check_out", "difference", "load", "save", "text",
           "toml_text"]
