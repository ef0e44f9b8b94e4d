"""A full disk is one line naming the file and its device, "no space left on DEVICE for FILE",
and exit 1: for an output file, a checkpoint and the results store.

The command line runs in a child process with one write made to fail with ENOSPC (a
monkeypatch in the child: no disk is filled), so that its exit status and stderr are the
ones a user sees. SQLite's own "database or disk is full" is met for real, by capping the
pages a database may have (``pragma max_page_count``).
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from puzzlesearch.engine.paths import NoSpace, device, no_space, show
from puzzlesearch.engine.store import Checkpoint, NotSaved, ResultsStore, saving

SRC = Path(__file__).resolve().parents[2] / "src"

#: runs the command line with one write failing for want of space: PATCH names what fails
CHILD = """
import errno, sys
import puzzlesearch.engine.paths as paths
import puzzlesearch.engine.store as store

def full(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")

target, name = sys.argv[1].rsplit(".", 1)
setattr({"paths": paths, "store.ResultsStore": store.ResultsStore}[target], name, full)
from puzzlesearch.cli import main
main(sys.argv[2:])
"""


def run_full(tmp_path: Path, patch: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(SRC), "PUZZLESEARCH_STORE": str(tmp_path / "default.store")}
    return subprocess.run([sys.executable, "-c", CHILD, patch, *args], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path, env=env)


def one_line(r: subprocess.CompletedProcess, file: Path) -> str:
    assert r.returncode == 1, r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    assert f"no space left on {device(file)} for {show(file)}" in lines[0], lines[0]
    return lines[0]


def test_an_output_file_on_a_full_disk(tmp_path):
    out = tmp_path / "cube.tws"
    r = run_full(tmp_path, "paths._flush_file", "perm", "convert", "cube2-htm", "--to", "tws",
                 "--out", str(out))
    assert one_line(r, out) == f"puzzlesearch: error: no space left on {device(out)} for {show(out)}"
    assert not out.exists() and list(tmp_path.glob("cube.tws*")) == []  # no temporary file left


def test_a_checkpoint_on_a_full_disk(tmp_path):
    ckpt = tmp_path / "run.ckpt"
    r = run_full(tmp_path, "paths._flush_file", "pancake", "god", "-n", "4", "--checkpoint", str(ckpt))
    one_line(r, ckpt)


def test_the_results_store_on_a_full_disk(tmp_path):
    db = tmp_path / "results.store"
    r = run_full(tmp_path, "store.ResultsStore._put", "topswops", "solve", "-n", "5", "--mode", "backward",
                 "--store", str(db))
    line = one_line(r, db)
    assert line.startswith("puzzlesearch: f(5) = 7 was computed but not saved: no space left on")
    assert r.stdout.startswith("n=5  backward=7")  # the answer is printed all the same


def _cap(db) -> None:
    """No page more than the database has: SQLite then answers SQLITE_FULL, as on a full disk."""
    pages = db.execute("pragma page_count").fetchone()[0]
    db.execute(f"pragma max_page_count = {pages}")


def test_sqlite_full_in_a_checkpoint_is_no_space(tmp_path):
    path = tmp_path / "tasks.ckpt"
    with Checkpoint(path, {"p": 1}, [1, 2]) as ckpt:
        _cap(ckpt._db)
        with pytest.raises(NoSpace) as e:
            ckpt.record(0, 1, "x" * 100_000)
        assert str(e.value) == f"no space left on {device(path)} for {show(path)}"
        assert e.value.errno == errno.ENOSPC
        assert ckpt.done() == {}  # the half-written task was rolled back


def test_sqlite_full_in_the_store_is_no_space(tmp_path):
    path = tmp_path / "results.store"
    with ResultsStore(path) as store:
        store.put("p", "k", 1, "test")
        _cap(store._db)
        with pytest.raises(NotSaved) as e, saving(None, "p(k) = 2"):
            store.put("p", "k2", "x" * 100_000, "test")
        why = f"no space left on {device(path)} for {show(path)}"
        assert str(e.value) == f"p(k) = 2 was computed but not saved: {why}"
        assert isinstance(e.value.__cause__, NoSpace)


def test_other_write_errors_pass_unchanged(tmp_path):
    with pytest.raises(PermissionError), no_space(tmp_path / "f"):
        raise PermissionError(errno.EACCES, "Permission denied")


def test_the_device_is_the_mount_point_with_its_source():
    assert device("/") in ("/",) or device("/").endswith("(mounted on /)")
    assert "mounted on /proc" in device("/proc/self/status") or device("/proc/self/status") == "/proc"


#: runs the command line with SQLite answering "database or disk is full" as a new results
#: store is first written (its journal mode set), as on a disk with no page left
CHILD_NEW_STORE = """
import sqlite3, sys

class Full(sqlite3.Connection):
    def execute(self, sql, *args):
        if sql.startswith("pragma journal_mode"):
            e = sqlite3.OperationalError("database or disk is full")
            e.sqlite_errorcode = sqlite3.SQLITE_FULL
            raise e
        return super().execute(sql, *args)

connect = sqlite3.connect
sqlite3.connect = lambda path, *a, **k: connect(path, *a, **({**k, "factory": Full}
                                                          if str(path).endswith(".store") else k))
from puzzlesearch.cli import main
main(sys.argv[1:])
"""


def test_a_new_results_store_on_a_full_disk(tmp_path):
    db = tmp_path / "results.store"
    env = {**os.environ, "PYTHONPATH": str(SRC), "PUZZLESEARCH_STORE": str(tmp_path / "default.store")}
    # the default mode also keeps what it makes on the way (smaller f, decks, bounds): a full disk
    # skips those and the search goes on to its answer
    r = subprocess.run([sys.executable, "-c", CHILD_NEW_STORE, "topswops", "solve", "-n", "9", "--store",
                        str(db)], capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env)
    line = one_line(r, db)
    assert line.startswith("puzzlesearch: f(9) = 30 was computed but not saved: no space left on")
    assert r.stdout.startswith("n=9  backward=30")
    assert not db.exists()  # the empty file SQLite made is not left behind
