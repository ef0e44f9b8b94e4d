"""Every output path of every command is safe to point anywhere.

The commands and the options that name a file they write are found by walking the
`puzzlesearch` click group (each registered puzzle's group, each of its commands): an
option is an output file by its type (click.Path, click.File), its metavar (FILE..., PATH)
or its name (--checkpoint, --store, --out, --csv, --plot, --values, ...), so a new output
option is covered as soon as it is declared. RUNNABLE holds only what makes each command
that writes a file runnable (the values of its required parameters, small sizes); a
command missing from it fails. Each option is given, in a temporary folder:

- a character device (made with mknod, as root only; never the real /dev/null), a FIFO, a
  socket, a folder, and a symbolic link to the device: refused before any work with one
  line and exit 2, and each node left exactly as it was (type, device numbers, inode);
- a symbolic link to a regular file: written through, the link left a link.

Nothing else may appear in the folder (no temporary file, -journal, -wal or -shm).
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import sqlite3
import stat
import threading
from pathlib import Path

import click
import pytest

from conftest import assert_bad_input, run_cli
from puzzlesearch.cli import cli
from puzzlesearch.engine import layers
from puzzlesearch.engine import run as engine_run
from puzzlesearch.engine.layers_common import read_header

as_root = os.geteuid() == 0

#: what makes each command that writes a file runnable, as a command line after PUZZLE COMMAND;
#: its arguments after "--" (each output option is placed before it)
RUNNABLE: dict[tuple[str, str], tuple[str, ...]] = {
    ("grundy", "grundys"): ("-n", "50"),
    ("grundy", "octal"): ("-n", "50", "--", "0.77"),
    ("grundy", "survey"): ("--digits", "1", "--count", "10"),
    ("hanoi", "verify"): ("-n", "3"),
    ("pancake", "god"): ("-n", "5"),
    ("perm", "convert"): ("--to", "toml", "--", "pancakes-8"),
    ("perm", "god"): ("--", "pancakes-8"),
    ("perm", "info"): ("--", "pancakes-8"),
    ("perm", "solve"): ("--scramble", "3 2", "--", "pancakes-8"),
    ("queens", "count"): ("-n", "6"),
    ("queens", "show"): ("-n", "6"),
    ("queens", "solve"): ("-n", "6"),
    ("shuffle", "god"): ("-n", "3"),
    ("topswops", "estimate"): ("-n", "5", "--probes", "100"),
    ("topswops", "optimal"): ("-n", "5"),
    ("topswops", "play"): ("--", "3", "1", "2"),
    ("topswops", "solve"): ("-n", "5"),
}

#: words that make an option an output file by its name (one word of its option string)
FILE_WORDS = {"checkpoint", "store", "out", "output", "csv", "plot", "png", "svg", "pdf", "file", "path",
              "values", "save", "dump", "export", "log"}


def names_a_file(param: click.Parameter) -> bool:
    """Whether an option names a file: its type, its metavar or a word of its name says so."""
    if not isinstance(param, click.Option):
        return False
    if isinstance(param.type, (click.Path, click.File)):
        return True
    if param.is_flag or param.count:
        return False
    if re.search(r"FILE|PATH", param.metavar or ""):
        return True
    words = {w for opt in param.opts for w in re.split(r"[-_]+", opt.lstrip("-").lower())}
    return bool(words & FILE_WORDS)


def commands(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], click.Command]]:
    """Every command under a click group, with the words that call it."""
    ctx = click.Context(group)
    found = []
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        if isinstance(cmd, click.Group):
            found += commands(cmd, (*path, name))
        elif cmd is not None:
            found.append(((*path, name), cmd))
    return found


def output_cases() -> list[tuple[tuple[str, ...], str]]:
    """(command words, option) for every option of every command that names a file."""
    return [(words, max(p.opts, key=len))
            for words, cmd in commands(cli) for p in cmd.params if names_a_file(p)]


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


def base_argv(words: tuple[str, ...]) -> tuple[str, ...]:
    """The command line that runs a command, from RUNNABLE; a command missing there fails."""
    if words not in RUNNABLE:
        pytest.fail(f"`puzzlesearch {' '.join(words)}` writes a file: give RUNNABLE the values that run it")
    return (*words, *RUNNABLE[words])


@pytest.mark.parametrize(("words", "option"), CASES, ids=[f"{' '.join(w)} {o}" for w, o in CASES])
def test_an_output_path_that_is_not_a_regular_file_is_refused_and_left_alone(words, option, nodes,
                                                                               monkeypatch):
    argv = base_argv(words)
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


@pytest.mark.parametrize("words", sorted(RUNNABLE), ids=" ".join)
def test_each_command_runs_with_its_output_files_in_a_folder(words, tmp_path, monkeypatch):
    # what the refusals above are measured against: the same command line, every output
    # option at a regular file, runs
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PUZZLESEARCH_STORE", str(tmp_path / "r.sqlite"))
    argv = base_argv(words)
    for option in sorted({o for w, o in CASES if w == words}):
        name = "out-" + option.lstrip("-")
        argv = tuple(with_option(argv, option, f"{name}.png" if option == "--plot" else name))
    r = run_cli(*argv)
    assert r.code == 0, (argv, r.err)


def test_every_command_that_writes_a_file_is_runnable_and_nothing_else_is_listed():
    writers = {w for w, _ in CASES}
    assert writers, "no command has an output option: the walk of the click group found none"
    assert writers == set(RUNNABLE), (f"missing from RUNNABLE: {sorted(writers - set(RUNNABLE))}; "
                                      f"in RUNNABLE but writing no file: {sorted(set(RUNNABLE) - writers)}")


def test_an_output_option_is_known_by_its_type_its_metavar_or_its_name():
    @click.command()
    @click.option("--values", type=click.Path(dir_okay=False))
    @click.option("--table-to", type=click.File("w"))
    @click.option("--svg", metavar="FILE.svg")
    @click.option("--export-csv")
    @click.option("--count", type=int)
    @click.option("--show", type=int, metavar="N")
    @click.option("--csv", "as_csv", is_flag=True)
    @click.option("--from", "start", metavar="POSITION")
    @click.argument("puzzle")
    def command(**kwargs):
        pass

    assert {p.opts[0] for p in command.params if names_a_file(p)} == {"--values", "--table-to", "--svg",
                                                                    "--export-csv"}


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


def kernels_finished() -> None:
    """Wait for the kernel threads of the last call to end, so that an interrupt raised now
    leaves the command line by SystemExit (clikit.exit_interrupted leaves a process with a
    kernel still running by os._exit, which would end the test session)."""
    for t in threading.enumerate():
        if t.name == "puzzlesearch-kernel":
            t.join(30)


def layer_passes(mp: pytest.MonkeyPatch, interrupt_at: int | None = None) -> list[str]:
    """The layer passes of the breadth-first engine from now on, one entry each; with
    `interrupt_at`, Ctrl-C instead of the pass after that many."""
    passes: list[str] = []
    for name in ("_push", "_pull"):
        real = getattr(layers, name)

        def counted(*args, real=real, name=name):
            if len(passes) == interrupt_at:
                kernels_finished()
                raise KeyboardInterrupt
            passes.append(name)
            return real(*args)

        mp.setattr(layers, name, counted)
    return passes


def engine_tasks(mp: pytest.MonkeyPatch, interrupt_after: int | None = None) -> dict[str, list[int]]:
    """The tasks each run of the task engine restores from its checkpoint and those it runs,
    from now on; with `interrupt_after`, Ctrl-C once that many have run and been committed."""
    seen: dict[str, list[int]] = {"restored": [], "ran": []}
    init, accept, settle = engine_run._Run.__init__, engine_run._Run.accept, engine_run._Run.settle

    def counted_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        seen["restored"] += [i for i, have in enumerate(self.have) if have]

    def counted_accept(self, i, result):
        seen["ran"].append(i)
        return accept(self, i, result)

    def settled(self, i, seconds):
        settle(self, i, seconds)
        if len(seen["ran"]) == interrupt_after:
            kernels_finished()
            raise KeyboardInterrupt

    mp.setattr(engine_run._Run, "__init__", counted_init)
    mp.setattr(engine_run._Run, "accept", counted_accept)
    mp.setattr(engine_run._Run, "settle", settled)
    return seen


def layers_kept(path: Path) -> tuple[int, bool]:
    """A breadth-first checkpoint's last finished layer, and whether the search is complete."""
    head = json.loads(read_header(path)[0])
    return len(head["histogram"]) - 1, head["done"]


def tasks_kept(path: Path) -> tuple[int, list[int]]:
    """A task checkpoint's task count and the indices of its finished tasks. Read as an
    immutable file when no -wal is beside it: a read-only connection would leave one."""
    immutable = "" if Path(f"{path}-wal").exists() else "&immutable=1"
    db = sqlite3.connect(f"file:{path}?mode=ro{immutable}", uri=True)
    try:
        ntasks = int(db.execute("select value from meta where key = 'ntasks'").fetchone()[0])
        return ntasks, [i for (i,) in db.execute("select idx from done order by idx")]
    finally:
        db.close()


RESUME = "puzzlesearch: interrupted; run the same command again with --checkpoint ckpt to resume\n"


def test_a_layered_checkpoint_through_a_link_keeps_the_link_and_resumes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").mkdir()
    (tmp_path / "ckpt").symlink_to("runs/pancake.ckpt")  # a link to a file not made yet
    argv = ("pancake", "god", "-n", "8", "--json", "--checkpoint", "ckpt", "--store", "r.sqlite")
    with monkeypatch.context() as mp:
        layer_passes(mp, interrupt_at=4)
        stopped = run_cli(*argv)
    assert (stopped.code, stopped.out, stopped.err) == (130, "", RESUME)
    assert os.readlink(tmp_path / "ckpt") == "runs/pancake.ckpt"
    assert layers_kept(tmp_path / "runs" / "pancake.ckpt") == (4, False)

    with monkeypatch.context() as mp:
        passes = layer_passes(mp)
        again = run_cli(*argv)
    assert again.code == 0, again.err
    census = again.json()
    plain = run_cli("pancake", "god", "-n", "8", "--json", "--store", "plain.sqlite").json()
    assert census["resumed_at"] == 4 and census["source"] == "run"
    assert len(passes) == census["diameter"] + 1 - 4  # each layer after the 4th, and the last, empty, pass
    assert (census["histogram"], census["farthest"]) == (plain["histogram"], plain["farthest"])
    assert os.readlink(tmp_path / "ckpt") == "runs/pancake.ckpt"
    assert layers_kept(tmp_path / "runs" / "pancake.ckpt") == (census["diameter"], True)
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == ["pancake.ckpt"]

    other = run_cli("hanoi", "verify", "-n", "4", "--checkpoint", "ckpt")
    assert_bad_input(other)
    assert "was made for another search" in other.err
    assert (tmp_path / "ckpt").is_symlink()


def test_a_task_checkpoint_through_a_link_keeps_the_link_and_resumes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").mkdir()
    (tmp_path / "ckpt").symlink_to("runs/queens.ckpt")
    argv = ("queens", "count", "-n", "13", "--workers", "1", "--checkpoint", "ckpt")
    with monkeypatch.context() as mp:
        engine_tasks(mp, interrupt_after=30)
        stopped = run_cli(*argv)
    assert (stopped.code, stopped.out, stopped.err) == (130, "", RESUME)
    assert os.readlink(tmp_path / "ckpt") == "runs/queens.ckpt"
    ntasks, kept = tasks_kept(tmp_path / "runs" / "queens.ckpt")
    assert len(kept) == 30 < ntasks

    with monkeypatch.context() as mp:
        seen = engine_tasks(mp)
        again = run_cli(*argv)
    assert (again.code, again.out) == (0, "n=13  solutions=73712  unique=9233\n"), again.err
    assert sorted(seen["restored"]) == kept
    assert sorted(seen["ran"]) == sorted(set(range(ntasks)) - set(kept))
    assert os.readlink(tmp_path / "ckpt") == "runs/queens.ckpt"
    assert tasks_kept(tmp_path / "runs" / "queens.ckpt") == (ntasks, list(range(ntasks)))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ckpt", "runs"]
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == ["queens.ckpt"]


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
    assert "belongs to a breadth-first search (pancake god, shuffle god, hanoi verify, perm god)" in r.err
    r = run_cli("shuffle", "god", "-n", "3", "--checkpoint", "tasks.ckpt", "--store", "r.sqlite")
    assert_bad_input(r)
    assert "belongs to another command" in r.err
    r = run_cli("perm", "god", "pyraminx", "--checkpoint", "tasks.ckpt", "--store", "r.sqlite")
    assert_bad_input(r)
    assert r.err.endswith("(pancake god, shuffle god, hanoi verify, perm god)\n"), r.err
    (tmp_path / "random.ckpt").write_bytes(os.urandom(200))
    for puzzle in (("pancake", "god", "-n", "5"), ("queens", "count", "-n", "8")):
        r = run_cli(*puzzle, "--checkpoint", "random.ckpt")
        assert_bad_input(r)
        assert "SQLite" not in r.err and "is not a puzzlesearch" in r.err
