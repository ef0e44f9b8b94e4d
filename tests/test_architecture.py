"""The shape of src/puzzlesearch, from its import graph (grimp, which also reads the imports
inside functions): no two modules import each other, directly or through others; no module
is over 600 lines; inside each package, kernels import no driver. The layers and the
independence of the puzzles are import-linter's contracts (.importlinter, `make lint`).
Each rule is checked package by package, so that a failure names where it lies."""

from __future__ import annotations

from pathlib import Path

import grimp
import pytest

import puzzlesearch

ROOT = Path(puzzlesearch.__file__).parent
MAX_LINES = 600
PACKAGES = sorted(p.name for p in ROOT.iterdir() if (p / "__init__.py").exists())
#: kernel modules whose names do not end in _kernel
KERNELS = {
    "queens": {"corner", "constellation", "complete"},
    "hanoi": {"kernels"},
    "shuffle": {"packed", "ranking"},
}


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("puzzlesearch", cache_dir=None)


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The groups of modules that reach each other (strongly connected, two or more)."""
    reach = {m: graph.find_upstream_modules(m) for m in graph.modules}  # what m imports, at any depth
    groups: list[list[str]] = []
    seen: set[str] = set()
    for m in sorted(graph.modules):
        if m in seen:
            continue
        group = sorted({m} | {d for d in reach[m] if m in reach[d]})
        seen.update(group)
        if len(group) > 1:
            groups.append(group)
    return groups


def in_package(module: str, package: str) -> bool:
    return module == f"puzzlesearch.{package}" or module.startswith(f"puzzlesearch.{package}.")


def test_the_packages_are_the_engine_and_the_puzzles():
    assert PACKAGES == ["engine", "games", "hanoi", "perm", "queens", "shuffle", "topswops"]


def test_a_cycle_is_found_through_imports_inside_functions(tmp_path, monkeypatch):
    # the check itself: a module importing another inside a function closes a cycle
    pkg = tmp_path / "cyclic"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from cyclic import b\n")
    (pkg / "b.py").write_text("def f():\n    from cyclic import a\n    return a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert cycles(grimp.build_graph("cyclic", cache_dir=None)) == [["cyclic.a", "cyclic.b"]]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_two_modules_import_each_other(graph, package):
    found = [group for group in cycles(graph) if any(in_package(m, package) for m in group)]
    chains = [graph.find_shortest_chain(group[0], group[1]) for group in found]
    assert found == [], f"modules that reach each other: {found}; e.g. {chains}"


def test_no_top_level_module_is_in_a_cycle(graph):
    top = {m for m in graph.modules if m.count(".") <= 1 and m.split(".")[-1] not in PACKAGES}
    assert [group for group in cycles(graph) if top & set(group)] == []


@pytest.mark.parametrize("package", [".", *PACKAGES])
def test_no_module_is_over_600_lines(package):
    folder = ROOT / package
    files = folder.glob("*.py") if package == "." else folder.rglob("*.py")
    long = {str(f.relative_to(ROOT)): n for f in files if (n := len(f.read_text().splitlines())) > MAX_LINES}
    assert long == {}


#: packages whose searches run on the engine's kernels alone, with none of their own
NO_KERNELS: set[str] = set()


@pytest.mark.parametrize("package", [p for p in PACKAGES if p not in NO_KERNELS])
def test_kernels_import_no_driver(graph, package):
    # a driver: the package's front (api, cli) or a module that runs a kernel (imports one)
    modules = {m for m in graph.modules if in_package(m, package) and m != f"puzzlesearch.{package}"}
    names = KERNELS.get(package, set())
    kernels = {m for m in modules if "_kernel" in m.rsplit(".", 1)[1] or m.rsplit(".", 1)[1] in names}
    drivers = {m for m in modules - kernels
               if m.rsplit(".", 1)[1] in ("api", "cli")
               or graph.find_modules_directly_imported_by(m) & kernels}
    assert kernels, f"{package} has no kernel modules (or list it in NO_KERNELS)"
    bad = {k: sorted(graph.find_upstream_modules(k) & drivers) for k in sorted(kernels)}
    assert {k: d for k, d in bad.items() if d} == {}
