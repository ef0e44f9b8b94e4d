"""The wheel carries the N-Queens counting kernels compiled ahead of time.

``src/puzzlesearch/queens/aot.py`` says what the build is and when it is used: a first
count on a new machine then starts at once, without numba or a compiler. The build needs
numba and a C compiler; where either is missing the wheel is made without it (pure Python),
and the kernels are compiled on first use instead, as from a source tree.
"""

from __future__ import annotations

import importlib
import shutil
import sys
import tempfile
import types
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

# the modules whose package __init__ would import what only an installed puzzlesearch has
# (click, rich, ...): stood in for by bare packages while the kernels are compiled
PACKAGES = {"puzzlesearch": "", "puzzlesearch.engine": "engine", "puzzlesearch.queens": "queens"}


class KernelsBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel":
            return
        src = Path(self.root) / "src" / "puzzlesearch"
        # an editable install runs the source tree itself: the build goes there (ignored by git)
        folder = src / "queens" / "_aot" if version == "editable" else Path(tempfile.mkdtemp())
        self._temporary = None if version == "editable" else folder
        try:
            built = _build(src, folder)
        except Exception as e:  # no compiler, no numba: a wheel without the build still works
            self.app.display_warning(f"the N-Queens kernels are not compiled into this wheel "
                                     f"({type(e).__name__}: {e}); a first count compiles them")
            return
        self.app.display_info(f"N-Queens kernels compiled ahead of time: {built.name}")
        if version != "editable":
            build_data["force_include"][str(built)] = f"puzzlesearch/queens/_aot/{built.name}"
            build_data["pure_python"] = False
            build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict, artifact_path: str) -> None:
        if getattr(self, "_temporary", None) is not None:
            shutil.rmtree(self._temporary, ignore_errors=True)


def _build(src: Path, folder: Path) -> Path:
    saved = {name: module for name, module in sys.modules.items() if name.split(".")[0] == "puzzlesearch"}
    for name in saved:
        del sys.modules[name]
    try:
        for name, sub in PACKAGES.items():
            package = types.ModuleType(name)
            package.__path__ = [str(src / sub)]
            sys.modules[name] = package
        aot = importlib.import_module("puzzlesearch.queens.aot")
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob(f"{aot.MODULE}-*"):  # builds of earlier sources
            old.unlink()
        return aot.build_packaged(folder)
    finally:
        for name in [name for name in sys.modules if name.split(".")[0] == "puzzlesearch"]:
            del sys.modules[name]
        sys.modules.update(saved)
