"""Every output path of every command is safe to point anywhere.

The commands and their file options (--checkpoint, --store, --out, --plot, --csv, ...) are
found by walking the registry's click groups, as the fuzz test does, so a new command is
covered as soon as it is registered. Each is given, in a temporary folder:

- a character device (made with mknod, as root only; never the real /dev/null), a FIFO, a
  socket, a folder, and a symbolic link to the device: refused before any work with one
  line and exit 2, and each node left exactly as it was (type, device numbers, inode);
- a symbolic link to a regular file: written through, the link left a link.

Nothing else may appear in the folder (no temporary file, -journal, -wal or -shm).
"""

from __future__ import annotations

import os
import signal
import socket
import stat
from pathlib import Path

import click
import pytest

from conftest import assert_bad_input, run_cli
from puzzlesearch.registry import PUZZLES
from test_fuzz_cli import BASE, load_group

as_root = os.geteuid() == 0

#: options that name a file a command writes
OUTPUT_OPTIONS = ("checkpoint", "store", "out", "plot", "csv")


def output_cases() -> list[tuple[str, str, str, tuple[str, ...]]]:
    """(puzzle, command, option, base argv) for every file option of every command."""
    cases = []
    for puzzle in sorted(PUZZLES):
        group = load_group(puzzle)
        ctx = click.Context(group)
        for name in group.list_commands(ctx):
            cmd = group.get_command(ctx, name)
            base = BASE.get((puzzle, name), {})
            argv: list[str] = [puzzle, name]
            for opt, values in base.items():
                if opt.startswith("-"):
                    argv += [opt, *values]
            if "args" in base:
                argv += ["--", *base["args"]]
            for p in cmd.params:
                if isinstance(p, click.Option) and any(o.lstrip("-") in OUTPUT_OPTIONS for o in p.opts):
                    cases.append((puzzle, name, max(p.opts, key=len), tuple(argv)))
    return cases


CASES = output_cases()


def with_option(argv: tuple[str, ...], option: str, value: str) -> list[str]:
    """The base command line with `option value` placed before any '--'."""
    argv = list(argv)
    at = argv.index("--") if "--" in argv else len(argv)
    return argv[:at] + [option, value] + argv[at:]


def snapshot(folder: Path) -> dict[str, tuple[int, int, int, int]]:
    """Every entry of the folder: (mode, device numbers, inode, link target length)."""
    out = {}
    for entry in folder.iterdir():
        st = entry.lstat()
        link = len(os.readlink(entry)) if entry.is_symlink() else -1
        out[entry.name] = (st.st_mode, st.st_rdev, st.st_ino, link)
    return out


@pytest.fixture
def nodes(tmp_path):
    """A folder holding the things that are not regular files."""
    made = []
    if as_root:
        os.mknod(tmp_path / "device", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        made.append("device")
        (tmp_path / "device-link").symlink_to("device")
        made.append("device-link")
    os.mkfifo(tmp_path / "fifo")
    made.append("fifo")
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp_path / "socket"))
    made.append("socket")
    (tmp_path / "folder").mkdir()
    made.append("folder")
    (tmp_path / "fifo-link").symlink_to("fifo")
    made.append("fifo-link")
    yield tmp_path, made
    server.close()


def _alarm(signum, frame):  # pragma: no cover - only when a command blocks on a FIFO
    raise TimeoutError("the command blocked: it opened a FIFO")


@pytest.mark.parametrize(("puzzle", "command", "option", "argv"), CASES,
                         ids=[f"{p} {c} {o}" for p, c, o, _ in CASES])
def test_an_output_path_that_is_not_a_regular_file_is_refused_and_left_alone(
        puzzle, command, option, argv, nodes, monkeypatch):
    folder, names = nodes
    monkeypatch.chdir(folder)
    monkeypatch.setenv("PUZZLESEARCH_STORE", str(folder / "store-elsewhere" / "r.sqlite"))
    (folder / "store-elsewhere").mkdir()
    before = snapshot(folder)
    old = signal.signal(signal.SIGALRM, _alarm)
    try:
        for name in names:
            signal.alarm(30)
            r = run_cli(*with_option(argv, option, name))
            signal.alarm(0)
            assert_bad_input(r)
            assert any(w in r.err for w in ("not a regular file", "is a folder", "is a directory")), r.err
            assert snapshot(folder) == before, f"{name}: the folder changed"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def test_the_checks_cover_every_kind_of_output():
    options = {o for _, _, o, _ in CASES}
    assert {"--checkpoint", "--store", "--out", "--plot", "--csv"} <= options
    assert len(CASES) >= 15


def test_a_link_to_a_file_is_written_through(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "real.txt").write_text("old\n")
    (tmp_path / "board").symlink_to("real.txt")
    assert run_cli("queens", "solve", "-n", "8", "--out", "plain.txt").code == 0
    r = run_cli("queens", "solve", "-n", "8", "--out", "board")
    assert r.code == 0, r.err
    assert (tmp_path / "board").is_symlink() and os.readlink(tmp_path / "board") == "real.txt"
    assert (tmp_path / "real.txt").read_text() == (tmp_path / "plain.txt").read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board", "plain.txt", "real.txt"]


def test_a_checkpoint_through_a_link_keeps_the_link_and_resumes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").mkdir()
    (tmp_path / "ckpt").symlink_to("runs/pancake.ckpt")  # a link to a file not made yet
    first = run_cli("pancake", "god", "-n", "5", "--checkpoint", "ckpt", "--store", "r.sqlite")
    assert first.code == 0, first.err
    assert (tmp_path / "ckpt").is_symlink() and (tmp_path / "runs" / "pancake.ckpt").stat().st_size > 0
    again = run_cli("hanoi", "verify", "-n", "4", "--checkpoint", "ckpt")
    assert_bad_input(again)
    assert "was made for another search" in again.err
    assert (tmp_path / "ckpt").is_symlink()


def test_a_plot_format_is_checked_before_the_work(tmp_path):
    r = run_cli("shuffle", "god", "-n", "3", "--plot", str(tmp_path / "x.txt"))
    assert_bad_input(r)
    assert "--plot" in r.err and ".png" in r.err
    assert list(tmp_path.iterdir()) == []


def test_a_refused_checkpoint_leaves_no_store_and_no_neighbours(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run_cli("queens", "count", "-n", "8", "--checkpoint", "q8.ckpt").code == 0
    made = sorted(p.name for p in tmp_path.iterdir())
    monkeypatch.setenv("PUZZLESEARCH_STORE", str(tmp_path / "new.sqlite"))
    # another command's checkpoint, another size's checkpoint, a damaged one
    (tmp_path / "damaged.ckpt").write_bytes((tmp_path / "q8.ckpt").read_bytes()[:3000])
    for argv in (("grundy", "survey", "--digits", "1", "--count", "10", "--checkpoint", "q8.ckpt"),
                 ("queens", "count", "-n", "9", "--checkpoint", "q8.ckpt"),
                 ("queens", "count", "-n", "8", "--checkpoint", "damaged.ckpt"),
                 ("pancake", "god", "-n", "5", "--checkpoint", "q8.ckpt")):
        r = run_cli(*argv)
        assert_bad_input(r)
        assert "damaged" not in r.err or "damaged.ckpt" in r.err, r.err
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*made, "damaged.ckpt"]), argv


def test_another_commands_checkpoint_is_named_as_such(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run_cli("pancake", "god", "-n", "5", "--checkpoint", "bfs.ckpt", "--store", "r.sqlite").code == 0
    assert run_cli("queens", "count", "-n", "8", "--checkpoint", "tasks.ckpt").code == 0
    r = run_cli("queens", "count", "-n", "8", "--checkpoint", "bfs.ckpt")
    assert_bad_input(r)
    assert "belongs to a breadth-first search" in r.err
    r = run_cli("shuffle", "god", "-n", "3", "--checkpoint", "tasks.ckpt", "--store", "r.sqlite")
    assert_bad_input(r)
    assert "belongs to another command" in r.err
    (tmp_path / "random.ckpt").write_bytes(os.urandom(200))
    for puzzle in (("pancake", "god", "-n", "5"), ("queens", "count", "-n", "8")):
        r = run_cli(*puzzle, "--checkpoint", "random.ckpt")
        assert_bad_input(r)
        assert "SQLite" not in r.err and "is not a puzzlesearch" in r.err
