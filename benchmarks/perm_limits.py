"""Questions that once hung or ate the machine, timed as a user asks them: each in a fresh
process, its exit status, wall time and peak memory.

- `perm info` on an n-cycle with a swap (64 to 512 positions: the symmetric group, counted;
  4,096: beyond the limit of points, refused);
- `[rotations]` generating more than the turns allowed, a character device (as root: made
  with mknod in a temporary folder) and a FIFO given as a puzzle file: refused;
- `perm solve` of a puzzle whose answer is 1,146 moves, one state a layer;
- `--workers 4096` beside `--workers 2` on the breadth-first engine; `--memory 100` above
  the machine's memory and `queens count -n 62 --fixed 1:1`: refused.

    .venv/bin/python benchmarks/perm_limits.py [--repeats 1]

Writes benchmarks/results/perm_limits.json (about a minute on the 2-core machine).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _bench import print_table, write_results

CLI = [sys.executable, "-m", "puzzlesearch"]
#: the targets: the n-cycle and swap on 512 points counted, and on 4,096 refused, within these
TARGET_SECONDS, TARGET_MIB, REFUSAL_SECONDS = 2.0, 1024, 1.0


def run(argv: list[str], env: dict) -> tuple[float, float, int, str, str]:
    """(wall seconds, peak RSS in MiB, exit status, stdout, stderr) of one fresh run; the
    child is reaped with os.wait4, whose rusage is that child's alone."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(CLI + argv, stdout=out, stderr=err, text=True, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return seconds, usage.ru_maxrss / 1024, proc.returncode, out.read(), err.read()


def files(folder: Path) -> dict[str, Path]:
    made = {}
    for n in (64, 128, 256, 512, 4096):
        cycle = " ".join(str(i) for i in range(1, n + 1))
        made[f"sym{n}"] = folder / f"sym{n}.toml"
        made[f"sym{n}"].write_text(f'metric = "inverses"\n[pieces.p]\npositions = {n}\n[moves]\n'
                                   f'X = "({cycle})"\nY = "(1 2)"\n')
    cycle = " ".join(str(i) for i in range(2, 13))
    made["rotations"] = folder / "rotations.toml"
    made["rotations"].write_text(f'fixed = ["1"]\n[pieces.p]\npositions = 12\n[moves]\nX = "(1 2)"\n'
                                 f'[rotations]\na = "({cycle})"\nb = "(2 3)"\n')
    # one move of order 101 x 103 = 10,403; the state 9,257 turns on is 1,146 turns from home
    a, b = " ".join(str(i) for i in range(1, 102)), " ".join(str(i) for i in range(102, 205))
    made["lcm"] = folder / "lcm.toml"
    made["lcm"].write_text(f'metric = "given"\n[pieces.p]\npositions = 204\n[moves]\nX = "({a})({b})"\n')
    made["fifo"] = folder / "pipe.toml"
    os.mkfifo(made["fifo"])
    if os.geteuid() == 0:
        made["device"] = folder / "zero.toml"
        os.mknod(made["device"], 0o600 | 0o020000, os.makedev(1, 5))  # the node of /dev/zero
    return made


def lcm_state(k: int = 9257) -> list[str]:
    return [str(1 + (i - k) % 101) for i in range(101)] + [str(102 + (i - k) % 103) for i in range(103)]


def cases(f: dict[str, Path]) -> list[tuple[str, list[str], int, str]]:
    """(case, argv, the exit status asked for, what stdout or stderr must hold)."""
    out = [(f"perm info, {n}-cycle and swap", ["perm", "info", str(f[f"sym{n}"])], 0,
            "every one of the") for n in (64, 128, 256, 512)]
    out += [
        ("perm info, 4,096-cycle and swap", ["perm", "info", str(f["sym4096"])], 2, "at most 512 points"),
        ("perm info, [rotations] past the limit", ["perm", "info", str(f["rotations"])], 2,
         "generate more than 100,000 turns"),
        ("perm info, a FIFO", ["perm", "info", str(f["fifo"])], 2, "is a FIFO"),
    ]
    if "device" in f:
        out.append(("perm info, a character device", ["perm", "info", str(f["device"])], 2,
                    "is a character device"))
    out += [
        ("perm solve, 1,146 moves of 10,403 states", ["perm", "solve", str(f["lcm"]), *lcm_state()], 0,
         "lcm: 1146 moves"),
        ("pancake god -n 8, --workers 2", ["pancake", "god", "-n", "8", "--workers", "2"], 0, "diameter 9"),
        ("pancake god -n 8, --workers 4096", ["pancake", "god", "-n", "8", "--workers", "4096"], 0,
         "diameter 9"),
        ("queens count -n 27 --memory 100", ["queens", "count", "-n", "27", "--memory", "100"], 2,
         "more than the"),
        ("queens count -n 62 --fixed 1:1", ["queens", "count", "-n", "62", "--fixed", "1:1"], 2,
         "give at least"),
    ]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=1, help="fresh runs of each case (median)")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PUZZLESEARCH_STORE": str(Path(tmp) / "store.sqlite")}
        made = files(Path(tmp))
        for name, argv, code, expect in cases(made):
            times, peaks = [], []
            for _ in range(args.repeats):
                # a store of its own for each run: no answer read back from an earlier one
                env["PUZZLESEARCH_STORE"] = str(Path(tmp) / f"store{len(rows)}-{len(times)}.sqlite")
                seconds, peak, got, out, err = run(argv, env)
                times.append(seconds)
                peaks.append(peak)
            lines = err.strip().splitlines()
            right = got == code and expect in (out if code == 0 else err) and "Traceback" not in err
            if code == 2:
                right = right and len(lines) == 1
            seconds = statistics.median(times)
            if "512-cycle" in name:
                met = right and seconds <= TARGET_SECONDS and max(peaks) <= TARGET_MIB
            elif "4,096" in name:  # the interpreter's start and imports come on top of the refusal
                met = right and seconds <= REFUSAL_SECONDS + 1.5
            else:
                met = right
            # the temporary folder is this run's, not the reader's: files by their names
            shown = [Path(a).name if a.startswith(tmp) else a for a in argv[:4]]
            shown += ["STATE"] if "solve" in argv else []
            said = lines[-1] if code == 2 and lines else out.splitlines()[0] if out else ""
            rows.append({"case": name, "command": " ".join(shown), "exit": got, "seconds": round(seconds, 3),
                         "runs": [round(t, 3) for t in times], "peak MiB": round(max(peaks), 1),
                         "line": said.replace(tmp + "/", "")[:200],
                         "right": right, "met": met})
            print(f"{name}: exit {got}, {seconds:.2f} s, {max(peaks):.0f} MiB", flush=True)
    print_table("perm and the run options at their limits", rows,
                ["case", "exit", "seconds", "peak MiB", "met"])
    write_results("perm_limits", rows, {"target_seconds": TARGET_SECONDS, "target_mib": TARGET_MIB,
                                        "refusal_seconds": REFUSAL_SECONDS, "repeats": args.repeats})


if __name__ == "__main__":
    main()
