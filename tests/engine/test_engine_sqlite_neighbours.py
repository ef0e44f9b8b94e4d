"""A checkpoint's or a results store's -wal or -shm file that exists while the database
does not (or is empty) was made by no run of ours: it is refused in one line before any
work, and left as it was, since SQLite would replay a foreign write-ahead log into our file."""

from __future__ import annotations

import sqlite3

import pytest

from conftest import assert_bad_input, run_cli
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.paths import show
from puzzlesearch.engine.store import Checkpoint, ResultsStore

COMMANDS = {
    "--checkpoint": ("queens", "count", "-n", "8"),
    "--store": ("topswops", "solve", "-n", "8"),
}


def _foreign_wal(folder) -> bytes:
    """The bytes of a real write-ahead log of another database."""
    other = folder / "other.sqlite"
    db = sqlite3.connect(other)
    db.execute("pragma journal_mode=wal")
    db.execute("pragma wal_autocheckpoint=0")
    db.execute("create table t (x)")
    db.execute("insert into t values (1)")
    db.commit()
    data = other.with_name("other.sqlite-wal").read_bytes()
    db.close()
    return data


@pytest.mark.parametrize("option", sorted(COMMANDS))
@pytest.mark.parametrize("suffix", ["-wal", "-shm"])
@pytest.mark.parametrize("empty", [False, True], ids=["no database", "an empty database"])
def test_a_neighbour_without_its_database_is_refused(tmp_path, monkeypatch, option, suffix, empty):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PUZZLESEARCH_STORE", str(tmp_path / "default.sqlite"))
    db = tmp_path / "run.db"
    if empty:
        db.write_bytes(b"")
    neighbour = tmp_path / f"run.db{suffix}"
    data = _foreign_wal(tmp_path) if suffix == "-wal" else b"\0" * 32768
    neighbour.write_bytes(data)
    r = run_cli(*COMMANDS[option], option, "run.db")
    assert_bad_input(r)
    assert r.err == (f"puzzlesearch: error: {option} run.db: {show(neighbour)} exists but no run with this "
                     f"file made it; move it away or choose another {option}\n")
    assert neighbour.read_bytes() == data  # left as it was
    assert db.exists() == empty and (not empty or db.stat().st_size == 0)


def test_the_api_refuses_them_too(tmp_path):
    (tmp_path / "c.db-shm").write_bytes(b"x")
    with pytest.raises(ValueError, match="c.db-shm exists but no run with this file made it"):
        RunOptions(checkpoint=str(tmp_path / "c.db")).check_paths()
    with pytest.raises(ValueError, match="c.db-shm exists"):
        Checkpoint(tmp_path / "c.db", {}, [1])
    (tmp_path / "s.db-wal").write_bytes(b"x")
    with pytest.raises(ValueError, match="s.db-wal exists"):
        ResultsStore(tmp_path / "s.db")


def test_the_neighbours_a_killed_run_leaves_are_its_own(tmp_path, monkeypatch):
    """Beside a database with content, -wal and -shm are what a run left: accepted."""
    monkeypatch.chdir(tmp_path)
    with Checkpoint(tmp_path / "run.db", {"puzzle": "queens", "n": 8}, [1]) as ckpt:
        ckpt.record(0, 1, 2)
        assert (tmp_path / "run.db-wal").exists() and (tmp_path / "run.db").stat().st_size > 0
        RunOptions(checkpoint=str(tmp_path / "run.db")).check_paths()
