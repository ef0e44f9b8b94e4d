"""Run the command examples of the README and the documentation pages, record what they
print, compare two runs, and compare each with the output its page shows.

An example is a line `$ COMMAND` inside a fenced block of README.md or of a page of
docs/; the lines after it, up to the next `$ ` line or the end of the block, are the
output the page shows. A line that ends in a backslash goes on in the next one, as in a
shell: the pages wrap long commands and outputs so that they fit the column of the
site's code blocks (tests/test_docs_layout.py). A refactor must leave every example
printing the same bytes before and after; this script is how that is checked, and
tests/test_doc_examples.py uses the same functions to check that every page shows what
its commands print.

How a command runs. Each runs in bash (so pipes, quotes and `VAR=value` prefixes mean
what they mean to a user), in a fresh empty directory, with stdin empty unless the
command pipes into it. `puzzlesearch` on PATH is a shim with the body of the console
script pip installs (`sys.exit(main())` from the `[project.scripts]` entry of the source
tree's pyproject.toml, `puzzlesearch.cli:main` by default), run by --python with
PYTHONPATH=--src, so the same interpreter and packages run either source tree, and the
program sees itself as `puzzlesearch` in its messages (`python -m puzzlesearch` would be
named "python -m puzzlesearch" by click). Every example gets its own private results
store (PUZZLESEARCH_STORE in the temporary directory), so examples do not depend on the
order they run in or on the user's store; the other PUZZLESEARCH_* variables are removed
from the environment (the numba and ahead-of-time kernel caches stay the user's, to keep
runs short). For each example the script keeps stdout, stderr, the exit status, the
files the command created and the files it changed in its directory.

Comparing. Two runs are compared on stdout, stderr, exit status and the created and
changed file names, after NORMALISE: the regexes below replace what depends on the
moment or the machine (timings, rates, dates, the free memory, the temporary paths), so
that the comparison is about behaviour. Wall times are recorded but never compared.

Skipped examples (listed by --list and in every record, with the reason): interactive
terminal sessions (a block that shows `^C`), commands that need a Dask cluster (`dask
...` or a `tcp://HOST:` placeholder address), commands whose output depends on the
machine's speed (TIMED), and the few runs over about 30 s (SLOW: run them with
--include-slow). `make run` is replaced by the command its Makefile recipe runs
(creating the venv is not the point of the example).

Usage (from the repository root; keep the machine's other users in mind, a full run is
a few minutes of one core):

    python tests/doc_examples.py --list
    python tests/doc_examples.py --check-pages                  # every page against its commands
    python tests/doc_examples.py --page docs/queens.md --check-pages
    python tests/doc_examples.py --src /tmp/before/src --record before.json
    python tests/doc_examples.py --compare before.json          # exit 1 if any differ
    python tests/doc_examples.py --only queens --compare before.json

--compare runs the commands of the record (not those of the current pages, which may
have been rewritten since), and reports commands the record does not hold.
"""

from __future__ import annotations

import argparse
import datetime
import difflib
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
DOCS = REPO / "docs"
FORMAT = "puzzlesearch-doc-examples/1"


def pages() -> list[Path]:
    """The pages whose examples are checked: the README and every page of the site."""
    return [README, *sorted(DOCS.glob("*.md"))]


def page_name(page: Path) -> str:
    """A page as the messages name it: its path from the repository root."""
    page = Path(page).resolve()
    return str(page.relative_to(REPO)) if page.is_relative_to(REPO) else str(page)

# (pattern, replacement, why). Applied in this order to stdout and stderr of both sides
# (and to the README's shown text) before comparing. Keep each one narrow: a pattern
# that also matched a computed answer would hide a change of behaviour.
NORMALISE: list[tuple[str, str, str]] = [
    (r'("seconds":\{)([^{}]*)(\})', "<JSON-SECONDS-MAP>",
     "JSON per-search timings, e.g. \"seconds\":{\"backward\":0.45,\"forward\":0.14}"),
    (r'"seconds":-?[0-9][0-9.eE+-]*', '"seconds":<t>', 'JSON timing, e.g. "seconds":0.0012'),
    (r"\bseconds=[0-9][0-9.]*", "seconds=<t>", "queens -v timing, e.g. seconds=0.002"),
    (r"(?<![\w.])[0-9]+\.[0-9]+ s\b", "<t> s", "human timings, e.g. '65 nodes in 0.347 s', '0.00 s'"),
    (r"(?<![\w.])[0-9]+(\.[0-9]+)?[kKMG]? (nodes|decks|stacks|heaps|boards|tasks|moves)/s\b", r"<rate> \2/s",
     "rates in progress lines, e.g. '63.2M nodes/s'"),
    (r"\b[0-9]+:[0-9]{2}:[0-9]{2}\b", "<h:mm:ss>", "elapsed times and ETAs, e.g. 'took 0:00:10'"),
    (r"\b[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]+)?)?)?\b", "<date>",
     "dates and times of day"),
    (r"\bonly [0-9]+(\.[0-9]+)? ([KMGT]i?B) is available", r"only <free> \2 is available",
     "the memory the machine has free when the command runs"),
    (r"\bmore than [0-9]+(\.[0-9]+)? ([KMGT]i?B), the memory available now",
     r"more than <free> \2, the memory available now", "the same, in the memory cap's wording"),
]
# The JSON-SECONDS-MAP rule keeps the keys and replaces only the numbers.
_SECONDS_MAP = re.compile(NORMALISE[0][0])


def normalise(text: str, *, paths: Iterable[tuple[str, str]] = ()) -> str:
    """`text` with the NORMALISE patterns (and the given literal paths) replaced."""
    for literal, name in paths:
        if literal:
            text = text.replace(literal, name)
    text = _SECONDS_MAP.sub(lambda m: m[1] + re.sub(r"-?[0-9][0-9.eE+-]*", "<t>", m[2]) + m[3], text)
    for pattern, replacement, _why in NORMALISE[1:]:
        text = re.sub(pattern, replacement, text)
    return text


# ---------------------------------------------------------------------------------------
# The README's examples


@dataclass(frozen=True)
class Example:
    """One `$ command` line of a page and the output shown after it."""

    line: int  # 1-based line of the `$ ` in its page
    command: str  # as written, without the `$ `
    shown: tuple[str, ...]  # the page's output lines (trailing blank lines dropped)
    section: str  # the nearest heading above it
    skip: str = ""  # why it is not run ("" = it runs)
    slow: str = ""  # why it is skipped unless --include-slow ("" = not slow)
    page: str = "README.md"  # the page, from the repository root

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def key(self) -> str:
        return self.command


@dataclass(frozen=True)
class CodeBlock:
    """One fenced block of a page."""

    line: int  # line of the opening fence
    lang: str
    text: str
    section: str
    page: str = "README.md"

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


def code_blocks(page: Path = README) -> list[CodeBlock]:
    """Every fenced block of a page, in order."""
    blocks, lang, start, body, section, name = [], None, 0, [], "", page_name(page)
    for number, text in enumerate(Path(page).read_text().splitlines(), 1):
        if lang is None:
            if text.startswith("#"):
                section = text.lstrip("#").strip()
            elif text.startswith("```"):
                lang, start, body = text[3:].strip(), number, []
        elif text.startswith("```"):
            blocks.append(CodeBlock(start, lang, "\n".join(body) + "\n" if body else "", section, name))
            lang = None
        else:
            body.append(text)
    return blocks


# Commands run only with --include-slow (more than about 30 s), with the reason.
SLOW = {
    "puzzlesearch topswops solve -n 14 --mode forward --checkpoint f14.ckpt":
        "forward search n = 14 (the deep search: long decks, the 13-card listing, then the search): "
        "about 45 s on one core",
    "puzzlesearch grundy octal 0.1777 --count 443139471 --summary --checkpoint 1777.ckpt":
        "0.1777's period proven from 443,139,471 values: about 4 minutes, 1 GB",
    "puzzlesearch shuffle solve -n 8": "16 cards, 19 moves: about 20 s and 1.5 GiB",
}
# Commands the script runs but tests/test_doc_examples.py leaves out, to keep the suite short.
NOT_IN_TEST = {
    "puzzlesearch grundy grundys --count 1000000 --summary": "Grundy's game to 10^6: about 6 s on 2 cores",
    "puzzlesearch hanoi verify --pegs 4 -n 8 --diameter": "BFS from 2,795 sources: about 11 s",
    "puzzlesearch shuffle god -n 5 -v --show 3 --plot shuffle5.png":
        "full BFS of 10! decks and a matplotlib plot: about 3 s",
}
# What a command needs in its directory before it runs: ("run", command) or ("write", name, text).
_DEMO = 'name = "demo"\n[pieces.p]\npositions = ["a", "b", "c", "d"]\n[moves]\nX = "(a b c)"\nY = "(c d)"\n'
_TWISTY = ('name = "twisty"\n[pieces.discs]\npositions = ["a", "b", "c", "d"]\ntwists = 2\n[moves]\n'
           'X = "(a b c)"\nY = "(c d)"\nF = "(a+1)(b+1)"\n')
_DISCS = ("Name three discs\nSet DISCS 3 2\n\nSolved\nDISCS\n1 2 3\nEnd\n\n"
          "# X sends the disc at 1 to 3, turning it over, the one at 2 to 1 and the one at 3 to 2\n"
          "Move X\nDISCS\n2 3 1\n1 0 0\nEnd\n\nMove Y\nDISCS\n2 1 3\nEnd\n")
TURNS = ('name = "TurnFour 3x2"\n[pieces.tiles]\npositions = ["a", "b", "c", "d", "e", "f"]\ntwists = 4\n'
          '[moves]\nL = "(a+1 b+1 e+1 d+1)"\nR = "(b+1 c+1 f+1 e+1)"\n')
SETUP: dict[str, list[tuple[str, ...]]] = {
    # docs/perm.md's solve from a table: the census that leaves it, run just before on the page
    'puzzlesearch perm solve pyraminx "ul ur ub lr lb rb u+1 l+1 r+2 b+2" --checkpoint pyraminx.ckpt -v':
        [("run", "puzzlesearch perm god pyraminx --checkpoint pyraminx.ckpt --show 0")],
    'puzzlesearch perm solve cube2-htm --scramble "R U" --checkpoint pyraminx.ckpt':
        [("run", "puzzlesearch perm god pyraminx --checkpoint pyraminx.ckpt --show 0")],
    # docs/perm.md's twsearch file, as the page shows it
    "puzzlesearch perm info discs.tws": [("write", "discs.tws", _DISCS)],
    "puzzlesearch perm solve discs.tws DISCS.1+1 DISCS.3 DISCS.2": [("write", "discs.tws", _DISCS)],
    "puzzlesearch perm convert discs.tws --to toml": [("write", "discs.tws", _DISCS)],
    # docs/perm.md's tutorial files, as the page shows them
    "puzzlesearch perm info demo.toml": [("write", "demo.toml", _DEMO)],
    "puzzlesearch perm god demo.toml": [("write", "demo.toml", _DEMO)],
    "puzzlesearch perm solve demo.toml d c b a": [("write", "demo.toml", _DEMO)],
    "puzzlesearch perm info twisty.toml": [("write", "twisty.toml", _TWISTY)],
    "puzzlesearch perm solve twisty.toml b+1 a c d+1": [("write", "twisty.toml", _TWISTY)],
    "puzzlesearch perm solve twisty.toml a+1 b c d": [("write", "twisty.toml", _TWISTY)],
    "puzzlesearch perm info turns.toml": [("write", "turns.toml", TURNS)],
    "puzzlesearch perm info bad.toml": [("write", "bad.toml", _DEMO.replace('"(c d)"', '"(c e)"'))],
    "puzzlesearch queens count -n 12 --checkpoint q13.ckpt":
        [("run", "puzzlesearch queens count -n 13 --checkpoint q13.ckpt")],
    "puzzlesearch queens count -n 12 --checkpoint notes.txt":
        [("write", "notes.txt", "Things to try next:\n- queens n = 18 on the cluster\n")],
}


# Commands whose output depends on the machine's speed (an anytime search stopped by the
# clock, a timed sample): shown as a real run once, never compared.
TIMED = {
    "puzzlesearch queens estimate -n 20": "times row sets drawn at random",
    "puzzlesearch queens estimate -n 19 --seeds 3": "times row sets drawn at random, for each seed",
    "puzzlesearch queens estimate -n 23 --workers 64":
        "times row sets drawn at random (and builds the 0.5 GiB quarter table of n = 23)",
    "puzzlesearch topswops long -n 16 --seconds 10": "an anytime search stopped by the clock, on 2 threads",
    "puzzlesearch topswops estimate -n 12": "times a sample of the kernel, and `long` for a while",
    "puzzlesearch topswops long -n 10 --seconds 2 --workers 1":
        "an anytime search stopped by the clock; on a cold kernel cache, compiling leaves it less time",
}


def _skip_reason(command: str, block_is_interactive: bool) -> str:
    words = shlex.split(command, comments=True)
    if command in TIMED:
        return "output depends on the machine's speed: " + TIMED[command]
    if block_is_interactive:
        return "an interactive terminal session (progress bar, Ctrl-C): needs a terminal and a keypress"
    if words[:1] == ["dask"]:
        return "starts a Dask scheduler or worker (a cluster)"
    if any(re.match(r"tcp://[A-Z]+:", w) for w in words):
        return "needs a Dask cluster at a placeholder address (tcp://HOST:...)"
    if words[:1] not in (["puzzlesearch"], ["make"]) and "puzzlesearch" not in words:
        return "not a puzzlesearch command"
    return ""


def unwrapped(lines: list[str]) -> list[tuple[int, str]]:
    """The lines of a block, each with its index in the block, with each line that ends in
    a backslash joined to the next one (its indent dropped): a page wraps a long command or
    output line so that it fits its column, as a shell continues a command."""
    out: list[tuple[int, str]] = []
    carry: tuple[int, str] | None = None
    for index, text in enumerate(lines):
        if carry is not None:
            index, text = carry[0], carry[1] + text.lstrip()
        if text.endswith("\\"):
            carry = (index, text[:-1])
        else:
            out.append((index, text))
            carry = None
    if carry is not None:
        out.append(carry)
    return out


def examples(page: Path = README) -> list[Example]:
    """Every `$ ` line of a page's fenced blocks (python blocks excluded)."""
    found = []
    for block in code_blocks(page):
        if block.lang in ("python", "py", "pycon"):
            continue
        numbered = unwrapped(block.text.splitlines())
        lines = [text for _, text in numbered]
        interactive = "^C" in lines
        starts = [i for i, text in enumerate(lines) if text.startswith("$ ")]
        for i, j in zip(starts, [*starts[1:], len(lines)], strict=False):
            shown = lines[i + 1 : j]
            while shown and not shown[-1].strip():
                shown.pop()
            command = lines[i][2:].strip()
            found.append(Example(block.line + 1 + numbered[i][0], command, tuple(shown), block.section,
                                 skip=_skip_reason(command, interactive), slow=SLOW.get(command, ""),
                                 page=block.page))
    return found


def make_recipe(target: str, makefile: Path = REPO / "Makefile") -> list[str]:
    """The recipe lines of a Makefile target, with $(BIN) expanded the way make echoes it."""
    variables, recipe, inside = {}, [], False
    for text in makefile.read_text().splitlines():
        m = re.match(r"^(\w+)\s*[:?]?=\s*(.*)$", text)
        if m and not inside:
            variables[m[1]] = m[2].strip()
        if re.match(rf"^{re.escape(target)}\s*:", text):
            inside = True
            continue
        if inside:
            if not text.startswith("\t"):
                break
            recipe.append(text[1:])
    for _ in range(3):
        recipe = [re.sub(r"\$\((\w+)\)", lambda m: variables.get(m[1], m[0]), r) for r in recipe]
    return recipe


def runnable(example: Example) -> tuple[str, list[str]]:
    """The shell command that stands for the example, and what make would echo first."""
    words = shlex.split(example.command, comments=True)
    if words[:1] == ["make"] and len(words) == 2:
        recipe = make_recipe(words[1])
        # `.venv/bin/puzzlesearch` -> the shim; make echoes the recipe line before running it.
        return re.sub(r"^\S*/puzzlesearch\b", "puzzlesearch", recipe[-1]), recipe[-1:]
    return example.command, []


# ---------------------------------------------------------------------------------------
# Running


@dataclass
class Outcome:
    command: str
    line: int
    status: int | str  # exit status, or "timeout"
    stdout: str
    stderr: str
    created: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    seconds: float = 0.0  # wall time; recorded, never compared
    setup_failed: str = ""
    page: str = "README.md"


def _entry_point(src: Path) -> str:
    pyproject = src.parent / "pyproject.toml"
    try:
        return tomllib.loads(pyproject.read_text())["project"]["scripts"]["puzzlesearch"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "puzzlesearch.cli:main"


class Runner:
    """Runs examples against one source tree, each in its own temporary directory."""

    def __init__(self, src: Path, python: str = sys.executable, timeout: float = 300.0):
        self.src, self.python, self.timeout = Path(src).resolve(), python, timeout
        self.root = Path(tempfile.mkdtemp(prefix="doc-examples-"))
        self.count = 0
        shim = self.root / "bin" / "puzzlesearch"
        shim.parent.mkdir()
        module, attr = _entry_point(self.src).split(":")
        shim.write_text(f"#!{python}\nimport sys\nfrom {module} import {attr}\nsys.exit({attr}())\n")
        shim.chmod(0o755)
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("PUZZLESEARCH_") and k not in ("PYTHONPATH", "PYTHONSTARTUP")}
        env["PATH"] = f"{shim.parent}{os.pathsep}{env.get('PATH', '')}"
        env["PYTHONPATH"] = str(self.src)
        self.env = env

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def paths(self) -> list[tuple[str, str]]:
        """Literal paths that may appear in messages, and what they become when normalised."""
        return [(str(self.root), "<tmp>"), (str(self.src), "<src>")]

    def _shell(self, command: str, cwd: Path, env: dict[str, str]) -> tuple[int | str, str, str]:
        try:
            p = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                               capture_output=True, timeout=self.timeout)
        except subprocess.TimeoutExpired as e:
            return "timeout", _text(e.stdout), _text(e.stderr)
        return p.returncode, _text(p.stdout), _text(p.stderr)

    def run(self, example: Example) -> Outcome:
        self.count += 1
        cwd = self.root / f"ex{self.count:03d}-{Path(example.page).stem}-line{example.line}"
        store = self.root / "stores" / cwd.name
        cwd.mkdir()
        store.mkdir(parents=True)
        env = dict(self.env, PUZZLESEARCH_STORE=str(store / "results.sqlite"))
        command, echoed = runnable(example)
        setup_failed = ""
        for step in SETUP.get(example.command, []):
            if step[0] == "write":
                (cwd / step[1]).write_text(step[2])
            else:
                status, out, err = self._shell(step[1], cwd, env)
                if status != 0:
                    setup_failed = f"{step[1]!r} gave exit {status}: {err.strip()[-300:]}"
        before = _digests(cwd)
        start = time.perf_counter()
        status, out, err = self._shell(command, cwd, env)
        seconds = time.perf_counter() - start
        after = _digests(cwd)
        out = "".join(line + "\n" for line in echoed) + out
        return Outcome(example.command, example.line, status, out, err,
                       created=sorted(set(after) - set(before)),
                       changed=sorted(k for k in before if k in after and before[k] != after[k]),
                       seconds=round(seconds, 3), setup_failed=setup_failed, page=example.page)


def _text(data: bytes | None) -> str:
    return (data or b"").decode(errors="backslashreplace")


def _digests(directory: Path) -> dict[str, str]:
    return {str(p.relative_to(directory)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(directory.rglob("*")) if p.is_file()}


# ---------------------------------------------------------------------------------------
# Comparing


def _normalised(o: dict, paths: list[tuple[str, str]]) -> dict:
    return {"status": o["status"], "stdout": normalise(o["stdout"], paths=paths),
            "stderr": normalise(o["stderr"], paths=paths), "created": o["created"], "changed": o["changed"]}


def differences(old: dict, new: dict, old_paths: list, new_paths: list) -> list[str]:
    """What differs between two outcomes (as dicts), after normalisation; [] if nothing."""
    a, b = _normalised(old, old_paths), _normalised(new, new_paths)
    found = []
    for key in ("status", "created", "changed"):
        if a[key] != b[key]:
            found.append(f"{key}: {a[key]!r} -> {b[key]!r}")
    if "Traceback (most recent call last)" in b["stderr"]:
        found.append("now ends in a traceback: " + b["stderr"].strip().splitlines()[-1])
    for key in ("stdout", "stderr"):
        if a[key] != b[key]:
            found.append(f"{key}:\n" + _diff(a[key], b[key]))
    return found


def _diff(a: str, b: str, names: tuple[str, str] = ("recorded", "now"), most: int = 30) -> str:
    lines = list(difflib.unified_diff(a.splitlines(), b.splitlines(), *names, lineterm="", n=1))
    if len(lines) > most:
        lines = [*lines[:most], f"... ({len(lines) - most} more diff lines)"]
    return "\n".join("    " + line for line in lines)


def shown_matches(example: Example, outcome: Outcome, paths: list[tuple[str, str]] = ()) -> tuple[bool, str]:
    """Does the page's shown output equal what the command printed (stdout and stderr,
    normalised)? A shown line `...` stands for any number of lines. Returns (ok, actual)."""
    out, err = normalise(outcome.stdout, paths=paths), normalise(outcome.stderr, paths=paths)
    candidates = [out + err] if not (out and err) else [out + err, err + out]
    shown = [normalise(line) for line in example.shown]
    for actual in candidates:
        if _wildcard_match(shown, actual.splitlines()):
            return True, actual
    return False, candidates[0]


def _wildcard_match(pattern: list[str], lines: list[str]) -> bool:
    if not pattern:
        return not lines
    if pattern[0] == "...":
        return any(_wildcard_match(pattern[1:], lines[i:]) for i in range(len(lines) + 1))
    return bool(lines) and lines[0] == pattern[0] and _wildcard_match(pattern[1:], lines[1:])


# ---------------------------------------------------------------------------------------
# Command line


def _select(all_examples: list[Example], only: str | None, include_slow: bool) -> tuple[list, list]:
    run, skipped = [], []
    for e in all_examples:
        if only and only not in e.command:
            continue
        reason = e.skip or ("" if include_slow else e.slow)
        (skipped if reason else run).append((e, reason))
    return [e for e, _ in run], skipped


def _progress(quiet: bool) -> Callable[[str], None]:
    return (lambda s: None) if quiet else (lambda s: print(s, file=sys.stderr, flush=True))


def _git_commit(src: Path) -> str:
    try:
        return subprocess.run(["git", "-C", str(src), "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--record", metavar="FILE", help="run the pages' examples and save what they print")
    mode.add_argument("--compare", metavar="FILE", help="run the examples of a record and diff (exit 1)")
    mode.add_argument("--list", action="store_true", help="list the examples and the skipped ones")
    ap.add_argument("--check-pages", action="store_true",
                    help="also compare each output with the one its page shows (exit 1 on a drift)")
    ap.add_argument("--src", type=Path, default=REPO / "src", help="source tree to run (PYTHONPATH)")
    ap.add_argument("--python", default=sys.executable, help="interpreter (default: this one)")
    ap.add_argument("--page", dest="pages", type=Path, action="append", metavar="FILE.md",
                    help="only this page (repeatable; default: README.md and docs/*.md)")
    ap.add_argument("--only", metavar="TEXT", help="only commands containing TEXT")
    ap.add_argument("--include-slow", action="store_true", help="also run the SLOW commands (over ~30 s)")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per command")
    ap.add_argument("-q", "--quiet", action="store_true", help="no line per command on stderr")
    args = ap.parse_args(argv)
    say = _progress(args.quiet)
    chosen = args.pages or pages()
    for page in chosen:
        if not page.is_file():
            ap.error(f"--page {page}: no such file")

    page_examples = [e for page in chosen for e in examples(page)]
    if args.list:
        for e in page_examples:
            reason = e.skip or e.slow
            tag = "skip" if e.skip else "slow" if e.slow else "run " if e.command in NOT_IN_TEST else "test"
            print(f"{tag}  {e.where:<24} {e.command}" + (f"\n      ({reason})" if reason else ""))
        return 0

    record = None
    if args.compare:
        record = json.loads(Path(args.compare).read_text())
        by_command = {e.command: e for e in page_examples}
        # Run the record's commands (the pages may have changed since); keep page lines when known.
        todo = [by_command.get(o["command"]) or Example(o["line"], o["command"], (), "", page=o.get("page"))
                for o in record["examples"]]
        todo = [e for e in todo if not args.only or args.only in e.command]
        skipped = [(Example(s["line"], s["command"], (), "", page=s.get("page", "?")), s["reason"])
                   for s in record["skipped"]]
        new = [e for e in page_examples if not e.skip and e.command not in
               {o["command"] for o in record["examples"]} | {s["command"] for s in record["skipped"]}]
    else:
        todo, skipped = _select(page_examples, args.only, args.include_slow)
        new = []

    outcomes: list[Outcome] = []
    with Runner(args.src, args.python, args.timeout) as runner:
        for e in todo + new:
            o = runner.run(e)
            say(f"{o.seconds:7.2f} s  exit {o.status}  {e.where}  {e.command}")
            outcomes.append(o)
        paths = runner.paths

    failed = False
    if args.record:
        data = {
            "format": FORMAT,
            "pages": {page_name(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in chosen},
            "src": str(args.src.resolve()),
            "src_commit": _git_commit(args.src),
            "python": sys.version.split()[0],
            "recorded": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "paths": paths,
            "normalise": [{"pattern": p, "replacement": r, "why": w} for p, r, w in NORMALISE],
            "examples": [asdict(o) for o in outcomes],
            "skipped": [{"page": e.page, "line": e.line, "command": e.command, "reason": r}
                        for e, r in skipped],
        }
        Path(args.record).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        say(f"recorded {len(outcomes)} examples ({len(skipped)} skipped) in {args.record}")

    if record is not None:
        old_paths = [tuple(p) for p in record.get("paths", [])]
        by_key = {}
        for o in record["examples"]:
            by_key.setdefault(o["command"], o)
        count = 0
        for o in outcomes:
            where = f"{o.page}:{o.line}"
            if o.command not in by_key:
                print(f"NEW  {where}  {o.command}: not in the record (exit {o.status})")
                continue
            diff = differences(by_key[o.command], asdict(o), old_paths, paths)
            if diff:
                count += 1
                print(f"DIFF {where}  $ {o.command}")
                for d in diff:
                    print("  " + d)
        for e, reason in skipped:
            say(f"skipped: {e.command}  ({reason})")
        print(f"{len(outcomes)} examples run, {count} differ from {args.compare}; {len(skipped)} skipped")
        failed |= count > 0

    if args.check_pages:
        drifts = 0
        by_place = {(e.page, e.line): e for e in page_examples}
        for o in outcomes:
            e = by_place.get((o.page, o.line))
            if e is None:
                continue
            ok, actual = shown_matches(e, o, paths)
            if not ok:
                drifts += 1
                print(f"DRIFT  {e.where}  $ {e.command}  (exit {o.status})")
                print(_diff("\n".join(normalise(s) for s in e.shown), actual, ("page shows", "printed")))
        print(f"{len(outcomes)} examples run, {drifts} show other output than their page")
        failed |= drifts > 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
