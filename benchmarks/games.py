"""Benchmark the Sprague–Grundy tables: each case in a fresh process, everything included.

`seconds` is the whole process (interpreter, imports, loading the numba cache, work);
`work s` is the computation alone as the process timed it, after a tiny call of the same
kernel has loaded it (numba compiled it into its cache in a warm-up run).
Usage: python benchmarks/games.py [--skip-big]
"""

from __future__ import annotations

import os
import sys

from _bench import measure, print_table, python_case, write_results

CASES = [
    # (name, a tiny call that loads the kernel, the timed code setting `check`, repeats)
    ("digits table to 10^6", "digits_table(10)", "r = digits_table(10**6); check = int((r > 0).sum())", 3),
    ("cutting 200x200", "cutting_table(3)", "r = cutting_table(200); check = int((r[2:, 2:] == 0).sum())", 3),
    ("Kayles 0.77 to 10^5", "octal_values('0.77', 10)",
     "r = octal_values('0.77', 10**5); check = (r.period, r.preperiod)", 3),
    ("Dawson's Kayles 0.07 to 10^5", "octal_values('0.07', 10)",
     "r = octal_values('0.07', 10**5); check = (r.period, r.preperiod)", 3),
    ("Grundy's game to 10^5, plain mex", "kernels.takebreak_naive_kernel(np.array([4]), True, 10)",
     "r = kernels.takebreak_naive_kernel(np.array([4]), True, 10**5); check = int(r.max())", 1),
    ("Grundy's game to 10^5", "grundys_values(10)",
     "r = grundys_values(10**5); check = (r.max_value, r.rare_heaps)", 3),
    ("Grundy's game to 10^6", "grundys_values(10)",
     "r = grundys_values(10**6); check = (r.max_value, r.rare_heaps)", 3),
    ("popcount k <= 64, 7 parts", "popcount_values(7, 3)",
     "r = popcount_values(7, 64); check = r.values[64]", 3),
]
BIG = [("Grundy's game to 10^7", "grundys_values(10)",
        "r = grundys_values(10**7); check = (r.max_value, r.rare_heaps)", 1)]

PRELUDE = (
    "import time\nimport numpy as np\n"
    "from puzzlesearch.games import cutting_table, digits_table, grundys_values, kernels, octal_values\n"
    "from puzzlesearch.games import popcount_values\n"
)


def case_code(load: str, body: str) -> str:
    return PRELUDE + f"{load}\nt0 = time.perf_counter()\n{body}\nprint(time.perf_counter() - t0, check)\n"


def main() -> None:
    cases = CASES + ([] if "--skip-big" in sys.argv else BIG)
    # warm-up: compile every kernel into numba's cache so that runs measure the work
    for _, load, _, _ in cases:
        measure(python_case(case_code(load, "check = 0")), repeats=1)
    load_before = os.getloadavg()
    rows = []
    for name, load, body, repeats in cases:
        m = measure(python_case(case_code(load, body)), repeats=repeats)
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
