"""Whether a Dask scheduler answers at an address: the one check of a scheduler, made
before a Dask Client exists.

A Client would retry for its whole timeout, a half-made Client stalls the interpreter's
exit, and it reads whatever a foreign server sends as a frame length (8 bytes of
"HTTP/1.1" ask it to allocate 3 EiB). So `check_scheduler` speaks the start of
distributed's TCP protocol itself, reads at most ANSWER_LIMIT bytes a message, and gives
up after GREETING_SECONDS.
"""

from __future__ import annotations

import importlib.util
import pickle
import socket
import struct
import sys
import time
from urllib.parse import urlsplit

from puzzlesearch.engine.paths import show

#: address schemes of dask.distributed; tcp and tls are checked before the work (check_scheduler)
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")
#: what a --scheduler says when the optional extra is missing
NEEDS_DASK = "--scheduler needs dask.distributed, an optional extra: pip install -e .[cluster]"


def check_scheduler(address: str, *, reach: bool = True) -> None:
    """Refuse (ValueError, one line) a scheduler address that is not SCHEME://HOST:PORT (a
    bare HOST:PORT is tcp) and, with ``reach``, a tcp address where no Dask scheduler
    answers (a closed port, a server that stays silent, or one that speaks another
    protocol), within :data:`GREETING_SECONDS`; for tls, where the greeting would need the
    cluster's certificates, only that something accepts the connection. With ``reach``,
    ImportError when dask.distributed (the optional extra) is not installed."""
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
#: most bytes an answer may claim: a scheduler's greeting is about 60, its identity (asked
#: without its workers) a few hundred; a larger claim is a foreign server's bytes read as a length
ANSWER_LIMIT = 1 << 20

#: in our handshake, a value a scheduler ignores and an HTTP server (a dashboard's port, a web
#: server) reads as the end of a request's head, so that it answers (400) instead of waiting for more
HTTP_END = "\r\n\r\n"

_NUMBER = struct.Struct("=Q")  # distributed.comm.tcp's lengths and counts: 8 bytes, native order


class _Foreign(Exception):
    """What answered is not a Dask scheduler (the message says what it is)."""


def _greet(host: str, port: int, *, tls: bool = False) -> str | None:
    """Why no Dask scheduler answers at host:port (None: one does).

    Speaks the start of distributed's TCP protocol (distributed.comm.tcp and core.connect),
    reading at most ANSWER_LIMIT bytes a message. A message is its length, then a frame
    count, the frames' lengths (8 bytes each) and the frames, the first one msgpack. Each
    side first sends a handshake, a dict with "compression", "python" and
    "pickle-protocol"; ours goes first, as a Client's does, so that a server of another
    protocol answers at once (an HTTP server: 400 Bad Request) rather than waiting for
    more. Then ``op: identity`` (without the workers' list), which a scheduler answers with
    ``type: Scheduler`` and a worker or nanny with an error; ``close`` makes the scheduler
    end the connection, as it does for a Client, without a word in its log.
    """
    deadline = time.monotonic() + GREETING_SECONDS
    try:
        with socket.create_connection((host, port), timeout=GREETING_SECONDS) as conn:
            if tls:  # the handshake is inside TLS, which needs the cluster's certificates
                return None
            conn.sendall(_message({"compression": None, "python": list(sys.version_info[:3]),
                                   "pickle-protocol": pickle.HIGHEST_PROTOCOL, "end": HTTP_END}))
            greeting = _read_message(conn, deadline)
            if "pickle-protocol" not in greeting:
                raise _Foreign("it speaks Dask's framing but sent no Dask handshake")
            conn.sendall(_message({"op": "identity", "n_workers": 0, "reply": True, "close": True}))
            kind = _read_message(conn, deadline).get("type")
            if not isinstance(kind, str) or "Scheduler" not in kind:
                what = f"a Dask {kind}" if isinstance(kind, str) else "a Dask worker or nanny"
                raise _Foreign(f"{what} answers there, not the scheduler")
    except _Foreign as e:
        return str(e)
    except TimeoutError:
        return f"nothing answered within {GREETING_SECONDS:g} s"
    except (OSError, ValueError) as e:  # UnicodeError (a bad host name) is a ValueError
        return getattr(e, "strerror", None) or str(e) or type(e).__name__
    return None


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
        raise _Foreign(_not_dask(head) if head else "it closed the connection without a word")
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


__all__ = ["ANSWER_LIMIT", "GREETING_SECONDS", "NEEDS_DASK", "SCHEMES", "check_scheduler"]
