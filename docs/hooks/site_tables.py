"""The tables of the Results and Benchmarks pages, rendered from the saved records.

A page asks for a table with a line of its own, ``{{ results: NAME }}`` or
``{{ benchmarks: NAME }}`` (``{{ home: gallery }}``: the home page's pictures and
captions); :func:`render` returns the Markdown for it: the table, then its sources (each
record used, with its date, machine, load and command; the small cases computed while
the site was built, with the call that computed them). Renderers take what they show
from the records (site_records) and from site_computed, never from a typed list of
values; what a script only states in its usage (a target, a reference program) is said
in words that name the script.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import site_computed
import site_records
from site_records import Record

# ---------------------------------------------------------------------------- formatting


def num(value: int | float | None) -> str:
    """An integer with thousands separators, as the README writes them."""
    return "—" if value is None else f"{int(value):,}"


def secs(value: float | None) -> str:
    """A duration: 3 significant digits under 10 minutes, then minutes and seconds, then hours."""
    if value is None:
        return "—"
    if value < 0.1:
        return f"{value * 1000:.3g} ms"
    if value < 1:
        return f"{value:.3f} s"
    if value < 10:
        return f"{value:.2f} s"
    if value < 100:
        return f"{value:.1f} s"
    if value < 600:
        return f"{value:.0f} s"
    minutes, seconds = divmod(round(value), 60)
    if minutes < 120:
        return f"{minutes} min" + (f" {seconds} s" if seconds else "")
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h" + (f" {minutes} min" if minutes else "")


def at_most(value: float) -> str:
    """A target time, as the script states it."""
    return f"≤ {value:g} s" if value < 600 else f"≤ {secs(value)}"


def run_length(value: float) -> str:
    """A time limit the run was given (--seconds): as given, no digits added."""
    return secs(value) if value >= 600 else f"{value:g} s"


def across(label: str, values: dict[int, list[object]], names: list[str]) -> str:
    """A small table with n across: one row of n, one row per name (values[n][i])."""
    ns = sorted(values)
    rows = [[name] + [values[n][i] for n in ns] for i, name in enumerate(names)]
    return table([label] + [str(n) for n in ns], rows)


def mib(value: float | None) -> str:
    return "—" if value in (None, "") else f"{float(value):,.0f} MiB"


def deck(cards: list[int] | tuple[int, ...]) -> str:
    return "`" + " ".join(str(c) for c in cards) + "`"


def cell(value: object) -> str:
    text = str(value)
    return text.replace("|", "\\|")


#: the characters of a line of the site's code blocks (tests/test_docs_layout.py)
CODE_COLUMN = 80


def code_line(text: str, column: int = CODE_COLUMN) -> str:
    """A command for a code block: wrapped before an option, with a backslash at the end
    of each line but the last, as a shell continues it, so that it fits the column."""
    lines, rest = [], text
    while len(rest) > column:
        cuts = [m.start() for m in re.finditer(r" (?=[-\[])", rest) if 0 < m.start() <= column - 2]
        if not cuts:
            break
        lines.append(rest[:cuts[-1]] + " \\")
        rest = "  " + rest[cuts[-1] + 1:]
    return "\n".join([*lines, rest])


def table(header: list[str], rows: list[list[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def medians(rows: list[dict]) -> str:
    """How many runs each median is of, as the rows' `runs` lists say."""
    counts = sorted({len(r["runs"]) for r in rows if "runs" in r})
    if counts == [1]:
        return "one run each"
    return "median of " + " or ".join(str(c) for c in counts) + " runs"


def parse_check(text: str) -> tuple:
    """The `check` field of the games records: a Python literal, a tuple or one number."""
    value = ast.literal_eval(text)
    return value if isinstance(value, tuple) else (value,)


# ---------------------------------------------------------------------------- sources


#: an absolute path in a command a record keeps: the folders of the machine it ran on
MACHINE_PATH = re.compile(r"(?<![\w/])/(?:[\w.+-]+/)+([\w.+-]+)")


def _portable(text: str) -> str:
    """A command without the machine's folders: a file of the clone from the clone's root
    (benchmarks/...), any other by its name alone."""
    def short(match: re.Match) -> str:
        path = match.group(0)
        inside = path.find("/benchmarks/")
        return path[inside + 1:] if inside >= 0 else match.group(1)

    return MACHINE_PATH.sub(short, text)


def _command(text: str) -> str:
    """A command as code; a remark the record keeps after it, in parentheses, as text."""
    text = _portable(text)
    match = re.fullmatch(r"(.*?) \((.*)\)", text, re.S)
    if match and match.group(1).startswith(("puzzlesearch", "python")):
        return f"`{match.group(1)}` ({match.group(2)})"
    return f"`{text}`"


def source_line(record: Record) -> str:
    """One line naming the record, its date, machine, load and command."""
    parts = [f"`{record.path}`", record.when, record.machine]
    if record.load:
        parts.append(record.load)
    commands = record.commands
    script = record.script
    if commands:
        shown = "; ".join(_command(c) for c in commands[:1])
        more = f" (and {len(commands) - 1} more, in the table)" if len(commands) > 1 else ""
        parts.append(f"command {shown}{more}")
        if script:
            parts.append(f"run by `{script}`")
    elif script and script.startswith("python "):
        how = "; its options read from the record's fields" if record.script_from_fields else ""
        parts.append(f"written by `{script}` (the record keeps no command line{how})")
    elif script:
        parts.append(f"written by {script}")
    return " · ".join(parts)


@dataclass
class Sources:
    """The records (and build-time computations) one table was made from."""

    records: list[Record] = field(default_factory=list)
    computed: list[str] = field(default_factory=list)

    def use(self, name: str) -> Record:
        record = site_records.load(name)
        if record.name not in [r.name for r in self.records]:
            self.records.append(record)
        return record

    def build(self, call: str) -> str:
        if call not in self.computed:
            self.computed.append(call)
        return "computed at build"

    def markdown(self) -> str:
        if not self.records and not self.computed:
            return ""
        lines = [f"- {source_line(r)}" for r in self.records]
        lines += [f"- computed while this site was built: {c}" for c in self.computed]
        return "Sources:\n\n" + "\n".join(lines)


Renderer = Callable[[Sources], str]
RESULTS: dict[str, Renderer] = {}
BENCHMARKS: dict[str, Renderer] = {}
#: tables whose figures the page links to elsewhere (the home page's gallery): no sources block
HOME: dict[str, Renderer] = {}
PAGES = {"results": RESULTS, "benchmarks": BENCHMARKS, "home": HOME}


def renders(page: str, name: str) -> Callable[[Renderer], Renderer]:
    def register(fn: Renderer) -> Renderer:
        PAGES[page][name] = fn
        return fn
    return register


class UnknownTable(KeyError):
    pass


def render(page: str, name: str) -> tuple[str, list[Record]]:
    """The Markdown of table NAME for PAGE ('results' or 'benchmarks') and the records it used."""
    if name not in PAGES.get(page, {}):
        known = ", ".join(sorted(PAGES.get(page, {})))
        raise UnknownTable(f"no {page} table named {name!r} (known: {known})")
    sources = Sources()
    body = PAGES[page][name](sources)
    if page == "home":
        return body.rstrip() + "\n", sources.records
    return f"{body}\n\n{sources.markdown()}".rstrip() + "\n", sources.records


# ---------------------------------------------------------------------------- Results: Topswops


@renders("results", "topswops")
def topswops_f(src: Sources) -> str:
    small = site_computed.topswops_optimal()
    src.build(f"`topswops.optimal(n)` for n = 1..{site_computed.TOPSWOPS_UPTO} (the first table)")
    first = across("n", {n: [steps, len(decks)] for n, (steps, decks) in small.items()},
                   ["f(n)", "decks reaching f(n)"])
    rows = []
    for r in sorted(src.use("topswops.json").rows, key=lambda r: (r["n"], r["search"])):
        rows.append([r["n"], r["f(n)"], r["decks"], f"{r['search']}, 1 core", num(r["nodes"]),
                     secs(r["seconds"]), "topswops.json"])
    scale = src.use("scale.json").data["f15"]
    rows.append([15, scale["f(n)"], scale["decks"], "forward, 2 workers", num(scale["nodes"]),
                 secs(scale["wall_s"]), "scale.json"])
    f15 = src.use("topswops_f15.json").rows[0]
    f16 = src.use("topswops_f16.json").rows[0]
    for name, r in (("topswops_f15.json", f15), ("topswops_f16.json", f16)):
        rows.append([r["n"], f"**{r['f(n)']}**", len(r["decks"]), frontier_search(r), num(r["nodes"]),
                     secs(r["seconds"]), name])
    text = table(["n", "f(n)", "decks", "search", "nodes", "wall time", "record"], rows)
    decks = [f"- f({n}) = {steps}: " + ", ".join(deck(d) for d in decks_n)
             for n, (steps, decks_n) in small.items() if n >= 5]
    decks += [f"- f(15) = {f15['f(n)']}: " + ", ".join(deck(d) for d in f15["decks"]),
              f"- f(16) = {f16['f(n)']}: " + ", ".join(deck(d) for d in f16["decks"])]
    return (first + "\n\n" + text + "\n\nThe decks reaching f(n), each replayed by the plain rules "
            "before it is printed:\n\n" + "\n".join(decks) + "\n\n"
            "f(n) is OEIS [A000375](https://oeis.org/A000375) and the number of decks reaching it "
            "[A123398](https://oeis.org/A123398); the tests hold both to the published values.")


def frontier_search(row: dict) -> str:
    """How a frontier run of `benchmarks/topswops.py --frontier` searched, from its record:
    deep (a bottom bound was used) or Knuth's, and from a deck it was given or not."""
    start = row.get("start") or {}
    how = "deep forward" if start.get("bottom") else "forward"
    return how + ", 2 workers" + (", from a given deck" if start.get("given") else "")


def _long_rows(src: Sources) -> list[dict]:
    """The longest deck of each n above 16 over the frontier `topswops long` records."""
    best: dict[int, tuple[dict, str]] = {}
    for name in ("topswops_long.json", "topswops_long_18_23.json", "topswops_long_primes.json"):
        for r in src.use(name).rows:
            if r["n"] > 16 and (r["n"] not in best or r["best"] > best[r["n"]][0]["best"]):
                best[r["n"]] = (r, name)
    return [dict(r, record=name) for _, (r, name) in sorted(best.items())]


@renders("results", "topswops-long")
def topswops_long(src: Sources) -> str:
    rows, decks = [], []
    for r in _long_rows(src):
        published = "—" if r["f(n)"] is None else r["f(n)"]
        workers = f"{r['workers']} worker" + ("s" if r["workers"] != 1 else "")
        rows.append([r["n"], f"**{num(r['best'])}**", published,
                     f"{secs(r['at_s'])} of {run_length(r['seconds'])}, {workers}",
                     r["record"]])
        decks.append(f"- n = {r['n']}, {r['best']} reversals ({r['method']}): {deck(r['deck'])}")
    head = ["n", "longest game found", "published f(n)", "found after", "record"]
    return (table(head, rows) + "\n\n??? note \"The decks\"\n\n" + "\n".join("    " + d for d in decks)
            + "\n\nEach length is a lower bound on f(n): the deck was replayed with the plain rules "
            "before it was printed; `topswops long` proves nothing. The published column is the "
            "value the benchmark compared with, kept in the record (OEIS "
            "[A000375](https://oeis.org/A000375); for n = 22 and 23 the best known decks).")


# ---------------------------------------------------------------------------- Results: N-Queens


@renders("results", "queens")
def queens_q(src: Sources) -> str:
    small = site_computed.queens_counts()
    src.build(f"`queens.count(n)` for n = 1..{site_computed.QUEENS_UPTO} (the first table)")
    first = across("n", {n: [num(a), num(u)] for n, (a, u) in small.items()}, ["Q(n)", "unique"])
    rows = []
    best: dict[int, dict] = {}  # n -> the constellation row with the most workers
    for r in src.use("queens.json").rows:
        if r.get("method") == "constellation" and r["workers"] >= best.get(r["n"], {"workers": 0})["workers"]:
            best[r["n"]] = r
    for n, r in sorted(best.items()):
        rows.append([n, num(r["solutions"]), num(r["unique"]), r["workers"], secs(r["seconds"]),
                     "queens.json"])
    q20 = src.use("queens_n20.json").rows[0]
    done = q20["resumed"]
    rows.append([20, f"**{num(q20['solutions'])}**", f"**{num(q20['unique'])}**", q20["workers"],
                 f"resumed run: {secs(q20['seconds'])} for its last {1000 - done['tasks_done_before']:,} "
                 f"of {q20['tasks']:,} tasks; about {num(done['cpu_total_estimated_s'])} CPU-s in all",
                 "queens_n20.json"])
    return (first + "\n\n" + table(["n", "Q(n)", "unique", "workers", "wall time", "record"], rows)
            + "\n\nQ(n) is OEIS [A000170](https://oeis.org/A000170) and the unique count "
            "[A002562](https://oeis.org/A002562); the benchmark checks every count against them. The "
            "counts in this table are by start constellations; the corner/rotation method (the "
            "cross-check) gives the same counts in `queens.json`, and the assembly method in "
            "`queens_assembly.json`.")


# ---------------------------------------------------------------------------- Results: pancakes


def _layers(src: Sources) -> dict[str, dict]:
    return {r["case"]: r for r in src.use("layers.json").rows}


def _shuffle_rows(src: Sources) -> dict[str, dict]:
    return {r["case"]: r for r in src.use("shuffle.json").rows}


def pancake_histograms(src: Sources) -> dict[str, list[int]]:
    """label -> stacks at each distance, from the records (layers.json, pancake_13.json)."""
    layers = _layers(src)
    found = {f"{n} pancakes": layers[f"pancake god n={n}"]["histogram"] for n in (11, 12)}
    found["13 pancakes"] = src.use("pancake_13.json").data["result"]["histogram"]
    for n in (9, 10):
        found[f"{n} burnt pancakes"] = layers[f"burnt pancakes n={n}"]["histogram"]
    return found


@renders("results", "pancakes")
def pancakes(src: Sources) -> str:
    shuffle = _shuffle_rows(src)
    layers = _layers(src)
    p13 = src.use("pancake_13.json")
    rows = []
    r = shuffle["pancake god n=10"]
    rows.append(["10", num(r["states"]), f"**{r['answer']}**", "—", secs(r["seconds"]), mib(r["peak MiB"]),
                 "shuffle.json"])
    for n in (11, 12):
        r = layers[f"pancake god n={n}"]
        hist = r["histogram"]
        rows.append([str(n), num(sum(hist)), f"**{len(hist) - 1}**", num(r["farthest_count"]),
                     secs(r["seconds"]), mib(r["peak MiB"]), "layers.json"])
    res = p13.data["result"]
    rows.append(["13", num(res["stacks"]), f"**{res['diameter']}**", num(res["farthest_count"]),
                 secs(p13.data["wall_seconds"]), mib(p13.data["peak_rss_kib"] / 1024), "pancake_13.json"])
    for n in (9, 10):
        r = layers[f"burnt pancakes n={n}"]
        hist = r["histogram"]
        rows.append([f"{n} burnt", num(sum(hist)), f"**{len(hist) - 1}**", num(r["farthest_count"]),
                     secs(r["seconds"]), mib(r["peak MiB"]), "layers.json"])
    head = ["pancakes", "stacks", "most flips needed", "stacks that far", "wall time", "peak memory",
            "record"]
    hists = pancake_histograms(src)
    longest = max(len(h) for h in hists.values())
    dist_rows = [[k] + [num(h[k]) if k < len(h) else "" for h in hists.values()] for k in range(longest)]
    return (table(head, rows)
            + "\n\nThe most flips needed is the pancake number p(n), OEIS "
            "[A058986](https://oeis.org/A058986), and for burnt pancakes OEIS "
            "[A078941](https://oeis.org/A078941); every diameter above equals the published one. "
            f"The record of 13 pancakes also lists its checks: {'; '.join(p13.data['checks'])}.\n\n"
            "Stacks at each distance from the sorted stack (the rows of n ≤ 10 are OEIS "
            "[A092113](https://oeis.org/A092113), which the tests hold the same engine to):\n\n"
            + table(["flips"] + list(hists), dist_rows))


@renders("results", "shuffle")
def block_shuffles(src: Sources) -> str:
    shuffle = _shuffle_rows(src)
    layers = _layers(src)
    rows = []
    for n in (5, 6, 7, 8):
        r = shuffle[f"solve n={n}"]
        rows.append([f"{2 * n} cards, blocks of {n}", "reverse the deck", f"**{r['answer']}** moves",
                     f"{num(r['states'])} decks stored", secs(r["seconds"]), "shuffle.json"])
    r = layers["shuffle solve n=8"]
    rows.append(["16 cards, blocks of 8", "reverse the deck", f"**{r['answer']}**", "—", secs(r["seconds"]),
                 "layers.json"])
    r = shuffle["god n=5"]
    rows.append(["10 cards, blocks of 5", "every order (diameter)", f"**{r['answer']}** moves",
                 f"{num(r['states'])} orders", secs(r["seconds"]), "shuffle.json"])
    r = layers["shuffle god n=6"]
    hist = r["histogram"]
    rows.append(["12 cards, blocks of 6", "every even order (diameter)", f"**{len(hist) - 1}** moves",
                 f"{num(sum(hist))} orders, {num(r['farthest_count'])} at the diameter", secs(r["seconds"]),
                 "layers.json"])
    return table(["deck", "question", "answer", "size", "wall time", "record"], rows)


# ---------------------------------------------------------------------------- Results: Hanoi


def hanoi_histogram(src: Sources) -> list[int]:
    return _layers(src)["hanoi 4 pegs n=16"]["histogram"]


@renders("results", "hanoi")
def hanoi_bfs(src: Sources) -> str:
    rows = []
    for r in src.use("hanoi.json").rows:
        if "pegs" in r:
            rows.append([r["pegs"], r["n"], num(r["positions"]), r["BFS moves"], r["Frame-Stewart"],
                         r["farthest"], secs(r["process s"]), "hanoi.json"])
    r = _layers(src)["hanoi 4 pegs n=16"]
    hist = hanoi_histogram(src)
    tower = int(r["answer"].split()[1])
    rows.append([4, 16, num(sum(hist)), f"**{tower}**", tower, len(hist) - 1, secs(r["seconds"]),
                 "layers.json"])
    return (table(["pegs", "discs", "positions", "moves, tower to tower (BFS)", "Frame–Stewart",
                   "farthest position from the tower", "wall time", "record"], rows)
            + "\n\nThe breadth-first search visits every position and confirms the Frame–Stewart "
            "number (OEIS [A007664](https://oeis.org/A007664), proven optimal for 4 pegs by Bousch, "
            "2014).")


# ---------------------------------------------------------------------------- Results: Grundy


@renders("results", "grundys")
def grundys(src: Sources) -> str:
    rows, rare_counts = [], []
    for name in ("games.json", "games_frontier.json", "games_frontier_billion.json"):
        for r in src.use(name).rows:
            power = re.fullmatch(r"Grundy's game to 10\^(\d+)", r["case"])
            if power:
                largest, rare = parse_check(r["check"])
                rare_counts.append((power.group(1), rare))
                rows.append([f"10<sup>{power.group(1)}</sup>", f"**{largest}**", num(rare),
                             secs(r["seconds"]), mib(r["peak MiB"]), name])
    src.build(f"`games.grundys_values({site_computed.GRUNDYS_HEAPS})` for the picture")
    (first, few), (last, many) = rare_counts[0], rare_counts[-1]
    return (table(["heaps", "largest value", "rare heaps", "wall time", "peak memory", "record"], rows)
            + "\n\nGrundy's game: split a heap into two unequal heaps. Its first values are OEIS "
            "[A002188](https://oeis.org/A002188); whether they are eventually periodic is not known. "
            "A value v is *rare* when v & m has an even number of bits, for a mask m the program "
            "chooses (the rare and common values of Gangolli and Plambeck 1989): "
            f"{num(few)} of the first 10<sup>{first}</sup> heaps are rare and {num(many)} of the "
            f"first 10<sup>{last}</sup>. The XOR of two values is common only when exactly one of "
            "them is rare, so scanning the few rare heaps finds every common value a heap reaches; "
            f"that is what makes 10<sup>{last}</sup> heaps feasible.")


@renders("results", "octal")
def octal(src: Sources) -> str:
    rows = []
    names = {"Kayles 0.77 to 10^5": ("0.77", "Kayles", "[A002186](https://oeis.org/A002186)"),
             "Dawson's Kayles 0.07 to 10^5": ("0.07", "Dawson's Kayles",
                                             "[A002187](https://oeis.org/A002187), shifted by one")}
    for r in src.use("games.json").rows:
        if r["case"] in names:
            code, game, oeis = names[r["case"]]
            period, preperiod = parse_check(r["check"])
            rows.append([f"{code} ({game})", "10<sup>5</sup>", num(period), num(preperiod), oeis,
                         secs(r["seconds"]), "games.json"])
    r = src.use("games_frontier.json").rows[0]
    period, preperiod, largest, rare = parse_check(r["check"])
    count = re.search(r"from ([\d,]+) values", r["case"]).group(1)
    rows.append(["0.1777", count, f"**{num(period)}**", f"**{num(preperiod)}**",
                 "[A071509](https://oeis.org/A071509)", secs(r["seconds"]), "games_frontier.json"])
    head = ["game", "heaps computed", "period", "from heap", "published in", "wall time", "record"]
    return (table(head, rows)
            + f"\n\n0.1777's largest value is {largest} and it has {rare} rare heaps. By the octal "
            "periodicity theorem (Guy and Smith 1956) a period p from heap e is proven once the "
            "values reach heap 2e + 2p + t, t the most tokens a move removes (the digits after the "
            f"point): for 0.1777 that is {count} values.")


@renders("results", "survey")
def survey(src: Sources) -> str:
    rec = src.use("games_survey_3_100000.json")
    row, t = rec.rows[0], rec.data["table"]
    games = t["rows"]
    periods = Counter(g["period"] for g in games if g["period"] is not None)
    longest = sorted((g for g in games if g["period"] is not None), key=lambda g: -g["period"])[:8]
    latest = sorted((g for g in games if g["period"] is not None), key=lambda g: -g["preperiod"])[:8]
    unproven = sorted(g["code"] for g in games if g["period"] is None)
    # the benchmark writes "ok: CODES" when every published period was reproduced, else the misses
    ok = row["published"].startswith("ok: ")
    published = row["published"].removeprefix("ok: ") + (", all reproduced" if ok else "")
    summary = table(["games", "heaps each (at most)", "period proven", "not proven", "published periods",
                     "wall time", "record"],
                    [[t["games"], num(t["count"]), t["proven"], t["not_proven"], published,
                      secs(row["seconds"]), rec.name]])
    pairs = [[num(p), c] for p, c in sorted(periods.items())]
    width = 5  # (period, games) pairs a row: a long two-column table would run down the page
    rows = [sum(pairs[i:i + width], []) for i in range(0, len(pairs), width)]
    rows[-1] += [""] * (2 * width - len(rows[-1]))
    by_period = table(["period", "games"] * width, rows)
    top = table(["game", "period", "from heap", "largest value"],
                [[g["code"], num(g["period"]), num(g["preperiod"]), g["max_value"]] for g in longest])
    late = table(["game", "period", "from heap", "largest value"],
                 [[g["code"], num(g["period"]), num(g["preperiod"]), g["max_value"]] for g in latest])
    return (f"Every octal game with {t['digits']} digits after the point ({t['games']} codes), each to at "
            f"most {num(t['count'])} heaps; a game stops as soon as its period is proven.\n\n" + summary
            + "\n\nGames by period:\n\n" + by_period
            + "\n\nThe longest periods:\n\n" + top
            + "\n\nThe latest starts:\n\n" + late
            + f"\n\n??? note \"The {len(unproven)} games whose period is not proven within "
            f"{num(t['count'])} heaps\"\n\n    " + ", ".join(unproven))


# ---------------------------------------------------------------------------- Benchmarks


@renders("benchmarks", "topswops")
def bench_topswops(src: Sources) -> str:
    """Knuth's forward program and ours, run side by side (topswops_knuth.json), then each
    search's times (topswops.json), the kernels against each other and against plain Python."""
    knuth = src.use("topswops_knuth.json")
    side = [[r["case"], r["n"], r["f(n)"], f"**{secs(r['seconds'])}**", f"{r['/knuth']:.2f}",
             f"{r['target']}: {'met' if r['met'] else 'missed'}" if "target" in r else "",
             _command(r["command"])]
            for r in knuth.rows]
    rec = src.use("topswops.json")
    rows = []
    for r in rec.rows:
        rows.append([r["search"], r["n"], r["f(n)"], num(r["nodes"]), f"**{secs(r['seconds'])}**",
                     secs(r["search_s"]), f"{r['Mnodes/s']:.1f}",
                     at_most(r["target_s"]) + (": met" if r["met"] else ": missed") if "target_s" in r
                     else ""])
    start = table(["case", "seconds", "target", "met"],
                  [[s["case"], secs(s["seconds"]), at_most(s["target_s"]), "yes" if s["met"] else "no"]
                   for s in rec.data["startup"]])
    plain = table(["search", "n", "plain Python", "numba kernel", "kernel faster by"],
                  [[p["search"], p["n"], secs(p["plain_python_s"]), secs(p["kernel_s"]), f"{p['ratio']:.0f}×"]
                   for p in rec.data["plain_ratio"]])
    wide = src.use("topswops_wide.json")
    kernels = table(["kernel", "n", "nodes", "seconds", "Mnodes/s", "against packed"],
                    [[r["kernel"], r["n"], num(r["nodes"]), secs(r["seconds"]), f"{r['Mnodes/s']:.1f}",
                      f"{r['wide/packed']:.2f}×" if "wide/packed" in r else ""] for r in wide.rows])
    k = knuth.data["knuth"]
    return (table(["case", "n", "f(n)", "seconds", "of Knuth's", "target", "command"], side)
            + f"\n\nKnuth's forward program (`topswops-fwd.w`, built with `{k['flags']}`) and "
            f"puzzlesearch's forward search on one core, taken in turn, {medians(knuth.rows)}; "
            "`workers2` is the same search on two workers.\n\nEach search alone, a fresh process on "
            f"one core, {medians(rec.rows)}, everything included (interpreter start, numba's cache, "
            "the bounds f(1..n−1) computed afresh); its targets were set against Knuth's programs on "
            "a machine like this one:\n\n"
            + table(["search", "n", "f(n)", "nodes", "puzzlesearch, 1 core", "of which search",
                     "Mnodes/s", "target"], rows)
            + "\n\nThe forward search's two kernels on the same tree: decks packed 4 bits a card "
            "(up to 16 cards) and rows of bytes (past 16), "
            f"{medians(wide.rows)}, in turn:\n\n" + kernels
            + "\n\nStart-up, and the kernels against their plain-Python references:\n\n" + start
            + "\n\n" + plain)


@renders("benchmarks", "scale")
def bench_scale(src: Sources) -> str:
    rec = src.use("scale.json")
    rows = [[r["n"], r["f(n)"], num(r["nodes"]), secs(r["1 worker s"]), secs(r["2 workers s"]),
             f"**{r['speed-up']:.2f}×**", r["subproblems"], secs(r["split+checkpoint, 1 worker s"])]
            for r in rec.rows]
    res = rec.data["resume"][0]
    return (table(["n", "f(n)", "nodes", "1 worker", "2 workers", "speed-up", "tasks",
                   "1 worker, split + checkpoint"], rows)
            + f"\n\nResume: a 2-worker n = {res['n']} run killed after {secs(res['killed_after_s'])} kept "
            f"{res['tasks_kept']} tasks; the resumed run took {secs(res['resume_s'])}, "
            f"{res['resume/full']:.2f} of the uninterrupted {secs(res['full_s'])}, with the same "
            f"f({res['n']}) = {res['f(n)']} and {res['decks']} decks.")


@renders("benchmarks", "topswops-long")
def bench_long(src: Sources) -> str:
    long = src.use("topswops_long.json").rows
    rows = [[r["n"], r["best"], "yes" if r["reached"] else "no", secs(r["first_f(n)_s"]),
             run_length(r["seconds"]), r["workers"], mib(r["peak_MiB"])] for r in long]
    est = [r for r in src.use("topswops_long_estimate.json").rows if r["case"] == "estimate"]
    # a measured count the script keeps rounded (a float, 3.0e10) is shown as rounded
    est_rows = [[r["n"], r["target"], num(r["estimate"]),
                 f"about {r['measured']:.2g}" if isinstance(r["measured"], float) else num(r["measured"]),
                 f"{r['ratio']:.2f}", secs(r["expected_s"]), secs(r["wall_s"])] for r in est]
    dead = src.use("topswops_long_deadline.json")
    dead_rows = [[r["case"], r["n"], run_length(r["seconds"]), r["workers"], secs(r["wall_s"]),
                  at_most(r["target_s"]) if "target_s" in r else "",
                  ("yes" if r["met"] else "no") if "met" in r else ""] for r in dead.rows]
    seconds = " or ".join(sorted({run_length(r["seconds"]) for r in long}))
    return (f"`topswops long -n N` for {seconds} against the proven f(n):\n\n"
            + table(["n", "longest found", "reached f(n)", "first reached after", "run", "workers", "peak"],
                    rows)
            + "\n\n`topswops estimate`: Knuth's random probes against the nodes the search really "
            "visited:\n\n"
            + table(["n", "target", "estimated nodes", "measured nodes", "ratio", "expected time",
                     "wall time of the estimate"], est_rows)
            + "\n\n`topswops long --seconds S` stops on time (a fresh process, everything included):\n\n"
            + table(["case", "n", "--seconds", "workers", "wall time", "target", "met"], dead_rows))


@renders("benchmarks", "queens")
def bench_queens(src: Sources) -> str:
    rec = src.use("queens.json")
    columns = {("constellation", "1"): "constellation, 1 core",
               ("constellation", "2"): "constellation, 2 cores",
               ("corner", "1"): "corner, 1 core", ("corner", "2"): "corner, 2 cores",
               (None, "C, 1"): "C reference, 1 core", (None, "2, jit"): "JIT kernels, 2 cores"}
    cells: dict[int, dict[str, str]] = {}
    targets: dict[int, str] = {}
    for r in rec.rows:
        column = columns[(r.get("method"), str(r["workers"]))]
        cells.setdefault(r["n"], {})[column] = secs(r["seconds"])
        if "target_s" in r and r.get("method") == "constellation":
            targets[r["n"]] = at_most(r["target_s"]) + (": met" if r["met"] == "yes" else ": missed")
    used = [c for c in columns.values() if any(c in row for row in cells.values())]
    rows = [[n] + [cells[n].get(c, "") for c in used] + [targets.get(n, "")] for n in sorted(cells)]
    per = rec.data["per_core_n17"]
    solve = src.use("queens_solve.json")
    solve_rows = [[num(s["n"]), secs(s["seconds"]), secs(s["search_seconds"]), f"{s['file_mb']:.1f} MB",
                   mib(s["peak_mib"]), at_most(s["target_s"]), s["met"]] for s in solve.rows]
    return (table(["n"] + used + ["target (2 cores)"], rows)
            + "\n\nWall times of fresh processes, each the median of the runs the record keeps "
            "for it; every count is checked against the published values, and the CPU time of each "
            f"case is in the record.\n\nPer core at n = {per['n']}: puzzlesearch {secs(per['ours_seconds'])} "
            f"against the C reference's {secs(per['c_seconds'])}, {per['ratio']:.2f}× "
            f"(target {per['target']:g}×: "
            f"{'met' if per['met'] == 'yes' else 'missed'}). The C reference, "
            "`benchmarks/ref/queens_corner.c` (the corner/rotation method, `cc -O2`), ran in the "
            "same minutes on one core.\n\nOne board without search (`queens solve`, the explicit "
            "construction, verified and written with `--out`):\n\n"
            + table(["n", "wall time", "of which search", "file", "peak", "target", "met"], solve_rows))


@renders("benchmarks", "shuffle")
def bench_shuffle(src: Sources) -> str:
    rec = src.use("shuffle.json")
    rows = [[r["case"], r["answer"], secs(r["seconds"]), secs(r["cpu seconds"]), num(r["states"] or None),
             mib(r["peak MiB"]), f"≤ {r['target s']} s" if r["target s"] != "" else ""] for r in rec.rows]
    layers = src.use("layers.json")
    lrows = [[r["case"], r["answer"], secs(r["seconds"]), ", ".join(f"{x:g}" for x in r["runs"]),
              mib(r["peak MiB"]), f"≤ {r['target s']} s" if r["target s"] != "" else "", r["met"]]
             for r in layers.rows]
    return ("The breadth-first engine (`engine.layers`, 2 bits a state, all cores), each case the "
            "command a user types, in a fresh process with a fresh results store:\n\n"
            + table(["case", "answer", "median wall time", "runs", "peak", "target", "met"], lrows)
            + "\n\nThe bidirectional search (`solve`) and the first god-mode engine, measured "
            f"{rec.date} on a busy machine ({rec.load}), so each case's CPU time is beside its wall "
            "time:\n\n"
            + table(["case", "answer", "wall time", "CPU time", "states", "peak", "target"], rows)
            + f"\n\nThe plain-Python BFS of the book takes {rec.data['plain_over_solve_n5']:.0f}× the "
            "fresh-process `solve -n 5`. No record here holds a timing of a C breadth-first search, "
            "so none is shown beside these.")


@renders("benchmarks", "hanoi")
def bench_hanoi(src: Sources) -> str:
    rec = src.use("hanoi.json")
    rows = [[r["method"], r["n"], num(r["moves"]), secs(r["work s"]), f"{r['Mmoves/s (work)']:.1f}",
             secs(r["process s"]), mib(r["peak MiB"])] for r in rec.rows if "method" in r]
    return table(["method", "discs", "moves", "work", "million moves/s", "whole process", "peak"], rows)


@renders("benchmarks", "games")
def bench_games(src: Sources) -> str:
    rec = src.use("games.json")
    rows = [[r["case"], secs(r["seconds"]), secs(r["work s"]), mib(r["peak MiB"]), r["check"]]
            for r in rec.rows]
    sub = src.use("games_subtraction.json")
    sub_rows = [[f"`{r['command']}`", secs(r["seconds"]), mib(r["peak MiB"]), r["output"]] for r in sub.rows]
    return (table(["case", "wall time", "work", "peak", "check"], rows)
            + f"\n\nSubtraction games (target {at_most(sub.data['target_seconds'])} for the first):\n\n"
            + table(["command", "wall time", "peak", "last line of output"], sub_rows))


@renders("benchmarks", "sidebyside")
def bench_sidebyside(src: Sources) -> str:
    rows = []
    for name in sorted(n for n in site_records.CATALOG if n.startswith("sidebyside")):
        rec = src.use(name)
        for r in rec.rows:
            rows.append([rec.date, f"`{r['command']}`", secs(r["before_s"]), secs(r["after_s"]),
                         f"{r['after/before']:.3f}", "yes" if r["same_stdout"] else "**no**", name])
    return (table(["date", "command", "before", "after", "after / before", "same output", "record"], rows)
            + "\n\nEach pair alternates the two source trees run by run, so that the host's drift "
            "hits both alike; medians of the runs each record keeps.")


@renders("benchmarks", "safety")
def bench_safety(src: Sources) -> str:
    rec = src.use("safety.json")
    rows = [[r["case"], f"`puzzlesearch {r['command']}`", secs(r["seconds"]),
             "yes" if r["one line, exit 2"] else "**no**", "yes" if r["met"] else "**no**"]
            for r in rec.rows]
    return (table(["pointed at", "command", "wall time", "one line, exit 2", "met"], rows)
            + f"\n\nTarget: each refusal within {secs(rec.data['target_seconds'])}, the node it was pointed "
            "at unchanged.")


@renders("benchmarks", "perm")
def bench_perm(src: Sources) -> str:
    rec = src.use("perm.json")
    rows = []
    for r in rec.rows:
        if r.get("built-in"):
            against = f"`{r['built-in']}` {secs(r['built-in s'])}: {r['ratio']:.2f}×"
            target = f"≤ {r['target ratio']}× the built-in"
        else:
            against, target = "", at_most(r["target s"])
        rows.append([r["case"], r["answer"], secs(r["seconds"]), mib(r["peak MiB"]), against, target,
                     "yes" if r["met"] == "yes" else "**no**"])
    return (table(["case", "answer", "wall time", "peak", "the built-in command", "target", "met"], rows)
            + "\n\nFresh processes, everything included, medians; a file that describes a built-in "
            "puzzle is timed beside the built-in command in the same run.")


def _peer_row(r: dict) -> list[object]:
    """A row of a perm_peers record: the puzzle, its states and what perm indexes for them,
    both times, the ratio, both peaks beside perm's bits and tables, the histograms (a
    twsearch run stopped at the benchmark's time limit: its time is that limit, unfinished)."""
    indexed = r.get("indexed")
    if r["perm/twsearch"] is None:
        ratio = "—"
    else:
        ratio = f"{r['perm/twsearch']:.2f}×"
        ratio = ratio if r["perm/twsearch"] <= 1 else f"**{ratio}**"
    stopped = r.get("twsearch_stopped_s")
    return [f"`{r['file']}`", num(r["states"]),
            "—" if indexed is None else ("the same" if indexed == r["states"] else num(indexed)),
            f"stopped after {secs(stopped)}" if stopped else secs(r["twsearch_s"]), secs(r["perm_s"]), ratio,
            mib(r["twsearch_peak_mib"]), mib(r["perm_peak_mib"]),
            "—" if indexed is None else f"{mib(r['bits_mib'])} + {r['move_tables_mib']:g} MiB",
            "unchecked" if r["same_histogram"] is None else "same" if r["same_histogram"] else "**differs**"]


PEER_HEADER = ["file", "states", "perm indexes", "`twsearch -g`", "`perm god`", "perm / twsearch",
               "twsearch peak", "perm peak", "perm's bits + move tables", "histogram"]


@renders("benchmarks", "perm_peers")
def bench_perm_peers(src: Sources) -> str:
    rec = src.use("perm_peers.json")
    d = rec.data
    rows = [[*_peer_row(r), r.get("target", "—"), "yes" if r.get("met") == "yes" else "**no**"]
            for r in rec.rows]
    return (table([*PEER_HEADER, "target", "met"], rows)
            + f"\n\nSide by side in one run, twsearch and `perm god` alternating in fresh processes, "
            f"{d['workers']} threads each, {medians_of(d['repeats'])}; the 11 pancakes are written as a "
            "twsearch file by the script. A ratio over 1 is in bold. perm's peak holds Python, numba and "
            "its kernels beside the bits and the move tables.")


@renders("benchmarks", "perm_peers_all")
def bench_perm_peers_all(src: Sources) -> str:
    rec = src.use("perm_peers_all.json")
    d = rec.data
    rows = [_peer_row(r) for r in rec.rows]
    reasons: dict[str, list[str]] = {}
    for s in d["skipped"]:
        why = s["reason"]
        key = ("over the states asked for" if "states: over" in why
               else "perm indexes more than 2 GiB of bits" if "indexes" in why
               else "not run: the run's time was spent" if why.startswith("not run")
               else "not read by perm" if why.startswith("not read")
               else "twsearch stopped before its end, by a signal (see the run below)"
               if why.startswith("failed") and "twsearch" in why and "exited -" in why else why)
        reasons.setdefault(key, []).append(f"`{s['file']}`")
    skipped = "\n".join(f"- {why} ({len(files)}): {', '.join(files)}" for why, files in reasons.items())
    slower = [r for r in rec.rows if (r["perm/twsearch"] or 0) > 1]
    return (table(PEER_HEADER, rows)
            + f"\n\nEvery sample of twsearch's `samples/main` whose states fit "
            f"{num(d['max_states'])} ({medians_of(d['repeats'])}, {d['workers']} threads each), the "
            f"smallest first; perm is slower on {len(slower)} of the {len(rows)}. The others:\n\n{skipped}")


@renders("benchmarks", "perm_peers_all_large")
def bench_perm_peers_all_large(src: Sources) -> str:
    rec = src.use("perm_peers_all_large.json")
    d = rec.data
    rows = [_peer_row(r) for r in rec.rows]
    left = "".join(f"\n- `{s['file']}`: {s['reason']}" for s in d["skipped"])
    return (table(PEER_HEADER, rows)
            + "\n\nThe samples the run above did not reach (past its time budget) or could not compare "
            f"(twsearch stopped), in a run of their own ({medians_of(d['repeats'])}, {d['workers']} threads "
            "each)"
            + (f", twsearch stopped after {secs(d['twsearch_limit_s'])} where it had not finished"
               if d.get("twsearch_limit_s") else "") + "."
            + (f" Not run:{left}" if left else ""))


def medians_of(repeats: int) -> str:
    return "one run each" if repeats == 1 else f"medians of {repeats} runs"


@renders("benchmarks", "wheel")
def bench_wheel(src: Sources) -> str:
    rec = src.use("wheel_smoke.json")
    d = rec.data
    rows = [[f"`{r['command']}`" + (f" ({r['as']})" if r.get("as") else ""), secs(r["seconds"]), r["answer"]]
            for r in rec.rows]
    if d.get("queens_aot_packaged_used"):
        first = d["first_count"]
        kernels = ("those the wheel carries, compiled when it was built, and none was compiled here; "
                   f"the first N-Queens count, `{first['command']}`, took {secs(first['seconds'])} "
                   f"(target {at_most(first['target_seconds'])}: {'met' if first['met'] else '**not met**'})")
    else:
        kernels = "built ahead of time into the empty cache" if d["queens_aot_built"] else "the JIT ones"
    return (table(["command", "wall time", "answer"], rows)
            + f"\n\n`{d['wheel']}`: installed with the `plot` extra into a fresh virtual environment in "
            f"{secs(d['install_seconds'])}; install and smoke set {secs(d['seconds'])} "
            f"(target {at_most(d['target_seconds'])}: {'met' if d['met'] else '**not met**'}). Every cache "
            f"was cold: numba's of the new install, and the N-Queens kernels were {kernels}. "
            + ("The rows marked read-only ran first, as the user nobody, who may not write into the "
               "install: each gave its answer and the installed package was left unchanged. "
               if any(r.get("as") for r in rec.rows) else "")
            + f"The whole script, with the wheel's build and the clean-up: {secs(d['script_seconds'])}.")


#: lines of a benchmark script's docstring that show how to run it
USAGE = re.compile(r"^\s*(Usage:\s*)?(\.venv/bin/)?python benchmarks/\S+\.py.*$")


@renders("benchmarks", "scripts")
def bench_scripts(src: Sources) -> str:
    """How to run each benchmark script: its docstring's first paragraph and usage lines."""
    parts = []
    for script in sorted((site_records.ROOT / "benchmarks").glob("[a-z]*.py")):
        doc = ast.get_docstring(ast.parse(script.read_text())) or ""
        about = " ".join(doc.split("\n\n")[0].split())
        usage: list[str] = []
        for line in doc.splitlines():
            if USAGE.match(line):
                usage.append(line.strip().removeprefix("Usage:").strip())
            elif usage and line.startswith(" " * 10) and line.strip().startswith("["):
                usage[-1] += " " + line.strip()  # the usage line goes on, indented
        name = script.relative_to(site_records.ROOT)
        lines = [code_line(re.sub(r"\s{3,}", "  ", u)) for u in usage] or [f"python {name}"]
        parts.append(f"**`{name}`**: {about}\n\n```text\n" + "\n".join(lines) + "\n```")
    return "\n\n".join(parts)


# ---------------------------------------------------------------------------- Home


def _card(image: str, alt: str, target: str, text: str) -> str:
    body = "\n".join("    " + line for line in text.strip().splitlines())
    return f"-   [![{alt}](images/{image})]({target})\n\n{body}\n"


@renders("home", "gallery")
def gallery(src: Sources) -> str:
    """The home page's pictures, each with a caption whose figures come from the records."""
    f16 = src.use("topswops_f16.json").rows[0]
    longest = max(_long_rows(src), key=lambda r: r["n"])
    small = site_computed.topswops_optimal()
    game_n = site_computed.GAME_CARDS
    p13 = src.use("pancake_13.json").data["result"]
    burnt = pancake_histograms(src)["10 burnt pancakes"]
    largest = src.use(site_records.QUEENS_FRONTIER[-1]).rows[0]
    billion = src.use("games_frontier_billion.json").rows[0]
    heaps = re.search(r"10\^(\d+)", billion["case"]).group(1)
    survey = src.use("games_survey_3_100000.json").data["table"]
    cards = [
        _card("topswops-f.svg", "The longest Topswops games", "results.md#topswops",
              f"**[Topswops](topswops.md)**: f(n), the longest game of n cards, proven by exhaustive "
              f"search up to f({f16['n']}) = {f16['f(n)']}; long games found for up to {longest['n']} "
              "cards."),
        _card("topswops-game.svg", "A Topswops game move by move", "topswops.md",
              f"**[A longest game of {game_n} cards](topswops.md)**, {small[game_n][0]} reversals: the top "
              "card k (orange) reverses the top k cards (framed)."),
        _card("pancake-histogram.svg", "Pancake stacks by distance", "results.md#pancakes",
              f"**[Pancakes](shuffle.md)**: all {num(p13['stacks'])} stacks of 13 pancakes by the flips "
              f"they need; the most is p(13) = {p13['diameter']}."),
        _card("burnt-pancake-histogram.svg", "Burnt pancake stacks by distance", "results.md#pancakes",
              f"**[Burnt pancakes](shuffle.md)**: all {num(sum(burnt))} stacks of 10 burnt pancakes; the "
              f"most flips needed is {len(burnt) - 1}."),
        _card("queens-counts.svg", "N-Queens counts", "results.md#queens",
              f"**[N-Queens](queens.md)**: every solution and the unique ones, counted up to "
              f"n = {largest['n']} (Q({largest['n']}) = {num(largest['solutions'])})."),
        _card("queens-board.svg", "An 8-queens board", "queens.md",
              f"**[{site_computed.BOARD_N} queens](queens.md)**: the first board the listing yields."),
        _card("hanoi-position.svg", "A Tower of Hanoi position", "hanoi.md",
              f"**[Tower of Hanoi](hanoi.md)**: the {site_computed.HANOI_DISCS}-disc tower after "
              f"{site_computed.HANOI_MOVES} of its moves; any number of pegs, from any position."),
        _card("hanoi-4-pegs.svg", "The Tower of Hanoi on 4 pegs", "results.md#hanoi",
              f"**[Four pegs](results.md#hanoi)**: the {site_computed.HANOI_DISCS}-disc tower halfway "
              "through its Frame–Stewart moves, checked by breadth-first search over every position."),
        _card("grundys-values.png", "Values of Grundy's game", "results.md#grundys-game",
              f"**[Grundy's game](grundy.md)**: Sprague–Grundy values computed to 10<sup>{heaps}</sup> "
              f"heaps (drawn: the first {num(site_computed.GRUNDYS_HEAPS)}); the few rare heaps (orange) "
              "are what makes that fast."),
        _card("survey-periods.svg", "Periods of the octal games", "results.md#survey",
              f"**[Octal games](grundy.md)**: the periods of all {survey['games']} octal games with "
              f"{survey['digits']} digits, each to at most {num(survey['count'])} heaps."),
    ]
    return '<div class="grid cards" markdown>\n\n' + "\n".join(cards) + "\n</div>"


# The N-Queens assembly tables and the cluster's live in their own modules; importing them
# registers them here, so that every importer of this module sees every table.
import site_cluster  # noqa: E402, F401
import site_queens  # noqa: E402, F401


@renders("benchmarks", "perm_limits")
def bench_perm_limits(src: Sources) -> str:
    rec = src.use("perm_limits.json")
    d = rec.data
    rows = [[r["case"], f"`puzzlesearch {r['command']}`", str(r["exit"]), secs(r["seconds"]),
             mib(r["peak MiB"]), r["line"].replace("|", "\\|")[:120], "yes" if r["met"] else "**no**"]
            for r in rec.rows]
    return (table(["case", "command", "exit", "wall time", "peak", "what it says", "met"], rows)
            + f"\n\nFresh processes, everything included (the interpreter and its imports), on "
            f"{rec.date} under a load of {d['loadavg_end'][0]:.1f} at the end. Targets: the 512-cycle "
            f"and swap counted within {secs(d['target_seconds'])} and {mib(d['target_mib'])}; the "
            f"4,096-cycle refused within {secs(d['refusal_seconds'])} of work; every other case its "
            "answer, or one line and exit 2.")
