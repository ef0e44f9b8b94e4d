"""Shared test helpers: run the CLI in-process and read the published values."""

from __future__ import annotations

import contextlib
import io
import json
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from puzzlesearch.cli import main

DATA = Path(__file__).parent / "data"


@dataclass
class CliResult:
    code: int
    out: str
    err: str

    def json(self) -> dict:
        return json.loads(self.out)


def run_cli(*args: str, input: str | None = None) -> CliResult:
    """Run `puzzlesearch ARGS` in this process; capture stdout, stderr and the exit code."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    stdin = io.StringIO(input or "")
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        pytest.MonkeyPatch.context() as mp,
    ):
        mp.setattr("sys.stdin", stdin)
        try:
            main([str(a) for a in args])
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    return CliResult(code, out.getvalue(), err.getvalue())


def load_data(name: str) -> dict:
    """tests/data/NAME.json: published values with their sources."""
    return json.loads((DATA / f"{name}.json").read_text())


@pytest.fixture
def cli():
    return run_cli


def assert_bad_input(result: CliResult) -> None:
    """Bad input: exit 2, exactly one line on stderr, no traceback, nothing on stdout."""
    assert result.code == 2, (result.code, result.out, result.err)
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    assert "Traceback" not in result.err
    assert result.out == ""


class MeterRecorder:
    """Stands in for engine.progress.Meter: keeps what a run reports (class attribute `seen`)."""

    seen: list = []

    def __init__(self, label, total, unit, enabled=True):
        self.entry = {"label": label, "total": total, "unit": unit, "done": [], "enabled": enabled}
        type(self).seen.append(self.entry)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    def update(self, done, note=None):
        self.entry["done"].append(done)


@pytest.fixture
def meter_recorder():
    """A fresh MeterRecorder class (its own `seen` list) to monkeypatch in for Meter."""
    return type("Recorder", (MeterRecorder,), {"seen": []})


@pytest.fixture(autouse=True, scope="session")
def _private_results_store(tmp_path_factory):
    """Tests never read or write the user's results store: computed bounds go to a
    store private to this test session (shared by its tests, as a user's runs share one)."""
    mp = pytest.MonkeyPatch()
    mp.setenv("PUZZLESEARCH_STORE", str(tmp_path_factory.mktemp("store") / "results.sqlite"))
    yield
    mp.undo()


@pytest.fixture(scope="session")
def dask_cluster(tmp_path_factory):
    """The address of one Dask cluster shared by every test that runs work on a cluster,
    started as a user starts one: a ``dask scheduler`` process and two ``dask worker``
    processes of 2 threads each, so that every search also runs with tasks side by side in
    the threads of one process. Starting it costs seconds, and the tests must give the same
    answers on a cluster that is reused, as a user's is. Tests that kill its processes
    make a ProcessCluster of their own (tests/dask_processes.py)."""
    pytest.importorskip("distributed")
    from dask_processes import ProcessCluster

    cluster = ProcessCluster(tmp_path_factory.mktemp("dask"), workers=2, threads=2)
    try:
        yield cluster.address
    finally:
        cluster.close()


#: a child's command line, in a child that writes KERNEL_RUNNING on stderr as each numba kernel
#: starts (through engine.interrupt, in the kernel's own thread): a signal sent after that line
#: lands in a kernel, however loaded the machine. Run as [sys.executable, "-c", ANNOUNCING, *argv].
KERNEL_RUNNING = "kernel running\n"
ANNOUNCING = textwrap.dedent("""
    import os, sys
    from puzzlesearch.cli import main
    from puzzlesearch.engine import interrupt

    call, parallel = interrupt.call, interrupt.parallel

    def announced(job):
        def run(*args):
            os.write(2, b"kernel running\\n")
            return job(*args)
        return run

    interrupt.call = lambda kernel, *args: call(announced(kernel) if hasattr(kernel, "py_func") else kernel,
                                                *args)
    interrupt.parallel = lambda jobs, *args: parallel([announced(j) for j in jobs], *args)
    main()
""")


@pytest.fixture
def bottom_listings(monkeypatch):
    """The targets topswops' bottom.compute was called for: a bottom bound computed by a
    listing, not read back from the results store."""
    from puzzlesearch.topswops import bottom  # only for the tests that ask for it

    targets = []
    real = bottom.compute

    def compute(n, target, *args, **kw):
        targets.append(target)
        return real(n, target, *args, **kw)

    monkeypatch.setattr(bottom, "compute", compute)
    return targets
