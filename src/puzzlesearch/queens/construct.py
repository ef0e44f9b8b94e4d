"""One N-Queens board for any n, built without search, and an O(n) check of any board.

Counting and listing need search; one board does not. For every n >= 4 an explicit
construction places the queens row by row with arithmetic alone (Hoffman, Loessi & Moore,
"Constructions for the solution of the m queens problem", Mathematics Magazine 42 (1969)
66-72; in the form of Bernhardsson, "Explicit solutions to the N-queens problem for all
N", SIGART Bulletin 2 (1991) 7). Rows and columns 1-based, h = m/2, for an even m:

- m mod 6 != 2: row i holds column 2i and row h + i column 2i - 1 (i = 1..h): the even
  columns, then the odd ones, each rising by 2, so the differences and sums along each half
  differ by steps of 1 and 3 and never meet;
- m mod 6 != 0 (so every m mod 6 == 2 is covered): with k = (2i + h - 3) mod m, row i
  holds column 1 + k and row m + 1 - i column m - k (i = 1..h);
- an odd n = m + 1: the board of m, and a queen on the corner (n, n), which both patterns
  leave free (neither puts a queen on the main diagonal).

n = 1 is one queen; n = 2 and 3 have no board (`NoBoard`). The construction is a
few numpy operations on arrays of n small ints, so n = 10^7 takes a fraction of a second.

`verify` checks any board in O(n) without trusting its maker: the n columns are a
permutation of 0..n-1, and the n sums row + column, like the n differences row - column,
are all distinct (marked in boolean arrays of 2n - 1 places). `solve` never returns a
board it has not verified.

Boards here are numpy arrays of 0-based columns, one per row (int32: n <= MAX_SOLVE_N).

>>> from puzzlesearch.queens import construct, rules
>>> b = construct.board(8)
>>> [int(c) + 1 for c in b]
[4, 6, 8, 2, 7, 1, 3, 5]
>>> construct.verify(b), rules.is_solution(tuple(b.tolist()), 8)
('', True)
>>> construct.verify([1, 3, 0, 2, 5, 4])
'the queens 5:6 and 6:5 share a diagonal (row + column = 11)'
>>> construct.board(3)
Traceback (most recent call last):
...
puzzlesearch.queens.construct.NoBoard: no board exists for n=3: every way of putting 3 queens on a 3x3 \
board has two that attack each other
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from puzzlesearch.engine import figures
from puzzlesearch.engine.failures import CheckFailed
from puzzlesearch.engine.params import items, whole
from puzzlesearch.engine.paths import check_writable, replacing

#: the largest board `solve` builds. At n = 10^7 a whole run (interpreter and numpy
#: included) peaks at 251 MiB: the board (40 MB), the verifier's arrays (about 140 MB at
#: once), the text in chunks; it writes a 79 MB file in 2.3 s (benchmarks/queens.py
#: --solve). 10^8 would need 2.5 GB and write 900 MB of text, a file no one reads.
MAX_SOLVE_N = 10**7
#: the largest board drawn square by square (--format rows or board): n lines of n squares,
#: 1 MB of text (board: 3 MB) at n = 1000; beyond it the drawing is no picture.
MAX_DRAW_N = 1000
#: `queens show` lists boards in lexicographic order by search up to this n (without given
#: queens); the backtracker finds the first board in that order in under 2 s up to n = 31,
#: but n = 32 took 11 s here and n = 34 and 40 more than 30 s (the time grows fast and
#: unevenly with n), so beyond it `show` shows the constructed board instead
SEARCH_N = 31
#: output formats: 1-based columns on one line (as `queens show` prints them), '.Q..' rows,
#: or the unicode board
FORMATS = ("columns", "rows", "board")
#: columns per piece of text: bounds the memory of writing a board of 10^7 (~ 1 MB a piece)
CHUNK = 1 << 17


class NoBoard(Exception):
    """n = 2 or 3: no n queens fit on the board. Not a ValueError: the input is fine, the
    answer is "none" (the command line exits 1, not 2)."""


@dataclass(frozen=True)
class Solved:
    """One board of n queens, verified.

    Attributes:
        n: The size of the board.
        columns: The 0-based column of each row's queen (a numpy int32 array of n).
        seconds: The time to build and verify it.
    """

    n: int
    columns: np.ndarray
    seconds: float

    def _repr_svg_(self) -> str | None:
        """A notebook shows the board as a chess board up to pictures.MAX_N (None beyond,
        or without matplotlib: the text repr then)."""
        from . import pictures

        if self.n > pictures.MAX_N:
            return None
        return figures.notebook_svg(pictures.board_figure, self.columns)


# --- checks ---------------------------------------------------------------------------------------


def check_n(n: object) -> int:
    """n as an int, or ValueError in the command line's words unless 1 <= n <= MAX_SOLVE_N."""
    n = whole(n, "-n")
    if n < 1:
        raise ValueError(f"-n must be at least 1, got {n}")
    if n > MAX_SOLVE_N:
        raise ValueError(f"-n must be at most {MAX_SOLVE_N:,} to build a board, got {_short(n)}")
    return n


def check_format(fmt: str, n: int) -> None:
    """ValueError unless `fmt` is one of FORMATS and, drawn square by square, n <= MAX_DRAW_N."""
    if fmt not in FORMATS:
        raise ValueError(f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    if fmt != "columns" and n > MAX_DRAW_N:
        raise ValueError(f"--format {fmt} draws boards up to n = {MAX_DRAW_N} ({n} x {n} squares would be "
                         f"{n * n:,} characters); use --format columns")


def _short(n: int) -> str:
    text = str(n) if n.bit_length() < 200 else f"a number of about {int(n.bit_length() * 0.30103)} digits"
    return text if len(text) <= 24 else text[:20] + "..."


# --- the construction -----------------------------------------------------------------------------


def board(n: int) -> np.ndarray:
    """One n-queens board by the explicit construction (Hoffman, Loessi and Moore), not
    verified here: see `solve`.

    Args:
        n: The size of the board, 1 to `MAX_SOLVE_N`.

    Returns:
        The 0-based column of each row's queen (int32).

    Raises:
        NoBoard: n = 2 or 3.
    """
    n = check_n(n)
    if n in (2, 3):
        raise NoBoard(f"no board exists for n={n}: " + (
            "2 queens on a 2x2 board always attack each other" if n == 2 else
            "every way of putting 3 queens on a 3x3 board has two that attack each other"))
    cols = np.empty(n, np.int32)
    m = n - (n % 2)  # the even board; an odd n adds the corner queen
    h = m // 2
    if m % 6 != 2:
        # 1-based: row i -> 2i, row h + i -> 2i - 1
        cols[:h] = np.arange(1, m, 2, dtype=np.int32)
        cols[h:m] = np.arange(0, m, 2, dtype=np.int32)
    else:
        # 1-based, k = (2i + h - 3) mod m: row i -> 1 + k, row m + 1 - i -> m - k
        i = np.arange(1, h + 1, dtype=np.int64)
        k = ((2 * i + h - 3) % m).astype(np.int32)
        cols[:h] = k
        cols[h:m] = (m - 1 - k)[::-1]
    if n % 2:
        cols[n - 1] = n - 1
    return cols


def solve(n: int) -> Solved:
    """One verified board of n queens, built without search.

    Args:
        n: The size of the board, 1 to `MAX_SOLVE_N`.

    Returns:
        The board (it draws itself in a notebook) and the time it took.

    Raises:
        NoBoard: n = 2 or 3.
        CheckFailed: The verifier refuses the board (a bug in the construction: never
            a wrong board returned).
    """
    t0 = time.perf_counter()
    cols = board(n)
    problem = verify(cols, n)
    if problem:
        raise CheckFailed("the constructed board's replay", f"the board of n={n} is wrong: {problem}")
    return Solved(int(n), cols, time.perf_counter() - t0)


# --- the check ------------------------------------------------------------------------------------


def verify(cols: object, n: int | None = None) -> str:
    """Check a board of n queens in O(n), without trusting its maker.

    Args:
        cols: The 0-based column of each row's queen.
        n: The rows the board must have (None: any).

    Returns:
        "" for a board of n queens, else one sentence naming the first problem: the
        board's shape, a column off the board, then two queens sharing a column, a
        diagonal (row + column), the other diagonal (row - column), in that order; among
        clashes of one kind, the one whose later row comes first. Squares in the
        sentence are 1-based row:column, as on the command line.
    """
    if n is not None:
        n = whole(n, "-n")
    if not isinstance(cols, np.ndarray):
        cols = items(cols, "a board (cols)")
    try:
        a = np.asarray(cols)
    except (TypeError, ValueError, OverflowError) as e:
        return f"a board is a list of columns, one per row ({e})"
    if a.ndim != 1:
        return f"a board is a list of columns, one per row, got an array of shape {a.shape}"
    if n is not None and a.size != n:
        return f"a board of n={n} has {n} rows, got {a.size}"
    n = a.size
    if n == 0:
        return "a board needs at least one row"
    if a.dtype.kind not in "iu":
        return f"a board's columns are whole numbers, got {a.dtype} values"
    off = np.flatnonzero((a < 0) | (a >= n))
    if off.size:
        r = int(off[0])
        return f"row {r + 1}'s queen is in column {int(a[r]) + 1}, off the {n}x{n} board (columns 1..{n})"
    wide = np.int64 if n >= 1 << 30 else np.int32
    c = a.astype(wide, copy=False)
    r = np.arange(n, dtype=wide)
    for key, span, what in (
        (c, n, "a column"),
        (r + c, 2 * n - 1, "a diagonal (row + column = {})"),
        (r - c + (n - 1), 2 * n - 1, "a diagonal (row - column = {})"),
    ):
        if not _distinct(key, span):
            r1, r2 = _first_clash(key)
            if "{}" in what:
                value = r1 + int(a[r1]) + 2 if "+" in what else r1 - int(a[r1])
                what = what.format(value)
            return f"the queens {r1 + 1}:{int(a[r1]) + 1} and {r2 + 1}:{int(a[r2]) + 1} share {what}"
    return ""


def _distinct(key: np.ndarray, span: int) -> bool:
    """Are the values of `key` (all in 0..span-1) distinct? One boolean per possible value."""
    seen = np.zeros(span, np.bool_)
    seen[key] = True
    return int(np.count_nonzero(seen)) == key.size


def _first_clash(key: np.ndarray) -> tuple[int, int]:
    """(r1, r2), r1 < r2 with key[r1] == key[r2] and r2 as small as can be: the second
    row of its class in a stable sort is preceded there by the first. Only on failure."""
    order = np.argsort(key, kind="stable")
    same = np.flatnonzero(key[order][1:] == key[order][:-1])
    j = int(same[np.argmin(order[same + 1])])
    return int(order[j]), int(order[j + 1])


# --- text -----------------------------------------------------------------------------------------


def row_line(c: int, n: int, fmt: str) -> str:
    """One row with its queen in column c (0-based): 'rows' ('.Q..') or 'board' (unicode, ♛ on ·)."""
    if fmt == "rows":
        return "." * c + "Q" + "." * (n - 1 - c)
    return " ".join(["·"] * c + ["♛"] + ["·"] * (n - 1 - c))


def text(cols: np.ndarray, fmt: str = "columns") -> Iterator[str]:
    """The board as text, in pieces whose concatenation ends with a newline: 'columns' is one
    line of the 1-based columns separated by spaces; 'rows' and 'board' one line per row."""
    n = len(cols)
    check_format(fmt, n)
    if fmt == "columns":
        yield from joined(cols, " ")
        yield "\n"
        return
    for start in range(0, n, 64):
        yield "".join(row_line(int(c), n, fmt) + "\n" for c in cols[start : start + 64])


def joined(cols: np.ndarray, sep: str) -> Iterator[str]:
    """The 1-based columns separated by `sep`, in pieces of CHUNK columns (no newline)."""
    for start in range(0, len(cols), CHUNK):
        piece = cols[start : start + CHUNK].astype(np.int64) + 1
        yield ("" if start == 0 else sep) + sep.join(map(str, piece.tolist()))


def save(cols: np.ndarray, path: str | os.PathLike, fmt: str = "columns") -> Path:
    """Write `text` to `path` atomically: a temporary file beside it, renamed over it
    when complete, so that `path` holds the old file or the whole board, never a part.
    OSError (the temporary file removed) when the disk is full or the folder went away."""
    with replacing(path, "--out") as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as f:
        for piece in text(cols, fmt):
            f.write(piece)
    return Path(path)


def check_out(path: str | os.PathLike) -> Path:
    """ValueError (one line) unless --out `path` can be written: checked before the work."""
    return check_writable(path, "--out")


__all__ = ["CHUNK", "FORMATS", "MAX_DRAW_N", "MAX_SOLVE_N", "SEARCH_N", "NoBoard", "Solved", "board",
           "check_format", "check_n", "check_out", "joined", "row_line", "save", "solve", "text", "verify"]
