"""Output files: checked before the work, written whole, never over something else.

Every file a command writes (checkpoints, results stores, values files, ``--out``,
``--csv``, plots) goes through this module, for two reasons:

- A search that runs for an hour and then cannot write its answer has lost the hour, so
  each output path is checked first (:func:`check_writable`): its folder must exist
  (nothing is created silently), and it must be writable. Writable is tried, not guessed
  from permission bits (which say yes to root everywhere, also in /proc and /sys): an
  existing file is opened for appending (nothing is written), a new one is created and
  removed again.
- Whole files are written to a temporary file beside the target and renamed over it
  (:func:`replacing`), so a reader finds the old file or the new one, never half of one.
  A rename replaces whatever has the name, so it is done only over a regular file: a
  device, FIFO, socket or folder is refused before any work, and would be again at the
  rename. ``/dev/null`` given as a checkpoint must stay ``/dev/null``.

Symbolic links are written through: the file the link points to is checked and replaced,
and the link stays as it was (:func:`target`). SQLite files are opened at that target too,
so their ``-wal`` and ``-shm`` files lie beside the real file.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: what a path that exists but is not a regular file is called in a message
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
)


def check_writable(path: str | os.PathLike, what: str) -> Path:
    """Raise ValueError (one line naming `what` and the path) unless `path` can be created
    or rewritten as a regular file; leaves the file system as it found it. Returns `path`
    as a Path (the name the user gave; :func:`target` is the file it stands for)."""
    if str(path) == "":
        raise ValueError(f"{what} needs a file name, got an empty one")
    if "\0" in str(path):
        raise ValueError(f"{what} {show(path)} is not a file name (a NUL character)")
    p = Path(path)
    try:
        _probe(p, target(p), show(path), what)
    except OSError as e:  # a name too long, a loop of links, ...
        raise ValueError(f"{what} {show(path)} cannot be used ({e.strerror or e})") from None
    return p


def target(path: str | os.PathLike) -> Path:
    """The file that writing to `path` changes: `path` itself, or, through symbolic links,
    the file they point to (which need not exist yet)."""
    return Path(os.path.realpath(path))


def _probe(p: Path, real: Path, path: str, what: str) -> None:
    kind = not_a_file(real)
    if kind is not None:
        via = f" (a link to {show(real)})" if p.is_symlink() else ""
        what_it_is = "is a folder, not a file" if kind == "a folder" else f"is {kind}, not a regular file"
        raise ValueError(f"{what} {path}{via} {what_it_is}")
    parent = real.parent
    if not parent.is_dir():
        shown = show(parent if p.is_symlink() else p.parent)
        if parent.exists():
            raise ValueError(f"{what} {path}: {shown} is not a folder")
        raise ValueError(f"{what} {path}: the folder {shown} does not exist")
    existed = real.exists()
    try:
        if existed:
            os.close(os.open(real, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK))
        else:
            os.close(os.open(real, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            os.unlink(real)
    except OSError as e:
        verb = "written" if existed else "created"
        raise ValueError(f"{what} {path} cannot be {verb} ({e.strerror or e})") from None


def not_a_file(path: str | os.PathLike) -> str | None:
    """What `path` is when it exists but is not a regular file ("a character device", ...);
    None for a regular file or no file at all. Links are followed."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):  # nothing there (yet)
        return None
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


@contextmanager
def replacing(path: str | os.PathLike, what: str = "output") -> Iterator[Path]:
    """Write a whole file in one go: yields a temporary path in the target's folder; when
    the block ends without an error it is renamed over the target, else removed.

    The target is :func:`target` (a link is written through, not replaced). The rename is
    refused (ValueError) if the target has become anything but a regular file since it was
    checked. An existing file keeps its permission bits.

        with replacing(checkpoint, "--checkpoint") as tmp:
            with open(tmp, "wb") as f:
                f.write(data)
    """
    real = target(path)
    tmp = real.with_name(f".{real.name}.{os.getpid()}.tmp")
    try:
        yield tmp
        kind = not_a_file(real)
        if kind is not None:
            raise ValueError(f"{what} {show(path)} is {kind} now, not a regular file; it was left as it is")
        try:
            os.chmod(tmp, stat.S_IMODE(os.stat(real).st_mode))
        except FileNotFoundError:
            pass
        os.replace(tmp, real)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def show(path: str | os.PathLike) -> str:
    """A path for a one-line message: as it is when printable, quoted when it holds
    control characters (a newline would break the line), shortened when very long."""
    text = str(path)
    if not text.isprintable():
        text = repr(text)
    return text if len(text) <= 80 else text[:60] + "..." + text[-16:]


__all__ = ["check_writable", "not_a_file", "replacing", "show", "target"]
