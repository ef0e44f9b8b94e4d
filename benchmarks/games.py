"""Benchmark the Sprague–Grundy tables: each case in a fresh process, everything included.

`seconds` is the whole process (interpreter, imports, numba cache load, work); `work s`
is the computation alone as the process timed it (numba already compiled and cached by
a warm-up run). Usage: python benchmarks/games.py [--skip-big]
"""

from __future__ import annotations

import os
import sys

from _bench import measure, print_table, python_case, write_results

CASES = [
    # (name, code that sets `r` and prints a check value, repeats)
    ("digits table to 10^6", "r = digits_table(10**6); check = int((r > 0).sum())", 3),
    ("cutting 200x200", "r = cutting_table(200); check = int((r[2:, 2:] == 0).sum())", 3),
    ("Kayles 0.77 to 10^5", "r = octal_values('0.77', 10**5); check = (r.period, r.preperiod)", 3),
    ("Dawson's Kayles 0.07 to 10^5", "r = octal_values('0.07', 10**5); check = (r.period, r.preperiod)", 3),
    ("Grundy's game to 10^5, plain mex",
     "r = kernels.takebreak_naive_kernel(np.array([4]), True, 10**5); check = int(r.max())", 1),
    ("Grundy's game to 10^5", "r = grundys_values(10**5); check = (r.max_value, r.rare_heaps)", 3),
    ("Grundy's game to 10^6", "r = grundys_values(10**6); check = (r.max_value, r.rare_heaps)", 3),
    ("popcount k <= 64, 7 parts", "r = popcount_values(7, 64); check = r.values[64]", 3),
]
BIG = [("Grundy's game to 10^7", "r = grundys_values(10**7); check = (r.max_value, r.rare_heaps)", 1)]

PRELUDE = (
    "import time\nimport numpy as np\n"
    "from puzzlesearch.games import cutting_table, digits_table, grundys_values, kernels, octal_values\n"
    "from puzzlesearch.games import popcount_values\n"
)


def case_code(body: str) -> str:
    return PRELUDE + f"t0 = time.perf_counter()\n{body}\nprint(time.perf_counter() - t0, check)\n"


def main() -> None:
    cases = CASES + ([] if "--skip-big" in sys.argv else BIG)
    # warm-up: compile every kernel into numba's cache so that runs measure the work
    measure(python_case(case_code("r = grundys_values(3000); popcount_values(7, 20); digits_table(100);"
                                  " cutting_table(10); octal_values('0.77', 300);"
                                  " kernels.takebreak_naive_kernel(np.array([4]), True, 300); check = 0")),
            repeats=1)
    load_before = os.getloadavg()
    rows = []
    for name, body, repeats in cases:
        m = measure(python_case(case_code(body)), repeats=repeats)
        work, check = m["stdout"].split(" ", 1)
        rows.append({
            "case": name,
            "seconds": m["seconds"],
            "work s": float(work),
            "peak MiB": m["peak_mib"],
            "runs": m["runs"],
            "check": check.strip(),
        })
        print(f"{name}: {m['seconds']:.2f} s", file=sys.stderr)
    load_after = os.getloadavg()
    print_table("Sprague-Grundy tables (fresh process each; median)", rows,
                ["case", "seconds", "work s", "peak MiB", "check"])
    print(f"\nload average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1-minute)")
    write_results("games", rows, {"load_average_before": load_before, "load_average_after": load_after})


if __name__ == "__main__":
    main()
