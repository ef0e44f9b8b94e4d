"""The gallery: one notebook per puzzle in docs/gallery/, run at every build of the site.

The slow tests run each notebook in a fresh kernel (nbclient, as the site's build runs it)
and read the outputs of its tagged cells (``metadata.tags``): each must show the
published value (tests/data) or one that the plain rules below confirm, and each notebook
must draw at least one picture. The fast tests check that the notebooks are kept without
outputs (the build makes them) and that each is in the site's navigation.
"""

from __future__ import annotations

import ast
import math
import re
from pathlib import Path

import pytest

from conftest import load_data

ROOT = Path(__file__).resolve().parents[1]
GALLERY = ROOT / "docs" / "gallery"
NOTEBOOKS = ("topswops", "shuffle", "queens", "hanoi", "grundy", "perm")
#: the 2x2x2 cube's distance table in the half-turn metric (Jaap Scherphuis's Pocket Cube
#: page), as tests/perm/test_perm_god.py checks it
CUBE2_HTM = (1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644)


def topswops_steps(deck) -> int:
    """Conway's rule, plainly: turn over the top k cards, k the top card, until 1 is on top."""
    deck, steps = list(deck), 0
    while deck[0] != 1:
        k = deck[0]
        deck[:k] = deck[k - 1::-1]
        steps += 1
    return steps


def flips_sort(stack, flips) -> bool:
    """The flips (turn over the top k), in turn, leave the stack sorted, smallest on top."""
    stack = list(stack)
    for k in flips:
        stack[:k] = stack[k - 1::-1]
    return stack == sorted(stack)


def hanoi_solves(n: int, moves) -> bool:
    """(disc, from, to) moves, each a top disc onto a larger one, take n discs from peg 0 to peg 2."""
    pegs = [list(range(n, 0, -1)), [], []]
    for disc, a, b in moves:
        if not pegs[a] or pegs[a][-1] != disc or (pegs[b] and pegs[b][-1] < disc):
            return False
        pegs[b].append(pegs[a].pop())
    return pegs[2] == list(range(n, 0, -1))


def queens_ok(columns) -> bool:
    n = len(columns)
    return (sorted(columns) == list(range(n)) and len({r + c for r, c in enumerate(columns)}) == n
            and len({r - c for r, c in enumerate(columns)}) == n)


def grundy_subtraction(moves, count: int) -> list[int]:
    g = []
    for n in range(count):
        options = {g[n - m] for m in moves if m <= n}
        g.append(min(set(range(len(options) + 1)) - options))
    return g


def checks() -> dict[str, dict[str, object]]:
    """Per notebook, per tag: a function of the cell's value (its text/plain output, read as
    a Python literal where it is one) that asserts what it must show."""
    f = {int(k): v for k, v in load_data("topswops")["max_steps"]["values"].items()}
    optimal = {int(k): v for k, v in load_data("topswops")["optimal_deck_count"]["values"].items()}
    shuffle = load_data("shuffle")
    pancakes = shuffle["pancake_numbers"]["values"]
    table = shuffle["pancake_distance_table"]["rows"]
    queens = load_data("queens")
    q = {int(k): v for k, v in queens["all_solutions"]["values"].items()}
    u = {int(k): v for k, v in queens["unique_solutions"]["values"].items()}
    four_pegs = load_data("hanoi")["hanoi_four_peg_moves"]["values"]
    games = load_data("games")
    kayles = games["grundy_kayles_077"]

    def optimal_decks(n):
        def check(value):
            steps, decks = value
            assert steps == f[n] and len(decks) == optimal[n]
            assert all(topswops_steps(d) == f[n] for d in decks)
        return check

    def nim(text):
        value, heaps = re.fullmatch(r"\((\d+), Sum\(([\d, ]+)\)\)", text).groups()
        heaps = [int(h) for h in heaps.split(",")]
        assert int(value) == 3 ^ 4 ^ 5 and heaps[0] ^ heaps[1] ^ heaps[2] == 0
        assert sum(a != b for a, b in zip(heaps, (3, 4, 5), strict=True)) == 1

    return {
        "topswops": {
            "play-trace": lambda v: (v[0] == topswops_steps((3, 1, 4, 2)) == len(v[1]) - 1
                                     and v[1][0] == (3, 1, 4, 2) and v[1][-1][0] == 1),
            "f-1-9": lambda v: v == [f[n] for n in range(1, 10)],
            "optimal-7": optimal_decks(7),
            "f-12": lambda v: v[0] == f[12],
            "f-12-again": optimal_decks(12),
        },
        "shuffle": {
            "block-3": lambda v: v[1] == shuffle["block_shuffle_reversal"]["values"]["3"],
            "pancakes-5": lambda v: len(v) == 4 and flips_sort([3, 1, 2, 5, 4], v),
            "p-1-7": lambda v: v == pancakes[:7],
            "census-7": lambda v: list(v) == table["7"],
            "burnt-1-4": lambda v: v == shuffle["burnt_pancake_numbers"]["values"][:4],
            "p-8": lambda v: v == (pancakes[7], math.factorial(8)),
            "p-8-again": lambda v: list(v) == table["8"],
        },
        "queens": {
            "count-8": lambda v: v == (q[8], u[8]),
            "q-1-11": lambda v: v == [q[n] for n in range(1, 12)],
            "solve-12": lambda v: queens_ok(v[0]) and len(v[0]) == 12 and v[1] == "",
            "count-14": lambda v: v[:2] == (q[14], u[14]),
            "count-14-again": lambda v: v == q[14],
        },
        "hanoi": {
            "three-pegs": lambda v: v == [2**n - 1 for n in range(11)],
            "four-pegs": lambda v: v == four_pegs[:11],
            "solve-3": lambda v: v[0] == 7 == len(v[1]) and hanoi_solves(3, v[1]),
            "verify-9": lambda v: v == (4**9, four_pegs[9], four_pegs[9], True),
        },
        "grundy": {
            "nim": nim,
            "kayles-python": lambda v: v == kayles["first"][:12],
            "grundys-game": lambda v: v == games["grundys_game"]["first"],
            "subtraction": lambda v: v == (grundy_subtraction((1, 3, 4), 9), 7, 0),
            "kayles-period": lambda v: v == (kayles["period"], kayles["preperiod"]),
            "kayles-again": lambda v: v == kayles["first"][:12],
        },
        "perm": {
            # six positions, two cards of each of three colours: 6! / (2! 2! 2!) arrangements
            "cards": lambda v: v[0] == math.factorial(6) // 8 and set(v[1]) <= {"S", "R", "R2", "R'"},
            "cube-states": lambda v: v == 3_674_160,
            "cube-god": lambda v: v == (len(CUBE2_HTM) - 1, CUBE2_HTM),
            # a 4-move scramble, solved in 4 from the census the checkpoint holds
            "cube-solve": lambda v: v[0] == 4 == len(v[1]) and v[2] == "table",
        },
    }


def read(name: str):
    import nbformat

    return nbformat.read(GALLERY / f"{name}.ipynb", as_version=4)


def tags(nb) -> list[str]:
    return [t for c in nb.cells for t in c.metadata.get("tags", [])]


def test_every_notebook_of_the_gallery_is_checked_and_kept_without_outputs():
    assert sorted(p.stem for p in GALLERY.glob("*.ipynb")) == sorted(NOTEBOOKS)
    expected = checks()
    for name in NOTEBOOKS:
        nb = read(name)
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert all(not c.outputs and c.execution_count is None for c in code), (
            f"docs/gallery/{name}.ipynb: saved with outputs (the site's build makes them)")
        assert sorted(tags(nb)) == sorted(expected[name]), f"docs/gallery/{name}.ipynb: tags {tags(nb)}"


def test_the_gallery_is_in_the_navigation():
    text = (ROOT / "mkdocs.yml").read_text()
    nav = text[text.index("\nnav:"):text.index("\nplugins:")]
    assert "- Gallery:" in nav
    for name in NOTEBOOKS:
        assert f"gallery/{name}.ipynb" in nav, f"mkdocs.yml: no gallery/{name}.ipynb in the navigation"


def _value(text: str):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


@pytest.mark.slow
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_notebook_runs_and_shows_the_published_values(name, tmp_path):
    from nbclient import NotebookClient

    nb = read(name)
    NotebookClient(nb, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error" or o.get("name") == "stderr"], (
        f"{name}.ipynb: {[o for o in outputs if o.output_type == 'error' or o.get('name') == 'stderr']}")
    assert any("image/svg+xml" in o.get("data", {}) for o in outputs), f"{name}.ipynb: draws no picture"
    for tag, check in checks()[name].items():
        cell = next(c for c in nb.cells if tag in c.metadata.get("tags", []))
        shown = [o["data"]["text/plain"] for o in cell.outputs if "text/plain" in o.get("data", {})]
        assert len(shown) == 1, f"{name}.ipynb [{tag}]: no value shown"
        value = _value(shown[0])
        assert check(value) in (None, True), f"{name}.ipynb [{tag}]: {shown[0]}"


def test_the_checks_refuse_wrong_answers():
    """The checks are real: a value off by one fails them."""
    c = checks()
    f = {int(k): v for k, v in load_data("topswops")["max_steps"]["values"].items()}
    assert c["topswops"]["f-1-9"]([f[n] + (n == 9) for n in range(1, 10)]) is False
    assert c["hanoi"]["verify-9"]((4**9, 41, 42, True)) is False
    assert c["shuffle"]["pancakes-5"]((4, 5, 4, 3)) is False
    with pytest.raises(AssertionError):
        c["topswops"]["optimal-7"]((16, [(3, 1, 4, 6, 7, 2, 5)]))
    with pytest.raises(AssertionError):
        c["grundy"]["nim"]("(2, Sum(1, 4, 4))")
