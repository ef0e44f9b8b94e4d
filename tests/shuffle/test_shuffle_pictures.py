"""The distance histogram of a census as a picture, in a file and in a notebook."""

from __future__ import annotations

import sys

import pytest

from puzzlesearch import shuffle
from puzzlesearch.engine import figures
from puzzlesearch.shuffle import api, pictures
from svg_shapes import shapes

pytest.importorskip("matplotlib")


def test_one_bar_per_distance():
    census = shuffle.god(3)
    svg = figures.svg_text(pictures.histogram_figure(census))
    assert shapes(svg, "layers") == census.diameter + 1 == len(census.histogram)


def test_a_census_shows_itself_and_names_pancake_stacks(monkeypatch):
    units = []
    real = pictures.histogram_figure

    def drawn(census, unit="decks"):
        units.append(unit)
        return real(census, unit)

    monkeypatch.setattr(pictures, "histogram_figure", drawn)
    assert shapes(shuffle.god(2)._repr_svg_(), "layers") == 5
    assert shuffle.pancake_god(4)._repr_svg_().startswith("<?xml")
    assert shuffle.pancake_god(3, burnt=True)._repr_svg_().startswith("<?xml")
    assert units == ["decks", "stacks", "stacks"]
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert shuffle.god(2)._repr_svg_() is None


def test_the_plot_check_is_the_engines():
    assert api.check_plot is figures.check_plot is shuffle.check_plot


def test_plot_writes_the_histogram(tmp_path):
    target = tmp_path / "h.svg"
    api.plot(shuffle.pancake_god(4), str(target), "stacks")
    assert shapes(target.read_text(), "layers") == 5
