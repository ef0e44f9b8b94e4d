"""The scheduler check held to the distributed this project installs.

engine.scheduler speaks the start of distributed's TCP protocol by hand. These tests pin
that speech to the installed distributed, so that an upgrade which changes it fails here
rather than in a user's run: its framing is distributed's own encoder's, byte for byte;
its handshake has the keys distributed's own connect sends; a real `dask scheduler`,
started as a user starts one, is accepted at once, and a real `dask worker` and its nanny
are refused in one line, all by the check's own reading, without asking distributed's
comm again. A peer that speaks Dask's framing but answers what the check does not expect
is not refused: distributed's comm asks it, and the Client has the last word.
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import signal
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from test_engine_cluster_safety import serving as serving_each

from conftest import assert_bad_input, run_cli
from puzzlesearch.engine import scheduler
from puzzlesearch.engine.scheduler import (
    CONFIRM_SECONDS,
    GREETING_SECONDS,
    NOT_THE_SCHEDULER,
    WORDLESS,
    check_scheduler,
)

distributed = pytest.importorskip("distributed")

#: the script a user runs, installed beside this Python
DASK = str(Path(sys.executable).with_name("dask"))
#: seconds a process of the cluster has to come up
START = 60.0
#: the longest the check may take on a peer that answers at once: well before a timeout runs out
AT_ONCE = 0.8 * GREETING_SECONDS


# --- a real cluster, started as a user starts it -----------------------------------------------------


def stop(process: subprocess.Popen) -> None:
    """SIGTERM, as a user's Ctrl-C or a job system does; then SIGKILL for the whole group."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(process.pid, signal.SIGKILL)  # a nanny's worker, if it outlived it
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()


def started(args: list[str], log: Path) -> subprocess.Popen:
    with log.open("wb") as out:
        return subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True)


@pytest.fixture(scope="module")
def dask_scheduler(tmp_path_factory) -> Iterator[tuple[str, Path]]:
    """A `dask scheduler` process: its address and its scheduler file."""
    folder = tmp_path_factory.mktemp("scheduler")
    file = folder / "scheduler.json"
    process = started([DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                       "--scheduler-file", str(file)], folder / "scheduler.log")
    try:
        deadline = time.monotonic() + START
        address = None
        while address is None:
            assert process.poll() is None, (folder / "scheduler.log").read_text()
            assert time.monotonic() < deadline, "the dask scheduler wrote no scheduler file"
            try:
                address = json.loads(file.read_text())["address"]
            except (OSError, ValueError, KeyError):  # not there yet, or half written
                time.sleep(0.05)
        yield address, file
    finally:
        stop(process)


@pytest.fixture(scope="module")
def dask_worker(dask_scheduler, tmp_path_factory) -> Iterator[tuple[str, str]]:
    """A `dask worker` process (a nanny and its worker) of that scheduler: their addresses."""
    address, file = dask_scheduler
    folder = tmp_path_factory.mktemp("worker")
    process = started([DASK, "worker", "--scheduler-file", str(file), "--nthreads", "1", "--no-dashboard",
                       "--local-directory", str(folder)], folder / "worker.log")
    try:
        with distributed.Client(address, set_as_default=False, timeout=START) as client:
            client.wait_for_workers(1, timeout=START)
            worker, info = next(iter(client.scheduler_info()["workers"].items()))
        yield worker, info["nanny"]
    finally:
        stop(process)


@pytest.fixture
def alone(monkeypatch) -> None:
    """The check decides by its own reading: asking distributed's comm again fails the test."""
    def confirm(address: str) -> None:
        raise AssertionError(f"the check could not read {address} by itself")

    monkeypatch.setattr(scheduler, "_confirm", confirm)


def test_a_real_dask_scheduler_is_accepted_at_once(dask_scheduler, alone):
    address, file = dask_scheduler
    for given in (address, address.removeprefix("tcp://")):
        t0 = time.monotonic()
        check_scheduler(given)
        assert time.monotonic() - t0 < 1.0
    time.sleep(0.2)  # the scheduler writes its log as it goes: the check leaves no word of trouble there
    log = file.with_name("scheduler.log").read_text()
    assert not any(word in log for word in ("Traceback", "ERROR", "WARNING", "Exception")), log


def test_a_real_dask_worker_and_its_nanny_are_refused_in_one_line(dask_worker, alone):
    for address in dask_worker:
        t0 = time.monotonic()
        r = run_cli("pancake", "god", "-n", "5", "--scheduler", address)
        took = time.monotonic() - t0
        assert_bad_input(r)
        assert r.err == f"puzzlesearch: error: no Dask scheduler answers at {address} ({NOT_THE_SCHEDULER})\n"
        assert took < 2.0


def test_distributed_s_own_comm_names_the_scheduler_the_worker_and_the_nanny(dask_scheduler, dask_worker):
    # the second asking, which decides when the check's own reading does not
    worker, nanny = dask_worker
    for address, kind in [(dask_scheduler[0], "Scheduler"), (worker, "Worker"), (nanny, "Nanny")]:
        assert scheduler._confirm(address)["type"] == kind


# --- the check's speech is distributed's ---------------------------------------------------------------


def test_the_check_frames_its_messages_as_the_installed_distributed_does():
    from distributed.comm.tcp import _add_frames_header
    from distributed.protocol import dumps

    scheduler._framing_agrees.cache_clear()
    assert scheduler._framing_agrees(), "the check would only see that something listens"
    # and it reads what distributed writes, a message of several frames too (a worker's error)
    error = distributed.core.error_message(TypeError("Worker.identity() got an unexpected keyword"),
                                           status="uncaught-error")
    for value in ({"type": "Scheduler", "workers": {}}, error):
        frames = _add_frames_header(dumps(value))[0]
        a, b = socket.socketpair()
        with a, b:
            a.sendall(b"".join(bytes(f) for f in frames))
            read = scheduler._read_message(b, time.monotonic() + 5)
        assert read.get("type", read.get("status")) == value.get("type", value.get("status"))


def test_the_check_sends_the_handshake_distributed_s_own_connect_sends():
    from distributed.comm.core import Comm

    sent: queue.Queue[dict] = queue.Queue()

    def greet(conn: socket.socket, n: int) -> None:
        conn.sendall(scheduler._message(scheduler._handshake()))
        sent.put(scheduler._read_message(conn, time.monotonic() + 10))

    async def connect(address: str) -> None:
        comm = await distributed.comm.connect(address, timeout=10)
        comm.abort()

    with serving(greet) as address:
        asyncio.run(connect(address))
        theirs = sent.get(timeout=10)
    ours = scheduler._handshake()
    assert set(theirs) == set(ours) - {"end"}, "distributed's handshake is not the check's"
    assert [type(theirs[k]) for k in sorted(theirs)] == [type(ours[k]) for k in sorted(theirs)]
    Comm.handshake_configuration(theirs, ours)  # each side takes the other's: no KeyError
    Comm.handshake_configuration(ours, theirs)


def test_when_distributed_frames_otherwise_the_check_only_looks_for_a_listener(monkeypatch):
    # an upgrade the check cannot speak for makes it laxer (the Client decides), never stricter
    monkeypatch.setattr(scheduler, "_framing_agrees", lambda: True)
    with serving(http_400) as address:
        with pytest.raises(ValueError, match=r"\(an HTTP server answers there\)$"):
            check_scheduler(address)
        monkeypatch.setattr(scheduler, "_framing_agrees", lambda: False)
        check_scheduler(address)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = f"tcp://127.0.0.1:{s.getsockname()[1]}"
    with pytest.raises(ValueError, match="Connection refused"):
        check_scheduler(closed)


# --- a Dask peer that answers what the check does not expect -------------------------------------------


@contextmanager
def serving(reply: Callable[[socket.socket, int], None]) -> Iterator[str]:
    """A loopback server that hands each connection, and its number (0, 1, ...), to ``reply``."""

    def serve(conn: socket.socket, n: int) -> None:
        try:
            reply(conn, n)
        except (OSError, scheduler._Foreign):
            pass

    with serving_each(serve, numbered=True) as address:
        yield address


def http_400(conn: socket.socket, n: int) -> None:
    conn.recv(4096)
    conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    conn.close()


HANDSHAKE = {"compression": None, "python": [3, 11, 7], "pickle-protocol": 5}
ERROR = {"status": "uncaught-error", "exception_text": "TypeError('identity() got an unexpected keyword')"}


def peer(greeting: dict, answers: Callable[[dict, int], dict | bytes | None]) -> Callable:
    """A server of Dask's framing: sends ``greeting``, reads the handshake, then answers each
    request by ``answers(request, connection's number)``: a dict is sent as a message,
    bytes as they are and then the connection is closed, as it is for None."""
    def reply(conn: socket.socket, n: int) -> None:
        deadline = time.monotonic() + 10
        conn.sendall(scheduler._message(greeting))
        scheduler._read_message(conn, deadline)
        while True:
            request = scheduler._read_message(conn, deadline)
            if request.get("op") == "close":
                break
            answer = answers(request, n)
            if answer is None:
                break
            conn.sendall(scheduler._message(answer) if isinstance(answer, dict) else answer)
            if isinstance(answer, bytes):
                break
        conn.close()

    return reply


def wordless_first(then: Callable | None) -> Callable:
    """A server that ends its first connection without a word, and serves the next by ``then``
    (None: ends them all so)."""
    def reply(conn: socket.socket, n: int) -> None:
        if n == 0 or then is None:
            conn.close()
        else:
            then(conn, n)

    return reply


UNDERSTOOD = {  # the check's own reading decides
    "a handshake of other keys": (peer({"protocol": 9, "codecs": ["zstd"]},
                                       lambda r, n: {"type": "Scheduler"}), None),
    "a worker": (peer(HANDSHAKE, lambda r, n: ERROR if "n_workers" in r else {"type": "Worker"}),
                 NOT_THE_SCHEDULER),
    "a nanny": (peer(HANDSHAKE, lambda r, n: ERROR if "n_workers" in r else {"type": "Nanny"}),
                NOT_THE_SCHEDULER),
}
NOT_UNDERSTOOD = {  # distributed's comm asks again: refused only if it hears of a worker or nanny
    "closed after its handshake": (peer(HANDSHAKE, lambda r, n: None), None),
    "an answer of another shape": (peer(HANDSHAKE, lambda r, n: {"status": "OK", "who": "a coordinator"}),
                                   None),
    "a type the check does not know": (peer(HANDSHAKE, lambda r, n: {"type": "Coordinator"}), None),
    "an error for each question": (peer(HANDSHAKE, lambda r, n: ERROR), None),
    "an answer longer than the check reads": (peer(HANDSHAKE, lambda r, n: struct.pack("=Q", 2 << 20)), None),
    "a nanny only to distributed's comm": (peer(HANDSHAKE,
                                                lambda r, n: None if n == 0 else {"type": "Nanny"}),
                                           NOT_THE_SCHEDULER),
    # a server that says nothing to the check's handshake: refused, unless distributed's comm hears
    # a Dask server there (one of a version that would take the check's handshake no more)
    "no word at all": (wordless_first(None), WORDLESS),
    "no word, then a scheduler to distributed's comm": (
        wordless_first(peer(HANDSHAKE, lambda r, n: {"type": "Scheduler"})), None),
    "no word, then a worker to distributed's comm": (
        wordless_first(peer(HANDSHAKE, lambda r, n: {"type": "Worker"})), NOT_THE_SCHEDULER),
    "no word, then another Dask server to distributed's comm": (
        wordless_first(peer(HANDSHAKE, lambda r, n: {"status": "OK"})), None),
}


@pytest.mark.parametrize("kind", list(UNDERSTOOD) + list(NOT_UNDERSTOOD))
def test_a_dask_peer_is_refused_only_as_a_worker_or_nanny(kind, monkeypatch):
    reply, why = {**UNDERSTOOD, **NOT_UNDERSTOOD}[kind]
    asked: list[str] = []
    confirm = scheduler._confirm
    monkeypatch.setattr(scheduler, "_confirm", lambda address: asked.append(address) or confirm(address))
    with serving(reply) as address:
        t0 = time.monotonic()
        if why is None:
            check_scheduler(address)
        else:
            with pytest.raises(ValueError) as refused:
                check_scheduler(address)
            assert str(refused.value) == f"no Dask scheduler answers at {address} ({why})"
        took = time.monotonic() - t0
    assert asked == ([address] if kind in NOT_UNDERSTOOD else [])
    assert took < AT_ONCE, f"{kind}: decided after {took:.1f} s, not at once"
    assert took < GREETING_SECONDS + CONFIRM_SECONDS


@pytest.mark.slow
def test_a_dask_peer_silent_after_its_handshake_is_left_to_the_client_within_15_s():
    def silent_after(conn: socket.socket, n: int) -> None:
        conn.sendall(scheduler._message(HANDSHAKE))
        time.sleep(GREETING_SECONDS + CONFIRM_SECONDS + 2)

    with serving(silent_after) as address:
        t0 = time.monotonic()
        check_scheduler(address)
        took = time.monotonic() - t0
    assert GREETING_SECONDS <= took < min(15.0, GREETING_SECONDS + CONFIRM_SECONDS + 1.5)
