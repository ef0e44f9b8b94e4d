"""Output files: checked before the work, written whole, never over something else.

Every file a command writes (checkpoints, results stores, values files, ``--out``,
``--csv``, plots) goes through this module, for two reasons:

- A search that runs for an hour and then cannot write its answer has lost the hour, so
  each output path is checked first (`check_writable`): its folder must exist
  (nothing is created silently), and it must be writable. Writable is tried, not guessed
  from permission bits (which say yes to root everywhere, also in /proc and /sys): an
  existing file is opened for appending (nothing is written), a new one is created and
  removed again.
- Whole files are written to a temporary file beside the target and renamed over it
  (`replacing`), so a reader finds the old file or the new one, never half of one,
  also after a power cut: the file's bytes are flushed to the disk (fsync) before the
  rename, and the folder, which holds the rename, after it. The temporary file is created
  afresh (never opened if something has its name) under a random name, so no one can plant
  a link there beforehand for us to write through, and two writers of the same file (two
  threads, two machines on one file system) never share one. It gets the permission bits
  any new file gets (the umask applies), or the old file's when it replaces one. A rename
  replaces whatever has the name, so it is done only over a regular file: a device, FIFO,
  socket or folder is refused before any work, and would be again at the rename.
  ``/dev/null`` given as a checkpoint must stay ``/dev/null``.

Symbolic links are written through: the file the link points to is checked and replaced,
and the link stays as it was (`target`). SQLite files are opened at that target too,
so their ``-wal`` and ``-shm`` files lie beside the real file.
"""

from __future__ import annotations

import errno
import os
import secrets
import sqlite3
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
    as a Path (the name the user gave; `target` is the file it stands for)."""
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


def device(path: str | os.PathLike) -> str:
    """The file system a path lies on, as a message names it: its device as the mount table
    lists it and where it is mounted ("/dev/sda1 (mounted on /home)"), or the mount point."""
    mount = Path(os.path.abspath(path))
    while not os.path.ismount(mount) and mount != mount.parent:
        mount = mount.parent
    source = ""
    try:
        with open("/proc/self/mounts", encoding="utf-8", errors="replace") as f:
            for line in f:  # the last mount on a point is the one in force
                fields = line.split()
                if len(fields) > 1 and fields[1].replace("\\040", " ") == str(mount):
                    source = fields[0]
    except OSError:  # no /proc (not Linux)
        pass
    return f"{source} (mounted on {mount})" if source and source != str(mount) else str(mount)


class NoSpace(OSError):
    """A write failed for want of space (ENOSPC, or SQLite's "database or disk is full"):
    ``str(e)`` is the one line "no space left on DEVICE for FILE"."""

    def __init__(self, path: str | os.PathLike, what: str | None = None):
        """`what`: how the message names the file (default: its name); a device written to
        directly (/dev/full) is named as the device itself."""
        try:
            direct = not_a_file(path) not in (None, "a folder")
        except OSError:
            direct = False
        on = show(path) if direct else device(path)
        super().__init__(errno.ENOSPC, f"no space left on {on} for {what or show(path)}", os.fspath(path))

    def __str__(self) -> str:
        return self.strerror


def full(e: BaseException) -> bool:
    """Whether an error is a full disk: ENOSPC (EDQUOT, a full quota, reads the same to a
    user) or SQLite's SQLITE_FULL."""
    if isinstance(e, OSError):
        return e.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC))
    code = getattr(e, "sqlite_errorcode", None)
    return isinstance(e, sqlite3.OperationalError) and code == sqlite3.SQLITE_FULL


@contextmanager
def no_space(path: str | os.PathLike) -> Iterator[None]:
    """Around writes to `path`: a full disk raises `NoSpace` naming the file and its
    device, instead of a bare "No space left on device" that names neither."""
    try:
        yield
    except NoSpace:
        raise
    except (OSError, sqlite3.OperationalError) as e:
        if full(e):
            raise NoSpace(path) from e
        raise


@contextmanager
def replacing(path: str | os.PathLike, what: str = "output") -> Iterator[Path]:
    """`_replacing`, a full disk reported as `NoSpace`."""
    with no_space(path), _replacing(path, what) as tmp:
        yield tmp


@contextmanager
def _replacing(path: str | os.PathLike, what: str = "output") -> Iterator[Path]:
    """Write a whole file in one go: yields the path of a new, empty temporary file in the
    target's folder; when the block ends without an error its bytes are flushed to the disk
    and it is renamed over the target (the folder flushed too), else it is removed.

    The block may write the file by its name, or put another file in its place (rename it
    over the temporary file). The target is `target` (a link is written through, not
    replaced). The rename is refused (ValueError) if the target has become anything but a
    regular file since it was checked. An existing file keeps its permission bits; a new
    one gets those of any new file (0o666 less the umask).

        with replacing(checkpoint, "--checkpoint") as tmp:
            with open(tmp, "wb") as f:
                f.write(data)
    """
    real = target(path)
    tmp, made = _new_temporary(real)
    renamed = False
    try:
        yield tmp
        kind = not_a_file(real)
        if kind is not None:
            raise ValueError(f"{what} {show(path)} is {kind} now, not a regular file; it was left as it is")
        try:
            mode = stat.S_IMODE(os.stat(real).st_mode)
        except FileNotFoundError:  # a new file: the bits it was made with, if it is still ours
            mode = stat.S_IMODE(made.st_mode)
            now = os.stat(tmp, follow_symlinks=False)
            if (now.st_dev, now.st_ino) != (made.st_dev, made.st_ino):  # another file was put there
                mode = None
        _flush_file(tmp, mode)
        os.replace(tmp, real)
        renamed = True
        _fsync_folder(real.parent)
    except BaseException:
        if not renamed:
            tmp.unlink(missing_ok=True)
        raise


#: how much of the target's name a temporary name keeps: with the random part it stays
#: well under the 255 bytes most file systems allow in a name
_NAME_BYTES = 200


def _new_temporary(real: Path) -> tuple[Path, os.stat_result]:
    """Create an empty file beside `real` under a random name nothing had: `.NAME.RANDOM.tmp`;
    returns its path and what it was made as (its permission bits are those of any new file).

    O_CREAT | O_EXCL makes the creation fail if anything has the name, a link included, so
    the file is always ours and new; the random part (64 bits from the system's source of
    randomness) cannot be guessed beforehand and differs in each call. Created with mode
    0o666, as open() creates files, so the kernel applies the umask (and a folder's default
    ACL) itself: nothing reads or changes the process's umask, which other threads share.
    Until the rename its owner may read and write it, as the owner of a file just opened
    may, even when the umask takes those bits away (they are given back at the rename)."""
    name = real.name
    while len(os.fsencode(name)) > _NAME_BYTES:
        name = name[:-1]
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp = real.with_name(f".{name}.{secrets.token_hex(8)}.tmp")
        try:
            fd = os.open(tmp, flags, 0o666)
        except FileExistsError:  # 2**-64 per try, unless someone fills the folder on purpose
            continue
        try:
            made = os.fstat(fd)
            if made.st_mode & 0o600 != 0o600:
                os.chmod(tmp, stat.S_IMODE(made.st_mode) | 0o600)
        except BaseException:
            os.close(fd)
            tmp.unlink(missing_ok=True)
            raise
        os.close(fd)
        return tmp, made
    raise FileExistsError(errno.EEXIST, f"no unused temporary name beside {show(real)}")


def _flush_file(path: Path, mode: int | None) -> None:
    """Give the file at `path` the permission bits `mode` (None: leave them), then flush
    its bytes and bits to the disk. Opened first, so that bits that forbid reading do not
    stop the flush; the writer has closed it."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        if mode is not None:
            os.chmod(path, mode)
        os.fsync(fd)
    finally:
        os.close(fd)


#: what fsync of a folder raises where folders cannot be flushed (some file systems and
#: platforms); the rename is then as durable as the system makes it
_NO_FOLDER_FSYNC = {errno.EINVAL, errno.EBADF, errno.EACCES, errno.EPERM, errno.EISDIR, errno.ENOTSUP,
                    getattr(errno, "EOPNOTSUPP", errno.ENOTSUP)}


def _fsync_folder(folder: Path) -> None:
    """Flush `folder` to the disk, so that a rename in it survives a power cut."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:  # a folder we may not read, or a platform that opens none (Windows)
        if e.errno in _NO_FOLDER_FSYNC:
            return
        raise
    try:
        os.fsync(fd)
    except OSError as e:
        if e.errno not in _NO_FOLDER_FSYNC:
            raise
    finally:
        os.close(fd)


def show(path: str | os.PathLike) -> str:
    """A path for a one-line message: as it is when printable, quoted when it holds
    control characters (a newline would break the line), shortened when very long."""
    text = str(path)
    if not text.isprintable():
        text = repr(text)
    return text if len(text) <= 80 else text[:60] + "..." + text[-16:]


__all__ = ["NoSpace", "check_writable", "device", "full", "no_space", "not_a_file", "replacing", "show",
           "target"]
