"""The public API (api.py): its examples, and that it refuses exactly what the command
line refuses, in the same words."""

import doctest
import sqlite3

import pytest

from conftest import assert_bad_input, load_data, run_cli
from puzzlesearch import topswops
from puzzlesearch.topswops import api, rules

F = {int(k): v for k, v in load_data("topswops")["max_steps"]["values"].items()}


def test_the_api_examples_run_as_doctests():
    failures, tried = doctest.testmod(api)
    assert tried >= 5 and failures == 0


def test_the_package_reexports_the_api():
    assert topswops.solve is api.solve and topswops.play is api.play and topswops.RunOptions is api.RunOptions
    assert set(api.__all__) <= set(topswops.__all__)


@pytest.mark.parametrize(
    "call, args",
    [
        (lambda: topswops.solve(0), ["solve", "-n", "0"]),
        (lambda: topswops.solve(-3, "forward"), ["solve", "-n", "-3", "--mode", "forward"]),
        (lambda: topswops.solve(16), ["solve", "-n", "16"]),
        (lambda: topswops.solve(16, "backward"), ["solve", "-n", "16", "--mode", "backward"]),
        (lambda: topswops.solve(17, "forward"), ["solve", "-n", "17", "--mode", "forward"]),
        (lambda: topswops.optimal(40), ["optimal", "-n", "40"]),
        (lambda: topswops.solve(10**20), ["solve", "-n", str(10**20)]),
        (lambda: topswops.solve(10**20, "forward"), ["solve", "-n", str(10**20), "--mode", "forward"]),
        (lambda: topswops.play([1, 2, 2]), ["play", "1", "2", "2"]),
        (lambda: topswops.play([0, 1]), ["play", "0", "1"]),
        (lambda: topswops.play("2 x"), ["play", "2", "x"]),
        (lambda: topswops.play([10**20, 1]), ["play", str(10**20), "1"]),
        (lambda: topswops.solve(10, "backward", run=topswops.RunOptions(checkpoint="c.ckpt")),
         ["solve", "--mode", "backward", "--checkpoint", "c.ckpt"]),
    ],
)
def test_the_api_refuses_what_the_cli_refuses_in_the_same_words(call, args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError) as refused:
        call()
    r = run_cli("topswops", *args)
    assert_bad_input(r)
    assert r.err == f"puzzlesearch: error: {refused.value}\n"
    assert not (tmp_path / "c.ckpt").exists()


def test_a_checkpoint_with_the_backward_search_is_refused_not_ignored(tmp_path):
    notes = tmp_path / "notes.txt"
    r = run_cli("topswops", "solve", "-n", "8", "--mode", "backward", "--checkpoint", notes)
    assert_bad_input(r)
    assert r.err == ("puzzlesearch: error: --checkpoint applies to the forward search; "
                     "--mode backward runs in one call in this process\n")
    assert not notes.exists()
    # with both searches, the checkpoint is the forward search's
    r = run_cli("topswops", "solve", "-n", "8", "--checkpoint", tmp_path / "both.ckpt")
    assert (r.code, r.out) == (0, "n=8  backward=22  forward=22  match=true\n")


@pytest.mark.slow
def test_a_scheduler_with_the_backward_search_is_refused(dask_cluster):
    # a scheduler that answers: only the mode is wrong
    with pytest.raises(ValueError) as refused:
        topswops.optimal(8, "backward", run=topswops.RunOptions(scheduler=dask_cluster))
    r = run_cli("topswops", "optimal", "-n", "8", "--mode", "backward", "--scheduler", dask_cluster)
    assert_bad_input(r)
    assert r.err == f"puzzlesearch: error: {refused.value}\n"
    assert "--scheduler applies to the forward search" in r.err


def test_other_modes_are_refused_by_the_api():
    with pytest.raises(ValueError, match="mode must be one of backward, forward, both, got 'sideways'"):
        topswops.solve(8, "sideways")
    with pytest.raises(ValueError, match="mode must be one of backward, forward, got 'both'"):
        topswops.optimal(8, "both")
    with pytest.raises(ValueError, match="n must be a whole number, got 8.5"):
        topswops.solve(8.5)


@pytest.mark.parametrize("call", [
    lambda: topswops.solve(True),
    lambda: topswops.optimal(True),
    lambda: topswops.long(True, seconds=1),
    lambda: topswops.estimate(True),
])
def test_true_is_not_a_number_of_cards(call):
    with pytest.raises(ValueError, match="n must be a whole number, got True"):
        call()


def test_a_card_must_be_a_whole_number_not_true():
    with pytest.raises(ValueError, match="the deck must be whole numbers"):
        topswops.deck([True, 2])


@pytest.mark.parametrize("call", [
    lambda run: topswops.long(5, seconds=1, run=run),
    lambda run: topswops.estimate(5, run=run),
])
def test_long_and_estimate_refuse_a_checkpoint_they_would_ignore(call, tmp_path):
    with pytest.raises(ValueError, match="--checkpoint applies to the forward search"):
        call(topswops.RunOptions(checkpoint=str(tmp_path / "c.ckpt")))
    assert not (tmp_path / "c.ckpt").exists()


def test_long_and_estimate_stay_the_packages_functions_once_the_searches_ran(tmp_path):
    # a submodule of that name, once imported, would take the package's attribute
    run = topswops.RunOptions(workers=1, store=str(tmp_path / "s.sqlite"))
    assert topswops.solve(5, "forward", deep=True, run=run).forward == F[5]
    for _ in range(2):
        assert topswops.long(5, seconds=30, goal=F[5], run=run).steps == F[5]
    assert topswops.estimate(5, probes=10, run=run).target == F[5]
    assert (topswops.long, topswops.estimate) == (api.long, api.estimate)


def test_a_deck_is_given_as_numbers_or_as_text():
    assert topswops.deck("3 1 2") == topswops.deck("3,1,2") == topswops.deck([3, 1, 2]) == (3, 1, 2)
    assert topswops.play((3, 1, 4, 5, 2)).steps == rules.steps((3, 1, 4, 5, 2)) == 7


def test_an_answer_the_store_cannot_keep_is_printed_then_exit_1(monkeypatch):
    from puzzlesearch.topswops import forward, known

    # the bounds f(1..7) of the forward search, stored first: this is about the answer alone
    forward.own_bounds(8)

    def broken(*args, **kwargs):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(known, "remember_f", broken)
    r = run_cli("topswops", "solve", "-n", "8")
    assert (r.code, r.out) == (1, "n=8  backward=22  forward=22  match=true\n")
    assert r.err == "puzzlesearch: f(8) = 22 was computed but not saved: disk I/O error\n"
    with pytest.raises(Exception, match="f\\(8\\) = 22 was computed but not saved") as e:
        topswops.solve(8)
    assert e.value.result.forward == F[8]
