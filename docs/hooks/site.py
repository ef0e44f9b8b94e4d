"""Build-time code of the documentation site (the mkdocs hook mkdocs.yml names).

What it adds to a plain mkdocs build:

- the tables of the Results and Benchmarks pages and the home page's gallery, rendered
  from the saved records in benchmarks/results/ where a page has a line
  ``{{ results: NAME }}``, ``{{ benchmarks: NAME }}`` or ``{{ home: NAME }}``
  (site_tables; an unknown NAME stops the build);
- the pictures, drawn while the site is built and added as generated files
  ``images/NAME`` (site_pictures), so that strict link checking sees them, and a small
  style sheet that keeps the wide tables compact;
- the version of the package it documents (``puzzlesearch.__version__``, which
  ``puzzlesearch --version`` prints) and its licence, in the footer of every page;
- a stand-in for the Web Worker that the theme's search runs in, for pages opened from
  the disk (file://), where browsers start no worker (``file_worker.js``, which replaces
  the offline plugin's script from the web, so that the search works without a network);
- a copy of every record under ``records/``, which each record's name on a page links to;
- two checks that stop the build with one line naming the file: every record file is
  known to the site (site_records.CATALOG), and the Results page shows every frontier
  record.

The sibling modules are imported while mkdocs has this folder on sys.path (it puts it
there to load this file only); they are named ``site_*`` so that they cannot shadow an
installed package.
"""

from __future__ import annotations

import logging
import re
import time
from pathlib import Path

import site_pictures
import site_records
import site_tables
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

log = logging.getLogger("mkdocs.hooks.site")

#: a line asking for a rendered table: {{ results: topswops }}
PLACEHOLDER = re.compile(r"^\{\{\s*(results|benchmarks|home)\s*:\s*([\w-]+)\s*\}\}[ \t]*$", re.M)
#: the page that must show every frontier record
RESULTS_PAGE = "results.md"
#: the site's own style sheet, generated with the pictures: the records' tables have many
#: columns, and the theme's roomy cells would wrap every number
STYLESHEET = "stylesheets/site.css"
#: the worker stand-in for pages opened as files (see file_worker.js)
FILE_WORKER = "javascripts/file-worker.js"
FILE_WORKER_SOURCE = Path(__file__).with_name("file_worker.js")
CSS = """\
.md-typeset table:not([class]) { font-size: .6rem; }
.md-typeset table:not([class]) th, .md-typeset table:not([class]) td { padding: .4em .6em; }
.md-typeset table:not([class]) th { min-width: 0; }
.md-typeset a.nowrap code { white-space: nowrap; word-break: normal; }
.md-typeset .grid.cards img { display: block; margin: 0 auto; max-height: 18rem; }
"""


@event_priority(-100)  # after the offline plugin's, whose web script this replaces
def on_config(config):
    try:
        site_records.check_catalog()
    except site_records.CatalogError as e:
        raise PluginError(str(e)) from None
    from puzzlesearch import __version__

    config.copyright = f"puzzlesearch {__version__} · MIT licence · © 2026 the puzzlesearch authors"
    config.extra["puzzlesearch_version"] = __version__
    if STYLESHEET not in config.extra_css:
        config.extra_css.append(STYLESHEET)
    polyfills = [url for url in config.extra.get("polyfills", []) if "iframe-worker" not in str(url)]
    config.extra["polyfills"] = [*polyfills, FILE_WORKER] if FILE_WORKER not in polyfills else polyfills
    return config


def on_files(files, config):
    start = time.perf_counter()
    for path, content in site_pictures.draw_all().items():
        if files.get_file_from_path(path) is not None:
            raise PluginError(f"docs/{path}: the build draws this picture (docs/hooks/site_pictures.py); "
                              "remove the file")
        files.append(File.generated(config, path, content=content))
    for path, content in site_records.site_files().items():  # the records the pages link to
        files.append(File.generated(config, path, content=content))
    files.append(File.generated(config, STYLESHEET, content=CSS))
    files.append(File.generated(config, FILE_WORKER, content=FILE_WORKER_SOURCE.read_text()))
    log.debug("pictures drawn in %.1f s", time.perf_counter() - start)
    return files


def render_page(markdown: str, page_path: str) -> tuple[str, set[str]]:
    """The page's Markdown with each placeholder replaced by its table; the records used."""
    used: set[str] = set()

    def replace(match: re.Match) -> str:
        try:
            text, records = site_tables.render(match.group(1), match.group(2))
        except site_tables.UnknownTable as e:
            raise PluginError(f"docs/{page_path}: {e.args[0]}") from None
        used.update(r.name for r in records)
        return text

    return PLACEHOLDER.sub(replace, markdown), used


def missing_frontier(used: set[str]) -> list[str]:
    return [name for name in site_records.frontier_files() if name not in used]


def on_page_markdown(markdown, page, config, files):
    markdown, used = render_page(markdown, page.file.src_uri)
    markdown = site_records.link_records(markdown, page.file.src_uri)
    if page.file.src_uri == RESULTS_PAGE:
        missing = missing_frontier(used)
        if missing:
            names = ", ".join(f"benchmarks/results/{m}" for m in missing)
            raise PluginError(f"{names}: frontier record(s) the Results page ({RESULTS_PAGE}) does not show; "
                              "give each a table in docs/hooks/site_tables.py and a placeholder on the page")
    return markdown
