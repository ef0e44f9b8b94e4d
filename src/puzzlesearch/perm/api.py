"""Permutation puzzles described by their users: the public API (re-exported by
`puzzlesearch.perm`).

A puzzle is a few sets of named positions and moves in cycle notation, in a TOML file or
in Python (the file's format: `puzzlefile`). It answers how many states it has and why not
more (`Puzzle.info`, Schreier–Sims), every distance from the solved puzzle with God's
number (`Puzzle.god`, the breadth-first engine on all cores), and a shortest solution of
any state (`Puzzle.solve`, bidirectional search, or a walk down the table of distances a
finished `god` left in its checkpoint):

    >>> from puzzlesearch.perm import Puzzle
    >>> demo = Puzzle(pieces={"p": ["a", "b", "c", "d"]}, moves={"X": "(a b c)", "Y": "(c d)"})
    >>> demo.info().states
    24
    >>> demo.god().histogram
    (1, 3, 4, 6, 6, 3, 1)
    >>> demo.solve("d c b a").sequence
    ('Y', "X'", 'Y', "X'")
    >>> cube = Puzzle.example("cube2-htm")
    >>> cube.solve(scramble="R U R' F2").sequence
    ('F2', 'R', "U'", "R'")
    >>> Puzzle.example("cube3").info().states
    43252003274489856000

A state the moves cannot reach is answered without a search, with the reason:

    >>> cube.solve("ufr+1 ufl ubl ubr dfr dfl dbl dbr").reason
    'the twists of the corners add up to 1 (mod 3); every move keeps that sum at 0'

Mistakes in a description are refused in one line naming the key (in a file: the file
and the line):

    >>> Puzzle(pieces={"p": ["a", "b"]}, moves={"X": "(a e)"})
    Traceback (most recent call last):
    ValueError: moves.X: move X: unknown position 'e' (the positions are a, b)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from puzzlesearch.engine import figures
from puzzlesearch.engine.failures import CheckFailed
from puzzlesearch.engine.figures import check_plot
from puzzlesearch.engine.layers_common import memory_needed_for
from puzzlesearch.engine.options import RunOptions, checked
from puzzlesearch.engine.params import digits_text, file_name, plural, text, text_or_none, whole
from puzzlesearch.engine.params import shown as shown_value
from puzzlesearch.engine.paths import show as shown
from puzzlesearch.engine.progress import Meter
from puzzlesearch.engine.store import NotSaved, ResultsStore, canonical_json, saving
from puzzlesearch.perm import bidir, formats, group, pictures, puzzlefile
from puzzlesearch.perm.fullbfs import (
    MAX_SHOW,
    Census,
    Table,
    census,
    census_memory,
    check_show,
    group_chain,
    indexed,
    table,
    walk,
)
from puzzlesearch.perm.layout import Layout, layout
from puzzlesearch.perm.rules import Rules, State, parse_moves, parse_state, play, state_text

STORE_GROUP = "perm group"
#: the states the bidirectional search of `solve` stores at most unless told (about 1 GiB
#: of one-word states with their depths, and minutes of work)
MAX_SOLVE_STATES = 100_000_000


@dataclass(frozen=True)
class Info:
    """What a puzzle is: its size and why it is not larger, without searching it.

    Attributes:
        puzzle: The puzzle's name.
        description: Its description, from its file.
        source: Where the puzzle comes from, from its file.
        pieces: Each set of positions in words: its positions, twists and colours.
        moves: The moves a search makes, by name.
        metric: What one move counts as (the metric God's number is in).
        solved: The solved state, one token a position.
        states: The states reachable from the solved puzzle (exact).
        group_order: The elements of the group the moves generate (Schreier–Sims).
        arrangements: Every placement of the pieces on their sets' positions, in
            every twist.
        every_arrangement: Whether every arrangement is reachable (states ==
            arrangements).
        constraints: Why the states are fewer: each reason with its factor
            ("... (x 3)").
        counted_by: How `states` was counted.
        indexed: The states a full search (`Puzzle.god`) indexes.
        memory: The bytes that search needs: its bits and its tables.
        seconds: The time the count took.
        tables: The bytes of its tables alone: the move tables of the pieces'
            coordinates, or the rows of the stabiliser chain that ranks the group's
            elements (``index``).
        index: What that search indexes: "pieces" (the arrangements the pieces'
            invariants allow, by their coordinates) or "group" (the elements of the
            group the moves generate, one a state, ranked through a stabiliser chain).
    """

    puzzle: str
    description: str
    source: str
    pieces: tuple[str, ...]
    moves: tuple[str, ...]
    metric: str
    solved: str
    states: int
    group_order: int
    arrangements: int
    every_arrangement: bool
    constraints: tuple[str, ...]
    counted_by: str
    indexed: int
    memory: int
    seconds: float
    tables: int = 0
    index: str = "pieces"


@dataclass(frozen=True)
class Solution:
    """A shortest solution of a state.

    Attributes:
        puzzle: The puzzle's name.
        start: The state solved, one token a position.
        moves: The fewest moves (-1 when the state cannot be reached).
        sequence: The moves, by name.
        path: The state after each move.
        reason: Why the state cannot be reached ("" when it can).
        method: How it was found: "table" (walked down the distances of a finished
            census, given as the checkpoint), "bidirectional" (searched), or "" (no
            search: an unreachable state).
        note: Why a checkpoint given was not used (it holds no census yet), or "".
        searched: The states the bidirectional search stored (0 for a table).
        seconds: The time the answer took.
    """

    puzzle: str
    start: str
    moves: int
    sequence: tuple[str, ...]
    path: tuple[str, ...]
    reason: str
    method: str
    note: str
    searched: int
    seconds: float


@dataclass(frozen=True)
class Example:
    """A puzzle file shipped with the package.

    Attributes:
        name: What `Puzzle.example` takes ("cube2-htm").
        file: The file's path in the installed package.
        title: The puzzle's name, from the file.
        description: Its description, from the file.
    """

    name: str
    file: str
    title: str
    description: str


def examples() -> tuple[Example, ...]:
    """The example files, by name."""
    folder = resources.files("puzzlesearch.perm") / "examples"
    found = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            rules = puzzlefile.load(str(entry), entry.name)
            found.append(Example(entry.name.removesuffix(".toml"), str(entry), rules.name, rules.description))
    return tuple(found)


def find(file: str | Path) -> Path:
    """The puzzle file a name means: the file itself, or the example of that name.

    Args:
        file: A file's path, or an example's name (see `examples`).

    Raises:
        ValueError: No such file, nor an example of that name.
    """
    file = file_name(file, "the puzzle file")
    if not str(file).strip():
        raise ValueError("the puzzle file's name is empty: give a file or an example's name (perm list)")
    path = Path(file)
    if path.exists():
        return path
    name = str(file).removesuffix(".toml")
    example = resources.files("puzzlesearch.perm") / "examples" / f"{name}.toml"
    if "/" not in name and example.is_file():
        return Path(str(example))
    raise ValueError(f"{file}: no such file, nor an example of that name (puzzlesearch perm list)")


class Puzzle:
    """A permutation puzzle: sets of positions, and moves in cycle notation.

    ``Puzzle(pieces={"p": ["a", "b", "c"]}, moves={"X": "(a b c)"})`` takes the tables
    of a puzzle file as Python dicts (the [Puzzles described in a file](../perm.md)
    page describes them).

    Args:
        pieces: Each set's name and its positions: a list of names, a count, or a
            table with ``positions``, ``twists`` and ``solved`` colours.
        moves: Each move's name and its cycles, or a table with ``cycles`` and
            ``metric``.
        name: The puzzle's name.
        metric: What one move counts as (None: the file format's default).
        fixed: Positions whose pieces stay in place.
        rotations: Moves that turn the whole puzzle, each with its cycles: states
            they relate count as one.
        description: A line that says what the puzzle is.
        source: Where the puzzle comes from.
    """

    def __init__(self, pieces: dict[str, Any], moves: dict[str, Any], *, name: str = "puzzle",
                 metric: str | None = None, fixed: list[str] | None = None,
                 rotations: dict[str, str] | None = None, description: str | None = None,
                 source: str | None = None) -> None:
        name, metric = text(name, "name"), text_or_none(metric, "metric")
        pieces = {k: v if isinstance(v, dict) else {"positions": v} for k, v in pieces.items()} \
            if isinstance(pieces, dict) else pieces
        self.rules = puzzlefile.from_tables(pieces, moves, name=name, metric=metric, fixed=fixed,
                                            rotations=rotations, description=description, source=source)

    @classmethod
    def from_rules(cls, rules: Rules) -> Puzzle:
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules (see puzzlefile.load), got {shown_value(rules)}")
        puzzle = cls.__new__(cls)
        puzzle.rules = rules
        return puzzle

    @classmethod
    def from_file(cls, path: str | Path) -> Puzzle:
        """The puzzle a file describes, or the example of that name.

        Args:
            path: The file, in the format its extension names (TOML, ksolve's .tws and
                .def, KPuzzle .json), or an example's name.

        Raises:
            ValueError: "FILE:LINE: problem", in one line.
        """
        return cls.from_rules(formats.load(find(path), str(path)))

    @classmethod
    def example(cls, name: str) -> Puzzle:
        """An example shipped with the package.

        Args:
            name: The example's name (see `examples`), e.g. "cube2-htm".
        """
        name = text(name, "the example's name")
        found = {e.name: e for e in examples()}
        if name not in found:
            raise ValueError(f"no example is called {name!r}; the examples: {', '.join(found)}")
        return cls.from_rules(puzzlefile.load(found[name].file, f"{name}.toml"))

    def __repr__(self) -> str:
        return f"<Puzzle {self.rules.name!r}: {self.rules.size} positions, {len(self.rules.moves)} moves>"

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def moves(self) -> tuple[str, ...]:
        """The moves a search makes, by name."""
        return tuple(m.name for m in self.rules.moves)

    @property
    def solved(self) -> str:
        """The solved state, one token a position, in the file's order of positions."""
        return state_text(self.rules, self.rules.solved)

    def play(self, moves: str, state: str | None = None) -> str:
        """The state after some moves.

        Args:
            moves: A scramble such as "R U R' F2".
            state: The state to start from, one token a position (None: solved).
        """
        moves, state = text(moves, "moves (a scramble)"), text_or_none(state, "state")
        start = self.rules.solved if state is None else parse_state(self.rules, state)
        return state_text(self.rules, play(self.rules, start, parse_moves(self.rules, moves)))

    def convert(self, to: str, out: str | Path | None = None) -> str:
        """The puzzle written in another format, read back and checked to be the same
        puzzle.

        Args:
            to: The format: "toml", "tws" (twsearch and ksolve) or "json" (KPuzzle).
            out: A file to write it to as well, whole (None: none).

        Raises:
            ValueError: That format cannot hold the puzzle (one line).
        """
        check_convert(to, out)
        written = formats.text(self.rules, to)
        if out is not None:
            formats.save(written, out)
        return written

    def info(self, *, run: RunOptions = RunOptions()) -> Info:  # noqa: B008 (frozen)
        """The exact number of states (Schreier–Sims), why not every arrangement, and the
        memory a full search would need. Nothing is searched.

        Args:
            run: ``run.memory`` caps the count's memory; ``run.store`` keeps whether the
                invariants describe the group, for `solve`.
        """
        rules, run = self.rules, checked(run)
        t0 = time.perf_counter()
        _read_store(rules, run)
        found = group.count(rules, run.memory)
        _remember(rules, found, run)
        lay = layout(rules)
        size = indexed(rules, lay)
        pieces = tuple(f"{s.name}: {len(s.positions)} {plural(len(s.positions), 'position')}"
                       + (f", {s.twists} twists" if s.twists > 1 else "")
                       + (f", {len(set(s.colours))} {plural(len(set(s.colours)), 'colour')}"
                          if s.colours else "") for s in rules.sets)
        constraints = tuple(f"{text} (x {_factor(f)})" for text, f in found.constraints)
        return Info(rules.name, rules.description, rules.source, pieces, self.moves, rules.metric,
                    self.solved, found.states, found.group_order, found.arrangements,
                    found.states == found.arrangements, constraints, found.counted_by, size,
                    census_memory(rules, lay), time.perf_counter() - t0,
                    census_memory(rules, lay) - memory_needed_for(size),
                    "group" if group_chain(rules) is not None else "pieces")

    def god(self, show: int = 10, *, run: RunOptions = RunOptions()) -> Census:  # noqa: B008 (frozen)
        """Every state by its distance from the solved puzzle: histogram, God's number (the
        diameter), the farthest states.

        The bit array (2 bits a state indexed, see `info`) is checked against the memory
        cap before anything else; the answer is kept in the results store.

        Args:
            show: How many of the farthest states to return, 0 to 10,000.
            run: ``run.memory``, ``run.workers`` threads (default: all cores),
                ``run.checkpoint`` (written after every layer and resumed from),
                ``run.scheduler`` (a Dask cluster), ``run.store``.
        """
        check_show(whole(show, "--show"))
        return census(self.rules, show, run=checked(run))

    def solve(self, state: str | None = None, *, scramble: str | None = None, states: int = MAX_SOLVE_STATES,
              run: RunOptions = RunOptions()) -> Solution:  # noqa: B008 (frozen)
        """A shortest sequence of moves from a state to the solved puzzle.

        A state the moves cannot reach is answered with moves = -1 and the reason,
        without a search. Either way the moves are replayed by the plain rules.

        With ``run.checkpoint``, the file a finished `god` left there is the table of
        distances, walked down to the solved puzzle one move a step. A file that is
        there but is no such table (another puzzle's, an unfinished census, another
        command's) is refused: it was asked for, and searching around it would hide the
        mistake. A file not made yet holds no table: the bidirectional search runs, and
        the solution's note says so.

        Args:
            state: The state, one token a position (see `solved`).
            scramble: Or the moves that make it from solved ("R U R' F2").
            states: The most states the bidirectional search stores.
            run: ``run.checkpoint`` (a finished census's table), ``run.memory`` (the
                search's memory cap), ``run.progress`` (a bar that counts the states).

        Raises:
            ValueError: A checkpoint that holds no table of this puzzle, or a search
                that would store more than `states` (saying how long the solution must
                then be); one line.
            CheckFailed: The moves found do not solve the state.
        """
        rules, run = self.rules, checked(run)
        state, scramble = text_or_none(state, "state"), text_or_none(scramble, "scramble")
        states = whole(states, "--states")
        if not 1 <= states <= 2**63 - 1:  # the search counts its states in 64-bit integers
            raise ValueError(f"--states must be between 1 and {2**63 - 1}, got {digits_text(str(states))}")
        t0 = time.perf_counter()
        if (state is None) == (scramble is None):
            raise ValueError("give the state to solve, or a scramble that makes it (not both)")
        moves = parse_moves(rules, scramble) if scramble is not None else None
        if moves == []:  # blank, or separators only (moves are split at spaces and commas)
            raise ValueError("the scramble has no moves: give at least one, e.g. \"R U\"")
        _read_store(rules, run)
        start = parse_state(rules, state) if state is not None else play(rules, rules.solved, moves)
        text = state_text(rules, start)
        lay = layout(rules)
        tab = table(rules, lay, run.checkpoint) if run.checkpoint is not None else None
        if tab is not None:
            return self._walk(start, text, lay, tab, t0)
        note = f"no table: {shown(run.checkpoint)} holds no census yet" if run.checkpoint is not None else ""
        reason = group.unreachable(rules, start, lay)
        if not reason and _distinct(rules) and not _complete(rules, run):
            if not group.member(rules, start, lay):
                reason = ("no sequence of moves makes it: it is not in the group the moves generate "
                          "(Schreier-Sims)")
        if reason:
            return Solution(rules.name, text, -1, (), (), reason, "", note, 0, time.perf_counter() - t0)
        try:
            with Meter(f"{rules.name}: bidirectional search", None, "states", enabled=run.progress) as meter:
                found = bidir.search(rules, lay, start, run=run, most=states, meter=meter)
        except bidir.SearchBound as e:
            depth = len(e.forward) - 1 + len(e.backward) - 1
            raise ValueError(f"the bidirectional search stored {e.stored:,} states without a solution, and "
                             f"its next layer could pass the bound of {e.most:,} (--states): the shortest "
                             f"solution is longer than {depth} moves") from None
        if found.moves is None:
            return Solution(rules.name, text, -1, (), (), "the search ran out of states reachable from it "
                            "without meeting the solved puzzle", "bidirectional", note, found.states,
                            time.perf_counter() - t0)
        return self._replayed(start, text, found.moves, "bidirectional", note, found.states, t0)

    def _walk(self, start: State, text: str, lay: Layout, tab: Table, t0: float) -> Solution:
        """The solution down the table of a finished census (see `solve`)."""
        rules = self.rules
        reason = group.unreachable(rules, start, lay)  # also what the table's index cannot hold
        if reason:
            return Solution(rules.name, text, -1, (), (), reason, "", "", 0, time.perf_counter() - t0)
        sequence = walk(rules, lay, start, tab)
        if sequence is None:  # the table holds every state the moves reach from the solved one
            return Solution(rules.name, text, -1, (), (), "the census in the checkpoint never reached it: "
                            "no sequence of moves makes it", "table", "", 0, time.perf_counter() - t0)
        return self._replayed(start, text, sequence, "table", "", 0, t0)

    def _replayed(self, start: State, text: str, sequence: tuple[str, ...], method: str, note: str,
                  searched: int, t0: float) -> Solution:
        """The solution, once its moves are replayed by the plain rules to the solved puzzle."""
        rules = self.rules
        path, current = [], start
        for m in sequence:
            current = play(rules, current, [rules.move(m)])
            path.append(state_text(rules, current))
        if current != rules.solved:  # the witness, replayed by the plain rules
            raise CheckFailed("the solution's replay", f"its {len(sequence)} moves take {text} to "
                              f"{state_text(rules, current)}, not to the solved puzzle")
        return Solution(rules.name, text, len(sequence), tuple(sequence), tuple(path), "", method, note,
                        searched, time.perf_counter() - t0)


def _factor(f) -> str:
    """A factor for people: whole numbers in full, others to 4 digits (any size: no float
    overflow)."""
    if f.denominator == 1:
        return f"{f.numerator:,}"
    if f < 10**300:
        return f"{float(f):.4g}"
    return f"about 10^{len(str(f.numerator // f.denominator)) - 1}"


def _distinct(rules: Rules) -> bool:
    return all(not s.colours or len(set(s.colours)) == len(s.colours) for s in rules.sets)


def _group_key(rules: Rules) -> str:
    """The group's moves and colours, not their names: what the stored facts depend on."""
    return canonical_json({"ks": list(rules.ks), "solved": list(rules.solved[0]),
                           "moves": [[list(m.perm), list(m.twist)] for m in rules.moves]})


def _read_store(rules: Rules, run: RunOptions) -> object:
    """What the results store knows of this puzzle's group (None if nothing). Read before
    the work, so that a store that is not one is refused at once, as every command does,
    even where the answer would not need it."""
    with ResultsStore(run.store) as db:
        return db.get(STORE_GROUP, _group_key(rules))


def _complete(rules: Rules, run: RunOptions) -> bool:
    """Whether the invariants describe the group, so that they alone decide which states
    are reachable: from the results store, else counted (Schreier-Sims, sympy) and kept
    there, which spares later runs loading sympy. A store that cannot be written costs
    nothing but that. A group too large to count (`group.count` refuses it) is taken as
    described: no membership test, and the search answers an unreachable state by running
    out of states (or at its bound)."""
    stored = _read_store(rules, run)
    if isinstance(stored, dict) and isinstance(stored.get("complete"), bool):
        return stored["complete"]
    try:
        found = group.count(rules, run.memory)
    except ValueError:  # a group too large to count: the search itself finds out, by running out
        return True
    _remember(rules, found, run)
    return found.complete


def _remember(rules: Rules, found: group.Count, run: RunOptions) -> None:
    """Keep what `_complete` reads in the results store; a store that cannot be written
    costs nothing but that."""
    try:
        with saving(None, "the size of the group"), ResultsStore(run.store) as db:
            value = {"order": str(found.group_order), "complete": found.complete}
            db.put(STORE_GROUP, _group_key(rules), value, "Schreier-Sims", found.seconds)
    except NotSaved:
        pass


#: the formats `Puzzle.convert` writes, and the file extension of each
FORMATS = formats.FORMATS


def check_convert(to: str, out: str | Path | None = None) -> None:
    """ValueError (one line) for a format `Puzzle.convert` does not write, or an
    `out` file that cannot be written: checked before the puzzle is read."""
    formats.check_format(text(to, "--to"))
    if out is not None:
        formats.check_out(file_name(out, "--out"))


def plot(result: Census, filename: str) -> None:
    """Draw a census's distance histogram (log scale) into an image file.

    Check the file first with `check_plot`.

    Args:
        result: The census, from `Puzzle.god`.
        filename: The image file, in the format its suffix names.

    Raises:
        OSError: The file cannot be written.
        ValueError: The suffix names no image format.
    """
    if not isinstance(result, Census):
        raise TypeError(f"result must be a Census, got {shown_value(result)}")
    figures.save(pictures.histogram_figure(result), file_name(filename, "filename"))


__all__ = ["FORMATS", "MAX_SHOW", "MAX_SOLVE_STATES", "Census", "Example", "Info", "Puzzle", "RunOptions",
           "Solution",
           "check_convert", "check_plot", "examples", "find", "plot"]
