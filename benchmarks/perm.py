"""Puzzles described in a file (`puzzlesearch perm`) against their targets.

Every case is the command line a user types, in a fresh process (interpreter start,
imports, sympy, numba's cached kernels and the work included), with a fresh results store
so that nothing is answered from an earlier run (one case of `solve` lets an untimed
`perm info` of the same puzzle fill the store first, as any earlier use does). Wall seconds
are medians of --repeats runs; peak memory is the child's own (os.wait4). Each answer is
checked against the value it must equal (published God's numbers and state counts; the
built-in command's own answer for the block shuffle and the pancakes, whose file version
must also stay within 1.5x of the built-in command's time).

    .venv/bin/python benchmarks/perm.py [--repeats 3] [--only NAME ...] [--list]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path

from _bench import RESULTS, print_table, run_once, write_results

CLI = [sys.executable, "-m", "puzzlesearch"]
CORNERS = ["ufr", "ufl", "ubl", "ubr", "dfr", "dfl", "dbl", "dbr"]


def random_cube2(seed: int) -> list[str]:
    """A uniformly random 2x2x2 state (dbl held): the seven other corners in any order,
    six twists at random and the seventh making their sum 0 mod 3."""
    rng = random.Random(seed)
    pieces = CORNERS[:6] + [CORNERS[7]]
    rng.shuffle(pieces)
    twists = [rng.randrange(3) for _ in range(6)]
    twists.append(-sum(twists) % 3)
    tokens = [p + (f"+{t}" if t else "") for p, t in zip(pieces, twists, strict=True)]
    return tokens[:6] + ["dbl"] + tokens[6:]


def god(diameter: int, states: int):
    def check(out: dict) -> str:
        ok = out["diameter"] == diameter and out["states"] == states
        wrong = "" if ok else f" (WRONG: expected {diameter}, {states:,})"
        return f"God's number {out['diameter']}{wrong}"
    return check


def solved(out: dict) -> str:
    return f"{out['moves']} moves" + ("" if 0 <= out["moves"] <= 11 else " (WRONG: God's number is 11)")


def counted(out: dict) -> str:
    ok = out["states"] == 43_252_003_274_489_856_000
    return f"{out['states']:,} states" + ("" if ok else " (WRONG)")


# name -> (arguments, check of the --json answer, target seconds, the built-in command it must match)
CASES = {
    "god cube2-htm": (["perm", "god", "cube2-htm"], god(11, 3_674_160), 5, None),
    "god cube2-qtm": (["perm", "god", "cube2-qtm"], god(14, 3_674_160), 5, None),
    "god pyraminx": (["perm", "god", "pyraminx"], god(11, 933_120), 3, None),
    "god pancakes-10": (["perm", "god", "pancakes-10"], god(11, 3_628_800), None,
                        ["pancake", "god", "-n", "10"]),
    "god block-shuffle-12": (["perm", "god", "block-shuffle-12"], god(14, 239_500_800), None,
                             ["shuffle", "god", "-n", "6"]),
    "solve cube2-htm": (["perm", "solve", "cube2-htm"], solved, 1, None),
    # the same with the group's facts already in the results store (any earlier info or solve
    # of the puzzle puts them there): the search without counting the group first
    "solve cube2-htm, group known": (["perm", "solve", "cube2-htm"], solved, 1, None),
    "info cube3": (["perm", "info", "cube3"], counted, 1, None),
}
RATIO = 1.5  # a file's census may take at most this many times the built-in command's


def run_case(name: str, repeats: int) -> dict:
    args, check, target, builtin = CASES[name]
    times, peaks, answers, out = [], [], [], "{}"
    for i in range(repeats):
        with tempfile.TemporaryDirectory() as tmp:
            store = ["--store", str(Path(tmp) / "store.sqlite")]
            extra = random_cube2(i) if args[1] == "solve" else []
            if name.endswith("group known"):
                run_once([*CLI, "perm", "info", args[2], *store])
            seconds, peak, out = run_once([*CLI, *args, *extra, "--json", *store, *(
                ["--quiet"] if args[1] == "god" else [])])
        times.append(seconds)
        peaks.append(peak)
        answers.append(check(json.loads(out)))
    median = statistics.median(times)
    row = {"case": name, "answer": answers[-1], "seconds": round(median, 3),
           "runs": [round(t, 3) for t in times], "peak MiB": round(max(peaks)), "target s": target or ""}
    if builtin is not None:
        theirs, theirs_out = [], "{}"
        for _ in range(repeats):
            with tempfile.TemporaryDirectory() as tmp:
                s, _, theirs_out = run_once([*CLI, *builtin, "--json", "--quiet", "--store",
                                             str(Path(tmp) / "store.sqlite")])
            theirs.append(s)
        same = json.loads(theirs_out)["histogram"] == json.loads(out)["histogram"]
        ratio = median / statistics.median(theirs)
        differs = "" if same else " (histogram DIFFERS from the built-in command's)"
        row |= {"built-in": " ".join(builtin), "built-in s": round(statistics.median(theirs), 3),
                "ratio": round(ratio, 2), "target ratio": RATIO, "answer": row["answer"] + differs}
        row["met"] = "yes" if ratio <= RATIO and same else "MISSED"
    else:
        row["met"] = "yes" if median <= target and "WRONG" not in row["answer"] else "MISSED"
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3, help="runs per case (median)")
    ap.add_argument("--only", nargs="*", default=None, help="case names (see --list)")
    ap.add_argument("--list", action="store_true", help="list the cases and stop")
    ap.add_argument("--name", default="perm", help="results file name (benchmarks/results/NAME.json)")
    args = ap.parse_args()
    if args.list:
        print("\n".join(CASES))
        return
    chosen = list(CASES) if args.only is None else [n for n in CASES if n in args.only]
    unknown = set(args.only or ()) - set(CASES)
    if unknown:
        sys.exit(f"unknown cases: {', '.join(sorted(unknown))}; see --list")
    load = os.getloadavg()
    rows = []
    for name in chosen:
        row = run_case(name, args.repeats)
        rows.append(row)
        print(f"{name}: {row['seconds']} s, {row['peak MiB']} MiB, {row['answer']} {row['met']}", flush=True)
    columns = ["case", "answer", "seconds", "runs", "peak MiB", "target s", "built-in s", "ratio", "met"]
    print_table("Puzzles described in a file (fresh process each, median wall seconds, everything included)",
                rows, columns)
    path = RESULTS / f"{args.name}.json"
    if args.only is not None and path.exists():  # a partial run replaces its own rows only
        kept = [r for r in json.loads(path.read_text())["rows"] if r["case"] not in chosen]
        order = list(CASES)
        rows = sorted(kept + rows, key=lambda r: order.index(r["case"]) if r["case"] in order else len(order))
    write_results(args.name, rows, {"loadavg_start": list(load)})


if __name__ == "__main__":
    main()
