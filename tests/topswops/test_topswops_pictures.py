"""A topswops game as a picture: one row per deck, the top cards and the reversals marked;
`topswops play --plot FILE`, and a Play drawn in a notebook."""

from __future__ import annotations

import sys

import pytest

from conftest import assert_bad_input, run_cli
from puzzlesearch import topswops
from puzzlesearch.engine import figures
from puzzlesearch.engine.paths import device
from puzzlesearch.topswops import api, pictures
from svg_shapes import rasterized, shapes

pytest.importorskip("matplotlib")

PNG = b"\x89PNG\r\n\x1a\n"


def _no_work(*args, **kwargs):
    raise AssertionError("the game was played before the plot file was checked")


@pytest.mark.parametrize("deck", ["3 1 4 5 2", "1", "6 1 5 7 8 3 2 4"])
def test_each_deck_of_the_game_is_a_row_and_each_reversal_is_framed(deck):
    play = topswops.play(deck)
    svg = figures.svg_text(pictures.game_figure(play))
    assert shapes(svg, "tops") == len(play.trace) == play.steps + 1
    assert shapes(svg, "reversals") == play.steps


def test_a_long_game_of_many_cards_is_drawn_rasterized():
    play = topswops.play([2, 1, *range(3, 101)])  # 100 cards, one reversal: a few shapes
    svg = figures.svg_text(pictures.game_figure(play))
    assert (shapes(svg, "tops"), shapes(svg, "reversals")) == (2, 1)
    long_game = api.Play(tuple(range(1, 41)), 2000, [tuple(range(1, 41))] * 2001)
    svg = figures.svg_text(pictures.game_figure(long_game))
    assert rasterized(svg, "tops") and rasterized(svg, "reversals")


def test_a_play_shows_itself_in_a_notebook(monkeypatch):
    play = topswops.play("3 1 2")
    svg = play._repr_svg_()
    assert svg.startswith("<?xml") and shapes(svg, "reversals") == 2
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert play._repr_svg_() is None  # the notebook falls back on the text repr


def test_play_plot_writes_the_picture_and_prints_the_game_as_usual(tmp_path):
    png, svg = tmp_path / "game.png", tmp_path / "game.svg"
    r = run_cli("topswops", "play", "3", "1", "4", "5", "2", "--plot", str(png))
    assert (r.code, r.err) == (0, "")
    assert r.out == run_cli("topswops", "play", "3", "1", "4", "5", "2").out
    assert png.read_bytes().startswith(PNG)
    r = run_cli("topswops", "play", "3", "1", "4", "5", "2", "--plot", str(svg), "--json")
    assert r.code == 0 and r.json()["steps"] == 7
    assert shapes(svg.read_text(), "reversals") == 7


@pytest.mark.parametrize(("plot", "says"), [
    ("/nonexistent/x.png", "--plot /nonexistent/x.png: the folder /nonexistent does not exist"),
    ("/dev/null", "--plot /dev/null is a character device, not a regular file"),
    ("game.txt", "--plot game.txt: the name must end in one of "),
])
def test_a_bad_plot_file_is_refused_before_the_game(plot, says, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(api, "play", _no_work)
    r = run_cli("topswops", "play", "3", "1", "2", "--plot", plot)
    assert_bad_input(r)
    assert r.err.startswith(f"puzzlesearch: error: {says}")
    assert list(tmp_path.iterdir()) == []


def test_without_matplotlib_the_plot_is_refused_before_the_game(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setattr(api, "play", _no_work)
    r = run_cli("topswops", "play", "3", "1", "2", "--plot", str(tmp_path / "g.png"))
    assert_bad_input(r)
    assert r.err == ("puzzlesearch: error: --plot needs matplotlib (the [plot] extra): "
                     "pip install matplotlib\n")


def test_a_plot_not_saved_after_the_game_keeps_the_answer(tmp_path, monkeypatch):
    from matplotlib.figure import Figure

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Figure, "savefig", disk_full)
    target = tmp_path / "g.png"
    r = run_cli("topswops", "play", "3", "1", "2", "--plot", str(target))
    assert r.code == 1
    assert r.out == "3 1 2\n2 1 3\n1 2 3\nsteps=2\n"
    assert r.err == f"puzzlesearch: the plot was not saved: no space left on {device(target)} for {target}\n"
    assert list(tmp_path.iterdir()) == []
