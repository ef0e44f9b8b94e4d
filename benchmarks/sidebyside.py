"""Two source trees of puzzlesearch, side by side in one run: is a change speed-neutral?

    python benchmarks/sidebyside.py --before /tmp/before/src [--repeats 3] [--only forward14]

Runs each case as a fresh process (everything included), alternating the trees
(before, after, before, after, ...), so that the host's drift hits both alike. Prints
the medians and after/before, and writes benchmarks/results/sidebyside.json with every
run, the load averages at the start and end, and the machine. The cases a refactor
is checked on: forward n = 14 on one core, queens n = 17 on two cores, shuffle solve n = 8,
pancake god n = 11, Grundy's game to 2·10^6 heaps and the 4-peg Hanoi BFS with 12 discs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from _bench import print_table, run_once, write_results

HERE = Path(__file__).resolve().parent
AFTER = HERE.parent / "src"

CASES = {
    "forward14": ["topswops", "solve", "--mode", "forward", "-n", "14", "--workers", "1", "--quiet"],
    "queens17": ["queens", "count", "-n", "17", "--workers", "2", "--quiet"],
    "shuffle8": ["shuffle", "solve", "-n", "8", "--quiet"],
    "pancake11": ["pancake", "god", "-n", "11", "--quiet"],
    "grundys2e6": ["grundy", "grundys", "-n", "2000000", "--summary", "--quiet"],
    "hanoi4pegs12": ["hanoi", "verify", "--pegs", "4", "-n", "12", "--quiet"],
}


#: cases whose answer the results store keeps (a census): each run gets an empty store, or it
#: would time a lookup
FRESH_STORE = {"pancake11", "hanoi4pegs12"}


def _env(src: Path, store: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(src), PUZZLESEARCH_STORE=str(store))
    return env


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True, type=Path, help="src/ folder of the tree before the change")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--only", action="append", choices=sorted(CASES), help="run only these cases")
    args = ap.parse_args()
    trees = {"before": args.before.resolve(), "after": AFTER}
    work = Path(tempfile.mkdtemp(prefix="sidebyside-"))
    load_start = os.getloadavg()
    rows = []
    try:
        stores = {name: work / f"{name}.sqlite" for name in trees}
        for name, src in trees.items():
            # the bounds f(1..13) of the forward search, computed once per tree, not timed
            run_once([sys.executable, "-m", "puzzlesearch", "topswops", "solve", "--mode", "forward",
                      "-n", "13", "--quiet"], env=_env(src, stores[name]))
        for case in args.only or CASES:
            argv = [sys.executable, "-m", "puzzlesearch", *CASES[case]]
            for name, src in trees.items():  # a warm-up: numba's cache and the queens module exist
                run_once(argv, env=_env(src, stores[name]))
            times: dict[str, list[float]] = {name: [] for name in trees}
            outs: dict[str, str] = {}
            for i in range(args.repeats):
                for name, src in trees.items():
                    store = work / f"{name}-{case}-{i}.sqlite" if case in FRESH_STORE else stores[name]
                    seconds, _, out = run_once(argv, env=_env(src, store))
                    times[name].append(round(seconds, 3))
                    outs[name] = out
            before, after = (statistics.median(times[n]) for n in ("before", "after"))
            rows.append({"case": case, "command": "puzzlesearch " + " ".join(CASES[case]),
                         "before_s": before, "after_s": after, "after/before": round(after / before, 3),
                         "runs_before": times["before"], "runs_after": times["after"],
                         "same_stdout": _strip(outs["before"]) == _strip(outs["after"])})
    finally:
        shutil.rmtree(work, ignore_errors=True)
    load_end = os.getloadavg()
    print_table(f"before ({trees['before']}) and after ({AFTER}), medians of {args.repeats}, "
                f"load {load_start[0]:.2f} -> {load_end[0]:.2f}",
                rows, ["case", "before_s", "after_s", "after/before", "same_stdout"])
    name = "sidebyside" + ("-" + "-".join(args.only) if args.only else "")
    write_results(name, rows, {"before": str(trees["before"]), "repeats": args.repeats,
                                       "loadavg_start": load_start, "loadavg_end": load_end})
    return 0


def _strip(out: str) -> str:
    """stdout without the time figures (they differ from run to run)."""
    import re

    return re.sub(r"\d+\.\d+ s\b|seconds=\S+", "", out)


if __name__ == "__main__":
    sys.exit(main())
