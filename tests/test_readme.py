"""The README tells the truth (issue 11, item 5).

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

For the full list, and for the before/after comparison of issue 11 (the same bytes as the
code before the refactor), run `python tests/readme_examples.py --compare
tests/data/readme_examples_before.json`.
"""

from __future__ import annotations

import doctest
import importlib.util
import sys
from pathlib import Path

import pytest

import puzzlesearch

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


@pytest.mark.parametrize("example", COMMANDS, ids=[f"README:{e.line}" for e in COMMANDS])
def test_readme_command_prints_what_the_readme_shows(example, runner):
    outcome = runner.run(example)
    assert not outcome.setup_failed, outcome.setup_failed
    ok, actual = rx.shown_matches(example, outcome, runner.paths)
    shown = "\n".join(rx.normalise(line) for line in example.shown)
    assert ok, (f"README.md:{example.line}: $ {example.command}\n"
                f"--- README shows\n{shown}\n--- printed\n{actual}")

