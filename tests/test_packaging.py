"""The package's metadata: one version everywhere, the licence, the citation file, and the
checks of the wheel's smoke set (benchmarks/wheel_smoke.py, which `make wheel-check` runs
on the installed wheel)."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

import puzzlesearch
from puzzlesearch.cli import cli
from puzzlesearch.registry import PUZZLES

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
SMOKE = ROOT / "benchmarks" / "wheel_smoke.py"


def citation() -> dict:
    return yaml.safe_load((ROOT / "CITATION.cff").read_text())


def load_smoke():
    spec = importlib.util.spec_from_file_location("wheel_smoke", SMOKE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_one_version_in_pyproject_the_package_the_command_and_the_citation():
    version = PYPROJECT["version"]
    assert puzzlesearch.__version__ == version
    assert str(citation()["version"]) == version
    result = CliRunner().invoke(cli, ["--version"], prog_name="puzzlesearch")
    assert result.exit_code == 0 and result.output == f"puzzlesearch, version {version}\n"


def test_the_licence_file_is_mit_and_the_wheel_ships_it():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n") and "Copyright (c) 2026 the puzzlesearch authors" in text
    assert PYPROJECT["license"] == "MIT" and PYPROJECT["license-files"] == ["LICENSE"]


def test_the_citation_file_holds_what_cff_1_2_0_requires():
    cff = citation()
    assert cff["cff-version"] == "1.2.0"
    assert isinstance(cff["message"], str) and cff["message"].strip()
    assert isinstance(cff["title"], str) and cff["title"].startswith("puzzlesearch")
    assert cff["authors"] == [{"name": "The puzzlesearch authors"}]  # an entity, not a person
    assert cff["license"] == PYPROJECT["license"]
    assert cff.get("type", "software") == "software"
    # a released date and a repository are stated only once the project has them
    assert "date-released" not in cff and "repository-code" not in cff


@pytest.mark.parametrize("args", [["--wheel", "/nonexistent/puzzlesearch-0.1.0-py3-none-any.whl"],
                                  ["--wheel", str(ROOT / "pyproject.toml")], ["--nosuch"],
                                  ["--manylinux", str(ROOT / "pyproject.toml")]])
def test_the_smoke_script_refuses_bad_arguments_with_exit_2(args):
    result = subprocess.run([sys.executable, str(SMOKE), *args], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and result.stdout == "", result.stderr
    assert "Traceback" not in result.stderr


def test_a_wheel_tagged_for_this_machine_alone_is_refused_and_a_pure_one_left_as_it_is(tmp_path):
    wheel = tmp_path / f"puzzlesearch-{PYPROJECT['version']}-cp311-cp311-linux_x86_64.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr("puzzlesearch/__init__.py", "")
    result = subprocess.run([sys.executable, str(SMOKE), "--wheel", str(wheel), "--no-record"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert "is tagged for this machine alone, not manylinux: make wheel retags it" in result.stderr
    pure = tmp_path / "puzzlesearch-0.1.0-py3-none-any.whl"
    assert load_smoke().manylinux(pure) == pure  # nothing to retag


def test_the_smoke_checks_accept_the_right_answers_and_name_a_wrong_one(tmp_path):
    smoke = load_smoke()
    right = {"n": 8, "solutions": 92, "unique": 12, "kernels": "jit"}
    assert "Q(8) = 92" in smoke.check_queens(json.dumps(right), tmp_path)
    with pytest.raises(smoke.SmokeFailed, match="Q\\(8\\) = 91, expected 92"):
        smoke.check_queens(json.dumps({**right, "solutions": 91}), tmp_path)
    with pytest.raises(smoke.SmokeFailed, match="not one JSON object"):
        smoke.check_topswops("n=8  backward=22", tmp_path)
    # the pancake command's --plot must have written a PNG
    pancakes = json.dumps({"states": 720, "diameter": 7, "histogram": [1, 5, 20, 79, 199, 281, 133, 2]})
    with pytest.raises(smoke.SmokeFailed, match="no PNG"):
        smoke.check_pancake(pancakes, tmp_path)
    (tmp_path / "pancakes-6.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    assert "p(6) = 7" in smoke.check_pancake(pancakes, tmp_path)


def test_the_smoke_set_runs_one_command_per_puzzle():
    smoke = load_smoke()
    puzzles = {args[0] for args, _ in smoke.smoke_set("0.1.0") if not args[0].startswith("-")}
    assert puzzles == set(PUZZLES)
    commands = [" ".join(args) for args, _ in smoke.smoke_set("0.1.0")]
    assert any("--plot" in c for c in commands) and sum("--json" in c for c in commands) >= 6


def test_the_wheel_the_pages_name_is_this_version():
    version = PYPROJECT["version"]
    found = 0
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        if page.name == "changelog.md":
            continue
        # dist/puzzlesearch-0.1.0-*.whl, or a wheel's full name with its tags
        wheels = r"puzzlesearch-(\d[\w.]*)-(?:\*|[\w.]+-[\w.]+-[\w.]+)\.whl"
        for named in re.findall(wheels, page.read_text()):
            assert named == version, f"{page.relative_to(ROOT)}: names the wheel of {named}, not {version}"
            found += 1
    assert found >= 3  # the README and the install page name it
