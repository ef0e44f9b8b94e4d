"""`topswops long` (an anytime search for long decks) and `topswops estimate` (Knuth's
random-probe estimate of the forward search): against the published f(n), the plain rules,
and the real forward kernel's node counts."""

import signal
import subprocess
import sys

import numpy as np
import pytest

from conftest import assert_bad_input, load_data, run_cli
from puzzlesearch.topswops import api, rules
from puzzlesearch.topswops.estimate import estimate
from puzzlesearch.topswops.forward import _bound_array, _search

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
    api.long(6, seconds=60, seed=0, goal=F[6], workers=1)  # a beam and the depth-first searches ran


@pytest.mark.parametrize("n", range(1, 10))
def test_long_reaches_f_n_for_small_n_within_seconds(n, compiled):
    r = api.long(n, seconds=10, seed=n, goal=F[n])  # stops when it has f(n), or after 10 s
    assert r.steps == F[n]
    assert r.steps == rules.steps(r.deck)
    assert r.improvements[-1].seconds < 5


def test_long_stops_at_its_goal():
    r = api.long(8, seconds=30, goal=F[8])
    assert r.steps == F[8] and r.seconds < 10


def test_every_printed_deck_replays_to_its_printed_length():
    r = run_cli("topswops", "long", "-n", "14", "--seconds", "1.5", "--seed", "3")
    assert r.code == 0, r.err
    rows = _printed(r.out)
    assert len(rows) >= 2
    assert [s for s, _ in rows] == sorted({s for s, _ in rows})  # each line a longer deck
    for steps, deck in rows:
        assert sorted(deck) == list(range(1, 15)) and rules.steps(deck) == steps
    assert rows[-1][0] <= F[14]
    assert r.out.splitlines()[-1].startswith(f"best: {rows[-1][0]} steps")


def test_long_json_lists_the_improvements_with_times():
    j = run_cli("topswops", "long", "-n", "11", "--seconds", "1", "--json").json()
    imps = j["improvements"]
    assert j["steps"] == imps[-1]["steps"] == rules.steps(j["deck"]) and j["deck"] == imps[-1]["deck"]
    assert [i["seconds"] for i in imps] == sorted(i["seconds"] for i in imps)
    assert all(rules.steps(i["deck"]) == i["steps"] for i in imps)


def test_long_is_repeatable_from_its_seed_on_one_worker():
    a = api.long(30, seconds=0.5, seed=7, goal=1, workers=1)
    b = api.long(30, seconds=0.5, seed=7, goal=1, workers=1)
    assert a.deck == b.deck


@pytest.mark.parametrize("n", [14, 15])
def test_long_reaches_f_n_at_the_frontier(n):
    # the beam's ranking (undecided positions + 2 x legal un-moves) reaches f(15) = 113 in
    # about 5 s on 2 workers (README); the 120 s are a ceiling for a loaded machine
    r = api.long(n, seconds=120, seed=0, goal=F[n], workers=2)
    assert r.steps == F[n] and rules.steps(r.deck) == F[n]


def test_the_widest_beam_that_fits_runs_again(monkeypatch):
    from puzzlesearch.topswops import long as long_module
    from puzzlesearch.topswops import long_kernel

    widths = []
    real = long_kernel.beam_kernel
    monkeypatch.setattr(long_module, "BEAM_BYTES", long_module.beam_bytes(12, 256))  # widths 64..256 fit

    def beam(n, width, *rest):
        widths.append(width)
        return real(n, width, *rest)

    monkeypatch.setattr(long_kernel, "beam_kernel", beam)
    api.long(12, seconds=3, seed=1, workers=1)
    assert widths[:3] == [64, 128, 256] and len(widths) >= 5 and set(widths[3:]) == {256}


def test_every_worker_searches_and_only_longer_decks_are_reported():
    seen = []
    r = api.long(13, seconds=60, seed=5, report=seen.append, goal=F[13], workers=2)
    assert [i.steps for i in seen] == sorted({i.steps for i in seen})  # one report per length, rising
    assert r.steps == seen[-1].steps == F[13] and r.seconds < 60
    assert seen[0].method == "start"
    assert all(i.method.endswith(("(worker 0)", "(worker 1)")) for i in seen[1:])


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
    from puzzlesearch.topswops.estimate import _probe
    from puzzlesearch.topswops.long import _rng

    bound = _bound_array(n, BOUNDS)
    real = int(_search(n, bound, F[n])[3].sum())
    ests = _probe(n, bound, F[n], 40_000, _rng(n))[0]
    assert abs(ests.mean() - real) < 4 * ests.std() / np.sqrt(len(ests)) + 1e-9 * real
    assert abs(ests.mean() / real - 1) < 0.05


@pytest.mark.parametrize("n", [8, 9, 10, 11])
def test_estimate_is_within_a_factor_2_of_the_real_search(n, tmp_path):
    # the real search: its own bounds, first target f(n-1)+1 raised as decks are found
    real = int(_search(n, _bound_array(n, BOUNDS), BOUNDS[n - 1] + 1)[3].sum())
    e = estimate(n, workers=1, probes=20_000, seed=1, sample=0.1, long_seconds=1.0,
                 store=str(tmp_path / "store.sqlite"))
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
    assert lines[2].startswith("speed: ") and lines[3].endswith("on 2 worker(s)")


def test_estimate_refuses_a_missing_long_bound(tmp_path):
    r = run_cli("topswops", "estimate", "-n", "15", "--store", str(tmp_path / "s.sqlite"))
    assert_bad_input(r)
    assert "f(13)" in r.err


def test_estimate_is_repeatable_from_its_seed(tmp_path):
    store = str(tmp_path / "s.sqlite")
    a = estimate(9, probes=3000, seed=5, sample=0.05, long_seconds=0.5, store=store)
    b = estimate(9, probes=3000, seed=5, sample=0.05, long_seconds=0.5, store=store)
    assert a.nodes == b.nodes and a.stderr == b.stderr


