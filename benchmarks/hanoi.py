"""Tower of Hanoi benchmarks: moves per second for n = 25 (numba kernel into a numpy array,
the closed-form Python generator, the textbook recursion), and the 4-peg breadth-first
search over all 4^n positions for n = 8..12.

Every case is a fresh process ("everything included"); the child also reports the time of
the work alone, so both figures appear. Targets: >= 20 million moves/s into an
array for n = 25; 4-peg BFS for n = 11 in <= 10 s.

    .venv/bin/python benchmarks/hanoi.py [--quick]
"""

from __future__ import annotations

import json
import os
import sys

from _bench import measure, print_table, python_case, write_results

REPEATS = 3

MOVES_CASES = {
    "numba kernel -> uint8 array, first call": (
        25,
        "from puzzlesearch.hanoi import moves_array\n"
        "t = time.perf_counter(); a = moves_array({n}); work = time.perf_counter() - t\n"
        "assert a.shape[0] == 2**{n} - 1 and int(a[2**({n}-1) - 1, 0]) == {n}\n"
        "count = a.shape[0]\n",
    ),
    "numba kernel, second call in the process": (
        25,
        "from puzzlesearch.hanoi import moves_array\n"
        "moves_array(3)  # first call: numba loads the compiled kernel from its cache\n"
        "t = time.perf_counter(); a = moves_array({n}); work = time.perf_counter() - t\n"
        "count = a.shape[0]\n",
    ),
    "closed-form Python generator": (
        25,
        "from puzzlesearch.hanoi import moves\n"
        "t = time.perf_counter(); count = 0\n"
        "for move in moves({n}):\n    count += 1\n"
        "work = time.perf_counter() - t\n",
    ),
    "recursive Python generator": (
        22,
        "from puzzlesearch.hanoi.rules import classic_moves\n"
        "t = time.perf_counter(); count = 0\n"
        "for move in classic_moves({n}):\n    count += 1\n"
        "work = time.perf_counter() - t\n",
    ),
}


def moves_rows(quick: bool) -> list[dict]:
    rows = []
    for method, (n, body) in MOVES_CASES.items():
        n = min(n, 20) if quick else n
        report = "print(json.dumps({'count': count, 'work': work}))\n"
        code = "import json, time\n" + body.format(n=n) + report
        m = measure(python_case(code), repeats=1 if quick else REPEATS)
        child = json.loads(m["stdout"])
        rows.append({
            "method": method,
            "n": n,
            "moves": child["count"],
            "work s": child["work"],
            "Mmoves/s (work)": child["count"] / child["work"] / 1e6,
            "process s": m["seconds"],
            "Mmoves/s (process)": child["count"] / m["seconds"] / 1e6,
            "peak MiB": m["peak_mib"],
        })
    return rows


def bfs_rows(quick: bool) -> list[dict]:
    rows = []
    for n in range(8, 11 if quick else 13):
        code = (
            "from puzzlesearch.cli import main\n"
            f"try:\n    main(['hanoi', 'verify', '--pegs', '4', '-n', '{n}', '--json'])\n"
            "except SystemExit as e:\n    assert not e.code, e.code\n"
        )
        m = measure(python_case(code), repeats=1 if quick else REPEATS)
        v = json.loads(m["stdout"])
        assert v["agree"] and v["sequence_ok"], v
        rows.append({
            "pegs": 4,
            "n": n,
            "positions": v["positions"],
            "BFS moves": v["bfs_moves"],
            "Frame-Stewart": v["frame_stewart"],
            "farthest": v["eccentricity"],
            "verify s": v["seconds"],
            "process s": m["seconds"],
            "peak MiB": m["peak_mib"],
        })
    return rows


def main() -> None:
    quick = "--quick" in sys.argv
    load = os.getloadavg()
    moves = moves_rows(quick)
    print_table(
        "Three-peg moves for n = 25 (median of fresh processes; 'work' = generating only)",
        moves,
        ["method", "n", "moves", "work s", "Mmoves/s (work)", "process s", "Mmoves/s (process)", "peak MiB"],
    )
    bfs = bfs_rows(quick)
    print_table(
        "Four-peg BFS over all 4^n positions (`puzzlesearch hanoi verify --pegs 4 -n N`)",
        bfs,
        ["pegs", "n", "positions", "BFS moves", "Frame-Stewart", "farthest", "verify s", "process s",
         "peak MiB"],
    )
    after = os.getloadavg()
    print(f"\nload average before {load[0]:.2f}, after {after[0]:.2f}")
    if not quick:
        write_results("hanoi", moves + bfs, {"load_average": [round(load[0], 2), round(after[0], 2)]})


if __name__ == "__main__":
    main()
