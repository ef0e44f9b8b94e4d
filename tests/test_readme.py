"""The README tells the truth.

- Its Python API examples run as doctests: every ```python or ```pycon block of README.md
  is one doctest (ELLIPSIS and NORMALIZE_WHITESPACE on, so a timing or a long value may be
  written `...`), run in a fresh namespace in an empty directory. A block without `>>>`
  prompts cannot show its results and fails. An example too long for the suite is marked
  `# doctest: +SKIP` in the README.
- Its command examples print what it shows: each `$ puzzlesearch ...` example that
  tests/readme_examples.py runs (so not the cluster, interactive and SLOW ones) and that
  is not in its NOT_IN_TEST list runs against the source tree this test imports, and its
  stdout and stderr, normalised by readme_examples.NORMALISE, equal the lines the README
  shows after it.

For the full list, and to compare every command's output with a recorded run (the same
bytes before and after a refactor), run `python tests/readme_examples.py --compare
tests/data/readme_examples_before.json`.
"""

from __future__ import annotations

import doctest
import importlib.util
import shlex
import sys
from pathlib import Path

import pytest

import puzzlesearch
from conftest import run_cli

# tests/ is not a package: load the script beside this file by its path.
_script = Path(__file__).with_name("readme_examples.py")
_spec = importlib.util.spec_from_file_location("readme_examples", _script)
rx = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("readme_examples", rx)
_spec.loader.exec_module(rx)


API_BLOCKS = [b for b in rx.code_blocks() if b.lang in ("python", "py", "pycon")]
COMMANDS = [e for e in rx.examples() if not (e.skip or e.slow) and e.command not in rx.NOT_IN_TEST]
SRC = Path(puzzlesearch.__file__).resolve().parents[1]


@pytest.mark.parametrize("block", API_BLOCKS, ids=[f"README:{b.line}" for b in API_BLOCKS])
def test_readme_api_example_runs_as_doctest(block, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    if ">>>" not in block.text:
        pytest.fail(f"README.md:{block.line} ({block.section}): a ```{block.lang} block without >>> prompts "
                    "cannot be checked; write it as >>> lines followed by their results")
    name = f"README.md:{block.line}"
    test = doctest.DocTestParser().get_doctest(block.text, {"__name__": "__main__"}, name, str(rx.README),
                                               block.line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert test.examples, f"README.md:{block.line}: no examples"
    assert runner.failures == 0, "".join(report)


@pytest.fixture(scope="module")
def runner():
    with rx.Runner(SRC) as r:
        yield r


def _in_process(example) -> list[str] | None:
    """The arguments of an example that is one plain `puzzlesearch ...` command (no pipe,
    redirection, variable or shell step before it), which can run in this process; else None."""
    if any(c in example.command for c in "|<>;&$`*?") or example.command in rx.TIMED:
        return None
    if any(step[0] != "write" for step in rx.SETUP.get(example.command, [])):
        return None
    words = shlex.split(example.command, comments=True)
    return words[1:] if words[:1] == ["puzzlesearch"] else None


IN_PROCESS = [e for e in COMMANDS if _in_process(e) is not None]


@pytest.mark.parametrize("example", IN_PROCESS, ids=[f"README:{e.line}" for e in IN_PROCESS])
def test_readme_command_prints_what_the_readme_shows_in_process(example, tmp_path, monkeypatch):
    """The fast lane's check of the README: the plain commands, run in this process (the
    full lane runs every command as a user would, each in a fresh process)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PUZZLESEARCH_STORE", str(tmp_path / "store" / "results.sqlite"))
    (tmp_path / "store").mkdir()
    for step in rx.SETUP.get(example.command, []):
        (tmp_path / step[1]).write_text(step[2])
    r = run_cli(*_in_process(example))
    outcome = rx.Outcome(example.command, example.line, r.code, r.out, r.err)
    ok, actual = rx.shown_matches(example, outcome, [(str(tmp_path), "<tmp>")])
    shown = "\n".join(rx.normalise(line) for line in example.shown)
    assert ok, (f"README.md:{example.line}: $ {example.command}\n"
                f"--- README shows\n{shown}\n--- printed\n{actual}")


@pytest.mark.slow
@pytest.mark.parametrize("example", COMMANDS, ids=[f"README:{e.line}" for e in COMMANDS])
def test_readme_command_prints_what_the_readme_shows(example, runner):
    outcome = runner.run(example)
    assert not outcome.setup_failed, outcome.setup_failed
    ok, actual = rx.shown_matches(example, outcome, runner.paths)
    shown = "\n".join(rx.normalise(line) for line in example.shown)
    assert ok, (f"README.md:{example.line}: $ {example.command}\n"
                f"--- README shows\n{shown}\n--- printed\n{actual}")

