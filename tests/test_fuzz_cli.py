"""Fuzz every command with bad values: one stderr line, exit 2, no traceback.

The commands are found by walking the click groups of the registry, so a new puzzle is
fuzzed as soon as it is registered (a command with a required parameter needs a valid
value for it in BASE, or its test fails saying so). Hypothesis draws, for each case, a
command, one or two of its parameters (or its stdin, or PUZZLESEARCH_STORE), a bad value
for each -- huge (10**20, 2**64), negative, not a number, special floats (inf, nan, 1e400),
unwritable paths (/nonexistent/x, /proc/nope/x, /sys/x, a folder), damaged files (a text
file or a broken SQLite file as --checkpoint or --store) -- and some of its flags.

Every case must end with exit status 2, exactly one line on stderr, no traceback, nothing
on stdout, within LIMIT seconds, under PEAK_MB of memory, and must not have met the memory
limit (a refusal says what a size would need before allocating it: "out of memory" means
it tried). The cases run in one long-lived worker process (see Worker): each in-process
through conftest.run_cli, so a case costs milliseconds, while the worker runs under an
address-space limit (RLIMIT_AS, AS_LIMIT) and a time limit, and is killed and restarted
when a case hangs or crashes it. All failures of a puzzle are collected and reported
together, each as a command line to paste into a shell, rather than stopping at the first.
"""

from __future__ import annotations

import json
import os
import resource
import select
import shlex
import signal
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlesearch.registry import PUZZLES

HERE = Path(__file__).parent

#: seconds a case may take (a refusal should take well under 2 s; this is the hang limit)
LIMIT = 4.0
#: seconds a command with valid values may take: those cases run first, and on a fresh clone they
#: compile the kernels their command uses (numba's cache is empty), which takes longer than a refusal
VALID_LIMIT = 60.0
#: address-space limit of the worker, bytes
AS_LIMIT = 3 * 2**29  # 1.5 GiB
#: peak resident memory of the worker during a case, MiB (a refused size must not allocate it)
PEAK_MB = 500
#: the worker is started afresh once it holds this much after a case (kernels and tables of the
#: commands it ran before), which keeps it well inside AS_LIMIT
RESTART_MB = 400
#: generated examples per puzzle in the full lane (duplicates are run once; PUZZLESEARCH_FUZZ_EXAMPLES=2000
#: for a deep run); at least MIN_CASES distinct in all
EXAMPLES = int(os.environ.get("PUZZLESEARCH_FUZZ_EXAMPLES", 120))
MIN_CASES = 300
#: generated examples per puzzle in the fast lane: a few dozen cases in all
FAST_EXAMPLES = 8

# --- bad values, by kind of parameter ------------------------------------------------------------------

HUGE = ("100000000000000000000", "-100000000000000000000", "18446744073709551616", "9223372036854775808")
NOT_NUMBERS = ("x", "", "1.5", "inf", "-inf", "nan", "1e400", "0x1f", "--")
BAD = {
    "int": HUGE + ("-1", "-7") + NOT_NUMBERS,
    "float": ("inf", "-inf", "nan", "1e400", "-1", "x", ""),
    "memory": ("inf", "-inf", "nan", "1e400", "0", "-1", "x", "", "1e-30", "100000000000000000000"),
    "workers": ("0", "-1", "100000000000000000000", "x", "1.5", "", "inf", "nan", "1e400"),
    "choice": ("bogus", "", "x" * 200),
    "scheduler": ("tcp://127.0.0.1:1", "nonsense", "tcp://", "tcp://127.0.0.1:99999", "udp://127.0.0.1:1",
                  ""),
    "out": ("/nonexistent/x", "/nonexistent/dir/x.png", "/proc/nope/x", "/proc/x.png", "/sys/x.png", "folder",
            "/", "", "notes.txt/x"),
    "text": ("x", "", "99999999999999999999", "1e400", "nan", "inf", "@#!", "é", "1 1", ",", ":", "-1:-1",
             "0:0", "\t"),
    "stdin": ("x\n", "2 x\n", "1e400\n", "nan\n", "-5\n", "99999999999999999999\n", "2 2 2 2\n", "é\n",
              "2 2\n3\n", "\x00\n"),
}
# files a run reads back: also damaged ones (made in the worker's folder by the fixture)
BAD["in"] = BAD["out"] + ("notes.txt", "garbage.bin", "truncated.sqlite")
BAD["env_store"] = ("/proc/nope/x.sqlite", "/nonexistent/dir/r.sqlite", "notes.txt", "folder",
                    "/sys/x.sqlite", "garbage.bin")
# a list argument (the cards of a deck, a stack): also lists that are no permutation
LIST_BAD = tuple((v,) for v in BAD["text"]) + (
    ("1", "1"), ("2", "3"), ("1", "x"), ("0",), ("3", "1", "2", "2"), ("100000000000000000000", "1"))

#: valid values for what a command needs, by option string ("args": its arguments, "stdin": the
#: judges' input); a fuzzed option or argument replaces its own
BASE: dict[tuple[str, str], dict[str, tuple[str, ...]]] = {
    ("topswops", "solve"): {"-n": ("5",)},
    ("topswops", "optimal"): {"-n": ("5",)},
    ("topswops", "play"): {"args": ("3", "1", "2")},
    ("topswops", "long"): {"-n": ("5",), "--seconds": ("0.5",)},
    ("topswops", "estimate"): {"-n": ("5",), "--probes": ("100",)},
    ("shuffle", "solve"): {"-n": ("3",)},
    ("shuffle", "god"): {"-n": ("3",)},
    ("pancake", "solve"): {"args": ("3", "1", "2")},
    ("pancake", "god"): {"-n": ("5",)},
    ("queens", "count"): {"-n": ("6",)},
    ("queens", "show"): {"-n": ("6",)},
    ("queens", "solve"): {"-n": ("6",)},
    ("queens", "estimate"): {"-n": ("6",), "--samples": ("5",)},
    ("hanoi", "count"): {"-n": ("3",)},
    ("hanoi", "distance"): {"--from": ("ABB",), "--to": ("BAA",)},
    ("hanoi", "position"): {"-n": ("3",), "-m": ("2",)},
    ("hanoi", "solve"): {"-n": ("3",)},
    ("hanoi", "verify"): {"-n": ("3",)},
    ("grundy", "cutting"): {"stdin": ("2 2\n",)},
    ("grundy", "digits"): {"stdin": ("1\n9\n",)},
    ("grundy", "octal"): {"args": ("0.77",)},
    ("grundy", "subtraction"): {"args": ("1,3,4",)},
    ("grundy", "hex"): {"args": ("0.F",)},
    ("grundy", "move"): {"args": ("0.77",), "--heaps": ("5,9,12",)},
    ("grundy", "survey"): {"--digits": ("1",), "--count": ("10",)},
    ("perm", "info"): {"args": ("pancakes-8",)},
    ("perm", "god"): {"args": ("pancakes-8",)},
    ("perm", "solve"): {"args": ("pancakes-8",), "--scramble": ("3 2",)},
    ("perm", "convert"): {"args": ("pancakes-8",), "--to": ("toml",)},
}


def kind_of(param: click.Parameter) -> str:
    """Which list of bad values fits a parameter: by its name first, then by its click type."""
    name = (param.name or "").lower()
    if name in ("workers",):
        return "workers"
    if name in ("memory",):
        return "memory"
    if name in ("scheduler",):
        return "scheduler"
    if name in ("checkpoint", "store"):
        return "in"
    if name in ("plot", "out", "output", "png", "svg"):
        return "out"
    t = param.type
    if isinstance(t, click.Choice):
        return "choice"
    if isinstance(t, click.types.IntParamType):
        return "int"
    if isinstance(t, click.types.FloatParamType):
        return "float"
    if isinstance(t, click.Path):
        return "out"
    return "text"


# --- the commands, found from the registry ------------------------------------------------------------


@dataclass(frozen=True)
class Slot:
    """One place a bad value can go: an option, an argument, stdin, or the store's environment variable."""

    key: str
    kind: str  # option, argument, stdin, env
    opt: str = ""
    bad: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class Command:
    puzzle: str
    name: str
    options: tuple[tuple[str, str, tuple[str, ...] | None], ...]  # (param, option, base value), in order
    arguments: tuple[str, ...]  # positional parameter names, in order
    base_args: tuple[str, ...] = ()
    base_stdin: str = ""
    slots: tuple[Slot, ...] = ()
    flags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Case:
    puzzle: str
    argv: tuple[str, ...]
    stdin: str = ""
    env: tuple[tuple[str, str], ...] = ()

    def line(self) -> str:
        """The case as a shell command line."""
        cmd = "puzzlesearch " + shlex.join(self.argv)
        if self.env:
            cmd = " ".join(f"{k}={shlex.quote(v)}" for k, v in self.env) + " " + cmd
        if self.stdin:
            cmd = f"printf %s {shlex.quote(self.stdin)} | " + cmd
        return cmd


def load_group(puzzle: str) -> click.Group:
    module, attr = PUZZLES[puzzle].cli.split(":")
    import importlib

    return getattr(importlib.import_module(module), attr)


def commands_of(puzzle: str) -> tuple[list[Command], list[str]]:
    """The commands of a registered puzzle, and what keeps any of them from being fuzzed."""
    try:
        group = load_group(puzzle)
    except Exception as e:  # noqa: BLE001 (reported as the puzzle's failure)
        return [], [f"{puzzle}: its commands cannot be loaded: {type(e).__name__}: {e}"]
    problems = []
    found = []
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        base = BASE.get((puzzle, name), {})
        options, arguments, slots, flags = [], [], [], []
        for p in cmd.params:
            if isinstance(p, click.Option) and p.is_flag:
                if not (p.hidden or p.name in ("help", "version")):
                    flags.append(max(p.opts, key=len))
                continue
            kind = kind_of(p)
            if isinstance(p, click.Argument):
                if p.required and "args" not in base:
                    problems.append(f"{puzzle} {name}: no valid value for its argument {p.name} in BASE")
                arguments.append(p.name)
                bad = LIST_BAD if p.nargs == -1 else tuple((v,) for v in BAD[kind])
                slots.append(Slot(p.name, "argument", "", bad))
            else:
                valid = next((base[o] for o in p.opts if o in base), None)
                if p.required and valid is None:
                    problems.append(f"{puzzle} {name}: no valid value for its required {p.opts[0]} in BASE")
                opt = max(p.opts, key=len)
                options.append((p.name, opt, valid))
                slots.append(Slot(p.name, "option", opt, tuple((v,) for v in BAD[kind])))
                if p.name == "store":
                    slots.append(Slot("PUZZLESEARCH_STORE", "env", "", tuple((v,) for v in BAD["env_store"])))
        if "stdin" in base:
            slots.append(Slot("stdin", "stdin", "", tuple((v,) for v in BAD["stdin"])))
        found.append(Command(puzzle, name, tuple(options), tuple(arguments), base.get("args", ()),
                             base.get("stdin", ("",))[0], tuple(slots), tuple(flags)))
    return found, problems


def make_case(cmd: Command, bad: dict[str, tuple[str, ...]], flags: list[str]) -> Case:
    """The command line: every option with its bad or base value, the flags, then '--' and the arguments."""
    argv = [cmd.puzzle, cmd.name]
    for name, opt, valid in cmd.options:
        if name in bad:
            argv += [opt, *bad[name]]
        elif valid is not None:
            argv += [opt, *valid]
    argv += flags
    # a fuzzed argument replaces its own place: the arguments before it keep their base values
    positional = cmd.base_args
    for i, name in enumerate(cmd.arguments):
        if name in bad:
            positional = (*cmd.base_args[:i], *bad[name])
            break
    if positional:
        argv += ["--", *positional]
    stdin = bad["stdin"][0] if "stdin" in bad else cmd.base_stdin
    env = (("PUZZLESEARCH_STORE", bad["PUZZLESEARCH_STORE"][0]),) if "PUZZLESEARCH_STORE" in bad else ()
    return Case(cmd.puzzle, tuple(argv), stdin, env)


@st.composite
def bad_cases(draw, commands: list[Command]) -> Case:
    cmd = draw(st.sampled_from([c for c in commands if c.slots]))
    k = draw(st.integers(1, min(2, len(cmd.slots))))
    slots = draw(st.lists(st.sampled_from(cmd.slots), min_size=k, max_size=k, unique_by=lambda s: s.key))
    bad = {s.key: draw(st.sampled_from(s.bad)) for s in slots}
    flags = draw(st.lists(st.sampled_from(cmd.flags), max_size=2, unique=True)) if cmd.flags else []
    return make_case(cmd, bad, flags)


# --- the worker process ---------------------------------------------------------------------------------


@dataclass
class Outcome:
    code: int | str  # exit status, or "timeout" / "hang" / "crash ..."
    out: str
    err: str
    seconds: float
    peak_mb: float
    rss_mb: float = 0.0  # what the worker holds after the case


class CaseTimeout(BaseException):
    """Raised in the worker by SIGALRM when a case runs past LIMIT."""


def serve(reply_fd: int) -> None:
    """The worker's loop: a case (JSON) per stdin line; its outcome (JSON) per line on reply_fd."""
    import faulthandler

    faulthandler.enable()  # a crash leaves its C-level trace in the worker's log
    sys.path.insert(0, str(HERE))
    from conftest import run_cli

    reply = os.fdopen(reply_fd, "w")
    # a case's peak is reported as a fresh process would have it: what the case added on top of
    # what the worker held before it, plus what the worker held when it started (interpreter,
    # click, numpy: a fresh command's own start)
    base = _peak_mb("VmRSS:")

    def alarm(signum, frame):
        raise CaseTimeout

    signal.signal(signal.SIGALRM, alarm)
    for line in sys.stdin:
        case = json.loads(line)
        saved = {k: os.environ.get(k) for k, _ in case["env"]}
        os.environ.update(dict(case["env"]))
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # the peak resident size starts again from now
        before = _peak_mb("VmRSS:")
        t0 = time.monotonic()
        timed_out = False
        signal.setitimer(signal.ITIMER_REAL, case.get("limit", LIMIT))
        try:
            r = run_cli(*case["argv"], input=case["stdin"])
            code, out, err = r.code, r.out, r.err
        except CaseTimeout:
            code, out, err, timed_out = "timeout", "", "", True
        except BaseException:  # what the real process would print: a traceback, exit 1
            code, out, err = 1, "", traceback.format_exc()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        seconds = time.monotonic() - t0
        peak = _peak_mb() - before + base
        outcome = {"code": code, "out": out, "err": err, "seconds": seconds, "peak_mb": peak,
                   "rss_mb": _peak_mb("VmRSS:")}
        reply.write(json.dumps(outcome) + "\n")
        reply.flush()
        if timed_out:  # threads or a pool may be left running: start afresh
            os._exit(0)


def _peak_mb(field: str = "VmHWM:") -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1]) / 1024
    return 0.0


def _limit_memory() -> None:
    os.setsid()
    resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, AS_LIMIT))


class Worker:
    """A long-lived process running cases one by one; killed (with its process group) and
    restarted after a hang, a crash or a timeout."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.log = folder / "worker.log"
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    def _start(self) -> None:
        read, write = os.pipe()
        env = {**os.environ, "MALLOC_ARENA_MAX": "2", "PYTHONFAULTHANDLER": "1"}
        boot = (f"import sys; sys.path.insert(0, {str(HERE)!r}); "
                f"import test_fuzz_cli; test_fuzz_cli.serve({write})")
        log = open(self.log, "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", boot], stdin=subprocess.PIPE, stdout=log, stderr=log, pass_fds=(write,),
            cwd=self.folder, env=env, preexec_fn=_limit_memory, text=True,
        )
        log.close()
        os.close(write)
        self.replies = os.fdopen(read, "r")
        self.starts += 1

    def run(self, case: Case, limit: float = LIMIT) -> Outcome:
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        logged = self.log.stat().st_size
        request = {"argv": list(case.argv), "stdin": case.stdin, "env": [list(e) for e in case.env],
                   "limit": limit}
        t0 = time.monotonic()
        try:
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass
        # the worker's own import of a puzzle (numba's cache) comes on top of LIMIT
        ready, _, _ = select.select([self.replies], [], [], limit + 20)
        line = self.replies.readline() if ready else ""
        if not line:
            status = self._stop()
            stray = self._log_since(logged)
            what = "hang (no answer, killed)" if not ready else f"crash (exit status {status})"
            return Outcome(what, "", stray, time.monotonic() - t0, 0.0)
        outcome = Outcome(**json.loads(line))
        stray = self._log_since(logged)
        if stray:  # written past sys.stderr (C code, numba, faulthandler): the user sees it too
            outcome.err += stray
        if outcome.code == "timeout" or outcome.rss_mb > RESTART_MB:
            self._stop()
        return outcome

    def _log_since(self, offset: int) -> str:
        with open(self.log, "rb") as f:
            f.seek(offset)
            return f.read().decode(errors="replace")

    def _stop(self) -> int | None:
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        status = self.proc.wait()
        self.replies.close()
        self.proc.stdin.close()
        self.proc = None
        return status


def problems_of(outcome: Outcome) -> list[str]:
    """What is wrong with the outcome of a bad-input case (nothing: it is right)."""
    wrong = []
    if outcome.code != 2:
        wrong.append(f"exit {outcome.code}")
    lines = outcome.err.strip("\n").splitlines()
    if len(lines) != 1:
        wrong.append(f"{len(lines)} stderr lines")
    if "Traceback" in outcome.err:
        wrong.append("traceback")
    if outcome.out:
        wrong.append("stdout not empty")
    if "out of memory" in outcome.err or "MemoryError" in outcome.err:
        wrong.append("met the memory limit instead of refusing first")
    if outcome.code == "timeout" or outcome.seconds > LIMIT:
        wrong.append(f"took more than {LIMIT:.0f} s")
    if outcome.peak_mb > PEAK_MB:
        wrong.append(f"peak memory {outcome.peak_mb:.0f} MiB")
    return wrong


def describe(case: Case, outcome: Outcome, wrong: list[str]) -> str:
    """A failing case for the report: its command line, what is wrong, its stderr (a traceback:
    its last line), the start of its stdout."""
    err = outcome.err.strip("\n")
    if "Traceback" in err:
        err = "Traceback ... " + err.splitlines()[-1]
    elif len(err) > 600:
        err = err[:300] + "\n    ...\n" + err[-300:]
    shown = "\n      ".join(err.splitlines()) or "(nothing)"
    out = f"\n    stdout: {outcome.out[:120]!r}" if outcome.out else ""
    return f"  {case.line()}\n    -> {', '.join(wrong)} ({outcome.seconds:.1f} s)\n    stderr: {shown}{out}"


# --- fixtures and tests ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def worker(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz")
    (folder / "notes.txt").write_text("my precious notes\n" * 20)
    (folder / "garbage.bin").write_bytes(bytes(range(256)) * 16)
    (folder / "truncated.sqlite").write_bytes(b"SQLite format 3\x00" + b"\xff" * 200)
    (folder / "folder").mkdir()
    w = Worker(folder)
    yield w
    w._stop()


@pytest.mark.parametrize("puzzle", sorted(PUZZLES))
def test_the_valid_values_are_valid(puzzle, worker):
    # otherwise every case of a command would be refused for the wrong reason, and pass
    commands, problems = commands_of(puzzle)
    for cmd in commands:
        case = make_case(cmd, {}, [])
        outcome = worker.run(case, VALID_LIMIT)
        if outcome.code != 0:
            problems.append(describe(case, outcome, [f"exit {outcome.code}, expected 0"]))
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


COUNTED: dict[str, int] = {}


@pytest.mark.parametrize("examples", [pytest.param(FAST_EXAMPLES, id="few"),
                                      pytest.param(EXAMPLES, id="many", marks=pytest.mark.slow)])
@pytest.mark.parametrize("puzzle", sorted(PUZZLES))
def test_bad_values_are_one_line_and_exit_2(puzzle, examples, worker):
    commands, problems = commands_of(puzzle)
    if not any(c.slots for c in commands):
        pytest.fail("\n".join(problems) or f"{puzzle} has no parameter to fuzz", pytrace=False)
    seen: set[Case] = set()
    failures: list[str] = []

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(case=bad_cases(commands))
    def run(case: Case) -> None:
        if case in seen:
            return
        seen.add(case)
        outcome = worker.run(case)
        wrong = problems_of(outcome)
        if wrong:
            failures.append(describe(case, outcome, wrong))

    run()
    if examples == EXAMPLES:
        COUNTED[puzzle] = len(seen)
    if problems or failures:
        pytest.fail(f"{len(failures)} of {len(seen)} bad-input cases of {puzzle} fail:\n"
                    + "\n".join(problems + failures), pytrace=False)


# Refusals that each once went wrong (a traceback, the work or an allocation begun before the
# refusal, a message in the wrong words), each with what its one line must not say.
NAMED = [
    (("shuffle", "solve", "-n", "100000"), (), ""),
    (("shuffle", "god", "-n", "100000"), (), ""),
    (("pancake", "god", "-n", "100000"), (), ""),
    (("shuffle", "solve", "-n", "1000"), (), ""),
    (("shuffle", "god", "-n", "1000"), (), ""),
    (("pancake", "god", "-n", "1000"), (), ""),
    (("shuffle", "solve", "-n", "100000000000000000000"), (), ""),
    (("shuffle", "solve", "--deck", "100000000000000000000", "--block", "2"), (), ""),
    (("shuffle", "solve", "-n", "5", "--memory", "inf"), (), ""),
    (("shuffle", "solve", "-n", "5", "--memory", "1e400"), (), ""),
    (("shuffle", "solve", "-n", "5", "--memory", "nan"), (), ""),
    (("topswops", "solve", "-n", "5", "--store", "/proc/nope/x.sqlite"), (), ""),
    (("topswops", "solve", "-n", "5"), (("PUZZLESEARCH_STORE", "/proc/nope/x.sqlite"),), ""),
    (("topswops", "solve", "-n", "5", "--store", "/nonexistent/dir/r.sqlite"), (), ""),
    (("topswops", "solve", "-n", "5", "--mode", "backward", "--checkpoint", "notes.txt"), (), ""),
    (("pancake", "god", "-n", "10", "--plot", "/nonexistent/x.png"), (), ""),
    (("shuffle", "god", "-n", "6", "--plot", "/nonexistent/x.png"), (), ""),
    (("pancake", "solve", "1", "2", "x"), (), "--stack"),
    (("pancake", "god", "-n", "20"), (), "2265816562.0 GiB"),
    (("topswops", "solve", "-n", "100000000000000000000"), (), ""),
    (("queens", "count", "-n", "100000000000000000000"), (), ""),
    (("grundy", "grundys", "--count", "100000000000000000000", "--summary"), (), ""),
    (("hanoi", "solve", "-n", "100000000000000000000"), (), ""),
]


@pytest.mark.parametrize(("argv", "env", "never"), NAMED, ids=[" ".join(a) for a, _, _ in NAMED])
def test_refusals_that_once_went_wrong_are_one_line(argv, env, never, worker):
    case = Case(argv[0], argv, "", env)
    outcome = worker.run(case)
    wrong = problems_of(outcome)
    if never and never in outcome.err:
        wrong.append(f"says {never!r}")
    if wrong:
        pytest.fail(describe(case, outcome, wrong), pytrace=False)


@pytest.mark.slow
def test_enough_distinct_cases_ran():
    if len(COUNTED) < len(PUZZLES):
        pytest.skip("runs after the fuzz tests of every puzzle")
    total = sum(COUNTED.values())
    print(f"{total} distinct bad-input cases: {COUNTED}")
    assert total >= MIN_CASES, COUNTED
