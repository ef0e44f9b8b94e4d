"""Every command that takes --scheduler, on a cluster as a user starts one (a ``dask
scheduler`` process and two ``dask worker`` processes of 2 threads each): the same
answer as the local run, in its text and in its JSON (the same fields and values, the
same witnesses), but for the fields that say how it ran (times, threads, the order the
layers were searched in, and the nodes of a branch and bound, which depend on when each
task saw the best value so far).

And the faults a cluster has, each command in its own process as a user runs it: a
worker killed mid-run (the answer is still right: Dask runs its tasks again), every
worker lost and the scheduler lost (one line, exit 75, the checkpoint kept; the same
command resumes once the cluster is back), and a worker that joins mid-run (it gets tasks).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import load_data, run_cli
from dask_processes import ProcessCluster
from puzzlesearch.queens import tasks as queens_tasks
from test_interrupts import done_tasks

distributed = pytest.importorskip("distributed")

#: fields of a JSON answer that say how a run went, not what it found
HOW_IT_RAN = {"seconds", "workers", "directions", "nodes", "nodes_per_level", "searched", "kernels"}

#: (name, arguments): every command that takes --scheduler, at sizes of a few seconds
COMMANDS = [
    ("queens assembly", ["queens", "count", "-n", "15", "--method", "assembly"]),
    ("queens constellation", ["queens", "count", "-n", "14", "--method", "constellation"]),
    ("queens corner", ["queens", "count", "-n", "13", "--method", "corner"]),
    ("queens completion", ["queens", "count", "-n", "13", "--fixed", "1:2"]),
    ("topswops forward", ["topswops", "solve", "-n", "12", "--mode", "forward"]),
    # the deep plan's own start is the best deck a timed search finds, which depends on the machine's
    # speed: a deck given with --start makes the plan the same for both runs
    ("topswops deep", ["topswops", "solve", "-n", "12", "--mode", "forward", "--deep",
                       "--start", "8 9 12 6 1 7 11 10 3 2 4 5"]),
    ("topswops optimal", ["topswops", "optimal", "-n", "11"]),
    ("pancake god", ["pancake", "god", "-n", "8"]),
    ("burnt pancake god", ["pancake", "god", "-n", "6", "--burnt"]),
    ("shuffle god", ["shuffle", "god", "--deck", "8", "--block", "3"]),
    ("perm god", ["perm", "god", "pyraminx"]),
    ("hanoi verify", ["hanoi", "verify", "-n", "8", "--pegs", "4"]),
    ("grundy survey", ["grundy", "survey", "--digits", "2", "--count", "2000"]),
]
#: the one that runs in the fast lane: the kernel that once shared a buffer between threads
FAST = {"queens assembly"}


def untimed(text: str) -> str:
    """Text output with its timings blanked (the survey's table has a column of them)."""
    return re.sub(r"\d+(\.\d+)? s\b", "_ s", text)


def answer_fields(value):
    if isinstance(value, dict):
        return {k: answer_fields(v) for k, v in value.items() if k not in HOW_IT_RAN}
    if isinstance(value, list):
        return [answer_fields(v) for v in value]
    return value


def run_both(args: list[str], where: list[str], store: Path):
    text = run_cli(*args, *where, "--store", str(store)) if _takes_store(args) else run_cli(*args, *where)
    as_json = (run_cli(*args, *where, "--json", "--store", str(store.with_suffix(".json.sqlite")))
               if _takes_store(args) else run_cli(*args, *where, "--json"))
    return text, as_json


def _takes_store(args: list[str]) -> bool:
    return args[0] in ("topswops", "pancake", "shuffle", "perm", "grundy")


@pytest.mark.parametrize("name, args", [pytest.param(n, a, marks=() if n in FAST else pytest.mark.slow)
                                        for n, a in COMMANDS], ids=[n for n, _ in COMMANDS])
def test_the_cluster_gives_the_local_answer(dask_cluster, tmp_path, name, args):
    # each run its own results store: an answer stored by the other would be read back, not computed
    local_text, local_json = run_both(args, ["--workers", "2"], tmp_path / "local.sqlite")
    text, as_json = run_both(args, ["--scheduler", dask_cluster], tmp_path / "cluster.sqlite")
    for r in (local_text, local_json, text, as_json):
        assert r.code == 0, r.err
    assert untimed(text.out) == untimed(local_text.out)
    assert answer_fields(as_json.json()) == answer_fields(local_json.json())
    assert set(as_json.json()) == set(local_json.json())
    if name in ("queens constellation", "queens corner", "queens assembly"):
        # the kernels compiled ahead of time hold the GIL: a worker's threads run the JIT ones
        assert as_json.json()["kernels"] == "jit"


# --- faults, each command in its own process ----------------------------------------------------------

#: a count of about 10 s on this cluster: long enough to kill something at 30% and 60% of it
LONG = ["queens", "count", "-n", "18", "--method", "assembly"]
QUEENS = load_data("queens")
#: its tasks
ALL = len(queens_tasks.assembly_tasks(18))


def expected_line(n: int) -> str:
    total = QUEENS["all_solutions"]["values"][str(n)]
    unique = QUEENS["unique_solutions"]["values"][str(n)]
    return f"n={n}  solutions={total}  unique={unique}\n"


def start(args: list[str], cwd: Path, **env: str) -> subprocess.Popen:
    environ = {**os.environ, "PUZZLESEARCH_STORE": str(cwd / "results.sqlite"), **env}
    return subprocess.Popen([sys.executable, "-m", "puzzlesearch", *args], cwd=cwd, env=environ,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def finish(proc: subprocess.Popen, timeout: float = 300) -> tuple[int, str, str]:
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail(f"still running after {timeout} s; stderr: {err[-2000:]}")
    return proc.returncode, out, err


def when(ready, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        assert time.monotonic() < deadline, "the run never got that far"
        time.sleep(0.05)


@pytest.fixture
def cluster(tmp_path):
    """A cluster of this test's own (its processes are killed)."""
    c = ProcessCluster(tmp_path / "dask", workers=2, threads=2)
    yield c
    c.close()


@pytest.mark.slow
@pytest.mark.parametrize("share", [0.3, 0.6])
def test_a_worker_killed_mid_run_costs_only_time(cluster, tmp_path, share):
    ckpt = tmp_path / "run.ckpt"
    proc = start([*LONG, "--scheduler", cluster.address, "--checkpoint", str(ckpt)], tmp_path)
    when(lambda: ckpt.exists() and done_tasks(ckpt) >= share * ALL)
    cluster.kill_worker(0)  # its nanny too: gone for good, as when its machine dies
    code, out, err = finish(proc)
    assert (code, out, err) == (0, expected_line(18), "")


@pytest.mark.slow
def test_every_worker_lost_is_one_line_and_the_rerun_resumes(cluster, tmp_path):
    ckpt = tmp_path / "run.ckpt"
    args = [*LONG, "--scheduler", cluster.address, "--checkpoint", str(ckpt)]
    proc = start(args, tmp_path, PUZZLESEARCH_NO_WORKER_SECONDS="3")
    when(lambda: ckpt.exists() and done_tasks(ckpt) >= ALL // 3)
    cluster.kill_workers()
    code, out, err = finish(proc, 60)
    assert (code, out) == (75, "")
    assert err == (f"puzzlesearch: the Dask cluster at {cluster.address} has had no worker for 3 s; "
                   f"{ckpt} keeps the finished work: run the same command again once the cluster is back, "
                   "to resume\n")
    kept = done_tasks(ckpt)
    assert ALL // 3 <= kept < ALL
    cluster.add_worker()
    cluster.add_worker()
    cluster.wait_for_workers(2)
    code, out, err = finish(start(args, tmp_path))
    assert (code, out, err) == (0, expected_line(18), "")
    assert done_tasks(ckpt) == ALL


@pytest.mark.slow
def test_the_scheduler_lost_is_one_line_and_the_rerun_resumes(cluster, tmp_path):
    ckpt = tmp_path / "run.ckpt"
    proc = start([*LONG, "--scheduler", cluster.address, "--checkpoint", str(ckpt)], tmp_path)
    when(lambda: ckpt.exists() and done_tasks(ckpt) >= ALL // 3)
    lost = cluster.address
    cluster.kill_scheduler()
    code, out, err = finish(proc, 60)
    assert (code, out) == (75, "")
    assert err == (f"puzzlesearch: the Dask scheduler at {lost} stopped answering; {ckpt} keeps the finished "
                   "work: run the same command again once the cluster is back, to resume\n")
    kept = done_tasks(ckpt)
    assert ALL // 3 <= kept < ALL
    # a new scheduler (another port) and new workers: the same command, with the new address
    cluster.close()
    again = ProcessCluster(tmp_path / "dask-again", workers=2, threads=2)
    try:
        args = [*LONG, "--scheduler", again.address, "--checkpoint", str(ckpt)]
        code, out, err = finish(start(args, tmp_path))
    finally:
        again.close()
    assert (code, out, err) == (0, expected_line(18), "")


@pytest.mark.slow
def test_without_a_checkpoint_the_line_says_how_to_keep_work(cluster, tmp_path):
    proc = start([*LONG, "--scheduler", cluster.address], tmp_path, PUZZLESEARCH_NO_WORKER_SECONDS="2")
    time.sleep(4)
    cluster.kill_workers()
    code, out, err = finish(proc, 60)
    assert (code, out) == (75, "")
    assert err.endswith("has had no worker for 2 s; give --checkpoint FILE to keep finished work when a "
                        "cluster fails\n"), err


@pytest.mark.slow
def test_a_worker_that_joins_mid_run_gets_tasks(tmp_path):
    c = ProcessCluster(tmp_path / "dask", workers=1, threads=1)
    try:
        ckpt = tmp_path / "run.ckpt"
        proc = start([*LONG, "--scheduler", c.address, "--checkpoint", str(ckpt)], tmp_path)
        when(lambda: ckpt.exists() and done_tasks(ckpt) >= ALL // 10)
        c.add_worker(threads=2)
        c.wait_for_workers(2)
        code, out, err = finish(proc)
        assert (code, out, err) == (0, expected_line(18), "")
        with c.client() as client:
            ran = client.run(lambda dask_worker: (dask_worker.name, dask_worker.state.executed_count))
        counts = dict(ran.values())
        assert counts["worker-1"] > 0, counts
    finally:
        c.close()


def test_a_bad_no_worker_wait_is_one_line(dask_cluster, monkeypatch):
    monkeypatch.setenv("PUZZLESEARCH_NO_WORKER_SECONDS", "soon")
    r = run_cli("queens", "count", "-n", "12", "--method", "assembly", "--scheduler", dask_cluster)
    assert (r.code, r.out) == (2, "")
    assert r.err == ("puzzlesearch: error: PUZZLESEARCH_NO_WORKER_SECONDS must be a positive number of "
                     "seconds, got 'soon'\n")


@pytest.mark.slow
def test_a_breadth_first_search_that_loses_its_scheduler_resumes_at_its_last_layer(cluster, tmp_path):
    ckpt = tmp_path / "god.ckpt"
    args = ["pancake", "god", "-n", "10", "--checkpoint", str(ckpt)]
    proc = start([*args, "--scheduler", cluster.address], tmp_path)
    when(ckpt.exists)  # written after each layer's merges
    lost = cluster.address
    cluster.kill_scheduler()
    code, out, err = finish(proc, 60)
    assert (code, out) == (75, "")
    assert err.startswith(f"puzzlesearch: the Dask scheduler at {lost} stopped answering; {ckpt} keeps"), err
    cluster.close()
    again = ProcessCluster(tmp_path / "dask-again", workers=2, threads=2)
    try:
        code, out, err = finish(start([*args, "--scheduler", again.address, "-v"], tmp_path))
    finally:
        again.close()
    assert code == 0, err
    assert out.startswith("pancakes n=10: 3,628,800 stacks reachable (all 10!), diameter 11\n"), out
    assert ", resumed at layer " in out.splitlines()[-1]
