"""Pictures of Sprague-Grundy values: G(n) against the heap n.

A take-and-break table (``TakeBreakValues``: octal games, Grundy's game, hexadecimal
games) or a subtraction game's (``SubtractionValues``) as points, with what the run found
marked: the rare heaps of the rare/common method (values v with parity(v & mask) = 0, the
few heaps of Grundy's game that the method searches apart) and the heap from which the
proven period repeats. Drawn with matplotlib (the optional extra ``plot``) on
engine.figures' Agg figures; ``grundy octal/grundys --plot FILE`` saves it and a notebook
shows a table as one. This module imports nothing else of the puzzle (the results import
it to draw themselves).

A table may hold up to 10^9 values. Past DIRECT heaps the points are thinned: the heaps
are cut into at most BINS equal ranges and each value that occurs in a range is drawn
once, at its start, so the picture keeps every value's presence at the width a page can
show, and the points are rasterized in SVG (an SVG of 10^6 shapes would weigh megabytes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import numpy as np

from puzzlesearch.engine import figures

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: heaps drawn one point each; beyond, the points are thinned (see the module's docstring)
DIRECT = 20_000
#: ranges of heaps a thinned picture shows (about the pixels across a page-wide picture)
BINS = 4000
#: heaps whose values are looked at in one go when thinning (bounded memory at 10^9 heaps)
CHUNK = 1 << 22
#: most cells of the (range, value) table of a thinned picture (bytes: one each)
CELLS = 1 << 26


class _Values(Protocol):
    """What the picture needs of a table of values (games.takebreak.TakeBreakValues;
    games.subtraction.SubtractionValues has no rare heaps)."""

    game: str
    count: int
    values: np.ndarray
    max_value: int
    period: int | None
    preperiod: int | None


def rare(values: np.ndarray, mask: int) -> np.ndarray:
    """Which of `values` are rare under `mask`: parity(v & mask) = 0 (booleans)."""
    x = (values & mask).astype(np.uint16)
    for shift in (8, 4, 2, 1):
        x ^= x >> shift
    return (x & 1) == 0


def thinned(values: np.ndarray, heaps: np.ndarray | None = None, width: int = 1,
            top: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) of the points to draw: each value that occurs among the heaps of a range of
    `width` heaps, once, at the range's first heap. `heaps` are the heaps of `values`
    (default 0, 1, ...); `top` bounds the values (default their largest)."""
    heaps = np.arange(len(values), dtype=np.int64) if heaps is None else heaps.astype(np.int64)
    if width <= 1 or len(values) == 0:
        return heaps, values.astype(np.int64)
    top = int(values.max()) if top is None else top
    ranges = int(heaps[-1]) // width + 1
    seen = np.zeros(ranges * (top + 1), np.bool_)
    for start in range(0, len(values), CHUNK):
        seen[(heaps[start:start + CHUNK] // width) * (top + 1) + values[start:start + CHUNK]] = True
    cells = np.flatnonzero(seen)
    return (cells // (top + 1)) * width, cells % (top + 1)


def values_figure(values: _Values) -> Figure:
    """G(n) against n for n = 0..count-1: the values as points (thinned past DIRECT
    heaps), the rare heaps in another colour when the rare/common method was used
    (``rare_mask``), and the start of the proven period as a dashed line."""
    g = np.asarray(values.values)
    count = len(g)
    top = int(values.max_value)
    width = 1 if count <= DIRECT else -(-count // min(BINS, max(1, CELLS // (top + 1))))
    mask = int(getattr(values, "rare_mask", 0) or 0)
    fig = figures.figure(8, 4)
    ax = fig.add_subplot()
    size = 10 if count <= 2000 else 2
    if mask:
        common_heaps, rare_heaps = [], []
        for start in range(0, count, CHUNK):
            is_rare = rare(g[start:start + CHUNK], mask)
            common_heaps.append(np.flatnonzero(~is_rare) + start)
            rare_heaps.append(np.flatnonzero(is_rare) + start)
        common = np.concatenate(common_heaps) if common_heaps else np.zeros(0, np.int64)
        few = np.concatenate(rare_heaps) if rare_heaps else np.zeros(0, np.int64)
    else:
        common, few = None, np.zeros(0, np.int64)
    if common is None:
        x, y = thinned(g, None, width, top)
    else:
        x, y = thinned(g[common], common, width, top)
    ax.scatter(x, y, s=size, marker="o", color="#4477aa", linewidths=0, gid="values",
               rasterized=len(x) > DIRECT, label="G(n)" if not mask else "common heaps")
    if mask:
        rx, ry = thinned(g[few], few, 1 if len(few) <= DIRECT else width, top)
        ax.scatter(rx, ry, s=max(size, 8), marker="D", color="#ee7733", linewidths=0, gid="rare",
                   rasterized=len(rx) > DIRECT,
                   label=f"rare heaps ({len(few):,}: parity(v & {mask}) = 0)")
    if values.period is not None and values.preperiod is not None:
        ax.axvline(values.preperiod, color="#aa3377", linestyle="--", linewidth=1, gid="period",
                   label=f"period {values.period} from heap {values.preperiod:,}")
    ax.set_xlim(-0.01 * count, count * 1.01)
    ax.set_ylim(-0.5, top + 0.5 + 0.05 * top)
    ax.set_xlabel("heap n")
    ax.set_ylabel("G(n)")
    shown = "" if width == 1 else f"; each value once per {width:,} heaps"
    ax.set_title(f"{values.game}: G(n) for n = 0..{count - 1:,}{shown}", fontsize=10)
    ax.xaxis.set_major_formatter(lambda x, _: f"{x:,.0f}")
    if mask or values.period is not None:  # below the axes: the points fill them
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncols=3, fontsize=8, markerscale=1.5,
                  frameon=False)
    fig.tight_layout()
    return fig


__all__ = ["BINS", "DIRECT", "rare", "thinned", "values_figure"]
