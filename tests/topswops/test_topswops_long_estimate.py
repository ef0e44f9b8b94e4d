"""`topswops long` (an anytime search for long decks) and `topswops estimate` (Knuth's
random-probe estimate of the forward search): against the published f(n), the plain rules,
and the real forward kernel's node counts."""

import json
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from conftest import assert_bad_input, load_data, run_cli
from puzzlesearch import topswops
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.topswops import api, rules
from puzzlesearch.topswops import longdecks as long_module
from puzzlesearch.topswops.bounds import bound_array
from puzzlesearch.topswops.forward import search_below
from puzzlesearch.topswops.longdecks import rng_state
from puzzlesearch.topswops.longdecks_kernel import (
    COUNT,
    DEPTH,
    DONE,
    NEXT,
    beam_kernel,
    beam_walk,
    start_deck,
)
from puzzlesearch.topswops.probes import estimate, probe

DATA = load_data("topswops")
F = {int(k): v for k, v in DATA["max_steps"]["values"].items()}
BOUNDS = [0] + [F[m] for m in range(1, 17)]  # f(0..16), f(0) = 0 by convention


def _printed(out: str) -> list[tuple[int, tuple[int, ...]]]:
    """(steps, deck) of each improvement line `long` printed ("S steps  D D D  (t s, how)")."""
    rows = []
    for line in out.splitlines():
        if " steps  " in line:
            steps, rest = line.split(" steps  ", 1)
            rows.append((int(steps), tuple(int(x) for x in rest.split("  (")[0].split())))
    return rows


@pytest.fixture(scope="module")
def compiled():
    """The kernels compiled (or loaded from numba's cache) before a test times a search:
    on a fresh clone the first call compiles them, which takes several seconds."""
    # a beam and the depth-first searches ran
    api.long(6, seconds=60, seed=0, goal=F[6], run=RunOptions(workers=1))


@pytest.mark.parametrize("n", range(1, 10))
def test_long_reaches_f_n_for_small_n_within_ten_seconds(n, compiled):
    r = api.long(n, seconds=10, seed=n, goal=F[n])  # stops when it has f(n), or after 10 s
    assert r.steps == F[n]
    assert r.steps == rules.steps(r.deck)


def test_long_stops_at_its_goal():
    r = api.long(8, seconds=30, goal=F[8])
    assert r.steps == F[8] and r.seconds < 10


def test_every_printed_deck_replays_to_its_printed_length():
    r = run_cli("topswops", "long", "-n", "14", "--seconds", "0.5", "--seed", "3")
    assert r.code == 0, r.err
    rows = _printed(r.out)
    assert len(rows) >= 2
    assert [s for s, _ in rows] == sorted({s for s, _ in rows})  # each line a longer deck
    for steps, deck in rows:
        assert sorted(deck) == list(range(1, 15)) and rules.steps(deck) == steps
    assert rows[-1][0] <= F[14]
    assert r.out.splitlines()[-1].startswith(f"best: {rows[-1][0]} steps")


def test_long_json_lists_the_improvements_with_times():
    j = json.loads(run_cli("topswops", "long", "-n", "11", "--seconds", "0.5", "--json").out.splitlines()[-1])
    imps = j["improvements"]
    assert j["steps"] == imps[-1]["steps"] == rules.steps(j["deck"]) and j["deck"] == imps[-1]["deck"]
    assert [i["seconds"] for i in imps] == sorted(i["seconds"] for i in imps)
    assert all(rules.steps(i["deck"]) == i["steps"] for i in imps)


def test_a_beam_follows_its_random_numbers():
    cap = long_module.walk_cap(30)
    assert rng_state(7)[0] != rng_state(8)[0]
    walk_a, depth_a = long_module.beam(30, 64, rng_state(7), cap)
    walk_b, depth_b = long_module.beam(30, 64, rng_state(7), cap)
    walk_c, depth_c = long_module.beam(30, 64, rng_state(8), cap)
    assert depth_a == depth_b and (walk_a == walk_b).all()
    assert depth_a != depth_c or (walk_a != walk_c).any()  # other tie-breaks, another deck


def test_long_follows_its_seed_on_one_worker():
    # its first deck is its greedy beam's (goal=1 stops there): the same for the same seed,
    # another for another seed, as the beams above
    a, b, c = (api.long(30, seconds=30, seed=seed, goal=1, run=RunOptions(workers=1)) for seed in (7, 7, 8))
    assert a.deck == b.deck and a.deck != c.deck
    assert [i.method for i in a.improvements] == ["start", "beam 1"]


@pytest.mark.slow
@pytest.mark.parametrize("n", [14, 15])
def test_long_reaches_f_n_at_the_frontier(n):
    # the beam's ranking (undecided positions + 2 x legal un-moves) reaches f(15) = 113 in
    # about 5 s on 2 workers (README); the 120 s are a ceiling for a loaded machine
    r = api.long(n, seconds=120, seed=0, goal=F[n], run=RunOptions(workers=2))
    assert r.steps == F[n] and rules.steps(r.deck) == F[n]


@pytest.mark.slow
def test_the_widest_beam_that_fits_runs_again(monkeypatch):
    widths = []
    real = long_module.beam
    monkeypatch.setattr(long_module, "BEAM_BYTES", long_module.beam_bytes(12, 256))  # widths 64..256 fit

    def beam(n, width, *rest):
        if n == 12:  # not the kernels' loading, on two cards
            widths.append(width)
        return real(n, width, *rest)

    monkeypatch.setattr(long_module, "beam", beam)
    api.long(12, seconds=3, seed=1, run=RunOptions(workers=1))
    # the greedy beam of width 1 first, then the worker's doubling beams
    assert widths[:4] == [1, 64, 128, 256] and len(widths) >= 6 and set(widths[4:]) == {256}


def test_every_worker_searches_and_only_longer_decks_are_reported():
    seen = []
    r = api.long(13, seconds=60, seed=5, report=seen.append, goal=F[13], run=RunOptions(workers=2))
    assert [i.steps for i in seen] == sorted({i.steps for i in seen})  # one report per length, rising
    assert r.steps == seen[-1].steps == F[13] and r.seconds < 60
    assert [i.method for i in seen[:2]] == ["start", "beam 1"]  # the greedy beam, before the workers
    assert all(i.method.endswith(("(worker 0)", "(worker 1)")) for i in seen[2:])


@pytest.mark.slow
def test_long_takes_large_n():
    r = api.long(100, seconds=1.5, seed=1)
    assert r.steps > 100 and rules.steps(r.deck) == r.steps and sorted(r.deck) == list(range(1, 101))


def test_ctrl_c_keeps_the_printed_decks_and_exits_130():
    argv = [sys.executable, "-m", "puzzlesearch", "topswops", "long", "-n", "40", "--seconds", "60"]
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = p.stdout.readline()  # printed and flushed while the search runs
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 130, err
    assert err.strip().splitlines() == ["puzzlesearch: interrupted"]
    rows = _printed(first + out)
    assert rows and all(rules.steps(d) == s for s, d in rows)


@pytest.mark.parametrize("args", [
    ("long", "-n", "0"),
    ("long", "-n", "256"),
    ("long", "-n", "5", "--seconds", "-1"),
    ("long", "-n", "5", "--seconds", "nan"),
    ("estimate", "-n", "99"),
    ("estimate", "-n", "0"),
    ("long", "-n", "5", "--seed", "-1"),
    ("long", "-n", "5", "--workers", "0"),
    ("long", "-n", "5", "--workers", "x"),
    ("estimate", "-n", "5", "--probes", "0"),
])
def test_bad_input_is_one_line_and_exit_2(args):
    r = run_cli("topswops", *args)
    assert_bad_input(r)


def test_long_names_its_limit_and_why():
    assert "n <= 255 (cards are stored as bytes" in run_cli("topswops", "long", "-n", "256").err


@pytest.mark.parametrize("n", [8, 9, 10, 11])
def test_probes_count_the_forward_tree_exactly_at_a_fixed_target(n):
    # with target f(n) from the start the real kernel's target never rises: the same tree
    bound = bound_array(n, BOUNDS)
    real = int(search_below(n, bound, F[n]).nodes.sum())
    ests = probe(n, bound, F[n], 40_000, rng_state(n)).estimates
    assert abs(ests.mean() - real) < 4 * ests.std() / np.sqrt(len(ests)) + 1e-9 * real
    assert abs(ests.mean() / real - 1) < 0.05


@pytest.mark.parametrize("n", [10, *(pytest.param(n, marks=pytest.mark.slow) for n in (8, 9, 11))])
def test_estimate_is_within_a_factor_2_of_the_real_search(n, tmp_path):
    # the real search: its own bounds, first target f(n-1)+1 raised as decks are found
    real = int(search_below(n, bound_array(n, BOUNDS), BOUNDS[n - 1] + 1).nodes.sum())
    e = estimate(n, run=RunOptions(workers=1, store=str(tmp_path / "store.sqlite")), probes=20_000, seed=1,
                 sample=0.1, long_seconds=1.0)
    assert e.first_target == F[n - 1] + 1 and e.target_from == "long" and e.target <= F[n]
    assert real / 2 <= e.nodes <= 2 * real
    assert e.upper >= e.nodes and e.nodes_per_second > 0 and e.seconds > 0


def test_estimate_prints_nodes_error_speed_and_time(tmp_path):
    store = str(tmp_path / "s.sqlite")
    assert run_cli("topswops", "solve", "-n", "9", "--mode", "forward", "--store", store).code == 0
    r = run_cli("topswops", "estimate", "-n", "9", "--probes", "5000", "--workers", "2", "--store", store)
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0] == "n=9  target=30 (f(n) from the results store; the search starts at 23)"
    assert lines[1].startswith("nodes: ") and "5000 probes" in lines[1]
    assert lines[2].startswith("speed: ") and lines[3].endswith("on 2 workers")


def test_estimate_names_every_missing_bound_and_the_one_run_that_gives_them(tmp_path):
    r = run_cli("topswops", "estimate", "-n", "15", "--store", str(tmp_path / "s.sqlite"))
    assert_bad_input(r)
    assert "needs f(13) and f(14) in the results store" in r.err
    assert "`puzzlesearch topswops solve -n 14 --mode forward` first (it computes f(13) on the way)" in r.err
    r = run_cli("topswops", "estimate", "-n", "14", "--store", str(tmp_path / "s.sqlite"))
    assert "needs f(13) in the results store" in r.err and "solve -n 13 --mode forward` first\n" in r.err


def _strict(text: str) -> dict:
    """JSON as the standard has it: NaN and Infinity are not JSON."""
    def refuse(word):
        raise ValueError(f"not JSON: {word}")
    return json.loads(text, parse_constant=refuse)


def test_an_estimate_from_one_probe_has_no_standard_error(tmp_path):
    store = str(tmp_path / "s.sqlite")
    # f(8) in the store: the target is read back, not sought by `long`
    assert run_cli("topswops", "solve", "-n", "8", "--mode", "forward", "--store", store).code == 0
    r = run_cli("topswops", "estimate", "-n", "8", "--probes", "1", "--json", "--store", store)
    assert r.code == 0, r.err
    j = _strict(r.out)
    assert j["stderr"] is None and j["probes"] == 1 and j["nodes"] >= 1
    r = run_cli("topswops", "estimate", "-n", "8", "--probes", "1", "--store", store)
    assert "no standard error from 1 probe" in r.out.splitlines()[1] and "nan" not in r.out


def test_json_output_has_null_where_a_number_is_not_finite(capsys):
    from puzzlesearch import clikit

    clikit.emit_json({"a": float("nan"), "b": [1.5, float("inf"), -float("inf")], "c": {"d": float("nan")}})
    assert _strict(capsys.readouterr().out) == {"a": None, "b": [1.5, None, None], "c": {"d": None}}


def test_the_workers_limit_of_long_is_the_same_in_click_and_in_the_library():
    limit = api.MAX_LONG_WORKERS
    r = run_cli("topswops", "long", "-n", "5", "--workers", str(limit + 1))
    assert_bad_input(r)
    assert f"must be between 1 and {limit}, got {limit + 1}" in r.err
    with pytest.raises(ValueError, match=f"between 1 and {limit}"):
        api.long(5, seconds=1, run=RunOptions(workers=limit + 1))


def _beam_arrays(n, width):
    rows = width * (n - 1)
    cur, cur_free = np.zeros((width, n), np.uint8), np.zeros(width, np.int64)
    cur[0, 0], cur_free[0] = 1, n - 1
    scratch = (np.zeros((rows, n), np.uint8), np.zeros(rows, np.int64), np.zeros(rows, np.uint8),
               np.zeros(rows, np.int64), np.zeros(rows, np.uint64), np.zeros(rows, np.int64))
    state = np.zeros(5, np.int64)
    state[COUNT] = 1
    return cur, cur_free, scratch, state


def test_the_beam_kernel_returns_after_its_budget_and_goes_on_where_it_stopped(compiled):
    n, width, cap = 20, 8, long_module.walk_cap(20)
    cur, cur_free, scratch, state = _beam_arrays(n, width)
    par, park = np.zeros((cap, width), np.int32), np.zeros((cap, width), np.uint8)
    rng = rng_state(4)
    calls = 0
    while not state[DONE]:
        before = (int(state[DEPTH]), int(state[NEXT]))
        assert beam_kernel(n, width, rng, cur, cur_free, *scratch, state, par, park, 0, 1, cap) == 1
        after = (int(state[DEPTH]), int(state[NEXT]))
        assert after in ((before[0], before[1] + 1), (before[0] + 1, 0))  # one deck expanded, no more
        calls += 1
    depth = int(state[DEPTH])
    assert calls > depth > 20
    walk = np.zeros(cap, np.uint8)
    assert beam_walk(par, park, depth, 0, walk, 0) == 0  # back to the one deck at depth 0
    one_go, steps = long_module.beam(n, width, rng_state(4), cap)
    assert steps == depth and (one_go == walk).all()
    deck = tuple(int(x) for x in start_deck(n, walk, depth))
    assert rules.steps(deck) == depth


@pytest.mark.parametrize(("n", "width"), [(2, 64), (7, 64), (13, 128), (40, 16)])
@pytest.mark.parametrize("rows", [1, 5])
def test_a_beam_is_the_same_however_its_calls_and_blocks_are_cut(n, width, rows, monkeypatch, compiled):
    cap = long_module.walk_cap(n)
    rng_a, rng_b = rng_state(n), rng_state(n)
    walk_a, depth_a = long_module.beam(n, width, rng_a, cap)
    monkeypatch.setattr(long_module, "BLOCK_ROWS", rows)  # parent links in blocks of `rows` depths
    walk_b, depth_b = long_module.beam(n, width, rng_b, cap)
    assert depth_a == depth_b and (walk_a == walk_b).all() and rng_a[0] == rng_b[0]
    assert rules.steps(tuple(int(x) for x in start_deck(n, walk_a, depth_a))) == depth_a


def test_a_beam_stopped_early_gives_the_deepest_deck_it_reached(compiled):
    # n = 255 at width 256: the whole beam takes minutes; its deadline comes after 0.3 s
    n, cap = 255, long_module.walk_cap(255)
    t0 = time.perf_counter()
    walk, depth = long_module.beam(n, 256, rng_state(1), cap, deadline=t0 + 0.3)
    assert time.perf_counter() - t0 < 5  # generous: the clock is read every BEAM_CALL seconds
    assert 0 < depth < n
    deck = tuple(int(x) for x in start_deck(n, walk, depth))
    assert sorted(deck) == list(range(1, n + 1)) and rules.steps(deck) == depth
    stop = threading.Event()
    stop.set()
    _, depth = long_module.beam(n, 256, rng_state(1), cap, stop=stop)
    assert depth <= 1  # one call, of one deck, then it looks at `stop`


@pytest.mark.parametrize("most", [1, 700, 10**5])
def test_the_depth_first_kernel_stops_at_the_nodes_it_is_given(most, compiled):
    from puzzlesearch.topswops.longdecks_kernel import dfs_kernel

    n, cap = 60, long_module.walk_cap(60)
    walk, depth = long_module.beam(n, 16, rng_state(3), cap)
    best = walk.copy()
    steps, rounds, nodes = dfs_kernel(n, best, depth, rng_state(5), 10**6, 20, most)
    assert nodes <= most and rounds < 10**6  # cut long before its rounds were done
    assert steps >= depth
    assert rules.steps(tuple(int(x) for x in start_deck(n, best, steps))) == steps


@pytest.mark.parametrize("workers", [pytest.param(1, marks=pytest.mark.slow), 2,
                                     pytest.param(64, marks=pytest.mark.slow)])
def test_long_ends_about_its_seconds_even_in_its_first_beam(workers, compiled):
    # a first beam at n = 255 runs for minutes; the bound is generous (the benchmark measures)
    r = api.long(255, seconds=0.5, seed=2, run=RunOptions(workers=workers))
    assert r.seconds < 3
    assert r.steps > 0 and rules.steps(r.deck) == r.steps


@pytest.mark.parametrize("n", [2, 3, 5, 20])
def test_a_run_too_short_for_any_beam_still_answers_with_a_searched_deck(n, compiled):
    # the greedy beam of width 1 runs whatever the time: f(2) = 1 is reached by it alone
    r = api.long(n, seconds=1e-6, seed=1, run=RunOptions(workers=1))
    assert [i.method for i in r.improvements] == ["start", "beam 1"]
    assert r.steps == rules.steps(r.deck) > 0
    if n <= 3:
        assert r.steps == F[n]


def test_estimate_follows_its_seed(tmp_path):
    # f(9) in the store fixes the target, so that only the probes' random numbers differ
    run = RunOptions(workers=1, store=str(tmp_path / "s.sqlite"))
    assert topswops.solve(9, "forward", run=run).forward == F[9]
    a, b, c = (estimate(9, run=run, probes=3000, seed=seed, sample=0.05) for seed in (5, 5, 6))
    assert a.target_from == b.target_from == c.target_from == "store"
    assert (a.nodes, a.stderr, a.nodes_per_level) == (b.nodes, b.stderr, b.nodes_per_level)
    assert a.nodes != c.nodes and a.nodes_per_level != c.nodes_per_level


