"""The pages read whole: no code line wider than the column it is shown in, and every
figure taken from the newest record of its kind, whose name links to the record itself.

The column: the Material theme, in a window 1280 pixels wide, gives a code block 656
pixels inside its padding, in a monospace font of 13.6 px whose glyphs are 8.18 px wide
(measured in Chromium): 80 characters. A block inside a list item or an admonition
starts further right; 76 characters leave it the room. A page wraps a longer line with
a backslash at its end, as a shell continues a command (tests/doc_examples.py joins
such lines before it compares a command's output with the page).
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
HOOKS = DOCS / "hooks"
sys.path.insert(0, str(HOOKS))  # the hook's modules, named site_* so as to shadow nothing

import site_records  # noqa: E402
import site_tables  # noqa: E402

#: characters of a code block at the top level of a page, and inside a list or admonition
COLUMN, INDENTED_COLUMN = 80, 76
FENCE = re.compile(r"^(\s*)(```|~~~)")


def code_lines(page: Path):
    """(line number, indent of its fence, text) of every line inside a fenced block."""
    indent = None
    for number, text in enumerate(page.read_text().splitlines(), 1):
        fence = FENCE.match(text)
        if fence:
            indent = len(fence.group(1)) if indent is None else None
        elif indent is not None:
            yield number, indent, text


def load_hook():
    spec = importlib.util.spec_from_file_location("docs_hooks_site", HOOKS / "site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def rendered() -> dict[str, tuple[str, set[str]]]:
    """Each page's Markdown with its tables rendered, and the records they used."""
    hook = load_hook()
    return {p.name: hook.render_page(p.read_text(), p.name) for p in sorted(DOCS.glob("*.md"))}


def wide_lines(name: str, lines) -> list[str]:
    return [f"{name}:{number}: {len(text) - indent} characters" for number, indent, text in lines
            if len(text) - indent > (COLUMN if indent == 0 else INDENTED_COLUMN)]


def test_code_lines_fit_their_column():
    wide = []
    for page in sorted(DOCS.rglob("*.md")):
        wide += wide_lines(str(page.relative_to(ROOT)), code_lines(page))
    assert wide == []


def test_code_lines_the_build_writes_fit_their_column(rendered, tmp_path):
    """The tables' code blocks (commands, the scripts' usage lines) too."""
    wide = []
    for name, (markdown, _) in rendered.items():
        page = tmp_path / name
        page.write_text(markdown)
        wide += wide_lines(f"docs/{name}, rendered", code_lines(page))
    assert wide == []


def test_the_width_check_sees_a_wide_line(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("text\n\n```console\n$ puzzlesearch\n" + "x" * 81 + "\n```\n\n- item\n\n  ```\n"
                    + "  " + "y" * 77 + "\n  ```\n")
    widths = [(indent, len(text) - indent) for _, indent, text in code_lines(page)]
    assert widths == [(0, 14), (0, 81), (2, 77)]


def test_topswops_against_knuth_comes_from_the_side_by_side_record(rendered):
    """The Benchmarks page's ratio to Knuth's C is the newest side-by-side run's."""
    knuth = site_records.load("topswops_knuth.json")
    ours = next(r for r in knuth.rows if r["case"] == "default")
    text, records = site_tables.render("benchmarks", "topswops")
    assert "topswops_knuth.json" in [r.name for r in records]
    assert f"| {ours['/knuth']:.2f} |" in text
    older = site_records.load("topswops.json")
    assert older.date < knuth.date
    for row in older.rows:  # the ratios the older record's C figures would give are not shown
        if row.get("Knuth_C_s"):
            assert f"| {row['seconds'] / row['Knuth_C_s']:.2f} |" not in text


def test_every_record_is_shown_on_the_site(rendered):
    """Each record feeds a table, or a page names it (a figure quoted in the text)."""
    used = set().union(*(records for _, records in rendered.values()))
    named = {name for name in site_records.record_files()
             if any(f"benchmarks/results/{name}" in md for md, _ in rendered.values())}
    assert sorted(set(site_records.record_files()) - used - named) == []
    assert "topswops_wide.json" in used


def test_record_names_link_to_the_records_the_site_carries():
    files = site_records.site_files()
    assert set(files) == {f"records/{name}" for name in site_records.record_files()}
    text = "See `benchmarks/results/topswops_knuth.json` and `benchmarks/results/nothing.json`."
    assert site_records.link_records(text, "benchmarks.md") == (
        "See [`benchmarks/results/topswops_knuth.json`](records/topswops_knuth.json) and "
        "`benchmarks/results/nothing.json`.")
    assert "(../records/topswops_knuth.json)" in site_records.link_records(text, "api/topswops.md")
    linked = site_records.link_records(text, "index.md")
    assert site_records.link_records(linked, "index.md") == linked  # a link stays one link


def test_no_command_shown_names_a_folder_of_the_machine_it_ran_on(rendered):
    for name, (markdown, _) in rendered.items():
        for command in re.findall(r"`((?:puzzlesearch|python)[^`]*)`", markdown):
            assert not re.search(r"(?<![\w/.])/(work|tmp|home|root)/", command), f"{name}: {command}"


def test_commands_keep_the_paths_of_the_clone():
    shown = site_tables._command("puzzlesearch pancake god -n 13 --checkpoint /work/runs/p13.ckpt "
                                 "--store /work/main/benchmarks/runs/store.sqlite")
    assert shown == ("`puzzlesearch pancake god -n 13 --checkpoint p13.ckpt "
                     "--store benchmarks/runs/store.sqlite`")


def test_the_four_peg_results_show_four_pegs(monkeypatch):
    """The Results page's 4-peg section draws its picture with 4 pegs."""
    pytest.importorskip("matplotlib")
    import site_pictures

    from puzzlesearch.hanoi import pictures

    section = (DOCS / "results.md").read_text().split("## Tower of Hanoi with 4 pegs", 1)[1]
    images = re.findall(r"\]\(images/([\w.-]+)\)", section.split("\n## ", 1)[0])
    drawn = []
    real = pictures.position_figure
    monkeypatch.setattr(pictures, "position_figure",
                        lambda position, pegs, title=None: drawn.append(pegs) or real(position, pegs, title))
    assert images
    for name in images:
        site_pictures.PICTURES[name]()
    assert drawn and set(drawn) == {4}
