"""A computed answer that fails one of its checks never becomes a traceback, an answer or a
stored result: the API raises engine.failures.CheckFailed, the command exits 1 with one
line naming the check and its numbers, and the results store is left without it.

Each check is made to fail by a fault put into the computation (a wrong count, a deck
dropped, a move changed), never by changing the check itself.
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace

import pytest

from conftest import run_cli
from puzzlesearch import queens, topswops
from puzzlesearch.engine.failures import CheckFailed
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.queens import aot
from puzzlesearch.topswops import backward, forward, known


def assert_check_failed(r, check: str) -> str:
    """Exit 1, one line on stderr naming the check, no traceback; the line."""
    assert r.code == 1, (r.code, r.out, r.err)
    lines = r.err.splitlines()
    assert len(lines) == 1 and "Traceback" not in r.err, r.err
    assert lines[0].startswith(f"puzzlesearch: check failed: {check}: "), lines[0]
    return lines[0]


def stored_rows(store) -> int:
    try:
        with sqlite3.connect(store) as db:
            return db.execute("select count(*) from results").fetchone()[0]
    except sqlite3.OperationalError:  # no table: nothing was ever stored
        return 0


# --- N-Queens: Burnside's lemma ------------------------------------------------------------------


@pytest.fixture
def one_quarter_turn_too_many(monkeypatch):
    kernels, kind = aot.kernels()

    class OneTooMany:  # the counting kernels, but R90 one too many
        def __getattr__(self, name):
            return getattr(kernels, name)

        def quarter_turn_count(self, n):
            return kernels.quarter_turn_count(n) + 1

    monkeypatch.setattr(aot, "_loaded", (OneTooMany(), kind, True))


@pytest.mark.parametrize("method", ["assembly", "constellation"])
def test_burnside_s_lemma_failing_is_one_line_and_exit_1(one_quarter_turn_too_many, method, monkeypatch):
    if method == "constellation":  # its unique count comes from the kernels: one class an eighth too many
        from puzzlesearch.queens import tasks

        real = tasks.constellation_task
        monkeypatch.setattr(tasks, "constellation_task", lambda t, k=None: [real(t, k)[0], real(t, k)[1] + 1])
    r = run_cli("queens", "count", "-n", "12", "--method", method, "--workers", "1")
    line = assert_check_failed(r, "Burnside's lemma")
    assert "for n=12 is not a multiple of 8" in line
    assert r.out == ""


def test_burnside_s_lemma_failing_raises_check_failed(one_quarter_turn_too_many):
    with pytest.raises(CheckFailed) as failed:
        queens.count(12, method="assembly", run=RunOptions(workers=1))
    # Q(12) + 2 R90(12) + R180(12) = 8 U(12) = 8 x 1,787 (OEIS A000170, A002562), and the
    # quarter turn counted twice adds 2
    assert failed.value.check == "Burnside's lemma"
    assert failed.value.detail == "Q + 2 R90 + R180 = 14,298 for n=12 is not a multiple of 8"


# --- Topswops: two searches, and the decks replayed ---------------------------------------------------


def test_two_searches_that_disagree_exit_1_and_store_nothing(tmp_path, monkeypatch):
    real = backward.solve_backward

    def one_deck_lost(n, **kw):
        r = real(n, **kw)
        return replace(r, decks=r.decks[1:])

    monkeypatch.setattr(backward, "solve_backward", one_deck_lost)
    store = tmp_path / "results.sqlite"
    r = run_cli("topswops", "solve", "-n", "8", "--mode", "both", "--store", store)
    line = assert_check_failed(r, "the two searches agree")
    assert "f(8) = 22 by both, but the backward search finds" in line
    assert r.out == ""
    assert known.f(8, str(store)) is None
    with pytest.raises(CheckFailed):
        topswops.solve(8, "both", run=RunOptions(store=str(store)))
    assert known.f(8, str(store)) is None


def test_a_deck_that_fails_its_replay_exits_1_and_stores_nothing(tmp_path, monkeypatch):
    real = forward.search

    def a_wrong_deck(tree, run):
        r = real(tree, run)
        return replace(r, decks=[tuple(reversed(r.decks[0]))])

    monkeypatch.setattr(forward, "search", a_wrong_deck)
    store = tmp_path / "results.sqlite"
    r = run_cli("topswops", "solve", "-n", "7", "--mode", "forward", "--store", store)
    line = assert_check_failed(r, "the deck's replay")
    assert "steps, not 16" in line  # f(7) = 16
    assert known.f(7, str(store)) is None


# --- shortest paths: the witness replayed --------------------------------------------------------------


def test_a_shortest_path_that_fails_its_replay_exits_1(monkeypatch):
    from puzzlesearch.shuffle import bidir

    real = bidir._walk_backward
    monkeypatch.setattr(bidir, "_walk_backward", lambda *a: list(reversed(real(*a))) + [0, 0])
    r = run_cli("pancake", "solve", "3 1 4 2 5")
    line = assert_check_failed(r, "the path's replay")
    assert "not (1, 2, 3, 4, 5)" in line
    assert r.out == ""


def test_a_perm_solution_that_fails_its_replay_exits_1(monkeypatch):
    from puzzlesearch.perm import bidir

    real = bidir.search

    def one_move_more(*args, **kw):
        found = real(*args, **kw)
        return replace(found, moves=(*found.moves, found.moves[-1]))

    monkeypatch.setattr(bidir, "search", one_move_more)
    r = run_cli("perm", "solve", "pyraminx", "--scramble", "U R")
    line = assert_check_failed(r, "the solution's replay")
    assert "not to the solved puzzle" in line
    assert r.out == ""


# --- Hanoi: the search against the closed form -----------------------------------------------------------


def test_the_bfs_and_frame_stewart_disagreeing_is_printed_then_one_line_and_exit_1(monkeypatch):
    from puzzlesearch.hanoi import framestewart

    real = framestewart.frame_stewart
    monkeypatch.setattr(framestewart, "frame_stewart", lambda n, pegs: real(n, pegs) - 1)
    r = run_cli("hanoi", "verify", "-n", "5", "--pegs", "4")
    # the verification's finding is its output; the line says which check failed
    assert "BFS 13 moves, Frame-Stewart 12: DISAGREE" in r.out
    line = assert_check_failed(r, "the breadth-first search and Frame-Stewart agree")
    assert line.endswith("BFS 13 moves, Frame-Stewart 12")
