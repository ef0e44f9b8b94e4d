"""Puzzles of distinct pieces whose moves tie them beyond twist sums and parities: the
census indexes the group's elements (engine.group_space), exactly the states, and agrees
with the plain breadth-first search, with its table walk, and with twsearch's own census of
its TurnFour and M24 samples."""

from __future__ import annotations

import json
import random
from collections import deque
from pathlib import Path

import pytest

from conftest import run_cli
from doc_examples import TURNS  # the TurnFour of docs/perm.md
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.space import GROUP
from puzzlesearch.perm import Puzzle, formats, fullbfs, layout, rules, schreier

DATA = Path(__file__).parent.parent / "data" / "perm"


@pytest.fixture
def turns(tmp_path) -> Puzzle:
    """A TurnFour of 3 x 2 tiles: each 2x2 square turns a quarter, each tile it moves turned by one."""
    path = tmp_path / "turns.toml"
    path.write_text(TURNS)
    return Puzzle.from_file(path)


def test_the_census_indexes_the_states_alone_and_finds_the_plain_histogram(turns):
    r = turns.rules
    lay = layout.layout(r)
    space = fullbfs.space(r, lay)
    info = turns.info()
    assert space.kind == GROUP and info.indexed == info.states == space.size
    assert layout.index_size(lay) >= fullbfs.GROUP_FACTOR * info.states
    census = turns.god(show=10_000, run=RunOptions(store=None))
    assert list(census.histogram) == rules.bfs_histogram(r)
    assert census.indexed == info.states
    dist = {r.solved: 0}
    queue = deque([r.solved])
    while queue:
        state = queue.popleft()
        for m in r.moves:
            if (after := rules.apply(state, m, r.ks)) not in dist:
                dist[after] = dist[state] + 1
                queue.append(after)
    far = {rules.state_text(r, s) for s, d in dist.items() if d == census.diameter}
    assert set(census.farthest) == far and len(far) == census.farthest_count


def test_the_table_walk_solves_as_the_bidirectional_search(turns, tmp_path):
    run = RunOptions(store=str(tmp_path / "r.sqlite"), checkpoint=str(tmp_path / "god.ckpt"))
    turns.god(run=run)
    rng = random.Random(7)
    for _ in range(15):
        scramble = " ".join(rng.choice(["L", "R", "L'", "R'", "L2", "R2"]) for _ in range(rng.randint(1, 12)))
        table, searched = turns.solve(scramble=scramble, run=run), turns.solve(scramble=scramble)
        assert (table.method, searched.method) == ("table", "bidirectional")
        assert table.moves == searched.moves
        assert turns.play(" ".join(table.sequence), table.start) == turns.solved
    unreachable = turns.solve("b a c d e f", run=run)  # two tiles swapped: no sequence of turns does it
    assert unreachable.moves == -1


def test_the_cli_says_what_it_indexes(turns, tmp_path):
    path = tmp_path / "turns.toml"
    info = run_cli("perm", "info", str(path), "--json").json()
    census = run_cli("perm", "god", str(path), "--json", "--show", "0").json()
    assert info["indexed"] == info["states"] == census["indexed"] == sum(census["histogram"])
    assert info["index"] == "group" and info["tables"] > 0
    text = run_cli("perm", "info", str(path)).out.splitlines()[-1]
    assert text.startswith("god        a full search indexes 3,840 states (the group's elements), 2 bits "
                           "each: ")
    assert text.endswith(" of stabiliser chain tables")
    # a puzzle its pieces index: the arrangements, with move tables
    pieces = run_cli("perm", "info", "cube2-htm", "--json").json()
    assert pieces["index"] == "pieces" and pieces["indexed"] == 3_674_160


#: twsearch's census (`twsearch -g`, tests/data/perm/SOURCES.md) of two of its samples: the
#: whole histogram, or the layers it had finished
TWSEARCH = json.loads((DATA / "twsearch_histograms.json").read_text())
#: the states: |G| (Schreier-Sims); M24's is the Mathieu group's published order
STATES = {"turnfour.tws": 92_897_280, "m24conway.tws": 244_823_040}


@pytest.mark.slow
@pytest.mark.parametrize("name", ["turnfour.tws", "m24conway.tws"])
def test_twsearch_samples_whose_index_would_not_fit_find_twsearchs_histogram(name):
    census = run_cli("perm", "god", str(DATA / name), "--json", "--show", "0")
    assert census.code == 0, census.err
    hist, theirs = census.json()["histogram"], TWSEARCH["histograms"][name]
    assert (hist if TWSEARCH["complete"][name] else hist[: len(theirs)]) == theirs
    assert census.json()["indexed"] == sum(hist) == STATES[name]


def test_the_count_that_chooses_the_index_keeps_to_the_memory_cap(tmp_path):
    # 60 distinct pieces turned round by one move: 60 states, so the group's elements are
    # indexed (the pieces' index is 60!), but Schreier-Sims on 60 points takes tables of
    # 2 x 60 x 60 words, 56 KiB: more than a cap of 0.00005 GiB (52 KiB)
    path = tmp_path / "ring.toml"
    names = [f"p{i}" for i in range(60)]
    path.write_text(f'name = "Ring"\nmetric = "given"\n[pieces.p]\npositions = {json.dumps(names)}\n'
                    f'[moves]\nT = "({" ".join(names)})"\n')
    r = run_cli("perm", "god", str(path), "--memory", "0.00005")
    assert r.code == 2 and r.out == ""
    assert r.err == ("puzzlesearch: error: Schreier-Sims on the 60 points of Ring needs 56 KiB, more "
                     "than 52 KiB, the --memory cap\n")
    census = run_cli("perm", "god", str(path), "--memory", "0.001", "--json")
    assert census.code == 0, census.err
    assert census.json()["indexed"] == 60 and census.json()["histogram"] == [1] * 60


def test_the_count_under_the_memory_cap_is_not_made_again_without_it(tmp_path, monkeypatch):
    path = tmp_path / "ring.toml"
    names = [f"q{i}" for i in range(40)]
    path.write_text(f'name = "Ring of 40"\nmetric = "given"\n[pieces.p]\npositions = {json.dumps(names)}\n'
                    f'[moves]\nT = "({" ".join(names)})"\n')
    r = formats.load(path)
    counted = []
    order = schreier.order
    monkeypatch.setattr(schreier, "order", lambda *a: counted.append(a[2]) or order(*a))
    assert fullbfs.check_census(r, layout.layout(r), RunOptions(memory=1 << 20)) == 40
    assert fullbfs.group_chain(r) is not None and counted == [1 << 20]  # once, under the cap
