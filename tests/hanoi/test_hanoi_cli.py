"""The `puzzlesearch hanoi` commands: output, JSON, exit codes and bad input."""

import pytest

from conftest import assert_bad_input, load_data, run_cli
from puzzlesearch.hanoi import rules


def replay_json(out):
    pegs = out["pegs"]
    start = rules.parse_position(out["from"], pegs)
    return rules.format_position(rules.replay(start, [tuple(m) for m in out["sequence"]], pegs))


def test_solve_prints_the_moves_and_the_count():
    r = run_cli("hanoi", "solve", "-n", "3")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0] == "disc 1: A -> C"
    assert lines[3] == "disc 3: A -> C"
    assert lines[-1] == "7 moves" and len(lines) == 8


@pytest.mark.parametrize("n,pegs", [(0, 3), (5, 3), (6, 4), (7, 5)])
def test_solve_json_replays_to_the_last_peg(n, pegs):
    r = run_cli("hanoi", "solve", "-n", n, "--pegs", pegs, "--json")
    assert r.code == 0, r.err
    out = r.json()
    assert (out["n"], out["pegs"], out["from"]) == (n, pegs, "A" * n)
    assert out["moves"] == len(out["sequence"]) == int(run_cli("hanoi", "count", "-n", n, "--pegs", pegs).out)
    assert replay_json(out) == out["to"] == rules.peg_letter(pegs - 1) * n


def test_count_prints_the_number_only():
    values = load_data("hanoi")["hanoi_four_peg_moves"]["values"]
    assert run_cli("hanoi", "count", "-n", 20, "--pegs", 4).out == f"{values[20]}\n"
    assert run_cli("hanoi", "count", "-n", 64).out == f"{2**64 - 1}\n"
    r = run_cli("hanoi", "count", "-n", 30, "--pegs", 4, "--json")
    longer = load_data("hanoi")["hanoi_four_peg_moves_to_79"]["values"]  # OEIS A007664, n = 0..79
    assert longer[30] == 1025
    assert r.json() == {"n": 30, "pegs": 4, "moves": longer[30]}
    for n in (21, 45, 79):
        assert run_cli("hanoi", "count", "-n", n, "--pegs", 4).out == f"{longer[n]}\n"


def test_count_all_prints_a_table():
    values = load_data("hanoi")["hanoi_four_peg_moves"]["values"]
    r = run_cli("hanoi", "count", "-n", 20, "--pegs", 4, "--all")
    assert r.out.splitlines() == [f"{n} {v}" for n, v in enumerate(values)]
    r = run_cli("hanoi", "count", "-n", 10000, "--pegs", 4, "--all", "--json")
    assert len(r.json()["table"]) == 10001 and r.json()["table"][:21] == values


def test_count_of_a_huge_tower_prints_every_digit():
    r = run_cli("hanoi", "count", "-n", 50000)
    assert r.code == 0 and int(r.out) == 2**50000 - 1


def test_distance_and_solve_between_positions():
    r = run_cli("hanoi", "distance", "--from", "ABB", "--to", "BAA")
    assert r.out == "5\n"
    r = run_cli("hanoi", "distance", "--from", "acb", "--to", "CCC", "--json")
    expected = {"n": 3, "pegs": 3, "from": "ACB", "to": "CCC", "moves": 7, "method": "largest-disc rule"}
    assert r.json() == expected
    r = run_cli("hanoi", "solve", "--from", "ABB", "--to", "BAA", "--json")
    assert r.json()["moves"] == 5 and replay_json(r.json()) == "BAA"
    r = run_cli("hanoi", "solve", "--from", "ABDDCA", "--pegs", 4, "--json")
    assert r.json()["to"] == "DDDDDD" and replay_json(r.json()) == "DDDDDD"
    r = run_cli("hanoi", "distance", "--from", "ABDDCA", "--to", "DDDDDD", "--pegs", 4)
    printed = run_cli("hanoi", "solve", "--from", "ABDDCA", "--pegs", 4).out.splitlines()
    assert r.out == f"{len(printed) - 1}\n" and printed[-1] == f"{len(printed) - 1} moves"


def test_position_after_m_moves():
    assert run_cli("hanoi", "position", "-n", 3, "-m", 4).out == "CBB\n"  # disc 3 moved; 2 and 1 on B
    r = run_cli("hanoi", "position", "-n", 64, "-m", 2**63, "--json")
    assert r.json() == {"n": 64, "pegs": 3, "move": 2**63, "position": "C" + "B" * 63}
    assert run_cli("hanoi", "position", "-n", 4, "-m", 9, "--pegs", 4).out == "DDDD\n"


def test_verify_reports_bfs_next_to_frame_stewart():
    r = run_cli("hanoi", "verify", "-n", 6, "--pegs", 4)
    assert r.code == 0, r.err
    assert "BFS 17 moves, Frame-Stewart 17: agree" in r.out
    r = run_cli("hanoi", "verify", "-n", 4, "--pegs", 4, "--diameter", "--json")
    out = r.json()
    assert out["agree"] and out["diameter"] >= out["eccentricity"] >= out["bfs_moves"] == 9


def test_show_draws_the_pegs_after_every_move():
    r = run_cli("hanoi", "solve", "-n", 2, "--show")
    frames = r.out.strip().split("\n\n")
    assert len(frames) == 4 and r.out.endswith("3 moves\n")
    assert frames[0].splitlines() == ["start", "  |     |     |", " [=]    |     |", "[===]   |     |",
                                      "--A-- --B-- --C--"]
    assert frames[3].splitlines()[0] == "move 3: disc 1: B -> C"
    assert frames[3].splitlines()[2:4] == ["  |     |    [=]", "  |     |   [===]"]
    # not a terminal: --animate prints the same frames
    assert run_cli("hanoi", "solve", "-n", 2, "--animate", "--delay", 0).out == r.out


def test_long_sequences_need_force():
    assert_bad_input(run_cli("hanoi", "solve", "-n", 21))
    assert "--force" in run_cli("hanoi", "solve", "-n", 21).err
    assert_bad_input(run_cli("hanoi", "solve", "--from", "A" * 25, "--to", "C" * 25))
    r = run_cli("hanoi", "solve", "-n", 20)
    assert r.code == 0 and r.out.endswith(f"{2**20 - 1} moves\n")


@pytest.mark.parametrize(
    "args",
    [
        ("solve", "-n", 3, "--pegs", 2),
        ("solve", "-n", -1),
        ("solve",),
        ("solve", "-n", 3, "--json", "--show"),
        ("solve", "-n", 3, "--delay", -1, "--animate"),
        ("solve", "--from", "ABD"),
        ("solve", "--from", "AB", "--to", "ABC"),
        ("solve", "--from", "AB", "-n", 3),
        ("solve", "-n", "three"),
        ("count", "-n", -2),
        ("count", "-n", 5, "--pegs", 27),
        ("count", "-n", 100001),
        ("count", "-n", 10001, "--all"),
        ("count",),
        ("distance", "--from", "AB?", "--to", "AAA"),
        ("distance", "--from", "ABC", "--to", "AA"),
        ("distance", "--from", "ABC"),
        ("distance", "--from", "A" * 13, "--to", "B" * 13, "--pegs", 4),
        ("position", "-n", 3, "-m", 8),
        ("position", "-n", 3, "-m", -1),
        ("position", "-n", -3, "-m", 0),
        ("verify", "-n", 21, "--pegs", 4),
        ("verify", "-n", 13, "--pegs", 4, "--diameter"),
        ("verify", "-n", 4, "--pegs", 2),
        ("verify", "-n", 10, "--pegs", 4, "--diameter"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args):
    assert_bad_input(run_cli("hanoi", *args))
