"""Counts in the output agree with their nouns: "1 move", "2 moves", and a list of names in
words ("f(16) and f(17)"), not a range written as code."""

from __future__ import annotations

import pytest

from conftest import run_cli
from puzzlesearch.engine.params import listed, plural


def test_plural_and_listed():
    assert [f"{n} {plural(n, 'step')}" for n in (0, 1, 2)] == ["0 steps", "1 step", "2 steps"]
    assert plural(1, "stack", "stacks") == "stack" and plural(3, "index", "indices") == "indices"
    assert (
        listed(["a"]) == "a" and listed(["a", "b"]) == "a and b" and listed(["a", "b", "c"]) == "a, b and c"
    )


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("hanoi", "solve", "-n", "1"), "1 move"),
        (
            ("hanoi", "verify", "-n", "1", "--pegs", "3"),
            "3 pegs, 1 disc: 3 positions, all reached from the tower on A",
        ),
        (("hanoi", "verify", "-n", "1", "--pegs", "3"), "tower A -> C: BFS 1 move, Frame-Stewart 1: agree"),
        (("hanoi", "verify", "-n", "1", "--pegs", "3"), "farthest from the tower: 1 move (2 positions)"),
        (("pancake", "god", "-n", "1"), "pancakes n=1: 1 stack reachable (all 1!), diameter 0"),
    ],
)
def test_a_count_of_one_is_singular(args, line, tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLESEARCH_STORE", str(tmp_path / "store.sqlite"))
    r = run_cli(*args)
    assert r.code == 0, r.err
    assert line in r.out.splitlines()


def test_missing_bounds_are_named_in_words(tmp_path):
    r = run_cli("topswops", "solve", "-n", "18", "--mode", "forward", "--store", str(tmp_path / "s.sqlite"))
    assert r.code == 2
    assert "needs f(16) and f(17) in the results store" in r.err and ".." not in r.err
    r = run_cli("topswops", "solve", "-n", "20", "--mode", "forward", "--store", str(tmp_path / "s.sqlite"))
    assert "needs f(16) to f(19) in the results store" in r.err


def test_long_numbers_are_shortened_in_lines():
    import math

    from puzzlesearch.engine.params import number_text, short_numbers

    assert number_text(519024039293878272000) == "519,024,039,293,878,272,000"  # 21 digits: kept whole
    big = math.factorial(512)
    assert number_text(big) == f"{str(big)[:8]}...{str(big)[-4:]} (1167 digits)"
    text = f"indexes {big:,} states, beyond 1,099,511,627,776; moves 1,2,3; typed {big}"
    short = number_text(big)
    assert short_numbers(text) == (f"indexes {short} states, beyond 1,099,511,627,776; moves 1,2,3; "
                                   f"typed {big}")


def test_perm_info_says_one_of_the_group_in_the_singular(tmp_path):
    # three positions, two pieces alike: the 3-cycle's group has 3 elements, and only the
    # identity exchanges identical pieces (none)
    path = tmp_path / "alike.toml"
    path.write_text('[pieces.p]\npositions = ["a", "b", "c", "d"]\nsolved = ["x", "x", "y", "y"]\n'
                    '[moves]\nX = "(a b c)"\n')
    r = run_cli("perm", "info", str(path))
    assert r.code == 0, r.err
    counted = next(line for line in r.out.splitlines() if line.startswith("counted"))
    assert "over the one of them that only exchanges identical pieces" in counted
    assert "the 1 of them" not in counted


def test_no_plural_is_made_by_hand():
    # a noun's plural goes through plural(), so that "1 move" and "2 moves" are one rule
    import re
    from pathlib import Path

    src = Path(__file__).resolve().parents[1] / "src" / "puzzlesearch"
    by_hand = re.compile(r"""\{\s*['"](?:s|es)['"]\s+if\b|['"]{2}\s+if\s+[^}]*else\s+['"](?:s|es)['"]\s*\}""")
    found = [f"{p.relative_to(src)}:{i}" for p in sorted(src.rglob("*.py"))
             for i, line in enumerate(p.read_text().splitlines(), 1) if by_hand.search(line)]
    assert found == []
