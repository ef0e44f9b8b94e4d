"""Progress of a long run on stderr: work done of total, rate, best so far, time left.

The bar is drawn only when stderr is a terminal (and the caller did not ask for quiet), so
pipes, ``--json`` and tests see nothing. Rates and the time left count only the work this
run computed: tasks read back from a checkpoint are shown as done but took no time now.
The time left comes from the work done, not from task counts: each task may carry an
estimated weight (``Display.weight``), and the rate is weight done per second.
rich (a tenth of a second to import) is imported only where a bar is drawn.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from time import monotonic
from typing import Any


@dataclass(frozen=True)
class Display:
    """What a run's progress bar shows, in the puzzle's own words.

    label   the bar's title, e.g. "topswops forward n=15"
    unit    what ``nodes`` counts: "nodes", "decks", "heaps", "boards"...
    nodes   the count of one task's result (None: no rate shown)
    best    text for the shared value so far, e.g. "deck of 101 steps found" (None: none)
    weight  the estimated work of a task, for the time left (None: all tasks alike)
    """

    label: str = "search"
    unit: str = "nodes"
    nodes: Callable[[Any], int] | None = None
    best: Callable[[Any], str | None] | None = None
    weight: Callable[[Any], float] | None = None


def si(x: float) -> str:
    """1234567 -> '1.2M'."""
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= scale:
            return f"{x / scale:.1f}{unit}"
    return f"{x:.0f}"


def duration(seconds: float) -> str:
    """An expected time for people: seconds, minutes or hours."""
    if seconds < 120:
        return f"{seconds:.3g} s"
    if seconds < 7200:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def clock(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def bar_enabled(wanted: bool) -> bool:
    """The project's one rule for drawing progress: asked for, and stderr is a terminal."""
    return wanted and sys.stderr.isatty()


def notice(wanted: bool) -> Callable[[str], None] | None:
    """Where a run announces a one-time step before its work (compiling kernels for this
    CPU): a line on stderr where a bar would be drawn, else nowhere (None)."""
    if not bar_enabled(wanted):
        return None
    return lambda text: print(f"puzzlesearch: {text}", file=sys.stderr, flush=True)


#: the bar's width, at most and at least (below that it is dropped)
BAR_MAX, BAR_MIN = 24, 8


def fit(label: str, fraction: float | None, parts: list[tuple[str, int]],
        width: int) -> list[tuple[str, str]]:
    """One line of at most `width` characters: the label, a bar of `fraction` done (None: no
    bar), then `parts` (text, rank) in their order, two spaces apart, as (text, style)
    segments. What does not fit goes, least useful first: the bar narrows to BAR_MIN, then
    the parts of the highest rank go (the bar counting as rank 3), then the label is cut.
    Rank 0 stays (what is done of what)."""
    kept = [(text, rank) for text, rank in parts if text]
    bar = BAR_MAX if fraction is not None else 0

    def length() -> int:
        gaps = 2 * len(kept) - 1 if kept else 0
        return len(label) + (1 + bar if bar else 0) + gaps + sum(len(t) for t, _ in kept)

    while length() > width:
        over = length() - width
        worst = max((rank for _, rank in kept), default=0)
        if bar > BAR_MIN:
            bar = max(BAR_MIN, bar - over)
        elif bar and worst <= 3:
            bar = 0
        elif worst > 0:
            drop = max(i for i, (_, rank) in enumerate(kept) if rank == worst)
            kept.pop(drop)
        else:
            room = max(1, len(label) - over)
            label = label[:room - 1] + "…" if room < len(label) else label
            break
    if fraction is not None:  # the room the parts dropped left goes to the bar
        room = width - length() + bar - (0 if bar else 1)
        bar = min(BAR_MAX, room) if room >= BAR_MIN else 0
    segments = [(label, "progress.description")]
    if bar:
        filled = round(min(max(fraction, 0.0), 1.0) * bar)
        done = "bar.finished" if filled == bar else "bar.complete"
        segments += [(" ", ""), ("━" * filled, done), ("━" * (bar - filled), "bar.back")]
    for i, (text, _) in enumerate(kept):
        segments.append((" " if i == 0 else "  ", ""))
        segments.append((text, "progress.remaining"))
    return segments


def _start_bar(label: str, total: float | None, done: float, parts: Callable[[], list[tuple[str, int]]]):
    """A started rich bar on stderr: one line, made by `fit` to the terminal's width
    (redrawn on every refresh, so the time left keeps ticking between updates, and a
    terminal made narrower gets a shorter line, never a wrapped one). Returns (bar, task id)."""
    from rich.console import Console
    from rich.progress import Progress as RichProgress
    from rich.progress import ProgressColumn
    from rich.text import Text

    console = Console(stderr=True)

    class _Line(ProgressColumn):
        def render(self, task: Any) -> Text:
            fraction = task.completed / task.total if task.total else None
            return Text.assemble(*fit(label, fraction, parts(), console.width - 1), no_wrap=True)

    bar = RichProgress(_Line(), console=console)
    bar.start()
    return bar, bar.add_task(label, total=total, completed=done)


class Progress:
    """Context manager; ``advance(i, nodes, best)`` after task i finished in this run."""

    def __init__(self, display: Display, tasks: Sequence[Any], have: Sequence[bool], enabled: bool = True):
        self.display = display
        w = display.weight
        self._weights = [float(w(t)) if w else 1.0 for t in tasks]
        self.total = len(tasks)
        self.done = sum(1 for h in have if h)
        self._left = sum(x for x, h in zip(self._weights, have, strict=True) if not h)
        self._computed = 0.0  # weight computed by this run
        self.enabled = bar_enabled(enabled)
        self._nodes = 0
        self._best = ""
        self._start = monotonic()
        self._bar: Any = None

    def __enter__(self) -> Progress:
        if self.enabled:
            count = lambda: [(f"{self.done}/{self.total} tasks", 0), *self._parts()]  # noqa: E731
            self._bar, self._task = _start_bar(self.display.label, self.total, self.done, count)
        return self

    def _parts(self) -> list[tuple[str, int]]:
        """The bar's figures, each with its rank (fit: the highest rank goes first)."""
        elapsed = monotonic() - self._start
        parts = []
        if self._nodes and elapsed > 0:
            parts.append((f"{si(self._nodes / elapsed)} {self.display.unit}/s", 4))
        if self._best:
            parts.append((self._best, 2))
        if self.done == self.total:
            parts.append((f"took {clock(elapsed)}", 1))
        elif self._computed > 0:
            parts.append((f"about {clock(elapsed / self._computed * self._left)} left", 1))
        else:
            parts.append(("time left ?", 1))
        return parts

    def _stats(self) -> str:
        return "  ".join(text for text, _ in self._parts())

    def advance(self, i: int, nodes: int | None = None, best: str | None = None) -> None:
        self.done += 1
        w = self._weights[i] if i < len(self._weights) else 1.0
        self._computed += w
        self._left -= w
        self._nodes += nodes or 0
        self.set_best(best)
        if self._bar is not None:
            self._bar.update(self._task, completed=self.done)

    def set_best(self, best: str | None) -> None:
        if best is not None:
            self._best = best

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()


class Meter:
    """A bar for one long step that is not a list of tasks (heaps computed, layers of a
    breadth-first search, levels of a search): ``update(done)`` with the work done so far
    in ``unit`` (a known ``total``; None draws a spinner with the count and rate).
    Context manager; draws only when enabled and stderr is a terminal."""

    def __init__(self, label: str, total: float | None, unit: str, enabled: bool = True):
        self.label, self.total, self.unit = label, total, unit
        self.enabled = bar_enabled(enabled)
        self.done = 0.0
        self._note = ""
        self._start = monotonic()
        self._bar: Any = None

    def __enter__(self) -> Meter:
        if self.enabled:
            self._bar, self._task = _start_bar(self.label, self.total, 0, self._parts)
        return self

    def _parts(self) -> list[tuple[str, int]]:
        """The meter's figures, each with its rank (fit: the highest rank goes first)."""
        elapsed = monotonic() - self._start
        done = f"{si(self.done)}" + (f"/{si(self.total)}" if self.total else "") + f" {self.unit}"
        parts = [(done, 0)]
        if elapsed > 0 and self.done:
            parts.append((f"{si(self.done / elapsed)} {self.unit}/s", 4))
        if self._note:
            parts.append((self._note, 2))
        if self.total and self.done >= self.total:
            parts.append((f"took {clock(elapsed)}", 1))
        elif self.total and self.done:
            parts.append((f"about {clock(elapsed / self.done * (self.total - self.done))} left", 1))
        return parts

    def _stats(self) -> str:
        return "  ".join(text for text, _ in self._parts())

    def update(self, done: float, note: str | None = None) -> None:
        self.done = done
        if note is not None:
            self._note = note
        if self._bar is not None:
            self._bar.update(self._task, completed=done)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()


__all__ = ["Display", "Meter", "Progress", "bar_enabled", "clock", "duration", "fit", "si"]
