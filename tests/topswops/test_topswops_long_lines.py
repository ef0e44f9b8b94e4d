"""`topswops long` never loses a deck it found: with --json each deck is a JSON line as it
is found and the last line an object of the whole run, also after Ctrl-C; in text the
`best:` line ends the output, also after Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

from conftest import run_cli
from puzzlesearch.topswops import rules

CLOSING = {"n", "seed", "steps", "deck", "seconds", "interrupted", "improvements"}
DECK = {"steps", "deck", "seconds", "method"}


def _lines(out: str) -> tuple[list[dict], dict]:
    """The deck lines and the closing object of a --json run's output."""
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows, out
    *decks, closing = rows
    assert set(closing) == CLOSING
    assert all(set(d) == DECK and rules.steps(d["deck"]) == d["steps"] for d in decks)
    assert closing["improvements"] == decks  # every deck printed is in the closing object
    if decks:
        assert (closing["steps"], closing["deck"]) == (decks[-1]["steps"], decks[-1]["deck"])
    return decks, closing


def test_json_lines_each_deck_then_the_run():
    r = run_cli("topswops", "long", "-n", "11", "--seconds", "0.5", "--workers", "1", "--json")
    assert (r.code, r.err) == (0, "")
    decks, closing = _lines(r.out)
    assert closing["interrupted"] is False and closing["n"] == 11 and len(decks) >= 2
    assert [d["steps"] for d in decks] == sorted({d["steps"] for d in decks})  # each longer


def _interrupted(*args: str) -> tuple[int, str, str]:
    """`topswops long -n 40 ARGS`, sent Ctrl-C once it has printed a deck (in its own
    process group, as a terminal sends it)."""
    argv = [sys.executable, "-m", "puzzlesearch", "topswops", "long", "-n", "40", "--seconds", "60", *args]
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        first = p.stdout.readline()  # printed and flushed while the search runs
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
    return p.returncode, first + out, err


def test_ctrl_c_with_json_keeps_every_deck_and_closes_the_run():
    code, out, err = _interrupted("--json")
    assert code == 130, err
    assert err.strip().splitlines() == ["puzzlesearch: interrupted"]
    decks, closing = _lines(out)
    assert decks and closing["interrupted"] is True and closing["n"] == 40
    assert 0 < closing["seconds"] < 60


def test_ctrl_c_in_text_prints_the_best_line():
    code, out, err = _interrupted()
    assert code == 130, err
    assert err.strip().splitlines() == ["puzzlesearch: interrupted"]
    lines = out.splitlines()
    rows = [line.split("  ") for line in lines[:-1]]
    best = max(int(r[0].split()[0]) for r in rows)
    assert lines[-1].startswith(f"best: {best} steps in ") and lines[-1].endswith("(n=40, seed 0)")
