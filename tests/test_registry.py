"""The registry of puzzles: what the dispatcher lists and loads, and the README's table."""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest

from conftest import run_cli
from puzzlesearch import registry
from puzzlesearch.registry import PUZZLES

ROOT = Path(__file__).parent.parent
SRC = ROOT / "src" / "puzzlesearch"
HEADER = "| command | what it does | Python API |"


def readme_command_table(text: str) -> str:
    """The README's table of commands: the block of table lines that starts with HEADER."""
    lines = text.splitlines()
    start = lines.index(HEADER)  # ValueError: no table yet
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return "\n".join(lines[start:end])


def test_the_readme_table_is_made_from_the_click_groups():
    shown = readme_command_table((ROOT / "README.md").read_text())
    made = registry.command_table()
    assert shown == made, ("README.md: the table of commands differs from the click groups; paste the "
                           "output of `python -c 'from puzzlesearch import registry; "
                           "print(registry.command_table())'` over it")


def test_the_table_has_a_row_for_every_command_of_every_puzzle():
    rows = registry.command_table().splitlines()
    assert rows[:2] == [HEADER, "|---|---|---|"]
    listed = [re.match(r"\| `puzzlesearch (\w+ [\w-]+)` \|", r).group(1) for r in rows[2:]]
    for name in PUZZLES:
        group = importlib.import_module(PUZZLES[name].cli.split(":")[0])
        group = getattr(group, PUZZLES[name].cli.split(":")[1])
        assert sorted(w for w in listed if w.split()[0] == name) == [f"{name} {v}" for v in
                                                                     sorted(group.commands)]
    assert "| `puzzlesearch topswops long` | Long decks for any n: each longer deck as soon as it is found " \
           "(anytime; Ctrl-C keeps them). | `puzzlesearch.topswops` |" in rows


def test_a_help_line_is_one_whole_sentence():
    """click's own short help would cut "(e.g. 3 1 2 5 4)" after "e.g."."""
    lines = dict(registry.commands("pancake"))
    assert lines["pancake solve"] == "Fewest flips that sort STACK (the pancakes top first, e.g. 3 1 2 5 4)."
    assert registry._first_sentence("f(n): the most steps.  Exits 1 if they differ.\n\nMore.") == \
        "f(n): the most steps."


def test_the_seven_puzzles_are_registered():
    assert sorted(PUZZLES) == ["grundy", "hanoi", "pancake", "perm", "queens", "shuffle", "topswops"]


def test_importing_the_registry_and_the_dispatcher_imports_no_puzzle():
    folders = sorted({p.api.split(".")[1] for p in PUZZLES.values()})
    code = ("import sys, puzzlesearch.registry, puzzlesearch.cli; "
            f"print(sorted(m for m in sys.modules if m.split('.')[:2] in "
            f"[['puzzlesearch', f] for f in {folders!r}]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("name", sorted(PUZZLES))
def test_each_entry_loads(name):
    p = PUZZLES[name]
    module, attr = p.cli.split(":")
    group = getattr(importlib.import_module(module), attr)
    assert isinstance(group, click.Group) and group.commands
    importlib.import_module(p.api)
    assert p.help.endswith(".") and "\n" not in p.help


# --- the dispatcher: help when no command is given -------------------------------------------------------


def _is_full_help(r, usage: str) -> None:
    assert r.code == 0, r.err
    assert r.err == ""
    lines = r.out.splitlines()
    assert lines[0].startswith("Usage: ") and usage in lines[0], lines[0]
    assert len(lines) > 5 and ("Commands:" in r.out or "Puzzles:" in r.out)
    assert "error" not in r.out.lower().split("\n", 1)[0]


def test_no_puzzle_prints_the_help():
    r = run_cli()
    _is_full_help(r, "[OPTIONS] COMMAND [ARGS]...")
    for name, p in PUZZLES.items():
        assert re.search(rf"^  {name} +{re.escape(p.help)}$", r.out, re.M), (name, r.out)
    assert run_cli("--help").out == r.out
    assert run_cli("-h").out == r.out


@pytest.mark.parametrize("name", sorted(PUZZLES))
def test_no_command_prints_the_puzzles_help(name):
    r = run_cli(name)
    _is_full_help(r, f"{name} [OPTIONS] COMMAND [ARGS]...")
    module, attr = PUZZLES[name].cli.split(":")
    group = getattr(importlib.import_module(module), attr)
    for command in group.list_commands(click.Context(group)):
        assert re.search(rf"^  {command}\b", r.out, re.M), (command, r.out)
    assert run_cli(name, "--help").out == r.out
    assert run_cli(name, "-h").out == r.out


@pytest.mark.parametrize("name", sorted(PUZZLES))
def test_every_command_has_help(name):
    module, attr = PUZZLES[name].cli.split(":")
    group = getattr(importlib.import_module(module), attr)
    for command in group.list_commands(click.Context(group)):
        r = run_cli(name, command, "--help")
        assert r.code == 0 and r.err == "", (command, r.err)
        assert r.out.startswith("Usage: ") and "--help" in r.out


def test_an_unknown_puzzle_is_one_line_and_exit_2():
    r = run_cli("sudoku")
    assert r.code == 2 and r.out == ""
    assert r.err == "puzzlesearch: error: No such command 'sudoku'.\n"


# --- the layout every puzzle follows ---------------------------------------------------------------------


def _puzzle_folders() -> list[Path]:
    return sorted({SRC / p.api.split(".")[1] for p in PUZZLES.values()})


@pytest.mark.parametrize("folder", _puzzle_folders(), ids=lambda f: f.name)
def test_the_layout_of_a_puzzle(folder):
    for name in ("rules.py", "api.py", "cli.py", "__init__.py"):
        assert (folder / name).exists(), f"{folder.name}/{name} is missing"
    init = ast.parse((folder / "__init__.py").read_text())
    api = {("api", 1), (f"puzzlesearch.{folder.name}.api", 0)}
    from_api = [n for n in ast.walk(init) if isinstance(n, ast.ImportFrom) and (n.module, n.level) in api]
    assert from_api, f"{folder.name}/__init__.py does not re-export its api module"


@pytest.mark.parametrize("folder", _puzzle_folders(), ids=lambda f: f.name)
def test_no_puzzle_module_imports_the_dispatcher(folder):
    offenders = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "puzzlesearch.cli":
                offenders.append(f"{path.relative_to(SRC)}:{node.lineno}")
            if isinstance(node, ast.ImportFrom) and node.module == "puzzlesearch":
                if any(a.name == "cli" for a in node.names):
                    offenders.append(f"{path.relative_to(SRC)}:{node.lineno}")
            if isinstance(node, ast.Import) and any(a.name == "puzzlesearch.cli" for a in node.names):
                offenders.append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert offenders == []


def test_json_is_declared_once():
    # one declaration (clikit.json_option), which every command uses: the option reads and
    # behaves the same everywhere
    declared = []
    for path in sorted(SRC.rglob("*.py")):
        for lineno, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"""["']--json["']""", line):
                declared.append(f"{path.relative_to(SRC)}:{lineno}")
    assert declared == ["clikit.py:" + str(_clikit_json_line())]


def _clikit_json_line() -> int:
    for lineno, line in enumerate((SRC / "clikit.py").read_text().splitlines(), 1):
        if "--json" in line and "click.option" in line:
            return lineno
    raise AssertionError("clikit declares no --json")
