"""Puzzles in the definition format of ksolve (Kåre Krig, 2007), ksolve+ (Michael
Gottlieb, 2013) and twsearch (Tomas Rokicki, 2019): `.def` and `.tws` files.

The format, as twsearch's samples and ksolve+'s readme write it::

    Name 2x2x2                # the puzzle's name (the rest of the line)
    Set CORNERS 8 3           # a set: its name, its pieces, their orientations
    Solved                    # per set: its name, a permutation line, optionally an
    CORNERS                   #   orientation line; a set left out is 1 2 .. n, all 0;
    1 2 3 4 5 6 7 8           #   a number repeated makes identical pieces
    End
    Move R                    # per set: its name, a permutation, optionally orientations
    CORNERS
    2 5 1 4 3 6 7 8
    1 2 2 0 1 0 0 0
    End

``#`` starts a comment, to the end of its line. Every power of a move is a move (R, R2,
R'), as ksolve makes them. The other commands of ksolve+ and twsearch (Ignore, Block,
ForbiddenPairs, Illegal, MoveAlias, MoveSequence, ...) change what a search may do in ways
puzzlesearch has no words for, and are refused, in one line naming the command and its line.

The permutations are *passive*, as puzzlesearch's own moves are: slot i of the new state
holds what was at slot p[i]. The orientations differ (twsearch's ksolveformat notes): a
state's are indexed by slot, a move's by the piece that moves, that is by the slot it
leaves. So a move's orientation line o gives the twist o[p[i]] to the piece arriving at i,
which is puzzlesearch's ``twist[i]``.

Position i of set S is called ``S.i`` (numbered from 1, as the file numbers them), and an
identical piece by its number in the Solved block.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from puzzlesearch.perm.puzzlefile import build_at, cycles_text
from puzzlesearch.perm.rules import NAME, Move, Rules

#: commands of ksolve+ and twsearch that puzzlesearch does not take
UNSUPPORTED = ("Ignore", "Block", "ForbiddenPairs", "ForbiddenGroups", "Illegal", "MoveAlias", "MoveSequence",
               "Multiplicators", "ParallelMoves", "MoveLimits", "Moves", "Scramble", "ScrambleAlg",
               "RandomScramble", "Symmetry", "Rotation", "SolvedAlias")
MAX_PIECES = 4096
#: a Solved orientation written ``?``: the piece's orientation does not count (twsearch's
#: orientation wildcard); read as UNKNOWN
WILD = "?"
UNKNOWN = -1

Token = tuple[str, int]  # a word and its line


def position(set_name: str, i: int) -> str:
    """What puzzlesearch calls slot i (0-based) of a set."""
    return f"{set_name}.{i + 1}"


def loads(text: str, shown: str, stem: str = "puzzle") -> Rules:
    """The puzzle a ksolve or twsearch definition describes; ValueError "FILE:LINE: problem"."""
    spec, lines = parse(text, shown, stem)
    return build_at(spec, lines, shown)


def parse(text: str, shown: str, stem: str = "puzzle") -> tuple[dict[str, Any], dict[tuple[str, ...], int]]:
    """The puzzle's tables (as `puzzlefile.build` takes them) and the line of each."""
    lines = [(n, line.split("#", 1)[0].split()) for n, line in enumerate(text.splitlines(), start=1)]
    lines = [(n, words) for n, words in lines if words]
    name, sets, solved, moves = stem, {}, None, {}
    where: dict[tuple[str, ...], int] = {}

    def fail(line: int, message: str) -> None:
        raise ValueError(f"{shown}:{line}: {message}")

    i = 0
    while i < len(lines):
        n, words = lines[i]
        command = words[0]
        i += 1
        if command == "Name":
            name = " ".join(words[1:]) or stem
        elif command == "Set":
            if len(words) != 4 or not all(w.isdigit() for w in words[2:]):
                fail(n, "Set takes a name, the number of pieces and their orientations: Set CORNERS 8 3")
            set_name, count, twists = words[1], int(words[2]), int(words[3])
            if not NAME.fullmatch(set_name) or set_name in ("End", "Move", "Solved"):
                fail(n, f"Set: {set_name!r} cannot name a set")
            if set_name in sets:
                fail(n, f"Set {set_name} is declared twice")
            if not 1 <= count <= MAX_PIECES or twists < 1:
                fail(n, f"Set {set_name}: 1 to {MAX_PIECES:,} pieces and at least 1 orientation, "
                        f"got {count} and {twists}")
            if solved is not None or moves:
                fail(n, f"Set {set_name} comes after the Solved or Move blocks; declare the sets first")
            sets[set_name] = (count, twists)
            where[("pieces", set_name)] = n
        elif command in ("Solved", "Move"):
            if len(words) != (2 if command == "Move" else 1):
                fail(n, "Move takes the move's name: Move R" if command == "Move" else "Solved takes no name")
            body, i = _block(lines, i, n, " ".join(words), shown)
            if command == "Solved":
                if solved is not None:
                    fail(n, f"a second Solved block (the first at line {where[('solved',)]})")
                solved = _orbits(body, sets, "Solved", n, shown, solved=True)
                where[("solved",)] = n
            else:
                move_name = words[1]
                if move_name in moves:
                    first = where[("moves", move_name)]
                    fail(n, f"Move {move_name} is defined twice (first at line {first})")
                moves[move_name] = _orbits(body, sets, f"Move {move_name}", n, shown, solved=False)
                where[("moves", move_name)] = n
        elif command in UNSUPPORTED:
            fail(n, f"{command}: not supported by puzzlesearch")
        elif command == "End":
            fail(n, "End without a Solved or Move block to close")
        else:
            fail(n, f"unknown command {command!r} (a definition has Name, Set, Solved and Move blocks)"
                    f"{_kind(words)}")
    if not sets:
        raise ValueError(f"{shown}: no Set: a definition declares its sets first, e.g. Set CORNERS 8 3")
    if not moves:
        raise ValueError(f"{shown}: no Move block: a puzzle needs its moves")
    return _spec(name, sets, solved or {}, moves, where, shown), where


def _kind(words: list[str]) -> str:
    """What a file of another kind under the extension looks like, as a hint."""
    if "=" in words[:2] or words[0].endswith("=") or re.fullmatch(r"\[\[?[\w.\"'-]+\]\]?", words[0]):
        return ": this looks like TOML (puzzlesearch's own files are read from a .toml file)"
    if words[0].startswith(("{", "[")):
        return ": this looks like JSON (a KPuzzle definition is read from a .json file)"
    return ""


def _block(lines: list[tuple[int, list[str]]], i: int, start: int, title: str,
           shown: str) -> tuple[list[Token], int]:
    """The words of a block up to its End, and the index of the line after it."""
    body: list[Token] = []
    while i < len(lines):
        n, words = lines[i]
        i += 1
        if words[0] == "End":
            if len(words) > 1:
                raise ValueError(f"{shown}:{n}: {title}: End stands alone on its line")
            return body, i
        if words[0] in ("Move", "Solved", "Set") or words[0] in UNSUPPORTED:
            raise ValueError(f"{shown}:{n}: {title} (line {start}) has no End before {words[0]}")
        body += [(w, n) for w in words]
    raise ValueError(f"{shown}:{start}: {title} has no End: the file ends inside it")


def _orbits(body: list[Token], sets: dict[str, tuple[int, int]], title: str, start: int, shown: str, *,
            solved: bool) -> dict[str, tuple[list[int], list[int]]]:
    """Each set's permutation (0-based) and orientations in a Solved or Move block."""
    found: dict[str, tuple[list[int], list[int]]] = {}
    words: Iterator[Token] = iter(body)
    pending = next(words, None)
    while pending is not None:
        set_name, line = pending
        if set_name not in sets:
            known = ", ".join(sets) or "none declared"
            raise ValueError(f"{shown}:{line}: {title}: unknown set {set_name!r} (the sets: {known})")
        if set_name in found:
            raise ValueError(f"{shown}:{line}: {title}: {set_name} is given twice")
        count, twists = sets[set_name]
        perm, pending = _numbers(words, count, f"{title}: {set_name}", line, shown)
        twist = [0] * count
        if pending is not None and (pending[0].lstrip("-").isdigit() or pending[0] == WILD):
            twist, pending = _numbers(words, count, f"{title}: {set_name}'s orientations", pending[1], shown,
                                      first=pending, wild=solved)
        _check(perm, twist, count, twists, f"{title}: {set_name}", line, shown, solved)
        found[set_name] = ([p - 1 for p in perm], twist)
    if not found and not solved:
        raise ValueError(f"{shown}:{start}: {title} is empty: give a set, its permutation and orientations")
    return found


def _numbers(words: Iterator[Token], count: int, what: str, line: int, shown: str,
             first: Token | None = None, wild: bool = False) -> tuple[list[int], Token | None]:
    """`count` whole numbers, and the word after them (None at the block's end); with
    `wild`, ``?`` may stand for a number and is read as `UNKNOWN`."""
    values = []
    word = first if first is not None else next(words, None)
    while len(values) < count:
        if word is not None and wild and word[0] == WILD:
            values.append(UNKNOWN)
            word = next(words, None)
            continue
        if word is None or not word[0].lstrip("-").isdigit():
            got = f"found {word[0]!r}" if word is not None else "the block ends"
            raise ValueError(f"{shown}:{word[1] if word else line}: {what}: expected {count} numbers, "
                             f"{got} after {len(values)}")
        values.append(int(word[0]))
        word = next(words, None)
    return values, word


def _check(perm: list[int], twist: list[int], count: int, twists: int, what: str, line: int, shown: str,
           solved: bool) -> None:
    bad = next((p for p in perm if not 1 <= p <= count), None)
    if bad is not None:
        raise ValueError(f"{shown}:{line}: {what}: {bad} is not a piece (1..{count})")
    if not solved and len(set(perm)) != count:
        twice = next(p for p in perm if perm.count(p) > 1)
        missing = next(p for p in range(1, count + 1) if p not in perm)
        raise ValueError(f"{shown}:{line}: {what}: not a permutation of 1..{count} ({twice} twice, "
                         f"{missing} missing)")
    bad = next((t for t in twist if not 0 <= t < twists and not (solved and t == UNKNOWN)), None)
    if bad is not None:
        raise ValueError(f"{shown}:{line}: {what}: orientation {bad} is out of range (0..{twists - 1})")
    if solved and any(t not in (0, UNKNOWN) for t in twist):
        raise ValueError(f"{shown}:{line}: {what}: a solved orientation other than 0: "
                         "not supported by puzzlesearch")


def mixed_orbit(count: int, wild: set[int], perms: Iterable[Sequence[int]]) -> tuple[int, int] | None:
    """A slot of `wild` and one not in it that the moves (`perms`, each over the set's
    `count` slots) join in one orbit, or None when `wild` is a union of whole orbits."""
    orbit = list(range(count))  # union-find over the slots a move sends one to another

    def root(i: int) -> int:
        while orbit[i] != i:
            orbit[i] = orbit[orbit[i]]
            i = orbit[i]
        return i

    for perm in perms:
        for dst, src in enumerate(perm):
            orbit[root(dst)] = root(src)
    first: dict[int, int] = {}  # an orbit's first slot
    for i in range(count):
        j = first.setdefault(root(i), i)
        if (i in wild) != (j in wild):
            return (i, j) if i in wild else (j, i)
    return None


def split_unoriented(set_name: str, names: list[str], twists: int, labels: list[str] | None,
                     wild: set[int]) -> dict[str, dict[str, Any]]:
    """A set's tables for `puzzlefile.build`: the pieces whose orientation does not count
    (the slots `wild`, whole orbits: `mixed_orbit`) become a set of their own without
    twists, so that no move mixes the two; `labels` are the solved pieces' (identical pieces)."""
    oriented = [i for i in range(len(names)) if i not in wild]
    loose = f"{set_name}-unoriented" if oriented else set_name
    parts: dict[str, dict[str, Any]] = {}
    for part, part_twists, keep in ((set_name, twists, oriented), (loose, 1, sorted(wild))):
        if keep:
            parts[part] = {"positions": [names[i] for i in keep], "twists": part_twists}
            if labels is not None:
                parts[part]["solved"] = [labels[i] for i in keep]
    return parts


def _unoriented(set_name: str, count: int, solved_perm: list[int], solved_twist: list[int], moves: dict,
                line: int, shown: str) -> set[int]:
    """The slots of a set whose solved orientation is ``?``; ValueError unless they are whole
    orbits of the moves (puzzlesearch gives every piece of a set the same orientations) and
    identical pieces agree on it (as twsearch requires)."""
    wild = {i for i in range(count) if solved_twist[i] == UNKNOWN}
    if not wild:
        return wild
    for piece in set(solved_perm):
        marks = {i in wild for i in range(count) if solved_perm[i] == piece}
        if len(marks) > 1:
            raise ValueError(f"{shown}:{line}: Solved: {set_name}: piece {piece + 1} is written with and "
                             f"without a ? orientation (identical pieces agree on it)")
    clash = mixed_orbit(count, wild, (orbits.get(set_name, (range(count),))[0] for orbits in moves.values()))
    if clash:
        w, o = (position(set_name, i) for i in clash)
        raise ValueError(f"{shown}:{line}: Solved: {set_name}: the moves take a piece of ? orientation ({w}) "
                         f"to where an oriented one is ({o}): not supported by puzzlesearch")
    return wild


def _spec(name: str, sets: dict[str, tuple[int, int]], solved: dict, moves: dict,
          where: dict[tuple[str, ...], int], shown: str) -> dict[str, Any]:
    pieces: dict[str, Any] = {}
    positions: list[str] = []
    unoriented: set[str] = set()
    for set_name, (count, twists) in sets.items():
        names = [position(set_name, i) for i in range(count)]
        perm, solved_twist = solved.get(set_name, (list(range(count)), [0] * count))
        wild = _unoriented(set_name, count, perm, solved_twist, moves, where[("solved",)] if solved else 0,
                           shown) if twists > 1 else set()
        labels = [str(p + 1) for p in perm] if perm != list(range(count)) else None
        for part, table in split_unoriented(set_name, names, twists, labels, wild).items():
            if "solved" in table:
                where[("pieces", part, "solved")] = where[("solved",)]
            where.setdefault(("pieces", part), where[("pieces", set_name)])
            pieces[part] = table
        positions += names
        unoriented |= {names[i] for i in wild}
    table = {}
    for move_name, orbits in moves.items():
        perm, twist = [], []
        for set_name, (count, _) in sets.items():
            p, o = orbits.get(set_name, (list(range(count)), [0] * count))
            offset = len(perm)
            perm += [offset + q for q in p]
            twist += [o[q] for q in p]  # a move's orientation goes with the piece: the slot it leaves
        twist = [0 if positions[i] in unoriented else t for i, t in enumerate(twist)]
        # the identity as a 1-cycle, so that `build` says the move changes nothing
        written = cycles_text(Move(move_name, tuple(perm), tuple(twist)), positions)
        table[move_name] = written or f"({positions[0]})"
    return {"name": name, "metric": "powers", "pieces": pieces, "moves": table}


def dumps(rules: Rules, moves: list[Move]) -> str:
    """A ksolve/twsearch definition of the puzzle with these moves (whose powers it makes)."""
    out = [f"# {line}" for line in (rules.description, rules.source) if line]  # kept for readers only
    out += [f"Name {rules.name}", ""]
    for s in rules.sets:
        out.append(f"Set {s.name} {len(s.positions)} {s.twists}")
    out += ["", "Solved"]
    for s in rules.sets:
        numbers = _colour_numbers(s.colours) if s.colours else list(range(1, len(s.positions) + 1))
        out += [s.name, " ".join(map(str, numbers))]
    out += ["End", ""]
    for move in moves:
        out.append(f"Move {move.name}")
        offset = 0
        for s in rules.sets:
            m = len(s.positions)
            perm = [p - offset for p in move.perm[offset:offset + m]]
            twist = list(move.twist[offset:offset + m])
            if perm != list(range(m)) or any(twist):
                # the orientation of the piece leaving slot j is the twist where it arrives
                goes = [0] * m
                for dst, src in enumerate(perm):
                    goes[src] = dst
                out += [s.name, " ".join(str(p + 1) for p in perm),
                        " ".join(str(twist[goes[j]]) for j in range(m))]
            offset += m
        out += ["End", ""]
    return "\n".join(out)


def _colour_numbers(colours: tuple[str, ...]) -> list[int]:
    """The numbers a Solved line gives identical pieces: the colours themselves when they
    are the numbers 1..n, else 1, 2, ... in order of first appearance."""
    if all(c.isdigit() and 1 <= int(c) <= len(colours) for c in colours):
        return [int(c) for c in colours]
    order = list(dict.fromkeys(colours))
    return [order.index(c) + 1 for c in colours]


__all__ = ["UNSUPPORTED", "dumps", "loads", "mixed_orbit", "parse", "position", "split_unoriented"]
