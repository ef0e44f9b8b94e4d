"""Whether a Dask scheduler answers at an address: the one check of a scheduler, made
before a Dask Client exists.

A Client would retry for its whole timeout, a half-made Client stalls the interpreter's
exit, and it reads whatever a foreign server sends as a frame length (8 bytes of
"HTTP/1.1" ask it to allocate 3 EiB). So `check_scheduler` speaks the start of
distributed's TCP protocol itself, reads at most ANSWER_LIMIT bytes a message, and gives
up after GREETING_SECONDS.

That protocol is distributed's own, not a published one, and the distributed installed
here (which the scheduler's must match for a Client to work) may be newer than the one the
check was written for. So the check refuses only what it understands, and takes only two
things of the protocol for granted: that a message is framed as the installed
distributed frames it, which it makes sure of before it speaks (distributed's own encoder,
on the check's messages; if they differ, it only checks that something accepts the
connection, as for tls), and that a server answers a connection's first message at once.
- Before the peer has sent one well-formed Dask message, the check refuses a closed port,
  a server that stays silent, and bytes that are not Dask's framing (an HTTP or SSH server,
  a "length" of exabytes): the servers whose bytes a Client must not read.
- Once the peer has sent one (its handshake, whatever its keys), it is a Dask server, and
  only its answer to ``identity`` decides: a scheduler is accepted, a worker or nanny
  refused. If the answer is anything else (none, a connection closed, an answer of another
  shape), the check asks again through distributed's own ``comm.connect``, which speaks
  the installed version's protocol, within CONFIRM_SECONDS; unless that answer names a
  worker or nanny, the address is accepted and the Client, which has its own timeout, has
  the last word.
- A peer that ends the connection without a word, at the check's handshake, is asked
  again in the same way: refused if distributed's comm hears no word either, else decided
  by that answer as above.
tests/engine/test_engine_scheduler_probe.py holds the check to the installed distributed:
its framing and its handshake, and a real `dask scheduler`, `dask worker` and nanny told
apart by the check's own reading, without the second asking.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import pickle
import socket
import struct
import sys
import threading
import time
from urllib.parse import urlsplit

from puzzlesearch.engine.paths import show

#: address schemes of dask.distributed; tcp and tls are checked before the work (check_scheduler)
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")
#: what a --scheduler says when the optional extra is missing
NEEDS_DASK = ("--scheduler needs dask.distributed, the [cluster] extra: pip install 'distributed' "
              "(or reinstall puzzlesearch with [cluster])")


def check_scheduler(address: str, *, reach: bool = True) -> None:
    """Refuse (ValueError, one line) a scheduler address that is not SCHEME://HOST:PORT (a
    bare HOST:PORT is tcp) and, with ``reach``, a tcp address where no Dask scheduler
    answers (a closed port, a server that stays silent, one that speaks another protocol,
    or a Dask worker or nanny), within `GREETING_SECONDS` (and
    `CONFIRM_SECONDS` more for a Dask server whose first answers the check does not
    understand); for tls, where the greeting would need the cluster's certificates, only
    that something accepts the connection. With ``reach``, ImportError when
    dask.distributed (the optional extra) is not installed."""
    shown = show(address)
    if not isinstance(address, str) or not address.strip():
        raise ValueError(f"--scheduler needs an address like tcp://HOST:PORT, got {shown!r}")
    try:
        parts = urlsplit(address if "://" in address else "tcp://" + address)
    except ValueError as e:
        raise ValueError(f"bad scheduler address {shown} ({e})") from None
    if parts.scheme not in SCHEMES:
        raise ValueError(f"--scheduler {shown}: unknown scheme {parts.scheme!r} (expected tcp://HOST:PORT)")
    if parts.scheme not in ("tcp", "tls"):
        return
    try:
        host, port = parts.hostname, parts.port
    except ValueError as e:
        raise ValueError(f"bad scheduler address {shown} ({e})") from None
    if not host or port is None or port == 0:
        raise ValueError(f"bad scheduler address {shown}: expected tcp://HOST:PORT")
    if not reach:
        return
    if importlib.util.find_spec("distributed") is None:
        raise ImportError(NEEDS_DASK)
    why = _greet(host, port, tls=parts.scheme == "tls")
    if why is not None:
        raise ValueError(f"no Dask scheduler answers at {shown} ({why})")


#: seconds a scheduler has, in all, to accept the connection, greet and say what it is: a Dask
#: scheduler answers at once, and a silent server is refused well within the 15 s a user waits
GREETING_SECONDS = 5.0
#: seconds distributed's own connection has to ask a Dask server what it is, when its first
#: answers were not what the check expects (GREETING_SECONDS and these stay within 15 s)
CONFIRM_SECONDS = 5.0
#: most bytes an answer may claim: a scheduler's greeting is about 60, its identity (asked
#: without its workers) a few hundred; a larger claim is a foreign server's bytes read as a length
ANSWER_LIMIT = 1 << 20

#: in our handshake, a value a scheduler ignores and an HTTP server (a dashboard's port, a web
#: server) reads as the end of a request's head, so that it answers (400) instead of waiting for more
HTTP_END = "\r\n\r\n"
#: the refusal of a Dask server that says it is a worker or a nanny
NOT_THE_SCHEDULER = "a Dask worker or nanny answers there, not the scheduler"
#: the refusal of a server that ends the connection (or resets it) without a word
WORDLESS = "it closed the connection without a word"

_NUMBER = struct.Struct("=Q")  # distributed.comm.tcp's lengths and counts: 8 bytes, native order
#: the questions of the check: what the server is (a scheduler's answer without its workers'
#: list); the same without arguments, which a worker's or nanny's identity takes; the end
_IDENTITY = {"op": "identity", "n_workers": 0, "reply": True}
_IDENTITY_PLAIN = {"op": "identity", "reply": True}
_CLOSE = {"op": "close", "reply": False}


class _Foreign(Exception):
    """What answered is not a Dask scheduler (the message says what it is)."""


class _Ended(_Foreign):
    """The peer ended the connection without a word."""


def _handshake() -> dict:
    """What the check sends first, as a Client's comm does (distributed.comm.core's
    Comm.handshake_info): compression, Python's version, pickle's protocol; and HTTP_END."""
    return {"compression": None, "python": list(sys.version_info[:3]),
            "pickle-protocol": pickle.HIGHEST_PROTOCOL, "end": HTTP_END}


def _greet(host: str, port: int, *, tls: bool = False) -> str | None:
    """Why no Dask scheduler answers at host:port (None: one does, or the check cannot tell).

    Speaks the start of distributed's TCP protocol (distributed.comm.tcp and core.connect),
    reading at most ANSWER_LIMIT bytes a message. A message is its length, then a frame
    count, the frames' lengths (8 bytes each) and the frames, the first one msgpack. Each
    side first sends a handshake, a dict; ours goes first, as a Client's does, so that a
    server of another protocol answers at once (an HTTP server: 400 Bad Request) rather than
    waiting for more. Then ``op: identity`` without the workers' list, which a scheduler
    answers with ``type: Scheduler``, and a worker or nanny, whose identity takes no
    arguments, with an error; asked again without arguments, they answer ``type: Worker``
    or ``Nanny``. ``close`` makes the server end the connection, as it does for a Client,
    without a word in a scheduler's log.
    """
    kind = ended = None
    try:
        with socket.create_connection((host, port), timeout=GREETING_SECONDS) as conn:
            if tls or not _framing_agrees():  # tls: the handshake needs the cluster's certificates
                return None
            deadline = time.monotonic() + GREETING_SECONDS  # from now: not the import's time
            try:
                conn.sendall(_message(_handshake()))
                _read_message(conn, deadline)  # the peer's handshake: from here on, a Dask server
            except (_Ended, ConnectionError):  # no word at all (a reset, too): any server, or
                ended = WORDLESS  # a Dask one that takes our handshake no more
            else:
                with contextlib.suppress(_Foreign, OSError, ValueError):  # OSError: a timeout too
                    kind = _identify(conn, deadline)
    except _Foreign as e:
        return str(e)
    except TimeoutError:
        return f"nothing answered within {GREETING_SECONDS:g} s"
    except (OSError, ValueError) as e:  # UnicodeError (a bad host name) is a ValueError
        return getattr(e, "strerror", None) or str(e) or type(e).__name__
    if _role(kind) is None:  # a Dask server the check does not understand, or no word at all
        reply = _confirm(f"tcp://[{host}]:{port}" if ":" in host else f"tcp://{host}:{port}")
        if reply is None and ended is not None:  # distributed's comm heard no word either
            return ended
        kind = reply.get("type") if isinstance(reply, dict) else None
    return NOT_THE_SCHEDULER if _role(kind) == "worker" else None


def _identify(conn: socket.socket, deadline: float) -> str | None:
    """The ``type`` a Dask server gives in answer to ``identity`` (None: it gave none)."""
    conn.sendall(_message(_IDENTITY))
    reply = _read_message(conn, deadline)
    if "type" not in reply and reply.get("status") in ("error", "uncaught-error"):
        conn.sendall(_message(_IDENTITY_PLAIN))  # a worker or nanny: identity without arguments
        reply = _read_message(conn, deadline)
    with contextlib.suppress(OSError):
        conn.sendall(_message(_CLOSE))
    kind = reply.get("type")
    return kind if isinstance(kind, str) else None


def _role(kind: str | None) -> str | None:
    """"scheduler" or "worker" (a worker or a nanny) by a server's ``type``; None: neither."""
    if not isinstance(kind, str):
        return None
    if "Scheduler" in kind:
        return "scheduler"
    return "worker" if "Worker" in kind or "Nanny" in kind else None


def _confirm(address: str) -> object:
    """What the Dask server at ``address`` answers to ``identity``, asked through
    distributed's own comm.connect, which speaks the installed version's protocol (a
    scheduler's answer lists its workers: distributed reads it, whatever its size); None:
    no answer within CONFIRM_SECONDS. Runs in a thread of its own, on an event loop of its
    own, so that a caller's running loop (a notebook's) is no obstacle."""
    answer: list = []

    async def ask() -> None:
        from distributed.comm import connect

        comm = await connect(address, timeout=CONFIRM_SECONDS)
        try:
            await comm.write(_IDENTITY_PLAIN)
            answer.append(await comm.read())
            with contextlib.suppress(Exception):
                await comm.write(_CLOSE)
        finally:
            comm.abort()

    def run() -> None:
        import asyncio  # here: only a run on a cluster needs it (30 ms of every start)

        with contextlib.suppress(BaseException):  # whatever fails, there is no answer
            asyncio.run(asyncio.wait_for(ask(), CONFIRM_SECONDS))

    thread = threading.Thread(target=run, name="puzzlesearch scheduler check", daemon=True)
    thread.start()
    thread.join(CONFIRM_SECONDS + 1.0)
    return answer[0] if answer else None


@functools.cache
def _framing_agrees() -> bool:
    """Whether the installed distributed frames the check's messages as _message does, by
    its own encoder (protocol.dumps, and comm.tcp's header as TCP.write adds it)."""
    try:
        from distributed.comm.tcp import _add_frames_header
        from distributed.protocol import dumps

        for value in (_handshake(), _IDENTITY, _IDENTITY_PLAIN, _CLOSE):
            frames = _add_frames_header(dumps(value))[0]
            if b"".join(bytes(frame) for frame in frames) != _message(value):
                return False
    except Exception:  # not there or not as before: the check cannot speak for it
        return False
    return True


def _message(value: dict) -> bytes:
    """One message of distributed's TCP protocol: its lengths, then one msgpack frame."""
    import msgpack  # a dependency of dask.distributed, which check_scheduler looked for

    frame = msgpack.packb(value, use_bin_type=True)
    body = _NUMBER.pack(1) + _NUMBER.pack(len(frame)) + frame
    return _NUMBER.pack(len(body)) + body


def _read_message(conn: socket.socket, deadline: float) -> dict:
    """The first frame of the next message, a dict; _Foreign if what arrives is not one.
    A length is checked before anything of that size is read."""
    import msgpack

    head = _receive(conn, _NUMBER.size, deadline)
    if len(head) < _NUMBER.size:
        raise _Foreign(_not_dask(head)) if head else _Ended(WORDLESS)
    (length,) = _NUMBER.unpack(head)
    if not 2 * _NUMBER.size < length <= ANSWER_LIMIT:
        raise _Foreign(_not_dask(head + _receive(conn, 24, deadline, at_once=True)))
    body = _receive(conn, length, deadline)
    if len(body) < length:
        raise _Foreign(_not_dask(head + body))
    (count,) = _NUMBER.unpack_from(body)
    start = _NUMBER.size * (1 + count)
    if not 1 <= count <= 64 or start > length:
        raise _Foreign(_not_dask(head + body))
    lengths = struct.unpack_from(f"={count}Q", body, _NUMBER.size)
    if start + lengths[0] > length or start + sum(lengths) < length:  # large frames may follow the body
        raise _Foreign(_not_dask(head + body))
    try:
        value = msgpack.unpackb(body[start:start + lengths[0]], raw=False, strict_map_key=False)
    except Exception:  # msgpack's errors share no base class below Exception
        value = None
    if not isinstance(value, dict):
        raise _Foreign(_not_dask(head + body))
    return value


def _receive(conn: socket.socket, size: int, deadline: float, *, at_once: bool = False) -> bytes:
    """Up to ``size`` bytes, fewer if the peer closes (or, ``at_once``, sends no more within
    0.2 s); TimeoutError once the deadline passes."""
    data = b""
    while len(data) < size:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        conn.settimeout(min(left, 0.2) if at_once else left)
        try:
            chunk = conn.recv(min(size - len(data), 1 << 16))
        except TimeoutError:
            if at_once:
                break
            raise
        if not chunk:
            break
        data += chunk
    return data


def _not_dask(first: bytes) -> str:
    """What answered instead of a scheduler, from the first bytes it sent."""
    if first.startswith(b"HTTP/") or first.lstrip().lower().startswith((b"<!doctype html", b"<html")):
        return "an HTTP server answers there"  # the second: an HTTP/0.9 answer, a page without a head
    text = first.split(b"\n", 1)[0].strip().decode("ascii", "replace")
    if text.isprintable() and len(text) >= 4:
        return f"what answers there is not Dask: it sent {text[:24]!r}"
    return "what answers there is not Dask"


__all__ = ["ANSWER_LIMIT", "CONFIRM_SECONDS", "GREETING_SECONDS", "NEEDS_DASK", "SCHEMES", "check_scheduler"]
