"""`grundy move GAME --heaps ...`: value, outcome and winning moves of a sum of heaps,
replayed by brute force with the plain rules through the general engine."""

from __future__ import annotations

from itertools import combinations_with_replacement

import pytest

from conftest import assert_bad_input, load_data, run_cli
from puzzlesearch.games import ImpartialGame, Sum, parse_hex, parse_octal, parse_subtraction, position_moves
from puzzlesearch.games.rules import grundys_options, is_octal_move, octal_options, subtraction_options

KAYLES, DAWSON, SPLIT = parse_octal("0.77"), parse_octal("0.07"), parse_octal("4.07")
HEX_F, HEX_8 = parse_hex("0.F"), parse_hex("0.48")
SUB = parse_subtraction("1,3,4")


def parts(option) -> tuple[int, ...]:
    """An option of one heap as the non-empty heaps it leaves, smaller first."""
    heaps = tuple(option) if isinstance(option, Sum) else (option,)
    return tuple(sorted(h for h in heaps if h))


GAMES = {
    "0.77": lambda n: octal_options(KAYLES, n),
    "0.07": lambda n: octal_options(DAWSON, n),
    "4.07": lambda n: octal_options(SPLIT, n),
    "grundys": grundys_options,
    "hex:0.F": lambda n: octal_options(HEX_F, n),
    "hex:0.48": lambda n: octal_options(HEX_8, n),
    "sub:1,3,4": lambda n: subtraction_options(SUB, n),
}


def brute_winning_moves(options, engine, heaps) -> set[tuple[int, int, tuple[int, ...]]]:
    """Every (heap number, tokens taken, heaps left) whose resulting position the plain
    engine (of the game `options` gives the moves of) values 0."""
    out = set()
    for i, h in enumerate(heaps):
        for option in options(h):
            left = parts(option)
            rest = heaps[:i] + heaps[i + 1:]
            if engine.grundy(Sum(*rest, *left)) == 0:
                out.add((i + 1, h - sum(left), left))
    return out


def positions():
    for k in (1, 2, 3):
        yield from combinations_with_replacement(range(13), k)


#: the games whose every small position is checked in the full lane only (one of each kind stays fast)
SLOW_GAMES = ("0.07", "4.07", "hex:0.48")


@pytest.mark.parametrize("game", [pytest.param(g, marks=pytest.mark.slow if g in SLOW_GAMES else ())
                                  for g in GAMES])
def test_every_position_of_up_to_three_heaps_to_12(game):
    options = GAMES[game]
    engine = ImpartialGame(options)
    for heaps in positions():
        heaps = heaps[::-1] if sum(heaps) % 2 else heaps  # some positions not in ascending order
        r = position_moves(game, heaps, all_moves=True)
        value = engine.grundy(Sum(*heaps))
        assert (r.value, r.outcome) == (value, "N" if value else "P"), heaps
        assert r.heap_values == tuple(engine.grundy(h) for h in heaps)
        found = {(m.heap, m.take, tuple(sorted(m.leaves))) for m in r.moves}
        assert found == brute_winning_moves(options, engine, heaps), heaps
        assert len(found) == len(r.moves)
        for m in r.moves:
            assert m.position == heaps[:m.heap - 1] + m.leaves + heaps[m.heap:]
            assert engine.grundy(Sum(*m.position)) == 0
        one = position_moves(game, heaps)
        assert len(one.moves) == (1 if value else 0) and set(one.moves) <= set(r.moves)


def test_kayles_example_and_no_move_in_a_p_position():
    r = run_cli("grundy", "move", "0.77", "--heaps", "5,9,12")
    assert (r.code, r.err) == (0, "")
    assert r.out == (
        "octal game 0.77, heaps 5,9,12: values 4 ^ 4 ^ 4 = 4\n"
        "N: the next player wins; a winning move:\n"
        "  heap 1 (5): take 1, leaving 2 + 2 -> 2,2,9,12 (value 0)\n"
    )
    r = run_cli("grundy", "move", "sub:1,3,4", "--heaps", "5,9,12")
    assert r.code == 0
    assert r.out.splitlines() == ["subtraction game {1,3,4}, heaps 5,9,12: values 3 ^ 0 ^ 3 = 0",
                                  "P: the previous player wins; no winning move exists"]
    obj = run_cli("grundy", "move", "sub:1,3,4", "--heaps", "5,9,12", "--json").json()
    assert (obj["outcome"], obj["value"], obj["moves"]) == ("P", 0, [])


def test_all_moves_and_json():
    r = run_cli("grundy", "move", "4.07", "--heaps", "5,9,12", "--all")
    assert r.code == 0
    assert r.out.splitlines()[1] == "N: the next player wins; 12 winning moves:"
    obj = run_cli("grundy", "move", "grundys", "--heaps", "5,9,12", "--json").json()
    assert obj["outcome"] == "N" and obj["heap_values"] == [2, 1, 1]
    assert obj["moves"] == [{"heap": 1, "size": 5, "take": 0, "leaves": [1, 4], "position": [1, 4, 9, 12]}]


KAYLES_ENGINE = ImpartialGame(lambda n: octal_options(KAYLES, n))
KAYLES_PERIOD = load_data("games")["grundy_kayles_077"]


def kayles_value(heap: int) -> int:
    """G(heap) of Kayles by the plain rules through the engine, past heap 82 through its
    published period (12 from heap 71)."""
    p, e = KAYLES_PERIOD["period"], KAYLES_PERIOD["preperiod"]
    return KAYLES_ENGINE.grundy(heap if heap < e + p else e + (heap - e) % p)


@pytest.mark.parametrize("heaps", [(100_000, 77_777, 12_345), (99_999, 12_346), (100_000, 100_000),
                                   (77_777, 60_001, 5), (3, 99_998, 99_999)],
                         ids=lambda h: ",".join(map(str, h)))
def test_large_heaps_have_a_winning_move_iff_their_value_is_not_0(heaps):
    """Heaps far beyond the brute force: the heaps' values are Kayles' by the plain rules and the
    published period, the position's value is not 0 exactly when winning moves are listed, and
    each of them is a move of the plain rules to a position of value 0."""
    for all_moves in (False, True):
        r = position_moves("0.77", heaps, all_moves=all_moves)
        assert r.heap_values == tuple(kayles_value(h) for h in heaps)
        value = 0
        for v in r.heap_values:
            value ^= v
        assert (r.value, r.outcome) == (value, "N" if value else "P")
        assert bool(r.moves) == (value != 0)
        assert all_moves or len(r.moves) <= 1
        for m in r.moves:
            assert m.size == heaps[m.heap - 1] and m.take == m.size - sum(m.leaves)
            assert is_octal_move(KAYLES, m.size, m.leaves), m
            assert m.position == heaps[:m.heap - 1] + m.leaves + heaps[m.heap:]
            left = 0
            for h in m.position:
                left ^= kayles_value(h)
            assert left == 0, m


@pytest.mark.parametrize("args, word", [
    (("0.77", "--heaps", ""), "empty"),
    (("0.77", "--heaps", "x"), "'x'"),
    (("0.77", "--heaps", "-1"), "'-1'"),
    (("0.77", "--heaps", "3,,4"), "empty heap size"),
    (("0.77", "--heaps", "1.5"), "'1.5'"),
    (("0.77", "--heaps", "1000000000"), "beyond"),
    (("0.77", "--heaps", "99999999999999999999"), "beyond"),
    (("0.77", "--heaps", ",".join(["1"] * 10_001)), "at most"),
    (("0.8x", "--heaps", "3"), "octal"),
    (("0.78", "--heaps", "3"), "'8'"),
    (("kayles", "--heaps", "3"), "invalid game"),
    (("sub:1,,3", "--heaps", "3"), "empty element"),
    (("sub:0", "--heaps", "3"), "outside"),
    (("hex:0.8x", "--heaps", "3"), "hexadecimal digit"),
    (("hex:0.8", "--heaps", "100000"), "up to 99,999"),
    (("0.77", "--heaps", "99999999", "--memory", "0.1"), "needs"),
])
def test_bad_input_is_one_line_exit_2(args, word):
    r = run_cli("grundy", "move", *args)
    assert_bad_input(r)
    assert word in r.err


def test_module_examples_run():
    import doctest

    from puzzlesearch.games import position

    failures, tried = doctest.testmod(position)
    assert (failures, tried > 0) == (0, True)
