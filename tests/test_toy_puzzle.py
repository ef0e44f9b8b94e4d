"""A new puzzle is one folder plus one registry line: the toy puzzle in tests/toy, run through the CLI.

The toy (Collatz chains) is laid out as every puzzle is: rules.py, api.py (the limits,
in the words the CLI prints), cli.py (clikit only), __init__.py re-exporting the API.
It also exercises the CLI kit end to end: --json, run options, refusals before the work,
checkpoints, and an answer that is printed although saving it failed.
"""

from __future__ import annotations

import doctest
import sqlite3
import sys
from pathlib import Path

import click
import pytest

from conftest import assert_bad_input, run_cli
from puzzlesearch import clikit, registry
from puzzlesearch.engine.store import NotSaved, ResultsStore

HERE = Path(__file__).parent


@pytest.fixture
def toy(monkeypatch):
    """The documented steps: the folder is tests/toy; the one line is the register call."""
    monkeypatch.syspath_prepend(str(HERE))
    registry.register("toy", "toy.cli:toy", "toy", "Collatz chains: a toy puzzle for the tests.")
    yield sys.modules.get("toy") or __import__("toy")
    registry.unregister("toy")


def test_the_toy_is_listed_and_gone_again(toy):
    top = run_cli("--help")
    assert top.code == 0 and "toy" in top.out and "Collatz chains: a toy puzzle for the tests." in top.out
    rows = [r for r in registry.command_table().splitlines() if r.startswith("| `puzzlesearch toy ")]
    assert rows and all(r.endswith("| `toy` |") for r in rows), rows
    registry.unregister("toy")
    assert "toy" not in run_cli("--help").out
    assert run_cli("toy").code == 2
    registry.register("toy", "toy.cli:toy", "toy", "Collatz chains: a toy puzzle for the tests.")


def test_a_name_is_registered_once():
    with pytest.raises(ValueError, match="new one-word name"):
        registry.register("queens", "x:y", "x", "again")
    with pytest.raises(ValueError, match="new one-word name"):
        registry.register("two words", "x:y", "x", "no")


def test_no_command_prints_the_help(toy):
    r = run_cli("toy")
    assert r.code == 0 and r.err == ""
    assert r.out.startswith("Usage: ") and "Collatz chains (halve when even" in r.out
    assert "steps    Steps from K to 1, e.g. 111 from 27." in r.out  # not cut at "e.g."


def test_steps(toy):
    assert run_cli("toy", "steps", "27").out == "k=27  steps=111\n"
    r = run_cli("toy", "steps", "27", "--json")
    assert r.code == 0 and r.json() == {"k": 27, "steps": 111}
    assert toy.steps(27) == 111


def test_longest_through_the_cli_and_the_api(toy):
    # Project Euler 14's neighbour: below 10,000 the longest chain starts at 6171 (261 steps)
    r = run_cli("toy", "longest", "-n", "9999", "--json")
    assert r.code == 0, r.err
    assert r.json() == {"n": 9999, "start": 6171, "steps": 261}
    assert run_cli("toy", "longest", "-n", "30").out == "n=30  start=27  steps=111\n"
    assert toy.longest(9999) == toy.Longest(9999, 6171, 261)
    with ResultsStore() as store:  # kept in the results store private to the tests (conftest)
        assert store.get("toy", "longest(9999)") == [6171, 261]


def test_the_api_docstring_runs(toy):
    import toy.api

    failures, tried = doctest.testmod(toy.api)
    assert tried >= 3 and failures == 0


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["longest", "-n", "0"], "n must be between 1 and 1,000,000, got 0"),
        (["longest", "-n", "1000001"], "n must be between 1 and 1,000,000, got 1000001"),
        (["longest", "-n", str(10**20)], "n must be between 1 and 1,000,000, got 100000000000000000000"),
        (["longest", "-n", "x"], "'x' is not a valid integer"),
        (["steps", "0"], "k must be between 1 and 1,000,000,000,000,000,000, got 0"),
        (["steps", "-5"], "No such option '-5'"),
        (["longest", "-n", "5", "--memory", "inf"], "--memory"),
        (["longest", "-n", "5", "--memory", "nan"], "--memory"),
        (["longest", "-n", "5", "--memory", "1e400"], "at most 1,048,576 GiB"),
        (["longest", "-n", "5", "--workers", "0"], "between 1 and 4096"),
        (["longest", "-n", "5", "--workers", str(10**20)], "between 1 and 4096"),
        (["longest", "-n", "5", "--store", "/nonexistent/dir/r.sqlite"], "folder /nonexistent/dir does not"),
        (["longest", "-n", "5", "--checkpoint", "/nonexistent/dir/r.ckpt"], "folder /nonexistent/dir does"),
        (["longest", "-n", "5", "--checkpoint", "/proc/nope/x"], "the folder /proc/nope does not exist"),
        (["longest", "-n", "5", "--store", "/proc/x.sqlite"], "--store /proc/x.sqlite cannot be created"),
        (["longest", "-n", "5", "--scheduler", "tcp://127.0.0.1:1"], "no Dask scheduler answers at tcp://127.0.0.1:1"),
        (["longest", "-n", "5", "--scheduler", "udp://h:1"], "unknown scheme 'udp'"),
        (["frobnicate"], "No such command 'frobnicate'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(toy, args, words):
    r = run_cli("toy", *args)
    assert_bad_input(r)
    assert words in r.err, r.err
    assert r.err.startswith("puzzlesearch: error: ")


def test_the_api_refuses_with_the_cli_words(toy):
    for n in (0, 10**6 + 1, True, 2.0):
        with pytest.raises(ValueError, match="n must be between 1 and 1,000,000"):
            toy.longest(n)


def test_a_text_file_as_checkpoint_or_store_is_refused_and_kept(toy, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("precious\n")
    for option in ("--checkpoint", "--store"):
        r = run_cli("toy", "longest", "-n", "5", option, str(notes))
        assert_bad_input(r)
        assert "notes.txt is not a puzzlesearch" in r.err
    assert notes.read_text() == "precious\n"


def test_the_store_from_the_environment_is_refused_before_the_search(toy, monkeypatch):
    monkeypatch.setenv("PUZZLESEARCH_STORE", "/proc/nope/x.sqlite")
    r = run_cli("toy", "longest", "-n", "5")
    assert_bad_input(r)
    assert "PUZZLESEARCH_STORE /proc/nope/x.sqlite: the folder /proc/nope does not exist" in r.err
    assert run_cli("toy", "steps", "5").code == 0  # a command without a store does not care


def test_a_checkpoint_resumes(toy, tmp_path):
    ck = tmp_path / "toy.ckpt"
    first = run_cli("toy", "longest", "-n", "5000", "--workers", "1", "--checkpoint", str(ck), "--json")
    again = run_cli("toy", "longest", "-n", "5000", "--workers", "2", "--checkpoint", str(ck), "--json")
    assert first.code == again.code == 0
    assert first.json() == again.json() == {"n": 5000, "start": 3711, "steps": 237}
    other = run_cli("toy", "longest", "-n", "6000", "--checkpoint", str(ck))
    assert_bad_input(other)
    assert "made for other parameters" in other.err


def _disk_full(self, *args, **kwargs):
    raise sqlite3.OperationalError("disk I/O error")


@pytest.mark.parametrize("as_json", [False, True])
def test_an_answer_not_saved_is_printed_then_exit_1(toy, monkeypatch, as_json):
    monkeypatch.setattr(ResultsStore, "put", _disk_full)
    r = run_cli("toy", "longest", "-n", "30", *(["--json"] if as_json else []))
    assert r.code == 1
    if as_json:
        assert r.json() == {"n": 30, "start": 27, "steps": 111}
    else:
        assert r.out == "n=30  start=27  steps=111\n"
    assert r.err == (
        "puzzlesearch: the longest chain up to 30 (from 27, 111 steps) was computed but not saved: "
        "disk I/O error\n"
    )
    with pytest.raises(NotSaved) as e:  # the Python API keeps the answer too
        toy.longest(30)
    assert e.value.result == toy.Longest(30, 27, 111)


def test_library_call_alone_keeps_the_answer_in_its_line():
    # a command that forgot clikit.answer still says the answer, in the one line, and exits 1
    @click.command()
    def forgetful() -> None:
        with clikit.library_call():
            raise NotSaved(42, "f(14) = 104 was computed but not saved: disk I/O error")

    r = _run_command(forgetful)
    assert (r.exit_code, r.stdout) == (1, "")
    assert r.stderr == "puzzlesearch: f(14) = 104 was computed but not saved: disk I/O error\n"


def test_library_call_turns_refusals_into_one_line():
    # the dispatcher prints a UsageFailure as "puzzlesearch: error: MESSAGE", exit 2
    for error, shown in [
        (ValueError("n must be at most 17\nsecond line"), "n must be at most 17"),
        (OverflowError("Python int too large to convert"), "Python int too large to convert"),
        (MemoryError(), "out of memory (cap it with --memory)"),
        (MemoryError("a table of 9 GiB"), "out of memory: a table of 9 GiB"),
        (ImportError("--scheduler needs dask.distributed"), "--scheduler needs dask.distributed"),
    ]:
        with pytest.raises(clikit.UsageFailure) as e:
            with clikit.library_call():
                raise error
        assert e.value.format_message() == shown
        assert e.value.exit_code == clikit.EXIT_USAGE == 2


def test_library_call_on_ctrl_c_says_how_to_resume(tmp_path, capsys):
    from puzzlesearch.engine.options import RunOptions

    for run, hint in [
        (RunOptions(checkpoint="w.ck"), "; run the same command again with --checkpoint w.ck to resume"),
        (RunOptions(), "; give --checkpoint FILE to make a long run resumable"),
        (None, ""),
    ]:
        with pytest.raises(SystemExit) as e:
            with clikit.library_call(run):
                raise KeyboardInterrupt
        assert e.value.code == clikit.EXIT_INTERRUPTED == 130
        assert capsys.readouterr().err == f"puzzlesearch: interrupted{hint}\n"


def _run_command(command: click.Command):
    from click.testing import CliRunner

    return CliRunner().invoke(command, [])
