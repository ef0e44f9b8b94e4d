"""Pictures of block shuffles and pancakes: the distance histogram of a census.

Drawn with matplotlib (the optional extra ``plot``) on engine.figures' Agg figures; the
command line saves them with ``--plot FILE`` and a notebook shows a ``Census`` as one.
This module imports nothing else of the puzzle (the results import it to draw themselves).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from puzzlesearch.engine import figures

if TYPE_CHECKING:
    from matplotlib.figure import Figure


class _Census(Protocol):
    """What the histogram needs of a census (shuffle.fullbfs.Census)."""

    puzzle: str
    states: int
    diameter: int
    histogram: tuple[int, ...]


def histogram_figure(census: _Census, unit: str = "decks") -> Figure:
    """The number of `unit` at each distance from the start, as bars on a log scale; the
    title names the puzzle, the states reachable and the diameter."""
    return figures.histogram_figure(
        census.histogram, f"{census.puzzle}: {census.states:,} {unit}, diameter {census.diameter}",
        "moves from the sorted start", unit)


__all__ = ["histogram_figure"]
