"""`puzzlesearch perm god` against twsearch's God's-number census, side by side in one run.

    python benchmarks/perm_peers.py --twsearch PATH/twsearch --samples PATH/samples/main
                                    [--repeats 3] [--all [--max-states N]] [--only NAME ...]
                                    [--budget SECONDS] [--twsearch-limit SECONDS]

twsearch (Tomas Rokicki) is the twisty-puzzle community's search program; its ``-g``
counts the states at each distance from solved, on a 2-bit table as ``perm god`` does. This
benchmark neither downloads nor builds it: give the binary and its sample definitions
(``samples/main`` of its repository). Each case runs in fresh processes, alternating
twsearch and puzzlesearch (twsearch, perm, twsearch, perm, ...) so that the host's drift
hits both alike, with the same threads (``-t 2``, ``--workers 2``) and an empty results
store for every perm run, after one untimed run of perm that compiles (and caches) the
numba kernels for the puzzle's shape, as its first use does once. Both histograms are
parsed and compared: a difference is a wrong answer, reported per case
(``same_histogram``) and in the exit code (1).

The cases: the targets (2x2x2, Skewb, Pyraminx and Dino from the samples, and the 11
pancakes with prefix reversals, written here as a twsearch file), or with ``--all`` every
sample whose states (``perm info --json``, Schreier-Sims) fit 2 GiB at 2 bits a state
(``--max-states`` lowers that), with the files skipped and why (``--budget``: the cases
left once that many seconds are spent are listed as not run). Each case records the
load average at its start, the states perm indexes and the MiB of its bits and move
tables beside the peak memory of each program. Seconds are medians of
--repeats runs; peak memory is each child's own (os.wait4). ``--twsearch-limit`` stops a
twsearch run at that many seconds: its row keeps perm's time and histogram, marked
unchecked (``same_histogram`` null). Writes
benchmarks/results/perm_peers.json (``--name`` another name, ``--no-record`` none).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from _bench import print_table, run_once, write_results

CLI = [sys.executable, "-m", "puzzlesearch"]
WORKERS = 2
MAX_STATES = 2 ** 33  # 2 GiB at 2 bits a state
INFO_SECONDS = 60  # Schreier-Sims on the big cubes and a dozen large samples takes longer
#: the project's targets: perm's median time at most this many times twsearch's
TARGETS = {"2x2x2": 1.0, "skewb": 1.0, "pyraminx": 1.0, "dino": 0.8, "pancakes-11": 0.8}
DIST = re.compile(r"^Dist (\d+) cnt (\d+) tot (\d+)", re.MULTILINE)


def pancakes_tws(n: int) -> str:
    """The n pancakes as a twsearch definition: one set of n pieces, a move Pk turning over
    the top k (k = 2..n). Passive, as the format is: slot i gets what was at slot k-1-i."""
    # twsearch takes the moves only after a Solved block
    out = [f"Name pancakes-{n}", "", f"Set PANCAKES {n} 1", "", "Solved", "PANCAKES",
           " ".join(str(i) for i in range(1, n + 1)), "End", ""]
    for k in range(2, n + 1):
        perm = [k - i for i in range(k)] + list(range(k + 1, n + 1))
        out += [f"Move P{k}", "PANCAKES", " ".join(map(str, perm)), "End", ""]
    return "\n".join(out)


def twsearch_histogram(out: str) -> list[int]:
    """The counts of twsearch's "Dist d cnt c tot t" lines, checked to run 0, 1, 2, ...
    and to add up to their running totals. twsearch may print a last distance with no
    state (it stops when a layer comes out empty); that one is no part of the histogram."""
    rows = [(int(d), int(c), int(t)) for d, c, t in DIST.findall(out)]
    if [d for d, _, _ in rows] != list(range(len(rows))) or not rows:
        raise RuntimeError(f"twsearch printed no histogram from distance 0: {out[-300:]!r}")
    counts = [c for _, c, _ in rows]
    if any(sum(counts[:i + 1]) != t for i, (_, _, t) in enumerate(rows)):
        raise RuntimeError(f"twsearch's counts do not add up to its totals: {counts}")
    while counts and counts[-1] == 0:
        counts.pop()
    return counts


def info_of(path: Path, seconds: float) -> tuple[dict | None, str]:
    """What perm info --json says of the file (its states, the states a full search
    indexes, the bytes of its move tables), or None and why not (the one line it refuses
    the file with, or the time it took too long)."""
    with tempfile.TemporaryDirectory() as tmp:
        try:
            _, _, out = run_once([*CLI, "perm", "info", str(path), "--json", "-q",
                                  "--store", str(Path(tmp) / "store.sqlite")], timeout=seconds)
        except RuntimeError as e:
            said = str(e).split("puzzlesearch: error: ", 1)
            return None, (f"not read: {said[1]}" if len(said) == 2
                          else f"perm info did not finish within {seconds:g} s")
    return json.loads(out), ""


def run_case(name: str, path: Path, twsearch: Path, repeats: int, info: dict,
             limit: float | None = None) -> dict:
    ours = [*CLI, "perm", "god", str(path), "--workers", str(WORKERS), "--json", "-q", "--show", "0"]
    theirs = [str(twsearch), "-t", str(WORKERS), "-g", str(path)]
    times: dict[str, list[float]] = {"twsearch": [], "perm": []}
    peaks: dict[str, list[float]] = {"twsearch": [], "perm": []}
    hist: dict[str, list[int]] = {}
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:  # a warm-up: numba's cache holds this puzzle's kernels
        run_once([*ours, "--store", str(Path(tmp) / "store.sqlite")])
    stopped = False
    for _ in range(repeats):
        if not stopped:
            t0 = time.perf_counter()
            try:
                seconds, peak, out = run_once(theirs, timeout=limit)
            except RuntimeError:
                if limit is None or time.perf_counter() - t0 < limit:
                    raise
                stopped = True  # killed at the limit: perm's run is still timed, its histogram unchecked
            if not stopped:
                times["twsearch"].append(round(seconds, 3))
                peaks["twsearch"].append(peak)
                hist["twsearch"] = twsearch_histogram(out)
        with tempfile.TemporaryDirectory() as tmp:
            seconds, peak, out = run_once([*ours, "--store", str(Path(tmp) / "store.sqlite")])
        times["perm"].append(round(seconds, 3))
        peaks["perm"].append(peak)
        hist["perm"] = json.loads(out)["histogram"]
    pm = statistics.median(times["perm"])
    row = {"puzzle": name, "file": path.name, "states": info["states"], "diameter": len(hist["perm"]) - 1,
           "perm_s": pm, "perm_peak_mib": round(max(peaks["perm"])),
           "indexed": info["indexed"], "bits_mib": round(info["indexed"] / 4 / 2**20, 1),
           "move_tables_mib": round(info["tables"] / 2**20, 1), "load": round(load, 2),
           "runs_perm": times["perm"],
           "command_twsearch": f"twsearch -t {WORKERS} -g {path.name}",
           "command_perm": f"puzzlesearch perm god {path.name} --workers {WORKERS} --json -q --show 0"}
    if stopped:
        return row | {"twsearch_s": None, "twsearch_stopped_s": limit, "perm/twsearch": None,
                      "twsearch_peak_mib": None, "same_histogram": None,
                      "histogram": f"twsearch stopped after {limit:g} s", "histogram_perm": hist["perm"]}
    tw = statistics.median(times["twsearch"])
    same = hist["perm"] == hist["twsearch"]
    row |= {"twsearch_s": tw, "perm/twsearch": round(pm / tw, 3),
            "twsearch_peak_mib": round(max(peaks["twsearch"])), "same_histogram": same,
            "histogram": "same" if same else "DIFFERS", "runs_twsearch": times["twsearch"]}
    if not same:
        row |= {"histogram_twsearch": hist["twsearch"], "histogram_perm": hist["perm"]}
    if name in TARGETS:
        row |= {"target": f"<= {TARGETS[name]}x twsearch",
                "met": "yes" if same and pm / tw <= TARGETS[name] else "MISSED"}
    return row


def fail(message: str) -> int:
    print(f"perm_peers: {message}", file=sys.stderr)
    return 2


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--twsearch", type=Path, help="the twsearch binary (built from its repository)")
    ap.add_argument("--samples", type=Path, help="twsearch's samples/main folder")
    ap.add_argument("--repeats", type=int, default=3, help="runs per program per case (median)")
    ap.add_argument("--all", action="store_true", help="every sample that fits, instead of the targets")
    ap.add_argument("--max-states", type=float, default=MAX_STATES,
                    help=f"with --all, skip puzzles of more states (default 2^33 = {MAX_STATES:,})")
    ap.add_argument("--info-seconds", type=float, default=INFO_SECONDS,
                    help=f"skip a puzzle perm info cannot count within this time (default {INFO_SECONDS})")
    ap.add_argument("--only", nargs="*", default=None, help="only these puzzles (file names without .tws)")
    ap.add_argument("--budget", type=float, default=None,
                    help="seconds the whole run may take: once spent, the cases left are listed as not run")
    ap.add_argument("--twsearch-limit", type=float, default=None,
                    help="stop twsearch after this many seconds: the row keeps perm's time and histogram, "
                         "unchecked")
    ap.add_argument("--name", default="perm_peers", help="results file name (benchmarks/results/NAME.json)")
    ap.add_argument("--no-record", action="store_true", help="print the table, write no results file")
    args = ap.parse_args()
    if args.twsearch is None or not (args.twsearch.is_file() and os.access(args.twsearch, os.X_OK)):
        return fail(f"--twsearch {args.twsearch or '(missing)'}: give the path of a twsearch binary "
                    "(make -f Makefiles/cpp.Makefile build/bin/twsearch in its repository)")
    if args.samples is None or not args.samples.is_dir():
        return fail(f"--samples {args.samples or '(missing)'}: give twsearch's samples/main folder")
    if args.repeats < 1:
        return fail(f"--repeats {args.repeats}: at least 1")
    work = Path(tempfile.mkdtemp(prefix="perm-peers-"))
    pancakes = work / "pancakes-11.tws"
    pancakes.write_text(pancakes_tws(11))
    if args.all:
        files = {p.stem: p for p in sorted(args.samples.iterdir()) if p.is_file()}
    else:
        files = {n: args.samples / f"{n}.tws" for n in TARGETS if n != "pancakes-11"}
        files["pancakes-11"] = pancakes
        missing = [str(p) for p in files.values() if not p.is_file()]
        if missing:
            return fail(f"--samples {args.samples}: no {missing[0]}")
    if args.only:
        files = {n: p for n, p in files.items() if n in args.only}
    load_start = os.getloadavg()
    started = time.monotonic()
    rows, skipped = [], []
    cases = []
    for name, path in files.items():
        info, refused = info_of(path, args.info_seconds)
        states = info["states"] if info is not None else None
        if info is None or states is None:
            skipped.append({"puzzle": name, "file": path.name, "reason": refused})
        elif states > args.max_states:
            skipped.append({"puzzle": name, "file": path.name, "states": states,
                            "reason": f"{states:,} states: over {int(args.max_states):,}"})
        elif (info.get("indexed") or 0) > MAX_STATES or info.get("indexed") is None:
            skipped.append({"puzzle": name, "file": path.name, "states": states,
                            "reason": f"perm god indexes {info.get('indexed') or 0:,} states for its "
                                      f"{states:,}: over 2 GiB at 2 bits a state"})
        else:
            cases.append((name, path, info))
    if args.all:  # the smallest first: a budget spent leaves out the longest
        cases.sort(key=lambda c: c[2]["states"])
    for name, path, info in cases:
        states = info["states"]
        if args.budget is not None and time.monotonic() - started > args.budget:
            skipped.append({"puzzle": name, "file": path.name, "states": states,
                            "reason": f"not run: the run's budget of {args.budget:g} s was spent"})
        else:
            try:
                rows.append(run_case(name, path, args.twsearch, args.repeats, info, args.twsearch_limit))
            except RuntimeError as e:
                skipped.append({"puzzle": name, "file": path.name, "states": states,
                                "reason": f"failed: {str(e)[-300:]}"})
            print(f"{name}: done", file=sys.stderr, flush=True)
    load_end = os.getloadavg()
    print_table(f"perm god against twsearch -g, medians of {args.repeats}, {WORKERS} threads each, "
                f"load {load_start[0]:.2f} -> {load_end[0]:.2f}",
                rows, ["puzzle", "states", "twsearch_s", "perm_s", "perm/twsearch", "twsearch_peak_mib",
                       "perm_peak_mib", "histogram", *(["met"] if not args.all else [])])
    for s in skipped:
        print(f"skipped {s['file']}: {s['reason']}")
    if not args.no_record:
        write_results(args.name, rows, {"twsearch": str(args.twsearch), "samples": str(args.samples),
                                        "set": "all" if args.all else "targets", "repeats": args.repeats,
                                        "workers": WORKERS, "max_states": int(args.max_states),
                                        "budget_s": args.budget, "twsearch_limit_s": args.twsearch_limit,
                                        "skipped": skipped, "loadavg_start": load_start,
                                        "loadavg_end": load_end})
    return 0 if all(r["same_histogram"] is not False for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
