"""--store opens only this program's results store (or a new file), never another file,
and never the --checkpoint's file: each other file is refused in one line before any work
and left byte for byte as it was, with no -wal or -shm beside it."""

from __future__ import annotations

import hashlib
import os
import sqlite3

import pytest

from conftest import assert_bad_input, run_cli
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.store import STORE_FORMAT, Checkpoint, ResultsStore, check_store

#: commands that read and write the results store (quick ones)
COMMANDS = [
    ("topswops", "solve", "-n", "8"),
    ("perm", "info", "pyraminx"),
]


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _sqlite(path, *statements, wal=False):
    db = sqlite3.connect(path)
    if wal:
        db.execute("pragma journal_mode=wal")
    for s in statements:
        db.execute(s)
    db.commit()
    db.close()
    return path


def _foreign_db(tmp_path):
    return _sqlite(tmp_path / "other.db", "create table notes (id integer primary key, text text)",
                   "insert into notes (text) values ('precious')")


def _foreign_results(tmp_path):
    return _sqlite(tmp_path / "results.db", "create table results (puzzle text, key text, value2 text)",
                   "insert into results values ('a', 'b', 'c')")


def _checkpoint(tmp_path):
    path = tmp_path / "run.ck"
    Checkpoint(path, {"p": 1}, [[0]]).close()
    return path


def _text(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("precious\n")
    return path


def _layers(tmp_path):
    path = tmp_path / "layers.ck"
    path.write_bytes(b"puzzlesearch breadth-first layers\n{}\n")
    return path


FOREIGN = {
    "another program's database": (_foreign_db, "another program's SQLite database"),
    "a foreign results table": (_foreign_results, "its results table has other columns"),
    "a checkpoint": (_checkpoint, "is a puzzlesearch checkpoint, not a results store"),
    "a text file": (_text, "not an SQLite file"),
    "a breadth-first checkpoint": (_layers, "checkpoint of a breadth-first search"),
}


@pytest.mark.parametrize("kind", FOREIGN)
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_file_that_is_not_a_store_is_refused_and_left_as_it_was(tmp_path, kind, command):
    make, words = FOREIGN[kind]
    path = make(tmp_path)
    before = _digest(path)
    listing = sorted(os.listdir(tmp_path))
    result = run_cli(*command, "--store", path)
    assert_bad_input(result)
    assert words in result.err and "Traceback" not in result.err
    assert _digest(path) == before
    assert sorted(os.listdir(tmp_path)) == listing  # no -wal, -shm, nor anything else


def test_a_wal_mode_foreign_database_is_left_as_it_was(tmp_path):
    path = _sqlite(tmp_path / "other.db", "create table t (x)", wal=True)
    before = _digest(path)
    listing = sorted(os.listdir(tmp_path))
    assert_bad_input(run_cli("topswops", "solve", "-n", "8", "--store", path))
    assert _digest(path) == before and sorted(os.listdir(tmp_path)) == listing


def test_the_journal_mode_of_a_foreign_database_is_kept(tmp_path):
    path = _foreign_db(tmp_path)
    with pytest.raises(ValueError, match="another program's SQLite database"):
        ResultsStore(path)
    db = sqlite3.connect(path)
    assert db.execute("pragma journal_mode").fetchone()[0] == "delete"
    db.close()


def test_a_new_store_carries_its_marker_and_is_accepted_again(tmp_path):
    path = tmp_path / "r.sqlite"
    result = run_cli("perm", "info", "pyraminx", "--store", path)
    assert result.code == 0, result.err
    db = sqlite3.connect(path)
    assert dict(db.execute("select key, value from meta")) == {"format": STORE_FORMAT}
    db.close()
    again = run_cli("perm", "info", "pyraminx", "--store", path)
    assert again.code == 0 and again.out == result.out


def test_a_store_made_before_the_marker_is_read_and_marked_at_its_next_write(tmp_path):
    """Such a store holds the results table alone, exactly as this program makes it."""
    path = tmp_path / "old.sqlite"
    _sqlite(path, "create table results (puzzle text not null, key text not null, value text not null, "
                  "method text not null, seconds real, created text not null, primary key (puzzle, key))",
            "insert into results values ('p', 'k', '[1]', 'm', null, '2026-01-01T00:00:00')", wal=True)
    check_store(path)
    with ResultsStore(path) as s:
        assert s.get("p", "k") == [1]
        s.put("p", "k2", 2, "m")
    db = sqlite3.connect(path)
    assert dict(db.execute("select key, value from meta")) == {"format": STORE_FORMAT}
    db.close()
    check_store(path)


def test_an_sqlite_file_without_tables_is_a_store_being_made(tmp_path):
    path = _sqlite(tmp_path / "new.sqlite", "pragma user_version = 0")
    with ResultsStore(path) as s:
        s.put("p", "k", 1, "m")
        assert s.get("p", "k") == 1


@pytest.mark.parametrize("command", [("topswops", "solve", "-n", "8"), ("perm", "god", "pyraminx")],
                         ids=" ".join)
def test_store_and_checkpoint_naming_one_file_are_refused_before_the_work(tmp_path, command):
    same = tmp_path / "same.db"
    result = run_cli(*command, "--store", same, "--checkpoint", same)
    assert_bad_input(result)
    assert "are the same file" in result.err
    assert not same.exists()


def test_store_and_checkpoint_through_a_link_or_the_environment(tmp_path, monkeypatch):
    real = tmp_path / "real.db"
    link = tmp_path / "link.db"
    link.symlink_to(real)
    same = r"^--checkpoint .*real\.db and --store .*link\.db are the same file"
    with pytest.raises(ValueError, match=same):
        RunOptions(checkpoint=str(real), store=str(link)).check_paths()
    real.write_bytes(b"")
    hard = tmp_path / "hard.db"
    os.link(real, hard)
    with pytest.raises(ValueError, match="are the same file"):
        RunOptions(checkpoint=str(hard), store=str(real)).check_paths()
    monkeypatch.setenv("PUZZLESEARCH_STORE", str(link))
    with pytest.raises(ValueError, match="and PUZZLESEARCH_STORE .* are the same file"):
        RunOptions(checkpoint=str(real)).check_paths(store=True)
    RunOptions(checkpoint=str(real)).check_paths()  # a search without the store: no conflict
    RunOptions(checkpoint=str(tmp_path / "other.ck"), store=str(link)).check_paths()


def test_another_program_s_names_stay_on_one_short_line(tmp_path):
    path = _sqlite(tmp_path / "odd.db", 'create table "two\nlines" (x)',
                   *(f"create table t{i}_{'x' * 40} (x)" for i in range(20)))
    result = run_cli("topswops", "solve", "-n", "8", "--store", path)
    assert_bad_input(result)
    assert len(result.err) < 300


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_an_empty_store_name_is_called_empty_not_a_folder(tmp_path, command, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run_cli(*command, "--store", "")
    assert_bad_input(r)
    assert r.err == "puzzlesearch: error: --store needs a file name, got an empty one\n"
    r = run_cli("pancake", "god", "-n", "4", "--store", "", "--checkpoint", "")
    assert_bad_input(r)
    assert r.err.endswith("needs a file name, got an empty one\n")
    with pytest.raises(ValueError, match="^--store needs a file name, got an empty one$"):
        RunOptions(store="").check_paths()
