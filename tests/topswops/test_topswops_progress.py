"""Progress of the long searches: a meter follows the backward search and the in-process
forward search while their kernel runs; the bar of the split forward search says what
it searches for, not an answer; nothing is drawn unless stderr is a terminal."""

from __future__ import annotations

import io
import sys

import pytest

from conftest import load_data, run_cli
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.progress import bar_enabled
from puzzlesearch.topswops import backward, forward
from puzzlesearch.topswops.forward import Tree

F = {int(k): v for k, v in load_data("topswops")["max_steps"]["values"].items()}


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class _Meter:
    """Stands in for engine.progress.Meter and keeps what it was shown."""

    made: list[_Meter] = []

    def __init__(self, label: str, total: float | None, unit: str, enabled: bool = True):
        self.label, self.total, self.unit = label, total, unit
        self.enabled = bar_enabled(enabled)  # the engine's rule, as the real Meter applies it
        self.updates: list[tuple[float, str | None]] = []
        _Meter.made.append(self)

    def __enter__(self) -> _Meter:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def update(self, done: float, note: str | None = None) -> None:
        if self.enabled:  # what a real Meter draws
            self.updates.append((done, note))


@pytest.fixture
def meters(monkeypatch):
    _Meter.made = []
    monkeypatch.setattr(backward, "Meter", _Meter)
    monkeypatch.setattr(forward, "Meter", _Meter)
    monkeypatch.setattr(backward, "LONG_FROM", 12)  # so that n = 12 (1-2 s) counts as long
    monkeypatch.setattr(forward, "LONG_FROM", 12)
    return _Meter.made


def test_the_backward_search_shows_decks_met_and_the_longest_game_so_far(meters, monkeypatch):
    monkeypatch.setattr(sys, "stderr", _Terminal())
    r = backward.solve_backward(12, progress=True)
    [meter] = meters
    assert (meter.label, meter.total, meter.unit) == ("topswops backward n=12", None, "decks")
    counts = [done for done, _ in meter.updates]
    assert len(counts) >= 2 and counts == sorted(counts) and counts[0] < r.nodes
    assert meter.updates[-1] == (r.nodes, f"longest so far: {F[12]} steps")
    assert all(note.startswith("longest so far: ") for _, note in meter.updates)


def test_the_forward_search_in_one_call_shows_its_nodes(meters, monkeypatch):
    monkeypatch.setattr(sys, "stderr", _Terminal())
    r = forward.search(Tree.plain(12, forward.own_bounds(12)), RunOptions(workers=1, progress=True))
    assert r.subproblems == 1
    meter = meters[-1]
    assert (meter.label, meter.unit) == ("topswops forward n=12", "decks")
    assert meter.updates and meter.updates[-1][0] == r.nodes


def test_quick_searches_quiet_runs_and_pipes_show_nothing(meters, monkeypatch):
    monkeypatch.setattr(backward, "LONG_FROM", 11)  # so that n = 11 (0.1 s) counts as long
    monkeypatch.setattr(sys, "stderr", _Terminal())
    backward.solve_backward(10, progress=True)  # quick: below LONG_FROM
    backward.solve_backward(11, progress=False)  # --quiet
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    backward.solve_backward(11, progress=True)  # not a terminal
    assert [m.updates for m in meters] == [[], [], []]
    r = run_cli("topswops", "solve", "-n", "11", "--mode", "backward")  # stderr is not a terminal
    assert (r.code, r.out, r.err) == (0, f"n=11  backward={F[11]}\n", "")


def test_the_split_search_says_what_it_looks_for_until_a_deck_reaches_it(monkeypatch, tmp_path):
    seen = {}
    real = forward.run_tasks

    def spy(func, tasks, **kw):
        seen.update(kw)
        return real(func, tasks, **kw)

    monkeypatch.setattr(forward, "run_tasks", spy)
    # split for its checkpoint, its tasks run in this process
    run = RunOptions(workers=1, checkpoint=str(tmp_path / "c.ckpt"))
    r = forward.search(Tree.plain(10, forward.own_bounds(10)), run)
    display = seen["display"]
    assert (display.label, display.unit) == ("topswops forward n=10", "decks")
    assert display.best(-1) == f"searching for decks of >= {F[9] + 1} steps"
    assert display.best(F[10]) == f"best so far: {F[10]} steps"
    assert seen["options"].workers == 1 and r.subproblems > 1 and r.steps == F[10]
