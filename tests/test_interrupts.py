"""Ctrl-C at a random moment of each long command.

Each command runs as a real process in its own process group, and SIGINT goes to the whole
group, as a terminal's Ctrl-C does, at a random moment while it works. It must end within
STOP seconds with exit status 130 and exactly one line on stderr ("puzzlesearch:
interrupted...", with resume advice when it has a checkpoint), no traceback, no crash (an interrupt inside a
numba kernel once ended in a segmentation fault). Where the command takes a checkpoint, the
same command run again with it must skip exactly the tasks the checkpoint kept, run exactly
the others, and give the right answer: the run again counts the tasks it restores and the
tasks it runs (COUNTING), and the kept rows of the checkpoint must come out of it untouched.

The moments are random: PUZZLESEARCH_INTERRUPT_SEED=N repeats a run (the seed is in every
failure message). Runs with a checkpoint are interrupted once the checkpoint holds a
finished task (a random moment after it), the others at a random moment of a window in
which they are known to be working: from 0.3 s (the interpreter's own start, ~0.2 s, is
left out: a Ctrl-C there is Python's, before the program exists) to well before the end
(a Ctrl-C while the interpreter shuts down after the answer kills it with SIGINT).

A run may end before its signal on a loaded machine: it is tried again with a moment drawn
earlier, then on its longer case (`Long.longer`); a command whose every try ended before
its signal fails, naming each try. Each try has its own folder and its own results store,
so that no answer is read back from another run's store.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import load_data

#: seconds from the signal to the end of the process (the aim is 2 s; this leaves room for a loaded machine)
STOP = 3.0
#: seconds a run with a checkpoint may take to finish its first task (it may compute smaller cases first)
FIRST_TASK = 120.0
SEED = int(os.environ.get("PUZZLESEARCH_INTERRUPT_SEED", random.randrange(10**6)))


@dataclass(frozen=True)
class Long:
    """A long command: its arguments, the window (s after the start, or after the first
    finished task with a checkpoint) for the signal, for a command with a checkpoint the
    line of the finished answer (None: no checkpoint), and the same command on a bigger
    case, tried last when the runs end before their signal."""

    args: tuple[str, ...]
    window: tuple[float, float]
    answer: str | None = None
    longer: Long | None = None

    @property
    def name(self) -> str:
        return " ".join(self.args)


#: the finished answers of the commands with a checkpoint, from the published values
QUEENS = load_data("queens")
TOPSWOPS = load_data("topswops")["max_steps"]["values"]


def queens(n: int, *how: str, window: tuple[float, float], longer: Long | None = None) -> Long:
    answer = (f"n={n}  solutions={QUEENS['all_solutions']['values'][str(n)]}  "
              f"unique={QUEENS['unique_solutions']['values'][str(n)]}")
    return Long(("queens", "count", "-n", str(n), *how), window, answer, longer)


def forward(n: int, *how: str, longer: Long | None = None) -> Long:
    args = ("topswops", "solve", "-n", str(n), "--mode", "forward", *how)
    return Long(args, (0.8, 2.5), f"n={n}  forward={TOPSWOPS[str(n)]}", longer)


slow = pytest.mark.slow
ASSEMBLY = ("--method", "assembly", "--workers", "2")
LONG = [
    pytest.param(Long(("topswops", "solve", "-n", "13", "--mode", "backward"), (0.3, 4.0)), marks=slow),
    pytest.param(forward(13, "--workers", "1", longer=forward(14, "--workers", "1")), marks=slow),
    pytest.param(forward(13, longer=forward(14)), marks=slow),
    pytest.param(queens(16, "--workers", "1", window=(0.0, 0.6),
                        longer=queens(17, "--workers", "1", window=(0.0, 2.0))), marks=slow),
    # the fast lane's two: tasks on a pool with a checkpoint, and the breadth-first engine's threads
    queens(16, "--workers", "2", window=(0.0, 0.3), longer=queens(17, "--workers", "2", window=(0.0, 1.5))),
    pytest.param(queens(18, *ASSEMBLY, window=(0.3, 2.0), longer=queens(19, *ASSEMBLY, window=(0.3, 5.0))),
                 marks=slow),
    pytest.param(Long(("shuffle", "god", "-n", "5"), (0.3, 1.0)), marks=slow),
    Long(("pancake", "god", "-n", "10"), (0.3, 1.0)),
    pytest.param(Long(("grundy", "grundys", "-n", "5000000", "--summary"), (0.3, 5.0)), marks=slow),
    pytest.param(Long(("hanoi", "verify", "-n", "12"), (0.3, 1.2)), marks=slow),
    pytest.param(Long(("perm", "god", "cube2-qtm"), (0.3, 1.0)), marks=slow),
]


def done_tasks(path: Path) -> int:
    """Finished tasks in a checkpoint (0 while it does not exist yet)."""
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1) as db:
            return db.execute("select count(*) from done").fetchone()[0]
    except sqlite3.Error:
        return 0


def done_rows(path: Path) -> tuple[int, dict[int, tuple]]:
    """A checkpoint's task count and its finished tasks: index -> (task, result, seconds)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    try:
        ntasks = int(db.execute("select value from meta where key = 'ntasks'").fetchone()[0])
        rows = {idx: (task, result, seconds)
                for idx, task, result, seconds in db.execute("select idx, task, result, seconds from done")}
    finally:
        db.close()
    return ntasks, rows


def start(args: tuple[str, ...], cwd: Path, env: dict[str, str] | None = None,
          program: tuple[str, ...] = ("-m", "puzzlesearch")) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, *program, *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, env=env)


def finish(proc: subprocess.Popen, timeout: float) -> tuple[int | None, str, str]:
    try:
        out, err = proc.communicate(timeout=timeout)
        return proc.returncode, out, err
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return None, out, err


#: the command line in a process that writes, to the file PUZZLESEARCH_TEST_TASKS names, the
#: tasks each run of the engine (engine.run.run_tasks) with a checkpoint restored from it and
#: the tasks it ran: {"restored": [...], "ran": [...]}. Run as [sys.executable, "-c", COUNTING, *argv].
COUNTING = textwrap.dedent("""
    import json, os
    from puzzlesearch.cli import main
    from puzzlesearch.engine import run

    seen = {"restored": [], "ran": []}
    init, accept = run._Run.__init__, run._Run.accept

    def counted_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        if self.ckpt is not None:
            seen["restored"] += [i for i, have in enumerate(self.have) if have]

    def counted_accept(self, i, result):
        if self.ckpt is not None:
            seen["ran"].append(i)
        return accept(self, i, result)

    run._Run.__init__, run._Run.accept = counted_init, counted_accept
    try:
        main()
    finally:
        with open(os.environ["PUZZLESEARCH_TEST_TASKS"], "w") as f:
            json.dump(seen, f)
""")


@dataclass
class Stopped:
    """A run that a signal stopped: its command line, folder and environment, what it did."""

    case: Long
    args: tuple[str, ...]
    folder: Path
    env: dict[str, str]
    code: int | None
    out: str
    err: str
    took: float  # seconds from the signal to the end of the process
    at: str  # the command line and the moment of the signal, for failure messages

    @property
    def checkpoint(self) -> Path:
        return self.folder / "run.ckpt"


def tries(long: Long) -> list[tuple[Long, float]]:
    """The runs to try, each with the factor of its moment: the case, the case again with a
    moment drawn earlier, then the longer case (without one: the case, earlier still)."""
    return [(long, 1.0), (long, 0.5), (long.longer, 1.0) if long.longer else (long, 0.25)]


def stop(long: Long, tmp_path: Path, rng: random.Random, signum: int = signal.SIGINT,
         group: bool = True) -> Stopped:
    """Run `long` and send it `signum` (to its whole process group with `group`, else to the
    process alone) at a random moment; the first try the signal stopped. A run that ends
    before its signal is tried again (see `tries`); when every try ended, the test fails."""
    ended = []
    for number, (case, factor) in enumerate(tries(long)):
        folder = tmp_path / f"try-{number}"
        folder.mkdir()
        ckpt = folder / "run.ckpt"
        env = {**os.environ, "PUZZLESEARCH_STORE": str(folder / "results.sqlite")}
        args = case.args if case.answer is None else (*case.args, "--checkpoint", str(ckpt))
        where = f"(PUZZLESEARCH_INTERRUPT_SEED={SEED}) puzzlesearch {' '.join(args)}"
        proc = start(args, folder, env)
        t0 = time.monotonic()
        if case.answer is not None:  # a random moment after the first finished task
            while done_tasks(ckpt) == 0 and proc.poll() is None:
                if time.monotonic() - t0 > FIRST_TASK:
                    finish(proc, 0)
                    pytest.fail(f"{where}: no task finished in its first {FIRST_TASK:.0f} s")
                time.sleep(0.01)
        time.sleep(rng.uniform(*case.window) * factor)
        if proc.poll() is not None:
            code, out, err = finish(proc, 5)
            assert code == 0, f"{where}: ended before the signal with exit {code}: {err[-500:]}"
            due = time.monotonic() - t0
            ended.append(f"{where}: ended before its signal, due {due:.2f} s after its start")
            continue
        sent = time.monotonic()
        if group:
            os.killpg(proc.pid, signum)  # the whole group, as a terminal's Ctrl-C
        else:
            proc.send_signal(signum)  # the parent alone, as `kill PID` does
        code, out, err = finish(proc, 30)
        took = time.monotonic() - sent
        if code in (0, -signal.SIGINT) and out.strip() and not err.strip():
            # the answer was out before the signal: the process ended as a finished run
            # (0), or the interpreter was shutting down (Python's default SIGINT action is
            # back by then). Either way the run was quicker than the moment drawn
            ended.append(f"{where}: its answer was out before the signal at {sent - t0:.2f} s")
            continue
        at = f"{where}, signal at {sent - t0:.2f} s"
        stopped = Stopped(case, args, folder, env, code, out, err, took, at)
        assert_stopped(stopped)
        if case.answer is not None:
            ntasks, kept = done_rows(ckpt)
            if len(kept) == ntasks:  # stopped after its last task: nothing left to resume
                ended.append(f"{stopped.at}: its {ntasks} tasks had all finished")
                continue
        return stopped
    pytest.fail("every run ended before its signal:\n" + "\n".join(ended))


def assert_stopped(s: Stopped) -> None:
    """Exit 130 within STOP seconds, one line on stderr (resume advice with a checkpoint), no crash."""
    assert s.code is not None, f"{s.at}: still running 30 s after the signal: {s.err[-500:]}"
    lines = s.err.strip("\n").splitlines()
    assert s.code == 130, f"{s.at}: exit {s.code}, stderr:\n{s.err[-2000:]}\nstdout:\n{s.out[-500:]}"
    crashed = [w for w in ("Traceback", "Fatal Python error", "Segmentation") if w in s.err]
    assert not crashed, f"{s.at}: {s.err}"
    assert len(lines) == 1 and lines[0].startswith("puzzlesearch: interrupted"), f"{s.at}: stderr:\n{s.err}"
    assert s.took < STOP, f"{s.at}: took {s.took:.1f} s to stop"
    if s.case.answer is not None:
        assert lines[0] == (f"puzzlesearch: interrupted; run the same command again with --checkpoint "
                            f"{s.checkpoint} to resume"), f"{s.at}: no resume advice: {lines[0]}"


def assert_resumes(s: Stopped) -> None:
    """The same command again: it restores exactly the tasks the checkpoint kept, runs
    exactly the others, leaves the kept rows as they were, and prints the right answer."""
    ntasks, kept = done_rows(s.checkpoint)
    assert 0 < len(kept) < ntasks, f"{s.at}: {len(kept)} of {ntasks} tasks kept"
    counts = s.folder / "tasks.json"
    proc = start(s.args, s.folder, {**s.env, "PUZZLESEARCH_TEST_TASKS": str(counts)}, ("-c", COUNTING))
    code, out, err = finish(proc, 600)
    again = f"{s.at}; resumed with {len(kept)} of {ntasks} tasks kept"
    assert code == 0, f"{again}: exit {code}: {err[-2000:]}"
    assert out.splitlines()[-1:] == [s.case.answer], f"{again}: {out}"
    seen = json.loads(counts.read_text())
    assert sorted(seen["restored"]) == sorted(kept), f"{again}: restored {len(seen['restored'])}"
    rest = sorted(set(range(ntasks)) - set(kept))
    assert sorted(seen["ran"]) == rest, f"{again}: ran {len(seen['ran'])} tasks, not the {len(rest)} left"
    total, after = done_rows(s.checkpoint)
    assert total == ntasks and sorted(after) == list(range(ntasks)), f"{again}: {len(after)} rows after"
    assert {i: after[i] for i in kept} == kept, f"{again}: a kept task was run again"


@pytest.mark.parametrize("long", LONG, ids=lambda c: c.name)
def test_ctrl_c_at_a_random_moment(long: Long, tmp_path: Path):
    stopped = stop(long, tmp_path, random.Random(f"{SEED} {long.name}"))
    if long.answer is not None:
        assert_resumes(stopped)


def test_sigterm_ends_a_run_as_ctrl_c_does(tmp_path: Path):
    # the moment: as soon as the first task is in the checkpoint
    now = (0.0, 0.0)
    long = queens(16, "--workers", "2", window=now, longer=queens(17, "--workers", "2", window=now))
    stopped = stop(long, tmp_path, random.Random(SEED), signal.SIGTERM, group=False)
    assert_resumes(stopped)


# Two ways Python itself turns a handled Ctrl-C into something else, made to happen on purpose
# in the toy puzzle: a KeyboardInterrupt out of an eval() (an import's namedtuple, while numba
# loads) makes the interpreter kill itself with SIGINT at exit (-2), and one inside a class's
# __set_name__ arrives wrapped in a RuntimeError.
CHILD = """
import sys
sys.path.insert(0, {tests!r})
import click
from puzzlesearch import clikit, registry
registry.register("toy", "toy.cli:toy", "toy", "Toy.")
import toy.cli

def ctrl_c():
    raise KeyboardInterrupt

@toy.cli.toy.command()
def in_eval():
    with clikit.library_call():
        eval("ctrl_c()", {{"ctrl_c": ctrl_c}})

@toy.cli.toy.command()
def wrapped():
    try:
        ctrl_c()
    except KeyboardInterrupt as e:
        raise RuntimeError("Error calling __set_name__ on 'cached_property' instance") from e

sys.argv = ["puzzlesearch", "toy", {command!r}]
from puzzlesearch.cli import main
main()
"""


@pytest.mark.parametrize("command", ["in-eval", "wrapped"])
def test_a_ctrl_c_python_mangles_still_exits_130(command, tmp_path):
    # run as `python -m`, as the program is: only that path checks the interpreter's flag at exit
    (tmp_path / "mangled.py").write_text(CHILD.format(tests=str(Path(__file__).parent), command=command))
    done = subprocess.run([sys.executable, "-m", "mangled"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stdout) == (130, ""), done.stderr
    assert done.stderr.startswith("puzzlesearch: interrupted") and done.stderr.count("\n") == 1, done.stderr
