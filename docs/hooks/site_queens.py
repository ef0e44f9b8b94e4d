"""The tables of the N-Queens assembly method, rendered from its records.

``benchmarks/queens_assembly.py`` writes these records: the side-by-side run and the
2-worker rows (queens_assembly.json), the counts of Q(20) to Q(23)
(queens_assembly_n20.json ... n23.json, frontier records), the estimates of larger
boards (queens_assembly_estimates.json), and the first count on a fresh machine with the
builds of the kernels compared (queens_assembly_cold.json). Importing this module
registers its renderers with site_tables.
"""

from __future__ import annotations

import site_records
from site_tables import Sources, at_most, code_line, mib, num, renders, secs, table

RECORDS = site_records.QUEENS_FRONTIER


def _met(flag: str) -> str:
    return "met" if flag == "yes" else "missed"


def _gib(nbytes: float) -> str:
    return f"{nbytes / 2**30:.2f} GiB"


@renders("benchmarks", "queens-assembly")
def bench_assembly(src: Sources) -> str:
    rec = src.use("queens_assembly.json")
    sbs = rec.data["side_by_side"]
    side = [[r["method"], secs(r["seconds"]), ", ".join(secs(x) for x in r["runs"]), secs(r["cpu_s"]),
             mib(r["peak_mib"])] for r in sbs["rows"]]
    cells: dict[int, dict[str, dict]] = {}
    for r in rec.rows:
        cells.setdefault(r["n"], {})[r["method"]] = r
    rows = []
    for n, by in sorted(cells.items()):
        a = by.get("assembly", {})
        c = by.get("constellation")
        target = f"{at_most(a['target_s'])}: {_met(a['met'])}" if "target_s" in a else ""
        rows.append([n, secs(c["seconds"]) if c else "—", secs(a.get("seconds")), secs(a.get("cpu_s")),
                     target])
    big = []
    for name in RECORDS:
        r = src.use(name).rows[0]
        # a count across sittings (--frontier) keeps no peak memory; its time is theirs together
        big.append([r["n"], secs(r["seconds"]), secs(r["cpu_s"]), secs(r["estimate_s"]),
                    mib(r["peak_mib"]) if "peak_mib" in r else "—",
                    (f"{at_most(r['target_s'])}: {_met(r['met'])}" if "target_s" in r else "—")
                    + (f" ({r['sittings']} sittings)" if "sittings" in r else ""),
                    f"≤ {r['memory_target_mib'] // 1024} GiB: {_met(r['memory_met'])}"
                    if "memory_target_mib" in r else "—"])
    return ("Side by side at n = 18, one worker each, the runs taken in turn:\n\n"
            + table(["method", "wall time (median)", "runs", "CPU", "peak"], side)
            + f"\n\nThe assembly method is {sbs['ratio']:.2f} times faster per core "
              f"(target {sbs['target']:g}×: {_met(sbs['met'])}).\n\nOn 2 workers (medians of the runs "
              "the record keeps; every count checked against A000170 and A002562):\n\n"
            + table(["n", "constellation", "assembly", "assembly CPU", "target"], rows)
            + "\n\nThe largest counts, on 2 workers, with what `queens estimate` said before each run "
              "(peak: the largest process; the workers share the quarter table):\n\n"
            + table(["n", "wall time", "CPU", "estimated", "peak", "time target", "memory target"], big))


@renders("results", "queens-assembly")
def results_assembly(src: Sources) -> str:
    rows = []
    for name in RECORDS:
        r = src.use(name).rows[0]
        rows.append([r["n"], f"**{num(r['solutions'])}**", f"**{num(r['unique'])}**", r["workers"],
                     secs(r["seconds"]), secs(r["cpu_s"]), name])
    est = src.use("queens_assembly_estimates.json")
    erows = [[r["n"], num(r["published"]), num(r["row_sets"]), secs(r["estimate_cpu_s"]),
              secs(r["estimate_s"]), secs(r["cluster_s"]), _gib(r["estimate_memory_bytes"])]
             for r in est.rows]
    commands = "\n".join(code_line(f"puzzlesearch queens count -n {r['n']} --scheduler tcp://HOST:8786 "
                                   f"--checkpoint q{r['n']}.sqlite") for r in est.rows)
    return (table(["n", "Q(n)", "unique", "workers", "wall time", "CPU", "record"], rows)
            + "\n\nBy the assembly method; the unique counts by Burnside's lemma from the solutions "
              "fixed by the half and quarter turns. Larger boards, as `queens estimate` sees them "
              "(CPU time of one core; the cluster column is that time over 64 workers):\n\n"
            + table(["n", "published Q(n)", "row sets", "CPU", "2 workers", "64 workers",
                     "memory, 2 workers"], erows)
            + "\n\nOn a Dask cluster ([Long searches](long-searches.md)), with a checkpoint:\n\n"
            + "```\n" + commands + "\n```")


@renders("benchmarks", "queens-split")
def bench_split(src: Sources) -> str:
    rec = src.use("queens_assembly_split_n23.json")
    names = {1: "equal lengths (split 1)", 2: "equal work (split 2)"}
    rows = [[names[r["split"]], num(r["tasks"]), r["sampled"], secs(r["mean_s"]), secs(r["median_s"]),
             secs(r["max_s"]), ", ".join(secs(x) for x in r["centre_first_s"]), r["over_60_s"]]
            for r in rec.rows]
    held = rec.data.get("checkpoint_split_1")
    whole = ("" if not held else
             f"\n\nEvery task of equal length the Q(23) checkpoint holds ({num(held['tasks'])}, with the "
             f"time each took on its worker, some under a shared load): mean {secs(held['mean_s'])}, "
             f"median {secs(held['median_s'])}, 95% under {secs(held['p95_s'])}, the longest "
             f"{secs(held['max_s'])}; {held['over_60_s']} over a minute.")
    return (f"How Q({rec.rows[0]['n']}) is cut into tasks: tasks of each split drawn at random (seed "
            f"{rec.data['seed']}) and the first two of the centre-queen case, each timed on one core "
            f"(CPU time), the two splits in turn. Making both lists of tasks took "
            f"{secs(rec.data['split_seconds'])}, the quarter table's index included.\n\n"
            + table(["split", "tasks", "timed", "mean", "median", "longest", "centre case, first two",
                     "over a minute"], rows)
            + whole)


@renders("benchmarks", "queens-spread")
def bench_spread(src: Sources) -> str:
    rec = src.use("queens_assembly_spread.json")
    rows = []
    for r in rec.rows:
        name = f"queens_assembly_n{r['n']}.json"
        run = src.use(name).rows[0] if name in RECORDS else None
        rows.append([r["n"], num(r["row_sets"]), num(r["sampled"]), secs(r["estimate_cpu_s"]),
                     f"{secs(r['low_cpu_s'])} to {secs(r['high_cpu_s'])}", f"{r['spread']:.2f}×",
                     secs(run["cpu_s"]) if run else "no run recorded",
                     f"{r['estimate_cpu_s'] / run['cpu_s']:.2f}×" if run else "—"])
    return (f"`queens estimate` over {rec.rows[0]['seeds']} seeds ({rec.data['samples']} row sets a "
            "seed, each timed in the CPU time of its thread): the mean of the seeds' estimates, the "
            "least and the most one seed gave, and the CPU time of the run of n, all its sittings "
            "together, where one was made. A run may have been made on other days and hosts than "
            "the estimate (the sources say which):\n\n"
            + table(["n", "row sets", "timed", "estimate (CPU)", "one seed", "spread", "the run (CPU)",
                     "estimate / run"], rows))


@renders("benchmarks", "queens-estimate-check")
def bench_estimate_check(src: Sources) -> str:
    rec = src.use("queens_assembly_estimate_check.json")
    rows = [[r["n"], r["kernels"], ", ".join(secs(x) for x in r["estimates_cpu_s"]), secs(r["count_cpu_s"]),
             f"{r['least_ratio']:.2f} to {r['most_ratio']:.2f}"] for r in rec.rows]
    return ("Each seed's `queens estimate` of n against the whole count of n by its tasks, both in one "
            "process and one thread and timed in its CPU time, with the kernels of a one-worker count:\n\n"
            + table(["n", "kernels", "estimates (CPU), one a seed", "the count (CPU)", "count / estimate"],
                    rows))


@renders("benchmarks", "queens-cold")
def bench_cold(src: Sources) -> str:
    rec = src.use("queens_assembly_cold.json")
    first = [[r["kernels"], secs(r["seconds"]), ", ".join(secs(x) for x in r["runs"]), secs(r["cpu_s"]),
              "yes" if r["built_in_cache"] else "no",
              f"{at_most(r['target_s'])}: {_met(r['met'])}" if "target_s" in r else ""] for r in rec.rows]
    builds = [[r["n"], r["build"], secs(r["cpu_s"]), ", ".join(secs(x) for x in r["runs"])]
              for r in rec.data["builds"]]
    return (f"The first count of Q({rec.rows[0]['n']}) on 2 workers, each run with empty kernel caches "
            f"of its own: with the kernels the install carries (`{rec.data['packaged']}`, compiled for "
            f"{rec.data['packaged_cpu']}), and with the JIT kernels, which compile first; the runs "
            "taken in turn:\n\n"
            + table(["kernels", "wall time (median)", "runs", "CPU", "compiled in the cache", "target"],
                    first)
            + "\n\nThe builds of the kernels, each in one process on one core, the runs taken in turn "
              "(CPU time, the least of the runs):\n\n"
            + table(["n", "build", "CPU", "runs"], builds))
