"""The README and the documentation pages tell the truth.

- Their Python examples run as doctests: every ```python or ```pycon block of README.md
  and of docs/*.md is one doctest (ELLIPSIS and NORMALIZE_WHITESPACE on, so a timing or
  a long value may be written `...`), run in a fresh namespace in an empty directory. A
  block without `>>>` prompts cannot show its results and fails. An example too long
  for the suite is marked `# doctest: +SKIP` on its page.
- Their command examples print what they show: each `$ puzzlesearch ...` example that
  tests/doc_examples.py runs (so not the cluster, interactive, TIMED and SLOW ones) and
  that is not in its NOT_IN_TEST list runs against the source tree this test imports, and
  its stdout and stderr, normalised by doc_examples.NORMALISE, equal the lines the page
  shows after it. The fast lane runs the plain commands in this process; the full lane
  runs every one as a user would, each in a fresh process.

A failure names the page and line, the command, and what differed.
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
_script = Path(__file__).with_name("doc_examples.py")
_spec = importlib.util.spec_from_file_location("doc_examples", _script)
dx = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("doc_examples", dx)
_spec.loader.exec_module(dx)


API_BLOCKS = [b for page in dx.pages() for b in dx.code_blocks(page) if b.lang in ("python", "py", "pycon")]
COMMANDS = [e for page in dx.pages() for e in dx.examples(page)
            if not (e.skip or e.slow) and e.command not in dx.NOT_IN_TEST]
SRC = Path(puzzlesearch.__file__).resolve().parents[1]


def test_every_page_is_looked_at():
    names = {dx.page_name(p) for p in dx.pages()}
    assert "README.md" in names and "docs/index.md" in names
    assert {b.page for b in API_BLOCKS} >= {"README.md"}


@pytest.mark.parametrize("block", API_BLOCKS, ids=[b.where for b in API_BLOCKS])
def test_api_example_runs_as_doctest(block, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    if ">>>" not in block.text:
        pytest.fail(f"{block.where} ({block.section}): a ```{block.lang} block without >>> prompts "
                    "cannot be checked; write it as >>> lines followed by their results")
    test = doctest.DocTestParser().get_doctest(block.text, {"__name__": "__main__"}, block.where,
                                               str(dx.REPO / block.page), block.line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert test.examples, f"{block.where}: no examples"
    assert runner.failures == 0, f"{block.where}: a Python example prints other output\n" + "".join(report)


@pytest.fixture(scope="module")
def runner():
    with dx.Runner(SRC) as r:
        yield r


def _in_process(example) -> list[str] | None:
    """The arguments of an example that is one plain `puzzlesearch ...` command (no pipe,
    redirection, variable or shell step before it), which can run in this process; else None."""
    if any(c in example.command for c in "|<>;&$`*?") or example.command in dx.TIMED:
        return None
    if any(step[0] != "write" for step in dx.SETUP.get(example.command, [])):
        return None
    words = shlex.split(example.command, comments=True)
    return words[1:] if words[:1] == ["puzzlesearch"] else None


def _failure(example, actual: str) -> str:
    shown = "\n".join(dx.normalise(line) for line in example.shown)
    return (f"{example.where}: `$ {example.command}` prints other output than the page shows\n"
            f"--- the page shows\n{shown}\n--- printed\n{actual}")


IN_PROCESS = [e for e in COMMANDS if _in_process(e) is not None]


@pytest.mark.parametrize("example", IN_PROCESS, ids=[e.where for e in IN_PROCESS])
def test_command_prints_what_the_page_shows_in_process(example, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PUZZLESEARCH_STORE", str(tmp_path / "store" / "results.sqlite"))
    (tmp_path / "store").mkdir()
    for step in dx.SETUP.get(example.command, []):
        (tmp_path / step[1]).write_text(step[2])
    r = run_cli(*_in_process(example))
    outcome = dx.Outcome(example.command, example.line, r.code, r.out, r.err, page=example.page)
    ok, actual = dx.shown_matches(example, outcome, [(str(tmp_path), "<tmp>")])
    assert ok, _failure(example, actual)


@pytest.mark.slow
@pytest.mark.parametrize("example", COMMANDS, ids=[e.where for e in COMMANDS])
def test_command_prints_what_the_page_shows(example, runner):
    outcome = runner.run(example)
    assert not outcome.setup_failed, f"{example.where}: `$ {example.command}`: {outcome.setup_failed}"
    ok, actual = dx.shown_matches(example, outcome, runner.paths)
    assert ok, _failure(example, actual)
