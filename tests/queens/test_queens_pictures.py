"""N-Queens boards as pictures: boards that are tuples and draw themselves in a notebook,
a constructed board drawn too, and `queens show --plot FILE` (the first board shown)."""

from __future__ import annotations

import json
import pickle
import sys

import pytest

from conftest import assert_bad_input, run_cli
from puzzlesearch import queens
from puzzlesearch.engine import figures
from puzzlesearch.engine.paths import device
from puzzlesearch.queens import api, construct, pictures, rules
from svg_shapes import rasterized, shapes

PNG = b"\x89PNG\r\n\x1a\n"


def _no_work(*args, **kwargs):
    raise AssertionError("the boards were searched for before the plot file was checked")


def test_listed_boards_are_tuples_in_all_but_their_picture():
    boards = list(queens.solutions(8, limit=3))
    assert all(isinstance(b, rules.Board) for b in boards)
    first = boards[0]
    assert first == (0, 4, 7, 5, 2, 6, 1, 3) and hash(first) == hash((0, 4, 7, 5, 2, 6, 1, 3))
    assert repr(first) == "(0, 4, 7, 5, 2, 6, 1, 3)" and str(first) == repr(first)
    assert json.dumps(first) == "[0, 4, 7, 5, 2, 6, 1, 3]"
    assert pickle.loads(pickle.dumps(first)) == first
    assert {first: 1}[(0, 4, 7, 5, 2, 6, 1, 3)] == 1
    assert isinstance(next(rules.solutions(6)), rules.Board)
    assert rules.canonical(first) == (0, 4, 7, 5, 2, 6, 1, 3)  # a board's images are boards too


def test_a_board_shows_itself_with_its_queens():
    pytest.importorskip("matplotlib")
    board = next(queens.solutions(8))
    svg = board._repr_svg_()
    assert svg.startswith("<?xml") and shapes(svg, "queens") == 8


def test_without_matplotlib_a_board_has_no_picture(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert next(queens.solutions(6))._repr_svg_() is None
    assert queens.solve(8)._repr_svg_() is None


@pytest.mark.parametrize("n", [1, 5, pictures.GLYPH_N + 1, 300])
def test_a_board_of_n_has_n_queens(n):
    pytest.importorskip("matplotlib")
    svg = figures.svg_text(pictures.board_figure(construct.board(n)))
    if n > pictures.VECTOR_N:
        assert rasterized(svg, "queens")
    else:
        assert shapes(svg, "queens") == n


def test_a_constructed_board_shows_itself_up_to_the_limit():
    pytest.importorskip("matplotlib")
    assert shapes(queens.solve(12)._repr_svg_(), "queens") == 12
    assert queens.solve(pictures.MAX_N + 1)._repr_svg_() is None
    assert rules.Board(range(pictures.MAX_N + 1))._repr_svg_() is None
    with pytest.raises(ValueError, match="draws boards up to n = 1,000"):
        pictures.board_figure(range(pictures.MAX_N + 1))


def test_show_plot_draws_the_first_board_shown(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    drawn = []
    monkeypatch.setattr(api, "plot", lambda board, filename: drawn.append((tuple(board), filename)))
    for args in (["-n", "8"], ["-n", "8", "--unique", "--limit", "3"], ["-n", "8", "--fixed", "1:3"],
                 ["-n", "40", "--format", "columns"], ["-n", "8", "--json"]):
        drawn.clear()
        r = run_cli("queens", "show", *args, "--plot", "b.png")
        assert (r.code, r.err) == (0, ""), args
        plain = run_cli("queens", "show", *args)
        if "--json" in args:
            first = plain.json()["solutions"][0]
        else:
            assert r.out == plain.out
            first = run_cli("queens", "show", *args, "--format", "columns").out.splitlines()[0].split()
        assert drawn == [(tuple(int(c) - 1 for c in first), "b.png")], args


def test_show_plot_writes_png_and_svg(tmp_path):
    pytest.importorskip("matplotlib")
    png, svg = tmp_path / "q.png", tmp_path / "q.svg"
    assert run_cli("queens", "show", "-n", "6", "--plot", str(png)).code == 0
    assert png.read_bytes().startswith(PNG)
    r = run_cli("queens", "show", "-n", "10", "--unique", "--limit", "2", "--plot", str(svg), "--json")
    assert r.code == 0 and r.json()["shown"] == 2
    assert shapes(svg.read_text(), "queens") == 10


def test_show_plot_with_no_board_says_so_after_the_answer(tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "q.png"
    r = run_cli("queens", "show", "-n", "3", "--plot", str(target))
    assert (r.code, r.out) == (1, "no solutions\n")
    assert r.err == f"puzzlesearch: no board to draw: --plot {target} was not written\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("args", "says"), [
    (["-n", "8", "--plot", "/nonexistent/x.png"], "--plot /nonexistent/x.png: the folder /nonexistent does "),
    (["-n", "8", "--plot", "x.txt"], "--plot x.txt: the name must end in one of "),
    (["-n", "8", "--unique", "--plot", "/dev/null"], "--plot /dev/null is a character device"),
    (["-n", "2000", "--format", "columns", "--plot", "x.png"], "--plot draws boards up to n = 1,000"),
])
def test_a_bad_plot_is_refused_before_the_search(args, says, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(api, "solutions", _no_work)
    monkeypatch.setattr(construct, "solve", _no_work)
    r = run_cli("queens", "show", *args)
    assert_bad_input(r)
    assert r.err.startswith(f"puzzlesearch: error: {says}")
    assert list(tmp_path.iterdir()) == []


def test_without_matplotlib_show_plot_is_refused_before_the_search(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setattr(api, "solutions", _no_work)
    r = run_cli("queens", "show", "-n", "8", "--plot", str(tmp_path / "q.png"))
    assert_bad_input(r)
    assert r.err == ("puzzlesearch: error: --plot needs matplotlib (the [plot] extra): "
                     "pip install matplotlib\n")


def test_a_plot_not_saved_after_the_listing_keeps_the_answer(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Figure, "savefig", disk_full)
    target = tmp_path / "q.png"
    r = run_cli("queens", "show", "-n", "6", "--plot", str(target))
    assert r.code == 1 and r.out == run_cli("queens", "show", "-n", "6").out
    assert r.err == f"puzzlesearch: the plot was not saved: no space left on {device(target)} for {target}\n"
    assert list(tmp_path.iterdir()) == []
