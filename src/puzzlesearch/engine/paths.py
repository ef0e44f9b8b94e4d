"""Output paths checked before the work: plots, stores, checkpoints, --out files.

A search that runs for an hour and then cannot write its answer has lost the hour, so
every file a command will write is checked first, all the same way: its folder must
exist (nothing is created silently), it must not be a folder, and it must be writable.
Writable is tried, not guessed from permission bits (which say yes to root everywhere,
also in /proc and /sys): an existing file is opened for appending (nothing is written),
a new one is created and removed again.
"""

from __future__ import annotations

import os
from pathlib import Path


def check_writable(path: str | os.PathLike, what: str) -> Path:
    """Raise ValueError (one line naming `what` and the path) unless `path` can be created
    or rewritten; leaves the file system as it found it."""
    if str(path) == "":
        raise ValueError(f"{what} needs a file name, got an empty one")
    if "\0" in str(path):
        raise ValueError(f"{what} {show(path)} is not a file name (a NUL character)")
    p = Path(path)
    try:
        _probe(p, show(path), what)
    except OSError as e:  # a name too long, a loop of links, ...
        raise ValueError(f"{what} {show(path)} cannot be used ({e.strerror or e})") from None
    return p


def _probe(p: Path, path: str, what: str) -> None:
    if p.is_dir():
        raise ValueError(f"{what} {path} is a folder, not a file")
    parent = p.parent
    if not parent.is_dir():
        if parent.exists():
            raise ValueError(f"{what} {path}: {show(parent)} is not a folder")
        raise ValueError(f"{what} {path}: the folder {show(parent)} does not exist")
    existed = p.exists()
    try:
        if existed:
            os.close(os.open(p, os.O_WRONLY | os.O_APPEND))
        else:
            os.close(os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            os.unlink(p)
    except OSError as e:
        verb = "written" if existed else "created"
        raise ValueError(f"{what} {path} cannot be {verb} ({e.strerror or e})") from None


def show(path: str | os.PathLike) -> str:
    """A path for a one-line message: as it is when printable, quoted when it holds
    control characters (a newline would break the line), shortened when very long."""
    text = str(path)
    if not text.isprintable():
        text = repr(text)
    return text if len(text) <= 80 else text[:60] + "..." + text[-16:]


__all__ = ["check_writable", "show"]
