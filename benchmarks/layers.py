"""Whole state spaces on the breadth-first engine (engine.layers) against their targets.

Every case is the command line a user types, in a fresh process (interpreter start,
imports, numba's cached kernels and the search included), with a fresh results store so
that nothing is answered from an earlier run. Wall seconds are medians of --repeats runs;
peak memory is the child's own (os.wait4). Each answer is checked against the published
value it must equal (OEIS rows and numbers, Frame-Stewart).

    .venv/bin/python benchmarks/layers.py [--repeats 3] [--only NAME ...] [--list]

The resume case runs pancake god n = 12 with a checkpoint, kills it (SIGTERM) as soon as
its checkpoint holds layer 10, runs the same command again and times that second run.
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

from _bench import RESULTS, print_table, run_once, write_results

ROOT = Path(__file__).resolve().parents[1]
SHARED = json.loads((ROOT / "tests" / "data" / "shuffle.json").read_text())
HANOI = json.loads((ROOT / "tests" / "data" / "hanoi.json").read_text())
CLI = [sys.executable, "-m", "puzzlesearch"]

PANCAKE = SHARED["pancake_numbers"]["values"]
BURNT = SHARED["burnt_pancake_numbers"]["values"]


def census_check(want_diameter: int, want_states: int | None = None):
    def check(out: dict) -> str:
        ok = out["diameter"] == want_diameter and (want_states is None or out["states"] == want_states)
        return f"diameter {out['diameter']}" + ("" if ok else f" (WRONG: expected {want_diameter})")
    return check


def hanoi_check(out: dict) -> str:
    fs = HANOI["hanoi_four_peg_moves"]["values"][out["n"]]
    ok = out["bfs_moves"] == fs and out["agree"]
    return f"tower {out['bfs_moves']} moves" + ("" if ok else f" (WRONG: Frame-Stewart {fs})")


# name -> (arguments, check of the --json answer, target seconds, target peak MiB)
CASES = {
    "pancake god n=11": (["pancake", "god", "-n", "11"], census_check(PANCAKE[10]), None, None),
    "pancake god n=12": (["pancake", "god", "-n", "12"], census_check(PANCAKE[11], 479_001_600), 90, None),
    "burnt pancakes n=9": (["pancake", "god", "-n", "9", "--burnt"], census_check(BURNT[8], 185_794_560),
                           None, None),
    "burnt pancakes n=10": (["pancake", "god", "-n", "10", "--burnt"],
                            census_check(BURNT[9], 3_715_891_200), None, None),
    # n = 6: diameter 14, found by the earlier one-byte full BFS of this project (README)
    "shuffle god n=6": (["shuffle", "god", "-n", "6"], census_check(14, 239_500_800), 40, None),
    "hanoi 4 pegs n=16": (["hanoi", "verify", "-n", "16", "--pegs", "4"], hanoi_check, 600, None),
    "shuffle solve n=8": (["shuffle", "solve", "-n", "8"], lambda out: f"{out['moves']} moves", 15, 1536),
}
RESUME = "resume pancake n=12 after layer 10"


def run_case(name: str, repeats: int) -> dict:
    args, check, target, target_mib = CASES[name]
    times, peaks, answers, out = [], [], [], "{}"
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as tmp:
            fresh = args[0] != "hanoi" and args[1] == "god"  # the others keep nothing in the store
            store = ["--store", str(Path(tmp) / "store.sqlite")] if fresh else []
            seconds, peak, out = run_once([*CLI, *args, "--json", "--quiet", *store])
        times.append(seconds)
        peaks.append(peak)
        answers.append(check(json.loads(out)))
    answer = json.loads(out)
    extra = {k: answer[k] for k in ("histogram", "farthest", "farthest_count") if k in answer}
    return {"case": name, "answer": answers[-1], "seconds": round(statistics.median(times), 2),
            "runs": [round(t, 2) for t in times], "peak MiB": round(max(peaks)),
            "target s": target or "", "target MiB": target_mib or "",
            "met": _met(statistics.median(times), max(peaks), target, target_mib), **extra}


def _met(seconds: float, peak: float, target: float | None, target_mib: float | None) -> str:
    if target is None and target_mib is None:
        return ""
    ok = (target is None or seconds <= target) and (target_mib is None or peak <= target_mib)
    return "yes" if ok else "MISSED"


def run_resume() -> dict:
    """Full run time, then a run killed once its checkpoint holds layer 10, resumed."""
    args = ["pancake", "god", "-n", "12", "--json", "--quiet"]
    with tempfile.TemporaryDirectory() as tmp:
        full, _, out = run_once([*CLI, *args, "--store", str(Path(tmp) / "a.sqlite")])
        ckpt = Path(tmp) / "run.ckpt"
        store = ["--store", str(Path(tmp) / "b.sqlite"), "--checkpoint", str(ckpt)]
        proc = subprocess.Popen([*CLI, *args, *store], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t0 = time.perf_counter()
        while _layers_saved(ckpt) < 11:  # layers 0..10 kept
            if proc.poll() is not None:
                raise RuntimeError("the run ended before its checkpoint held layer 10")
            time.sleep(0.05)
        killed_after = time.perf_counter() - t0
        proc.send_signal(signal.SIGTERM)
        proc.wait()
        resumed, peak, out2 = run_once([*CLI, *args, *store])
    same = json.loads(out)["histogram"] == json.loads(out2)["histogram"]
    return {"case": RESUME, "answer": "same histogram" if same else "DIFFERENT histogram",
            "seconds": round(resumed, 2), "runs": [round(resumed, 2)], "peak MiB": round(peak),
            "full run s": round(full, 2), "killed after s": round(killed_after, 2),
            "target s": round(full / 2, 2), "met": "yes" if resumed <= full / 2 and same else "MISSED"}


def _layers_saved(path: Path) -> int:
    try:
        with open(path, "rb") as f:
            f.readline()
            return len(json.loads(f.readline())["histogram"])
    except (OSError, ValueError, KeyError):
        return 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3, help="runs per case (median)")
    ap.add_argument("--only", nargs="*", default=None, help="case names (see --list)")
    ap.add_argument("--list", action="store_true", help="list the cases and stop")
    ap.add_argument("--name", default="layers", help="results file name (benchmarks/results/NAME.json)")
    args = ap.parse_args()
    names = [*CASES, RESUME]
    if args.list:
        print("\n".join(names))
        return
    chosen = names if args.only is None else [n for n in names if n in args.only]
    unknown = set(args.only or ()) - set(names)
    if unknown:
        sys.exit(f"unknown cases: {', '.join(sorted(unknown))}; see --list")
    load = os.getloadavg()
    rows = []
    for name in chosen:
        row = run_resume() if name == RESUME else run_case(name, args.repeats)
        rows.append(row)
        print(f"{name}: {row['seconds']} s, {row['peak MiB']} MiB, {row['answer']} {row['met']}", flush=True)
    columns = ["case", "answer", "seconds", "runs", "peak MiB", "target s", "target MiB", "met"]
    print_table("Whole state spaces (fresh process each, median wall seconds, everything included)",
                rows, columns)
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
          f"at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    path = RESULTS / f"{args.name}.json"
    if args.only is not None and path.exists():  # a partial run replaces its own rows only
        kept = [r for r in json.loads(path.read_text())["rows"] if r["case"] not in chosen]
        rows = kept + rows
        rows.sort(key=lambda r: names.index(r["case"]) if r["case"] in names else len(names))
    write_results(args.name, rows, {"loadavg_start": list(load)})


if __name__ == "__main__":
    main()

