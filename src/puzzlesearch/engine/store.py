"""SQLite stores: the results store of computed exact values.

The results store keeps values this program has computed itself (e.g. Topswops f(m)),
so that later runs reuse them as search bounds instead of recomputing them. It lives
in the user's data directory unless a path is given (``--store PATH``), and is never
seeded from published tables: a value enters it only as the outcome of a finished search.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

import platformdirs

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


def default_store_path() -> Path:
    """The results store in the user's data directory (PUZZLESEARCH_STORE overrides)."""
    env = os.environ.get("PUZZLESEARCH_STORE")
    if env:
        return Path(env)
    return Path(platformdirs.user_data_dir("puzzlesearch")) / "results.sqlite"


class ResultsStore:
    """Computed exact results keyed by (puzzle, key); values are JSON."""

    def __init__(self, path: str | os.PathLike | None = None):
        self.path = Path(path) if path is not None else default_store_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(self.path, timeout=30)
            self._db.execute("pragma journal_mode=wal")
            self._db.execute(_RESULTS_SCHEMA)
            self._db.commit()
        except sqlite3.DatabaseError as e:
            raise ValueError(f"{self.path} is not a puzzlesearch results store ({e})") from e

    def get(self, puzzle: str, key: str) -> Any | None:
        row = self._db.execute(
            "select value from results where puzzle = ? and key = ?", (puzzle, key)
        ).fetchone()
        return None if row is None else json.loads(row[0])

    def put(self, puzzle: str, key: str, value: Any, method: str, seconds: float | None = None) -> None:
        with self._db:
            self._db.execute(
                "insert or replace into results values (?, ?, ?, ?, ?, ?)",
                (puzzle, key, json.dumps(value), method, seconds, time.strftime("%Y-%m-%dT%H:%M:%S")),
            )

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ResultsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
