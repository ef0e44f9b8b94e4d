"""The documentation site: its build-time code, and the built site itself.

The fast tests check the hook's parts without building: every record in
benchmarks/results/ is known to the site, every frontier record has a Results table that
shows its date, and the script runs the tables name exist. The site tests build the site
once (``mkdocs build --strict`` into a temporary folder, a fresh process as `make docs`
runs it, the gallery's notebooks unrun), then follow every link and image of every page.
Each failure is one line: the page, the link or image, and what is missing. The browser
check's tests give it small sites of their own; `make docs-check` runs it on the real one.
"""

from __future__ import annotations

import html.parser
import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
HOOKS = ROOT / "docs" / "hooks"
sys.path.insert(0, str(HOOKS))  # the hook's modules, named site_* so as to shadow nothing

import site_records  # noqa: E402
import site_tables  # noqa: E402


def load_hook():
    """docs/hooks/site.py, loaded as mkdocs loads it (by path: `site` is the standard
    library's name)."""
    spec = importlib.util.spec_from_file_location("docs_hooks_site", HOOKS / "site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------------------- the records


def test_every_record_file_is_known_to_the_site():
    site_records.check_catalog()


def test_a_record_the_site_does_not_know_stops_the_build_in_one_line(tmp_path, monkeypatch):
    for name in site_records.record_files():
        (tmp_path / name).write_bytes((site_records.RESULTS / name).read_bytes())
    (tmp_path / "topswops_f17.json").write_text("{}")
    monkeypatch.setattr(site_records, "RESULTS", tmp_path)
    with pytest.raises(site_records.CatalogError) as e:
        site_records.check_catalog()
    message = str(e.value)
    assert "benchmarks/results/topswops_f17.json" in message and "\n" not in message


@pytest.fixture(scope="module")
def results_tables() -> dict[str, tuple[str, list]]:
    """Every Results table: its Markdown and the records it used."""
    return {name: site_tables.render("results", name) for name in site_tables.RESULTS}


def test_every_frontier_record_has_a_table_on_the_results_page(results_tables):
    used = {r.name for _, records in results_tables.values() for r in records}
    for name in site_records.frontier_files():
        assert name in used, f"benchmarks/results/{name}: a frontier record no Results table renders"


def test_the_hook_names_a_frontier_record_the_results_page_leaves_out():
    hook = load_hook()
    used = set(site_records.frontier_files()) - {"queens_n20.json"}
    assert hook.missing_frontier(used) == ["queens_n20.json"]


def test_each_results_table_names_its_records_with_date_machine_and_how_made(results_tables):
    for table, (markdown, records) in results_tables.items():
        for record in records:
            line = next((x for x in markdown.splitlines() if record.path in x), None)
            assert line is not None, f"results table {table}: no source line for {record.path}"
            for what, text in (("date", record.date), ("machine", record.machine)):
                assert text in line, (
                    f"results table {table}: the line of {record.path} lacks its {what}: {text}")
            assert "command" in line or "written by" in line, (
                f"results table {table}: the line of {record.path} says neither its command nor its script")


def test_every_benchmarks_table_renders_and_names_its_records():
    for table in site_tables.BENCHMARKS:
        markdown, records = site_tables.render("benchmarks", table)
        for record in records:
            assert record.path in markdown and record.date in markdown, (
                f"benchmarks table {table}: no source line with {record.path} and {record.date}")


def test_the_script_runs_name_scripts_and_options_that_exist():
    for name in site_records.record_files():
        run = site_records.load(name).script
        if not run or not run.startswith("python benchmarks/"):
            continue
        words = shlex.split(run)
        script = ROOT / words[1]
        assert script.is_file(), f"benchmarks/results/{name}: its script {words[1]} does not exist"
        text = script.read_text()
        for option in (w for w in words if w.startswith("--")):
            assert f'"{option}"' in text, f"benchmarks/results/{name}: {words[1]} has no option {option}"


def test_every_record_has_a_date():
    for name in site_records.record_files():
        date = site_records.load(name).date
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", date), f"benchmarks/results/{name}: no date ({date!r})"


def test_a_record_without_a_command_says_what_wrote_it():
    line = site_tables.source_line(site_records.load("topswops.json"))
    assert "2026-11-30" in line and "written by `python benchmarks/topswops.py`" in line
    line = site_tables.source_line(site_records.load("pancake_13.json"))
    assert "command `puzzlesearch pancake god -n 13" in line and "05:34–05:57 UTC" in line


def test_an_unknown_table_stops_the_build_naming_the_page():
    from mkdocs.exceptions import PluginError

    hook = load_hook()
    with pytest.raises(PluginError, match=r"docs/results.md: no results table named 'nosuch'"):
        hook.render_page("# Results\n\n{{ results: nosuch }}\n", "results.md")


@pytest.mark.parametrize("seconds, text", [(0.0123, "12.3 ms"), (0.5, "0.500 s"), (2.25, "2.25 s"),
                                           (37.66, "37.7 s"), (536.0, "536 s"), (3952.0, "65 min 52 s"),
                                           (600.0, "10 min"), (9000.0, "2 h 30 min")])
def test_durations_read_as_the_readme_writes_them(seconds, text):
    assert site_tables.secs(seconds) == text


# ---------------------------------------------------------------------------- the built site


class _Page(html.parser.HTMLParser):
    """The links, images and ids of one HTML page, and the text of its paragraphs and items."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.images: list[str] = []
        self.ids: set[str] = set()
        self.blocks: list[str] = []
        self._open = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and a.get("href") is not None:
            self.links.append(a["href"])
        elif tag == "link" and a.get("href") and a.get("rel") in ("stylesheet", "icon"):
            self.links.append(a["href"])
        elif tag == "script" and a.get("src"):
            self.links.append(a["src"])
        elif tag == "img" and a.get("src"):
            self.images.append(a["src"])
        if tag in ("p", "li"):
            self._open += 1
            self.blocks.append("")

    def handle_endtag(self, tag):
        if tag in ("p", "li") and self._open:
            self._open -= 1

    def handle_data(self, data):
        if self._open:
            self.blocks[-1] += data


def parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> tuple[Path, str]:
    """The site, built once with `mkdocs build --strict` into a temporary folder; its log."""
    out = tmp_path_factory.mktemp("site")
    # the gallery's notebooks are built unrun here: tests/test_gallery.py runs each of them
    # (slow lane), and running them twice would add their minute to the fast lane
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "GALLERY_EXECUTE": "false"}
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=600)
    log = proc.stdout + proc.stderr
    if proc.returncode != 0:
        lines = log.splitlines()
        problems = [x for x in lines if x.startswith(("WARNING", "ERROR", "Aborted"))] or lines
        pytest.fail(f"mkdocs build --strict failed: {' | '.join(problems[-5:])}")
    return out, log


@pytest.fixture(scope="session")
def pages(built_site) -> dict[str, _Page]:
    """Every HTML page of the built site by its path there (results.html, ...)."""
    site, _ = built_site
    return {p.relative_to(site).as_posix(): parse(p) for p in site.rglob("*.html")}


def test_the_site_builds_without_warnings(built_site):
    _, log = built_site
    warnings = [x for x in log.splitlines() if x.startswith("WARNING")]
    assert not warnings, f"mkdocs warned: {warnings[0]}"


def _target(site: Path, page: str, url: str) -> tuple[Path, str] | None:
    """(file, anchor) an internal link of `page` opens when the site is opened from the disk,
    file://, as the README suggests: no server turns a folder into its index.html, and a
    link from the root (/...) leaves the site. None for links elsewhere (http:, mailto:)."""
    parts = urlsplit(urljoin((site / page).as_uri(), url))
    if parts.scheme != "file":
        return None
    return Path(unquote(parts.path)), parts.fragment


def _in_site(site: Path, path: Path) -> str | None:
    """The path's name in the site, or None if it is outside it."""
    try:
        return path.relative_to(site).as_posix()
    except ValueError:
        return None


#: the page a web server shows for a missing address: its links are from the server's root,
#: and opened as files it never appears
NOT_FOUND = "404.html"


def test_every_internal_link_and_anchor_resolves_from_file_urls(built_site, pages):
    site, _ = built_site
    for page, parsed in sorted(pages.items()):
        if page == NOT_FOUND:
            continue
        for url in parsed.links:
            target = _target(site, page, url)
            if target is None:
                continue
            path, anchor = target
            name = _in_site(site, path)
            assert name is not None and path.is_file(), (
                f"{page}: link {url} opens {path} from file://, which is not a file of the site")
            if anchor and name.endswith(".html"):
                ids = pages[name].ids if name in pages else parse(path).ids
                assert anchor in ids, f"{page}: link {url} -> {name} has no anchor #{anchor}"


def test_every_image_a_page_names_exists(built_site, pages):
    site, _ = built_site
    for page, parsed in sorted(pages.items()):
        if page == NOT_FOUND:
            continue
        for src in parsed.images:
            target = _target(site, page, src)
            if target is None:
                continue
            path = target[0]
            assert _in_site(site, path) is not None and path.is_file() and path.stat().st_size > 0, (
                f"{page}: image {src} -> {path} is missing")


def test_the_search_works_without_a_server(built_site, pages):
    """Opened as files, the theme reads the search index from a script (the offline plugin),
    and no page waits on a font service."""
    site, _ = built_site
    assert (site / "search" / "search_index.js").is_file(), (
        "search/search_index.js: not built (the offline plugin)")
    for page in pages:
        text = (site / page).read_text(encoding="utf-8")
        assert "fonts.googleapis.com" not in text, f"{page}: loads web fonts"


def test_every_page_shows_the_version_the_command_prints(built_site, pages):
    import puzzlesearch

    site, _ = built_site
    for page in pages:
        text = (site / page).read_text(encoding="utf-8")
        assert f"puzzlesearch {puzzlesearch.__version__}" in text, (
            f"{page}: no 'puzzlesearch {puzzlesearch.__version__}' in its footer")


def test_every_picture_the_pages_embed_is_drawn(built_site):
    import site_pictures

    site, _ = built_site
    for name in site_pictures.PICTURES:
        path = site / "images" / name
        assert path.is_file() and path.stat().st_size > 1000, f"images/{name}: not drawn into the site"


def test_the_results_page_shows_every_frontier_record_with_its_date(pages):
    blocks = pages["results.html"].blocks
    for name in site_records.frontier_files():
        record = site_records.load(name)
        assert any(record.path in b and record.date in b for b in blocks), (
            f"results.html: no line names {record.path} with its date {record.date}")


def test_the_home_page_shows_every_picture(pages):
    import site_pictures

    images = {src.rsplit("/", 1)[-1] for src in pages["index.html"].images}
    for name in site_pictures.PICTURES:
        assert name in images, f"index.html: the gallery lacks images/{name}"


# ---------------------------------------------------------------------------- the browser check

BROWSER_CHECK = HOOKS / "browser_check.py"


def run_browser_check(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BROWSER_CHECK), *args], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)


@pytest.mark.parametrize("args", [["/nonexistent/site"], [], ["site", "--nosuch"]])
def test_browser_check_refuses_bad_arguments_in_one_line(args):
    result = run_browser_check(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr, result.stderr


def _chromium() -> bool:
    return Path("/usr/bin/chromium").exists() and importlib.util.find_spec("playwright") is not None


def load_browser_check():
    if "browser_check" not in sys.modules:  # its dataclasses look their module up by name
        spec = importlib.util.spec_from_file_location("browser_check", BROWSER_CHECK)
        sys.modules["browser_check"] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules["browser_check"])
    return sys.modules["browser_check"]


def test_browser_check_refuses_a_page_the_site_does_not_hold(tmp_path):
    (tmp_path / "index.html").write_text("<html></html>")
    result = run_browser_check(str(tmp_path), "--pages", "", "nosuch.html")
    assert result.returncode == 2 and result.stderr == f"browser_check: {tmp_path} has no page nosuch.html\n"


def test_browser_check_finds_every_page_of_the_site(tmp_path):
    (tmp_path / "gallery").mkdir()
    for name in ("index.html", "install.html", "gallery/queens.html", "gallery/queens.ipynb"):
        (tmp_path / name).write_text("")
    assert load_browser_check().site_pages(tmp_path) == ["", "gallery/queens.html", "install.html"]


@pytest.mark.parametrize(("text", "kind", "item"), [
    ("Call :func:solve first.", "raw reST role", ":func:solve first."),
    ("see :py:class:Board", "raw reST role", ":py:class:Board"),
    ("the **rules** apply", "raw Markdown", "**rules** apply"),
    ("read [the page](queens.md) first", "raw Markdown", "[the page](queens.md) first"),
    ("run `make docs` first", "raw Markdown", "`make docs` first"),
    ("Fields:\n- n the size", "raw Markdown", "- n the size"),
    ("## Heading left as text", "raw Markdown", "## Heading left as text"),
    ("::: puzzlesearch.queens", "raw Markdown", "::: puzzlesearch.queens"),
])
def test_the_browser_check_names_raw_roles_and_markdown(text, kind, item):
    check = load_browser_check()
    found = check.text_findings("queens.html", [[text, text]])
    assert [(f.page, f.kind, f.item) for f in found] == [("queens.html", kind, item)]


@pytest.mark.parametrize("text", ["f(n) is the most steps: 2 * 3 * 4", "Q(8) = 92 [OEIS A000170]",
                                  "a heap of 3 (Sum(3)), then: - 1", "the time: 12:30:00", "#3 in the list"])
def test_the_browser_check_passes_plain_text(text):
    assert load_browser_check().text_findings("index.html", [[text, text]]) == []


def test_markdown_shown_in_code_is_not_a_finding():
    """The text is read twice: with its code for the roles, without it for Markdown."""
    check = load_browser_check()
    assert check.text_findings("perm.html", [["call f(**kwargs) or `x`", "call f() or "]]) == []


def test_the_browser_check_follows_links_and_anchors(tmp_path):
    check = load_browser_check()
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "page.html").write_text('<h2 id="there">There</h2><a name="old"></a>')
    (tmp_path / "index.html").write_text("")
    url = "http://127.0.0.1:1/"
    seen = {"": check.Seen({"top"}, [
        ("#top", url + "#top"), ("sub/page.html#there", url + "sub/page.html#there"),
        ("sub/page.html#old", url + "sub/page.html#old"), ("https://oeis.org/A000170", "https://oeis.org/A000170"),
        ("sub/page.html#nowhere", url + "sub/page.html#nowhere"), ("missing.html", url + "missing.html"),
        ("#gone", url + "#gone")])}
    found = [str(f) for f in check.link_findings(tmp_path, url, seen)]
    assert found == ["/: link does not resolve: sub/page.html#nowhere (no #nowhere in sub/page.html)",
                     "/: link does not resolve: missing.html (no file missing.html)",
                     "/: link does not resolve: #gone (no #gone in index.html)"]


#: a site with one finding of each kind on its home page, and a clean second page
BAD_HOME = """<html><body>
<img src="images/missing.svg">
<p>Call :func:<code>solve</code> first.</p>
<p>This is **not bold** here, and <code>**kwargs</code> is code.</p>
<pre><code>{long}</code></pre>
<pre><code>short</code></pre>
<p><a href="sub/page.html#there">good</a> <a href="sub/page.html#nowhere">bad anchor</a>
<a href="missing.html">missing</a> <a href="https://example.org/">elsewhere</a></p>
</body></html>"""


@pytest.mark.slow
@pytest.mark.skipif(not _chromium(), reason="needs /usr/bin/chromium and playwright (make docs-check)")
def test_browser_check_names_each_finding_with_its_page(tmp_path):
    site = tmp_path / "site"
    (site / "sub").mkdir(parents=True)
    (site / "index.html").write_text(BAD_HOME.format(long="x = 1  # " + "a very long comment " * 20))
    (site / "sub" / "page.html").write_text('<html><body><h2 id="there">There</h2>'
                                            '<p><a href="../index.html">home</a></p></body></html>')
    result = run_browser_check(str(site), "--out", str(tmp_path / "shots"))
    assert result.returncode == 1, result.stderr
    assert result.stderr.splitlines() == [
        "/: image did not load: images/missing.svg",
        "/: raw reST role: :func:solve first.",
        "/: raw Markdown: **not bold** here, and is code.",
        "/: code block overflows: x = 1 # a very long comment a very long comment a very long comment a…",
        "/: link does not resolve: sub/page.html#nowhere (no #nowhere in sub/page.html)",
        "/: link does not resolve: missing.html (no file missing.html)",
        "browser_check: 6 findings on 1 of 2 pages (1 image did not load, 1 raw reST role, 1 raw Markdown, "
        "1 code block overflows, 2 link does not resolve)",
    ]
    assert {p.name for p in (tmp_path / "shots").glob("*.png")} == {"home.png"}


@pytest.mark.slow
@pytest.mark.skipif(not _chromium(), reason="needs /usr/bin/chromium and playwright (make docs-check)")
def test_browser_check_passes_a_clean_site(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text('<html><body><h1 id="top">Home</h1><p>Q(8) = 92, see '
                                     '<a href="#top">above</a>; <code>f(**kw)</code>.</p>'
                                     "<pre><code>short</code></pre></body></html>")
    result = run_browser_check(str(site), "--out", str(tmp_path / "shots"))
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert result.stdout.startswith("1 pages: every image loaded")
