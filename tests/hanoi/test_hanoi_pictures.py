"""Tower of Hanoi positions as pictures: pegs and discs; a Distance or a Solution drawn in a
notebook as its start and goal."""

from __future__ import annotations

import sys

import pytest

from puzzlesearch import hanoi
from puzzlesearch.engine import figures
from puzzlesearch.hanoi import pictures
from svg_shapes import shapes

pytest.importorskip("matplotlib")


@pytest.mark.parametrize(("position", "pegs"), [((0, 2, 1, 1, 0), 3), ("ABCDDCBA", 4), ((), 3), ("A", 5)])
def test_a_position_has_its_discs_and_pegs(position, pegs):
    svg = figures.svg_text(pictures.position_figure(position, pegs))
    assert shapes(svg, "discs") == len(position)
    assert shapes(svg, "pegs") == pegs


def test_letters_and_numbers_draw_the_same_position():
    by_letters = figures.svg_text(pictures.position_figure("ACB", 3))
    by_numbers = figures.svg_text(pictures.position_figure((0, 2, 1), 3))
    assert by_letters == by_numbers


def test_too_many_discs_are_refused():
    with pytest.raises(ValueError, match="at most 1,000 discs"):
        pictures.position_figure("A" * (pictures.MAX_DISCS + 1), 3)


def test_a_distance_and_a_solution_show_their_start_and_goal(monkeypatch):
    found = hanoi.distance("ABB", "BAA")
    assert shapes(found._repr_svg_(), "discs") == 2 * 3  # two positions of three discs
    assert shapes(hanoi.solve(4, 4)._repr_svg_(), "pegs") == 2 * 4
    huge = hanoi.Distance(2000, 3, "A" * 2000, "C" * 2000, 2**2000 - 1, "closed form")
    assert huge._repr_svg_() is None  # the text repr instead
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert found._repr_svg_() is None
