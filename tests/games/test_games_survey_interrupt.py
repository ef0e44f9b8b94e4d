"""`grundy survey` without --checkpoint keeps the games it finished when Ctrl-C stops it:
they go to the results store, one line says so, and the same command again computes only
the others, to the rows a run never interrupted gives."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

import pytest

from conftest import run_cli
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.store import ResultsStore
from puzzlesearch.games import octal_survey, survey
from puzzlesearch.games.survey import STORE_PUZZLE, SurveyInterrupted, survey_codes

DIGITS, COUNT = 2, 3000
SURVEY = ("grundy", "survey", "-d", DIGITS, "-n", COUNT, "--workers", "1")


def _rows(result) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in ("seconds", "source")} for r in result["rows"]]


def _stopped_after(monkeypatch, tasks: int) -> list[int]:
    """survey_task raises KeyboardInterrupt (as Ctrl-C would) once `tasks` tasks are done;
    the list counts the rows those tasks returned."""
    real, done = survey.survey_task, []

    def task(t, skip):
        if len(done) == tasks:
            raise KeyboardInterrupt
        rows = real(t, skip)
        done.append(len(rows))
        return rows

    monkeypatch.setattr(survey, "survey_task", task)
    return done


def _stored(path) -> set[str]:
    with ResultsStore(path) as db:
        return {c for c in survey_codes(DIGITS) if db.get(STORE_PUZZLE, c) is not None}


def test_the_finished_games_go_to_the_store_and_the_rerun_computes_the_rest(tmp_path, monkeypatch):
    store = tmp_path / "s.sqlite"
    done = _stopped_after(monkeypatch, 5)
    with pytest.raises(SurveyInterrupted) as e:
        octal_survey(DIGITS, COUNT, run=RunOptions(workers=1, store=str(store)))
    assert isinstance(e.value, KeyboardInterrupt) and e.value.kept == sum(done) > 0
    assert len(_stored(store)) == e.value.kept
    monkeypatch.undo()
    again = octal_survey(DIGITS, COUNT, run=RunOptions(workers=1, store=str(store)))
    assert again.from_store == e.value.kept and again.computed == len(survey_codes(DIGITS)) - e.value.kept
    fresh = octal_survey(DIGITS, COUNT, run=RunOptions(workers=1, store=str(tmp_path / "fresh.sqlite")))
    assert _rows(again.to_json()) == _rows(fresh.to_json())


def test_the_command_says_in_one_line_what_is_kept_and_how_to_go_on(tmp_path, monkeypatch):
    store = tmp_path / "s.sqlite"
    done = _stopped_after(monkeypatch, 3)
    r = run_cli(*SURVEY, "--store", store)
    assert r.code == 130 and r.out == ""
    assert r.err.splitlines() == [f"puzzlesearch: interrupted; the {sum(done)} games finished are kept in "
                                  "the results store: run the same command again to compute only the others"]
    monkeypatch.undo()
    again = run_cli(*SURVEY, "--store", store, "--summary")
    assert again.code == 0 and f"{sum(done)} rows from the results store" in again.out


def test_interrupted_before_any_game_is_done_it_says_what_it_always_says(tmp_path, monkeypatch):
    _stopped_after(monkeypatch, 0)
    r = run_cli(*SURVEY, "--store", tmp_path / "s.sqlite")
    assert r.code == 130 and len(r.err.splitlines()) == 1
    assert "kept in the results store" not in r.err


def test_with_a_checkpoint_the_checkpoint_keeps_them(tmp_path, monkeypatch):
    _stopped_after(monkeypatch, 3)
    ck = tmp_path / "run.ck"
    r = run_cli(*SURVEY, "--store", tmp_path / "s.sqlite", "--checkpoint", ck)
    assert r.code == 130 and r.err.splitlines() == [
        f"puzzlesearch: interrupted; run the same command again with --checkpoint {ck} to resume"]
    assert _stored(tmp_path / "s.sqlite") == set()


def test_a_real_ctrl_c_keeps_the_finished_games(tmp_path):
    """The command as a user runs it, sent SIGINT in its own process group; tried later
    each time until the first games have finished (loading the kernels takes a moment)."""
    store = tmp_path / "s.sqlite"
    args = [sys.executable, "-m", "puzzlesearch", "grundy", "survey", "-d", "2", "-n", "60000",
            "--workers", "1", "--store", str(store), "--summary"]
    for wait in (1.5, 3.0, 6.0):
        p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
        time.sleep(wait)
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=60)
        if "kept in the results store" in err:
            break
    assert p.returncode == 130 and out == "" and len(err.splitlines()) == 1, err
    kept = int(re.search(r"the (\d+) games finished", err).group(1))
    assert len(_stored(store)) == kept > 0
