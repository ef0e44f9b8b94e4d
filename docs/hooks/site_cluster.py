"""The tables of a Dask cluster's run, rendered from benchmarks/results/cluster.json
(``benchmarks/cluster.py``): every --scheduler command against its local run, the speed
of a threaded cluster, the faults and the refusals. Importing this module registers its
renderers with site_tables.
"""

from __future__ import annotations

from site_tables import Sources, renders, secs, table


@renders("benchmarks", "cluster")
def bench_cluster(src: Sources) -> str:
    rec = src.use("cluster.json")
    data = rec.data
    same = [[f"`{r['command']}`", "yes" if r["same"] else "**no**", secs(r["local"]), secs(r["cluster"])]
            for r in rec.rows]
    speed = data["speed"]
    ratio = speed["ratio"]
    faults = []
    for r in data["faults"]:
        if "extra_seconds" in r:
            what = "the right answer" if r["right"] else "**a wrong answer**"
            faults.append([r["case"], r["exit"], f"{what}, {secs(r['seconds'])} "
                           f"({secs(r['extra_seconds'])} more than the cluster's median)"])
        else:
            kept = f"{r['kept_tasks']} of {r['tasks']} tasks kept"
            rerun = "resumed to the right answer" if r["rerun_right"] else "**the rerun failed**"
            faults.append([r["case"], r["exit"], f"one line after {secs(r['ended_after_seconds'])}; {kept}; "
                           f"{rerun} in {secs(r['rerun_seconds'])}"])
    bad = [[r["case"], r["exit"], r["lines"], secs(r["seconds"])] for r in data["bad_input"]]
    return (f"On {data['cluster']}: {data['same']} commands give the local answer (text and JSON, "
            "timings aside).\n\n"
            + table(["command", "same answer", "--workers 2", "on the cluster"], same)
            + f"\n\n`{speed['command']}` on the cluster: "
            f"{', '.join(secs(t) for t in speed['cluster_2x2_threads'])}, against "
            f"{', '.join(secs(t) for t in speed['local_workers_2'])} with `--workers 2`: "
            f"{ratio:.2f}× (target ≤ 1.3×: {'met' if ratio <= 1.3 else '**missed**'}). The scheduler, "
            "both workers and the run share the machine's cores.\n\n"
            + table(["fault", "exit", "what the run did"], faults)
            + "\n\n" + table(["bad input", "exit", "lines on stderr", "wall time"], bad))
