"""Pictures of N-Queens: a board with its queens.

The board as the command line prints it: row 1 at the top, column 1 at the left, rows and
columns numbered from 1 (``--fixed 1:3`` is row 1, column 3). Drawn with matplotlib (the
optional extra ``plot``) on engine.figures' Agg figures; ``queens show --plot FILE`` saves
the first board shown, and a notebook shows a board (``rules.Board``, which the API's
listings yield) or a constructed one (``construct.Solved``) as this picture. This module
imports nothing else of the puzzle (the boards import it to draw themselves).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from puzzlesearch.engine import figures
from puzzlesearch.engine.params import plural

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: the largest board drawn: at n = 1000 a square is a fraction of a pixel of a page-wide
#: picture already, and a picture of more squares shows no queen
MAX_N = 1000
#: queens are drawn as the chess glyph up to this n, beyond as dots (a glyph a few pixels
#: wide is a blot)
GLYPH_N = 40
#: rows and columns are numbered along the edges up to this n
NUMBERED_N = 20
#: queens are rasterized in SVG beyond this n (thousands of small shapes)
VECTOR_N = 200
#: the squares' colours: light, dark (those of many printed chess boards)
SQUARES = ("#f0d9b5", "#b58863")


def check_n(n: int, option: str = "--plot") -> None:
    """ValueError (the command line's line) unless a board of n is drawn: n <= MAX_N."""
    if n > MAX_N:
        raise ValueError(f"{option} draws boards up to n = {MAX_N:,} ({n:,} x {n:,} squares would show no "
                         "queen)")


def board_figure(board: Sequence[int]) -> Figure:
    """A chess board of n = len(board) squares a side with a queen in row r, column
    board[r] (0-based) for each r; ValueError beyond MAX_N."""
    from matplotlib.colors import ListedColormap

    cols = np.asarray(board, dtype=np.int64).reshape(-1)
    n = len(cols)
    check_n(n, "a picture")
    side = 5.0 if n > 8 else 4.0
    fig = figures.figure(side, side + 0.3)
    ax = fig.add_subplot()
    squares = np.add.outer(np.arange(n), np.arange(n)) % 2
    ax.imshow(squares, cmap=ListedColormap(SQUARES), vmin=0, vmax=1, interpolation="nearest",
              extent=(-0.5, n - 0.5, n - 0.5, -0.5))
    cell = 0.8 * side * 72 / max(n, 1)  # points a square is wide, roughly
    if n <= GLYPH_N:
        ax.scatter(cols, np.arange(n), marker="$\u265b$", s=(0.8 * cell) ** 2, color="#111111",
                   linewidths=0, gid="queens")
    else:
        ax.scatter(cols, np.arange(n), marker="s", s=max(cell, 0.6) ** 2, color="#cc1111", linewidths=0,
                   gid="queens", rasterized=n > VECTOR_N)
    ax.set_xlim(-0.5, n - 0.5)
    ax.set_ylim(n - 0.5, -0.5)
    if n <= NUMBERED_N:
        ax.set_xticks(range(n), [str(c + 1) for c in range(n)])
        ax.set_yticks(range(n), [str(r + 1) for r in range(n)])
        ax.xaxis.tick_top()
        ax.tick_params(length=0, labelsize=8)
    else:
        ax.set_xticks([])
        ax.set_yticks([])
    columns = " ".join(str(c + 1) for c in cols) if n <= 16 else ""
    ax.set_title(f"{n} {plural(n, 'queen')}" + (f": {columns}" if columns else ""), fontsize=10)
    fig.tight_layout()
    return fig


__all__ = ["GLYPH_N", "MAX_N", "board_figure", "check_n"]
