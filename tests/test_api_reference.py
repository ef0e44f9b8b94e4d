"""The API reference (docs/api/, rendered by mkdocstrings from the docstrings, Google
style) documents what it shows: every parameter of every public function and method,
every field of every result, and no reST role left as text.

The docstrings are read with griffe, the library mkdocstrings reads them with, so that
a parameter counts as documented exactly when the page would show it in its table.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
from pathlib import Path

import griffe
import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
API_PAGES = ROOT / "docs" / "api"
#: the puzzle packages, each with its page docs/api/NAME.md
PACKAGES = ["topswops", "shuffle", "queens", "hanoi", "games", "perm"]
#: what the engine's page shows (docs/api/engine.md)
ENGINE = ["engine.options.RunOptions", "engine.failures.CheckFailed", "engine.failures.ClusterLost",
          "engine.tasks.split", "engine.run.run_tasks"]
#: a reST role (:func:`x`), which Markdown shows as it is written
ROLE = re.compile(r":(func|class|meth|mod|data|attr|exc|obj|ref|py:\w+):`")


@pytest.fixture(scope="module")
def loaded() -> griffe.Module:
    return griffe.load("puzzlesearch", search_paths=[str(SRC)], docstring_parser="google")


def documented(docstring: griffe.Docstring | None, kind: str) -> set[str]:
    """The names a Google-style docstring's sections of this kind (parameters,
    attributes) describe, each with some text."""
    if docstring is None:
        return set()
    names = set()
    for section in docstring.parse("google", warn_unknown_params=False):
        if section.kind.value == kind:
            names.update(item.name.lstrip("*") for item in section.value if item.description.strip())
    return names


def shown(loaded: griffe.Module):
    """(dotted name, live object, griffe object) of everything the reference shows."""
    for package in PACKAGES:
        module = importlib.import_module(f"puzzlesearch.{package}")
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj) or inspect.isfunction(obj):
                yield f"{package}.{name}", obj, loaded[f"{package}.{name}"].final_target
    rules = importlib.import_module("puzzlesearch.topswops.rules")
    for name, obj in vars(rules).items():
        if inspect.isfunction(obj) and obj.__module__ == rules.__name__ and not name.startswith("_"):
            yield f"topswops.rules.{name}", obj, loaded[f"topswops.rules.{name}"]
    for path in ENGINE:
        module_path, name = path.rsplit(".", 1)
        obj = getattr(importlib.import_module(f"puzzlesearch.{module_path}"), name)
        yield path, obj, loaded[path]


def missing_parameters(function: griffe.Function, in_docstring: griffe.Docstring | None) -> list[str]:
    params = [p.name for p in function.parameters if p.name not in ("self", "cls")]
    return [p for p in params if p not in documented(in_docstring, "parameters")]


def test_every_package_has_its_page():
    pages = {p.stem for p in API_PAGES.glob("*.md")}
    assert pages == {*PACKAGES, "engine"}
    for package in PACKAGES:
        assert f"::: puzzlesearch.{package}" in (API_PAGES / f"{package}.md").read_text()


def test_every_public_function_documents_its_parameters(loaded):
    missing = []
    for name, obj, gobj in shown(loaded):
        if inspect.isfunction(obj):
            missing += [f"{name}: {p}" for p in missing_parameters(gobj, gobj.docstring)]
        elif not dataclasses.is_dataclass(obj) and "__init__" in gobj.members:
            # the page merges __init__ into the class: its parameters are the class's
            init = gobj.members["__init__"]
            missing += [f"{name}(): {p}" for p in missing_parameters(init, gobj.docstring)]
    assert missing == []


def test_every_shown_method_documents_its_parameters(loaded):
    missing = []
    for name, obj, gobj in shown(loaded):
        if not inspect.isclass(obj):
            continue
        for method_name, method in gobj.members.items():
            if method.is_function and not method_name.startswith("_") and method.docstring is not None:
                missing += [f"{name}.{method_name}: {p}"
                            for p in missing_parameters(method, method.docstring)]
    assert missing == []


def test_every_result_field_says_what_it_holds(loaded):
    missing = []
    for name, obj, gobj in shown(loaded):
        if dataclasses.is_dataclass(obj):
            fields = [f.name for f in dataclasses.fields(obj) if not f.name.startswith("_")]
            have = documented(gobj.docstring, "attributes")
            missing += [f"{name}.{f}" for f in fields if f not in have]
    assert missing == []


def test_a_field_the_reference_names_exists(loaded):
    """An Attributes entry with no field behind it is a field renamed in the code only."""
    stale = []
    for name, obj, gobj in shown(loaded):
        if dataclasses.is_dataclass(obj):
            fields = {f.name for f in dataclasses.fields(obj)}
            stale += [f"{name}.{f}" for f in documented(gobj.docstring, "attributes") - fields
                      if not hasattr(obj, f)]
    assert stale == []


def test_queens_count_documents_its_solutions(loaded):
    """The field the reference once left out, with what it holds."""
    section = [s for s in loaded["queens.Count"].docstring.parse("google") if s.kind.value == "attributes"][0]
    solutions = {a.name: a.description for a in section.value}["solutions"]
    assert "solution" in solutions.lower() or "board" in solutions.lower()


def test_no_docstring_holds_a_raw_role(loaded):
    found = []

    def walk(obj):
        if obj.docstring is not None and ROLE.search(obj.docstring.value):
            found.append(obj.path)
        for member in obj.members.values():
            if not member.is_alias:
                walk(member)

    walk(loaded)
    assert found == []


def test_no_docstring_aligns_fields_in_columns(loaded):
    """Fields written as `name    description` columns run together into one paragraph in
    Markdown; the Google sections (Args, Attributes) are what the page shows as tables."""
    columns = re.compile(r"^\s*[a-z_][a-z0-9_]*\s{2,}\S", re.M)
    found = [name for name, _, gobj in shown(loaded)
             if gobj.docstring is not None and columns.search(gobj.docstring.value)]
    assert found == []
