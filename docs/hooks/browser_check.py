"""Open the built site in headless Chromium: screenshots, every image loads, search works from file://.

    python docs/hooks/browser_check.py SITE_DIR [--out FOLDER] [--pages PAGE ...]

Serves SITE_DIR on a free localhost port (http.server in a thread), opens each page in
Chromium (Debian's /usr/bin/chromium, driven by playwright; requests that leave the site
are refused, so the check needs no network), scrolls through it so that
lazily loaded images load, saves a full-page screenshot to FOLDER (default
site-screenshots/) and fails if any ``<img>`` did not load (naturalWidth 0): exit 1 with
one line per broken image naming the page and the image. Then it opens the home page as
a file (file://, no server, every request to the web refused) and searches it for
SEARCH_WORD, which must find a result (file-search.png): the site works opened from the
disk, its search too. Bad arguments (no such folder, no index.html in it): one line,
exit 2. `make docs-check` runs it on site/.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import sys
import threading
from pathlib import Path

#: Debian's chromium package; playwright's own browser download is not needed
CHROMIUM = "/usr/bin/chromium"
#: no sandbox (containers), and nothing that phones home or runs in the background
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
#: the home page, a puzzle page and the results page (their files, relative to the site root:
#: the site has no directory URLs, so that it also works opened as files)
PAGES = ["", "topswops.html", "results.html"]
#: a word the site's search must find when the site is opened from the disk (file://)
SEARCH_WORD = "Pepperdine"
#: the search index as a script, which the offline plugin writes for pages opened as files
SEARCH_INDEX_JS = Path("search") / "search_index.js"
#: every <img> on the page, its source and whether it loaded
IMAGES_JS = """() => Array.from(document.images).map(img => ({
    src: img.getAttribute('src'), loaded: img.complete && img.naturalWidth > 0}))"""


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


def check(site: Path, out: Path, pages: list[str]) -> list[str]:
    """Screenshots of `pages` into `out`; one line for each image that did not load."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    server, url = serve(site)
    problems = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                view = browser.new_page(viewport={"width": 1280, "height": 900})
                # the check is of this site alone: a request elsewhere (the theme's web fonts) is
                # refused at once rather than left to time out on a machine without a network
                view.route("**/*", lambda route: route.continue_() if route.request.url.startswith(url)
                           else route.abort())
                for page in pages:
                    response = view.goto(url + page, wait_until="load")
                    if response is None or not response.ok:
                        status = response.status if response else "no answer"
                        problems.append(f"{page or '/'}: the page did not load ({status})")
                        continue
                    # lazily loaded images start loading when they come into view
                    view.evaluate("async () => { for (let y = 0; y < document.body.scrollHeight; y += 600)"
                                  " { window.scrollTo(0, y); await new Promise(r => setTimeout(r, 30)); }"
                                  " window.scrollTo(0, 0); }")
                    view.wait_for_load_state("networkidle")
                    for image in view.evaluate(IMAGES_JS):
                        if not image["loaded"]:
                            problems.append(f"{page or '/'}: image {image['src']} did not load")
                    view.screenshot(path=str(out / screenshot_name(page)), full_page=True, timeout=60_000)
                if (site / SEARCH_INDEX_JS).is_file():
                    problems += check_search_from_files(browser, site, out)
            finally:
                browser.close()
    finally:
        server.shutdown()
    return problems


def check_search_from_files(browser, site: Path, out: Path) -> list[str]:
    """The home page opened as a file (file://, no server): a search must find SEARCH_WORD."""
    view = browser.new_page(viewport={"width": 1280, "height": 900})
    # nothing from the web: the page must work from the disk alone
    view.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:")
               else route.abort())
    home = (site.resolve() / "index.html").as_uri()
    view.goto(home, wait_until="load")
    if view.locator("[data-md-component=search]").get_attribute("hidden") is not None:
        return [f"{home}: the search box is hidden (its worker did not start from file://)"]
    try:
        view.fill("input.md-search__input", SEARCH_WORD, timeout=20_000)  # the header's search box
        view.wait_for_selector(".md-search-result__item", timeout=20_000)
    except Exception as e:  # playwright's TimeoutError: no box to type in, or no result came
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        return [f"{home}: a search for {SEARCH_WORD!r} from file:// found nothing ({first})"]
    view.screenshot(path=str(out / "file-search.png"))
    return []


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        """Bad arguments: one line on stderr, exit 2 (argparse would print its usage too)."""
        self.exit(2, f"browser_check: {message}\n")


def main(argv: list[str] | None = None) -> int:
    ap = _Parser(description=__doc__.splitlines()[0])
    ap.add_argument("site", type=Path, help="the built site (mkdocs build's site_dir)")
    ap.add_argument("--out", type=Path, default=Path("site-screenshots"), help="folder for the screenshots")
    ap.add_argument("--pages", nargs="+", default=PAGES, help="pages to open, relative to the site root")
    args = ap.parse_args(argv)
    if not (args.site / "index.html").is_file():
        print(f"browser_check: {args.site} is no built site (no index.html in it)", file=sys.stderr)
        return 2
    if not Path(CHROMIUM).exists():
        print(f"browser_check: no Chromium at {CHROMIUM} (Debian's chromium package)", file=sys.stderr)
        return 2
    problems = check(args.site, args.out, args.pages)
    for line in problems:
        print(line, file=sys.stderr)
    if not problems:
        print(f"{len(args.pages)} pages, every image loaded; screenshots in {args.out}/")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
