"""Topswops forward search, side by side with D. E. Knuth's C program topswops-fwd.

    python benchmarks/topswops_knuth.py --knuth /tmp/knuth/O2 --knuth-flags "gcc -O2"
                                        [--n 14] [--repeats 3] [--prepare-n N] [--max-load 0.5]
                                        [--out NAME]

Knuth's topswops-fwd.w (a CWEB program; its degree is the compile-time constant `n`,
`@d n 16`) is built once per n, e.g. with a change file setting `@d n 14`, and named
topswops-fwd-n14. --knuth is a folder holding topswops-fwd-n{n}, or the binary itself.
--knuth-flags says how it was built, for the record. The program's output names its
degree (one "nodes at level" line per level), which is checked against --n.

Each timed run is a fresh process, everything included. The cases run round-robin,
Knuth's C first in each round, so that the host's drift hits all alike:

  knuth          Knuth's C
  default        topswops solve --mode forward -n N --workers 1 --quiet, empty results store
  no-deep        the same with --no-deep (Knuth's method, the deep search off)
  bounds-stored  the same as default, the store holding what one run at --prepare-n left
                 (default n - 1: the bounds f(1..n-1)), copied afresh for each run
  workers2       the same as default with --workers 2, empty results store

Knuth's program starts with f(n) itself as its bound (its table `score[]`) and lists
the decks that reach it; ours finds f(n) from nothing but its own store. The f(n) each
program prints is parsed, and the record is refused unless all runs agree.

Targets: default (one worker, empty store) <= 0.6 x Knuth's C; 2 workers vs 1 >= 1.85 x.
Writes benchmarks/results/topswops_knuth.json (n = 14; other n: topswops_knuth_n{n}.json).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from _bench import print_table, run_once, write_results

#: the targets: seconds of default / Knuth's C at most this; default / workers2 at least this
TARGET_RATIO = 0.6
TARGET_SPEEDUP = 1.85

OURS = {
    "default": ["--workers", "1"],
    "no-deep": ["--workers", "1", "--no-deep"],
    "bounds-stored": ["--workers", "1"],
    "workers2": ["--workers", "2"],
}


def fail(message: str, code: int = 2) -> None:
    print(f"topswops_knuth: {message}", file=sys.stderr)
    sys.exit(code)


def ours_argv(n: int, extra: list[str], store: str) -> list[str]:
    return [sys.executable, "-m", "puzzlesearch", "topswops", "solve", "--mode", "forward", "-n", str(n),
            *extra, "--quiet", "--store", store]


def knuth_binary(path: Path, n: int) -> Path:
    binary = path / f"topswops-fwd-n{n}" if path.is_dir() else path
    if not binary.is_file() or not os.access(binary, os.X_OK):
        fail(f"no executable {binary} (build Knuth's topswops-fwd with `@d n {n}`)")
    return binary.resolve()


def knuth_answer(out: str, n: int) -> tuple[int, int, int]:
    """(f(n), decks printed, nodes) from topswops-fwd's output: a line "steps: deck -> ..."
    for each deck reaching the bound, then "count nodes at level l." for l = 0..n-1."""
    levels = re.findall(r"^\s*(\d+) nodes at level (\d+)\.$", out, re.M)
    if len(levels) != n:
        fail(f"Knuth's program printed {len(levels)} levels: it was built for n = {len(levels)}, not {n}", 1)
    steps = [int(s) for s in re.findall(r"^(\d+):", out, re.M)]
    if not steps:
        fail("Knuth's program printed no deck (its bound score[n] exceeds f(n)?)", 1)
    return max(steps), len(steps), sum(int(c) for c, _ in levels)


def our_answer(out: str) -> int:
    m = re.search(r"\bforward=(\d+)", out)
    if not m:
        fail(f"no forward=F in our output: {out.strip()[:200]!r}", 1)
    return int(m.group(1))


def compiler_of(binary: Path) -> str | None:
    """The compiler's note in the binary's .comment section (e.g. "GCC: (Debian 12.2.0-14) 12.2.0")."""
    m = re.search(rb"(GCC|clang version)[^\x00]{0,120}", binary.read_bytes())
    return m.group(0).decode(errors="replace") if m else None


def cpu_model() -> str | None:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--knuth", required=True, type=Path,
                    help="folder holding topswops-fwd-n{n}, or the binary itself")
    ap.add_argument("--knuth-flags", required=True, help='how it was built, e.g. "gcc -O2" (for the record)')
    ap.add_argument("--n", type=int, default=14)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--prepare-n", type=int, default=None,
                    help="the run preparing the bounds-stored case's store (default: n - 1)")
    ap.add_argument("--max-load", type=float, default=None,
                    help="refuse to start if the 1-minute load average is above this")
    ap.add_argument("--out", default=None, help="results/NAME.json")
    args = ap.parse_args()
    n = args.n
    prepare_n = n - 1 if args.prepare_n is None else args.prepare_n
    if not 2 <= n <= 16:
        fail(f"--n must be 2..16 (Knuth's program handles at most 16 cards), not {n}")
    if not 1 <= prepare_n <= n:
        fail(f"--prepare-n must be 1..{n}, not {prepare_n}")
    if args.repeats < 1:
        fail(f"--repeats must be at least 1, not {args.repeats}")
    binary = knuth_binary(args.knuth, n)
    load_start = os.getloadavg()
    if args.max_load is not None and load_start[0] > args.max_load:
        fail(f"the 1-minute load average is {load_start[0]:.2f}, above --max-load {args.max_load}", 1)

    work = Path(tempfile.mkdtemp(prefix="topswops-knuth-"))
    times: dict[str, list[float]] = {c: [] for c in ("knuth", *OURS)}
    answers: dict[str, set[int]] = {c: set() for c in times}
    knuth_decks = knuth_nodes = None
    try:
        # not timed: numba's cache filled for every kernel these runs use (deep search, 2 workers)
        run_once(ours_argv(10, ["--workers", "2", "--deep"], str(work / "warm.sqlite")))
        run_once(ours_argv(10, ["--workers", "1", "--no-deep"], str(work / "warm.sqlite")))
        prepared = work / "prepared.sqlite"
        run_once(ours_argv(prepare_n, ["--workers", "1"], str(prepared)))
        for i in range(args.repeats):
            seconds, _, out = run_once([str(binary)])
            f, knuth_decks, knuth_nodes = knuth_answer(out, n)
            times["knuth"].append(round(seconds, 3))
            answers["knuth"].add(f)
            for case, extra in OURS.items():
                store = work / f"{case}-{i}.sqlite"
                if case == "bounds-stored":
                    shutil.copyfile(prepared, store)
                seconds, _, out = run_once(ours_argv(n, extra, str(store)))
                times[case].append(round(seconds, 3))
                answers[case].add(our_answer(out))
                store.unlink(missing_ok=True)
            done = ", ".join(f"{c} {t[-1]:.2f} s" for c, t in times.items())
            print(f"round {i + 1}/{args.repeats}: {done}", file=sys.stderr)
    except RuntimeError as e:
        fail(f"a run failed, nothing recorded: {e}", 1)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    load_end = os.getloadavg()

    found = set().union(*answers.values())
    if len(found) != 1:
        fail("the answers disagree, nothing recorded: "
             + ", ".join(f"{c} f({n}) = {sorted(a)}" for c, a in answers.items()), 1)
    f_n = found.pop()
    median = {c: statistics.median(t) for c, t in times.items()}
    shown = "<fresh empty store>"
    commands = {"knuth": str(binary)}
    for case, extra in OURS.items():
        store = f"<copy of the store of one run at n = {prepare_n}>" if case == "bounds-stored" else shown
        commands[case] = " ".join(["python", *ours_argv(n, extra, store)[1:]])
    rows = []
    for case, runs in times.items():
        row = {"case": case, "n": n, "f(n)": f_n, "seconds": median[case], "runs": runs,
               "/knuth": round(median[case] / median["knuth"], 3), "command": commands[case]}
        if case == "default":
            row["target"] = f"<= {TARGET_RATIO} x knuth"
            row["met"] = row["/knuth"] <= TARGET_RATIO
        if case == "workers2":
            row["speedup"] = round(median["default"] / median["workers2"], 3)
            row["target"] = f"speedup >= {TARGET_SPEEDUP}"
            row["met"] = row["speedup"] >= TARGET_SPEEDUP
        rows.append(row)
    print_table(f"Topswops forward n = {n}: Knuth's topswops-fwd ({args.knuth_flags}) and puzzlesearch, "
                f"medians of {args.repeats}, load {load_start[0]:.2f} -> {load_end[0]:.2f}",
                [{**r, "met": {True: "yes", False: "no"}.get(r.get("met"), "")} for r in rows],
                ["case", "n", "f(n)", "seconds", "/knuth", "speedup", "target", "met"])
    knuth = {"binary": str(binary), "flags": args.knuth_flags, "compiler": compiler_of(binary),
             "decks_printed": knuth_decks, "nodes": knuth_nodes,
             "source": "topswops-fwd.w (D. E. Knuth), github.com/ascherer/cwebtest"}
    write_results(args.out or ("topswops_knuth" if n == 14 else f"topswops_knuth_n{n}"), rows,
                  {"knuth": knuth, "repeats": args.repeats, "prepare_n": prepare_n, "cpu": cpu_model(),
                   "order": "round-robin: " + ", ".join(times), "loadavg_start": load_start,
                   "loadavg_end": load_end,
                   "targets": {"default/knuth <=": TARGET_RATIO, "default/workers2 >=": TARGET_SPEEDUP}})
    return 0


if __name__ == "__main__":
    sys.exit(main())
