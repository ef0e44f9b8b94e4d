"""perm god: the engine's census of a described puzzle against the plain breadth-first
search, the published histograms of the examples, and `shuffle god` / `pancake god` (burnt
too) on the same puzzles described in a file."""

from __future__ import annotations

import json
from collections import deque

import pytest
from perm_cases import random_puzzle

from conftest import load_data
from puzzlesearch import shuffle
from puzzlesearch.engine import layers
from puzzlesearch.engine.layers_common import memory_needed_for, read_header
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.perm import Puzzle, fullbfs, layout, rules


def distances(puzzle: Puzzle) -> dict:
    r = puzzle.rules
    seen = {r.solved: 0}
    queue = deque([r.solved])
    while queue:
        s = queue.popleft()
        for m in r.moves:
            t = rules.apply(s, m, r.ks)
            if t not in seen:
                seen[t] = seen[s] + 1
                queue.append(t)
    return seen


def fresh(tmp_path) -> RunOptions:
    return RunOptions(store=str(tmp_path / "store.sqlite"))


@pytest.mark.parametrize("colours", [False, True])
@pytest.mark.parametrize("seed", range(12))
def test_random_puzzles_give_the_plain_histogram(tmp_path, seed, colours):
    puzzle = random_puzzle(seed, colours)
    census = puzzle.god(show=5, run=fresh(tmp_path))
    assert list(census.histogram) == rules.bfs_histogram(puzzle.rules)
    dist = distances(puzzle)
    for text in census.farthest:  # each farthest state, read back, is at the largest distance
        assert dist[rules.parse_state(puzzle.rules, text)] == census.diameter
    assert len(census.farthest) == min(5, census.farthest_count)
    assert census.farthest_count == census.histogram[-1]


# published: the 2x2x2 distance tables in both metrics (Jaap Scherphuis's Pocket Cube page,
# reproduced on speedsolving.com), the Pyraminx's 933,120 states and God's number 11
CUBE2_HTM = (1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644)
CUBE2_QTM = (1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276)


def test_the_2x2x2_in_the_half_turn_metric(tmp_path):
    census = Puzzle.example("cube2-htm").god(run=fresh(tmp_path))
    assert census.histogram == CUBE2_HTM and census.diameter == 11 and census.states == 3_674_160


@pytest.mark.slow
def test_the_2x2x2_in_the_quarter_turn_metric(tmp_path):
    census = Puzzle.example("cube2-qtm").god(run=fresh(tmp_path))
    assert census.histogram == CUBE2_QTM and census.diameter == 14


def test_the_pyraminx(tmp_path):
    census = Puzzle.example("pyraminx").god(run=fresh(tmp_path))
    assert census.states == 933_120 and census.diameter == 11


@pytest.mark.slow
def test_the_pyraminx_by_the_plain_search(tmp_path):
    puzzle = Puzzle.example("pyraminx")
    assert tuple(rules.bfs_histogram(puzzle.rules)) == puzzle.god(run=fresh(tmp_path)).histogram


def test_pancakes_from_a_file_are_pancake_god(tmp_path):
    mine = Puzzle.example("pancakes-8").god(run=fresh(tmp_path))
    theirs = shuffle.pancake_god(8, run=fresh(tmp_path))
    assert (mine.histogram, mine.diameter) == (theirs.histogram, theirs.diameter)
    assert mine.farthest[0] == " ".join(map(str, theirs.farthest[0]))  # the same space, the same order


@pytest.mark.slow
@pytest.mark.parametrize("n", [9, 10])
def test_more_pancakes_from_a_file(tmp_path, n):
    mine = Puzzle.example(f"pancakes-{n}").god(run=fresh(tmp_path))
    theirs = shuffle.pancake_god(n, run=fresh(tmp_path))
    assert (mine.histogram, mine.diameter) == (theirs.histogram, theirs.diameter)


@pytest.mark.parametrize("n", [6, pytest.param(8, marks=pytest.mark.slow)])
def test_burnt_pancakes_from_a_file_are_pancake_god_burnt(tmp_path, n):
    # a pancake turned over is a piece with twist 1: "3+1" in the file's words, -3 in pancake's
    mine = Puzzle.example(f"burnt-pancakes-{n}").god(run=fresh(tmp_path))
    theirs = shuffle.pancake_god(n, burnt=True, run=fresh(tmp_path))
    assert (mine.histogram, mine.diameter) == (theirs.histogram, theirs.diameter)
    assert mine.diameter == load_data("shuffle")["burnt_pancake_numbers"]["values"][n - 1]  # OEIS A078941
    assert mine.farthest_count == theirs.farthest_count <= 10
    assert set(mine.farthest) == {" ".join(f"{-c}+1" if c < 0 else str(c) for c in stack)
                                  for stack in theirs.farthest}


@pytest.mark.slow
@pytest.mark.parametrize("n", [5, pytest.param(6, marks=pytest.mark.timeout(1200))])
def test_block_shuffles_from_a_file_are_shuffle_god(tmp_path, n):
    mine = Puzzle.example(f"block-shuffle-{2 * n}").god(run=fresh(tmp_path))
    theirs = shuffle.god(n, run=fresh(tmp_path))
    assert (mine.histogram, mine.diameter) == (theirs.histogram, theirs.diameter)


@pytest.mark.parametrize(("name", "theirs"), [
    ("block-shuffle-12", lambda: shuffle.puzzle.block_shuffle_puzzle(12, 6)),
    ("pancakes-10", lambda: shuffle.puzzle.pancake_puzzle(10)),
])
def test_a_deck_from_a_file_is_searched_as_the_built_in_command_searches_it(name, theirs):
    # the same ranked space, field by field: the same work, at the same speed
    puzzle = Puzzle.example(name)
    mine = fullbfs.space(puzzle.rules, layout.layout(puzzle.rules))
    built_in = shuffle.fullbfs.perm_space(theirs(), tuple(range(1, mine.n + 1)))
    for field in ("kind", "n", "radix", "start", "moves", "reach", "inverse", "inverse_reach", "compressed",
                  "parity", "size"):
        assert getattr(mine, field) == getattr(built_in, field), field


def test_a_census_is_kept_in_the_store(tmp_path):
    puzzle = Puzzle.example("pancakes-8")
    first = puzzle.god(show=3, run=fresh(tmp_path))
    again = puzzle.god(show=3, run=fresh(tmp_path))
    assert (first.source, again.source) == ("run", "store")
    assert again.histogram == first.histogram and again.farthest == first.farthest


class Killed(Exception):
    """Ends a census between two layers, as a killed run ends."""


def counting_layers(monkeypatch, stop_at: int | None = None) -> list[str]:
    """The layer passes (top-down or bottom-up) the engine runs from now on, one entry
    each; with `stop_at`, the pass after that many raises Killed instead of running."""
    passes: list[str] = []
    for name in ("_push", "_pull"):
        real = getattr(layers, name)

        def counted(*args, real=real, name=name):
            if stop_at is not None and len(passes) == stop_at:
                raise Killed
            passes.append(name)
            return real(*args)

        monkeypatch.setattr(layers, name, counted)
    return passes


def checkpoint_layers(path) -> tuple[int, bool]:
    """The layers a census checkpoint holds (the last finished one) and whether it is complete."""
    line, _, _ = read_header(path)
    head = json.loads(line)
    return len(head["histogram"]) - 1, head["done"]


def test_a_finished_checkpoint_answers_without_a_layer(tmp_path, monkeypatch):
    puzzle = random_puzzle(0)  # three orbits, one of them twisted: 324 states, diameter 11
    ckpt = tmp_path / "run.ckpt"
    first = puzzle.god(run=RunOptions(store=str(tmp_path / "a.sqlite"), checkpoint=str(ckpt)))
    assert first.resumed_at is None and checkpoint_layers(ckpt) == (first.diameter, True)
    passes = counting_layers(monkeypatch)
    again = puzzle.god(run=RunOptions(store=str(tmp_path / "b.sqlite"), checkpoint=str(ckpt)))
    assert again.source == "run" and passes == [] and again.resumed_at == first.diameter
    assert again.histogram == first.histogram == tuple(rules.bfs_histogram(puzzle.rules))


@pytest.mark.parametrize("kept", [1, 6])
def test_a_killed_census_resumes_at_its_last_finished_layer(tmp_path, monkeypatch, kept):
    puzzle = random_puzzle(0)
    plain = tuple(rules.bfs_histogram(puzzle.rules))
    ckpt = tmp_path / "run.ckpt"
    run = RunOptions(store=str(tmp_path / "a.sqlite"), checkpoint=str(ckpt))
    with monkeypatch.context() as mp:
        counting_layers(mp, stop_at=kept)
        with pytest.raises(Killed):
            puzzle.god(run=run)
    assert checkpoint_layers(ckpt) == (kept, False)
    passes = counting_layers(monkeypatch)
    again = puzzle.god(run=run)
    # one pass a layer still to find, and the pass that finds nothing more
    assert again.source == "run" and again.resumed_at == kept and len(passes) == len(plain) - kept
    assert again.histogram == plain and checkpoint_layers(ckpt) == (len(plain) - 1, True)


def test_too_big_is_refused_with_the_memory_it_needs():
    with pytest.raises(ValueError, match=r"full BFS of 3x3x3 cube indexes 86,504,006,548,979,712,000 states: "
                                         r"it would need 18.8 EiB \(2 bits each\)"):
        Puzzle.example("cube3").god()
    with pytest.raises(ValueError, match=r"full BFS of Top-Spin 12/4 \(39,916,800 states, 2 bits each\) "
                                         r"needs 14 MiB, more than 1 MiB, the --memory cap"):
        Puzzle.example("topspin-12-4").god(run=RunOptions(memory=2**20))


def test_the_memory_counts_the_move_tables(tmp_path):
    # the bits and the tables of the corners' arrangements and twists, refused before either is made
    puzzle = Puzzle.example("cube2-htm")
    info = puzzle.info(run=fresh(tmp_path))
    space = fullbfs.space(puzzle.rules, layout.layout(puzzle.rules))
    assert info.tables == space.table_bytes == (5040 + 729) * 9 * 4
    assert info.memory == memory_needed_for(info.indexed) + info.tables
    with pytest.raises(ValueError, match=r"\(3,674,160 states, 2 bits each and move tables\) needs 2 MiB, "
                                         r"more than 2 MiB, the --memory cap"):
        puzzle.god(run=RunOptions(store=str(tmp_path / "store.sqlite"), memory=info.memory - 1))
    assert puzzle.god(run=RunOptions(store=str(tmp_path / "store.sqlite"), memory=info.memory)).diameter == 11


@pytest.mark.parametrize("show", [-1, 10_001])
def test_show_is_checked(show):
    with pytest.raises(ValueError, match="--show must be between 0 and 10,000"):
        Puzzle.example("pancakes-8").god(show=show)


def test_a_census_draws_itself_in_a_notebook(tmp_path):
    pytest.importorskip("matplotlib")
    census = Puzzle.example("pancakes-8").god(run=fresh(tmp_path))
    svg = census._repr_svg_()
    assert svg.lstrip().startswith("<?xml") and "layers" in svg


@pytest.mark.slow
def test_top_spin(tmp_path):
    census = Puzzle.example("topspin-12-4").god(show=1, run=fresh(tmp_path))
    assert census.states == 39_916_800 and census.diameter == 12


@pytest.mark.slow
def test_a_census_on_a_cluster_is_the_local_one(tmp_path, dask_cluster):
    puzzle = random_puzzle(0)  # three orbits, one of them twisted: a space of pieces
    here = puzzle.god(run=fresh(tmp_path))
    there = puzzle.god(run=RunOptions(store=str(tmp_path / "c.sqlite"), scheduler=dask_cluster))
    assert there.histogram == here.histogram
