"""Progress of a long run on stderr: tasks done of total, nodes per second, best so far, time left.

The bar is drawn only when stderr is a terminal (and the caller did not ask for quiet), so
pipes, ``--json`` and tests see nothing. Rates and the time left count only the tasks this
run computed: tasks read back from a checkpoint are shown as done but took no time now.
"""

from __future__ import annotations

import sys
from time import monotonic
from typing import Any


def _si(x: float) -> str:
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= scale:
            return f"{x / scale:.1f}{unit}"
    return f"{x:.0f}"


def _clock(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


class Progress:
    """Context manager; `advance(nodes, best)` after each task this run finishes."""

    def __init__(self, total: int, done: int = 0, label: str = "", enabled: bool = True):
        self.total, self.done = total, done
        self.label = label or "search"
        self.enabled = enabled and sys.stderr.isatty()
        self._computed = 0
        self._nodes = 0
        self._best = ""
        self._start = monotonic()
        self._bar: Any = None

    def __enter__(self) -> Progress:
        if not self.enabled:
            return self
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, ProgressColumn, TextColumn
        from rich.progress import Progress as RichProgress
        from rich.text import Text

        run = self

        class _Stats(ProgressColumn):
            # recomputed on every refresh, so the time left keeps ticking between tasks
            def render(self, task: Any) -> Text:
                return Text(run._stats(), style="progress.remaining")

        self._bar = RichProgress(
            TextColumn("{task.description}"),
            BarColumn(bar_width=24),
            MofNCompleteColumn(),
            _Stats(),
            console=Console(stderr=True),
        )
        self._bar.start()
        self._task = self._bar.add_task(self.label, total=self.total, completed=self.done)
        return self

    def _stats(self) -> str:
        elapsed = monotonic() - self._start
        parts = []
        if self._nodes and elapsed > 0:
            parts.append(f"{_si(self._nodes / elapsed)} nodes/s")
        if self._best:
            parts.append(f"best {self._best}")
        left = self.total - self.done
        if left == 0:
            parts.append(f"took {_clock(elapsed)}")
        elif self._computed:
            parts.append(f"{_clock(elapsed / self._computed * left)} left")
        else:
            parts.append("time left ?")
        return "  ".join(parts)

    def advance(self, nodes: int | None = None, best: str | None = None) -> None:
        self.done += 1
        self._computed += 1
        self._nodes += nodes or 0
        if best is not None:
            self._best = best
        if self._bar is not None:
            self._bar.update(self._task, completed=self.done)

    def set_best(self, best: str | None) -> None:
        if best is not None:
            self._best = best

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()
