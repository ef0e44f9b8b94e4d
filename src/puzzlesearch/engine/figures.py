"""Pictures of results: the file a command writes with ``--plot FILE``, and the SVG a
notebook shows for a result object (``_repr_svg_``).

matplotlib is an optional extra (the ``[plot]`` extra), so it is imported
inside these functions only: a command without ``--plot`` never loads it. Each puzzle's
``pictures.py`` draws its figures on `figure` (a matplotlib Figure with the Agg
canvas, made without pyplot, so that no figure stays registered anywhere after it is
saved) and hands them to `save` or `svg_text`.

A plot file is checked before the work (`check_plot`), like every output file
(engine.paths): a search that runs for an hour must not find at its end that its picture
cannot be written, or that matplotlib is missing.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from puzzlesearch.engine.params import file_name, text
from puzzlesearch.engine.paths import check_writable, replacing, show

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: what the command line says when matplotlib is missing
NEEDS_MATPLOTLIB = "needs matplotlib (the [plot] extra): pip install matplotlib"
#: no date written into the files whose format keeps one, and SVG ids made from the content
#: rather than at random: the same figure gives the same bytes (a page of the docs site is
#: rebuilt unchanged, a test compares two pictures)
NO_DATE = {"svg": {"Date": None}, "svgz": {"Date": None}, "pdf": {"CreationDate": None}}
SAME_IDS = {"svg.hashsalt": "puzzlesearch"}


def _formats() -> dict[str, str]:
    """The image formats a figure can be saved in ({suffix: description}); ImportError
    without matplotlib."""
    import matplotlib  # noqa: F401  (first: a backend module may be cached without it)
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    return FigureCanvasAgg.get_supported_filetypes()


def image_format(filename: str) -> str:
    """The format a file name asks for: its suffix, lower case, without the dot ('png')."""
    return PurePath(filename).suffix.lower().lstrip(".")


def check_plot(filename: str, option: str = "--plot") -> None:
    """Check, before the work, that a picture can be saved into a file.

    The file can be written, matplotlib is installed, and the name ends in an image
    format. Each message is one line naming `option`.

    Args:
        filename: The image file.
        option: What the message calls the file (the command line's option).

    Raises:
        ValueError: The file cannot be written, or its suffix names no image format.
        ImportError: matplotlib is not installed.
    """
    option = text(option, "option")
    filename = file_name(filename, option)
    check_writable(filename, option)
    try:
        formats = _formats()
    except ImportError:
        raise ImportError(f"{option} {NEEDS_MATPLOTLIB}") from None
    if image_format(filename) not in formats:
        raise ValueError(f"{option} {show(filename)}: the name must end in one of "
                         f"{', '.join('.' + f for f in sorted(formats))} (the image format)")


def figure(width: float, height: float) -> Figure:
    """A new matplotlib Figure of width x height inches on the Agg canvas, outside pyplot
    (nothing to close, nothing kept once the figure is dropped). ImportError without
    matplotlib."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    return fig


def close(fig: Figure) -> None:
    """Let go of a figure: a figure made by pyplot is removed from pyplot's list of open
    figures (one made by `figure` has nothing to release). pyplot is not loaded for it."""
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None:
        pyplot.close(fig)


def save(fig: Figure, filename: str, option: str = "--plot") -> None:
    """Write the figure to `filename` whole (engine.paths.replacing: a temporary file
    renamed over it), in the format its suffix names, then close the figure. OSError or
    ValueError when it cannot be written; the temporary file is removed then."""
    filename = file_name(filename, option)
    try:
        import matplotlib

        fmt = image_format(filename)
        with replacing(filename, option) as tmp, matplotlib.rc_context(SAME_IDS):
            fig.savefig(tmp, format=fmt, metadata=NO_DATE.get(fmt))
    finally:
        close(fig)


def svg_text(fig: Figure) -> str:
    """The figure as SVG text (what a notebook's ``_repr_svg_`` returns); closes it."""
    try:
        import matplotlib

        out = io.BytesIO()
        with matplotlib.rc_context(SAME_IDS):
            fig.savefig(out, format="svg", metadata=NO_DATE["svg"])
        return out.getvalue().decode("utf-8")
    finally:
        close(fig)


def notebook_svg(draw: Callable[..., Figure | None], *args: Any, **kwargs: Any) -> str | None:
    """``svg_text(draw(*args, **kwargs))`` for a result's ``_repr_svg_``, or None when
    matplotlib is missing or `draw` has no picture to give (returns None): a notebook then
    shows the result's text repr instead."""
    try:
        fig = draw(*args, **kwargs)
    except ImportError:
        return None
    return None if fig is None else svg_text(fig)


def histogram_figure(histogram: tuple[int, ...] | list[int], title: str, xlabel: str, unit: str) -> Figure:
    """A breadth-first search's layers: the number of `unit` at each distance, as bars on a
    log scale (the layers of a puzzle grow by orders of magnitude, then fall)."""
    fig = figure(7, 4)
    ax = fig.add_subplot()
    ax.bar(range(len(histogram)), histogram, color="#4477aa", gid="layers")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(unit)
    ax.set_title(title)
    fig.tight_layout()
    return fig


__all__ = ["NEEDS_MATPLOTLIB", "check_plot", "close", "figure", "histogram_figure", "image_format",
           "notebook_svg", "save", "svg_text"]
