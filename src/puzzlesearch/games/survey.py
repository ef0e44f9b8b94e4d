"""`grundy survey`: every short octal game at once, each to N heaps, with its period.

A survey is the table combinatorial game theorists work from (*Winning Ways* ch. 4; Gangolli
and Plambeck 1989): for every octal code 0.d1...dk with 1 <= k <= D digits after the point
and dk != 0 (7 + 56 + 448 = 511 codes for D = 3), the values of heaps 0..N-1 and the period
the octal periodicity theorem proves from them, or "not proven by N". Each game is one
call of the octal engine (``takebreak.octal_values``: the rare/common kernel and
``periods.octal_period``), so every row is what `grundy octal CODE --count M` reports,
where M is the row's count: a game is computed to FIRST_HEAPS heaps, then to 4 times as
many, and so on up to N, and stops as soon as its period is proven (the theorem needs
about 2(preperiod + period) heaps). Most short codes are proven within a few thousand heaps,
and the engine's time grows faster than the heaps, so this saves almost all of a survey to
10^6 heaps; the period, preperiod and largest value are those of N heaps (past the proof
the values only repeat), the rare heaps are counted among the M computed.

The games run as tasks through the engine (``engine.run.run_tasks``): all cores, a Dask
cluster, ``--checkpoint``. The task list depends only on D and N (every code, dealt out in
SURVEY_TASKS strided batches, so that the slow games spread over the tasks), never on the
workers or the results store; a checkpoint carries {"puzzle": "grundy-survey", "digits",
"count"} and is refused for any other survey.

The results store keeps one row per code (key: the code; the row holds the count it was
computed to): the row computed to the most heaps. A row answers a later survey to N heaps
when it was computed to at least N heaps (a game not proven by M >= N heaps is not proven
by N either), or when its period is proven (a proven period holds for every heap; the row
then says from how many heaps it was proven). Only the other games are computed again, and
the output says how many rows came from the store.

Codes with the same values are computed once (``same_values_key``): past heap T (T >= the
most tokens any code removes) a move that takes a whole heap is gone, and a move that
leaves one heap is matched by a split when a small part of value 0 can go with it, so the
values there depend only on the splits, the other one-heap moves and the values of heaps
0..T. Of the 511 3-digit codes, 229 kinds of values remain. Each row is still what
`grundy octal CODE` reports, for its own code: the period is proven for each code with
its own t (the periodicity theorem needs heaps up to 2e + 2p + t), from the shared values;
`same_as` names the code whose values were computed.
"""

from __future__ import annotations

import itertools
import sqlite3
import time
from dataclasses import asdict, dataclass, fields

import numpy as np

from puzzlesearch.engine.memory import require
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.params import plural
from puzzlesearch.engine.progress import Display
from puzzlesearch.engine.run import deferred_interrupts, run_tasks
from puzzlesearch.engine.store import ResultsStore, saving

from . import rules
from .general import mex
from .limits import HEAP_BYTES, RARE_BYTES, VALUE_BYTES
from .periods import octal_period
from .takebreak import FIRST_RARE, octal_values

#: the tasks a survey is split into (fewer when there are fewer games)
SURVEY_TASKS = 64
#: a survey computing at most this many heaps in all runs in this process unless --workers says otherwise
QUICK_HEAPS = 200_000
#: heaps a game is computed to first; then 4 times as many, until its period is proven or N
FIRST_HEAPS = 1024
#: the results store's puzzle name for survey rows
STORE_PUZZLE = "grundy-survey"
ONE_THREAD = RunOptions(workers=1)


@dataclass(frozen=True)
class SurveyRow:
    """One game of a survey, as `grundy octal CODE --count COUNT` reports it.

    Attributes:
        code: The game's octal code.
        count: The heaps its values were computed to (from the store: maybe another
            count).
        period: The period proven by the octal periodicity theorem (None: not proven
            by `count`).
        preperiod: The heap the period starts at (None when not proven).
        max_value: The largest value of heaps 0..count-1.
        rare_heaps: The heaps with a rare value under `rare_mask`.
        rare_mask: The mask of the rare/common split (0: the plain mex was used).
        seconds: The time its values took; with `same_as`, only the time of the further
            heaps its own proof needed (usually 0).
        same_as: None, or the code whose values were computed: it has the same values
            at every heap, and this row's period is proven for this code.
        source: "run": computed by this run; "store": read back from the results store.
    """

    code: str
    count: int
    period: int | None
    preperiod: int | None
    max_value: int
    rare_heaps: int
    rare_mask: int
    seconds: float
    same_as: str | None
    source: str


@dataclass(frozen=True)
class Survey:
    """Every octal code with 1..digits digits after the point, each to `count` heaps.

    Attributes:
        digits: The most digits after the point.
        count: The heaps of each game.
        rows: One row a game, in the order of their codes.
        from_store: The rows read back from the results store.
        computed: The rows computed by this run.
        seconds: The time the survey took.
    """

    digits: int
    count: int
    rows: tuple[SurveyRow, ...]
    from_store: int
    computed: int
    seconds: float

    @property
    def proven(self) -> int:
        return sum(r.period is not None for r in self.rows)

    @property
    def shared(self) -> int:
        """Rows computed by this run from another code's values (same_as)."""
        return sum(r.source == "run" and r.same_as is not None for r in self.rows)

    def to_json(self) -> dict:
        return {
            "digits": self.digits,
            "count": self.count,
            "games": len(self.rows),
            "proven": self.proven,
            "not_proven": len(self.rows) - self.proven,
            "from_store": self.from_store,
            "computed": self.computed,
            "shared": self.shared,
            "seconds": round(self.seconds, 4),
            "rows": [asdict(r) for r in self.rows],
        }


#: the fields of a stored row: a SurveyRow's but its source
_STORED_FIELDS = {f.name for f in fields(SurveyRow)} - {"source"}


def survey_codes(digits: int) -> list[str]:
    """0.d1...dk for k = 1..digits, dk != 0: shorter codes first, each length in order."""
    codes = []
    for k in range(1, digits + 1):
        for head in itertools.product("01234567", repeat=k - 1):
            codes.extend("0." + "".join(head) + last for last in "1234567")
    return codes


def same_values_key(code: str, upto: int) -> tuple:
    """Octal codes (first digit 0 or 4) with equal keys have equal values at every heap.

    `upto` (T) is at least the most tokens the code removes (t). At a heap n > T:
    - no move takes the whole heap (that needs n = j <= t);
    - a move taking k and leaving one heap gives G(n - k), and so does a split of n - j
      into k - j and n - k, for a split digit j < k with G(k - j) = 0: such a move adds
      nothing, and only the others count;
    - the splits are those of the split digits.
    So the values of the options of heap n > T follow from the split digits, the other
    one-heap digits and the values below n: two codes alike in these and in the values of
    heaps 0..T have the same value at every heap (induction on n).
    """
    game = rules.parse_octal(code)
    if game.max_take > upto:
        raise ValueError(f"{code}: removes up to {game.max_take} tokens, more than {upto}")
    g: list[int] = []  # values of heaps 0..T by the rules
    for n in range(upto + 1):
        g.append(mex(g[o] if isinstance(o, int) else g[o[0]] ^ g[o[1]] for o in rules.octal_options(game, n)))
    digits = game.digits + (0,) * (upto + 1 - len(game.digits))
    splits = tuple(j for j, d in enumerate(digits) if d & 4)
    one_heap = tuple(k for k, d in enumerate(digits) if k > 0 and d & 2
                     and not any(j < k and g[k - j] == 0 for j in splits))
    return splits, one_heap, tuple(g)


def survey_groups(digits: int) -> list[list[str]]:
    """The codes of survey_codes(digits) in groups of equal same_values_key (so equal values),
    each in survey order, the groups in the order of their first codes."""
    groups: dict[tuple, list[str]] = {}
    for code in survey_codes(digits):
        groups.setdefault(same_values_key(code, digits), []).append(code)
    return list(groups.values())


def survey_tasks(digits: int, count: int) -> list[dict]:
    """The groups of codes (survey_groups) dealt out into at most SURVEY_TASKS batches (task k:
    groups k, k + T, ...)."""
    groups = survey_groups(digits)
    t = min(SURVEY_TASKS, len(groups))
    return [{"count": count, "groups": groups[k::t]} for k in range(t)]


def _group_rows(codes: list[str], count: int) -> list[dict]:
    """The rows of codes with equal values (a group of survey_groups, or part of one): the
    values are computed once, for codes[0], to FIRST_HEAPS, 4x, 16x ... heaps, up to
    `count`, until every code's period is proven; each code's row is that of the first of
    these counts at which its period is proven (with its own t), as _row would give it."""
    n, spent, done = min(count, FIRST_HEAPS), 0.0, 0.0
    rows: dict[str, dict] = {}
    while True:
        # one thread: the survey's tasks already fill the cores
        r = octal_values(rules.parse_octal(codes[0]), n, ONE_THREAD)
        spent += r.seconds
        g = np.asarray(r.values)
        for code in codes:
            if code in rows:
                continue
            if code == codes[0]:
                period, preperiod = r.period, r.preperiod
            else:
                p, e = octal_period(g, rules.parse_octal(code).max_take)
                period, preperiod = (int(p), int(e)) if p else (None, None)
            if period is not None or n >= count:
                rows[code] = {"code": code, "count": r.count, "period": period, "preperiod": preperiod,
                              "max_value": r.max_value, "rare_heaps": r.rare_heaps, "rare_mask": r.rare_mask,
                              "seconds": round(spent - done, 6),
                              "same_as": None if code == codes[0] else codes[0]}
                done = spent
        if len(rows) == len(codes):
            return [rows[code] for code in codes]
        n = min(count, 4 * n)


def _row(code: str, count: int) -> dict:
    """One game's row: computed to FIRST_HEAPS, 4x, 16x ... heaps, up to `count`, until proven."""
    return _group_rows([code], count)[0]


def survey_task(task: dict, skip: list[str]) -> list[dict]:
    """One task: the rows of its groups' codes, but those in `skip` (answered by the store)."""
    skipped = set(skip or ())
    rows = []
    for group in task["groups"]:
        todo = [code for code in group if code not in skipped]
        if todo:
            rows.extend(_group_rows(todo, task["count"]))
    return rows


def reusable(stored: dict | None, count: int) -> bool:
    """Whether a stored row answers a survey to `count` heaps (see the module's docstring);
    a row of another shape (another version of the program) is computed again."""
    if not isinstance(stored, dict) or set(stored) != _STORED_FIELDS:
        return False
    return stored["count"] >= count or stored["period"] is not None


def octal_survey(digits: int, count: int, run: RunOptions) -> Survey:
    """Every octal code with 1..digits digits after the point (first digit 0), each to
    `count` heaps (1 <= digits <= SURVEY_DIGITS_MAX, 1 <= count <= COUNT_MAX): its period and
    preperiod when proven, largest value and rare heaps.

    Rows come from the results store (``run.store``) where it answers (see the module's
    docstring); the other games run as tasks through the engine (``run``: workers,
    scheduler, checkpoint, progress) and their rows are then kept in the store; if that
    fails, ``engine.store.NotSaved`` carries the survey. Interrupted without a checkpoint,
    the rows of the games finished so far go to the store, and SurveyInterrupted (a
    KeyboardInterrupt) says how many: the same survey again computes only the others.
    """
    run.check_paths(store=True)
    t0 = time.perf_counter()
    codes = survey_codes(digits)
    workers = run.workers_for(quick=len(codes) * count <= QUICK_HEAPS)
    # at most one game per worker at a time (on a cluster: per worker thread, on its own machine)
    w = min(workers or 1, SURVEY_TASKS, len(codes))
    need = w * (HEAP_BYTES * count + VALUE_BYTES + RARE_BYTES * min(FIRST_RARE, count + 1))
    require(need, run.memory, f"the survey to {count:,} heaps on {w} {plural(w, 'worker')}")
    with ResultsStore(run.store) as db:
        stored = {c: db.get(STORE_PUZZLE, c) for c in codes}
    skip = sorted(c for c in codes if reusable(stored[c], count))
    todo = len(codes) - len(skip)
    computed: dict[str, dict] = {}
    if todo:
        tasks = survey_tasks(digits, count)
        display = Display(label=f"grundy survey: {len(codes):,} games to {count:,} heaps", unit="heaps",
                          nodes=lambda rows: sum(r["count"] for r in rows))
        finished: list[dict] = []  # without a checkpoint, the rows to keep if the run is interrupted

        def keep(shared: list, rows: list) -> list:
            finished.extend(rows)
            return shared

        try:
            results = run_tasks(survey_task, tasks, shared=skip, update=None if run.checkpoint else keep,
                                params={"puzzle": STORE_PUZZLE, "digits": digits, "count": count},
                                options=run.but(workers=workers), display=display)
        except KeyboardInterrupt as e:
            if finished:
                _keep_finished(finished, run.store, e)
            raise
        computed = {r["code"]: r for rows in results for r in rows}
    rows = []
    for c in codes:
        if reusable(stored[c], count):
            rows.append(SurveyRow(**stored[c], source="store"))
            continue
        if c not in computed:  # a checkpoint whose run took this row from a store that has lost it
            computed[c] = _row(c, count)
        rows.append(SurveyRow(**computed[c], source="run"))
    result = Survey(digits, count, tuple(rows), len(skip), len(codes) - len(skip), time.perf_counter() - t0)
    new = [r for r in rows if r.source == "run"]
    if new:
        with saving(result, f"the survey of {len(codes):,} games"), ResultsStore(run.store) as db:
            for r in new:
                row = {k: v for k, v in asdict(r).items() if k != "source"}
                db.put(STORE_PUZZLE, r.code, row, "octal_values", r.seconds)
    return result


class SurveyInterrupted(KeyboardInterrupt):
    """Ctrl-C during a survey without a checkpoint, after ``kept`` games were finished and
    kept in the results store: the same survey again computes only the others."""

    def __init__(self, kept: int):
        super().__init__()
        self.kept = kept


def _keep_finished(rows: list[dict], store: str | None, interrupt: KeyboardInterrupt) -> None:
    """Put the rows finished before Ctrl-C into the results store, as a finished survey
    puts its rows (each is a whole game's row), and raise SurveyInterrupted; if the store
    cannot take them, the interrupt goes on as it came."""
    try:
        # a second Ctrl-C waits for the commit
        with deferred_interrupts(raise_after=False), ResultsStore(store) as db:
            for row in rows:
                db.put(STORE_PUZZLE, row["code"], row, "octal_values", row["seconds"])
    except (OSError, sqlite3.Error, ValueError):
        return
    raise SurveyInterrupted(len(rows)) from interrupt


__all__ = ["Survey", "SurveyInterrupted", "SurveyRow", "octal_survey", "same_values_key", "survey_codes",
           "survey_groups"]
