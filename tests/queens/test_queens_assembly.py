"""The assembly method: half boards from quarter tables, matched by disjoint diagonal keys.

Its counts are checked against the published A000170 and A002562 and against the
constellation backtracker (an independent search); its pair counting against a plain
double loop; the size of its quarter table against the table and the plain rules; its
tasks for their cover of the row sets and their length; its CLI for output, checkpoints
(what a rerun runs), estimates and bad input.
"""

import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import assert_bad_input, load_data, run_cli
from puzzlesearch import queens
from puzzlesearch.engine.memory import gib
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.store import tasks_hash
from puzzlesearch.queens import aot, api, assembly, rules, tasks
from puzzlesearch.queens import assembly_kernel as kernel

DATA = load_data("queens")
TOTAL = {int(k): v for k, v in DATA["all_solutions"]["values"].items()}
UNIQUE = {int(k): v for k, v in DATA["unique_solutions"]["values"].items()}
ONE = RunOptions(workers=1)
ROOT = Path(__file__).resolve().parents[2]


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


def _cover(n: int, todo: list[dict]) -> None:
    for case in assembly.cases(n):
        ranges = sorted((t["first"], t["count"]) for t in todo if tuple(t["case"]) == case)
        covered = 0
        for first, count in ranges:
            assert first == covered and count > 0
            covered += count
        assert covered == assembly.layout(n, case)["sets"]
    assert {tuple(t["case"]) for t in todo} == set(assembly.cases(n))


def test_tasks_cover_every_row_set_once():
    for n in (12, 13, 20, 21, 22, 23):
        todo = tasks.assembly_tasks(n)
        assert len(todo) == assembly.balanced_count(n, tasks._balanced_target(n))
        _cover(n, todo)
        equal = tasks.assembly_tasks(n, 1)  # the split that checkpoints without one name keep
        assert len(equal) == assembly.task_count(n, tasks._assembly_target(n))
        _cover(n, equal)


@pytest.mark.parametrize("n, target", [(9, 40), (14, 40), (15, 200), (14, 10_000)])
def test_split_tasks_add_up_to_the_whole(n, target):
    for todo in (assembly.tasks(n, target), assembly.balanced_tasks(n, target)):
        _cover(n, todo)
        results = [assembly.run_task(t) for t in todo]
        assert len(results) >= min(target, 10) and sum(r[0] for r in results) == TOTAL[n]
        assert all(len(r) == 2 for r in results)  # [solutions, half boards]
    assert len(assembly.balanced_tasks(n, target)) == assembly.balanced_count(n, target)


def test_balanced_tasks_cut_inside_blocks_where_the_blocks_are_few(monkeypatch):
    # the blocks a count is weighed in are capped (millions of tasks at n = 26 and 27): a
    # block then holds several cuts, and the tasks still cover every row set once
    monkeypatch.setattr(assembly, "PROFILE_MAX_BLOCKS", 40)
    todo = assembly.balanced_tasks(15, 3000)
    assert len(todo) == assembly.balanced_count(15, 3000) == 3000
    _cover(15, todo)
    assert sum(assembly.run_task(t)[0] for t in todo) == TOTAL[15]


def _model_work(task: dict) -> float:
    """A task's work by the model balanced_tasks weighs by, from every one of its row sets."""
    lay = assembly.layout(task["n"], tuple(task["case"]))
    start = assembly.quarter_starts(lay["h"])
    pairs = kernel.task_work(lay["h"], start, lay["free_rows"], lay["east"], lay["west"], lay["sym"],
                             task["first"], task["count"], task["count"])
    return pairs + assembly.PROFILE_BASE * task["count"]


@pytest.mark.parametrize("n, target", [(16, 64), (17, 300), (18, 106), (19, 400)])
def test_balanced_tasks_hold_alike_work_where_equal_lengths_do_not(n, target):
    # an even board leaves most of its later ranks to their images, and so does the
    # centre-queen case of an odd one: ranges of equal length are then nearly empty or heavy
    def spread(todo):
        work = [_model_work(t) for t in todo]
        return max(work) / (sum(work) / len(work))

    equal = spread(assembly.tasks(n, target))
    balanced = spread(assembly.balanced_tasks(n, target))
    assert balanced < 1.6 and equal > 1.5 * balanced, (equal, balanced)


def test_apportion_gives_every_case_a_share_within_its_row_sets():
    assert assembly._apportion([1.0, 1.0, 2.0], [100, 100, 100], 8) == [2, 2, 4]
    assert assembly._apportion([0.0, 5.0, 1.0], [100, 3, 100], 10) == [1, 3, 6]
    assert assembly._apportion([0.0, 0.0], [5, 5], 4) == [2, 2]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1e12), st.integers(1, 50)), min_size=1, max_size=12), st.data())
def test_apportion_always_sums_to_the_total(cases, data):
    weights, caps = [w for w, _ in cases], [c for _, c in cases]
    total = data.draw(st.integers(len(cases), sum(caps)))
    share = assembly._apportion(weights, caps, total)
    assert sum(share) == total and all(1 <= s <= c for s, c in zip(share, caps, strict=True))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_pair_counting_equals_a_double_loop(data):
    # The keys of a count have 2 (n - 1 - n % 2) bits: 42 to 50 from n = 22 to 27. The
    # matching takes any int64 key, its sign bit too, in chunks of either width.
    bits = data.draw(st.one_of(st.integers(1, 64), st.integers(42, 50)))
    chunk = data.draw(st.sampled_from([kernel.NARROW, kernel.WIDE]))
    ncut = data.draw(st.integers(0, min(6, bits)))
    cut_a = data.draw(st.integers(0, bits - (ncut + 1) // 2))
    cut_d = data.draw(st.integers(0, bits - ncut // 2))
    weighted = data.draw(st.booleans())
    long_a, long_d = (data.draw(st.integers(0, bits - 1)), data.draw(st.integers(0, bits - 1))) if weighted \
        else (-1, -1)
    me = data.draw(st.integers(0, 1500))
    mw = data.draw(st.integers(0, 300))
    density = data.draw(st.floats(0.0, 0.6))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))

    def keys(m):
        raw = rng.random((m, bits)) < density
        return (raw * (np.int64(1) << np.arange(bits, dtype=np.int64))).sum(axis=1).astype(np.int64)

    ek, wk = keys(me), keys(mw)
    # a west key weighs 2 for each long diagonal it holds, plain Python
    weights = np.array([1 << (((int(k) >> long_a) & 1) + ((int(k) >> long_d) & 1)) if weighted else 1
                        for k in wk], np.int64)
    room = np.empty((2, max(me, mw, 1)), np.int64)
    got = kernel.match(ek, me, wk, mw, cut_a, cut_d, ncut, bits, chunk, long_a, long_d, room[0], room[1])
    assert got == kernel.match_plain(ek, me, wk, weights, mw)


def test_layout_of_an_odd_case():
    # queens at (9, 10) and (12, 9) on n = 19: row 11 and column 9 of the board without its
    # middle are taken, and their four diagonals are holes in every key
    lay = assembly.layout(19, (1, 3))
    assert lay["mult"] == 8 and lay["sym"] == 0
    holes = [lay["lo_a"] + t for t in range(lay["width"]) if lay["fa"] >> (lay["lo_a"] + t) & 1]
    assert len(holes) == 2 and bin(lay["fd"]).count("1") == 2
    # the sieve's cut bits are bits some key may hold: none is a middle queen's diagonal
    for first, lo, held in ((lay["cut_a"], lay["lo_a"], lay["fa"]),
                            (lay["cut_d"] - lay["width"], lay["lo_d"], lay["fd"])):
        assert all(not held >> (lo + t) & 1 for t in range(first, first + assembly.RUN))
    assert lay["free_rows"] == ((1 << 18) - 1) ^ (1 << 11)
    assert lay["east"] == (((1 << 9) - 1) << 9) ^ (1 << 9)
    assert lay["sets"] == 24310  # C(17, 8)


def test_need_bytes_grows_with_n_and_workers():
    assert assembly.need_bytes(20) < assembly.need_bytes(22) < assembly.need_bytes(24)
    assert assembly.need_bytes(20, 1) < assembly.need_bytes(20, 2)
    assert assembly.need_bytes(21) < 2**30  # the table of h = 10 and one E's arrays


def test_need_bytes_builds_no_table(monkeypatch):
    def refuse(*args):
        raise AssertionError("need_bytes built a quarter table")

    monkeypatch.setattr(assembly, "table", refuse)
    monkeypatch.setattr(kernel, "quarter", refuse)
    for n in range(assembly.MIN_N, api.MAX_COUNT_N + 1):
        h = n // 2
        assert assembly.need_bytes(n) > (4**h + assembly.quarter_cells(h)) * 8


def _plain_quarter_cells(h):
    """The placements of non-attacking queens on an h x h square, the empty one included,
    by the plain rules."""
    squares = [(r, c) for r in range(h) for c in range(h)]

    def grow(first, placed):
        return 1 + sum(grow(i + 1, placed + [sq]) for i, sq in enumerate(squares[first:], first)
                       if not any(rules.attacks(*sq, *p) for p in placed))

    return grow(0, [])


@pytest.mark.parametrize("h", range(1, 11))
def test_quarter_cells_is_the_size_of_the_table(h):
    start, cells = assembly.table(h)
    assert assembly.quarter_cells(h) == kernel.quarter_size(h) == start[-1] == len(cells)
    if h <= 5:
        assert assembly.quarter_cells(h) == _plain_quarter_cells(h)


@pytest.mark.slow
def test_quarter_cells_of_h11_is_the_size_of_the_table():
    start, cells = assembly.table(11)
    assert assembly.quarter_cells(11) == start[-1] == len(cells)
    assembly.table.cache_clear()  # 0.5 GiB


@pytest.mark.parametrize("h", [h for h in sorted(assembly.COUNTED_CELLS) if h <= 11])
def test_the_cells_kept_are_those_counted(h):
    assert kernel.quarter_size(h) == assembly.COUNTED_CELLS[h]


@pytest.mark.slow
@pytest.mark.parametrize("h", [h for h in sorted(assembly.COUNTED_CELLS) if h > 11])
def test_the_cells_kept_of_the_largest_sides_are_those_counted(h):
    assert kernel.quarter_size(h) == assembly.COUNTED_CELLS[h]
    assert set(assembly.COUNTED_CELLS) == set(range(1, 14))  # every side a count may use (n <= 27)


# --- the tasks -----------------------------------------------------------------------------------


def test_long_counts_have_tasks_of_about_a_minute():
    for n in range(22, api.MAX_COUNT_N + 1):
        assert tasks.assembly_task_seconds(n) <= 60, n
    for n in range(23, api.MAX_COUNT_N + 1):  # no shorter than the model asks either
        assert tasks.assembly_task_seconds(n) >= 0.9 * tasks.ASSEMBLY_BALANCED_TASK_SECONDS, n


def test_every_count_the_records_keep_is_the_published_one():
    # the frontier runs check their counts when they end; this holds every committed
    # record to the published values again, so an edited or mistyped record fails here
    checked = set()
    for path in sorted((ROOT / "benchmarks/results").glob("queens*.json")):
        for r in json.loads(path.read_text()).get("rows", []):
            if "solutions" in r:
                assert r["solutions"] == TOTAL[r["n"]], (path.name, r["n"])
                assert r.get("unique", UNIQUE[r["n"]]) == UNIQUE[r["n"]], (path.name, r["n"])
                checked.add(r["n"])
    assert {20, 21, 22, 23} <= checked


def test_the_task_model_agrees_with_the_records():
    # the model's figures are the records' (within a factor 2: a re-recorded benchmark
    # on another machine may differ, a faster or slower kernel would not)
    records = {}
    for name in ("queens_assembly", "queens_assembly_n20", "queens_assembly_n21"):
        for r in json.loads((ROOT / "benchmarks/results" / f"{name}.json").read_text())["rows"]:
            if r["method"] == "assembly" and r["workers"] == 2 and r["n"] >= 18:
                records[r["n"]] = r["cpu_s"]
    for r in json.loads((ROOT / "benchmarks/results/queens_assembly_estimates.json").read_text())["rows"]:
        records[r["n"]] = r["estimate_cpu_s"]
    assert sorted(records) == sorted(tasks.ASSEMBLY_CPU_SECONDS)
    for n, seconds in records.items():
        assert 0.5 < tasks.assembly_cpu_seconds(n) / seconds < 2, n


def test_tasks_are_neither_too_short_nor_too_long_and_q21_s_checkpoint_has_them():
    # short counts: no task under ASSEMBLY_TASK_LEAST_SECONDS where 64 remain; from n = 19
    # a few hundred, 2000 from n = 20; and the committed checkpoint of Q(21) holds the task
    # list its count makes (made by version 1 of the kernels, it is refused for that alone)
    assert [tasks._assembly_target(n) for n in (13, 16, 17, 18, 19, 20, 21, 22)] == \
        [64, 64, 64, 106, 400, 2000, 2000, 2000]
    for n in range(17, 23):
        assert tasks.assembly_task_seconds(n) >= tasks.ASSEMBLY_TASK_LEAST_SECONDS or \
            tasks._assembly_target(n) == 64
    path = ROOT / "benchmarks/runs/queens-21-assembly.sqlite"
    db = sqlite3.connect(f"{path.as_uri()}?immutable=1", uri=True)  # read, never touched
    meta = dict(db.execute("select key, value from meta").fetchall())
    db.close()
    assert tasks.assembly_split(21, json.loads(meta["params"])) == (1, 2000)
    todo = tasks.assembly_tasks(21, 1)
    assert (meta["tasks"], meta["ntasks"]) == (tasks_hash(todo), str(len(todo)))
    assert "kernel" not in json.loads(meta["params"])


@pytest.mark.parametrize("n", [22, 23])
def test_the_committed_frontier_checkpoints_resume_the_tasks_they_were_made_with(n):
    # made before a count could cut its tasks by their work: their parameters name no split,
    # so a resumed count makes the ranges of equal length they hold
    path = ROOT / f"benchmarks/runs/queens-{n}-assembly.sqlite"
    db = sqlite3.connect(f"{path.as_uri()}?immutable=1", uri=True)
    meta = dict(db.execute("select key, value from meta").fetchall())
    db.close()
    made = json.loads(meta["params"])
    assert "split" not in made and made["kernel"] == assembly.KERNEL_VERSION
    split, target = tasks.assembly_split(n, made)
    todo = tasks.assembly_tasks(n, split, target)
    assert split == 1 and (meta["tasks"], meta["ntasks"]) == (tasks_hash(todo), str(len(todo)))
    assert tasks.assembly_params(n, split, target) == made


def _made_then_edited(ckpt: Path, n: int, edit) -> dict:
    """Count n by half boards into the checkpoint `ckpt`, then rewrite its parameters as
    edit(parameters) says; returns them as the count made them."""
    r = run_cli("queens", "count", "-n", str(n), "--method", "assembly", "--checkpoint", str(ckpt))
    assert r.code == 0, r.err
    with sqlite3.connect(ckpt) as db:
        (params,) = db.execute("select value from meta where key = 'params'").fetchone()
        made = json.loads(params)
        db.execute("update meta set value = ? where key = 'params'", (json.dumps(edit(dict(made))),))
    db.close()
    return made


def _tasks_run(monkeypatch) -> list[dict]:
    """The list the tasks a count runs from now on go into (run in this process: one worker)."""
    ran = []
    real = tasks.assembly_task

    def counted(task, shared=None):
        ran.append(task)
        return real(task, shared)

    monkeypatch.setattr(tasks, "assembly_task", counted)
    return ran


def _refused_before_the_table(monkeypatch, n: int, ckpt: Path):
    def refuse(*args):
        raise AssertionError("the quarter table was built")

    monkeypatch.setattr(tasks, "prepare_assembly", refuse)
    r = run_cli("queens", "count", "-n", str(n), "--method", "assembly", "--checkpoint", str(ckpt))
    assert_bad_input(r)
    return r


def test_a_count_keeps_its_split_in_the_checkpoint_and_refuses_one_it_does_not_know(tmp_path, monkeypatch):
    ckpt = tmp_path / "a.ckpt"
    made = _made_then_edited(ckpt, 14, lambda p: p | {"split": tasks.ASSEMBLY_SPLIT + 1})
    assert (made["split"], made["split_tasks"]) == (tasks.ASSEMBLY_SPLIT, tasks._balanced_target(14))
    r = _refused_before_the_table(monkeypatch, 14, ckpt)
    assert f"split {tasks.ASSEMBLY_SPLIT + 1}" in r.err


def test_a_checkpoint_of_equal_length_tasks_resumes_them(tmp_path, monkeypatch):
    # a checkpoint whose parameters name no split was cut into ranges of equal length: a
    # count that resumes it makes those tasks again and runs only the ones not finished
    ckpt = tmp_path / "a.ckpt"
    args = ("queens", "count", "-n", "15", "--method", "assembly", "--checkpoint", str(ckpt), "-v")
    with monkeypatch.context() as m:
        m.setattr(tasks, "ASSEMBLY_SPLIT", 1)
        assert run_cli(*args).code == 0
    equal = tasks.assembly_tasks(15, 1)
    assert equal != tasks.assembly_tasks(15)
    with sqlite3.connect(ckpt) as db:
        (params,) = db.execute("select value from meta where key = 'params'").fetchone()
        assert "split" not in json.loads(params)
        db.execute("delete from done where idx % 3 = 0")
    db.close()
    ran = _tasks_run(monkeypatch)
    r = run_cli(*args, "--workers", "1")  # one worker runs the tasks in this process
    assert r.code == 0, r.err
    assert r.out.splitlines()[0] == f"n=15  solutions={TOTAL[15]}  unique={UNIQUE[15]}"
    assert f"tasks={len(equal)}" in r.out
    assert ran == equal[::3]


def test_a_checkpoint_of_another_kernel_version_is_refused_before_any_work(tmp_path, monkeypatch):
    ckpt = tmp_path / "a.ckpt"
    made = _made_then_edited(ckpt, 13, lambda p: p | {"kernel": assembly.KERNEL_VERSION - 1})
    assert made["kernel"] == assembly.KERNEL_VERSION
    r = _refused_before_the_table(monkeypatch, 13, ckpt)
    assert f"version {assembly.KERNEL_VERSION - 1} of the assembly kernels" in r.err
    # the committed Q(21) checkpoint, made before checkpoints named their kernels
    q21 = ROOT / "benchmarks/runs/queens-21-assembly.sqlite"
    before = q21.read_bytes()
    r = run_cli("queens", "count", "-n", "21", "--checkpoint", str(q21))
    assert_bad_input(r)
    assert "version 1 of the assembly kernels" in r.err
    assert q21.read_bytes() == before


# --- the command line -------------------------------------------------------------------------


def test_count_with_the_assembly_method(tmp_path, monkeypatch):
    ckpt = tmp_path / "a.ckpt"
    args = ("queens", "count", "-n", "13", "--method", "assembly", "--checkpoint", str(ckpt))
    r = run_cli(*args, "-v", "--workers", "2")
    assert r.code == 0, r.err
    first, second = r.out.splitlines()
    assert first == f"n=13  solutions={TOTAL[13]}  unique={UNIQUE[13]}"
    assert second.startswith(f"method=assembly  kernels={aot.kernels()[1]}  tasks=")
    ntasks = int(second.split("tasks=")[1].split()[0])
    assert ntasks == len(tasks.assembly_tasks(13)) > 3

    # the tasks a rerun runs, counted: one worker runs them in this process
    ran = _tasks_run(monkeypatch)
    again = run_cli(*args, "--workers", "1")
    assert again.code == 0 and again.out.splitlines()[0] == first
    assert ran == []  # every task read from the checkpoint

    # a checkpoint missing some tasks runs those alone
    lost = (0, ntasks // 2, ntasks - 1)
    with sqlite3.connect(ckpt) as db:
        gone = [json.loads(t) for (t,) in db.execute(
            "select task from done where idx in (?, ?, ?) order by idx", lost)]
        db.execute("delete from done where idx in (?, ?, ?)", lost)
    db.close()
    assert len(gone) == 3
    again = run_cli(*args, "--workers", "1")
    assert again.code == 0 and again.out.splitlines()[0] == first
    assert ran == gone

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
    (("-n", "24", "--memory", "4"), "the assembly count of n=24 needs"),
    (("-n", "28",), "-n must be at most 27"),
])
def test_count_refuses_what_assembly_cannot_run(args, words):
    r = run_cli("queens", "count", *args)
    assert_bad_input(r)
    assert words in r.err


@pytest.mark.parametrize("n", [14, 19, 24])
def test_a_count_refused_for_memory_loads_no_kernel_first(n, monkeypatch):
    # no compile of 15 s before "needs more memory": the refusal comes before any work
    def no_kernels(*args, **kwargs):
        raise AssertionError("the kernels were loaded before the memory was checked")

    monkeypatch.setattr(aot, "kernels", no_kernels)
    with pytest.raises(ValueError, match=f"the assembly count of n={n} needs"):
        api.count(n, method="assembly", run=RunOptions(memory=1 << 10))


def test_estimate_prints_time_and_memory():
    r = run_cli("queens", "estimate", "-n", "12", "--samples", "20", "--workers", "2")
    assert r.code == 0, r.err
    first, second, third = r.out.splitlines()
    assert first == "n=12  method=assembly  row sets=924 (20 timed, seed 0)"
    assert second.startswith("expected: ") and second.endswith(" on 2 workers")
    one, two = assembly.need_bytes(12, 1), assembly.need_bytes(12, 2)
    assert one < 2**20  # a figure that "0.00 GiB" would hide
    assert third == (f"memory: {gib(one)} for one worker, {gib(two)} for 2 on one machine "
                     "(they share the quarter table)")
    assert gib(one).endswith(" KiB") and gib(one)[0] != "0"
    d = json.loads(run_cli("queens", "estimate", "-n", "13", "--samples", "50", "--json").out)
    assert d["row_sets"] == sum(assembly.layout(13, c)["sets"] for c in assembly.cases(13))
    assert d["sampled"] >= 50 and d["cpu_seconds"] > 0
    assert d["memory_bytes"] == assembly.need_bytes(13, d["workers"])


def test_estimate_over_seeds_is_their_mean_with_its_spread():
    one = api.estimate(13, samples=30, run=ONE)
    e = api.estimate(13, samples=30, seed=5, seeds=3, run=ONE)
    assert (e.seed, e.seeds, e.sampled) == (5, 3, 3 * one.sampled)
    assert 0 < e.cpu_low <= e.cpu_seconds <= e.cpu_high
    r = run_cli("queens", "estimate", "-n", "12", "--samples", "20", "--seeds", "2", "--workers", "2")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0] == "n=12  method=assembly  row sets=924 (40 timed, seeds 0..1)"
    assert lines[2].startswith("spread: ") and lines[2].endswith(" across the 2 seeds")


def test_estimate_is_close_to_a_run_even_where_a_call_costs_more_than_a_row_set():
    # at n = 16 a row set takes about 1.3 us and a call of the kernel about 8 us: timed with
    # its call, each sample put the estimate at 1.6 times the run; without, 1.1 to 1.2
    e = api.estimate(16, samples=400, run=ONE)
    spent = sum(_timed(t) for t in assembly.tasks(16, 64))
    assert 0.7 < e.cpu_seconds / spent < 1.4, (e.cpu_seconds, spent)


def _timed(task):
    import time

    t0 = time.thread_time()  # as the estimate times its samples: a loaded machine skews neither
    assembly.run_task(task)
    return time.thread_time() - t0


@pytest.mark.parametrize("args", [
    ("-n", "3"), ("-n", "28"), ("-n", "x"), ("-n", "12", "--samples", "0"),
    ("-n", "12", "--method", "corner"),
    ("-n", "12", "--memory", "0.00001"), ("-n", "12", "--workers", "0"),
    ("-n", "12", "--seeds", "0"), ("-n", "12", "--seeds", "101"),
    ("-n", "12", "--seed", str(2**63 - 1), "--seeds", "2"),
])
def test_estimate_bad_input(args):
    assert_bad_input(run_cli("queens", "estimate", *args))
