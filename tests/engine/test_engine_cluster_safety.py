"""A --scheduler where no Dask scheduler answers, and Ctrl-C on a cluster run.

Servers of other kinds on loopback (HTTP servers, one that accepts and never answers, one
whose first bytes claim a message of exabytes, a Dask worker, a dashboard) are refused before the
work: one line, exit 2, no traceback, within 15 s, and nothing the foreign bytes suggest
is allocated. A Dask scheduler is accepted.

Ctrl-C on a cluster run, each command in its own process and process group as a user
runs it: exit 130, exactly one line, no traceback and none of asyncio's "Task exception
was never retrieved", no temporary folder left in the current directory; a checkpoint's
``.parts`` folder stays and the run resumes from it. A Ctrl-C while the client or the
temporary folder is being made still leaves nothing behind.
"""

from __future__ import annotations

import http.server
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from conftest import assert_bad_input, run_cli
from dask_processes import ProcessCluster
from puzzlesearch.engine import layers, layers_dask
from puzzlesearch.engine import run as engine_run
from puzzlesearch.engine._selftest import derangement_tasks, derangements
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.run import run_tasks
from puzzlesearch.engine.scheduler import GREETING_SECONDS, check_scheduler
from puzzlesearch.shuffle import fullbfs
from test_interrupts import done_tasks, finish

distributed = pytest.importorskip("distributed")

#: the longest a refusal may take, from the command's start (the target: 15 s)
REFUSED_WITHIN = 15.0
#: seconds from Ctrl-C to the end of the process (as tests/test_interrupts.py)
STOP = 3.0
#: the one line of an interrupted run, without and with a checkpoint (clikit.exit_interrupted)
NO_CHECKPOINT = "puzzlesearch: interrupted; give --checkpoint FILE to make a long run resumable"
RESUME = "puzzlesearch: interrupted; run the same command again with --checkpoint {} to resume"


# --- servers that are not a Dask scheduler ------------------------------------------------------------


@contextmanager
def serving(reply: Callable[..., None], numbered: bool = False) -> Iterator[str]:
    """A loopback server that hands each connection to ``reply`` (with ``numbered``, also
    its number in the order they came: 0, 1, ...); yields its tcp:// address."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:  # the server was closed
                return
            held.append(conn)
            args = (conn, len(held) - 1) if numbered else (conn,)
            threading.Thread(target=reply, args=args, daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        server.close()
        for conn in held:
            conn.close()


def answer_400(conn: socket.socket) -> None:
    """An HTTP server: reads what arrives, answers 400 and closes."""
    try:
        conn.recv(4096)
        conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        conn.close()
    except OSError:
        pass


def silent(conn: socket.socket) -> None:
    """Accepts and never answers (the connection stays open until the test ends)."""


def huge(conn: socket.socket) -> None:
    """Eight bytes that, read as distributed's frame length, ask for 4 EiB; then nothing."""
    try:
        conn.sendall(struct.pack("=Q", 1 << 62))
    except OSError:
        pass


class QuietHandler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args) -> None:  # the server's log is not the command's stderr
        pass


def closed_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"tcp://127.0.0.1:{s.getsockname()[1]}"


@contextmanager
def foreign(kind: str) -> Iterator[str]:
    if kind == "closed port":
        yield closed_port()
        return
    if kind == "http.server":  # Python's own, which waits for the end of a request's head
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), QuietHandler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            yield f"tcp://127.0.0.1:{server.server_address[1]}"
        finally:
            server.shutdown()
            server.server_close()
        return
    replies = {"HTTP server": answer_400, "silent server": silent, "exabyte length": huge}
    with serving(replies[kind]) as address:
        yield address


WHY = {
    "HTTP server": "an HTTP server answers there",
    "http.server": "an HTTP server answers there",
    "silent server": f"nothing answered within {GREETING_SECONDS:g} s",
    "exabyte length": "what answers there is not Dask",
    "closed port": "Connection refused",
}


@pytest.mark.parametrize("kind", [pytest.param(k, marks=pytest.mark.slow) if k == "silent server" else k
                                  for k in WHY])
def test_a_foreign_server_is_one_line_and_exit_2_before_the_work(kind):
    with foreign(kind) as address:
        t0 = time.monotonic()
        r = run_cli("pancake", "god", "-n", "5", "--scheduler", address)
        took = time.monotonic() - t0
    assert_bad_input(r)
    assert r.err == f"puzzlesearch: error: no Dask scheduler answers at {address} ({WHY[kind]})\n"
    assert took < REFUSED_WITHIN
    if kind != "silent server":  # at once: well before the greeting's time runs out
        assert took < 0.8 * GREETING_SECONDS, f"{kind}: refused after {took:.1f} s, not at once"


@pytest.mark.parametrize("kind", ["HTTP server", "exabyte length"])
def test_the_engine_refuses_a_foreign_server_itself(kind):
    # the library's entry points check as the command line does: the tasks engine and the
    # breadth-first search on a cluster, and nothing of the foreign bytes is allocated
    with foreign(kind) as address:
        message = f"^no Dask scheduler answers at {address} \\({WHY[kind]}\\)$"
        with pytest.raises(ValueError, match=message):
            run_tasks(derangements, derangement_tasks(5, 4), options=RunOptions(scheduler=address))
        with pytest.raises(ValueError, match=message):
            layers.search(fullbfs.burnt_space(4), run=RunOptions(scheduler=address))
        tracemalloc.start()
        try:
            with pytest.raises(ValueError, match=message):
                check_scheduler(address)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert peak < 1 << 20


def test_an_ssh_server_is_named_by_what_it_says():
    def ssh(conn: socket.socket) -> None:
        conn.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")

    with serving(ssh) as address, pytest.raises(ValueError) as refused:
        check_scheduler(address)
    assert str(refused.value) == (f"no Dask scheduler answers at {address} "
                                  "(what answers there is not Dask: it sent 'SSH-2.0-OpenSSH_9.6')")


@pytest.mark.slow
def test_a_worker_or_a_dashboard_is_not_the_scheduler_and_a_scheduler_is_accepted(dask_cluster):
    check_scheduler(dask_cluster)
    with distributed.Client(dask_cluster, set_as_default=False) as client:
        worker = next(iter(client.scheduler_info()["workers"]))
        if client.dashboard_link:  # the port a user may mistake for the scheduler's
            dashboard = "tcp://" + client.dashboard_link.split("://", 1)[1].split("/", 1)[0]
            with pytest.raises(ValueError, match=r"\(an HTTP server answers there\)$"):
                check_scheduler(dashboard)
        t0 = time.monotonic()
        with pytest.raises(ValueError, match=rf"^no Dask scheduler answers at {worker} "
                                             r"\(a Dask worker or nanny answers there, not the scheduler\)$"):
            check_scheduler(worker)
        assert time.monotonic() - t0 < 2


def test_tls_is_checked_for_a_listener_only():
    # the greeting inside TLS needs the cluster's certificates: the Client checks it
    with serving(silent) as address:
        check_scheduler(address.replace("tcp://", "tls://"))
    with pytest.raises(ValueError, match="Connection refused"):
        check_scheduler(closed_port().replace("tcp://", "tls://"))


# --- Ctrl-C on a cluster run ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster(tmp_path_factory) -> Iterator[str]:
    """A cluster of its own for the commands interrupted in their own processes: what their
    cancelled tasks still do on its worker stays off the cluster the other tests share."""
    c = ProcessCluster(tmp_path_factory.mktemp("interrupted"), workers=1, threads=2)
    try:
        yield c.address
    finally:
        c.close()


@pytest.fixture
def ctrl_c_works(monkeypatch):
    """Ctrl-C raises KeyboardInterrupt here and in the children, also when the tests run as
    a background job of a non-interactive shell, which starts them with SIGINT ignored (a
    child would inherit that through exec)."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        yield
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    else:
        yield


def start(args: tuple[str, ...], cwd: Path) -> subprocess.Popen:
    """The command as a user runs it, in its own process group and with its own results
    store (an answer stored by an earlier test would end the run before the signal)."""
    env = {**os.environ, "PUZZLESEARCH_STORE": str(cwd / "results.sqlite")}
    return subprocess.Popen([sys.executable, "-m", "puzzlesearch", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def interrupt_when(args: tuple[str, ...], cwd: Path, ready: Callable[[], bool], settle: float = 0.3
                   ) -> tuple[int | None, str, float]:
    """Start the command, wait until ``ready()`` (the run is under way on the cluster) and
    ``settle`` seconds more, then Ctrl-C its process group; its exit status, stderr and the
    seconds it took to stop."""
    proc = start(args, cwd)
    t0 = time.monotonic()
    while not ready() and proc.poll() is None and time.monotonic() - t0 < 60:
        time.sleep(0.02)
    time.sleep(settle)
    assert proc.poll() is None, f"puzzlesearch {' '.join(args)} ended before the signal: {finish(proc, 5)}"
    sent = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    code, _, err = finish(proc, 30)
    return code, err, time.monotonic() - sent


def temporary_folders(cwd: Path) -> list[Path]:
    return sorted(cwd.glob("puzzlesearch-layers-*"))


def assert_one_line(code: int | None, err: str, took: float, line: str) -> None:
    assert code == 130, f"exit {code}, stderr:\n{err}"
    for noise in ("Traceback", "Task exception", "AllExit", "distributed."):
        assert noise not in err, err
    assert err.splitlines() == [line], err
    assert took < STOP, f"took {took:.1f} s to stop"


@pytest.mark.slow
def test_ctrl_c_on_a_cluster_search_leaves_one_line_and_no_folder(cluster, tmp_path, ctrl_c_works):
    args = ("hanoi", "verify", "-n", "13", "--scheduler", cluster)
    code, err, took = interrupt_when(args, tmp_path, lambda: bool(temporary_folders(tmp_path)))
    assert_one_line(code, err, took, NO_CHECKPOINT)
    assert temporary_folders(tmp_path) == []
    time.sleep(0.5)  # a task still running on the worker writes into the folder, never makes it again
    assert temporary_folders(tmp_path) == []


@pytest.mark.slow
def test_ctrl_c_on_a_cluster_search_keeps_its_checkpoint(cluster, tmp_path, ctrl_c_works):
    ckpt = tmp_path / "god.ckpt"
    # about 1.5 s of work on this cluster after the first layer's checkpoint
    args = ("pancake", "god", "-n", "9", "--scheduler", cluster, "--checkpoint", str(ckpt))
    code, err, took = interrupt_when(args, tmp_path, ckpt.exists, settle=0.1)
    assert_one_line(code, err, took, RESUME.format(ckpt))
    assert (tmp_path / "god.ckpt.parts").is_dir() and temporary_folders(tmp_path) == []
    code, out, err = finish(start(args, tmp_path), 120)
    assert code == 0, err
    assert out.startswith("pancakes n=9: 362,880 stacks reachable (all 9!), diameter 10\n"), out


@pytest.mark.slow
def test_ctrl_c_on_cluster_tasks_leaves_one_line(cluster, tmp_path, ctrl_c_works):
    ckpt = tmp_path / "forward.ckpt"
    args = ("topswops", "solve", "-n", "13", "--mode", "forward", "--scheduler", cluster,
            "--checkpoint", str(ckpt))
    code, err, took = interrupt_when(args, tmp_path, lambda: done_tasks(ckpt) > 0)
    assert_one_line(code, err, took, RESUME.format(ckpt))
    assert done_tasks(ckpt) > 0


def ctrl_c_now() -> None:
    os.kill(os.getpid(), signal.SIGINT)


@pytest.mark.slow
def test_ctrl_c_while_the_client_is_made_closes_it(dask_cluster, monkeypatch, ctrl_c_works):
    made = []
    real = distributed.Client

    def client_amid_ctrl_c(*args, **kwargs):
        ctrl_c_now()
        made.append(real(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(distributed, "Client", client_amid_ctrl_c)
    with pytest.raises(KeyboardInterrupt), engine_run.dask_client(dask_cluster):
        pytest.fail("the run went on after Ctrl-C")
    assert [c.status for c in made] == ["closed"]


def test_ctrl_c_while_the_temporary_folder_is_made_removes_it(dask_cluster, tmp_path, monkeypatch,
                                                              ctrl_c_works):
    monkeypatch.chdir(tmp_path)
    make = layers_dask._make_folder

    def make_amid_ctrl_c(folder: Path) -> bool:
        made = make(folder)
        ctrl_c_now()
        return made

    monkeypatch.setattr(layers_dask, "_make_folder", make_amid_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        layers.search(fullbfs.burnt_space(5), run=RunOptions(scheduler=dask_cluster))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_a_current_folder_the_run_cannot_write_is_one_line(dask_cluster, tmp_path, monkeypatch):
    if os.geteuid() != 0:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        monkeypatch.chdir(locked)
    elif os.path.isdir("/proc/self"):  # root may write anywhere but in /proc
        monkeypatch.chdir("/proc")
    else:
        pytest.skip("no folder this user cannot write")
    with pytest.raises(ValueError, match=r"^the cluster's partitions need a folder the workers share, made "
                                         r"in the current folder, but .* cannot be made \(.+\); run from "
                                         r"a writable shared folder, or give --checkpoint FILE$"):
        layers.search(fullbfs.burnt_space(5), run=RunOptions(scheduler=dask_cluster))
