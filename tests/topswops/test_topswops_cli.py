"""The command line: exact output, JSON, verbose detail, and bad input."""

import pytest

from conftest import assert_bad_input, load_data, run_cli
from puzzlesearch.topswops import rules

DATA = load_data("topswops")
F = {int(k): v for k, v in DATA["max_steps"]["values"].items()}
COUNTS = {int(k): v for k, v in DATA["optimal_deck_count"]["values"].items()}


def test_solve_prints_one_line_with_both_values():
    r = run_cli("topswops", "solve", "-n", "8", "--mode", "both")
    assert (r.code, r.out) == (0, "n=8  backward=22  forward=22  match=true\n")


def test_solve_defaults_to_both_modes_and_ten_cards():
    r = run_cli("topswops", "solve")
    assert (r.code, r.out) == (0, "n=10  backward=38  forward=38  match=true\n")


@pytest.mark.parametrize("mode", ["backward", "forward"])
def test_solve_with_one_mode_prints_that_value(mode):
    r = run_cli("topswops", "solve", "-n", "7", "--mode", mode)
    assert (r.code, r.out) == (0, f"n=7  {mode}=16\n")


def test_solve_json_carries_values_decks_nodes_and_times():
    j = run_cli("topswops", "solve", "-n", "9", "--json").json()
    assert (j["n"], j["backward"], j["forward"], j["match"]) == (9, F[9], F[9], True)
    assert all(rules.steps(d) == F[9] for d in j["decks"]) and len(j["decks"]) == 1
    assert set(j["nodes"]) == {"backward", "forward"} == set(j["seconds"])


def test_solve_verbose_shows_records_levels_and_time():
    out = run_cli("topswops", "solve", "-n", "5", "-v").out
    assert "     7: 3 1 4 5 2" in out
    assert "backward: nodes per level: 1 " in out
    assert "forward: nodes per level: 1 " in out
    assert out.endswith("n=5  backward=7  forward=7  match=true\n")


def test_solve_exits_1_when_the_two_searches_disagree(monkeypatch):
    import dataclasses

    from puzzlesearch.topswops import backward

    real = backward.solve_backward
    monkeypatch.setattr(backward, "solve_backward",
                        lambda n, **kw: dataclasses.replace(real(n), steps=real(n).steps + 1, decks=[]))
    r = run_cli("topswops", "solve", "-n", "6")
    assert (r.code, r.out) == (1, "")
    assert r.err == ("puzzlesearch: check failed: the two searches agree: f(6) = 11 by the backward search, "
                     "10 by the forward search\n")


def test_optimal_lists_every_deck_with_its_steps():
    r = run_cli("topswops", "optimal", "-n", "6")
    lines = r.out.splitlines()
    assert len(lines) == 5
    for line in lines:
        deck, steps = line.split("  ")
        assert steps == "steps=10"
        assert rules.steps([int(x) for x in deck.split()]) == 10


@pytest.mark.parametrize("mode", ["forward", "backward"])
def test_optimal_json_lists_the_decks_brute_force_finds(mode):
    # independent of both searches: f(7) and the count of optimal decks are published
    # (tests/data), the decks themselves come from playing all 5040 decks
    best, decks = rules.max_steps_brute(7)
    assert (best, len(decks)) == (F[7], COUNTS[7])
    j = run_cli("topswops", "optimal", "-n", "7", "--mode", mode, "--json").json()
    assert j == {"n": 7, "steps": F[7], "decks": sorted(list(d) for d in decks)}


def test_play_prints_the_trace_then_the_steps():
    r = run_cli("topswops", "play", "3", "1", "2")
    assert (r.code, r.out) == (0, "3 1 2\n2 1 3\n1 2 3\nsteps=2\n")
    j = run_cli("topswops", "play", "3", "1", "2", "--json").json()
    assert j == {"deck": [3, 1, 2], "steps": 2, "trace": [[3, 1, 2], [2, 1, 3], [1, 2, 3]]}


@pytest.mark.parametrize(
    "args, words",
    [
        (["solve", "-n", "0"], "at least 1"),
        (["solve", "-n", "-3", "--mode", "forward"], "at least 1"),
        (["solve", "-n", "16"], "n <= 15"),
        (["solve", "-n", "16", "--mode", "backward"], "n <= 15"),
        (["solve", "-n", "33", "--mode", "forward"], "n <= 32"),
        (["optimal", "-n", "40"], "n <= 32"),
        (["estimate", "-n", "33"], "n <= 32"),
        (["solve", "--mode", "sideways"], "sideways"),
        (["solve", "-n", "ten"], "ten"),
        (["play", "1", "2", "2"], "not a permutation"),
        (["play", "0", "1"], "not a permutation"),
        (["play", "2", "x"], "whole numbers"),
        (["solve", "--workers", "0"], "--workers"),
    ],
)
def test_bad_input_gets_one_line_and_exit_2(args, words):
    r = run_cli("topswops", *args)
    assert_bad_input(r)
    assert words in r.err


def test_a_checkpoint_of_another_run_is_refused(tmp_path):
    ck = tmp_path / "run.ckpt"
    assert run_cli("topswops", "solve", "-n", "9", "--mode", "forward", "--workers", "1",
                   "--checkpoint", ck).code == 0
    r = run_cli("topswops", "solve", "-n", "10", "--mode", "forward", "--workers", "1", "--checkpoint", ck)
    assert_bad_input(r)
    # another method: Knuth's search's checkpoint, resumed as the deep search (its target
    # and bottom bound are part of what a checkpoint is for)
    assert run_cli("topswops", "solve", "-n", "10", "--mode", "forward", "--no-deep", "--workers", "1",
                   "--checkpoint", tmp_path / "plain.ckpt").code == 0
    r = run_cli("topswops", "solve", "-n", "10", "--mode", "forward", "--deep", "--start",
                "5 9 1 8 6 2 10 4 7 3", "--workers", "1", "--checkpoint", tmp_path / "plain.ckpt")
    assert_bad_input(r)
    garbage = tmp_path / "garbage"
    garbage.write_text("not a checkpoint\n" * 100)
    assert_bad_input(run_cli("topswops", "solve", "-n", "9", "--mode", "forward", "--checkpoint", garbage))


@pytest.mark.parametrize(("args", "words"), [
    (["-n", "9", "--start", "1 2 3"], "has 3 cards, not n = 9"),
    (["-n", "5", "--start", "3 1 2 5 4 4"], "not a permutation"),
    (["-n", "5", "--start", "x y"], "whole numbers"),
    (["-n", "5", "--start", "3 1 2 5 4", "--mode", "backward"], "applies to the forward search"),
    (["-n", "5", "--start", "3 1 2 5 4", "--mode", "forward", "--no-deep"], "cannot go with --no-deep"),
    (["-n", "5", "--start", ""], "the deck is empty"),
    (["-n", "5", "--start", " , "], "the deck is empty"),
])
def test_a_bad_start_deck_is_one_line(args, words):
    r = run_cli("topswops", "solve", *args)
    assert_bad_input(r)
    assert words in r.err


def test_an_empty_deck_to_play_is_called_empty():
    r = run_cli("topswops", "play", "")
    assert_bad_input(r)
    assert "the deck is empty" in r.err and "1..0" not in r.err


@pytest.mark.parametrize("flag", ["--deep", "--no-deep"])
def test_deep_or_not_is_refused_with_the_backward_search(flag):
    # the backward search has no deep variant, as it has no --start or --checkpoint
    r = run_cli("topswops", "solve", "-n", "5", "--mode", "backward", flag)
    assert_bad_input(r)
    assert f"{flag} applies to the forward search" in r.err


@pytest.mark.parametrize("args", [
    ["--deep"],
    ["--start", "1"],
    ["--mode", "forward", "--deep"],
    ["--mode", "forward", "--start", "1"],
])
def test_one_card_makes_no_step_with_the_deep_search_too(args, tmp_path):
    r = run_cli("topswops", "solve", "-n", "1", *args, "--store", tmp_path / "s.sqlite", "--json")
    assert r.code == 0, r.err
    j = r.json()
    assert j["forward"] == 0 and j["decks"] == [[1]] and j.get("backward", 0) == 0


def test_optimal_says_which_forward_search_it_runs():
    from puzzlesearch.topswops import api

    text = " ".join(run_cli("topswops", "optimal", "--help").out.split())
    assert f"below n = {api.DEEP_FROM} Knuth's forward search" in text and "the deep search" in text
    assert "Knuth's probes estimate the cheaper" in text
    assert "--deep" not in text  # optimal takes the default of solve, with no flag to change it


def test_the_deep_search_from_a_given_deck_finds_every_optimal_deck(tmp_path):
    store = str(tmp_path / "store.sqlite")
    j = run_cli("topswops", "solve", "-n", "11", "--mode", "forward", "--start", "3 1 2 5 4 9 8 7 6 10 11",
                "--store", store, "--json").json()
    assert j["forward"] == 51 and j["decks"] == [[4, 9, 11, 6, 10, 7, 8, 2, 1, 3, 5]]
    assert j["start"]["given"]["steps"] == 2  # a short deck: no bottom bound, the search starts at f(10) + 1
    best = j["decks"][0]
    j2 = run_cli("topswops", "solve", "-n", "11", "--mode", "forward", "--start", " ".join(map(str, best)),
                 "--store", store, "--json").json()
    assert j2["forward"] == 51 and j2["decks"] == j["decks"]
    b = j2["start"]["bottom"]
    assert b["target"] == 51 and b["bound"] < 38  # below f(10) = 38


def test_the_deep_search_takes_more_workers_than_long_runs_threads(tmp_path):
    # the forward search's --workers go up to click's limit; its `long` step uses at most its own
    from puzzlesearch.topswops import api

    r = run_cli("topswops", "solve", "-n", "6", "--mode", "forward", "--deep", "--workers",
                str(api.MAX_LONG_WORKERS + 1), "--store", tmp_path / "s.sqlite", "--json")
    assert r.code == 0, r.err
    assert r.json()["forward"] == F[6]
