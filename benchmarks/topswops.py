"""Topswops benchmark: backward n = 10..12, forward n = 11..14 (13..15 with --full),
each a fresh `puzzlesearch` process on one core, everything included (interpreter start,
numba's cache, and for forward the smaller bounds, computed afresh into an empty
results store). Also: first-run compilation vs cached start, and the ratio of the
kernels to their plain-Python versions at a small n.

    python benchmarks/topswops.py [--repeats 3] [--full]
    python benchmarks/topswops.py --long [--seconds 60] [--sizes 8-17 | --primes] [--workers 2] [--jobs 1]
                                  [--out NAME]                         (`long`)
    python benchmarks/topswops.py --estimate [--sizes 13-15]              (`estimate`)
    python benchmarks/topswops.py --deadline [--repeats 3]        (`long --seconds`: wall time, cached or not)
    python benchmarks/topswops.py --frontier 15 [--start DECK] [--checkpoint F] (f(15), f(16))
    python benchmarks/topswops.py --wide [--repeats 3]   (the kernel past 16 cards against the packed one)
    python benchmarks/topswops.py --plan 17 [--seconds 60] [--store S]   (`estimate`: the plan for f(17))

Targets (Knuth's C on one core of a machine like this): forward n=14 <= 40 s
(C: 40 s), backward n=12 <= 3 s (C: 2.9 s), first compilation <= 20 s, cached start <= 2 s.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from _bench import measure, print_table, run_once, write_results

TARGETS = {("backward", 12): 3.0, ("forward", 14): 40.0}
KNUTH_C = {("forward", 12): 0.33, ("forward", 13): 4.4, ("forward", 14): 40.0, ("forward", 15): 1504.0,
           ("backward", 12): 2.9}


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "puzzlesearch", *args]


def search_case(mode: str, n: int, repeats: int) -> dict:
    store = Path(tempfile.mkdtemp()) / "results.sqlite"  # empty: bounds are computed in the run
    argv = cli("topswops", "solve", "-n", str(n), "--mode", mode, "--workers", "1", "--store", str(store),
               "--json", "--quiet")
    if mode == "forward":
        argv.append("--no-deep")  # Knuth's method, the yardstick of these rows (--frontier: the deep search)
    times, peaks, out = [], [], None
    for _ in range(repeats):
        if store.exists():
            store.unlink()
        s, p, out = run_once(argv)
        times.append(s)
        peaks.append(p)
    j = json.loads(out)
    times.sort()
    seconds = times[len(times) // 2]
    row = {
        "search": mode, "n": n, "f(n)": j[mode], "decks": len(j["decks"]), "nodes": j["nodes"][mode],
        "seconds": seconds, "search_s": j["seconds"][mode],
        "Mnodes/s": j["nodes"][mode] / j["seconds"][mode] / 1e6,
        "peak_MiB": max(peaks), "runs": times,
    }
    if (mode, n) in KNUTH_C:
        row["Knuth_C_s"] = KNUTH_C[(mode, n)]
    if (mode, n) in TARGETS:
        row["target_s"] = TARGETS[(mode, n)]
        row["met"] = seconds <= TARGETS[(mode, n)]
    return row


def startup(repeats: int) -> list[dict]:
    """First run with an empty numba cache (compiles every kernel), then cached runs."""
    rows = []
    cache = tempfile.mkdtemp()
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    argv = cli("topswops", "solve", "-n", "8", "--json")

    def timed() -> float:
        import subprocess

        t0 = time.perf_counter()
        subprocess.run(argv, env=env, check=True, capture_output=True)
        return time.perf_counter() - t0

    first = timed()
    cached = sorted(timed() for _ in range(repeats))
    shutil.rmtree(cache, ignore_errors=True)
    rows.append({"case": "first run, empty numba cache (compiles)", "seconds": first, "target_s": 20.0,
                 "met": first <= 20.0})
    rows.append({"case": "later run, cached kernels", "seconds": cached[len(cached) // 2], "target_s": 2.0,
                 "met": cached[len(cached) // 2] <= 2.0})
    return rows


PLAIN = """
import time
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.topswops import backward, forward, plain
from puzzlesearch.topswops.forward import Tree, own_bounds
n = {n}
bounds = own_bounds(n, store={store!r})
tree, run = Tree.plain(n, bounds), RunOptions(workers=1)
t = time.perf_counter(); bp = plain.backward(n); tb_plain = time.perf_counter() - t
t = time.perf_counter(); fp = plain.forward(n, bounds); tf_plain = time.perf_counter() - t
backward.solve_backward(n); forward.search(tree, run)   # load the kernels
t = time.perf_counter(); bk = backward.solve_backward(n); tb = time.perf_counter() - t
t = time.perf_counter(); fk = forward.search(tree, run); tf = time.perf_counter() - t
assert (bk.steps, bk.partial_decks) == bp and (fk.steps, fk.decks) == fp
print(tb_plain, tb, tf_plain, tf)
"""


def plain_ratio(n: int) -> list[dict]:
    store = str(Path(tempfile.mkdtemp()) / "r.sqlite")
    r = measure([sys.executable, "-c", PLAIN.format(n=n, store=store)], repeats=1)
    tb_plain, tb, tf_plain, tf = map(float, r["stdout"].split())
    return [
        {"search": "backward", "n": n, "plain_python_s": tb_plain, "kernel_s": tb, "ratio": tb_plain / tb},
        {"search": "forward", "n": n, "plain_python_s": tf_plain, "kernel_s": tf, "ratio": tf_plain / tf},
    ]


# --- `topswops long` and `topswops estimate` ------------------------------------------------

#: f(n), published (tests/data/topswops.json; n = 22, 23: the best known lower bounds)
PUBLISHED_F = {1: 0, 2: 1, 3: 2, 4: 4, 5: 7, 6: 10, 7: 16, 8: 22, 9: 30, 10: 38, 11: 51, 12: 65, 13: 80,
               14: 101, 15: 113, 16: 139, 17: 159, 18: 191, 19: 221, 20: 249, 21: 282, 22: 335, 23: 382}
#: nodes of the real forward search, measured by this program: n = 13, 14 in results/topswops.json (one
#: worker), n = 15 on 2 workers (README, "Long searches": 3.0e10)
MEASURED_NODES = {13: 126_133_281, 14: 1_086_308_709, 15: 3.0e10}
#: the bounds f(m) the estimate needs, this program's own results (as above), put in a fresh store
OWN_F = {m: PUBLISHED_F[m] for m in range(1, 15)}


#: the 2011 contest's sizes above 23 (Al Zimmermann's Programming Contests, Topswops)
PRIMES_29_97 = [29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97]


def long_case(n: int, seconds: float, seed: int = 0, workers: int = 2) -> dict:
    """One `topswops long` run in a fresh process: the best length, and when each length came."""
    argv = cli("topswops", "long", "-n", str(n), "--seconds", str(seconds), "--seed", str(seed),
               "--workers", str(workers), "--json")
    s, peak, out = run_once(argv)
    j = json.loads(out)
    f = PUBLISHED_F.get(n)
    hit = next((i["seconds"] for i in j["improvements"] if f is not None and i["steps"] >= f), None)
    return {"n": n, "best": j["steps"], "f(n)": f, "reached": hit is not None,
            "at_s": j["improvements"][-1]["seconds"], "first_f(n)_s": hit, "seconds": seconds, "wall_s": s,
            "peak_MiB": peak, "seed": seed, "workers": workers,
            "deck": j["deck"], "method": j["improvements"][-1]["method"]}


def estimate_case(n: int, workers: int = 2) -> dict:
    """`topswops estimate` with a fresh store holding only f(1..n-1) (this program's results)."""
    from puzzlesearch.engine.store import ResultsStore

    store = str(Path(tempfile.mkdtemp()) / "r.sqlite")
    with ResultsStore(store) as db:
        for m in range(1, n):
            db.put("topswops", f"f({m})", OWN_F[m], "forward (benchmarks/results)", 0.0)
    argv = cli("topswops", "estimate", "-n", str(n), "--workers", str(workers), "--store", store, "--json")
    s, peak, out = run_once(argv)
    j = json.loads(out)
    row = {"n": n, "target": j["target"], "target_from": j["target_from"], "estimate": j["nodes"],
           "stderr": j["stderr"], "probes": j["probes"], "upper(f(n-1)+1)": j["upper"],
           "Mnodes/s": j["nodes_per_second"] / 1e6, "expected_s": j["seconds"], "workers": workers,
           "wall_s": s}
    if n in MEASURED_NODES:
        row["measured"] = MEASURED_NODES[n]
        row["ratio"] = j["nodes"] / MEASURED_NODES[n]
        row["met"] = 0.5 <= row["ratio"] <= 2
    return row


#: `long` runs whose first beam alone takes far longer than --seconds (n = 255, width 64: a
#: minute and more), with their --workers; the target: a wall time of at most --seconds + 1
DEADLINE_CASES = [(255, 2.0, None), (200, 1.0, None), (255, 2.0, 1), (17, 1.0, 16)]


def deadline(repeats: int) -> None:
    """`topswops long --seconds S`, each run a fresh process, everything included (start,
    numba's cached kernels, exit): wall time against S + 1. Then one run with an empty
    numba cache, which compiles the kernels (that compilation cannot be cut short)."""
    load = os.getloadavg()
    rows = []
    for n, seconds, workers in DEADLINE_CASES:
        argv = cli("topswops", "long", "-n", str(n), "--seconds", str(seconds), "--json")
        if workers is not None:
            argv += ["--workers", str(workers)]
        run_once(argv)  # numba's cache is filled, should this be the first run
        walls, runs = [], []
        for _ in range(repeats):
            wall, peak, out = run_once(argv)
            walls.append(wall)
            runs.append(json.loads(out)["seconds"])
        wall = sorted(walls)[len(walls) // 2]
        rows.append({"case": "cached kernels", "n": n, "seconds": seconds, "workers": workers or "all",
                     "wall_s": wall, "run_s": sorted(runs)[len(runs) // 2], "walls": walls,
                     "target_s": seconds + 1, "met": max(walls) <= seconds + 1})
    cache = tempfile.mkdtemp()
    n, seconds, _ = DEADLINE_CASES[0]
    argv = cli("topswops", "long", "-n", str(n), "--seconds", str(seconds), "--json")
    wall, _, out = run_once(argv, env={**os.environ, "NUMBA_CACHE_DIR": cache})
    shutil.rmtree(cache, ignore_errors=True)
    rows.append({"case": "empty numba cache (compiles)", "n": n, "seconds": seconds, "workers": "all",
                 "wall_s": wall, "run_s": json.loads(out)["seconds"]})
    print_table("topswops long --seconds: wall time of a fresh process (median; met: every run)", rows,
                ["case", "n", "seconds", "workers", "wall_s", "run_s", "target_s", "met"])
    print(f"\nload average at start: {load[0]:.2f}; at end: {os.getloadavg()[0]:.2f}")
    write_results("topswops_long_deadline", rows, {"load_average": load})


def sizes(text: str) -> list[int]:
    a, _, b = text.partition("-")
    return list(range(int(a), int(b or a) + 1))


def long_and_estimate(args: argparse.Namespace) -> None:
    load = os.getloadavg()
    rows: list[dict] = []
    if args.long:
        ns = PRIMES_29_97 if args.primes else sizes(args.sizes or "8-17")
        with ThreadPoolExecutor(args.jobs) as pool:  # each case is its own process
            cases = pool.map(lambda n: long_case(n, args.seconds, 0, args.workers), ns)
            rows += [{"case": "long", **c} for c in cases]
        print_table(f"topswops long, {args.seconds:g} s each, {args.workers} worker(s) each, "
                    f"{args.jobs} at a time", rows,
                    ["n", "best", "f(n)", "reached", "first_f(n)_s", "at_s", "wall_s", "peak_MiB"])
    if args.estimate:
        est = [{"case": "estimate", **estimate_case(n)} for n in sizes(args.sizes or "13-15")]
        print_table("topswops estimate (2 workers)", est,
                    ["n", "target", "target_from", "estimate", "stderr", "measured", "ratio", "met",
                     "upper(f(n-1)+1)", "Mnodes/s", "expected_s", "wall_s"])
        rows += est
    print(f"\nload average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; at end: "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    write_results(args.out or "topswops_long_estimate", rows, {"load_average": load})


def frontier(args: argparse.Namespace) -> None:
    """f(n) by the deep forward search on 2 workers, everything included: a fresh
    results store (f(1..n-1) computed in the run, unless --store names one that has them),
    `long` or --start for the first target, the bottom bound, the search. One run; with
    --checkpoint it can be killed and resumed (then its wall time is not a benchmark figure)."""
    n = args.frontier
    store = args.store or str(Path(tempfile.mkdtemp()) / "r.sqlite")
    argv = cli("topswops", "solve", "-n", str(n), "--mode", "forward", "--workers", "2", "--store", store,
               "--json", "-v", "--quiet")
    if args.start:
        argv += ["--start", args.start]
    if args.checkpoint:
        argv += ["--checkpoint", args.checkpoint]
    load = os.getloadavg()
    started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    s, peak, out = run_once(argv)
    j = json.loads(out)
    from puzzlesearch.topswops import rules

    for deck in j["decks"]:  # replayed by the plain rules here too
        assert rules.steps(deck) == j["forward"], deck
    row = {"n": n, "f(n)": j["forward"], "published": PUBLISHED_F.get(n), "decks": j["decks"],
           "nodes": j["nodes"]["forward"], "seconds": s, "search_s": j["seconds"]["forward"],
           "peak_MiB": peak, "start": j.get("start"), "command": " ".join(argv[2:]), "started": started,
           "target_s": {15: 240.0, 16: 2400.0}.get(n)}
    if row["target_s"]:
        row["met"] = s <= row["target_s"]
    print_table(f"topswops f({n}), deep forward search, 2 workers, one run", [row],
                ["n", "f(n)", "published", "nodes", "seconds", "search_s", "peak_MiB", "target_s", "met"])
    print(f"\nload average at start: {load[0]:.2f}; at end: {os.getloadavg()[0]:.2f}")
    write_results(f"topswops_f{n}", [row], {"load_average": load})


#: one timed call of a forward kernel at n = 13 (Knuth's search, one core) in a fresh process;
#: the kernel is loaded (or compiled) by a call at n = 8 before the clock runs
WIDE_CASE = """
import json, time
import numpy as np
from puzzlesearch.topswops.bounds import bound_array, first_target
from puzzlesearch.topswops.{module} import {module} as kernel
own = [0, 0, 1, 2, 4, 7, 10, 16, 22, 30, 38, 51, 65, 80, 101, 113, 139]  # f(0..16), published
n = {n}
bound = bound_array(n, own[:n])
empty = np.zeros(0, np.int8)
kernel(8, bound_array(8, own[:8]), 23, empty, 0, 4, np.zeros(10, np.int64), True)
nodes = np.zeros(n + 2, np.int64)
t0 = time.perf_counter()
kernel(n, bound, first_target(own, n), empty, 0, 64, nodes, True)
print(json.dumps({{"seconds": time.perf_counter() - t0, "nodes": int(nodes.sum())}}))
"""


def wide(repeats: int) -> None:
    """The forward kernel for decks past 16 cards (wide_kernel) against the packed one, on
    the same tree (n = 13, Knuth's search, one core): each run a fresh process timing one
    call of one kernel, the two kernels in turn (the first of each round alternating), the
    median of each. wide/packed is what choice.WIDE_COST says."""
    n = 13
    load = os.getloadavg()
    names = {"packed": "forward_kernel", "wide": "wide_kernel"}
    times: dict[str, list[float]] = {"packed": [], "wide": []}
    nodes_seen: dict[str, set[int]] = {"packed": set(), "wide": set()}
    for name in names:  # compile into numba's cache before any run is timed
        run_once([sys.executable, "-c", WIDE_CASE.format(module=names[name], n=8)])
    for i in range(repeats):
        order = ("packed", "wide") if i % 2 == 0 else ("wide", "packed")
        for name in order:
            _, _, out = run_once([sys.executable, "-c", WIDE_CASE.format(module=names[name], n=n)])
            r = json.loads(out)
            times[name].append(r["seconds"])
            nodes_seen[name].add(r["nodes"])
    assert len(nodes_seen["packed"]) == 1 and nodes_seen["packed"] == nodes_seen["wide"], nodes_seen
    nodes = nodes_seen["packed"].pop()
    rows = [{"kernel": name, "n": n, "nodes": nodes, "seconds": statistics.median(t), "runs": t,
             "Mnodes/s": nodes / statistics.median(t) / 1e6} for name, t in times.items()]
    rows[1]["wide/packed"] = rows[1]["seconds"] / rows[0]["seconds"]
    rounds = [w / p for p, w in zip(times["packed"], times["wide"], strict=True)]
    rows[1]["wide/packed by round"] = rounds
    print_table(f"forward kernels, n = {n}, one core, median of {repeats} fresh processes each (in turn)",
                rows, ["kernel", "n", "nodes", "seconds", "Mnodes/s", "wide/packed"])
    print(f"\nwide/packed by round: {', '.join(f'{x:.2f}' for x in rounds)}")
    print(f"load average at start: {load[0]:.2f}; at end: {os.getloadavg()[0]:.2f}")
    write_results("topswops_wide", rows, {"load_average": load, "repeats": repeats,
                                          "method": "fresh process per run, kernels in turn"})


def plan(n: int, seconds: float, store: str | None) -> None:
    """`estimate -n N` with `long` given `seconds` for the witness, on the results store
    that holds f(1..N-1) (benchmarks/runs/topswops-store.sqlite: each value this program's
    own, with the run it came from): the plan `solve` would choose, its nodes and its
    hours on 2 workers here, and on a Dask cluster of 16, 64 and 256 workers at the
    speed measured here."""
    store = store or str(Path(__file__).resolve().parent / "runs" / "topswops-store.sqlite")
    argv = cli("topswops", "estimate", "-n", str(n), "--long-seconds", str(seconds), "--workers", "2",
               "--store", store, "--json")
    load = os.getloadavg()
    wall, peak, out = run_once(argv)
    e = json.loads(out)
    cpu_hours = e["plan_seconds"] * e["workers"] / 3600
    row = {"n": n, "target": e["target"], "target_from": e["target_from"], "method": e["method"],
           "k": e["k"], "k2": e["k2"], "parts": e["parts"], "plan_nodes": e["plan_nodes"],
           "plain_nodes": e["nodes"], "Mnodes/s per worker": e["nodes_per_second"] / 1e6,
           "cpu_hours": cpu_hours, "hours_on_2": cpu_hours / 2,
           "hours_on_cluster": {w: cpu_hours / w for w in (16, 64, 256)}, "why": e["why"],
           "wall_s": wall, "peak_MiB": peak, "command": " ".join(argv[2:])}
    print_table(f"topswops estimate -n {n}: the plan solve would choose", [row],
                ["n", "target", "method", "k", "k2", "plan_nodes", "plain_nodes", "cpu_hours", "hours_on_2",
                 "wall_s"])
    print(f"\nload average at start: {load[0]:.2f}; at end: {os.getloadavg()[0]:.2f}")
    write_results(f"topswops_plan_{n}", [row], {"load_average": load, "estimate": e})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--full", action="store_true", help="forward n = 15 too (about 15 minutes)")
    ap.add_argument("--long", action="store_true", help="only `topswops long`")
    ap.add_argument("--estimate", action="store_true", help="only `topswops estimate`")
    ap.add_argument("--seconds", type=float, default=60.0, help="--long: seconds per size")
    ap.add_argument("--sizes", default=None, help="--long/--estimate: sizes, e.g. 8-17")
    ap.add_argument("--primes", action="store_true", help="--long: the primes 29..97 instead of --sizes")
    ap.add_argument("--workers", type=int, default=2, help="--long: --workers of each run")
    ap.add_argument("--jobs", type=int, default=1, help="--long: runs at a time (each its own process)")
    ap.add_argument("--out", default=None, help="--long/--estimate: results/NAME.json")
    ap.add_argument("--frontier", type=int, default=None, metavar="N",
                    help="only f(N) by the deep forward search on 2 workers (N = 15, 16)")
    ap.add_argument("--start", default=None, help="--frontier: a deck found beforehand to start at")
    ap.add_argument("--checkpoint", default=None, help="--frontier: a checkpoint, to resume a killed run")
    ap.add_argument("--store", default=None, help="--frontier: a results store (default: a fresh one)")
    ap.add_argument("--deadline", action="store_true", help="only `topswops long --seconds`: wall time")
    ap.add_argument("--wide", action="store_true", help="only the kernel past 16 cards against the packed")
    ap.add_argument("--plan", type=int, default=None, metavar="N", help="only `estimate -n N` and its plan")
    args = ap.parse_args()
    if args.plan:
        plan(args.plan, args.seconds, args.store)
        return
    if args.wide:
        wide(args.repeats)
        return
    if args.deadline:
        deadline(args.repeats)
        return
    if args.frontier:
        frontier(args)
        return
    if args.long or args.estimate:
        long_and_estimate(args)
        return
    load = os.getloadavg()
    boot = startup(args.repeats)
    print_table("Start-up", boot, ["case", "seconds", "target_s", "met"])
    rows = [search_case("backward", n, args.repeats) for n in (10, 11, 12)]
    forward_ns = [11, 12, 13, 14] + ([15] if args.full else [])
    rows += [search_case("forward", n, args.repeats if n < 15 else 1) for n in forward_ns]
    cols = ["search", "n", "f(n)", "decks", "nodes", "seconds", "search_s", "Mnodes/s", "peak_MiB",
            "Knuth_C_s", "target_s", "met"]
    print_table("Searches (one core, fresh process each, median of runs)", rows, cols)
    ratio = plain_ratio(9)
    print_table("Kernels vs plain Python (n = 9, same process)", ratio,
                ["search", "n", "plain_python_s", "kernel_s", "ratio"])
    print(f"\nload average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; at end: "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    write_results("topswops", rows, {"startup": boot, "plain_ratio": ratio, "load_average": load})


if __name__ == "__main__":
    main()
