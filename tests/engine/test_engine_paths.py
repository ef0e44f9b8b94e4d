"""Output paths checked before the work (engine.paths), and the results store's own checks."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
import tempfile
import textwrap

import pytest

from puzzlesearch.engine.paths import check_writable, show
from puzzlesearch.engine.store import (
    NotSaved,
    ResultsStore,
    check_checkpoint,
    check_store,
    default_store_path,
    saving,
)

as_root = os.geteuid() == 0


def refused(path, what="--out") -> str:
    with pytest.raises(ValueError) as e:
        check_writable(path, what)
    message = str(e.value)
    assert "\n" not in message and message.startswith(what), message
    return message


def test_a_new_file_in_a_folder_is_fine_and_not_created(tmp_path):
    p = tmp_path / "new.png"
    assert check_writable(p, "--plot") == p
    assert check_writable(str(p), "--plot") == p
    assert not p.exists()
    assert list(tmp_path.iterdir()) == []


def test_an_existing_file_is_fine_and_left_as_it_was(tmp_path):
    p = tmp_path / "old.txt"
    p.write_text("keep me")
    before = p.stat()
    check_writable(p, "--out")
    assert p.read_text() == "keep me" and p.stat().st_mtime_ns == before.st_mtime_ns


def test_a_relative_name_in_the_working_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    check_writable("here.sqlite", "--store")
    assert not (tmp_path / "here.sqlite").exists()


def test_missing_folder():
    assert refused("/nonexistent/x.png", "--plot") == (
        "--plot /nonexistent/x.png: the folder /nonexistent does not exist"
    )
    assert not os.path.exists("/nonexistent")


def test_proc_nope():
    assert refused("/proc/nope/x.sqlite", "--store") == (
        "--store /proc/nope/x.sqlite: the folder /proc/nope does not exist"
    )


def test_a_folder_is_not_a_file(tmp_path):
    assert refused(tmp_path, "--checkpoint") == f"--checkpoint {tmp_path} is a folder, not a file"


def test_a_file_as_the_folder(tmp_path):
    f = tmp_path / "plain"
    f.write_text("")
    assert refused(f / "x.png") == f"--out {f / 'x.png'}: {f} is not a folder"


def test_unwritable_places_even_for_root():
    # permission bits say yes to root in /proc and /sys; creating the file says no
    assert "cannot be created" in refused("/proc/x.sqlite")
    assert "cannot be created (Permission denied)" in refused("/sys/x.png")


@pytest.mark.skipif(as_root, reason="root may write anywhere permission bits forbid")
def test_unwritable_folder_and_file(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    ro = tmp_path / "ro.txt"
    ro.write_text("x")
    os.chmod(locked, stat.S_IRUSR | stat.S_IXUSR)
    os.chmod(ro, stat.S_IRUSR)
    try:
        assert "cannot be created (Permission denied)" in refused(locked / "x.png")
        assert "cannot be written (Permission denied)" in refused(ro)
    finally:
        os.chmod(locked, stat.S_IRWXU)
        os.chmod(ro, stat.S_IRUSR | stat.S_IWUSR)


@pytest.mark.skipif(not as_root, reason="drops root to the user nobody")
def test_unwritable_folder_and_file_for_another_user():
    # the same as above, run as nobody in a child: a folder and a file nobody may not write
    with tempfile.TemporaryDirectory() as top:
        os.chmod(top, 0o755)
        locked = os.path.join(top, "locked")
        os.mkdir(locked, 0o755)
        ro = os.path.join(top, "ro.txt")
        with open(ro, "w") as f:
            f.write("x")
        os.chmod(ro, 0o644)
        code = textwrap.dedent(f"""
            import os
            from puzzlesearch.engine.paths import check_writable  # before: nobody cannot read /root
            os.setgid(65534)
            os.setuid(65534)
            for path in ({locked + '/x.png'!r}, {ro!r}):
                try:
                    check_writable(path, "--out")
                    print("accepted", path)
                except ValueError as e:
                    print(e)
        """)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == [
            f"--out {locked}/x.png cannot be created (Permission denied)",
            f"--out {ro} cannot be written (Permission denied)",
        ]
        with open(ro) as f:
            assert f.read() == "x"


def test_names_that_are_no_names(tmp_path):
    assert refused("", "--out") == "--out needs a file name, got an empty one"
    assert "NUL character" in refused("a\0b")
    long = refused(tmp_path / ("x" * 300))
    assert "File name too long" in long and len(long) < 200
    # a newline in the name must not break the one-line message
    assert "'/nonexistent/a\\nb'" in refused("/nonexistent/a\nb/x.png")


def test_show():
    assert show("/tmp/x.png") == "/tmp/x.png"
    assert show("a\nb") == "'a\\nb'"
    assert len(show("y" * 1000)) <= 80


# --- the results store and checkpoints -------------------------------------------------------------


def test_store_in_a_missing_folder_is_refused_not_created():
    with pytest.raises(ValueError, match=r"^--store /nonexistent/dir/r\.sqlite: the folder /nonexistent/dir"):
        ResultsStore("/nonexistent/dir/r.sqlite")
    assert not os.path.exists("/nonexistent")


def test_store_from_the_environment_is_checked(monkeypatch):
    monkeypatch.setenv("PUZZLESEARCH_STORE", "/proc/nope/x.sqlite")
    assert default_store_path() == type(default_store_path())("/proc/nope/x.sqlite")
    for attempt in (check_store, ResultsStore):
        with pytest.raises(ValueError, match=r"^PUZZLESEARCH_STORE /proc/nope/x\.sqlite: the folder /proc/"):
            attempt()


def test_the_default_store_folder_is_made(monkeypatch, tmp_path):
    monkeypatch.delenv("PUZZLESEARCH_STORE")
    monkeypatch.setattr("platformdirs.user_data_dir", lambda name: str(tmp_path / "data" / name))
    path = check_store()
    assert path == tmp_path / "data" / "puzzlesearch" / "results.sqlite"
    assert path.parent.is_dir() and not path.exists()


def test_the_default_store_folder_that_cannot_be_made(monkeypatch):
    monkeypatch.delenv("PUZZLESEARCH_STORE")
    monkeypatch.setattr("platformdirs.user_data_dir", lambda name: "/proc/nope/" + name)
    with pytest.raises(ValueError, match="results store's folder /proc/nope/puzzlesearch cannot be created.*"
                                         "PUZZLESEARCH_STORE or give --store"):
        check_store()


def test_a_text_file_is_not_a_store_nor_a_checkpoint(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("precious\n")
    with pytest.raises(ValueError, match=r"^--store .*notes\.txt is not a puzzlesearch results store"):
        check_store(notes)
    with pytest.raises(ValueError, match=r"^--checkpoint .*notes\.txt is not a puzzlesearch checkpoint$"):
        check_checkpoint(notes)
    with pytest.raises(ValueError, match="not a puzzlesearch results store"):
        ResultsStore(notes)
    assert notes.read_text() == "precious\n"


def test_an_empty_file_is_a_new_store_and_a_new_checkpoint(tmp_path):
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    check_checkpoint(empty)
    with ResultsStore(empty) as s:
        s.put("p", "k", [1], "test")
        assert s.get("p", "k") == [1]


def test_saving_keeps_the_answer_when_the_store_fails(tmp_path):
    answer = {"n": 14, "steps": 104}
    store = tmp_path / "r.sqlite"
    with ResultsStore(store) as s:
        s.put("topswops", "f(13)", 80, "test")
    with saving(answer, "f(14) = 104"):  # nothing fails: nothing raised
        with ResultsStore(store) as s:
            s.put("topswops", "f(14)", 104, "test")

    store.write_text("the store was replaced by a text file during the search")
    with pytest.raises(NotSaved) as e:
        with saving(answer, "f(14) = 104"):
            with ResultsStore(store) as s:
                s.put("topswops", "f(14)", 104, "test")
    assert e.value.result is answer
    assert str(e.value).startswith("f(14) = 104 was computed but not saved: --store ")
    assert "\n" not in str(e.value)
    assert not isinstance(e.value, ValueError)  # clikit must not turn it into "bad input"

    for failure in (OSError(28, "No space left on device"), sqlite3.OperationalError("disk I/O error")):
        with pytest.raises(NotSaved, match="not saved: .*(No space left|disk I/O error)"):
            with saving(answer, "f(14) = 104"):
                raise failure


def test_saving_lets_ctrl_c_through():
    with pytest.raises(KeyboardInterrupt):
        with saving(1, "x"):
            raise KeyboardInterrupt
