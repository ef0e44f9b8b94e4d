"""Benchmark the Sprague–Grundy tables: each case in a fresh process, everything included.

`seconds` is the whole process (interpreter, imports, loading the numba cache, work);
`work s` is the computation alone as the process timed it, after a tiny call of the same
kernel has loaded it (numba compiled it into its cache in a warm-up run).
Usage: python benchmarks/games.py [--skip-big]
       python benchmarks/games.py --frontier [--billion]
       python benchmarks/games.py --survey [--digits D] [--count N] [--workers W]
       python benchmarks/games.py --subtraction

--frontier runs the long cases once each, on all cores: 0.1777's period proven from
443,139,471 values (target: 10 minutes, 4 GiB) and Grundy's game to 10^8 heaps (target:
5 minutes), and writes results/games_frontier.json; --frontier --billion runs Grundy's
game to 10^9 alone (target: 1 hour, 3 GiB; about 1.5 hours on this machine, so start it
first, in the background) and writes results/games_frontier_billion.json.

--survey times `puzzlesearch grundy survey --digits 3 --count 1000000 --workers 2` once
(target: at most 20 minutes on 2 cores), with a fresh results store so that every
game is computed, checks the periods of 0.77, 0.07, 0.137 and 0.16 against the published
ones, and writes results/games_survey.json (results/games_survey_D_N.json for other sizes).

--subtraction times `puzzlesearch grundy subtraction 1000000 --count 5000000` (target: at most
10 s; its period, 2,000,000 from heap 0, is proven by a window of a million values) and
`puzzlesearch grundy move sub:1000000 --heaps 1500000,3` as a user runs them, each in a fresh
process (median of 3, after a warm-up run that fills numba's cache), and writes
results/games_subtraction.json.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from _bench import measure, print_table, python_case, write_results

CASES = [
    # (name, a tiny call that loads the kernel, the timed code setting `check`, repeats)
    ("digits table to 10^6", "digits_table(10)", "r = digits_table(10**6); check = int((r > 0).sum())", 3),
    ("cutting 200x200", "cutting_table(3)", "r = cutting_table(200); check = int((r[2:, 2:] == 0).sum())", 3),
    ("Kayles 0.77 to 10^5", "octal_values('0.77', 10)",
     "r = octal_values('0.77', 10**5); check = (r.period, r.preperiod)", 3),
    ("Dawson's Kayles 0.07 to 10^5", "octal_values('0.07', 10)",
     "r = octal_values('0.07', 10**5); check = (r.period, r.preperiod)", 3),
    ("0.76 to 10^5 (mask 0: _dense_mex)", "octal_values('0.76', 10)",
     "r = octal_values('0.76', 10**5); check = (r.max_value, r.rare_mask)", 3),
    ("0.76 to 10^5, plain mex storing every split",
     "naive_values(np.array([0, 7, 6]), False, 10)",
     "r = naive_values(np.array([0, 7, 6]), False, 10**5); check = int(r.max())", 1),
    ("0.004 to 10^5 (36% rare under its best mask: _dense_mex)", "octal_values('0.004', 10)",
     "r = octal_values('0.004', 10**5); check = (r.max_value, r.rare_mask)", 3),
    ("Grundy's game to 10^5, plain mex", "naive_values(np.array([4]), True, 10)",
     "r = naive_values(np.array([4]), True, 10**5); check = int(r.max())", 1),
    ("Grundy's game to 10^5", "grundys_values(10)",
     "r = grundys_values(10**5); check = (r.max_value, r.rare_heaps)", 3),
    ("Grundy's game to 10^6", "grundys_values(10)",
     "r = grundys_values(10**6); check = (r.max_value, r.rare_heaps)", 3),
    ("Grundy's game to 10^6, one thread", "grundys_values(10)",
     "r = grundys_values(10**6, run=RunOptions(workers=1)); check = (r.max_value, r.rare_heaps)", 3),
    ("Grundy's game to 10^6, one heap at a time (before blocks)",
     "heap_by_heap(np.array([4]), True, 10)",
     "g, s = heap_by_heap(np.array([4]), True, 10**6); check = (int(g.max()), int(s[RARE_HEAPS]))", 3),
    ("popcount k <= 64, 7 parts", "popcount_values(7, 3)",
     "r = popcount_values(7, 64); check = r.values[64]", 3),
]
BIG = [("Grundy's game to 10^7", "grundys_values(10)",
        "r = grundys_values(10**7); check = (r.max_value, r.rare_heaps)", 1)]

#: the plain mex the tests check the kernels against (tests/games/games_naive.py)
NAIVE = Path(__file__).resolve().parent.parent / "tests" / "games"
PRELUDE = (
    f"import sys, time\nimport numpy as np\nsys.path.insert(0, {str(NAIVE)!r})\n"
    "from games_naive import naive_values\n"
    "from puzzlesearch.games import cutting_table, digits_table, grundys_values, octal_values\n"
    "from puzzlesearch.games import popcount_values\n"
    "from puzzlesearch.games.takebreak import heap_by_heap\n"
    "from puzzlesearch.games.takebreak_kernel import RARE_HEAPS\n"
    "from puzzlesearch.engine.options import RunOptions\n"
)
#: the long cases (name, code, published check), each run once on all cores
FRONTIER = [
    ("0.1777's period proven from 443,139,471 values", "octal_values('0.1777', 10)",
     "r = octal_values('0.1777', 443_139_471); check = (r.period, r.preperiod, r.max_value, r.rare_heaps)"),
    ("Grundy's game to 10^8", "grundys_values(10)",
     "r = grundys_values(10**8); check = (r.max_value, r.rare_heaps)"),
]
BILLION = [("Grundy's game to 10^9", "grundys_values(10)",
            "r = grundys_values(10**9); check = (r.max_value, r.rare_heaps)")]


def case_code(load: str, body: str) -> str:
    return PRELUDE + f"{load}\nt0 = time.perf_counter()\n{body}\nprint(time.perf_counter() - t0, check)\n"


def frontier_main() -> None:
    cases = BILLION if "--billion" in sys.argv else FRONTIER
    measure(python_case(case_code(cases[0][1], "check = 0")), repeats=1)  # numba's cache
    load_before = os.getloadavg()
    rows = []
    for name, load, body in cases:
        m = measure(python_case(case_code(load, body)), repeats=1)
        work, check = m["stdout"].split(" ", 1)
        rows.append({"case": name, "seconds": m["seconds"], "work s": float(work), "peak MiB": m["peak_mib"],
                     "check": check.strip()})
        print(f"{name}: {m['seconds']:.1f} s, {check.strip()}", file=sys.stderr)
    load_after = os.getloadavg()
    print_table("the long cases (fresh process each; one run)", rows,
                ["case", "seconds", "work s", "peak MiB", "check"])
    print(f"\nload average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1-minute)")
    write_results("games_frontier" + ("_billion" if "--billion" in sys.argv else ""), rows,
                  {"load_average_before": load_before, "load_average_after": load_after})


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


#: published periods and preperiods (heaps from 0) the survey must reproduce: Winning Ways ch. 4 and
#: OEIS A002186 (0.77), A002187 (0.137: last exception 51; 0.07 has its values shifted by one),
#: Gangolli and Plambeck 1989 (0.16), as in tests/data/games.json and shared reference_values.json
PUBLISHED = {"0.77": (12, 71), "0.07": (34, 53), "0.137": (34, 52), "0.16": (149459, 105351)}


def check_published(rows: dict) -> list[str]:
    """Each published game in the survey: its row must show the published period when the
    values reach heap 2e + 2p + t (the theorem's proof), else no period or a multiple of it."""
    problems = []
    for code, (p, e) in PUBLISHED.items():
        r = rows.get(code)
        if r is None:
            continue
        provable = 2 * e + 2 * p + len(code) - 2 <= r["count"] - 1
        got = (r["period"], r["preperiod"])
        if provable and got != (p, e):
            problems.append(f"{code}: period {got}, published {(p, e)}")
        if not provable and r["period"] is not None and r["period"] % p:
            problems.append(f"{code}: period {got} is no multiple of the published {p}")
    return problems


def survey_main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description="time grundy survey")
    ap.add_argument("--survey", action="store_true")
    ap.add_argument("--digits", type=int, default=3)
    ap.add_argument("--count", type=int, default=1_000_000)
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args(argv)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        store = str(Path(tmp) / "store.sqlite")  # fresh: every game computed by this run
        argv_run = [sys.executable, "-m", "puzzlesearch", "grundy", "survey", "--digits", str(a.digits),
                    "--count", str(a.count), "--workers", str(a.workers), "--store", store, "--json",
                    "--quiet"]
        m = measure(argv_run, repeats=1)
    load_after = os.getloadavg()
    result = json.loads(m["stdout"])
    rows = {r["code"]: r for r in result["rows"]}
    problems = check_published(rows)
    assert result["from_store"] == 0 and result["computed"] == result["games"]
    slowest = sorted(result["rows"], key=lambda r: -r["seconds"])[:5]
    row = {
        "case": f"survey {result['games']} games (D = {a.digits}) to {a.count:,} heaps, {a.workers} workers",
        "seconds": m["seconds"],
        "work s": result["seconds"],
        "game s (sum)": round(sum(r["seconds"] for r in result["rows"]), 2),
        "peak MiB": m["peak_mib"],
        "values computed": result["games"] - result.get("shared", 0),
        "proven": result["proven"],
        "not proven": result["not_proven"],
        "games per s": round(result["games"] / result["seconds"], 2),
        "slowest": ", ".join(f"{r['code']} {r['seconds']:.1f} s" for r in slowest),
        "published": "; ".join(problems) or "ok: " + ", ".join(c for c in PUBLISHED if c in rows),
    }
    print_table("grundy survey (fresh process, fresh results store; one run)", [row], list(row))
    print(f"\nload average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1-minute)")
    name = "games_survey" if (a.digits, a.count) == (3, 1_000_000) else f"games_survey_{a.digits}_{a.count}"
    write_results(name, [row], {"load_average_before": load_before, "load_average_after": load_after,
                                "table": result})
    if problems:
        sys.exit(f"published periods not reproduced: {'; '.join(problems)}")


#: (command line after `puzzlesearch`, what its output must contain)
SUBTRACTION = [
    (["grundy", "subtraction", "1000000", "--count", "5000000", "--summary"],
     "period 2000000 from heap 0"),
    (["grundy", "move", "sub:1000000", "--heaps", "1500000,3"], "leaving 500000 -> 500000,3 (value 0)"),
]
#: seconds `grundy subtraction 1000000 --count 5000000` may take
SUBTRACTION_TARGET = 10.0


def subtraction_main() -> None:
    load_before = os.getloadavg()
    rows = []
    for args, expect in SUBTRACTION:
        argv = [sys.executable, "-m", "puzzlesearch", *args, "--quiet"]
        measure(argv, repeats=1)  # numba's cache
        m = measure(argv, repeats=3)
        last = m["stdout"].strip().splitlines()[-1].strip()
        assert expect in m["stdout"], m["stdout"]
        rows.append({"command": "puzzlesearch " + " ".join(args), "seconds": m["seconds"], "runs": m["runs"],
                     "peak MiB": m["peak_mib"], "output": last})
        print(f"{rows[-1]['command']}: {m['seconds']:.2f} s", file=sys.stderr)
    load_after = os.getloadavg()
    print_table("subtraction games (fresh process each; median of 3)", rows,
                ["command", "seconds", "peak MiB", "output"])
    print(f"\nload average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1-minute)")
    write_results("games_subtraction", rows, {"load_average_before": load_before,
                                               "load_average_after": load_after,
                                               "target_seconds": SUBTRACTION_TARGET})
    first = rows[0]
    if first["seconds"] > SUBTRACTION_TARGET:
        sys.exit(f"{first['command']} took {first['seconds']:.1f} s, "
                 f"over the {SUBTRACTION_TARGET:.0f} s target")


if __name__ == "__main__":
    if "--subtraction" in sys.argv:
        subtraction_main()
    elif "--survey" in sys.argv:
        survey_main(sys.argv[1:])
    elif "--frontier" in sys.argv:
        frontier_main()
    else:
        main()
