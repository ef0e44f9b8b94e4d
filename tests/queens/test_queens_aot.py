"""The ahead-of-time kernels (aot.py): the same answers as the JIT kernels, and a safe fallback."""

import os
import random
import shutil
import subprocess
import sys

import numpy as np
import pytest

from conftest import run_cli
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.queens import aot, api, constellation, corner, edges, tasks


@pytest.fixture
def fresh_choice(monkeypatch):
    """Let a test choose the kernels again, with its own environment; restore the choice after."""
    monkeypatch.setattr(aot, "_loaded", None)
    return monkeypatch


def built_module():
    """The AOT module of this checkout (built if needed); skipped only where nothing can compile C."""
    if not (shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")):
        pytest.skip("no C compiler: the counting kernels run as JIT code here")
    path = aot.module_path()
    if not path.exists():
        aot.build(path)
    return aot._load(path)


def test_aot_kernels_agree_with_jit_kernels_task_by_task():
    module = built_module()
    rng = random.Random(5)
    for n in range(4, 13):
        for task in tasks.corner_tasks(n):
            prefix = tasks._bits(task["cols"])
            if task["side"]:
                got = module.side_kernel(n, task["bound1"], prefix)
                want = corner.side_kernel(n, task["bound1"], prefix)
            else:
                got = module.corner_kernel(n, task["bound1"], prefix)
                want = corner.corner_kernel(n, task["bound1"], prefix)
            assert tuple(np.atleast_1d(got)) == tuple(np.atleast_1d(want)), (n, task)
            # and the split below this prefix, at a random depth
            depth = rng.randrange(len(task["cols"]), n - 1)
            outs = [np.zeros((n**2, n), np.int64) for _ in range(2)]
            found = [
                k.split_kernel(n, task["side"], task["bound1"], prefix, depth, out)
                for k, out in zip((module, corner), outs, strict=True)
            ]
            assert found[0] == found[1] and (outs[0] == outs[1]).all(), (n, task, depth)


def test_aot_constellation_kernel_agrees_with_jit():
    module = built_module()
    for n in range(4, 13):
        cons = edges.constellations(n)
        for i in range(len(cons)):
            one = cons[i : i + 1]
            assert module.count_batch(n, one) == constellation.count_batch(n, one), (n, one)


def test_counts_name_the_kernels_used(fresh_choice):
    fresh_choice.setenv("PUZZLESEARCH_KERNELS", "jit")
    c = api.count(13, run=RunOptions(workers=1))
    assert (c.kernels, c.solutions, c.unique) == ("jit", 73712, 9233)
    built_module()
    fresh_choice.setattr(aot, "_loaded", None)
    fresh_choice.setenv("PUZZLESEARCH_KERNELS", "aot")
    c = api.count(13, run=RunOptions(workers=1))
    assert (c.kernels, c.solutions, c.unique) == ("aot", 73712, 9233)


def test_a_failed_build_falls_back_to_jit_and_is_not_retried(fresh_choice, tmp_path):
    fresh_choice.setenv("PUZZLESEARCH_CACHE", str(tmp_path))
    fresh_choice.delenv("PUZZLESEARCH_KERNELS", raising=False)
    calls = []

    def no_compiler(path):
        calls.append(path)
        raise RuntimeError("no C compiler")

    fresh_choice.setattr(aot, "build", no_compiler)
    kernels, kind = aot.kernels()
    assert kind == "jit" and kernels.corner_kernel is corner.corner_kernel
    marker = aot.module_path().with_suffix(".failed")
    assert marker.read_text() == "RuntimeError: no C compiler\n"
    fresh_choice.setattr(aot, "_loaded", None)
    assert aot.kernels()[1] == "jit" and len(calls) == 1  # remembered: no second attempt
    # asked for explicitly, the failure is an error, not a silent fallback
    fresh_choice.setattr(aot, "_loaded", None)
    fresh_choice.setenv("PUZZLESEARCH_KERNELS", "aot")
    with pytest.raises(ValueError, match=r"could not be built ahead of time \(RuntimeError: no C compiler\)"):
        aot.kernels()
    # and on the command line, one line and exit 2
    fresh_choice.setattr(aot, "_loaded", None)
    r = run_cli("queens", "count", "-n", "8")
    assert r.code == 2 and r.out == "" and len(r.err.strip().splitlines()) == 1
    assert r.err.startswith("puzzlesearch: error: PUZZLESEARCH_KERNELS=aot, but the kernels could not")


def test_module_name_follows_the_kernel_source(monkeypatch):
    before = aot.module_path()
    monkeypatch.setitem(aot.EXPORTS, "corner_kernel", ("corner", "i8(i8, i8, i8[:])"))
    assert aot.module_path() != before and aot.module_path().parent == before.parent


def test_bad_kernels_setting_is_one_line(fresh_choice):
    fresh_choice.setenv("PUZZLESEARCH_KERNELS", "fast")
    r = run_cli("queens", "count", "-n", "8")
    assert r.code == 2 and r.out == ""
    message = "puzzlesearch: error: PUZZLESEARCH_KERNELS must be 'aot' or 'jit', got 'fast'"
    assert r.err.strip().splitlines() == [message]


def test_a_count_with_aot_kernels_never_imports_numba():
    built_module()
    code = (
        "import sys\n"
        "from puzzlesearch.cli import main\n"
        "try:\n    main(['queens', 'count', '-n', '13', '-v'])\n"
        "except SystemExit as e:\n    assert not e.code\n"
        "assert 'numba' not in sys.modules, 'numba was imported'\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PUZZLESEARCH_KERNELS"}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("n=13  solutions=73712  unique=9233\nmethod=constellation  kernels=aot")


def test_a_damaged_module_falls_back_to_jit(fresh_choice, tmp_path):
    fresh_choice.setenv("PUZZLESEARCH_CACHE", str(tmp_path))
    fresh_choice.delenv("PUZZLESEARCH_KERNELS", raising=False)
    aot.module_path().write_bytes(b"not a shared object")
    kernels, kind = aot.kernels()
    assert kind == "jit" and kernels.count_batch is constellation.count_batch
    fresh_choice.setattr(aot, "_loaded", None)
    fresh_choice.setenv("PUZZLESEARCH_KERNELS", "aot")
    with pytest.raises(ValueError, match="does not load"):
        aot.kernels()
