"""The same answer on any cluster: a Dask cluster as a user starts one on this machine (a
``dask scheduler`` process and 2 ``dask worker`` processes of 2 threads each), every
command that takes --scheduler against its local run, and the faults a cluster has.

- every --scheduler command (tests/test_cluster.py's list) in fresh processes, text and
  JSON, against ``--workers 2``: equal answers, N of N;
- ``queens count -n 18`` on the cluster against ``--workers 2`` here, alternating, medians
  of ``--repeats`` (target: within 1.3x, so that threads are no slowdown);
- one worker (its nanny too) SIGKILLed at about 30% and at about 60% of that count: the
  answer, and the time it cost against the cluster's median;
- every worker lost, and the scheduler lost: the one line, its exit status (75), the tasks
  the checkpoint kept, and the rerun's answer once a cluster is back;
- bad input: --scheduler at a worker, an HTTP server, a closed port and a silent port
  (one line, exit 2, within 15 s), and a failed invariant (one line, exit 1).

    .venv/bin/python benchmarks/cluster.py [--repeats 3]

Writes benchmarks/results/cluster.json.
"""

from __future__ import annotations

import argparse
import http.server
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from _bench import done_tasks, print_table, write_results

TESTS = Path(__file__).resolve().parent.parent / "tests"
sys.path.insert(0, str(TESTS))  # the cluster the tests start, and their list of commands

from dask_processes import ProcessCluster  # noqa: E402
from puzzlesearch.queens import tasks as queens_tasks  # noqa: E402
from test_cluster import COMMANDS, answer_fields, untimed  # noqa: E402

CLI = [sys.executable, "-m", "puzzlesearch"]
N = 18
LONG = ["queens", "count", "-n", str(N), "--method", "assembly"]
ANSWER = "n=18  solutions=666090624  unique=83263591"  # OEIS A000170, A002562 (the tests hold them too)
TASKS = len(queens_tasks.assembly_tasks(N))


def run(args: list[str], cwd: Path, env: dict | None = None, timeout: float = 600) -> dict:
    t0 = time.perf_counter()
    store = cwd / f"store-{time.monotonic_ns()}.sqlite"  # each run its own: nothing read back
    environ = {**os.environ, "PUZZLESEARCH_STORE": str(store), **(env or {})}
    p = subprocess.run([*CLI, *args], cwd=cwd, env=environ, capture_output=True, text=True, timeout=timeout)
    return {"code": p.returncode, "out": p.stdout, "err": p.stderr, "seconds": time.perf_counter() - t0}


def done(ckpt: Path) -> int:
    return done_tasks(ckpt)[0]


def started(args: list[str], cwd: Path, env: dict | None = None) -> subprocess.Popen:
    environ = {**os.environ, "PUZZLESEARCH_STORE": str(cwd / "store.sqlite"), **(env or {})}
    return subprocess.Popen([*CLI, *args], cwd=cwd, env=environ, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def until(ready, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            raise RuntimeError("the run never got that far")
        time.sleep(0.02)


def equality(cluster: ProcessCluster, work: Path) -> list[dict]:
    rows = []
    for name, args in COMMANDS:
        same = True
        took = {}
        for flags in ([], ["--json"]):
            local = run([*args, *flags, "--workers", "2"], work)
            remote = run([*args, *flags, "--scheduler", cluster.address], work)
            took["local" if not flags else "local_json"] = round(local["seconds"], 2)
            took["cluster" if not flags else "cluster_json"] = round(remote["seconds"], 2)
            if local["code"] or remote["code"]:
                same = False
            elif flags:
                a, b = json.loads(local["out"]), json.loads(remote["out"])
                same &= answer_fields(a) == answer_fields(b) and set(a) == set(b)
            else:
                same &= untimed(local["out"]) == untimed(remote["out"])
        rows.append({"command": "puzzlesearch " + " ".join(args), "same": same, **took})
        print(f"  {name}: {'same' if same else 'DIFFERENT'}", flush=True)
    return rows


def speed(cluster: ProcessCluster, work: Path, repeats: int) -> dict:
    local, remote = [], []
    for _ in range(repeats):  # alternating: the machine's noise falls on both alike
        r = run([*LONG, "--workers", "2"], work)
        assert r["out"].strip() == ANSWER, r
        local.append(r["seconds"])
        r = run([*LONG, "--scheduler", cluster.address], work)
        assert r["out"].strip() == ANSWER, r
        remote.append(r["seconds"])
    return {"command": "puzzlesearch " + " ".join(LONG), "local_workers_2": [round(t, 2) for t in local],
            "cluster_2x2_threads": [round(t, 2) for t in remote],
            "ratio": round(statistics.median(remote) / statistics.median(local), 3)}


def worker_killed(folder: Path, share: float, baseline: float) -> dict:
    cluster = ProcessCluster(folder / f"dask-kill-{share}", workers=2, threads=2)
    try:
        ckpt = folder / f"kill-{share}.ckpt"
        t0 = time.perf_counter()
        proc = started([*LONG, "--scheduler", cluster.address, "--checkpoint", str(ckpt)], folder)
        until(lambda: done(ckpt) >= share * TASKS)
        at = done(ckpt)
        cluster.kill_worker(0)
        out, err = proc.communicate(timeout=600)
        seconds = time.perf_counter() - t0
    finally:
        cluster.close()
    return {"case": f"one worker SIGKILLed at {at}/{TASKS} tasks", "right": out.strip() == ANSWER and not err,
            "exit": proc.returncode, "seconds": round(seconds, 2),
            "extra_seconds": round(seconds - baseline, 2)}


def lost(folder: Path, what: str) -> dict:
    cluster = ProcessCluster(folder / f"dask-{what}", workers=2, threads=2)
    ckpt = folder / f"{what}.ckpt"
    try:
        args = [*LONG, "--scheduler", cluster.address, "--checkpoint", str(ckpt)]
        proc = started(args, folder, {"PUZZLESEARCH_NO_WORKER_SECONDS": "5"})
        until(lambda: done(ckpt) >= TASKS // 3)
        t0 = time.perf_counter()
        if what == "workers":
            cluster.kill_workers()
        else:
            cluster.kill_scheduler()
        out, err = proc.communicate(timeout=120)
        ended = time.perf_counter() - t0
        kept = done(ckpt)
    finally:
        cluster.close()
    again = ProcessCluster(folder / f"dask-{what}-again", workers=2, threads=2)
    try:
        rerun = run([*LONG, "--scheduler", again.address, "--checkpoint", str(ckpt)], folder)
    finally:
        again.close()
    return {"case": "every worker lost (PUZZLESEARCH_NO_WORKER_SECONDS=5)" if what == "workers"
            else "the scheduler lost", "exit": proc.returncode, "stdout": out, "stderr": err,
            "lines": len(err.splitlines()), "ended_after_seconds": round(ended, 2), "kept_tasks": kept,
            "tasks": TASKS, "rerun_exit": rerun["code"], "rerun_right": rerun["out"].strip() == ANSWER,
            "rerun_seconds": round(rerun["seconds"], 2)}


class _Quiet(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args) -> None:  # its log is not the benchmark's output
        pass


def refusals(cluster: ProcessCluster, work: Path) -> list[dict]:
    with cluster.client() as c:
        worker = next(iter(c.scheduler_info(n_workers=-1)["workers"]))
    http_server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Quiet)
    threading.Thread(target=http_server.serve_forever, daemon=True).start()
    silent = socket.create_server(("127.0.0.1", 0))  # accepts (the backlog) and never answers
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    targets = {"a worker's address": worker, "an HTTP server": f"tcp://127.0.0.1:{http_server.server_address[1]}",
               "a closed port": f"tcp://127.0.0.1:{closed}",
               "a silent port": f"tcp://127.0.0.1:{silent.getsockname()[1]}"}
    rows = []
    try:
        for what, address in targets.items():
            r = run(["pancake", "god", "-n", "5", "--scheduler", address], work)
            rows.append({"case": f"--scheduler at {what}", "exit": r["code"],
                         "lines": len(r["err"].splitlines()), "seconds": round(r["seconds"], 2),
                         "stderr": r["err"].strip()})
    finally:
        http_server.shutdown()
        silent.close()
    code = ("import sys\nfrom puzzlesearch.queens import symmetric_kernel as s\nreal = s.quarter_turn_count\n"
            "s.quarter_turn_count = lambda n: real(n) + 1\nfrom puzzlesearch.cli import main\n"
            "sys.argv = ['puzzlesearch', 'queens', 'count', '-n', '14', '--method', 'assembly', "
            f"'--scheduler', {cluster.address!r}]\n"
            "main()\n")
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", code], cwd=work, capture_output=True, text=True, timeout=300)
    rows.append({"case": "a failed invariant (Burnside's lemma, a fault put into the run)",
                 "exit": p.returncode,
                 "lines": len(p.stderr.splitlines()), "seconds": round(time.perf_counter() - t0, 2),
                 "stderr": p.stderr.strip()})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="puzzlesearch-cluster-") as tmp:
        folder = Path(tmp)
        cluster = ProcessCluster(folder / "dask", workers=2, threads=2)
        try:
            print("every --scheduler command against --workers 2:", flush=True)
            same = equality(cluster, folder)
            timing = speed(cluster, folder, args.repeats)
            bad = refusals(cluster, folder)
        finally:
            cluster.close()
        baseline = statistics.median(timing["cluster_2x2_threads"])
        faults = [worker_killed(folder, share, baseline) for share in (0.3, 0.6)]
        faults += [lost(folder, "workers"), lost(folder, "scheduler")]
    print_table(f"Every --scheduler command: {sum(r['same'] for r in same)} of {len(same)} the same", same,
                ["command", "same", "local", "cluster"])
    print(f"\n{timing['command']}: cluster {timing['cluster_2x2_threads']} s against --workers 2 "
          f"{timing['local_workers_2']} s, ratio {timing['ratio']} (target <= 1.3)")
    print_table("Faults", faults, ["case", "exit", "seconds", "extra_seconds", "kept_tasks", "rerun_right"])
    print_table("Bad input", bad, ["case", "exit", "lines", "seconds"])
    write_results("cluster", same, {
        "cluster": "dask scheduler + 2 dask worker processes x 2 threads, on this machine (loopback)",
        "same": f"{sum(r['same'] for r in same)} of {len(same)}", "speed": timing, "faults": faults,
        "bad_input": bad,
    })


if __name__ == "__main__":
    main()
