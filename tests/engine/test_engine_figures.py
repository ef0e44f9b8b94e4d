"""engine.figures: the checks before the work, whole files, SVG for notebooks, pyplot untouched."""

from __future__ import annotations

import sys

import pytest

from puzzlesearch.engine import figures

pytest.importorskip("matplotlib")

PNG = b"\x89PNG\r\n\x1a\n"


def small_figure():
    fig = figures.figure(2, 2)
    fig.add_subplot().plot([0, 1], [1, 0], gid="line")
    return fig


def test_a_writable_name_with_an_image_suffix_passes(tmp_path):
    for name in ("x.png", "x.SVG", "x.pdf"):
        figures.check_plot(str(tmp_path / name))
    assert list(tmp_path.iterdir()) == []


def test_an_unknown_suffix_names_the_formats(tmp_path):
    with pytest.raises(ValueError, match=r"^--plot .*x\.txt: the name must end in one of .*\.png.*\.svg"):
        figures.check_plot(str(tmp_path / "x.txt"))
    with pytest.raises(ValueError, match=r"^--picture .*noext: the name must end in one of"):
        figures.check_plot(str(tmp_path / "noext"), "--picture")


@pytest.mark.parametrize(("path", "says"), [
    ("/nonexistent/x.png", "--plot /nonexistent/x.png: the folder /nonexistent does not exist"),
    ("/dev/null", "--plot /dev/null is a character device, not a regular file"),
    ("", "--plot needs a file name, got an empty one"),
])
def test_a_path_that_cannot_be_written_is_refused(path, says):
    with pytest.raises(ValueError) as e:
        figures.check_plot(path)
    assert str(e.value) == says


def test_without_matplotlib_the_check_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError) as e:
        figures.check_plot(str(tmp_path / "x.png"))
    assert str(e.value) == "--plot needs matplotlib (the [plot] extra): pip install matplotlib"


@pytest.mark.parametrize(("name", "head"), [("a.png", PNG), ("a.svg", b"<?xml"), ("a.pdf", b"%PDF")])
def test_save_writes_the_format_the_suffix_names(tmp_path, name, head):
    target = tmp_path / name
    figures.save(small_figure(), str(target))
    assert target.read_bytes().startswith(head)
    assert [p.name for p in tmp_path.iterdir()] == [name]  # no temporary file left


def test_a_save_that_fails_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    from matplotlib.figure import Figure

    target = tmp_path / "a.png"
    target.write_bytes(b"old")

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Figure, "savefig", disk_full)
    with pytest.raises(OSError):
        figures.save(small_figure(), str(target))
    assert target.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["a.png"]


def test_svg_text_is_an_svg_document():
    svg = figures.svg_text(small_figure())
    assert svg.startswith("<?xml") and "<svg" in svg and 'id="line"' in svg


def test_figures_leave_no_pyplot_state(tmp_path):
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    figures.svg_text(small_figure())
    figures.save(small_figure(), str(tmp_path / "a.png"))
    assert plt.get_fignums() == before


def test_a_figure_made_by_pyplot_is_closed_when_saved(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = plt.figure()
    figures.save(fig, str(tmp_path / "a.png"))
    assert fig.number not in plt.get_fignums()


def test_notebook_svg_is_none_without_matplotlib_or_without_a_picture(monkeypatch):
    assert figures.notebook_svg(lambda: None) is None
    assert "<svg" in figures.notebook_svg(small_figure)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert figures.notebook_svg(small_figure) is None


def test_the_same_figure_gives_the_same_svg(tmp_path):
    assert figures.svg_text(small_figure()) == figures.svg_text(small_figure())
    figures.save(small_figure(), str(tmp_path / "a.svg"))
    figures.save(small_figure(), str(tmp_path / "b.svg"))
    assert (tmp_path / "a.svg").read_bytes() == (tmp_path / "b.svg").read_bytes()
