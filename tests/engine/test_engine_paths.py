"""Output paths checked before the work and files written whole (engine.paths), and the results
store's own checks."""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
import subprocess
import sys
import tempfile
import textwrap
import threading
from contextlib import contextmanager

import pytest

from puzzlesearch.engine.paths import check_writable, replacing, show
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


# --- replacing: whole files, written afresh and flushed to the disk ------------------------------------


def leftovers(folder) -> list[str]:
    """The temporary files replacing left in `folder` (none, when it is done)."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def write(path, data: bytes, what="--out"):
    with replacing(path, what) as tmp, open(tmp, "wb") as f:
        f.write(data)


def test_replacing_writes_a_new_file_and_replaces_an_old_one(tmp_path):
    out = tmp_path / "out.txt"
    write(out, b"one")
    assert out.read_bytes() == b"one"
    write(out, b"two")
    assert out.read_bytes() == b"two"
    assert leftovers(tmp_path) == []


def test_replacing_writes_through_a_link(tmp_path):
    real = tmp_path / "real.txt"
    link = tmp_path / "link.txt"
    link.symlink_to(real.name)
    write(link, b"data")
    assert link.is_symlink() and real.read_bytes() == b"data"


def test_a_link_planted_at_the_old_temporary_name_is_not_followed(tmp_path):
    # the name a temporary file once had, .NAME.PID.tmp, could be guessed: a link put there
    # beforehand would have had the output written through it into another file
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    out = tmp_path / "out.txt"
    planted = tmp_path / f".out.txt.{os.getpid()}.tmp"
    planted.symlink_to(victim)
    with replacing(out, "--out") as tmp:
        assert tmp != planted and tmp.parent == tmp_path and not tmp.is_symlink()
        assert tmp.stat().st_size == 0  # a file of its own, new and empty
        with open(tmp, "wb") as f:
            f.write(b"output")
    assert victim.read_bytes() == b"precious"
    assert planted.is_symlink() and os.readlink(planted) == str(victim)
    assert out.read_bytes() == b"output" and not out.is_symlink()


def test_a_name_taken_by_anything_is_never_opened(tmp_path, monkeypatch):
    # even a link at a name drawn at random is not written through: the next name is drawn
    import puzzlesearch.engine.paths as paths

    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    (tmp_path / ".out.txt.aaaa.tmp").symlink_to(victim)
    (tmp_path / ".out.txt.bbbb.tmp").symlink_to(tmp_path / "dangling")
    names = iter(["aaaa", "bbbb", "cccc"])
    monkeypatch.setattr(paths.secrets, "token_hex", lambda nbytes: next(names))
    with replacing(tmp_path / "out.txt") as tmp:
        assert tmp.name == ".out.txt.cccc.tmp"
        tmp.write_bytes(b"output")
    assert victim.read_bytes() == b"precious" and not (tmp_path / "dangling").exists()
    assert (tmp_path / "out.txt").read_bytes() == b"output"


def test_each_call_has_its_own_temporary_file(tmp_path):
    out = tmp_path / "out.txt"
    with replacing(out) as first, replacing(out) as second:
        assert first != second and first.exists() and second.exists()
        first.write_bytes(b"first")
        second.write_bytes(b"second")
    assert out.read_bytes() == b"first"  # the inner block ends first; the outer is renamed last
    assert leftovers(tmp_path) == []


def test_two_threads_replacing_one_file_at_once(tmp_path):
    out = tmp_path / "out.bin"
    out.write_bytes(b"old")
    contents = {name: name.encode() * 100_000 for name in ("a", "b")}
    both_writing = threading.Barrier(2, timeout=30)
    temporaries, errors = {}, []

    def writer(name):
        try:
            with replacing(out, "--out") as tmp, open(tmp, "wb") as f:
                temporaries[name] = tmp
                data = contents[name]
                for start in range(0, len(data), 4096):
                    f.write(data[start:start + 4096])
                    if start == 4096:
                        both_writing.wait()  # each half-way through its own file
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=writer, args=(name,)) for name in contents]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    assert temporaries["a"] != temporaries["b"]
    assert out.read_bytes() in contents.values()
    assert leftovers(tmp_path) == []


def test_the_file_is_flushed_before_the_rename_and_the_folder_after(tmp_path, monkeypatch):
    events = []
    fsync, replace = os.fsync, os.replace

    def recording_fsync(fd):
        st = os.fstat(fd)
        events.append(("fsync", "folder" if stat.S_ISDIR(st.st_mode) else "file", (st.st_dev, st.st_ino)))
        fsync(fd)

    def recording_replace(src, dst):
        events.append(("replace", str(src), str(dst)))
        replace(src, dst)

    monkeypatch.setattr(os, "fsync", recording_fsync)
    monkeypatch.setattr(os, "replace", recording_replace)
    out = tmp_path / "out.txt"
    folder = os.stat(tmp_path)
    for data in (b"new file", b"replaced"):
        events.clear()
        with replacing(out) as tmp, open(tmp, "wb") as f:  # closed before the flush
            f.write(data)
        written = os.stat(out)
        assert events == [
            ("fsync", "file", (written.st_dev, written.st_ino)),
            ("replace", str(tmp), str(out)),
            ("fsync", "folder", (folder.st_dev, folder.st_ino)),
        ]
        assert out.read_bytes() == data


def test_a_file_put_in_place_of_the_temporary_one_is_flushed_too(tmp_path, monkeypatch):
    # what queens.aot does with the kernels numba compiled: renames them over the temporary file
    flushed = []
    fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (flushed.append(os.fstat(fd).st_ino), fsync(fd))[1])
    built = tmp_path / "built.so"
    built.write_bytes(b"\x7fELF")
    built.chmod(0o755)
    ino = built.stat().st_ino
    out = tmp_path / "kernels.so"
    with replacing(out, "the compiled kernels") as tmp:
        os.replace(built, tmp)
    assert out.read_bytes() == b"\x7fELF" and out.stat().st_ino == ino
    assert stat.S_IMODE(out.stat().st_mode) == 0o755  # a new target: the bits of the file put there
    assert ino in flushed
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("code", [errno.EINVAL, errno.EBADF, errno.ENOTSUP])
def test_a_folder_that_cannot_be_flushed_is_no_error(tmp_path, monkeypatch, code):
    fsync = os.fsync

    def no_folders(fd):
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise OSError(code, os.strerror(code))
        fsync(fd)

    monkeypatch.setattr(os, "fsync", no_folders)
    write(tmp_path / "out.txt", b"data")
    assert (tmp_path / "out.txt").read_bytes() == b"data"


def test_a_failed_flush_leaves_the_old_file(tmp_path, monkeypatch):
    out = tmp_path / "out.txt"
    out.write_bytes(b"old")

    def failing(fd):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing)
    with pytest.raises(OSError, match="Input/output error"):
        write(out, b"new")
    assert out.read_bytes() == b"old"
    assert leftovers(tmp_path) == []


def test_an_error_in_the_block_removes_the_temporary_file(tmp_path):
    out = tmp_path / "out.txt"
    out.write_bytes(b"old")
    for error in (RuntimeError("boom"), KeyboardInterrupt()):
        with pytest.raises(type(error)):
            with replacing(out) as tmp:
                tmp.write_bytes(b"half")
                raise error
        assert out.read_bytes() == b"old"
        assert leftovers(tmp_path) == []


def test_a_target_that_became_a_fifo_is_left_as_it_is(tmp_path):
    out = tmp_path / "out"
    with pytest.raises(ValueError, match=r"^--checkpoint .*out is a FIFO \(named pipe\) now"):
        with replacing(out, "--checkpoint") as tmp:
            tmp.write_bytes(b"data")
            os.mkfifo(out)
    assert stat.S_ISFIFO(os.stat(out).st_mode)
    assert leftovers(tmp_path) == []


@contextmanager
def umask(mask: int):
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600), (0o000, 0o666)],
                         ids=oct)
def test_a_new_file_has_the_bits_open_gives(tmp_path, mask, mode):
    out = tmp_path / "out.txt"
    with umask(mask):
        write(out, b"data")
        with open(tmp_path / "by-open.txt", "wb"):
            pass
    assert stat.S_IMODE(out.stat().st_mode) == mode
    assert stat.S_IMODE((tmp_path / "by-open.txt").stat().st_mode) == mode


def test_a_umask_that_forbids_writing_still_lets_the_file_be_written():
    # open() may write a file it creates read-only; so may the block write its temporary
    # file. Run in a child, as the user nobody when we are root (root writes any file).
    with tempfile.TemporaryDirectory() as top:
        os.chmod(top, 0o777)
        code = textwrap.dedent(f"""
            import os
            from puzzlesearch.engine.paths import replacing
            if os.geteuid() == 0:
                os.setgid(65534)
                os.setuid(65534)
            os.umask(0o222)
            out = os.path.join({top!r}, "out.txt")
            with replacing(out, "--out") as tmp, open(tmp, "wb") as f:
                f.write(b"data")
            print(oct(os.stat(out).st_mode & 0o777), open(out, "rb").read())
        """)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == ["0o444", "b'data'"]
        assert [name for name in os.listdir(top) if name.endswith(".tmp")] == []


def test_an_old_file_keeps_its_bits(tmp_path):
    out = tmp_path / "out.txt"
    out.write_bytes(b"old")
    for mode in (0o600, 0o640, 0o755, 0o444):
        out.chmod(mode)
        with umask(0o022):
            write(out, b"new")
        assert stat.S_IMODE(out.stat().st_mode) == mode and out.read_bytes() == b"new"


def test_a_long_name_gets_a_shorter_temporary_name(tmp_path):
    out = tmp_path / ("é" * 120 + ".txt")  # 244 bytes: the name, dots and random part would not fit
    write(out, b"data")
    assert out.read_bytes() == b"data"
    assert leftovers(tmp_path) == []
