"""N-Queens by half-board assembly against the constellation backtracker, everything included.

Each case is a fresh `puzzlesearch queens count -n N --method M --workers W --json` process
(interpreter start, imports, the quarter table, the pool, the count); every count is
checked against the published values (tests/data/queens.json, OEIS A000170, A002562).

The default run writes results/queens_assembly.json:

- side by side at n = 18 on one worker: the constellation backtracker and the assembly
  method, their runs taken in turn (A B A B A B) so that a drift of the host hits both;
  target: the assembly method at least 4 times faster per core;
- Q(18) and Q(19) on 2 workers; targets 8 s and 50 s;
- where the method becomes the default: n = 14..17 on 2 workers, both methods.

``--n 20`` (results/queens_assembly_n20.json) counts Q(20) on 2 workers: target 5 minutes
and 8 GiB. ``--n 21 --checkpoint FILE`` (results/queens_assembly_n21.json) counts Q(21)
once, resumable from the checkpoint: target 45 minutes and 16 GiB. Each of these also
keeps what ``queens estimate`` said before the run, to compare. ``--estimates 22 23``
(results/queens_assembly_estimates.json) keeps what ``queens estimate`` says of larger
boards, for 2 workers and for a cluster of 64. ``--spread 22 23 24 --seeds 3``
(results/queens_assembly_spread.json) keeps the mean of 3 seeds' estimates of each n and
their spread, for the docs to set against the runs that were made. ``--check-estimates 18 19
--seeds 2`` (results/queens_assembly_estimate_check.json) sets each seed's estimate of n
against the CPU time of the whole count, both in this process and one thread.

``--frontier N --checkpoint FILE --sitting SECONDS`` counts a board too long for one sitting
(Q(22), Q(23)): each call runs the count from its checkpoint for at most SECONDS, then
ends it as Ctrl-C would (SIGTERM: every finished task stays in the checkpoint), and notes
the sitting (its date, wall and CPU time, the tasks done, the load, the CPU model) in
FILE.sittings.json beside the checkpoint, to be committed with it. The entry is written
when the sitting starts and again every minute (HEARTBEAT_S), so a sitting stopped from
outside keeps its time to within a minute; its ``stopped`` field says so. The call that
finishes the count writes results/queens_assembly_nN.json: the counts (checked against the
published ones), the wall and CPU time of all the sittings together, and what ``queens
estimate`` said before the first, and its target of wall time across sittings
(FRONTIER_TARGETS).

``--reference REV`` (results/queens_assembly_sidebyside.json) counts Q(n) for n = 17..20 on
2 workers with the assembly kernels of this tree and of the git revision REV (its src/,
taken out with ``git archive`` of the repository the script is run in, into a temporary
folder), their runs taken in turn, after one untimed run of each to compile them: the
per-core ratio is REV's CPU time over this tree's. Target: 2.5 times at n = 19 and 20.
The record is written again after each n, so that a run cut short keeps the n it finished.

``cpu_s`` is the CPU time of one run, its worker processes included; ``peak_mib`` the
largest resident set of one process (the quarter table is built before the workers are
forked, so they share it and the sum of their sets overstates what the run uses). A count
across sittings also keeps ``task_wall_s``: the wall time its tasks took in their workers,
summed, which exceeds ``cpu_s`` where the cores were shared.

``--split N --sample K`` (results/queens_assembly_split_nN.json) compares how a count of N
is cut into tasks: ranges of equal length (split 1, which the Q(22) and Q(23) checkpoints
keep) and ranges of equal work (split 2, a new count's). It draws K tasks of each at random
(seeded) and, the heaviest tasks of equal length being the first of the centre-queen case,
the first two of that case from each, and times each in this process on one core (CPU time of
the thread), the two splits in turn. With ``--checkpoint FILE`` of a count of N by equal
lengths it adds the times of all the tasks that FILE holds. Target: no task of the balanced
split over 60 s, a kill losing at most about a minute.

``--cold`` (results/queens_assembly_cold.json) times the first count on a fresh machine:
``queens count -n 17 --workers 2 --json``, each run with empty kernel caches of its own
(numba's and ``$PUZZLESEARCH_CACHE``), so that only what the install carries is there: the
kernels compiled ahead of time into the wheel (an editable install compiles them into the
tree). Target: 3 s. The same runs with ``PUZZLESEARCH_KERNELS=jit`` are taken in turn, what
a first count costs without them. It then compares the builds of the kernels, each in
this process on one core, their runs taken in turn: Q(17) and Q(18) by the JIT kernels,
the build for this CPU and the wheel's build (aot.PACKAGED_CPU), the CPU time of each.

Usage: python benchmarks/queens_assembly.py [--n 20 | --n 21 --checkpoint FILE | --estimates N ...
       | --spread N ... [--seeds K] | --check-estimates N ... [--seeds K]
       | --reference REV [--sizes N ...]
       | --frontier N --checkpoint FILE --sitting S | --cold]
       [--repeats R]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import resource
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(__file__))

from _bench import cpu_model, done_tasks, print_table, run_once, write_results  # noqa: E402
from queens import count_case, published  # noqa: E402

TARGETS = {18: 8.0, 19: 50.0, 20: 300.0, 21: 2700.0}  # seconds on 2 workers
MEMORY_TARGETS = {20: 8 * 1024, 21: 16 * 1024}  # MiB
FRONTIER_TARGETS = {22: 75 * 60.0, 23: 8 * 3600.0}  # seconds of wall time on 2 workers, all sittings
PER_CORE_TARGET = 4.0  # at n = 18, one worker each: constellation time over assembly time
REFERENCE_TARGET = {19: 2.5, 20: 2.5}  # the reference kernels' CPU time over this tree's
COLD_N, COLD_TARGET = 17, 3.0  # the first count on a fresh machine, seconds
HEARTBEAT_S = 60.0  # how often a sitting rewrites its entry in the sittings log
HERE = Path(__file__).resolve().parents[1]


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def group_cpu(pgid: int) -> float | None:
    """The CPU seconds of the processes of one process group that still run, and of the
    children they have reaped (Linux's /proc); None where /proc does not say."""
    ticks, found = 0, False
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # proc(5): after the command's ")", index 2 is the group (field 5) and 11-14 are
            # utime, stime, cutime and cstime (fields 14-17)
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid:
            found = True
            ticks += sum(int(x) for x in fields[11:15])
    return ticks / os.sysconf("SC_CLK_TCK") if found else None


def one_run(n: int, workers: int, method: str, checkpoint: str | None = None,
            src: Path | None = None) -> dict:
    before = _cpu()
    env = dict(os.environ, PYTHONPATH=str(src)) if src else None
    seconds, peak, out = run_once(count_case(n, workers, method, checkpoint), env=env)
    result = json.loads(out)
    assert (result["solutions"], result["unique"]) == published(n), (n, method, result)
    return {"seconds": seconds, "cpu_s": _cpu() - before, "peak_mib": peak, "result": result}


def row(n: int, workers: int, method: str, runs: list[dict]) -> dict:
    r = runs[-1]["result"]
    out = {
        "n": n, "method": method, "workers": workers,
        "seconds": statistics.median(x["seconds"] for x in runs),
        "cpu_s": statistics.median(x["cpu_s"] for x in runs),
        "peak_mib": max(x["peak_mib"] for x in runs),
        "solutions": r["solutions"], "unique": r["unique"], "tasks": r["tasks"],
        "runs": [round(x["seconds"], 3) for x in runs],
    }
    if method == "assembly" and workers == 2 and n in TARGETS:
        out["target_s"] = TARGETS[n]
        out["met"] = "yes" if out["seconds"] <= TARGETS[n] else "no"
    return out


def estimate_json(n: int, workers: int = 2, samples: int = 300, seeds: int = 1) -> dict:
    """What a fresh ``queens estimate --json`` process says of n."""
    out = subprocess.run([sys.executable, "-m", "puzzlesearch", "queens", "estimate", "-n", str(n),
                          "--workers", str(workers), "--samples", str(samples), "--seeds", str(seeds),
                          "--json"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def estimate(n: int, workers: int = 2, samples: int = 300) -> dict:
    e = estimate_json(n, workers, samples)
    return {"estimate_cpu_s": e["cpu_seconds"], "estimate_s": e["seconds"], "estimate_sampled": e["sampled"],
            "estimate_memory_bytes": e["memory_bytes"], "row_sets": e["row_sets"]}


def estimates(ns: list[int]) -> None:
    rows = []
    for n in ns:
        e = estimate(n, 2)
        rows.append({"n": n, "published": published(n)[0], **e,
                     "cluster_workers": 64, "cluster_s": e["estimate_cpu_s"] / 64})
    print_table("estimates", rows,
                ["n", "estimate_cpu_s", "estimate_s", "cluster_s", "estimate_memory_bytes"])
    command = "python benchmarks/queens_assembly.py --estimates " + " ".join(map(str, ns))
    write_results("queens_assembly_estimates", rows, {"command": command})


def spread(ns: list[int], seeds: int, samples: int = 300) -> None:
    """What ``queens estimate --seeds K`` says of each n: the mean of K seeds' estimates and
    how far one seed's strays (the docs set each against the run of n, where one was made)."""
    rows = []
    for n in ns:
        load_start, t0 = list(os.getloadavg()), time.perf_counter()
        e = estimate_json(n, 2, samples, seeds)
        rows.append({"n": n, "loadavg_start": load_start, "seeds": seeds, "sampled": e["sampled"],
                     "row_sets": e["row_sets"],
                     "estimate_cpu_s": e["cpu_seconds"], "low_cpu_s": e["cpu_low"],
                     "high_cpu_s": e["cpu_high"], "spread": e["cpu_high"] / e["cpu_low"],
                     "estimate_memory_bytes": e["memory_bytes"],
                     "seconds": round(time.perf_counter() - t0, 1)})
        print(f"n = {n}: {e['cpu_seconds']:.0f} CPU-s, {e['cpu_low']:.0f} to {e['cpu_high']:.0f}",
              flush=True)
    command = f"python benchmarks/queens_assembly.py --spread {' '.join(map(str, ns))} --seeds {seeds}"
    write_results("queens_assembly_spread", rows, {"command": command, "samples": samples})


def check_estimates(ns: list[int], seeds: int, samples: int = 300) -> None:
    """For each n, in this process and one thread: what ``queens estimate`` says with each of
    `seeds` seeds, and the CPU time of the whole count by its own tasks, with the kernels the
    estimate times (those of a one-worker count). Both in the CPU time of the thread, so
    another process on the machine skews neither."""
    from puzzlesearch.engine.options import RunOptions
    from puzzlesearch.queens import api, assembly
    from puzzlesearch.queens import tasks as queens_tasks

    rows = []
    for n in ns:
        load_start = list(os.getloadavg())
        kernels = queens_tasks.shared_kernels(n, 1, False)
        said = [api.estimate(n, samples=samples, seed=s, run=RunOptions(workers=1)).cpu_seconds
                for s in range(seeds)]
        todo = queens_tasks.assembly_tasks(n, 2)
        start = time.thread_time()
        total = sum(assembly.run_task(t, kernels)[0] for t in todo)
        spent = time.thread_time() - start
        assert total == published(n)[0], (n, total)
        rows.append({"n": n, "kernels": kernels or "aot", "seeds": seeds, "samples": samples,
                     "estimates_cpu_s": [round(x, 2) for x in said], "count_cpu_s": round(spent, 2),
                     "tasks": len(todo), "least_ratio": round(spent / max(said), 3),
                     "most_ratio": round(spent / min(said), 3), "loadavg_start": load_start,
                     "loadavg_end": list(os.getloadavg())})
        print(f"n = {n}: estimates {', '.join(f'{x:.1f}' for x in said)} CPU-s; the count {spent:.1f} CPU-s",
              flush=True)
    command = ("python benchmarks/queens_assembly.py --check-estimates "
               f"{' '.join(map(str, ns))} --seeds {seeds}")
    write_results("queens_assembly_estimate_check", rows, {"command": command})


def side_by_side(repeats: int) -> dict:
    runs: dict[str, list[dict]] = {"constellation": [], "assembly": []}
    for _ in range(repeats):
        for method in runs:
            runs[method].append(one_run(18, 1, method))
    rows = {m: row(18, 1, m, r) for m, r in runs.items()}
    ratio = rows["constellation"]["seconds"] / rows["assembly"]["seconds"]
    return {"rows": list(rows.values()), "ratio": ratio, "target": PER_CORE_TARGET,
            "met": "yes" if ratio >= PER_CORE_TARGET else "no"}


def fold_wal(ckpt: Path) -> None:
    """Move the tasks an interrupted count left in the checkpoint's write-ahead log into the
    file itself: the log (-wal) is never committed, so the file alone must hold them."""
    if ckpt.exists():
        with contextlib.closing(sqlite3.connect(ckpt)) as db:
            db.execute("pragma wal_checkpoint(TRUNCATE)")


def frontier(n: int, checkpoint: str, sitting: float) -> None:
    """One sitting of a count of n across sittings (see the module docstring)."""
    ckpt = Path(checkpoint)
    notes = ckpt.with_name(ckpt.name + ".sittings.json")
    log = json.loads(notes.read_text()) if notes.exists() else {"n": n, "sittings": []}
    if log["n"] != n:
        raise SystemExit(f"{notes} is the log of a count of n = {log['n']}, not {n}")
    if "estimate" not in log:
        log["estimate"] = estimate(n)
    done_before, _ = done_tasks(ckpt)
    args = ["queens", "count", "-n", str(n), "--method", "assembly", "--workers", "2", "--checkpoint",
            str(ckpt), "--json", "--quiet"]
    # main(args) rather than the program itself, which leaves an interrupted run by os._exit,
    # maybe before it has reaped its workers: their CPU time would be lost to the count here
    argv = [sys.executable, "-c", f"import sys\nfrom puzzlesearch.cli import main\nsys.exit(main({args!r}))"]
    load_start, cpu_before, t0 = list(os.getloadavg()), _cpu(), time.perf_counter()
    # a session of its own: SIGTERM reaches the count's workers as a terminal's Ctrl-C would
    # (SIGINT may be ignored here: a background job inherits it so)
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    # the machine with each sitting: a count across sittings may move between hosts
    log["sittings"].append(entry := {"tasks_before": done_before, "loadavg_start": load_start,
                                     "cpu": cpu_model()})

    def note(seconds: float, cpu: float | None, **more) -> None:
        entry.update({"date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
                      "seconds": round(seconds, 1), "cpu_s": None if cpu is None else round(cpu, 1),
                      **more})
        notes.write_text(json.dumps(log, indent=1) + "\n")

    # The sitting's entry is rewritten every minute until the count ends, so that a sitting
    # stopped from outside (the machine shut down under it) still says how long it ran, to
    # within a minute: its tasks are in the checkpoint, and the time they took must be in
    # the record. The next call counts its tasks from the checkpoint, not from this entry.
    out = err = None
    while out is None:
        left = sitting - (time.perf_counter() - t0)
        if left <= 0:
            os.killpg(proc.pid, signal.SIGTERM)
            out, err = proc.communicate()
            break
        with contextlib.suppress(subprocess.TimeoutExpired):
            out, err = proc.communicate(timeout=min(HEARTBEAT_S, left))
        if out is None:
            note(time.perf_counter() - t0, group_cpu(proc.pid), tasks_after=None,
                 loadavg_end=None, finished=False, stopped="running, or stopped from outside after this date")
    seconds, cpu = time.perf_counter() - t0, _cpu() - cpu_before
    fold_wal(ckpt)
    done_after, task_seconds = done_tasks(ckpt)
    if proc.returncode not in (0, 130):
        raise SystemExit(f"{argv} exited {proc.returncode}: {err.strip()[-500:]}")
    entry.pop("stopped", None)
    note(seconds, cpu, tasks_after=done_after, loadavg_end=list(os.getloadavg()),
         finished=proc.returncode == 0)
    if proc.returncode != 0:
        print(f"sitting ended after {seconds:.0f} s: {done_after} tasks done ({done_after - done_before} "
              f"in this sitting); run the same command again to go on")
        return
    result = json.loads(out)
    assert (result["solutions"], result["unique"]) == published(n), (n, result)
    sittings = log["sittings"]
    r = {"n": n, "method": "assembly", "workers": 2, "solutions": result["solutions"],
         "unique": result["unique"], "tasks": result["tasks"],
         "seconds": round(sum(x["seconds"] for x in sittings), 1),
         "cpu_s": round(sum(x["cpu_s"] for x in sittings), 1), "task_wall_s": round(task_seconds, 1),
         "sittings": len(sittings), "checkpoint": checkpoint, **log["estimate"]}
    if n in FRONTIER_TARGETS:
        r["target_s"] = FRONTIER_TARGETS[n]
        r["met"] = "yes" if r["seconds"] <= r["target_s"] else "no"
    print_table(f"Q({n}) by assembly, 2 workers, {len(sittings)} sittings", [r],
                ["n", "seconds", "cpu_s", "solutions", "unique", "estimate_s"])
    write_results(f"queens_assembly_n{n}", [r], {
        "command": f"python benchmarks/queens_assembly.py --frontier {n} --checkpoint {checkpoint} "
                   f"--sitting SECONDS (once a sitting)", "sittings": sittings})


def split_sample(n: int, sample: int, checkpoint: str | None, seed: int = 2026) -> None:
    """Time sampled tasks of both splits of n (see the module docstring)."""
    import random

    from puzzlesearch.queens import assembly
    from puzzlesearch.queens import tasks as queens_tasks

    load_start = list(os.getloadavg())
    t0 = time.perf_counter()
    splits = {1: queens_tasks.assembly_tasks(n, 1)}
    splits[2] = queens_tasks.assembly_tasks(n, 2)
    split_seconds = time.perf_counter() - t0  # with the quarter table's index: once a count
    assembly.table(n // 2)
    assembly.run_task(splits[1][0])  # the kernels loaded, the table warm
    rng = random.Random(seed)
    chosen = {}
    for k, todo in splits.items():
        centre = [t for t in todo if t["case"] == [0, 0]][:2]
        chosen[k] = centre + rng.sample([t for t in todo if t not in centre], sample)
    spent: dict[int, list[float]] = {1: [], 2: []}
    for i in range(max(len(v) for v in chosen.values())):
        for k in (1, 2):
            if i < len(chosen[k]):
                start = time.thread_time()
                assembly.run_task(chosen[k][i])
                spent[k].append(time.thread_time() - start)
                print(f"split {k} task {i}: {spent[k][-1]:.1f} s", flush=True)
    def times(seconds: list[float]) -> dict:
        v = sorted(seconds)
        return {"mean_s": statistics.mean(v), "median_s": statistics.median(v), "max_s": v[-1],
                "over_60_s": sum(x > 60 for x in v), "p95_s": v[int(0.95 * (len(v) - 1))]}

    rows = [{"n": n, "split": k, "tasks": len(todo), "sampled": len(spent[k]), **times(spent[k]),
             "centre_first_s": spent[k][:2], "model_mean_s": queens_tasks.assembly_cpu_seconds(n) / len(todo)}
            for k, todo in splits.items()]
    extra = {"command": f"python benchmarks/queens_assembly.py --split {n} --sample {sample}"
                        + (f" --checkpoint {checkpoint}" if checkpoint else ""),
             "seed": seed, "split_seconds": round(split_seconds, 2), "loadavg_start": load_start}
    if checkpoint:
        uri = f"{Path(checkpoint).resolve().as_uri()}?mode=ro"
        with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
            held = [x for (x,) in db.execute("select seconds from done where seconds is not null")]
        extra["checkpoint_split_1"] = {"tasks": len(held), **times(held)}
    print_table(f"Q({n}) tasks, split 1 (equal lengths) and 2 (equal work), one core", rows,
                ["split", "tasks", "sampled", "mean_s", "median_s", "max_s", "over_60_s", "model_mean_s"])
    write_results(f"queens_assembly_split_n{n}", rows, extra)


def _revision(rev: str) -> str:
    return subprocess.run(["git", "rev-parse", rev], check=True, capture_output=True,
                          text=True).stdout.strip()


def reference(rev: str, sizes: list[int], repeats: int) -> None:
    """This tree's assembly kernels and those of revision `rev`, side by side on 2 workers."""
    commit = _revision(rev)
    load_start = list(os.getloadavg())
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "archive", commit, "src"], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        trees = {"reference": Path(tmp) / "src", "this": HERE / "src"}
        for src in trees.values():  # numba compiles each tree's kernels once, untimed
            one_run(12, 1, "assembly", src=src)
        for n in sizes:
            runs: dict[str, list[dict]] = {name: [] for name in trees}
            for _ in range(repeats):
                for name, src in trees.items():
                    runs[name].append(one_run(n, 2, "assembly", src=src))
            ref, this = (row(n, 2, "assembly", runs[name]) for name in trees)
            ratio = ref["cpu_s"] / this["cpu_s"]
            out = {"n": n, "workers": 2, "reference_s": ref["seconds"], "reference_cpu_s": ref["cpu_s"],
                   "seconds": this["seconds"], "cpu_s": this["cpu_s"], "ratio": round(ratio, 3),
                   "peak_mib": this["peak_mib"], "solutions": this["solutions"], "unique": this["unique"],
                   "runs_reference": ref["runs"], "runs": this["runs"]}
            if n in REFERENCE_TARGET:
                out["target_ratio"] = REFERENCE_TARGET[n]
                out["met"] = "yes" if ratio >= REFERENCE_TARGET[n] else "no"
            rows.append(out)
            print_table(f"Q({n}) on 2 workers, reference {rev} ({commit[:10]}) and this tree", [out],
                        ["n", "reference_s", "seconds", "reference_cpu_s", "cpu_s", "ratio", "met"])
            command = " ".join(["python benchmarks/queens_assembly.py", "--reference", rev, "--sizes",
                                *map(str, sizes), "--repeats", str(repeats)])
            write_results("queens_assembly_sidebyside", rows,
                          {"command": command, "reference": commit, "loadavg_start": load_start})


def cold_count(repeats: int) -> dict:
    """The first count of COLD_N, every kernel cache empty, with the kernels compiled ahead
    of time and with the JIT kernels, in turn."""
    from puzzlesearch.queens import aot

    runs: dict[str, list[dict]] = {"aot": [], "jit": []}
    for _ in range(repeats):
        for kind in runs:
            with tempfile.TemporaryDirectory(prefix="queens-cold-") as tmp:
                env = dict(os.environ, NUMBA_CACHE_DIR=f"{tmp}/numba", PUZZLESEARCH_CACHE=f"{tmp}/kernels",
                           PUZZLESEARCH_KERNELS=kind)
                before = _cpu()
                seconds, peak, out = run_once(count_case(COLD_N, 2, "assembly"), env=env)
                result = json.loads(out)
                assert (result["solutions"], result["unique"]) == published(COLD_N), result
                assert result["kernels"] == kind, result
                runs[kind].append({"seconds": seconds, "cpu_s": _cpu() - before, "peak_mib": peak,
                                   "compiled": sorted(p.name for p in Path(f"{tmp}/kernels").glob("*"))})
    rows = []
    for kind, made in runs.items():
        r = {"n": COLD_N, "kernels": kind, "seconds": statistics.median(x["seconds"] for x in made),
             "cpu_s": statistics.median(x["cpu_s"] for x in made),
             "peak_mib": max(x["peak_mib"] for x in made),
             "runs": [round(x["seconds"], 3) for x in made],
             "built_in_cache": any(x["compiled"] for x in made)}
        if kind == "aot":
            r.update(target_s=COLD_TARGET, met="yes" if r["seconds"] <= COLD_TARGET else "no")
        rows.append(r)
    return {"rows": rows, "packaged": aot.packaged_path().name if aot.packaged_path().exists() else None,
            "packaged_cpu": aot.packaged_cpu() or "generic"}


def kernel_builds(repeats: int, sizes: tuple[int, ...] = (17, 18)) -> list[dict]:
    """CPU seconds of Q(n) in this process by the JIT kernels, the build for this CPU and the
    wheel's build, their runs taken in turn."""
    import time as clock

    from puzzlesearch.queens import aot, assembly

    builds: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="queens-builds-") as tmp:
        tuned = Path(tmp) / ("tuned-" + aot.module_path().name)
        aot.build(tuned)
        builds["jit"] = aot._JitKernels()
        builds[f"this CPU ({aot.target_cpu() or 'generic'})"] = aot._load(tuned)
        builds[f"the wheel's ({aot.packaged_cpu() or 'generic'})"] = aot._load(aot.build_packaged(Path(tmp)))
    rows = []
    for n in sizes:
        assembly.table(n // 2)
        spent: dict[str, list[float]] = {name: [] for name in builds}
        for _ in range(repeats):
            for name, kernels in builds.items():
                aot._loaded = (kernels, "aot", True)
                assembly.count(6)  # compiled (JIT), tables warm
                t0 = clock.thread_time()
                total = assembly.count(n)
                spent[name].append(clock.thread_time() - t0)
                assert total == published(n)[0], (n, name, total)
        rows += [{"n": n, "build": name, "cpu_s": min(v), "runs": [round(x, 3) for x in v]}
                 for name, v in spent.items()]
    aot._loaded = None
    return rows


def cold(repeats: int) -> None:
    first = cold_count(repeats)
    print_table(f"the first count of Q({COLD_N}), every kernel cache empty (target {COLD_TARGET:.0f} s)",
                first["rows"], ["n", "kernels", "seconds", "cpu_s", "peak_mib", "built_in_cache", "met"])
    builds = kernel_builds(repeats)
    print_table("the builds of the kernels, one core", builds, ["n", "build", "cpu_s", "runs"])
    write_results("queens_assembly_cold", first["rows"],
                  {"command": f"python benchmarks/queens_assembly.py --cold --repeats {repeats}",
                   "packaged": first["packaged"], "packaged_cpu": first["packaged_cpu"], "builds": builds})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, choices=(20, 21), help="only Q(20) or Q(21) on 2 workers")
    ap.add_argument("--checkpoint", help="checkpoint of the --n run (it resumes from it)")
    ap.add_argument("--estimates", type=int, nargs="+", metavar="N", help="only estimate these n")
    ap.add_argument("--reference", metavar="REV", help="side by side with the kernels of this git revision")
    ap.add_argument("--sizes", type=int, nargs="+", default=[17, 18, 19, 20], metavar="N",
                    help="the n of --reference")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--frontier", type=int, choices=(22, 23), metavar="N",
                    help="a count of N across sittings, from --checkpoint (22 or 23)")
    ap.add_argument("--sitting", type=float, default=3600.0, help="seconds of this sitting (--frontier)")
    ap.add_argument("--cold", action="store_true",
                    help=f"the first count of Q({COLD_N}) with every cache empty, and the kernels' builds")
    ap.add_argument("--spread", type=int, nargs="+", metavar="N",
                    help="only estimate these n over --seeds seeds, with their spread")
    ap.add_argument("--check-estimates", type=int, nargs="+", metavar="N",
                    help="only estimate these n over --seeds seeds and count them, in one thread")
    ap.add_argument("--seeds", type=int, default=3,
                    help="seeds of each estimate (--spread, --check-estimates)")
    ap.add_argument("--split", type=int, metavar="N", help="time sampled tasks of both splits of N")
    ap.add_argument("--sample", type=int, default=16, help="random tasks of each split (--split)")
    args = ap.parse_args()
    if args.split:
        split_sample(args.split, args.sample, args.checkpoint)
        return
    if args.cold:
        cold(args.repeats)
        return
    if args.frontier:
        if not args.checkpoint:
            ap.error("--frontier needs --checkpoint")
        frontier(args.frontier, args.checkpoint, args.sitting)
        return
    if args.reference:
        reference(args.reference, args.sizes, args.repeats)
        return
    if args.spread:
        spread(args.spread, args.seeds)
        return
    if args.check_estimates:
        check_estimates(args.check_estimates, args.seeds)
        return
    if args.estimates:
        estimates(args.estimates)
        return
    columns = ["n", "method", "workers", "seconds", "cpu_s", "peak_mib", "solutions", "unique", "met"]
    if args.n:
        before = estimate(args.n)
        runs = [one_run(args.n, 2, "assembly", args.checkpoint) for _ in range(args.repeats)]
        r = {**row(args.n, 2, "assembly", runs), **before}
        r["memory_target_mib"] = MEMORY_TARGETS[args.n]
        r["memory_met"] = "yes" if r["peak_mib"] * 2 <= MEMORY_TARGETS[args.n] else "no"
        if args.checkpoint:
            r["checkpoint"] = args.checkpoint
        print_table(f"Q({args.n}) by assembly, 2 workers", [r], columns + ["estimate_s"])
        write_results(f"queens_assembly_n{args.n}", [r], {"command": " ".join(
            ["python benchmarks/queens_assembly.py", "--n", str(args.n), "--repeats", str(args.repeats)]
            + (["--checkpoint", args.checkpoint] if args.checkpoint else []))})
        return
    sbs = side_by_side(args.repeats)
    print_table(f"n = 18, one worker each: ratio {sbs['ratio']:.2f}", sbs["rows"], columns)
    rows = []
    for n in (14, 15, 16, 17):
        for method in ("constellation", "assembly"):
            rows.append(row(n, 2, method, [one_run(n, 2, method) for _ in range(args.repeats)]))
    for n in (18, 19):
        rows.append(row(n, 2, "assembly", [one_run(n, 2, "assembly") for _ in range(args.repeats)]))
    print_table("2 workers", rows, columns)
    write_results("queens_assembly", rows, {"side_by_side": sbs,
                                            "command": "python benchmarks/queens_assembly.py"})


if __name__ == "__main__":
    main()
