"""SQLite stores: the results store of computed exact values, and run checkpoints.

The results store keeps values this program has computed itself (e.g. Topswops f(m)),
so that later runs reuse them as search bounds instead of recomputing them. It lives
in the user's data directory unless a path is given (``--store PATH``), and is never
seeded from published tables: a value enters it only as the outcome of a finished search.

A checkpoint (``--checkpoint FILE``) records one long run: its parameters and each
subproblem it has finished, so that the same command resumes where it stopped.

Both are checked before any work (`check_store`, `check_checkpoint`, called by
``RunOptions.check_paths``): a folder that does not exist is refused, never created, except
the store's own folder in the user data directory. An answer computed but not saved
afterwards is never lost: the puzzle raises `NotSaved`, which carries the answer
(see `saving`).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import platformdirs

from puzzlesearch.engine.paths import NoSpace, check_writable, full, no_space, show, target

#: how every SQLite file begins: the checkpoints and results stores of this module
SQLITE_HEADER = b"SQLite format 3\x00"

#: Both files are in WAL mode, and a commit must survive a power cut, not only a killed
#: process: a finished task is not done again, a stored value not computed again. With
#: synchronous=FULL, SQLite flushes the WAL to the disk (fsync) at each commit, and the
#: folder when it creates the WAL; NORMAL, the WAL default of some builds, flushes only at
#: a checkpoint of the WAL, so a power cut could lose the last commits. EXTRA adds nothing
#: in WAL mode. Set on every connection: it is not stored in the file.
DURABLE = "pragma synchronous=full"

_RESULTS_SCHEMA = """
create table if not exists results (
    puzzle   text not null,
    key      text not null,
    value    text not null,   -- JSON
    method   text not null,
    seconds  real,
    created  text not null,
    primary key (puzzle, key)
)
"""


#: the marker of a results store: the row ("format", STORE_FORMAT) of its meta table, as a
#: checkpoint carries CHECKPOINT_FORMAT in its own
STORE_FORMAT = "puzzlesearch results 1"

_STORE_MARKER = (
    "create table if not exists meta (key text primary key, value text not null)",
    f"insert or ignore into meta values ('format', '{STORE_FORMAT}')",
)

#: the results table as _RESULTS_SCHEMA makes it, as `pragma table_info` lists it (name,
#: type, not null, default, primary key): a store of exactly this table is ours
_RESULTS_COLUMNS = [("puzzle", "TEXT", 1, None, 1), ("key", "TEXT", 1, None, 2),
                    ("value", "TEXT", 1, None, 0), ("method", "TEXT", 1, None, 0),
                    ("seconds", "REAL", 0, None, 0), ("created", "TEXT", 1, None, 0)]


def default_store_path() -> Path:
    """The results store in the user's data directory (PUZZLESEARCH_STORE overrides)."""
    env = os.environ.get("PUZZLESEARCH_STORE")
    if env:
        return Path(env)
    return Path(platformdirs.user_data_dir("puzzlesearch")) / "results.sqlite"


def _store_and_name(path: str | os.PathLike | None) -> tuple[Path, str]:
    """The store in use and how a message names it: --store, PUZZLESEARCH_STORE or the default."""
    if path is not None:
        return Path(path), "--store"
    if os.environ.get("PUZZLESEARCH_STORE"):
        return default_store_path(), "PUZZLESEARCH_STORE"
    return default_store_path(), "the results store"


def check_store(path: str | os.PathLike | None = None) -> Path:
    """Refuse (ValueError, one line) before any work a results store that cannot be used:
    `path` (--store), else PUZZLESEARCH_STORE, else the user data directory. Its folder must
    exist (only the default one, the program's own, is created), it must be writable, and
    an existing file must be this program's results store (`_check_ours`), read
    without changing a byte of it. Returns the store's path."""
    if path is not None and os.fspath(path) == "":  # Path("") would be the current folder
        raise ValueError("--store needs a file name, got an empty one")
    p, name = _store_and_name(path)
    if name == "the results store" and not p.parent.is_dir():
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ValueError(
                f"the results store's folder {show(p.parent)} cannot be created ({e.strerror or e}); "
                "set PUZZLESEARCH_STORE or give --store FILE"
            ) from None
    check_writable(p, name)
    check_neighbours(p, name)
    _check_ours(p, name)
    return p


def check_neighbours(path: str | os.PathLike, name: str) -> None:
    """Refuse (ValueError, one line) an SQLite file's ``-wal`` or ``-shm`` neighbour that
    exists while the file itself does not, or is empty. SQLite makes them beside a database
    it has opened, so these were made by no run of ours; opening the database would replay
    that foreign write-ahead log into it. (Beside a database with content they are what a
    run killed mid-way leaves, and are ours to read.)"""
    real = target(path)
    if real.exists() and real.stat().st_size > 0:
        return
    for suffix in ("-wal", "-shm"):
        if os.path.lexists(f"{real}{suffix}"):
            other = f" or choose another {name}" if name.startswith("--") else ""
            raise ValueError(f"{name} {show(path)}: {show(f'{real}{suffix}')} exists but no run with this "
                             f"file made it; move it away{other}")


def check_apart(checkpoint: str | os.PathLike | None, store: str | os.PathLike | None) -> None:
    """Refuse (ValueError, one line) a checkpoint that is the results store in use (`store`:
    --store, else PUZZLESEARCH_STORE or the default one), also through links: each needs
    its own file, and the run would find out only when it saves its answer."""
    if checkpoint is None or "" in (os.fspath(checkpoint), os.fspath(store or ".")):
        return  # an empty name is refused as such (check_checkpoint, check_store)
    p, name = _store_and_name(store)
    same = target(checkpoint) == target(p)
    if not same and target(checkpoint).exists() and target(p).exists():
        same = os.path.samefile(target(checkpoint), target(p))  # hard links
    if same:
        raise ValueError(f"--checkpoint {show(checkpoint)} and {name} {show(p)} are the same file; "
                         "give each its own file")


def _check_ours(p: Path, name: str) -> None:
    """Refuse (ValueError, one line) an existing file at `p` that is not this program's
    results store: another program's SQLite database, a checkpoint, a results table of
    other columns, a file of another kind. Accepted: no file, an empty one, an SQLite file
    without tables (a store whose creation was cut short), a store with its marker, and a
    store of the exact `results` table alone (made before stores carried a marker; it gets
    the marker at its next write). Read as immutable: nothing is written, no -wal or -shm."""
    header = _header(p, name)
    if header == b"":
        return
    if header == _LAYERS_HEADER:
        raise ValueError(f"{name} {show(p)} is a checkpoint of a breadth-first search, not a results store")
    if header != SQLITE_HEADER:
        raise ValueError(f"{name} {show(p)} is not a puzzlesearch results store (not an SQLite file)")
    try:
        with _reading(p) as db:
            tables = {row[0] for row in db.execute("select name from sqlite_master where type = 'table'")
                      if not row[0].startswith("sqlite_")}
            columns = [(column, str(kind).upper(), notnull, default, pk)
                       for _, column, kind, notnull, default, pk in db.execute("pragma table_info(results)")]
            try:
                meta = dict(db.execute("select key, value from meta").fetchall()) if "meta" in tables else {}
            except sqlite3.DatabaseError:  # a meta table of other columns: another program's
                meta = {}
    except sqlite3.DatabaseError as e:
        raise ValueError(f"{name} {show(p)} cannot be read as a results store ({e})") from None
    if meta.get("format") == CHECKPOINT_FORMAT:
        raise ValueError(f"{name} {show(p)} is a puzzlesearch checkpoint, not a results store")
    ours = tables <= {"meta", "results"} if meta.get("format") == STORE_FORMAT else tables <= {"results"}
    if ours and ("results" not in tables or columns == _RESULTS_COLUMNS):
        return
    if "results" in tables and columns != _RESULTS_COLUMNS:
        found = show(", ".join(str(c[0]) for c in columns))  # another program's names: one short line
        raise ValueError(f"{name} {show(p)} is not a puzzlesearch results store: its results table has "
                         f"other columns ({found})")
    listed = show(", ".join(sorted(tables)))
    raise ValueError(f"{name} {show(p)} is another program's SQLite database (tables: {listed}), "
                     "not a puzzlesearch results store")


def check_checkpoint(path: str | os.PathLike) -> Path:
    """Refuse (ValueError, one line) before any work a checkpoint that cannot be written or
    is some other file (an empty file is what a run killed at its start leaves: accepted).
    Whether it belongs to this run is checked when the run opens it (`Checkpoint`)."""
    check_writable(path, "--checkpoint")
    check_neighbours(path, "--checkpoint")
    header = _header(Path(path), "--checkpoint")
    if header == _LAYERS_HEADER:  # a breadth-first search's own format, read by engine.layers
        return Path(path)
    if header not in (b"", SQLITE_HEADER):
        raise ValueError(f"--checkpoint {show(path)} is not a puzzlesearch checkpoint")
    if header:  # read its schema now: a run whose answer comes from the store never opens it
        try:
            with _reading(path) as db:
                db.execute("select name from sqlite_master").fetchall()
        except sqlite3.DatabaseError as e:
            raise ValueError(
                f"checkpoint {show(path)} is damaged ({e}); delete it to start the run afresh"
            ) from None
    return Path(path)


@contextmanager
def _reading(path: str | os.PathLike) -> Iterator[sqlite3.Connection]:
    """A read-only connection to an existing SQLite file that leaves nothing behind.

    A read-only connection to a WAL-mode file would create its ``-wal`` and ``-shm`` files
    and could not remove them, so a refused file would gain two neighbours. Opened as
    immutable, SQLite reads the file alone; that is exact unless a ``-wal`` file holds
    commits not yet copied back (a run killed mid-way), and then the usual read-only
    connection reads them (the neighbours exist already)."""
    real = target(path)
    immutable = "" if Path(f"{real}-wal").exists() else "&immutable=1"
    db = sqlite3.connect(f"{real.as_uri()}?mode=ro{immutable}", uri=True, timeout=30)
    try:
        yield db
    finally:
        db.close()


#: how a checkpoint of the breadth-first search (engine.layers) begins; here, so that a
#: message can name such a file; _LAYERS_HEADER: as much of it as the SQLite header
LAYERS_MAGIC = b"puzzlesearch breadth-first layers\n"
#: the commands that run the breadth-first search and write such checkpoints, as messages name them
LAYERS_COMMANDS = "pancake god, shuffle god, hanoi verify, perm god"
_LAYERS_HEADER = LAYERS_MAGIC[:16]


def _header(p: Path, name: str) -> bytes:
    """The first bytes of an SQLite file at `p` (b"" when there is none yet or it is empty)."""
    try:
        with open(p, "rb") as f:
            return f.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        return b""
    except OSError as e:
        raise ValueError(f"{name} {show(p)} cannot be read ({e.strerror or e})") from None


class NotSaved(Exception):
    """An answer was computed but could not be saved afterwards (results store, --out file).

    ``result`` is the answer, whole; ``str(e)`` is one line saying what was not saved and
    why, with the answer's value in words, so that even a caller that only prints the
    message keeps the answer. The command line prints the answer, then this line, and exits 1
    (``clikit.answer``). Not a ValueError: nothing about the input was wrong.
    """

    def __init__(self, result: Any, message: str):
        super().__init__(message)
        self.result = result


@contextmanager
def saving(result: Any, what: str) -> Iterator[None]:
    """Around the saving of a computed answer: a failure (OSError, SQLite error, a store
    refused) raises `NotSaved` carrying `result`; `what` names the answer and its
    value, e.g. "f(14) = 104". Ctrl-C passes through unchanged.

        with saving(solution, f"f({n}) = {steps}"):
            remember(n, steps, ...)
        return solution
    """
    try:
        yield
    except (OSError, sqlite3.Error, ValueError) as e:
        why = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise NotSaved(result, f"{what} was computed but not saved: {why}") from e


class _Database:
    """An SQLite connection (``self._db``, None until opened) closed by ``close()`` or at the
    end of a ``with``."""

    _db: sqlite3.Connection | None = None

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ResultsStore(_Database):
    """Computed exact results keyed by (puzzle, key); values are JSON.

    Opening checks the store as `check_store` does (ValueError): an existing file
    must be this program's store. Each write also puts the marker (a ``meta`` table with
    the row ("format", STORE_FORMAT)) into a store that lacks it. A store that does not
    exist yet is created by the first ``put``, not before: a command refused after opening
    it (its checkpoint belongs to another run, say) leaves no new file. A failed write
    raises sqlite3.Error (wrap saves in `saving`)."""

    def __init__(self, path: str | os.PathLike | None = None):
        self.path = check_store(path)
        if target(self.path).exists() and target(self.path).stat().st_size > 0:
            self._connect()

    def _connect(self) -> sqlite3.Connection:
        if self._db is not None:
            return self._db
        new = not target(self.path).exists()
        try:
            db = sqlite3.connect(target(self.path), timeout=30)
        except sqlite3.Error as e:
            raise ValueError(f"cannot open the results store {show(self.path)}: {e}") from e
        try:
            db.execute("pragma journal_mode=wal")
            db.execute(DURABLE)
            db.execute(_RESULTS_SCHEMA)
            db.commit()
        except sqlite3.OperationalError as e:  # locked, read-only, I/O
            db.close()
            if new and target(self.path).exists() and target(self.path).stat().st_size == 0:
                target(self.path).unlink()  # the empty file this call made: no store is left behind
            if full(e):  # the disk filled before the store's first page: not the user's mistake
                raise NoSpace(self.path) from e
            raise ValueError(f"cannot use the results store {show(self.path)} ({e})") from e
        except sqlite3.DatabaseError as e:
            db.close()
            raise ValueError(f"{show(self.path)} is not a puzzlesearch results store ({e})") from e
        self._db = db
        return db

    def get(self, puzzle: str, key: str) -> Any | None:
        if self._db is None:  # no store yet: nothing in it
            return None
        row = self._db.execute(
            "select value from results where puzzle = ? and key = ?", (puzzle, key)
        ).fetchone()
        return None if row is None else json.loads(row[0])

    def put(self, puzzle: str, key: str, value: Any, method: str, seconds: float | None = None) -> None:
        with no_space(self.path):
            self._put(puzzle, key, value, method, seconds)

    def _put(self, puzzle: str, key: str, value: Any, method: str, seconds: float | None) -> None:
        db = self._connect()
        with db:
            for statement in _STORE_MARKER:  # a new store, or one made before the marker
                db.execute(statement)
            db.execute(
                "insert or replace into results values (?, ?, ?, ?, ?, ?)",
                (puzzle, key, json.dumps(value), method, seconds, time.strftime("%Y-%m-%dT%H:%M:%S")),
            )


# --- checkpoints -------------------------------------------------------------------------------------

CHECKPOINT_FORMAT = "puzzlesearch checkpoint 1"

_CHECKPOINT_SCHEMA = (
    # format marker, the run's parameters (canonical JSON) and the hash of its task list
    "create table meta (key text primary key, value text not null)",
    # one row per finished task, committed on its own as soon as the parent receives it
    "create table done (idx integer primary key, task text not null, result text not null, seconds real)",
)


def canonical_json(value: Any) -> str:
    """The one JSON spelling of a value (sorted keys, no spaces), so equal values compare equal."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def tasks_hash(tasks: list) -> str:
    """A fingerprint of a task list: a checkpoint resumes only the exact same subproblems."""
    return hashlib.sha256(canonical_json(tasks).encode()).hexdigest()


class Checkpoint(_Database):
    """One run's parameters and every task it has finished, in an SQLite file (WAL mode,
    synchronous=FULL: see `DURABLE`).

    A new file gets the format marker, the parameters and the task list's hash in one
    transaction; an existing one must carry the same three, or it is refused with a
    ValueError (made for other parameters, not a checkpoint, or damaged). Each finished
    task is then committed in its own transaction, so a process killed or a power cut at any
    moment leaves a consistent file that has lost only the tasks still running.
    """

    def __init__(self, path: str | os.PathLike, params: dict | None, tasks: list):
        self._refuse_foreign(path, params, tasks)
        try:
            # isolation_level=None: we write BEGIN/COMMIT ourselves, so that creating the
            # schema is one transaction too (the sqlite3 module would autocommit DDL).
            self._db = sqlite3.connect(target(self.path), timeout=30, isolation_level=None)
        except sqlite3.Error as e:
            raise ValueError(f"cannot open checkpoint {show(self.path)}: {e}") from e
        try:
            self._open()
        except BaseException:
            self.close()
            raise

    @classmethod
    def check(cls, path: str | os.PathLike, params: dict | None, tasks: list) -> None:
        """Refuse (ValueError, one line) a checkpoint that the run of `params` and `tasks`
        could not resume, as opening it would, but before any work and without opening it
        for writing: a run that builds tables first calls this before it builds them."""
        cls.__new__(cls)._refuse_foreign(path, params, tasks)

    def _refuse_foreign(self, path: str | os.PathLike, params: dict | None, tasks: list) -> None:
        self.path = Path(path)
        self.params = canonical_json(params if params is not None else {})
        self.ntasks = len(tasks)
        self._tasks_hash = tasks_hash(tasks)
        check_checkpoint(self.path)
        if _header(self.path, "--checkpoint") == _LAYERS_HEADER:
            raise ValueError(f"checkpoint {show(self.path)} belongs to a breadth-first search "
                             f"({LAYERS_COMMANDS}), not to this command")
        if target(self.path).exists() and target(self.path).stat().st_size > 0:
            # refused here, a file of another run is left exactly as it was (no -wal, -shm)
            with _reading(self.path) as db:
                self._check(db)

    @staticmethod
    def params_of(path: str | os.PathLike) -> dict | None:
        """The parameters a checkpoint was made for, or None where `path` holds no
        checkpoint (yet): for a command that names what differs in its own words."""
        p = Path(path)
        try:
            if not target(p).is_file() or _header(p, "--checkpoint") != SQLITE_HEADER:
                return None
            with _reading(p) as db:
                meta = dict(db.execute("select key, value from meta").fetchall())
        except (sqlite3.DatabaseError, ValueError, OSError):
            return None  # the full check says what is wrong with it
        if meta.get("format") != CHECKPOINT_FORMAT:
            return None
        try:
            made = json.loads(meta.get("params", ""))
        except ValueError:
            return None
        return made if isinstance(made, dict) else None

    def _damaged(self, why: object) -> ValueError:
        return ValueError(f"checkpoint {show(self.path)} is damaged ({why}); "
                          "delete it to start the run afresh")

    def _open(self) -> None:
        db = self._db
        try:
            db.execute("pragma journal_mode=wal")
            db.execute(DURABLE)
        except sqlite3.DatabaseError as e:
            raise self._damaged(e) from e
        if self._check(db):
            self._create()

    def _check(self, db: sqlite3.Connection) -> bool:
        """Refuse (ValueError) a file that is damaged, is not a checkpoint, or was made for
        other parameters; True when it holds no tables yet (a new checkpoint)."""
        try:
            check = [row[0] for row in db.execute("pragma quick_check")]
            tables = {row[0] for row in db.execute("select name from sqlite_master where type = 'table'")}
        except sqlite3.DatabaseError as e:
            raise self._damaged(e) from e
        if check != ["ok"]:
            raise self._damaged("; ".join(check[:3]))
        if not tables:
            return True
        not_ours = ValueError(
            f"{show(self.path)} is not a puzzlesearch checkpoint (an SQLite file without its marker)"
        )
        if not {"meta", "done"} <= tables:
            raise not_ours
        try:
            meta = dict(db.execute("select key, value from meta").fetchall())
        except sqlite3.DatabaseError as e:
            raise self._damaged(e) from e
        if meta.get("format") != CHECKPOINT_FORMAT:
            raise not_ours
        if meta.get("params") != self.params:
            raise ValueError(
                f"checkpoint {show(self.path)} was made for other parameters: {meta.get('params')}, "
                f"not {self.params}"
            )
        if meta.get("tasks") != self._tasks_hash or meta.get("ntasks") != str(self.ntasks):
            raise ValueError(
                f"checkpoint {show(self.path)} was made for other parameters: the same {self.params} "
                "split into other subproblems (made by another version of the program?)"
            )
        return False

    def _create(self) -> None:
        meta = {
            "format": CHECKPOINT_FORMAT,
            "params": self.params,
            "tasks": self._tasks_hash,
            "ntasks": str(self.ntasks),
            "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
        }
        with self._transaction():
            for statement in _CHECKPOINT_SCHEMA:
                self._db.execute(statement)
            self._db.executemany("insert into meta values (?, ?)", meta.items())

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        with no_space(self.path):
            self._db.execute("begin immediate")
            try:
                yield
            except BaseException:
                # also on KeyboardInterrupt: the half-written task is dropped, never kept
                if self._db.in_transaction:
                    self._db.execute("rollback")
                raise
            self._db.execute("commit")

    def done(self) -> dict[int, Any]:
        """The results of the finished tasks, by task index."""
        try:
            rows = self._db.execute("select idx, result from done order by idx").fetchall()
            results = {int(idx): json.loads(text) for idx, text in rows}
        except (sqlite3.DatabaseError, ValueError, TypeError) as e:
            raise self._damaged(e) from e
        if any(not 0 <= idx < self.ntasks for idx in results):
            raise self._damaged("a task index out of range")
        return results

    def record(self, index: int, task: Any, result: Any, seconds: float | None = None) -> None:
        """Commit one finished task (its own transaction)."""
        with self._transaction():
            self._db.execute(
                "insert or replace into done values (?, ?, ?, ?)",
                (index, canonical_json(task), canonical_json(result), seconds),
            )

