"""Block shuffles and pancakes: shortest paths, full state spaces, and the plain-Python BFS.

Each case is a fresh interpreter (imports and numba's cached kernels included); the
child prints its answer, the states it handled and its CPU seconds, so a busy machine's
wall-clock inflation can be read off beside the median wall time.

    .venv/bin/python benchmarks/shuffle.py [--repeats 3] [--skip-big]
"""

from __future__ import annotations

import argparse
import os

from _bench import measure, print_table, python_case, write_results

SOLVE = """
import time
from puzzlesearch import shuffle
r = shuffle.solve({n})
print(r.moves, r.states, time.process_time())
"""

GOD = """
import os, tempfile, time
from puzzlesearch import shuffle
with tempfile.TemporaryDirectory() as tmp:  # a fresh results store: computed, not looked up
    c = shuffle.{fn}({n}, run=shuffle.RunOptions(store=os.path.join(tmp, "store.sqlite")))
print(c.diameter, c.states, time.process_time())
"""

PLAIN = """
import time
from puzzlesearch.shuffle import rules
print(rules.shuffle_distance({n}), 0, time.process_time())
"""

WARM = """
import time
from puzzlesearch import shuffle
from puzzlesearch.shuffle import rules
shuffle.solve(5)  # loads the compiled kernels
t = time.perf_counter()
for _ in range(5):
    r = shuffle.solve(5)
fast = (time.perf_counter() - t) / 5
t = time.perf_counter()
assert rules.shuffle_distance(5) == r.moves
plain = time.perf_counter() - t
print(r.moves, plain, fast)
"""

CASES = [
    # (name, code, targets seconds, big)
    ("solve n=5", SOLVE.format(n=5), None, False),
    ("solve n=6", SOLVE.format(n=6), None, False),
    ("solve n=7", SOLVE.format(n=7), 5, False),
    ("solve n=8", SOLVE.format(n=8), 60, True),
    ("god n=5", GOD.format(fn="god", n=5), 3, False),
    ("god n=6", GOD.format(fn="god", n=6), 300, True),
    ("pancake god n=10", GOD.format(fn="pancake_god", n=10), 5, False),
    ("pancake god n=11", GOD.format(fn="pancake_god", n=11), 60, True),
    ("plain Python BFS n=5", PLAIN.format(n=5), None, False),
]
PLAIN_REPEATS = 1  # ~15 s or more each; the in-process comparison below repeats the fast side


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3, help="runs per small case (median)")
    ap.add_argument("--big-repeats", type=int, default=1, help="runs per big case")
    ap.add_argument("--skip-big", action="store_true", help="skip solve n=8, god n=6, pancake n=11")
    args = ap.parse_args()
    load = os.getloadavg()
    rows = []
    for name, code, target, big in CASES:
        if big and args.skip_big:
            continue
        repeats = args.big_repeats if big else PLAIN_REPEATS if name.startswith("plain") else args.repeats
        r = measure(python_case(code), repeats=repeats)
        answer, states, cpu = r["stdout"].split()
        states = int(states)
        row = {
            "case": name,
            "answer": int(answer),
            "seconds": round(r["seconds"], 3),
            "cpu seconds": round(float(cpu), 3),
            "states": states or "",
            "states/s": int(states / r["seconds"]) if states else "",
            "peak MiB": round(r["peak_mib"]),
            "target s": target if target is not None else "",
            "runs": r["runs"],
        }
        rows.append(row)
        print(f"{name}: {row['seconds']} s (cpu {row['cpu seconds']} s)", flush=True)
    plain = next((r for r in rows if r["case"].startswith("plain")), None)
    fast = next((r for r in rows if r["case"] == "solve n=5"), None)
    ratio = round(plain["seconds"] / fast["seconds"], 1) if plain and fast else None
    # the same comparison inside one warm process: search alone, without interpreter start-up
    answer, plain_s, fast_s = measure(python_case(WARM), repeats=1)["stdout"].split()
    warm_ratio = round(float(plain_s) / float(fast_s), 1)
    columns = ["case", "answer", "seconds", "cpu seconds", "states", "states/s", "peak MiB", "target s"]
    print_table("Block shuffles and pancakes (fresh process each, median wall seconds)", rows, columns)
    if ratio:
        print(f"\nplain Python BFS / solve at n=5, fresh processes: {ratio}x (target >= 50x)")
    print(f"plain Python BFS / solve at n=5, one warm process: {float(plain_s):.2f} s / {float(fast_s):.4f} s"
          f" = {warm_ratio}x")
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
          f"at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    write_results("shuffle", rows, {"plain_over_solve_n5": ratio, "plain_over_solve_n5_warm": warm_ratio,
                                    "warm_seconds": {"plain": float(plain_s), "solve": float(fast_s)},
                                    "load_average_start": load,
                                    "load_average_end": os.getloadavg()})


if __name__ == "__main__":
    main()
