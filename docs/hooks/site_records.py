"""The saved benchmark records (benchmarks/results/*.json), as the site reads them.

Every figure on the site's Results and Benchmarks pages comes from one of these records,
and each table names its record, the date, the machine and the command under it. The
records were written by different scripts at different times, so they differ in shape:
the date is ``machine.date`` (or the start of a run written by hand), the load average
has four spellings, and only some rows carry the command line. This module hides those
differences behind :class:`Record`.

:data:`CATALOG` knows every record file: whether it is a *frontier* record (a result at
the edge of what this program has computed, which the Results page must show with its
date) and which run of which benchmark script writes it. A record file the catalog does
not know stops the build (:func:`check_catalog`), so a new result cannot be left off the
site unnoticed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"


@dataclass(frozen=True)
class Entry:
    """What the site knows of one record file."""

    frontier: bool
    #: the run of a benchmark script that writes the record (None: the record is of a command
    #: run by hand, which it holds itself)
    script: Callable[[dict], str | None]
    #: whether the script's options are read from the record's fields (its sizes, seconds,
    #: workers...), rather than the script's defaults
    from_fields: bool = True


def _fixed(text: str | None) -> Callable[[dict], str | None]:
    return lambda data: text


def _script(text: str | None, frontier: bool = False) -> Entry:
    """A record written by a script run with these options (its defaults, as its usage says)."""
    return Entry(frontier, _fixed(text), from_fields=False)


def _frontier16(data: dict) -> str:
    row = data["rows"][0]
    given = (row.get("start") or {}).get("given")
    if given is None:  # from an empty store, as f(15)'s
        return f"python benchmarks/topswops.py --frontier {row['n']}"
    deck = " ".join(str(c) for c in given["deck"])
    return (f"python benchmarks/topswops.py --frontier {row['n']} --start '{deck}' "
            "--store benchmarks/runs/topswops-store.sqlite --checkpoint benchmarks/runs/f16.sqlite")


def _long(data: dict) -> str:
    """`--long` with the options its rows show (each row keeps its n, seconds and workers)."""
    rows = [r for r in data["rows"] if r.get("case") == "long"]
    ns = [r["n"] for r in rows]
    seconds = {r["seconds"] for r in rows}
    workers = {r["workers"] for r in rows}
    sizes = "--primes" if min(ns) == 29 else f"--sizes {min(ns)}-{max(ns)}"
    return (f"python benchmarks/topswops.py --long {sizes} --seconds {seconds.pop():g} "
            f"--workers {workers.pop()}")


def _named(run: Callable[[dict], str], name: str) -> Callable[[dict], str]:
    return lambda data: f"{run(data)} --out {name}"


def _scale(data: dict) -> str:
    ns = " ".join(str(r["n"]) for r in data["rows"])
    return f"python benchmarks/scale.py --ns {ns}" + (" --f15" if "f15" in data else "")


def _n20(data: dict) -> str:
    return f"python benchmarks/queens.py --n20 {data['rows'][0]['checkpoint']}"


def _survey(data: dict) -> str:
    table = data["table"]
    return f"python benchmarks/games.py --survey --digits {table['digits']} --count {table['count']}"


def _sidebyside(data: dict) -> str:
    only = "".join(f" --only {r['case']}" for r in data["rows"]) if len(data["rows"]) < 6 else ""
    # OTHER/src: the tree before the change, a checkout in a temporary folder of the machine
    return f"python benchmarks/sidebyside.py --before OTHER/src --repeats {data['repeats']}{only}"


#: every record file in benchmarks/results/, with the script run that writes it; the script
#: runs are read off the scripts' usage lines and the records' own fields
CATALOG: dict[str, Entry] = {
    "topswops.json": _script("python benchmarks/topswops.py"),
    "topswops_f15.json": _script("python benchmarks/topswops.py --frontier 15", True),
    "topswops_f16.json": Entry(True, _frontier16),
    "topswops_long.json": Entry(True, _long),
    "topswops_long_18_23.json": Entry(True, _named(_long, "topswops_long_18_23")),
    "topswops_long_primes.json": Entry(True, _named(_long, "topswops_long_primes")),
    "topswops_long_estimate.json": Entry(False, lambda data: data["note"], from_fields=False),
    "topswops_long_deadline.json": _script("python benchmarks/topswops.py --deadline"),
    "topswops_wide.json": _script("python benchmarks/topswops.py --wide"),
    "topswops_plan_17.json": _script("python benchmarks/topswops.py --plan 17 --seconds 60"),
    # KNUTH: the folder of a build of Knuth's program (the record names the build it timed)
    "topswops_knuth.json": _script("python benchmarks/topswops_knuth.py --knuth KNUTH "
                                   "--knuth-flags 'gcc -O2' --n 14 --repeats 3"),
    "scale.json": Entry(False, _scale),
    "queens.json": _script("python benchmarks/queens.py"),
    "queens_n20.json": Entry(True, _n20),
    "queens_solve.json": _script("python benchmarks/queens.py --solve"),
    "queens_assembly.json": _script(None),  # keeps its command line
    "queens_assembly_n20.json": _script(None, True),  # each keeps its command line
    "queens_assembly_n21.json": _script(None, True),
    "queens_assembly_n22.json": _script(None, True),
    "queens_assembly_n23.json": _script(None, True),
    "queens_assembly_estimates.json": _script(None),
    "queens_assembly_spread.json": _script(None),  # keeps its command line
    "queens_assembly_estimate_check.json": _script(None),  # keeps its command line
    "queens_assembly_sidebyside.json": _script(None),  # keeps its command line
    "queens_assembly_cold.json": _script(None),  # keeps its command line
    "queens_assembly_split_n23.json": _script(None),  # keeps its command line
    "pancake_13.json": _script(None, True),
    "layers.json": _script("python benchmarks/layers.py", True),
    "shuffle.json": _script("python benchmarks/shuffle.py"),
    "hanoi.json": _script("python benchmarks/hanoi.py"),
    "games.json": _script("python benchmarks/games.py"),
    "games_frontier.json": _script("python benchmarks/games.py --frontier", True),
    "games_frontier_billion.json": _script("python benchmarks/games.py --frontier --billion", True),
    "games_survey_3_100000.json": Entry(True, _survey),
    "games_subtraction.json": _script("python benchmarks/games.py --subtraction"),
    "sidebyside.json": Entry(False, _sidebyside),
    "sidebyside-queens17.json": Entry(False, _sidebyside),
    "sidebyside-queens17-grundys2e6-pancake11.json": Entry(False, _sidebyside),
    "safety.json": _script("python benchmarks/safety.py"),
    "cluster.json": _script("python benchmarks/cluster.py"),
    "perm.json": _script("python benchmarks/perm.py"),
    "perm_peers.json": _script("python benchmarks/perm_peers.py --twsearch PATH/twsearch "
                               "--samples PATH/samples/main --repeats 3"),
    "perm_peers_all.json": _script("python benchmarks/perm_peers.py --twsearch PATH/twsearch "
                                   "--samples PATH/samples/main --all --repeats 1 --budget 4500 "
                                   "--name perm_peers_all"),
    "perm_peers_all_large.json": _script("python benchmarks/perm_peers.py --twsearch PATH/twsearch "
                                         "--samples PATH/samples/main --all --only turnstile m24conway "
                                         "--repeats 1 --twsearch-limit 600 --name perm_peers_all_large"),
    "perm_limits.json": _script("python benchmarks/perm_limits.py"),
    "wheel_smoke.json": _script("python benchmarks/wheel_smoke.py"),
}

#: the N-Queens counts across sittings or runs of their own (queens_assembly_nN.json), by n
_FRONTIER = r"queens_assembly_n(\d+)\.json"
QUEENS_FRONTIER = tuple(sorted((name for name in CATALOG if re.fullmatch(_FRONTIER, name)),
                               key=lambda name: int(re.fullmatch(_FRONTIER, name).group(1))))


class CatalogError(Exception):
    """A record file the site does not know, or a frontier record no page shows."""


def record_files() -> list[str]:
    return sorted(p.name for p in RESULTS.glob("*.json"))


def frontier_files() -> list[str]:
    return [name for name, entry in CATALOG.items() if entry.frontier]


def check_catalog() -> None:
    """Every record file is in CATALOG, and every CATALOG entry has its file."""
    files = record_files()
    for name in files:
        if name not in CATALOG:
            raise CatalogError(f"benchmarks/results/{name}: a record no page of the site renders; "
                               "add it to CATALOG in docs/hooks/site_records.py and give it a table")
    for name in CATALOG:
        if name not in files:
            raise CatalogError(f"benchmarks/results/{name}: in CATALOG (docs/hooks/site_records.py) "
                               "but no such record")


def _one_minute(value: object) -> float | None:
    return float(value[0]) if isinstance(value, list) and value else None


@dataclass(frozen=True)
class Record:
    """One record file, read."""

    name: str
    data: dict

    @property
    def path(self) -> str:
        return f"benchmarks/results/{self.name}"

    @property
    def rows(self) -> list[dict]:
        return self.data.get("rows", [])

    @property
    def date(self) -> str:
        """YYYY-MM-DD: the day the script ran (or the start of a hand-run command)."""
        if "machine" in self.data and "date" in self.data["machine"]:
            return self.data["machine"]["date"]
        return self.data["started"][:10]

    @property
    def when(self) -> str:
        """The date, with the start time of the run where the record keeps one."""
        started = self.data.get("started") or next((r["started"] for r in self.rows if "started" in r), None)
        if started and started[:10] == self.date:
            ended = self.data.get("ended")
            span = f"{started[11:16]}–{ended[11:16]}" if ended else f"started {started[11:16]}"
            return f"{self.date}, {span} UTC"
        return self.date

    @property
    def machine(self) -> str:
        m = self.data["machine"]
        processor = m.get("cpu") or m.get("processor") or m.get("machine")
        cores = "" if "core" in processor else f", {m['cpus']} CPUs"
        return f"{processor}{cores}, Python {m['python']}"

    @property
    def load(self) -> str | None:
        """The 1-minute load average at the start and end of the run, as the record keeps it."""
        d = self.data
        if isinstance(d.get("load"), str):
            return d["load"]
        start = (_one_minute(d.get("load_average_before")) or _one_minute(d.get("loadavg_start"))
                 or _one_minute(d.get("load_average_start")))
        end = (_one_minute(d.get("load_average_after")) or _one_minute(d.get("load_average_end"))
               or _one_minute(d.get("loadavg_end")))
        both = d.get("load_average")
        if isinstance(both, list) and both:
            if isinstance(both[0], list):  # [before, after], each the three load averages
                start, end = both[0][0], both[-1][0]
            elif len(both) == 2:  # [before, after], 1-minute each
                start, end = both
            else:  # the three load averages at the start
                start = both[0]
        uptime = next((r["load_at_start"] for r in self.rows if "load_at_start" in r), "")
        if start is None and "load average:" in uptime:  # `uptime`'s line, kept by a hand-run command
            start = float(uptime.split("load average:")[1].split(",")[0])
        parts = [f"{v:.2f} at the {when}" for v, when in ((start, "start"), (end, "end")) if v is not None]
        return "load average " + ", ".join(parts) if parts else None

    @property
    def commands(self) -> list[str]:
        """The command lines the record holds (top level and per row), in order, once each."""
        found = [self.data["command"]] if "command" in self.data else []
        for row in self.rows:
            if "command" in row and row["command"] not in found:
                found.append(row["command"])
        return found

    @property
    def script(self) -> str | None:
        return CATALOG[self.name].script(self.data)

    @property
    def script_from_fields(self) -> bool:
        return CATALOG[self.name].from_fields

    @property
    def frontier(self) -> bool:
        return CATALOG[self.name].frontier


@cache
def _read(name: str, mtime: float) -> dict:
    return json.loads((RESULTS / name).read_text())


def load(name: str) -> Record:
    """The record benchmarks/results/NAME (read again when the file changes)."""
    path = RESULTS / name
    if not path.exists():
        raise CatalogError(f"benchmarks/results/{name}: no such record")
    return Record(name, _read(name, path.stat().st_mtime))


#: where the built site keeps a copy of each record, so that a record's name links to it
SITE_FOLDER = "records"
#: a record's name written as code, not yet a link: `benchmarks/results/NAME.json`
NAMED = re.compile(r"(?<!\[)`benchmarks/results/([\w.-]+\.json)`(?!\])")


def site_files() -> dict[str, bytes]:
    """The records as files of the built site: records/NAME.json, each as it is saved."""
    return {f"{SITE_FOLDER}/{name}": (RESULTS / name).read_bytes() for name in record_files()}


def link_records(markdown: str, page_path: str) -> str:
    """Each record named as code on a page becomes a link to the site's copy of it (a name
    that is no record is left as it is, for the build's own checks to name)."""
    up = "../" * page_path.count("/")
    known = set(record_files())

    def link(match: re.Match) -> str:
        name = match.group(1)
        return f"[{match.group(0)}]({up}{SITE_FOLDER}/{name})" if name in known else match.group(0)

    return NAMED.sub(link, markdown)
