"""`puzzlesearch grundy ...`: judges' samples exactly, tables, JSON, and bad input."""

from __future__ import annotations

import pytest

from conftest import assert_bad_input, load_data, run_cli
from puzzlesearch.games import cutting_table, digits_table

DATA = load_data("games")


def test_cutting_judge_sample_exactly():
    sample = DATA["cutting_game_poj2311_sample"]
    r = run_cli("grundy", "cutting", input=sample["input"])
    assert (r.code, r.out, r.err) == (0, sample["output"], "")


def test_digits_judge_sample_exactly():
    sample = DATA["cow_digit_game_usaco2009_sample"]
    r = run_cli("grundy", "digits", input=sample["input"])
    assert (r.code, r.out, r.err) == (0, sample["output"], "")


def test_cutting_answers_every_line_in_order():
    g = cutting_table(200)
    games = [(200, 200), (2, 7), (7, 2), (13, 200), (199, 3)]
    r = run_cli("grundy", "cutting", input="".join(f"{w} {h}\n" for w, h in games) + "\n")
    assert r.code == 0
    assert r.out.split() == ["WIN" if g[w, h] else "LOSE" for w, h in games]


def test_digits_large_numbers():
    g = digits_table(1_000_000)
    ns = [1_000_000, 999_999, 123_456, 1]
    r = run_cli("grundy", "digits", input=f"{len(ns)}\n" + "\n".join(map(str, ns)))
    assert r.code == 0
    assert r.out.split() == ["YES" if g[n] else "NO" for n in ns]


@pytest.mark.parametrize(
    "text, where",
    [
        ("2 2\n3\n", "line 2"),
        ("2 2\n3 2 1\n", "line 2"),
        ("x 2\n", "line 1"),
        ("2 2\n\n1 5\n", "line 3"),
        ("2 201\n", "line 1"),
        ("2 2.5\n", "line 1"),
    ],
)
def test_cutting_bad_line_names_it(text, where):
    r = run_cli("grundy", "cutting", input=text)
    assert_bad_input(r)
    assert where in r.err


@pytest.mark.parametrize(
    "text, where",
    [
        ("", "line 1"),
        ("x\n9\n", "line 1"),
        ("-1\n", "line 1"),
        ("2\n9\n", "line 3"),
        ("1\n9\n10\n", "line 3"),
        ("2\n9\n0\n", "line 3"),
        ("2\n9\n1000001\n", "line 3"),
        ("2\n9 10\n", "line 2"),
        ("2\n9\n1_000\n", "line 3"),
    ],
)
def test_digits_bad_line_names_it(text, where):
    r = run_cli("grundy", "digits", input=text)
    assert_bad_input(r)
    assert where in r.err


def test_octal_table_and_period():
    r = run_cli("grundy", "octal", "0.77", "--count", "200")
    assert r.code == 0
    lines = r.out.splitlines()
    assert lines[0] == "octal game 0.77: G(n) for n = 0..199"
    assert lines[1].split(":")[1].split() == [str(v) for v in DATA["grundy_kayles_077"]["first"][:10]]
    assert lines[-1].startswith("period 12 from heap 71 ")


def test_octal_json():
    r = run_cli("grundy", "octal", ".07", "--count", "400", "--json")
    assert r.code == 0
    obj = r.json()
    # OEIS A002187: Dawson's Chess (0.137) has period 34 with its last exception at n = 51, and
    # Dawson's Kayles (0.07) has its values shifted by one: last exception 52, periodic from 53
    last = DATA["grundy_dawsons_chess_0137"]["exceptions"][-1]
    assert obj["period"] == 34 and len(obj["values"]) == 400 and obj["preperiod"] == last + 2 == 53


def test_octal_says_when_no_period_is_proven():
    r = run_cli("grundy", "octal", "0.77", "--count", "100", "--summary")
    assert r.code == 0
    assert r.out.splitlines()[-1].startswith("no period proven from 100 values")
    assert run_cli("grundy", "octal", "0.77", "-n", "100", "--json").json()["period"] is None


@pytest.mark.parametrize("code", ["0.78", "1.07", "abc", "."])
def test_octal_invalid_code(code):
    r = run_cli("grundy", "octal", code)
    assert_bad_input(r)
    assert "octal code" in r.err


@pytest.mark.parametrize("count", ["0", "-5", "ten"])
def test_octal_and_grundys_bad_count(count):
    assert_bad_input(run_cli("grundy", "octal", "0.77", "--count", count))
    assert_bad_input(run_cli("grundy", "grundys", "--count", count))


def test_grundys_table_and_json():
    r = run_cli("grundy", "grundys", "--count", "21")
    assert r.code == 0
    values = [int(v) for line in r.out.splitlines()[1:-1] for v in line.split(":")[1].split()]
    assert values == DATA["grundys_game"]["first"]
    obj = run_cli("grundy", "grundys", "--count", "21", "--json").json()
    assert obj["values"] == DATA["grundys_game"]["first"] and "period" not in obj


def test_popcount_table_and_json():
    r = run_cli("grundy", "popcount", "--max-k", "10")
    assert r.code == 0
    lines = r.out.splitlines()
    assert [line.split() for line in lines[1:4]] == [["0", "0"], ["1", "1"], ["2", "2"]]
    assert len(lines) == 12
    obj = run_cli("grundy", "popcount", "--json").json()
    assert obj["parts"] == 7 and len(obj["values"]) == 65 and obj["values"][64] > 1 << 20
    assert run_cli("grundy", "popcount", "--parts", "1", "--json").json()["values"] == list(range(65))


@pytest.mark.parametrize("args", [["--parts", "0"], ["--max-k", "65"], ["--max-k", "-1"], ["--parts", "x"]])
def test_popcount_bad_options(args):
    assert_bad_input(run_cli("grundy", "popcount", *args))


def test_popcount_too_large_for_memory_is_one_clear_line(monkeypatch):
    monkeypatch.setattr("puzzlesearch.games.limits.POPCOUNT_MEMORY", 1 << 20)
    r = run_cli("grundy", "popcount", "--parts", "40")
    assert_bad_input(r)
    assert "MiB limit" in r.err
