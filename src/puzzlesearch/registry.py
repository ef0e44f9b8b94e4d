"""The puzzles puzzlesearch knows: one line each.

The dispatcher (cli.py) lists and loads them from here, and the README's table of
puzzles is made from here (tests/test_registry.py checks that they agree). Adding a
puzzle is one folder (rules.py, kernels, api.py, cli.py) plus one :func:`register`
line below. Importing this module imports no puzzle.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Puzzle:
    """name: the command word; cli: "module:attribute" of its click group;
    api: the module of its public functions; help: one line for `puzzlesearch --help`."""

    name: str
    cli: str
    api: str
    help: str


PUZZLES: dict[str, Puzzle] = {}


def register(name: str, cli: str, api: str, help: str) -> Puzzle:
    """Make a puzzle known to the dispatcher (and to the README's table)."""
    if not name.isidentifier() or name in PUZZLES:
        raise ValueError(f"a puzzle needs a new one-word name, got {name!r}")
    PUZZLES[name] = puzzle = Puzzle(name, cli, api, help)
    return puzzle


def unregister(name: str) -> None:
    PUZZLES.pop(name, None)


def readme_table() -> str:
    """The README's table of puzzles, as Markdown."""
    rows = ["| command | what it answers | Python API |", "|---|---|---|"]
    for p in sorted(PUZZLES.values(), key=lambda p: p.name):
        rows.append(f"| `puzzlesearch {p.name}` | {p.help} | `{p.api}` |")
    return "\n".join(rows)


#: name, "module:group" of its CLI, API module, one line of help
for _entry in (
    ("topswops", "puzzlesearch.topswops.cli:topswops", "puzzlesearch.topswops",
     "Conway's topswops: f(n), optimal decks, play."),
    ("shuffle", "puzzlesearch.shuffle.cli:shuffle", "puzzlesearch.shuffle",
     "Block shuffles: fewest moves, whole state spaces."),
    ("pancake", "puzzlesearch.shuffle.cli:pancake", "puzzlesearch.shuffle",
     "Pancake flips: fewest flips, pancake numbers."),
    ("queens", "puzzlesearch.queens.cli:queens", "puzzlesearch.queens",
     "N-Queens: count, list, show and complete boards."),
    ("hanoi", "puzzlesearch.hanoi.cli:hanoi", "puzzlesearch.hanoi",
     "Tower of Hanoi: optimal moves, any pegs, any position."),
    ("grundy", "puzzlesearch.games.cli:grundy", "puzzlesearch.games",
     "Sprague-Grundy values of impartial games."),
):
    register(*_entry)

__all__ = ["PUZZLES", "Puzzle", "readme_table", "register", "unregister"]
