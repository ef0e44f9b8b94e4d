"""Progress on stderr: the time left comes from the work done (task weights), Meter for one long step."""

from __future__ import annotations

import io
import sys

import pytest

from puzzlesearch.engine import progress
from puzzlesearch.engine.progress import Display, Meter, Progress, bar_enabled, clock, si


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def clock_at(monkeypatch):
    """Set the clock the bars read: clock_at(t)."""
    now = [0.0]
    monkeypatch.setattr(progress, "monotonic", lambda: now[0])

    def at(t: float) -> None:
        now[0] = t

    return at


def test_si_and_clock():
    assert [si(x) for x in (0, 999, 1000, 1234567, 2.5e9)] == ["0", "999", "1.0k", "1.2M", "2.5G"]
    assert [clock(s) for s in (0, 59.6, 61, 3600 * 25 + 62)] == ["0:00:00", "0:01:00", "0:01:01", "25:01:02"]


def test_bar_only_on_a_terminal_and_when_wanted(monkeypatch):
    monkeypatch.setattr(sys, "stderr", _Terminal())
    assert bar_enabled(True) and not bar_enabled(False)
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert not bar_enabled(True)


def test_one_time_steps_are_announced_only_where_a_bar_would_be(monkeypatch):
    monkeypatch.setattr(sys, "stderr", _Terminal())
    progress.notice(True)("compiling")
    assert sys.stderr.getvalue() == "puzzlesearch: compiling\n"
    assert progress.notice(False) is None
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert progress.notice(True) is None


def test_time_left_comes_from_weights_not_task_counts(clock_at):
    # one heavy task (90% of the work) and nine light ones: after the light ones, 90% is left
    weights = [1] * 9 + [81]
    display = Display(weight=lambda task: weights[task])
    clock_at(0.0)
    bar = Progress(display, list(range(10)), [False] * 10, enabled=False)
    for i in range(9):
        bar.advance(i)
    clock_at(9.0)  # 9 units of work in 9 s: 81 left take 81 s (a task count would say 1 s)
    assert bar._stats() == "about 0:01:21 left"
    bar.advance(9)
    assert bar._stats() == "took 0:00:09"


def test_the_time_left_weighs_big_tasks_still_to_come(clock_at):
    # a count of tasks said "0:00:01 left" with 5 s to go when the last tasks were the big ones
    # (an N-Queens count, whose last tasks are the largest)
    weights = {0: 1.0, 1: 1.0, 2: 1.0, 3: 5.0}
    bar = Progress(Display(weight=weights.__getitem__), [0, 1, 2, 3], [False] * 4, enabled=False)
    clock_at(0.0)
    bar.advance(0)
    bar.advance(1)
    bar.advance(2)
    clock_at(3.0)
    assert bar._stats() == "about 0:00:05 left"


def test_restored_tasks_are_done_but_take_no_time(clock_at):
    weights = [4, 4, 1, 1]
    clock_at(0.0)
    bar = Progress(Display(weight=weights.__getitem__), [0, 1, 2, 3], [True, True, False, False],
                   enabled=False)
    assert (bar.done, bar.total) == (2, 4)
    assert bar._stats() == "time left ?"
    bar.advance(2)
    clock_at(2.0)  # 1 unit of weight in 2 s, 1 unit left
    assert bar._stats() == "about 0:00:02 left"


def test_without_weights_every_task_counts_one(clock_at):
    clock_at(0.0)
    bar = Progress(Display(), ["a", "b", "c", "d"], [False] * 4, enabled=False)
    bar.advance(0)
    clock_at(5.0)
    assert bar._stats() == "about 0:00:15 left"


def test_rate_in_the_puzzles_unit_and_best_as_given(clock_at):
    clock_at(0.0)
    display = Display(label="grundy", unit="heaps", nodes=len, best=str)
    bar = Progress(display, [0, 1], [False, False], enabled=False)
    bar.advance(0, nodes=2_000_000, best="deck of 101 steps found")
    clock_at(2.0)
    assert bar._stats() == "1.0M heaps/s  deck of 101 steps found  about 0:00:02 left"
    bar.set_best(None)  # no news keeps the last text
    assert "deck of 101 steps found" in bar._stats()


def test_progress_draws_on_a_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "150")
    shown = _Terminal()
    monkeypatch.setattr(sys, "stderr", shown)
    with Progress(Display(label="queens n=8", unit="boards"), [0, 1, 2], [False] * 3) as bar:
        for i in range(3):
            bar.advance(i, nodes=10)
    text = shown.getvalue()
    assert "queens n=8" in text and "3/3" in text and "tasks" in text and "boards/s" in text


def test_meter_counts_work_in_its_unit(clock_at):
    clock_at(0.0)
    m = Meter("grundy values", total=4_000_000, unit="heaps", enabled=False)
    assert m._stats() == "0/4.0M heaps"
    clock_at(2.0)
    m.update(1_000_000, note="layer 3")
    assert m._stats() == "1.0M/4.0M heaps  500.0k heaps/s  layer 3  about 0:00:06 left"
    clock_at(8.0)
    m.update(4_000_000)
    assert m._stats() == "4.0M/4.0M heaps  500.0k heaps/s  layer 3  took 0:00:08"


def test_meter_without_a_total_shows_count_and_rate(clock_at):
    clock_at(0.0)
    m = Meter("bfs", total=None, unit="decks", enabled=False)
    clock_at(4.0)
    m.update(2_000, note="layer 9")
    assert m._stats() == "2.0k decks  500 decks/s  layer 9"


def test_meter_draws_only_on_a_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "150")
    pipe = io.StringIO()
    monkeypatch.setattr(sys, "stderr", pipe)
    with Meter("bfs", total=10, unit="layers") as m:
        m.update(10)
    assert pipe.getvalue() == ""

    shown = _Terminal()
    monkeypatch.setattr(sys, "stderr", shown)
    with Meter("bfs", total=10, unit="layers") as m:
        m.update(5, note="half")
    assert "bfs" in shown.getvalue() and "layers" in shown.getvalue()

    quiet = _Terminal()
    monkeypatch.setattr(sys, "stderr", quiet)
    with Meter("bfs", total=None, unit="layers", enabled=False) as m:
        m.update(5)
    assert quiet.getvalue() == ""


def _visible_lines(text: str) -> list[str]:
    import re

    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "\n", text)
    return [line for line in re.split(r"[\r\n]", plain) if line.strip()]


def test_fit_drops_the_least_useful_first():
    from puzzlesearch.engine.progress import BAR_MAX, fit

    parts = [("42/200 tasks", 0), ("17.5M decks/s", 4), ("best so far: 101 steps", 2),
             ("about 0:00:42 left", 1)]
    label = "topswops forward n=14"
    lines = {w: "".join(t for t, _ in fit(label, 0.5, parts, w)) for w in (200, 100, 79, 60, 30)}
    assert lines[200].count("━") == BAR_MAX and "17.5M decks/s" in lines[200]
    assert "decks/s" not in lines[100] and "━" in lines[100] and "best so far" in lines[100]
    assert lines[79] == "topswops forward n=14 42/200 tasks  best so far: 101 steps  about 0:00:42 left"
    assert lines[60] == "topswops forward n=14 42/200 tasks  about 0:00:42 left"
    assert all(len(line) <= w for w, line in lines.items())
    assert "42/200 tasks" in lines[30] and len(lines[30]) <= 30


@pytest.mark.parametrize("columns", [80, 60])
def test_each_bar_is_one_line_at_the_terminal_s_width(monkeypatch, clock_at, columns):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setenv("COLUMNS", str(columns))
    clock_at(0.0)
    display = Display("perm god 2x2x2 cube, half-turn metric (3,674,160 states)", "states",
                      nodes=lambda r: r, best=lambda r: "deepest so far: layer 11 of 11")
    with Progress(display, list(range(400)), [False] * 400) as bar:
        for i in range(200):
            clock_at(i / 10)
            bar.advance(i, 10**6, "deepest so far: layer 11 of 11")
    with Meter("perm god 2x2x2 cube, half-turn metric: layer 7 of about 11", 4 * 10**6, "states") as m:
        clock_at(30.0)
        m.update(10**6, "layer 3, top-down")
    lines = _visible_lines(terminal.getvalue())
    assert all(len(line) < columns for line in lines), lines
    assert any("tasks" in line for line in lines) and any("/4.0M states" in line for line in lines), lines
