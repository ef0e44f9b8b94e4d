"""The counting kernels compiled ahead of time, so that `queens count` starts without numba.

Importing numba and loading its first cached function costs about 0.4 s of every process,
a third of a whole n = 16 count on two cores. The counting kernels of corner.py and
constellation.py are therefore also compiled once with ``numba.pycc`` into a small
extension module, kept in the user cache directory (``$PUZZLESEARCH_CACHE`` overrides
it) under a name that carries a hash of their source and this file's, the platform and
the CPU's feature flags: an edited kernel or another CPU gets its own build, never a
stale or foreign one. The extension needs neither numba nor a compiler to load: it is the
same numba code, compiled before the run instead of during it. The first count builds it
(about 10 s, like a first JIT compilation).

``kernels()`` returns the extension if it exists or can be built, else the JIT kernels
(the same functions, so the answer never depends on which one ran); ``kind()``
says which. The environment variable ``PUZZLESEARCH_KERNELS`` forces ``jit`` or ``aot``
(``aot`` raises ValueError if the module cannot be built). A failed build (no C compiler, numba
without pycc) is remembered in a marker file next to where the module would be, so that
later runs go straight to the JIT kernels; delete the marker to retry.
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
from pathlib import Path
from types import ModuleType

import platformdirs

from puzzlesearch.engine.paths import replacing

MODULE = "_queens_kernels"
# name -> (module, numba signature) of every exported kernel: corner.py's entry points and
# constellation.py's
EXPORTS = {
    "corner_kernel": ("corner", "i8(i8, i8, i8[::1])"),
    "side_kernel": ("corner", "UniTuple(i8, 3)(i8, i8, i8[::1])"),
    "split_kernel": ("corner", "i8(i8, b1, i8, i8[::1], i8, i8[:, ::1])"),
    "count_batch": ("constellation", "UniTuple(i8, 2)(i8, i8[:, ::1])"),
}
SOURCES = sorted({module for module, _ in EXPORTS.values()})

_loaded: tuple[object, str] | None = None  # (kernels, "aot" | "jit") once chosen in this process
# the threads of a Dask worker ask at once: one of them chooses (and builds), the others wait
_choosing = threading.Lock()


def cache_dir() -> Path:
    """Where the built modules live: $PUZZLESEARCH_CACHE, else the user cache directory."""
    env = os.environ.get("PUZZLESEARCH_CACHE")
    return Path(env) if env else Path(platformdirs.user_cache_dir("puzzlesearch")) / "kernels"


def target_cpu() -> str:
    """"host" where the CPU's features can be read without LLVM (Linux), else "" (generic).

    The kernels' bit tricks (lowest set bit, leading zeros) are single instructions on
    current x86 CPUs but several on the generic x86-64 model: compiled for the host they
    run about 15% faster. A module compiled for the host is named after its CPU's flags.
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


def module_path() -> Path:
    """The extension for these kernels, this Python, this platform and this CPU."""
    here = Path(__file__)
    # the kernels, and how they are built
    source = b"".join(here.with_name(f"{module}.py").read_bytes() for module in SOURCES) + here.read_bytes()
    source += repr(sorted(EXPORTS.items())).encode()
    source += f"{platform.machine()} {_cpu_flags()}".encode()
    digest = hashlib.sha256(source).hexdigest()[:16]
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]  # e.g. .cpython-311-x86_64-linux-gnu.so
    return cache_dir() / f"{MODULE}-{digest}{suffix}"


def kernels() -> tuple[object, str]:
    """(an object with the kernels of EXPORTS, "aot" or "jit")."""
    global _loaded
    if _loaded is None:
        with _choosing:
            if _loaded is None:
                _loaded = _choose()
    return _loaded


def _choose() -> tuple[object, str]:
    want = os.environ.get("PUZZLESEARCH_KERNELS", "").strip().lower()
    if want not in ("", "aot", "jit"):
        raise ValueError(f"PUZZLESEARCH_KERNELS must be 'aot' or 'jit', got {want!r}")
    if want != "jit":
        path = module_path()
        failed = path.with_suffix(".failed")
        if not path.exists() and (want == "aot" or not failed.exists()):
            try:
                build(path)
            except Exception as e:  # no compiler, no pycc, a full disk: the JIT kernels do the same
                if want == "aot":
                    raise ValueError(
                        f"PUZZLESEARCH_KERNELS=aot, but the kernels could not be built ahead of time "
                        f"({type(e).__name__}: {e})"
                    ) from e
                _remember_failure(failed, e)
        if path.exists():
            try:
                return _load(path), "aot"
            except (ImportError, OSError) as e:  # a damaged file: the JIT kernels do the same
                if want == "aot":
                    raise ValueError(f"PUZZLESEARCH_KERNELS=aot, but {path} does not load ({e})") from e
    return _JitKernels(), "jit"


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


def build(path: Path) -> None:
    """Compile the kernels of EXPORTS with numba.pycc into the extension `path` (atomically)."""
    from numba.core.errors import NumbaPendingDeprecationWarning

    with warnings.catch_warnings():
        # pycc is "pending deprecation" until numba ships its replacement; it works meanwhile
        warnings.simplefilter("ignore", NumbaPendingDeprecationWarning)
        from numba.pycc import CC

    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=path.parent, prefix=".build-") as tmp:
        cc = CC(MODULE)
        cc.output_dir = tmp
        cc.verbose = False
        cc.target_cpu = target_cpu()
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


def _remember_failure(marker: Path, error: Exception) -> None:
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(f"{type(error).__name__}: {error}\n")
    except OSError:
        pass
