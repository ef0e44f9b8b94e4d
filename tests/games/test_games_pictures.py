"""Sprague-Grundy values as pictures (the rare heaps and the period's start marked, thinned
past DIRECT heaps), `grundy octal/grundys --plot FILE`, and --summary with --json."""

from __future__ import annotations

import sys
from types import SimpleNamespace

import numpy as np
import pytest

from conftest import assert_bad_input, run_cli
from puzzlesearch import games
from puzzlesearch.engine import figures
from puzzlesearch.engine.paths import device
from puzzlesearch.games import api, pictures
from svg_shapes import rasterized, shapes

PNG = b"\x89PNG\r\n\x1a\n"


def _no_work(*args, **kwargs):
    raise AssertionError("the values were computed before the plot file was checked")


def test_rare_is_the_parity_of_the_masked_value():
    values = np.arange(300, dtype=np.uint16)
    for mask in (1, 15, 254):
        assert pictures.rare(values, mask).tolist() == [bin(v & mask).count("1") % 2 == 0 for v in range(300)]


def test_thinning_keeps_each_value_once_per_range():
    values = np.array([0, 1, 0, 2, 2, 2, 5, 0], np.uint16)
    x, y = pictures.thinned(values, width=4)
    points = sorted(zip(x.tolist(), y.tolist(), strict=True))
    assert points == [(0, 0), (0, 1), (0, 2), (4, 0), (4, 2), (4, 5)]
    heaps = np.array([3, 9, 10])
    x, y = pictures.thinned(np.array([7, 7, 1], np.uint16), heaps, width=4)
    assert sorted(zip(x.tolist(), y.tolist(), strict=True)) == [(0, 7), (8, 1), (8, 7)]
    x, y = pictures.thinned(values)  # width 1: every heap
    assert x.tolist() == list(range(8)) and y.tolist() == values.tolist()


@pytest.fixture(scope="module")
def kayles():
    return games.octal_values("0.77", 300)


def test_each_heap_is_a_point_and_the_rare_heaps_are_marked(kayles):
    pytest.importorskip("matplotlib")
    assert kayles.rare_mask and kayles.period == 12
    svg = figures.svg_text(pictures.values_figure(kayles))
    assert shapes(svg, "rare") == kayles.rare_heaps
    assert shapes(svg, "values") + shapes(svg, "rare") == kayles.count
    assert shapes(svg, "period") == 1


def test_a_table_without_rare_heaps_or_period_has_points_only():
    pytest.importorskip("matplotlib")
    table = games.grundys_values(100)
    assert table.rare_mask == 0 and table.period is None
    svg = table._repr_svg_()
    assert shapes(svg, "values") == 100 and shapes(svg, "rare") == shapes(svg, "period") == 0
    sub = games.subtraction_values("1,3,4", 50)
    svg = sub._repr_svg_()
    assert shapes(svg, "values") == 50 and shapes(svg, "period") == 1


def test_a_million_values_are_thinned_and_rasterized():
    pytest.importorskip("matplotlib")
    rng = np.random.default_rng(1)
    values = rng.integers(0, 40, 10**6).astype(np.uint16)
    table = SimpleNamespace(game="noise", count=len(values), values=values, max_value=int(values.max()),
                            period=None, preperiod=None, rare_mask=254)
    svg = figures.svg_text(pictures.values_figure(table))
    assert rasterized(svg, "values") and len(svg) < 2_000_000


def test_without_matplotlib_a_table_has_no_picture(kayles, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert kayles._repr_svg_() is None


@pytest.mark.parametrize("args", [("octal", "0.77", "-n", "300"), ("grundys", "-n", "200")])
def test_plot_writes_the_values_and_prints_them_as_usual(args, tmp_path):
    pytest.importorskip("matplotlib")
    png, svg = tmp_path / "v.png", tmp_path / "v.svg"
    r = run_cli("grundy", *args, "--plot", str(png))
    assert (r.code, r.err) == (0, "")
    assert r.out == run_cli("grundy", *args).out
    assert png.read_bytes().startswith(PNG)
    r = run_cli("grundy", *args, "--summary", "--json", "--plot", str(svg))
    assert r.code == 0
    count = r.json()["count"]
    assert shapes(svg.read_text(), "values") + shapes(svg.read_text(), "rare") == count


@pytest.mark.parametrize("command", [("octal", "0.77"), ("grundys",)])
@pytest.mark.parametrize(("plot", "says"), [
    ("/nonexistent/x.png", "--plot /nonexistent/x.png: the folder /nonexistent does not exist"),
    ("/dev/null", "--plot /dev/null is a character device, not a regular file"),
    ("v.csv", "--plot v.csv: the name must end in one of "),
])
def test_a_bad_plot_is_refused_before_the_values(command, plot, says, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(api, "octal_values", _no_work)
    monkeypatch.setattr(api, "grundys_values", _no_work)
    r = run_cli("grundy", *command, "--plot", plot)
    assert_bad_input(r)
    assert r.err.startswith(f"puzzlesearch: error: {says}")
    assert list(tmp_path.iterdir()) == []


def test_without_matplotlib_the_plot_is_refused_before_the_values(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setattr(api, "grundys_values", _no_work)
    r = run_cli("grundy", "grundys", "--plot", str(tmp_path / "v.png"))
    assert_bad_input(r)
    assert r.err == ("puzzlesearch: error: --plot needs matplotlib (the [plot] extra): "
                     "pip install matplotlib\n")


def test_a_plot_not_saved_after_the_values_keeps_the_answer(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Figure, "savefig", disk_full)
    target = tmp_path / "v.png"
    r = run_cli("grundy", "octal", "0.77", "-n", "200", "--plot", str(target))
    assert r.code == 1 and r.out == run_cli("grundy", "octal", "0.77", "-n", "200").out
    assert r.err == f"puzzlesearch: the plot was not saved: no space left on {device(target)} for {target}\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [
    ("octal", "0.77", "--count", "1000"),
    ("grundys", "--count", "300"),
    ("hex", "0.F", "--count", "50"),
    ("subtraction", "1,3,4", "--count", "60"),
])
def test_summary_with_json_leaves_out_the_values(args):
    full = run_cli("grundy", *args, "--json").json()
    r = run_cli("grundy", *args, "--summary", "--json")
    assert r.code == 0 and r.out.count("\n") == 1
    summary = r.json()
    assert "values" not in summary and len(full["values"]) == full["count"]
    assert list(summary) == [k for k in full if k != "values"]
    assert {k: v for k, v in summary.items() if k != "seconds"} == {
        k: v for k, v in full.items() if k not in ("values", "seconds")}


def test_survey_summary_with_json_leaves_out_the_rows(tmp_path):
    store = str(tmp_path / "r.sqlite")
    full = run_cli("grundy", "survey", "--digits", "1", "--count", "30", "--store", store, "--json").json()
    summary = run_cli("grundy", "survey", "--digits", "1", "--count", "30", "--store", store, "--summary",
                      "--json").json()
    assert "rows" not in summary and len(full["rows"]) == full["games"] == summary["games"] == 7
    assert summary["proven"] == full["proven"]


def test_the_summary_help_says_where_the_values_are():
    for command, function in (("octal", "octal_values"), ("grundys", "grundys_values"), ("hex", "hex_values"),
                              ("subtraction", "subtraction_values")):
        text = " ".join(run_cli("grundy", command, "--help").out.split())
        assert "with --json the summary's fields" in text and f"games.{function}" in text, command
