"""The counting kernels compiled ahead of time, so that `queens count` starts without numba.

Importing numba and compiling or loading the kernels costs every process time: about 0.4 s
to import numba and load cached kernels, and on a fresh machine about 5 s to compile the
assembly ones (a first count of n = 17 took 6.60 s with the JIT kernels, 1.40 s without).
The counting kernels of corner.py, constellation.py, assembly_kernel.py and
symmetric_kernel.py are therefore also compiled with ``numba.pycc`` into a small extension
module: the same numba code, compiled before the run instead of during it, loaded without
numba or a compiler. Two builds of it serve:

* **Packaged**: the wheel carries one, compiled when the wheel is built (``hatch_build.py``)
  for a CPU level every current machine of its kind has (``PACKAGED_CPU``: x86-64-v3 on
  x86, generic elsewhere), so that a first count on a new machine does not wait on the
  compiler. It is used where the CPU has that level's features.
* **Tuned**: compiled for this CPU on first use and kept in the user cache directory
  (``$PUZZLESEARCH_CACHE`` overrides it). On the host's own CPU the kernels use its
  instructions (AVX-512 popcounts where it has them): at n = 18 the assembly count took
  4.06 s of CPU tuned against 4.91 s at x86-64-v3 (benchmarks/results/
  queens_assembly_cold.json). Long counts ask for it (``kernels(tuned=True)``); every
  count uses it once it exists.

Both are named after a hash of the kernels' source and this file's, so an edited kernel
never runs from a stale build; the tuned one also after the CPU's feature flags.

``kernels()`` returns the extension if one is usable or can be built, else the JIT kernels
(the same functions, so the answer never depends on which one ran); the second value says
"aot" or "jit". The environment variable ``PUZZLESEARCH_KERNELS`` forces ``jit`` or ``aot``
(``aot`` raises ValueError where no build can be made or loaded). A failed build (no C compiler,
numba without pycc) is remembered in a marker file next to where the module would be, so
that later runs go straight to the JIT kernels; delete the marker to retry. Only the main
thread builds: elsewhere (the tasks of a Dask worker) the choice is the builds that exist.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import platform
import tempfile
import threading
import warnings
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

MODULE = "_queens_kernels"
# name -> (module, numba signature) of every exported kernel
EXPORTS = {
    "corner_kernel": ("corner", "i8(i8, i8, i8[::1])"),
    "side_kernel": ("corner", "UniTuple(i8, 3)(i8, i8, i8[::1])"),
    "split_kernel": ("corner", "i8(i8, b1, i8, i8[::1], i8, i8[:, ::1])"),
    "count_batch": ("constellation", "UniTuple(i8, 2)(i8, i8[:, ::1])"),
    "quarter": ("assembly_kernel", "void(i8, b1, i8[::1], i8[::1])"),
    "quarter_size": ("assembly_kernel", "i8(i8)"),
    "count_range": ("assembly_kernel", "void(" + ", ".join(["i8"] * 2 + ["i8[::1]"] * 2 + ["i8"] * 16)
                    + ", i8[:, ::1], i8[::1])"),
    "task_work": ("assembly_kernel", "f8(i8, i8[::1], i8, i8, i8, i8, i8, i8, i8)"),
    "work_profile": ("assembly_kernel", "void(i8, i8[::1], i8, i8, i8, i8, i8, i8, i8, f8[::1])"),
    "half_turn_count": ("symmetric_kernel", "i8(i8)"),
    "quarter_turn_count": ("symmetric_kernel", "i8(i8)"),
}
# the sources the kernels are compiled from: their modules, and the helpers they inline
SOURCES = sorted({f"{module}.py" for module, _ in EXPORTS.values()}) + ["../engine/layers_kernel.py"]
# The packaged build's CPU (LLVM's name) on each machine kind, and the /proc/cpuinfo flags a
# CPU needs to run it. x86-64-v3 is the AVX2 level (Intel since 2013, AMD since 2015); the
# generic x86-64 would lack even the popcount instruction the matching is made of.
PACKAGED_CPU = {"x86_64": "x86-64-v3", "AMD64": "x86-64-v3"}
NEEDS_FLAGS = {
    "x86-64-v3": frozenset("avx avx2 bmi1 bmi2 f16c fma abm movbe xsave cx16 lahf_lm popcnt sse4_1 sse4_2 "
                           "ssse3".split()),
}

_loaded: tuple[object, str, bool] | None = None  # (kernels, "aot" | "jit", tuned) once chosen
# the threads of a Dask worker ask at once: one of them chooses (and builds), the others wait
_choosing = threading.Lock()


def cache_dir() -> Path:
    """Where the tuned modules live: $PUZZLESEARCH_CACHE, else the user cache directory."""
    env = os.environ.get("PUZZLESEARCH_CACHE")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("puzzlesearch")) / "kernels"


def packaged_dir() -> Path:
    """Where the wheel puts its build of the kernels."""
    return Path(__file__).with_name("_aot")


def target_cpu() -> str:
    """"host" where the CPU's features can be read without LLVM (Linux), else "" (generic).

    A module compiled for the host is named after its CPU's flags, so it never runs on
    another CPU.
    """
    return "host" if _cpu_flags() else ""


def _cpu_flags() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith(("flags", "Features")):  # x86 and arm64 spell it differently
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def _source_digest() -> hashlib._Hash:
    here = Path(__file__)
    # the kernels, and how they are built
    digest = hashlib.sha256(b"".join((here.parent / name).read_bytes() for name in SOURCES))
    digest.update(here.read_bytes())
    digest.update(repr(sorted(EXPORTS.items())).encode())
    return digest


def module_path() -> Path:
    """The tuned extension for these kernels, this Python, this platform and this CPU."""
    digest = _source_digest()
    digest.update(f"{platform.machine()} {_cpu_flags()}".encode())
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]  # e.g. .cpython-311-x86_64-linux-gnu.so
    return cache_dir() / f"{MODULE}-{digest.hexdigest()[:16]}{suffix}"


def packaged_cpu() -> str:
    """The CPU the packaged build is compiled for on this kind of machine ("" for generic)."""
    return PACKAGED_CPU.get(platform.machine(), "")


def packaged_path() -> Path:
    """The packaged extension for these kernels, this Python and this kind of machine."""
    digest = _source_digest()
    cpu = packaged_cpu()
    digest.update(f"{platform.machine()} {cpu}".encode())
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return packaged_dir() / f"{MODULE}-{digest.hexdigest()[:16]}{suffix}"


def packaged_runs_here() -> bool:
    """Whether this CPU has what the packaged build's CPU level needs."""
    needs = NEEDS_FLAGS.get(packaged_cpu())
    return needs is None or needs <= set(_cpu_flags().split())


BUILD_NOTICE = "compiling the N-Queens kernels for this CPU, once for this machine (about 15 s)"


def kernels(tuned: bool = False, notice: Callable[[str], None] | None = None) -> tuple[object, str]:
    """(an object with the kernels of EXPORTS, "aot" or "jit").

    With ``tuned``, a build for this very CPU is made first if there is none (about 15 s):
    for long counts, which it makes faster, never for a first short one. ``notice`` is
    told BUILD_NOTICE before a build starts.
    """
    global _loaded
    if _loaded is None or (tuned and _loaded[1] == "aot" and not _loaded[2]):
        with _choosing:
            if _loaded is None or (tuned and _loaded[1] == "aot" and not _loaded[2]):
                _loaded = _choose(tuned, notice)
    return _loaded[0], _loaded[1]


def _choose(tuned: bool, notice: Callable[[str], None] | None = None) -> tuple[object, str, bool]:
    want = os.environ.get("PUZZLESEARCH_KERNELS", "").strip().lower()
    if want not in ("", "aot", "jit"):
        raise ValueError(f"PUZZLESEARCH_KERNELS must be 'aot' or 'jit', got {want!r}")
    if want == "jit":
        return _JitKernels(), "jit", False
    path = module_path()
    packaged = None if path.exists() else _packaged()
    if packaged is not None and not tuned:
        return packaged, "aot", False
    failed = path.with_suffix(".failed")
    # Only the main thread builds: a Dask worker's tasks run on threads of their own, and a
    # build there would hold the GIL for its 15 s and change the process's warnings filters
    # under the other tasks. They take the wheel's build or the JIT kernels instead.
    builds_here = want == "aot" or threading.current_thread() is threading.main_thread()
    if not path.exists() and builds_here and (want == "aot" or not failed.exists()):
        try:
            if notice is not None:
                notice(BUILD_NOTICE)
            build(path)
        except Exception as e:  # no compiler, no pycc, a full disk: the JIT kernels do the same
            if want == "aot" and packaged is None:
                raise ValueError(
                    f"PUZZLESEARCH_KERNELS=aot, but the kernels could not be built ahead of time "
                    f"({type(e).__name__}: {e})"
                ) from e
            _remember_failure(failed, e)
    if path.exists():
        try:
            return _load(path), "aot", True
        except (ImportError, OSError) as e:  # a damaged file: the JIT kernels do the same
            if want == "aot" and packaged is None:
                raise ValueError(f"PUZZLESEARCH_KERNELS=aot, but {path} does not load ({e})") from e
    if packaged is not None:  # no build for this CPU: the wheel's serves
        return packaged, "aot", False
    return _JitKernels(), "jit", False


def _packaged() -> ModuleType | None:
    """The wheel's build, loaded, where there is one and it suits this CPU; else None."""
    path = packaged_path()
    if not (path.exists() and packaged_runs_here()):
        return None
    try:
        return _load(path)
    except (ImportError, OSError):  # a damaged file: the tuned build or the JIT kernels
        return None


class _JitKernels:
    """The JIT kernels of EXPORTS, under the names the extension gives them."""

    def __getattr__(self, name: str):
        if name not in EXPORTS:
            raise AttributeError(name)
        module = importlib.import_module(f"{__package__}.{EXPORTS[name][0]}")
        return getattr(module, name)


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(MODULE, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(path: Path, cpu: str | None = None) -> None:
    """Compile the kernels of EXPORTS with numba.pycc into the extension `path` (atomically),
    for the CPU `cpu` (LLVM's name; "" generic, None: ``target_cpu()``)."""
    from numba.core.errors import NumbaPendingDeprecationWarning

    from puzzlesearch.engine.paths import replacing

    with warnings.catch_warnings():
        # pycc is "pending deprecation" until numba ships its replacement; it works meanwhile
        warnings.simplefilter("ignore", NumbaPendingDeprecationWarning)
        from numba.pycc import CC

    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=path.parent, prefix=".build-") as tmp:
        cc = CC(MODULE)
        cc.output_dir = tmp
        cc.verbose = False
        cc.target_cpu = target_cpu() if cpu is None else cpu
        for name, (module, signature) in EXPORTS.items():
            kernel = getattr(importlib.import_module(f"{__package__}.{module}"), name)
            cc.export(name, signature)(kernel.py_func)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cc.compile()
        built = [p for p in Path(tmp).iterdir() if p.name.startswith(MODULE) and p.suffix in (".so", ".pyd")]
        if len(built) != 1:
            raise RuntimeError(f"numba.pycc left {[p.name for p in Path(tmp).iterdir()]}, not one module")
        with replacing(path, "the compiled kernels") as tmp_path:  # a concurrent run sees none or all
            os.replace(built[0], tmp_path)


def build_packaged(folder: Path) -> Path:
    """The packaged build, compiled into `folder` under the name ``packaged_path`` gives it
    (for the wheel: ``hatch_build.py``)."""
    path = folder / packaged_path().name
    build(path, packaged_cpu())
    return path


def _remember_failure(marker: Path, error: Exception) -> None:
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(f"{type(error).__name__}: {error}\n")
    except OSError:
        pass
