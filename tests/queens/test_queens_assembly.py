"""The assembly method: half boards from quarter tables, matched by disjoint diagonal keys.

Its counts are checked against the published A000170 and A002562 and against the
constellation backtracker (an independent search); its pair counting against a plain
double loop; its CLI for output, checkpoints, estimates and bad input.
"""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import assert_bad_input, load_data, run_cli
from puzzlesearch import queens
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.queens import api, assembly, rules
from puzzlesearch.queens import assembly_kernel as kernel

DATA = load_data("queens")
TOTAL = {int(k): v for k, v in DATA["all_solutions"]["values"].items()}
UNIQUE = {int(k): v for k, v in DATA["unique_solutions"]["values"].items()}
ONE = RunOptions(workers=1)


@pytest.mark.parametrize("n", range(4, 17))
def test_counts_are_the_published_ones(n):
    assert assembly.count(n) == TOTAL[n]


@pytest.mark.slow
@pytest.mark.parametrize("n", [17, 18])
def test_counts_are_the_published_ones_slow(n):
    assert assembly.count(n) == TOTAL[n]


@pytest.mark.parametrize("n", range(4, 15))
def test_count_and_unique_agree_with_the_constellations(n):
    a = queens.count(n, method="assembly", run=ONE)
    c = queens.count(n, method="constellation", run=ONE)
    assert (a.solutions, a.unique) == (c.solutions, c.unique) == (TOTAL[n], UNIQUE[n])
    assert a.method == "assembly"


@pytest.mark.slow
@pytest.mark.parametrize("n", [15, 16, 17])
def test_count_and_unique_agree_with_the_constellations_slow(n):
    a = queens.count(n, method="assembly", run=RunOptions(workers=2))
    c = queens.count(n, method="constellation", run=RunOptions(workers=2))
    assert (a.solutions, a.unique) == (c.solutions, c.unique) == (TOTAL[n], UNIQUE[n])


def test_each_odd_case_counts_its_own_solutions():
    # n = 9 by brute force: the solutions with the centre queen, and for each case (a, b)
    # those with queens at (h, h + a) and (h + b, h); the cases times 8 and the centre add up
    n, h = 9, 4
    boards = list(rules.solutions(n))
    for case in assembly.cases(n):
        got = sum(assembly.run_task(t)[0] for t in assembly.tasks(n, 1) if tuple(t["case"]) == case)
        if case == (0, 0):
            want = sum(1 for b in boards if b[h] == h)
        else:
            a, b = case
            want = 8 * sum(1 for s in boards if s[h] == h + a and s[h + b] == h)
        assert got == want, case


def test_tasks_cover_every_row_set_once():
    for n in (12, 13, 20, 21):
        todo = assembly.tasks(n, 2000 if n >= 20 else 64)
        for case in assembly.cases(n):
            ranges = sorted((t["first"], t["count"]) for t in todo if tuple(t["case"]) == case)
            covered = 0
            for first, count in ranges:
                assert first == covered and count > 0
                covered += count
            assert covered == assembly.layout(n, case)["sets"]


def test_split_tasks_add_up_to_the_whole():
    parts = [assembly.run_task(t)[0] for t in assembly.tasks(14, 40)]
    assert len(parts) > 10 and sum(parts) == TOTAL[14]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_pair_counting_equals_a_double_loop(data):
    bits = data.draw(st.integers(1, 40))
    nchunks = -(-bits // kernel.CHUNK)
    ncut = data.draw(st.integers(0, min(6, bits)))
    me = data.draw(st.integers(0, 1500))
    mw = data.draw(st.integers(0, 300))
    density = data.draw(st.floats(0.0, 0.6))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))

    def keys(m):
        raw = rng.random((m, bits)) < density
        return (raw * (np.int64(1) << np.arange(bits, dtype=np.int64))).sum(axis=1).astype(np.int64)

    ek, wk = keys(me), keys(mw)
    weights = rng.integers(1, 5, size=mw).astype(np.int64)
    cut_bits = np.sort(rng.choice(bits, size=ncut, replace=False)).astype(np.int64)

    def cuts(k):
        return sum(((k >> int(p)) & 1) << t for t, p in enumerate(cut_bits)).astype(np.int64) if ncut \
            else np.zeros(len(k), np.int64)

    got = kernel.match(ek, cuts(ek), me, wk, cuts(wk), weights, mw, ncut, nchunks)
    assert got == kernel.match_plain(ek, me, wk, weights, mw)


def test_layout_of_an_odd_case():
    # queens at (9, 10) and (12, 9) on n = 19: row 11 and column 9 of the board without its
    # middle are taken, and their four diagonals are holes in every key
    lay = assembly.layout(19, (1, 3))
    assert lay["mult"] == 8 and lay["sym"] == 0 and lay["nremoved"] == 4
    assert lay["free_rows"] == ((1 << 18) - 1) ^ (1 << 11)
    assert lay["east"] == (((1 << 9) - 1) << 9) ^ (1 << 9)
    assert lay["sets"] == 24310  # C(17, 8)


def test_need_bytes_grows_with_n_and_workers():
    assert assembly.need_bytes(20) < assembly.need_bytes(22) < assembly.need_bytes(24)
    assert assembly.need_bytes(20, 1) < assembly.need_bytes(20, 2)
    assert assembly.need_bytes(21) < 2**30  # the table of h = 10 and one E's arrays


# --- the command line -------------------------------------------------------------------------


def test_count_with_the_assembly_method(tmp_path):
    ckpt = tmp_path / "a.ckpt"
    r = run_cli("queens", "count", "-n", "13", "--method", "assembly", "-v", "--workers", "2",
                "--checkpoint", str(ckpt))
    assert r.code == 0, r.err
    first, second = r.out.splitlines()
    assert first == f"n=13  solutions={TOTAL[13]}  unique={UNIQUE[13]}"
    assert second.startswith("method=assembly  kernels=jit  tasks=")
    # the same command again reads every task from the checkpoint
    again = run_cli("queens", "count", "-n", "13", "--method", "assembly", "--checkpoint", str(ckpt))
    assert again.code == 0 and again.out.splitlines()[0] == first
    # a checkpoint of the other method is refused in one line
    r = run_cli("queens", "count", "-n", "13", "--method", "constellation", "--checkpoint", str(ckpt))
    assert_bad_input(r)


def test_assembly_is_the_default_from_its_first_n():
    assert api.default_method(api.ASSEMBLY_FROM) == "assembly"
    assert api.default_method(api.ASSEMBLY_FROM - 1) == "constellation"
    n = api.ASSEMBLY_FROM
    r = run_cli("queens", "count", "-n", str(n), "--json", "--workers", "2")
    d = r.json()
    assert (d["method"], d["solutions"], d["unique"]) == ("assembly", TOTAL[n], UNIQUE[n])


@pytest.mark.parametrize("args, words", [
    (("-n", "3", "--method", "assembly"), "--method assembly needs -n 4 or more"),
    (("-n", "14", "--method", "assembly", "--memory", "0.0001"), "the assembly count of n=14 needs"),
])
def test_count_refuses_what_assembly_cannot_run(args, words):
    r = run_cli("queens", "count", *args)
    assert_bad_input(r)
    assert words in r.err


def test_estimate_prints_time_and_memory():
    r = run_cli("queens", "estimate", "-n", "12", "--samples", "20", "--workers", "2")
    assert r.code == 0, r.err
    first, second, third = r.out.splitlines()
    assert first == "n=12  method=assembly  row sets=924 (20 timed, seed 0)"
    assert second.startswith("expected: ") and second.endswith(" on 2 worker(s)")
    assert third.startswith("memory: ")
    assert third.endswith("for 2 on one machine (they share the quarter table)")
    d = json.loads(run_cli("queens", "estimate", "-n", "13", "--samples", "50", "--json").out)
    assert d["row_sets"] == sum(assembly.layout(13, c)["sets"] for c in assembly.cases(13))
    assert d["sampled"] >= 50 and d["cpu_seconds"] > 0
    assert d["memory_bytes"] == assembly.need_bytes(13, d["workers"])


def test_estimate_is_within_a_small_factor_of_a_run():
    e = api.estimate(16, samples=400, run=ONE)
    spent = sum(_timed(t) for t in assembly.tasks(16, 64))
    assert 0.33 < e.cpu_seconds / spent < 3, (e.cpu_seconds, spent)


def _timed(task):
    import time

    t0 = time.perf_counter()
    assembly.run_task(task)
    return time.perf_counter() - t0


@pytest.mark.parametrize("args", [
    ("-n", "3"), ("-n", "28"), ("-n", "x"), ("-n", "12", "--samples", "0"),
    ("-n", "12", "--method", "corner"),
    ("-n", "12", "--memory", "0.00001"), ("-n", "12", "--workers", "0"),
])
def test_estimate_bad_input(args):
    assert_bad_input(run_cli("queens", "estimate", *args))
