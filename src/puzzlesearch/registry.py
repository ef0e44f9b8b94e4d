"""The puzzles puzzlesearch knows: one line each.

The dispatcher (cli.py) lists and loads them from here, and the table of every command
in the README and the docs is made from here (tests/test_registry.py checks that the
README's is the same). Adding a
puzzle is one folder (rules.py, kernels, api.py, cli.py) plus one `register`
line below. Importing this module imports no puzzle.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass

import click


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
    """Make a puzzle known to the dispatcher (and to the table of commands)."""
    if not name.isidentifier() or name in PUZZLES:
        raise ValueError(f"a puzzle needs a new one-word name, got {name!r}")
    PUZZLES[name] = puzzle = Puzzle(name, cli, api, help)
    return puzzle


def unregister(name: str) -> None:
    PUZZLES.pop(name, None)


def commands(name: str) -> list[tuple[str, str]]:
    """(command words, one line of help) of every command of a registered puzzle, in the
    order its click group lists them; loads that puzzle's command line (not at import)."""
    module, attr = PUZZLES[name].cli.split(":")
    group = getattr(importlib.import_module(module), attr)
    ctx = click.Context(group, info_name=name)
    found = []
    for verb in group.list_commands(ctx):
        command = group.get_command(ctx, verb)
        if command is not None and not command.hidden:
            found.append((f"{name} {verb}", command.short_help or _first_sentence(command.help or "")))
    return found


def _first_sentence(text: str) -> str:
    """The first sentence of a help text's first paragraph; click's own short help cuts at
    the "." of "e.g." and truncates."""
    paragraph = " ".join(text.split("\n\n")[0].split())
    return re.split(r"(?<!e\.g)(?<!i\.e)(?<=\.)\s+(?=[A-Z])", paragraph)[0]


def command_table() -> str:
    """Every command of every puzzle as a Markdown table (the README's and the docs'):
    made from the click groups, so a new command or a changed help line shows at once."""
    rows = ["| command | what it does | Python API |", "|---|---|---|"]
    for p in sorted(PUZZLES.values(), key=lambda p: p.name):
        for words, help_line in commands(p.name):
            rows.append(f"| `puzzlesearch {words}` | {help_line} | `{p.api}` |")
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
    ("perm", "puzzlesearch.perm.cli:perm", "puzzlesearch.perm",
     "Permutation puzzles from a file: states, God's number, solutions."),
):
    register(*_entry)

__all__ = ["PUZZLES", "Puzzle", "command_table", "commands", "register", "unregister"]
