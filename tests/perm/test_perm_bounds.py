"""perm's questions are bounded before the work: files read only when regular and small,
groups counted on a bounded number of points, [rotations] checked as they grow, solve's
search bounded in states, and its test of what it saw costing no look into every layer."""

from __future__ import annotations

import math
import os
import random
import time

import numpy as np
import pytest

from conftest import assert_bad_input, run_cli
from puzzlesearch.engine.params import number_text
from puzzlesearch.perm import Puzzle, api, bidir, puzzlefile, schreier, schreier_kernel


def _cycle_and_swap(n: int) -> str:
    cycle = " ".join(str(i) for i in range(1, n + 1))
    return (f'name = "sym{n}"\nmetric = "inverses"\n[pieces.p]\npositions = {n}\n[moves]\n'
            f'X = "({cycle})"\nY = "(1 2)"\n')


@pytest.fixture
def write(tmp_path):
    def made(name: str, text: str):
        path = tmp_path / name
        path.write_text(text)
        return str(path)
    return made


# --- the puzzle file ----------------------------------------------------------------------------------


@pytest.mark.parametrize("command", [("info",), ("god",), ("solve", "--scramble", "X"),
                                     ("convert", "--to", "tws")])
def test_a_fifo_is_refused_at_once_by_every_command(tmp_path, command):
    fifo = tmp_path / "p.toml"
    os.mkfifo(fifo)  # no writer: an open for reading would wait for ever
    t0 = time.perf_counter()
    r = run_cli("perm", command[0], str(fifo), *command[1:])
    assert_bad_input(r)
    assert "a FIFO (named pipe), not a puzzle file" in r.err
    assert time.perf_counter() - t0 < 5


@pytest.mark.parametrize("device,kind", [("/dev/zero", "a character device"),
                                         ("/dev/null", "a character device")])
def test_a_device_is_refused_without_reading_it(device, kind):
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    r = run_cli("perm", "info", device)
    assert_bad_input(r)
    assert f"{device} is {kind}, not a puzzle file" in r.err


def test_a_folder_and_a_file_too_large_are_refused(tmp_path):
    assert_bad_input(run_cli("perm", "info", str(tmp_path)))
    big = tmp_path / "big.toml"
    with open(big, "wb") as f:
        f.truncate(puzzlefile.MAX_FILE_BYTES + 1)  # sparse: nothing is written
    r = run_cli("perm", "info", str(big))
    assert_bad_input(r)
    assert f"more than a puzzle file's {puzzlefile.MAX_FILE_BYTES:,}" in r.err


def test_a_count_too_large_for_a_float_prints_its_share(write):
    path = write("ovf.toml", '[pieces.p]\npositions = 200\n[moves]\nX = "(1 2)"\n')
    r = run_cli("perm", "info", path)
    assert r.code == 0, r.err
    assert "Traceback" not in r.err
    ratio = math.factorial(200) // 2  # 375 digits: its ends and its length are printed
    assert f"arrangements (1 in {number_text(ratio)}):" in r.out
    assert f"({len(str(ratio))} digits)" in r.out


# --- counting the group -------------------------------------------------------------------------------


def test_the_cycle_and_swap_at_256_positions_is_the_symmetric_group(write):
    info = Puzzle.from_file(write("s.toml", _cycle_and_swap(256))).info()
    assert info.states == info.group_order == math.factorial(256)
    assert info.every_arrangement


@pytest.mark.slow
def test_the_cycle_and_swap_at_512_positions_in_seconds(write):
    path = write("s.toml", _cycle_and_swap(512))
    t0 = time.perf_counter()
    r = run_cli("perm", "info", path, "--json")
    assert r.code == 0, r.err
    assert r.json()["states"] == math.factorial(512)
    assert time.perf_counter() - t0 < 20  # about 2 s on a quiet machine


def test_the_cycle_and_swap_beyond_the_points_counted_is_refused_in_one_line(write):
    path = write("s.toml", _cycle_and_swap(schreier.MAX_POINTS + 1))
    t0 = time.perf_counter()
    r = run_cli("perm", "info", path)
    assert_bad_input(r)
    assert f"a group is counted on at most {schreier.MAX_POINTS} points" in r.err
    assert time.perf_counter() - t0 < 10


def test_info_takes_memory_and_its_cap_refuses_the_count(write):
    r = run_cli("perm", "info", write("s.toml", _cycle_and_swap(300)), "--memory", "0.0001")
    assert_bad_input(r)
    assert "the --memory cap" in r.err


def _sympy_order(gens):
    from sympy.combinatorics import Permutation, PermutationGroup
    return int(PermutationGroup([Permutation(g) for g in gens]).order())


@pytest.mark.parametrize("seed", range(12))
def test_the_random_chain_proves_a_true_order_and_never_a_false_one(seed):
    rng = random.Random(seed)
    n = rng.randint(3, 12)
    gens = []
    for _ in range(rng.randint(1, 3)):
        g = list(range(n))
        for _ in range(rng.randint(1, 3)):
            i, j = rng.sample(range(n), 2)
            if rng.random() < 0.5:
                g[i], g[j] = g[j], g[i]
            else:
                g = g[1:] + g[:1] if rng.random() < 0.5 else g
        gens.append(g)
    true = _sympy_order(gens)
    assert schreier.Chain(gens, seed=seed).grow(true) == true
    assert schreier.Chain(gens, seed=seed).grow(2 * true) is None  # a bound never met


def test_the_compiled_sift_is_the_plain_one():
    n = 9
    chain = schreier.Chain([list(range(1, n)) + [0], [1, 0] + list(range(2, n))])
    assert chain.grow(math.factorial(n)) == math.factorial(n)
    rng = np.random.default_rng(0)
    for _ in range(20):
        g = rng.permutation(n).astype(chain.dtype)
        out = np.empty_like(g)
        stop = schreier_kernel.sift(g, chain.base, chain.levels, chain.where, chain.rows, out)
        plain = list(g)
        level = chain.levels
        for j in range(chain.levels):  # the plain rule: multiply by the inverted transversal row
            r = chain.where[j, plain[chain.base[j]]]
            if r < 0:
                level = j
                break
            plain = [int(chain.rows[r][x]) for x in plain]
        assert (stop, list(out)) == (level, plain)
        assert stop == chain.levels and list(out) == list(range(n))  # the symmetric group: all sift


def test_rotations_are_refused_as_they_pass_the_limit(write):
    n = 12
    cycle = " ".join(str(i) for i in range(2, n + 1))  # with (2 3): every turn of 11 positions
    path = write("rot.toml", f'fixed = ["1"]\n[pieces.p]\npositions = {n}\n[moves]\nX = "(1 2)"\n'
                             f'[rotations]\na = "({cycle})"\nb = "(2 3)"\n')
    t0 = time.perf_counter()
    r = run_cli("perm", "info", path)
    assert_bad_input(r)
    assert f"[rotations] generate more than {puzzlefile.MAX_ROTATIONS:,} turns" in r.err
    assert time.perf_counter() - t0 < 60


# --- solve's search -----------------------------------------------------------------------------------


def test_seen_runs_answer_as_every_layer_would():
    rng = np.random.default_rng(1)
    layers = [np.unique(rng.integers(0, 5000, size=rng.integers(1, 300)).astype(np.uint64))
              for _ in range(40)]
    seen, stored = bidir.Seen(layers[0]), [layers[0]]
    for layer in layers[1:]:
        new = seen.new(layer)
        expected = layer[~np.isin(layer, np.concatenate(stored))]
        assert np.array_equal(new, expected)
        seen.add(new)
        stored.append(new)
        assert len(seen.runs) <= 2 * max(1, int(np.log2(sum(map(len, stored))))) + 1
    for depth, layer in enumerate(stored):
        for key in layer[:5]:
            assert seen.depth(key) == depth
    assert seen.depth(np.uint64(10**6)) == -1


def test_a_long_thin_search_solves(write):
    # one move of order 31 x 37 = 1,147, without its inverse: the answer is 1,146 moves, one
    # state a layer
    a = " ".join(str(i) for i in range(1, 32))
    b = " ".join(str(i) for i in range(32, 69))
    p = Puzzle.from_file(write("thin.toml", f'metric = "given"\n[pieces.p]\npositions = 68\n[moves]\n'
                                            f'X = "({a})({b})"\n'))
    found = p.solve(scramble="X")
    assert found.moves == 1146 and found.sequence == ("X",) * 1146


def test_solve_stops_at_its_bound_of_states_in_one_line(meter_recorder, monkeypatch):
    monkeypatch.setattr(api, "Meter", meter_recorder)
    cube = Puzzle.example("cube2-htm")
    with pytest.raises(ValueError, match=r"stored [\d,]+ states without a solution, .* bound of 100 "
                                         r"\(--states\): the shortest solution is longer than \d+ moves"):
        cube.solve(scramble="R U F R' U' F'", states=100)
    assert meter_recorder.seen and meter_recorder.seen[0]["unit"] == "states"
    assert meter_recorder.seen[0]["done"]  # the meter was told the states stored
    r = run_cli("perm", "solve", "cube2-htm", "--scramble", "R U F R' U' F'", "--states", "100")
    assert_bad_input(r)
    assert cube.solve(scramble="R U F R' U' F'").moves == 6  # the default bound lets it finish


@pytest.mark.parametrize("states", [0, -1, 2**63, 10**20, True, 2.5])
def test_a_bound_of_states_that_is_no_count_is_refused(states):
    with pytest.raises(ValueError, match=rf"--states must be (a whole number|between 1 and {2**63 - 1})"):
        Puzzle.example("cube2-htm").solve(scramble="R U", states=states)


@pytest.mark.parametrize("seed", range(6))
def test_the_compiled_closure_gives_each_level_its_plain_orbit(seed):
    rng = random.Random(seed)
    n = rng.randint(4, 14)
    gens = [rng.sample(range(n), n) for _ in range(rng.randint(1, 3))]
    chain = schreier.Chain(gens, seed=seed)
    true = _sympy_order(gens)
    assert chain.grow(true) == true
    for j, points in enumerate(chain.points):
        base = int(chain.base[j])
        elements = [[int(x) for x in chain.elements[k]] for k in chain.mine[j]]
        orbit, todo = {base}, [base]  # the plain rule: the base point's images under the level's elements
        while todo:
            y = todo.pop()
            for s in elements:
                if s[y] not in orbit:
                    orbit.add(s[y])
                    todo.append(s[y])
        assert sorted(points) == sorted(orbit)
        for z in points:  # each point's row sends it back to the base point, and fixes the earlier ones
            row = chain.rows[chain.where[j, z]]
            assert row[z] == base and all(row[int(b)] == int(b) for b in chain.base[:j])
