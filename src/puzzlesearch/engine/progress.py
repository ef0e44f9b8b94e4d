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


def _start_bar(label: str, total: float | None, done: float, columns: list, stats: Callable[[], str]):
    """A started rich bar on stderr: the label, `columns`, then `stats()` redrawn on every
    refresh (so the time left keeps ticking between updates). Returns (bar, task id)."""
    from rich.console import Console
    from rich.progress import Progress as RichProgress
    from rich.progress import ProgressColumn, TextColumn
    from rich.text import Text

    class _Stats(ProgressColumn):
        def render(self, task: Any) -> Text:
            return Text(stats(), style="progress.remaining")

    bar = RichProgress(TextColumn("{task.description}"), *columns, _Stats(), console=Console(stderr=True))
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
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn

            columns = [BarColumn(bar_width=24), MofNCompleteColumn(), TextColumn("tasks")]
            label = self.display.label
            self._bar, self._task = _start_bar(label, self.total, self.done, columns, self._stats)
        return self

    def _stats(self) -> str:
        elapsed = monotonic() - self._start
        parts = []
        if self._nodes and elapsed > 0:
            parts.append(f"{si(self._nodes / elapsed)} {self.display.unit}/s")
        if self._best:
            parts.append(self._best)
        if self.done == self.total:
            parts.append(f"took {clock(elapsed)}")
        elif self._computed > 0:
            parts.append(f"about {clock(elapsed / self._computed * self._left)} left")
        else:
            parts.append("time left ?")
        return "  ".join(parts)

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
            from rich.progress import BarColumn, SpinnerColumn

            columns = [BarColumn(bar_width=24) if self.total else SpinnerColumn()]
            self._bar, self._task = _start_bar(self.label, self.total, 0, columns, self._stats)
        return self

    def _stats(self) -> str:
        elapsed = monotonic() - self._start
        done = f"{si(self.done)}" + (f"/{si(self.total)}" if self.total else "") + f" {self.unit}"
        parts = [done]
        if elapsed > 0 and self.done:
            parts.append(f"{si(self.done / elapsed)} {self.unit}/s")
        if self._note:
            parts.append(self._note)
        if self.total and self.done >= self.total:
            parts.append(f"took {clock(elapsed)}")
        elif self.total and self.done:
            parts.append(f"about {clock(elapsed / self.done * (self.total - self.done))} left")
        return "  ".join(parts)

    def update(self, done: float, note: str | None = None) -> None:
        self.done = done
        if note is not None:
            self._note = note
        if self._bar is not None:
            self._bar.update(self._task, completed=done)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()


__all__ = ["Display", "Meter", "Progress", "bar_enabled", "clock", "duration", "si"]
