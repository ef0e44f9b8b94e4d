"""Open every page of the built site in headless Chromium and read it as a reader would.

    python docs/hooks/browser_check.py SITE_DIR [--out FOLDER] [--pages PAGE ...]

Serves SITE_DIR on a free localhost port (http.server in a thread) and opens each of its
pages (every ``*.html`` file, or those named with --pages) in Chromium (Debian's
/usr/bin/chromium, driven by playwright; requests that leave the site are refused, so the
check needs no network) in a window 1280 pixels wide, every collapsed block opened. On
each page it looks for:

- an image that did not load (``<img>`` with naturalWidth 0);
- a raw reST role left in the text (``:func:`x``` shows as ":func:x"), outside code;
- raw Markdown left in the text (``**bold**``, ``[text](url)``, a pair of backticks, a
  heading's ``#``, a list glued to its paragraph, a ``::: module`` directive), outside code;
- a code block wider than its column (its scrollWidth over its clientWidth), which hides
  the end of its lines behind a scroll bar (named by its longest line);
- a link of the site that does not resolve: its file is not in the site, or the page it
  opens has no element with its anchor's id.

Each finding is one line on stderr, naming the page, the kind and the item, and the last
line counts them by kind; the exit status is then 1. Screenshots of the home page, a
puzzle page and the results page go to FOLDER (default site-screenshots/). Last it opens
the home page as a file (file://, no server, every request to the web refused) and
searches it for SEARCH_WORD, which must find a result (file-search.png): the site works
opened from the disk, its search too. Bad arguments (no such folder, no index.html in it,
a page it does not hold): one line, exit 2. `make docs-check` runs it on site/.
"""

from __future__ import annotations

import argparse
import collections
import functools
import html.parser
import http.server
import re
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

#: Debian's chromium package; playwright's own browser download is not needed
CHROMIUM = "/usr/bin/chromium"
#: no sandbox (containers), and nothing that phones home or runs in the background
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
#: the window: a laptop's width, where the theme shows the navigation beside the text
VIEWPORT = {"width": 1280, "height": 900}
#: the pages whose screenshots are saved (their files, relative to the site root: the site
#: has no directory URLs, so that it also works opened as files); a screenshot of every
#: page would take longer than the whole check
SCREENSHOTS = ["", "topswops.html", "results.html"]
#: a word the site's search must find when the site is opened from the disk (file://)
SEARCH_WORD = "Pepperdine"
#: the search index as a script, which the offline plugin writes for pages opened as files
SEARCH_INDEX_JS = Path("search") / "search_index.js"

#: the kinds of finding, in the order the summary counts them
IMAGE, ROLE, MARKDOWN, OVERFLOW, LINK = ("image did not load", "raw reST role", "raw Markdown",
                                         "code block overflows", "link does not resolve")
KINDS = (IMAGE, ROLE, MARKDOWN, OVERFLOW, LINK)

#: Sphinx's roles (the Python domain's and the standard ones) as a docstring writes them
ROLE_RE = re.compile(r"(?<![\w:]):(?:py:)?(?:func|class|meth|mod|attr|data|exc|obj|const|ref|doc|term|any"
                     r"|envvar|option|program|numref|math|sup|sub|pep|rfc):(?=[`\w~.!])")
#: Markdown that a renderer turns into markup, seen as plain text only when it was not
#: rendered (code is left out of the text, so a ** or a backtick shown in code is fine)
MARKDOWN_RES = [
    re.compile(r"\*\*[^\s*][^*\n]*\*\*"),  # **bold**
    re.compile(r"\[[^\[\]\n]+\]\([^()\s]+\)"),  # [text](url)
    re.compile(r"\[[^\[\]\n]+\]\[[^\[\]\n]*\]"),  # [text][ref]
    re.compile(r"`[^`\n]+`"),  # `code`
    re.compile(r"(?:^|\n)[ \t]*#{1,6} \S"),  # ## heading
    re.compile(r"\n[ \t]*(?:[-*+]|\d+\.) \S"),  # a list glued to the paragraph before it
    re.compile(r"(?:^|\n)::: \S"),  # mkdocstrings' directive
    re.compile(r"\|[ \t]*:?-{3,}"),  # a table's rule
]

#: opened before the page is read: collapsed blocks (<details>) are read like the rest
OPEN_JS = "() => { document.querySelectorAll('details').forEach(d => { d.open = true; }); }"
#: images load at once (the lazy ones too), then each has loaded or failed (or 10 s passed)
IMAGES_JS = """async () => {
    const images = Array.from(document.images);
    images.forEach(img => { img.loading = 'eager'; });
    const settled = img => img.complete ? null : new Promise(r => { img.onload = img.onerror = r; });
    await Promise.race([Promise.all(images.map(settled)), new Promise(r => setTimeout(r, 10000))]);
    return images.map(img => ({src: img.getAttribute('src') || '',
                               loaded: img.complete && img.naturalWidth > 0}));
}"""
#: what is read of a page: its ids, its links (resolved by the browser), the text of each of
#: its blocks (with code, for the roles; without, for Markdown) and its overflowing code
READ_JS = """() => {
    const main = document.querySelector('.md-content') || document.body;
    const skip = 'pre, script, style, svg, math, .arithmatex, .MathJax';
    const blocks = [];
    main.querySelectorAll('p, li, td, th, dt, dd, h1, h2, h3, h4, h5, h6, figcaption').forEach(el => {
        if (el.closest(skip)) return;
        const copy = el.cloneNode(true);
        copy.querySelectorAll(skip + ', ul, ol, table').forEach(x => x.remove());
        const all = copy.textContent;
        copy.querySelectorAll('code, kbd, samp').forEach(x => x.remove());
        blocks.push([all, copy.textContent]);
    });
    const overflows = [];
    main.querySelectorAll('pre').forEach(pre => {
        const boxes = [pre, ...pre.querySelectorAll(':scope > code')];
        if (boxes.some(b => b.clientWidth > 0 && b.scrollWidth > b.clientWidth + 1)) {
            // the longest line is the one that runs past the column
            const lines = pre.textContent.split('\\n');
            overflows.push(lines.reduce((a, b) => (b.length > a.length ? b : a), '').trim());
        }
    });
    return {
        ids: Array.from(document.querySelectorAll('[id], a[name]')).map(e => e.id || e.getAttribute('name')),
        links: Array.from(document.querySelectorAll('a[href]')).map(a => [a.getAttribute('href'), a.href]),
        blocks: blocks,
        overflows: overflows,
    };
}"""


@dataclass
class Finding:
    page: str
    kind: str
    item: str

    def __str__(self) -> str:
        return f"{self.page or '/'}: {self.kind}: {self.item}"


@dataclass
class Seen:
    """What one page showed: its ids and its links, followed once every page is read."""

    ids: set[str] = field(default_factory=set)
    links: list[tuple[str, str]] = field(default_factory=list)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 (http.server's name)
        pass


def serve(root: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    """A server for `root` on a free port of 127.0.0.1, running in a daemon thread; its URL."""
    handler = functools.partial(_Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def screenshot_name(page: str) -> str:
    return (page.strip("/").removesuffix(".html").replace("/", "-") or "home") + ".png"


def site_pages(site: Path) -> list[str]:
    """Every page of the site, by its file relative to the root: the home page ('') first."""
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    return [""] * ("index.html" in pages) + [p for p in pages if p != "index.html"]


def _short(text: str, width: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 1] + "…"


def text_findings(page: str, blocks: list[list[str]]) -> list[Finding]:
    """Raw roles (in the text with its code) and raw Markdown (in the text without it)."""
    found: dict[tuple[str, str], Finding] = {}

    def add(kind: str, text: str, match: re.Match) -> None:
        # the item: the text from the match to the end of its line, so that it can be searched for
        item = _short(text[match.start():].lstrip().split("\n", 1)[0], 60)
        found.setdefault((kind, item), Finding(page, kind, item))

    for with_code, without_code in blocks:
        for match in ROLE_RE.finditer(with_code):
            add(ROLE, with_code, match)
        for pattern in MARKDOWN_RES:
            for match in pattern.finditer(without_code):
                add(MARKDOWN, without_code, match)
    return list(found.values())


class _Ids(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id" or (tag == "a" and name == "name"):
                self.ids.add(value or "")


def file_ids(path: Path) -> set[str]:
    """The ids of a page that the check did not open (parsed, without running its scripts)."""
    parser = _Ids()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    return parser.ids


def link_findings(site: Path, url: str, seen: dict[str, Seen]) -> list[Finding]:
    """Every link of the site that opens no file of it, or an anchor its page lacks."""
    problems = []
    ids_of = {page: s.ids for page, s in seen.items()}
    for page, s in seen.items():
        for written, resolved in s.links:
            if not resolved.startswith(url):
                continue  # another site, mailto:, javascript:
            parts = urlsplit(resolved)
            name = unquote(parts.path)[len(urlsplit(url).path):]
            if name == "" or name.endswith("/"):
                name += "index.html"
            target = site / name
            if not target.is_file():
                problems.append(Finding(page, LINK, f"{written} (no file {name})"))
                continue
            anchor = unquote(parts.fragment)
            if not anchor or not name.endswith(".html"):
                continue
            key = "" if name == "index.html" else name
            if key not in ids_of:
                ids_of[key] = file_ids(target)
            if anchor not in ids_of[key]:
                problems.append(Finding(page, LINK, f"{written} (no #{anchor} in {name})"))
    return problems


def check(site: Path, out: Path, pages: list[str]) -> list[Finding]:
    """Every page of `pages` opened and read; screenshots into `out`; the findings."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    server, url = serve(site)
    problems: list[Finding] = []
    seen: dict[str, Seen] = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                view = browser.new_page(viewport=VIEWPORT)
                # the check is of this site alone: a request elsewhere (the theme's web fonts) is
                # refused at once rather than left to time out on a machine without a network
                view.route("**/*", lambda route: route.continue_() if route.request.url.startswith(url)
                           else route.abort())
                for page in pages:
                    response = view.goto(url + page, wait_until="load")
                    if response is None or not response.ok:
                        status = response.status if response else "no answer"
                        problems.append(Finding(page, "page did not load", str(status)))
                        continue
                    view.evaluate(OPEN_JS)
                    for image in view.evaluate(IMAGES_JS):
                        if not image["loaded"]:
                            problems.append(Finding(page, IMAGE, _short(image["src"])))
                    read = view.evaluate(READ_JS)
                    problems += text_findings(page, read["blocks"])
                    problems += [Finding(page, OVERFLOW, _short(line)) for line in read["overflows"]]
                    seen[page] = Seen(set(read["ids"]), [tuple(x) for x in read["links"]])
                    if page in SCREENSHOTS:
                        view.screenshot(path=str(out / screenshot_name(page)), full_page=True,
                                        timeout=60_000)
                problems += link_findings(site, url, seen)
                if (site / SEARCH_INDEX_JS).is_file():
                    problems += check_search_from_files(browser, site, out)
            finally:
                browser.close()
    finally:
        server.shutdown()
    return problems


def check_search_from_files(browser, site: Path, out: Path) -> list[Finding]:
    """The home page opened as a file (file://, no server): a search must find SEARCH_WORD."""
    view = browser.new_page(viewport=VIEWPORT)
    # nothing from the web: the page must work from the disk alone
    view.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:")
               else route.abort())
    home = (site.resolve() / "index.html").as_uri()
    view.goto(home, wait_until="load")
    if view.locator("[data-md-component=search]").get_attribute("hidden") is not None:
        return [Finding(home, "search", "the search box is hidden (its worker did not start from file://)")]
    try:
        view.fill("input.md-search__input", SEARCH_WORD, timeout=20_000)  # the header's search box
        view.wait_for_selector(".md-search-result__item", timeout=20_000)
    except Exception as e:  # playwright's TimeoutError: no box to type in, or no result came
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        return [Finding(home, "search", f"a search for {SEARCH_WORD!r} from file:// found nothing ({first})")]
    view.screenshot(path=str(out / "file-search.png"))
    return []


def summary(problems: list[Finding], pages: int) -> str:
    """One line: how many findings of each kind, on how many pages."""
    kinds = collections.Counter(p.kind for p in problems)
    order = [k for k in KINDS if k in kinds] + sorted(k for k in kinds if k not in KINDS)
    counts = ", ".join(f"{kinds[k]} {k}" for k in order)
    on = len({p.page for p in problems})
    return f"browser_check: {len(problems)} findings on {on} of {pages} pages ({counts})"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        """Bad arguments: one line on stderr, exit 2 (argparse would print its usage too)."""
        self.exit(2, f"browser_check: {message}\n")


def main(argv: list[str] | None = None) -> int:
    ap = _Parser(description=__doc__.splitlines()[0])
    ap.add_argument("site", type=Path, help="the built site (mkdocs build's site_dir)")
    ap.add_argument("--out", type=Path, default=Path("site-screenshots"), help="folder for the screenshots")
    ap.add_argument("--pages", nargs="+",
                    help="pages to open, relative to the site root (default: every page)")
    args = ap.parse_args(argv)
    if not (args.site / "index.html").is_file():
        print(f"browser_check: {args.site} is no built site (no index.html in it)", file=sys.stderr)
        return 2
    pages = site_pages(args.site) if args.pages is None else args.pages
    missing = [p for p in pages if not (args.site / (p or "index.html")).is_file()]
    if missing:
        print(f"browser_check: {args.site} has no page {missing[0]}", file=sys.stderr)
        return 2
    if not Path(CHROMIUM).exists():
        print(f"browser_check: no Chromium at {CHROMIUM} (Debian's chromium package)", file=sys.stderr)
        return 2
    problems = check(args.site, args.out, pages)
    for finding in problems:
        print(finding, file=sys.stderr)
    if problems:
        print(summary(problems, len(pages)), file=sys.stderr)
        return 1
    print(f"{len(pages)} pages: every image loaded, no raw role or Markdown, no code block overflows, "
          f"every link resolves; screenshots in {args.out}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
