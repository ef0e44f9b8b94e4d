"""Pictures of the Tower of Hanoi: pegs and discs.

A position is the peg of every disc, largest disc first (rules.py); a peg's discs are
stacked largest at the bottom, as draw.py draws them in text. Drawn with matplotlib (the
optional extra ``plot``) on engine.figures' Agg figures; a notebook shows a ``Distance``
or a ``Solution`` (api.py) as its start and goal side by side. This module imports only
the plain rules of the puzzle (the results import it to draw themselves).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from puzzlesearch.engine import figures

from .rules import Position, parse_position, peg_letter

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: the most discs drawn: beyond, a disc is thinner than a line of the picture
MAX_DISCS = 1000
#: discs are rasterized in SVG beyond this many (each is a shape of its own)
VECTOR_DISCS = 200


def check_discs(n: int) -> None:
    """ValueError unless a position of n discs is drawn: n <= MAX_DISCS."""
    if n > MAX_DISCS:
        raise ValueError(f"a picture shows at most {MAX_DISCS:,} discs, got {n:,}")


def _position(position: Position | str, pegs: int) -> Position:
    return parse_position(position, pegs) if isinstance(position, str) else tuple(int(p) for p in position)


def _draw(ax: Axes, position: Position, pegs: int, title: str | None) -> None:
    """The pegs and the discs of one position on `ax`: disc d (1 the smallest) of n is
    a bar of width growing with d, coloured by its size."""
    from matplotlib import colormaps
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Rectangle

    n = len(position)
    height = max(n, 1) + 1
    ax.add_collection(PatchCollection(
        [Rectangle((p + 0.5 - 0.015, 0), 0.03, height - 0.3) for p in range(pegs)],
        facecolor="#555555", edgecolor="none", gid="pegs"))
    stacked = [0] * pegs
    discs, sizes = [], []
    for i, peg in enumerate(position):  # largest first = bottom first
        disc = n - i
        width = 0.12 + 0.8 * disc / n
        discs.append(Rectangle((peg + 0.5 - width / 2, stacked[peg]), width, 1))
        sizes.append(disc)
        stacked[peg] += 1
    cmap = colormaps["viridis"]
    colours = [cmap(0.15 + 0.75 * (d - 1) / max(n - 1, 1)) for d in sizes]
    ax.add_collection(PatchCollection(discs, facecolor=colours, edgecolor="white",
                                      linewidth=0.6 if n <= 40 else 0, gid="discs",
                                      rasterized=n > VECTOR_DISCS))
    ax.plot([0.05, pegs - 0.05], [0, 0], color="#333333", linewidth=2)
    ax.set_xlim(0, pegs)
    ax.set_ylim(-0.05 * height, height)
    ax.set_xticks([p + 0.5 for p in range(pegs)], [peg_letter(p) for p in range(pegs)])
    ax.set_yticks([])
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    if title:
        ax.set_title(title, fontsize=10)


def _size(pegs: int, n: int, panels: int) -> tuple[float, float]:
    return max(3.0, min(1.4 * pegs * panels, 14.0)), 1.6 + 2.4 * min(n, 12) / 12


def position_figure(position: Position | str, pegs: int, title: str | None = None) -> Figure:
    """One position: its pegs (A, B, ... left to right) and discs. `position` is the peg
    of each disc, largest first, as numbers (0 is A) or letters ('ACB'); the title is the
    position's letters unless `title` is given. ValueError beyond MAX_DISCS discs."""
    position = _position(position, pegs)
    check_discs(len(position))
    fig = figures.figure(*_size(pegs, len(position), 1))
    _draw(fig.add_subplot(), position, pegs,
          title if title is not None else "".join(peg_letter(p) for p in position) or "no discs")
    fig.tight_layout()
    return fig


def positions_figure(positions: Sequence[tuple[str, Position | str]], pegs: int, title: str = "") -> Figure:
    """Several positions side by side, each (caption, position) as in `position_figure`,
    under one title: a start and a goal, say."""
    parsed = [(caption, _position(position, pegs)) for caption, position in positions]
    n = max((len(p) for _, p in parsed), default=0)
    check_discs(n)
    fig = figures.figure(*_size(pegs, n, len(parsed)))
    axes = fig.subplots(1, len(parsed), squeeze=False)[0]
    for ax, (caption, position) in zip(axes, parsed, strict=True):
        _draw(ax, position, pegs, caption)
    if title:
        fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig


__all__ = ["MAX_DISCS", "check_discs", "position_figure", "positions_figure"]
