"""Pictures of topswops: a game drawn move by move.

One row per deck, from the start (top row) to the end (card 1 on top), the cards left to
right from the top of the deck. In each row the top card k is marked, and the k cards it
reverses are framed, so a reader can follow each reversal into the row below. Drawn with
matplotlib (the optional extra ``plot``) on engine.figures' Agg figures; the command line
saves it with ``topswops play --plot FILE`` and a notebook shows a ``Play`` as one. This
module imports nothing else of the puzzle (the results import it to draw themselves).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np

from puzzlesearch.engine import figures
from puzzlesearch.engine.params import plural

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: the cards are written in their squares up to this many squares (beyond, the numbers
#: would be too small to read, and the colours tell the order)
LABELLED_SQUARES = 2000
#: the deck is written out in the title up to this many cards
TITLE_CARDS = 16
#: drawn shapes beyond which the marks are rasterized in SVG (a long game of many cards)
VECTOR_MARKS = 2000


class _Game(Protocol):
    """What the picture needs of a game (topswops.api.Play)."""

    deck: tuple[int, ...]
    steps: int
    trace: Sequence[Sequence[int]]


def game_figure(play: _Game) -> Figure:
    """The game as rows of cards, one row per deck from the start to the end; the top card
    of each row highlighted, the cards it reverses framed, the reversals counted in the title."""
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Rectangle

    trace = np.asarray(play.trace, dtype=np.int64).reshape(len(play.trace), -1)
    rows, n = trace.shape
    fig = figures.figure(min(max(0.32 * n + 1.6, 3.2), 12.0), min(max(0.28 * rows + 1.4, 2.2), 14.0))
    ax = fig.add_subplot()
    # light colours, dark enough to tell the cards apart where their numbers are not written
    ax.imshow(trace, cmap="Blues", vmin=0, vmax=1.6 * n, aspect="auto", interpolation="nearest",
              extent=(0.5, n + 0.5, rows - 0.5, -0.5))
    big = rows + int(trace[:-1, 0].sum()) > VECTOR_MARKS
    tops = [Rectangle((0.5, r - 0.5), 1, 1) for r in range(rows)]
    ax.add_collection(PatchCollection(tops, facecolor="#ee9955", edgecolor="none", gid="tops",
                                      rasterized=big))
    # inset a little, so that a frame around the whole deck is not cut by the edge
    flips = [Rectangle((0.54, r - 0.44), int(trace[r, 0]) - 0.08, 0.88) for r in range(rows - 1)]
    ax.add_collection(PatchCollection(flips, facecolor="none", edgecolor="#aa3377", linewidth=1.2,
                                      gid="reversals", rasterized=big))
    if rows * n <= LABELLED_SQUARES:
        size = 9 if n <= 12 else 7
        for r in range(rows):
            for c in range(n):
                ax.text(c + 1, r, str(trace[r, c]), ha="center", va="center", fontsize=size)
    ax.set_xlim(0.5, n + 0.5)
    ax.set_ylim(rows - 0.5, -0.5)
    ax.set_xlabel("position in the deck (top first)")
    ax.set_ylabel("reversals made")
    ax.xaxis.set_label_position("top")
    ax.xaxis.tick_top()
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    whose = " ".join(map(str, play.deck)) if n <= TITLE_CARDS else f"a deck of {n} cards"
    ax.set_title(f"topswops {whose}: {play.steps} {plural(play.steps, 'reversal')}", fontsize=10)
    fig.tight_layout()
    return fig


__all__ = ["game_figure"]
