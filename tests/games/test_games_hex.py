"""`grundy hex CODE`: hexadecimal take-and-break games (bit 8: leave three heaps), the
kernel against the plain rules, the period against a long brute force, and bad input."""

from __future__ import annotations

import random

import pytest

from conftest import assert_bad_input, run_cli
from puzzlesearch.games import ImpartialGame, hex_values, octal_values, parse_hex
from puzzlesearch.games.rules import octal_options


def plain_values(code: str, count: int) -> list[int]:
    game = parse_hex(code)
    engine = ImpartialGame(lambda n: octal_options(game, n))
    return [engine.grundy(n) for n in range(count)]


def random_codes(count: int, seed: int = 8) -> list[str]:
    rng = random.Random(seed)
    codes = set()
    while len(codes) < count:
        tail = [rng.randrange(16) for _ in range(rng.randint(1, 3))]
        tail[rng.randrange(len(tail))] |= 8  # at least one digit leaves three heaps
        codes.add(rng.choice("0048c")[0] + "." + "".join(f"{d:x}" for d in tail))
    return sorted(codes)


CODES = ["0.8", "0.F", "4.8", "8.0", "8.", "c.1", "0.9", "0.a", "0.18", "0.f8", "0.48", *random_codes(14)]


@pytest.mark.parametrize("code", CODES)
def test_kernel_matches_plain_rules(code):
    r = hex_values(code, 70)
    assert r.values.tolist() == plain_values(code, 70)


def test_the_plain_rules_leave_three_heaps():
    game = parse_hex("0.8")  # remove one token, leave three non-empty heaps
    assert sorted(tuple(o) for o in octal_options(game, 7)) == [(1, 1, 4), (1, 2, 3), (2, 2, 2)]


@pytest.mark.parametrize("code", ["0.F", "4.8", "0.a", "0.a2", "0.f3", "4.c", "4.e3", "4.f2"])
def test_a_proven_period_holds_far_beyond(code):
    r = hex_values(code, 400)
    assert r.period is not None, code
    p, e = r.period, r.preperiod
    long = hex_values(code, 6000).values.tolist()
    assert all(long[n] == long[n + p] for n in range(e, 6000 - p))
    assert e == 0 or long[e - 1] != long[e - 1 + p]
    assert long[:400] == r.values.tolist()
    assert long[:120] == plain_values(code, 120)


def test_codes_without_bit_8_are_octal_games():
    for code in ("0.77", "4.07", "0.137"):
        assert hex_values(code, 3000).values.tolist() == octal_values(code, 3000).values.tolist()
        assert hex_values(code, 3000).period == octal_values(code, 3000).period


def test_cli_output():
    r = run_cli("grundy", "hex", "0.F", "-n", "12")
    assert (r.code, r.err) == (0, "")
    assert r.out == (
        "hexadecimal game 0.F: G(n) for n = 0..11\n"
        " 0: 0 1 0 1 0 1 0 1 0 1\n"
        "10: 0 1\n"
        "largest value 1; plain mex over every move\n"
        "period 2 from heap 0 (proven by the periodicity theorem from 12 values)\n"
    )
    obj = run_cli("grundy", "hex", "0.48", "-n", "50", "--json").json()
    assert obj["values"] == plain_values("0.48", 50)


@pytest.mark.parametrize("args, word", [
    (("0.8x",), "'x' is not a hexadecimal digit"),
    (("2.1",), "must be 0, 4, 8 or c"),
    (("0.8", "-n", "100001"), "at most 100,000"),
    (("0.8", "-n", "20000"), "reached 1024"),
    (("x",), "invalid hexadecimal code"),
    (("0.F", "-n", "0"), "--count"),
])
def test_bad_input(args, word):
    r = run_cli("grundy", "hex", *args)
    assert_bad_input(r)
    assert word in r.err
