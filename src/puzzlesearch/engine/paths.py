"""Output paths checked before the work: plots, stores, checkpoints, --out files.

A search that runs for an hour and then cannot write its answer has lost the hour, so
every file a command will write is checked first, all the same way: its folder must
exist (nothing is created silently), it must not be a folder, and it must be writable.
"""

from __future__ import annotations

import os
from pathlib import Path


def check_writable(path: str | os.PathLike, what: str) -> Path:
    """Raise ValueError (one line naming `what`) unless `path` can be created or rewritten."""
    p = Path(path)
    if str(path) == "":
        raise ValueError(f"{what} needs a file name, got an empty one")
    if p.is_dir():
        raise ValueError(f"{what} {path} is a folder, not a file")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise ValueError(f"{what} {path}: the folder {parent} does not exist")
    if p.exists():
        if not os.access(p, os.W_OK):
            raise ValueError(f"{what} {path} cannot be written (permission denied)")
    elif not os.access(parent, os.W_OK | os.X_OK):
        raise ValueError(f"{what} {path} cannot be created (no write permission in {parent})")
    return p


__all__ = ["check_writable"]
