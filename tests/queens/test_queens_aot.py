"""The ahead-of-time kernels (aot.py): the same answers as the JIT kernels, the wheel's build
used where it suits the CPU, and a safe fallback."""

import os
import platform
import random
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from conftest import run_cli
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.queens import (
    aot,
    api,
    assembly,
    assembly_kernel,
    constellation,
    corner,
    edges,
    symmetric_kernel,
    tasks,
)
from puzzlesearch.queens.assembly import cases
from puzzlesearch.queens.assembly import tasks as assembly_tasks


@pytest.fixture
def fresh_choice(monkeypatch, tmp_path):
    """Let a test choose the kernels again, with its own environment and no packaged build;
    restore the choice after."""
    monkeypatch.setattr(aot, "_loaded", None)
    monkeypatch.setattr(aot, "packaged_dir", lambda: tmp_path / "packaged")
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


def test_aot_assembly_kernels_agree_with_jit():
    module = built_module()
    for h in range(1, 8):  # the quarter tables, cell by cell
        size = 1 << (2 * h)
        made = []
        for kernels in (module, assembly_kernel):
            start = np.zeros(size + 1, np.int64)
            kernels.quarter(h, False, start, start)
            np.cumsum(start, out=start)
            cells = np.zeros(int(start[-1]), np.int64)
            kernels.quarter(h, True, start[:-1].copy(), cells)
            made.append((start, cells))
        assert (made[0][0] == made[1][0]).all() and (made[0][1] == made[1][1]).all(), h
        assert module.quarter_size(h) == assembly_kernel.quarter_size(h) == len(made[0][1])
    for n in range(1, 15):
        assert module.half_turn_count(n) == symmetric_kernel.half_turn_count(n), n
        assert module.quarter_turn_count(n) == symmetric_kernel.quarter_turn_count(n), n


def test_aot_assembly_tasks_agree_with_jit(monkeypatch):
    module = built_module()
    monkeypatch.setattr(aot, "_loaded", (module, "aot", True))
    for n in range(4, 15):
        for task in assembly_tasks(n, 24):
            assert assembly.run_task(task) == assembly.run_task(task, "jit"), task
    for n in (14, 15):  # the progress bar's weights and the split's, even and odd
        for case in cases(n):
            lay = assembly.layout(n, case)
            start, _ = assembly.table(lay["h"])
            args = (lay["h"], start, lay["free_rows"], lay["east"], lay["west"], lay["sym"], 0, lay["sets"],
                    16)
            assert module.task_work(*args) == assembly_kernel.task_work(*args), (n, case)
            # the work of blocks of ranks, which the tasks are cut by
            aot_blocks, jit_blocks = np.zeros(37), np.zeros(37)
            module.work_profile(*args[:-1], 4, aot_blocks)
            assembly_kernel.work_profile(*args[:-1], 4, jit_blocks)
            assert aot_blocks.tolist() == jit_blocks.tolist() and aot_blocks.sum() > 0, (n, case)


@pytest.mark.parametrize("method", ["constellation", "assembly"])
def test_counts_name_the_kernels_used(fresh_choice, method):
    fresh_choice.setenv("PUZZLESEARCH_KERNELS", "jit")
    c = api.count(13, method=method, run=RunOptions(workers=1))
    assert (c.kernels, c.solutions, c.unique) == ("jit", 73712, 9233)
    built_module()
    fresh_choice.setattr(aot, "_loaded", None)
    fresh_choice.setenv("PUZZLESEARCH_KERNELS", "aot")
    c = api.count(13, method=method, run=RunOptions(workers=1))
    assert (c.kernels, c.solutions, c.unique) == ("aot", 73712, 9233)


def packaged_build(tmp_path):
    """The packaged build of this checkout: the one an editable install compiled into the
    tree, else one compiled into tmp_path (as the wheel's hook does)."""
    path = aot.packaged_path()
    if path.exists():
        return path
    built_module()  # skips where nothing compiles C
    return aot.build_packaged(tmp_path)


def test_the_packaged_build_serves_until_a_tuned_one_is_asked_for(fresh_choice, tmp_path):
    packaged = packaged_build(tmp_path / "packaged")
    fresh_choice.setattr(aot, "packaged_dir", lambda: packaged.parent)
    fresh_choice.setenv("PUZZLESEARCH_CACHE", str(tmp_path / "cache"))
    fresh_choice.delenv("PUZZLESEARCH_KERNELS", raising=False)
    if not aot.packaged_runs_here():
        pytest.skip(f"this CPU lacks what the packaged build ({aot.packaged_cpu()}) needs")
    builds = []

    def build(path, cpu=None):  # the tuned build, faked by a copy of the packaged one
        builds.append(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(packaged, path)

    fresh_choice.setattr(aot, "build", build)
    kernels, kind = aot.kernels()
    assert kind == "aot" and Path(kernels.__file__) == packaged and builds == []
    assert kernels.quarter_turn_count(12) == 8  # R90(12), OEIS A033148
    assert aot.kernels() == (kernels, "aot")  # kept
    told = []
    tuned, kind = aot.kernels(tuned=True, notice=told.append)  # a long count: built for this CPU first
    assert kind == "aot" and builds == [aot.module_path()] and Path(tuned.__file__) == aot.module_path()
    assert told == [aot.BUILD_NOTICE]  # said before the wait, not after
    fresh_choice.setattr(aot, "_loaded", None)
    assert Path(aot.kernels(tuned=True, notice=told.append)[0].__file__) == aot.module_path()  # every count's
    assert builds == [aot.module_path()] and told == [aot.BUILD_NOTICE]


@pytest.mark.parametrize("method", ["assembly", "constellation", "corner"])
def test_a_long_count_says_it_compiles_before_it_does(fresh_choice, tmp_path, method):
    fresh_choice.setenv("PUZZLESEARCH_CACHE", str(tmp_path / "cache"))
    fresh_choice.delenv("PUZZLESEARCH_KERNELS", raising=False)
    told = []

    def build(path, cpu=None):
        told.append("built")
        raise RuntimeError("no C compiler")  # the JIT kernels serve: the notice came first all the same

    fresh_choice.setattr(aot, "build", build)
    if method == "assembly":
        tasks.prepare_assembly(tasks.TUNED_N, None, told.append)
    else:
        tasks.warm_up(method, tasks.TUNED_N, told.append)
    assert told == [aot.BUILD_NOTICE, "built"]


def test_the_packaged_build_serves_a_long_count_where_no_tuned_one_can_be_built(fresh_choice, tmp_path):
    packaged = packaged_build(tmp_path / "packaged")
    fresh_choice.setattr(aot, "packaged_dir", lambda: packaged.parent)
    fresh_choice.setenv("PUZZLESEARCH_CACHE", str(tmp_path / "cache"))
    fresh_choice.setenv("PUZZLESEARCH_KERNELS", "aot")
    if not aot.packaged_runs_here():
        pytest.skip(f"this CPU lacks what the packaged build ({aot.packaged_cpu()}) needs")

    def no_compiler(path, cpu=None):
        raise RuntimeError("no C compiler")

    fresh_choice.setattr(aot, "build", no_compiler)
    kernels, kind = aot.kernels(tuned=True)
    assert kind == "aot" and Path(kernels.__file__) == packaged
    assert aot.module_path().with_suffix(".failed").read_text() == "RuntimeError: no C compiler\n"


def test_the_packaged_build_is_passed_over_where_the_cpu_lacks_its_level(fresh_choice, tmp_path):
    packaged = packaged_build(tmp_path / "packaged")
    fresh_choice.setattr(aot, "packaged_dir", lambda: packaged.parent)
    fresh_choice.setenv("PUZZLESEARCH_CACHE", str(tmp_path / "cache"))
    fresh_choice.delenv("PUZZLESEARCH_KERNELS", raising=False)
    fresh_choice.setattr(aot, "PACKAGED_CPU", {platform.machine(): "x86-64-v3"})
    fresh_choice.setattr(aot, "_cpu_flags", lambda: "fpu sse sse2")  # an x86-64 of 2005
    assert not aot.packaged_runs_here()

    def no_compiler(path, cpu=None):
        raise RuntimeError("no C compiler")

    fresh_choice.setattr(aot, "build", no_compiler)
    kernels, kind = aot.kernels()
    assert kind == "jit" and kernels.count_range is assembly_kernel.count_range


def test_a_damaged_packaged_build_is_passed_over(fresh_choice, tmp_path):
    fresh_choice.setenv("PUZZLESEARCH_CACHE", str(tmp_path / "cache"))
    fresh_choice.delenv("PUZZLESEARCH_KERNELS", raising=False)
    fresh_choice.setattr(aot, "_cpu_flags", lambda: "")  # any CPU runs the generic build
    fresh_choice.setattr(aot, "PACKAGED_CPU", {})
    aot.packaged_path().parent.mkdir(parents=True)
    aot.packaged_path().write_bytes(b"not a shared object")
    fresh_choice.setattr(aot, "build", lambda path, cpu=None: (_ for _ in ()).throw(RuntimeError("none")))
    assert aot.kernels()[1] == "jit"


def test_the_tuned_and_packaged_builds_have_names_of_their_own(monkeypatch):
    tuned, packaged = aot.module_path(), aot.packaged_path()
    assert tuned.name != packaged.name and packaged.parent.name == "_aot"
    monkeypatch.setitem(aot.EXPORTS, "quarter", ("assembly_kernel", "void(i8, b1, i8[:], i8[:])"))
    assert aot.packaged_path() != packaged and aot.module_path() != tuned


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


def test_a_worker_thread_never_builds_the_kernels(fresh_choice, tmp_path):
    # A Dask worker runs its tasks on threads of their own: there the builds that exist
    # serve, or the JIT kernels, never a 15 s build holding the GIL under the other tasks.
    fresh_choice.setenv("PUZZLESEARCH_CACHE", str(tmp_path))
    fresh_choice.delenv("PUZZLESEARCH_KERNELS", raising=False)
    calls = []
    fresh_choice.setattr(aot, "build", calls.append)
    got = []
    for tuned in (False, True):
        fresh_choice.setattr(aot, "_loaded", None)
        worker = threading.Thread(target=lambda t=tuned: got.append(aot.kernels(tuned=t)[1]))
        worker.start()
        worker.join(60)
    assert got == ["jit", "jit"] and calls == []
    fresh_choice.setattr(aot, "_loaded", None)
    aot.kernels()  # the main thread does build
    assert calls == [aot.module_path()]


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


@pytest.mark.parametrize("method", ["constellation", "assembly"])
def test_a_count_with_aot_kernels_never_imports_numba(method):
    built_module()
    code = (
        "import sys\n"
        "from puzzlesearch.cli import main\n"
        f"try:\n    main(['queens', 'count', '-n', '13', '--method', '{method}', '-v'])\n"
        "except SystemExit as e:\n    assert not e.code\n"
        "assert 'numba' not in sys.modules, 'numba was imported'\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PUZZLESEARCH_KERNELS"}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"n=13  solutions=73712  unique=9233\nmethod={method}  kernels=aot")


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


@pytest.mark.slow
def test_the_wheel_hook_compiles_the_packaged_build(tmp_path):
    built_module()  # skips where nothing compiles C
    root = Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(root))
    try:
        import hatch_build
    finally:
        sys.path.remove(str(root))
    before = sys.modules["puzzlesearch.queens.aot"]
    (tmp_path / f"{aot.MODULE}-0123456789abcdef.so").write_bytes(b"a build of other sources")
    path = hatch_build._build(root / "src" / "puzzlesearch", tmp_path)
    assert sys.modules["puzzlesearch.queens.aot"] is before  # the package as it was
    assert path.name == aot.packaged_path().name and [p.name for p in tmp_path.iterdir()] == [path.name]
    module = aot._load(path)
    assert module.half_turn_count(12) == 80 and module.quarter_turn_count(12) == 8  # A032522, A033148


def test_a_large_quarter_table_is_built_by_kernels_that_let_ctrl_c_through(monkeypatch):
    module = built_module()
    calls = []

    class Watched:  # the kernels compiled ahead of time, each call noted
        def __getattr__(self, name):
            calls.append(name)
            return getattr(module, name)

    monkeypatch.setattr(aot, "_loaded", (Watched(), "aot", True))
    monkeypatch.setattr(assembly, "JIT_TABLE_H", 5)
    for h in (4, 5):
        assembly.table.cache_clear()
        assembly.quarter_cells.cache_clear()
        calls.clear()
        start, cells = assembly.table(h)
        assert assembly.quarter_cells(h) == len(cells) == start[-1]
        assert calls == ([] if h >= 5 else ["quarter", "quarter"]), h
    assembly.table.cache_clear()
    assembly.quarter_cells.cache_clear()
