"""What every benchmark shares: run a case in a fresh process, time it, read its peak memory.

Each case runs as its own subprocess so that "everything included" means it: interpreter
start, imports, numba's compilation cache, and the work. The peak resident memory of the
child comes from ``os.wait4`` (a child made by python_case reports its own, which is
the same number). Timings are medians of ``repeats`` runs, since the
machines are shared and noisy.
"""

from __future__ import annotations

import json
import os
import platform
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

RESULTS = Path(__file__).parent / "results"


def done_tasks(checkpoint: str | Path) -> tuple[int, float]:
    """The tasks a task checkpoint (engine.store.Checkpoint) holds as finished and the seconds
    they took; (0, 0) when there is none or it cannot be read yet. Read only: a run may be
    writing it."""
    try:
        with sqlite3.connect(f"file:{checkpoint}?mode=ro", uri=True, timeout=5) as db:
            count, seconds = db.execute("select count(*), coalesce(sum(seconds), 0) from done").fetchone()
    except sqlite3.Error:
        return 0, 0.0
    return int(count), float(seconds)


def run_once(
    argv: list[str], timeout: float | None = None, env: dict | None = None
) -> tuple[float, float, str]:
    """Run argv; return (wall seconds, peak RSS of the child in MiB, stdout). Raises on failure.

    The child is reaped with os.wait4, whose rusage is that child's alone.
    """
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    chunks: dict[str, str] = {}
    readers = [
        threading.Thread(target=lambda: chunks.__setitem__("out", proc.stdout.read())),
        threading.Thread(target=lambda: chunks.__setitem__("err", proc.stderr.read())),
    ]
    for r in readers:
        r.start()
    killer = threading.Timer(timeout, proc.kill) if timeout else None
    if killer:
        killer.start()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t0
    if killer:
        killer.cancel()
    for r in readers:
        r.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    out, err = chunks.get("out", ""), chunks.get("err", "")
    if proc.returncode != 0:
        raise RuntimeError(f"{argv} exited {proc.returncode}: {err.strip()[-500:]}")
    peak = usage.ru_maxrss / 1024  # KiB on Linux
    for line in err.splitlines():
        if line.startswith("__peak_rss_mib__="):
            peak = float(line.split("=", 1)[1])
    return seconds, peak, out


def python_case(code: str) -> list[str]:
    """argv running `code` in a fresh interpreter that reports its own peak RSS on exit."""
    trailer = (
        "\nimport resource, sys\n"
        "sys.stderr.write('__peak_rss_mib__=%f\\n' % "
        "(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))\n"
    )
    return [sys.executable, "-c", code + trailer]


def measure(argv: list[str], repeats: int = 3, timeout: float | None = None, env: dict | None = None) -> dict:
    """Median wall time and peak memory of `repeats` fresh runs of argv; last stdout too."""
    times, peaks, out = [], [], ""
    for _ in range(repeats):
        s, p, out = run_once(argv, timeout, env)
        times.append(s)
        peaks.append(p)
    return {
        "seconds": statistics.median(times),
        "runs": [round(t, 4) for t in times],
        "peak_mib": max(peaks),
        "stdout": out,
    }


def cpu_model() -> str | None:
    """The CPU's model name (Linux): the project's VMs change hosts, and the figures with them."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def machine() -> dict:
    return {
        "date": time.strftime("%Y-%m-%d"),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "processor": platform.processor() or platform.uname().machine,
        "cpu": cpu_model(),
    }


def print_table(title: str, rows: list[dict], columns: list[str]) -> None:
    """A plain aligned table on stdout (pasteable into the README as Markdown)."""
    def fmt(v: object) -> str:
        if isinstance(v, float):
            return f"{v:,.3f}" if v < 100 else f"{v:,.0f}"
        if isinstance(v, int):
            return f"{v:,}"
        return str(v)

    cells = [[fmt(r.get(c, "")) for c in columns] for r in rows]
    print(f"\n{title}\n")
    print("| " + " | ".join(columns) + " |")
    print("|" + "|".join("---" for _ in columns) + "|")
    for row in cells:
        print("| " + " | ".join(row) + " |")


def write_results(name: str, rows: list[dict], extra: dict | None = None) -> Path:
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{name}.json"
    # the load at the end of the run is saved with its figures: a busy host explains slow ones
    payload = {"machine": machine(), "rows": rows, "loadavg_end": list(os.getloadavg()), **(extra or {})}
    path.write_text(json.dumps(payload, indent=1) + "\n")
    print(f"\nwrote {path}")
    return path
