"""Pictures of a puzzle's census: its distance histogram.

Drawn with matplotlib (the optional extra ``plot``) on engine.figures' Agg figures; the
command line saves it with ``--plot FILE`` and a notebook shows a ``Census`` as one.
This module imports nothing else of the package (the results import it to draw themselves).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from puzzlesearch.engine import figures

if TYPE_CHECKING:
    from matplotlib.figure import Figure


class _Census(Protocol):
    """What the histogram needs of a census (perm.fullbfs.Census)."""

    puzzle: str
    states: int
    diameter: int
    histogram: tuple[int, ...]


def histogram_figure(census: _Census) -> Figure:
    """The number of states at each distance from the solved puzzle, as bars on a log
    scale; the title names the puzzle, the states and the diameter (God's number)."""
    return figures.histogram_figure(
        census.histogram, f"{census.puzzle}: {census.states:,} states, God's number {census.diameter}",
        "moves from the solved puzzle", "states")


__all__ = ["histogram_figure"]
