"""Scale-out benchmark: the Topswops forward search on 1 and 2 local workers,
the overhead of one subproblem, and resuming a run killed half-way.

    python benchmarks/scale.py [--repeats 3] [--ns 13 14] [--f15]

Each case is a fresh `puzzlesearch topswops solve --mode forward` process with the
bounds f(m), m < n, already in its results store (the point here is the split search).
--f15 also runs f(15) once on 2 workers with a checkpoint (about 10 minutes) and
estimates f(16) from the growth of the node counts of n = 13, 14, 15.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _bench import done_tasks, print_table, run_once, write_results

TMP = Path(tempfile.mkdtemp(prefix="puzzlesearch-scale-"))
STORE = TMP / "results.sqlite"


def argv(n: int, *extra: str) -> list[str]:
    return [sys.executable, "-m", "puzzlesearch", "topswops", "solve", "-n", str(n), "--mode", "forward",
            "--store", str(STORE), "--json", "--quiet", *extra]


def timed(n: int, repeats: int, *extra: str) -> tuple[float, dict, list[float]]:
    times, out = [], ""
    for _ in range(repeats):
        for f in TMP.glob("*.ckpt*"):
            f.unlink()
        s, _, out = run_once(argv(n, *extra))
        times.append(s)
    return statistics.median(times), json.loads(out), times


def done(path: Path) -> int:
    return done_tasks(path)[0]


def resume_case(n: int, full: float) -> dict:
    """Kill a 2-worker run with SIGKILL half-way through its time, then time the resume."""
    ck = TMP / f"resume{n}.ckpt"
    for f in TMP.glob(f"resume{n}.ckpt*"):
        f.unlink()
    proc = subprocess.Popen(argv(n, "--workers", "2", "--checkpoint", str(ck)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    time.sleep(full / 2)
    os.killpg(proc.pid, signal.SIGKILL)  # the run and its workers, at once
    proc.wait()
    kept = done(ck)
    seconds, _, out = run_once(argv(n, "--workers", "2", "--checkpoint", str(ck)))
    j = json.loads(out)
    return {"n": n, "full_s": full, "killed_after_s": full / 2, "tasks_kept": kept,
            "resume_s": seconds, "resume/full": seconds / full, "f(n)": j["forward"],
            "decks": len(j["decks"])}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--ns", type=int, nargs="+", default=[13, 14])
    ap.add_argument("--f15", action="store_true")
    args = ap.parse_args()
    load = os.getloadavg()
    # the bounds: computed once here, so that every case below measures only the split search
    subprocess.run(argv(max(args.ns) - 1, "--workers", "1"), check=True, capture_output=True)
    rows, extra = [], {}
    for n in args.ns:
        serial, j1, r1 = timed(n, args.repeats, "--workers", "1")
        split1, js, rs = timed(n, args.repeats, "--workers", "1", "--checkpoint", str(TMP / "one.ckpt"))
        ntasks = done(TMP / "one.ckpt") or None
        two, j2, r2 = timed(n, args.repeats, "--workers", "2")
        assert j1["forward"] == js["forward"] == j2["forward"] and j1["decks"] == js["decks"] == j2["decks"]
        rows.append({
            "n": n, "f(n)": j1["forward"], "decks": len(j1["decks"]), "nodes": j1["nodes"]["forward"],
            "1 worker s": serial, "2 workers s": two, "speed-up": serial / two,
            "subproblems": ntasks, "split+checkpoint, 1 worker s": split1,
            "overhead/subproblem ms": (split1 - serial) / ntasks * 1000 if ntasks else None,
            "runs": {"serial": r1, "split1": rs, "two": r2},
        })
    print_table("Forward search on 1 and 2 workers (fresh process each, median)", rows,
                ["n", "f(n)", "decks", "nodes", "1 worker s", "2 workers s", "speed-up", "subproblems",
                 "split+checkpoint, 1 worker s", "overhead/subproblem ms"])
    big = max(args.ns)
    resume = [resume_case(big, next(r["2 workers s"] for r in rows if r["n"] == big))]
    print_table("Resume after SIGKILL half-way (2 workers)", resume,
                ["n", "full_s", "killed_after_s", "tasks_kept", "resume_s", "resume/full", "f(n)", "decks"])
    extra["resume"] = resume
    if args.f15:
        t0 = time.perf_counter()
        out = subprocess.run(argv(15, "--workers", "2", "--checkpoint", str(TMP / "f15.ckpt")),
                             check=True, capture_output=True, text=True).stdout
        wall = time.perf_counter() - t0
        j = json.loads(out)
        nodes = {r["n"]: r["nodes"] for r in rows}
        nodes[15] = j["nodes"]["forward"]
        growth = [nodes[14] / nodes[13], nodes[15] / nodes[14]] if 13 in nodes and 14 in nodes else []
        rate = nodes[15] / wall
        est16 = nodes[15] * max(growth) if growth else None
        f15 = {"n": 15, "f(n)": j["forward"], "decks": len(j["decks"]), "nodes": nodes[15], "wall_s": wall,
               "nodes/s (2 workers)": rate, "growth 13->14, 14->15": growth,
               "f(16) nodes estimate": est16, "f(16) hours estimate (2 workers)": est16 / rate / 3600
               if est16 else None}
        print_table("f(15) on 2 workers, and the estimate for f(16)", [f15], list(f15))
        extra["f15"] = f15
    print(f"\nload average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; at end: "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    write_results("scale", rows, {**extra, "load_average": load})


if __name__ == "__main__":
    main()
