"""The breadth-first engine over ranked spaces (engine.layers): published tables, plain
Python BFS over tuples, the old queue BFS of hanoi, threads and tiny buffers agreeing,
checkpoints resumed and refused."""

from __future__ import annotations

import dataclasses
import random
from collections import deque
from math import factorial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import load_data
from puzzlesearch.engine import layers
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.hanoi import bfs as hanoi_bfs
from puzzlesearch.hanoi import framestewart
from puzzlesearch.hanoi import rules as hanoi_rules
from puzzlesearch.shuffle import fullbfs, puzzle, rules

REF = load_data("shuffle")
HANOI = load_data("hanoi")


def plain_bfs(start, neighbours) -> dict:
    dist = {start: 0}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        for t in neighbours(s):
            if t not in dist:
                dist[t] = dist[s] + 1
                queue.append(t)
    return dist


def histogram(dist: dict) -> tuple[int, ...]:
    hist = [0] * (max(dist.values()) + 1)
    for d in dist.values():
        hist[d] += 1
    return tuple(hist)


def pancakes(n: int, start=None) -> layers.Space:
    p = puzzle.pancake_puzzle(n)
    return fullbfs.perm_space(p, tuple(range(1, n + 1)) if start is None else start)


@pytest.mark.parametrize("n", range(1, 11))
def test_pancake_rows_are_oeis_a092113(n):
    found = layers.search(pancakes(n), run=RunOptions(workers=2))
    assert list(found.histogram) == REF["pancake_distance_table"]["rows"][str(n)]
    assert found.diameter == REF["pancake_numbers"]["values"][n - 1]


def test_flips_are_found_and_the_general_gather_agrees():
    space = pancakes(9)
    assert space.kind == layers.FLIPS
    assert fullbfs.perm_space(puzzle.block_shuffle_puzzle(7, 3), tuple(range(1, 8))).kind == layers.PERM
    general = dataclasses.replace(space, kind=layers.PERM)
    want = layers.search(space, show=100)
    got = layers.search(general, show=100)
    assert (got.histogram, got.farthest) == (want.histogram, want.farthest)
    assert list(got.histogram) == REF["pancake_distance_table"]["rows"]["9"]


@pytest.mark.parametrize("n", range(1, 9))
def test_burnt_pancake_diameters_are_oeis_a078941(n):
    found = layers.search(fullbfs.burnt_space(n), run=RunOptions(workers=2), show=20)
    assert found.states == 2**n * factorial(n)
    assert found.diameter == REF["burnt_pancake_numbers"]["values"][n - 1]
    space = fullbfs.burnt_space(n)
    for i in found.farthest:  # each farthest stack needs the diameter: replayed by plain BFS for small n
        stack = layers.deck_of(space, i)
        assert sorted(abs(c) for c in stack) == list(range(1, n + 1))


@pytest.mark.parametrize("n", range(1, 6))
def test_burnt_pancakes_against_plain_bfs(n):
    flips = range(1, n + 1)
    dist = plain_bfs(tuple(range(1, n + 1)), lambda s: (rules.burnt_flip(s, k) for k in flips))
    space = fullbfs.burnt_space(n)
    found = layers.search(space, run=RunOptions(workers=2), show=10_000)
    assert found.histogram == histogram(dist)
    far = {layers.deck_of(space, i) for i in found.farthest}
    assert far == {s for s, d in dist.items() if d == found.diameter}


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 7).flatmap(lambda n: st.permutations(range(1, n + 1))))
def test_any_start_against_plain_bfs(start):
    # pancakes from a random stack: distances are symmetric, the histogram is the same
    n = len(start)
    start = tuple(start)
    p = puzzle.pancake_puzzle(n)
    space = fullbfs.perm_space(p, start)
    found = layers.search(space, run=RunOptions(workers=2), show=10_000)
    dist = plain_bfs(start, lambda s: (p.apply(s, j) for j in range(len(p.moves))))
    assert found.histogram == histogram(dist)
    assert {layers.deck_of(space, i) for i in found.farthest} == {s for s, d in dist.items()
                                                                   if d == found.diameter}


@pytest.mark.parametrize("deck,block", [(5, 2), (6, 3), (7, 2), (7, 4), (8, 4)])
def test_block_shuffles_against_plain_bfs(deck, block):
    # directed moves (their inverses are not moves): the bottom-up passes use the inverses;
    # B even: one parity only, half the indices
    p = puzzle.block_shuffle_puzzle(deck, block)
    rng = random.Random(deck * 100 + block)
    start = tuple(rng.sample(range(1, deck + 1), deck))
    space = fullbfs.perm_space(p, start)
    assert space.compressed == (block % 2 == 0)
    found = layers.search(space, run=RunOptions(workers=2), show=10_000)
    dist = plain_bfs(start, lambda s: (p.apply(s, j) for j in range(len(p.moves))))
    assert found.histogram == histogram(dist)
    assert {layers.deck_of(space, i) for i in found.farthest} == {s for s, d in dist.items()
                                                                   if d == found.diameter}


def hanoi_space(n, pegs, start=None):
    start = hanoi_rules.perfect(n, 0) if start is None else start
    return layers.hanoi_space(f"hanoi {pegs} pegs, {n} discs", n, pegs, start, {"n": n, "pegs": pegs})


@pytest.mark.parametrize("n,pegs", [(1, 3), (5, 3), (7, 3), (6, 4), (8, 4), (5, 5), (4, 6)])
def test_hanoi_against_the_queue_bfs(n, pegs):
    rng = random.Random(n * 10 + pegs)
    start = tuple(rng.randrange(pegs) for _ in range(n))
    source = hanoi_bfs.encode(start, pegs)
    dist, _, (reached, far, at_far) = hanoi_bfs.search(n, pegs, source)
    space = hanoi_space(n, pegs, start)
    goal = hanoi_rules.perfect(n, pegs - 1)
    found = layers.search(space, run=RunOptions(workers=2), show=10_000,
                          watch=[layers.hanoi_index(space, goal)])
    assert found.histogram == tuple(int(c) for c in np.bincount(dist))
    assert (found.states, found.diameter, found.farthest_count) == (reached, far, at_far)
    assert found.found[layers.hanoi_index(space, goal)] == dist[hanoi_bfs.encode(goal, pegs)]
    assert all(dist[i] == far for i in found.farthest)


@pytest.mark.parametrize("n", range(1, 13))
def test_hanoi_four_pegs_tower_distance_is_frame_stewart(n):
    space = hanoi_space(n, 4)
    goal = layers.hanoi_index(space, hanoi_rules.perfect(n, 3))
    found = layers.search(space, run=RunOptions(workers=2), show=0, watch=[goal])
    assert found.found[goal] == HANOI["hanoi_four_peg_moves"]["values"][n] == framestewart.frame_stewart(n, 4)


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_threads_and_tiny_chunks_buffers_and_blocks_agree(monkeypatch, workers):
    # many rounds, buffers that fill (a push stops and resumes), jobs of a few blocks
    want = layers.search(pancakes(8), run=RunOptions(workers=1), show=10_000)
    monkeypatch.setattr(layers, "CHUNK", 1 << 8)
    monkeypatch.setattr(layers, "BLOCK", 1 << 6)
    monkeypatch.setattr(layers, "BUFFER", 64)
    for space in (pancakes(8), fullbfs.burnt_space(5), hanoi_space(6, 4)):
        got = layers.search(space, run=RunOptions(workers=workers), show=10_000)
        ref = layers.search(space, run=RunOptions(workers=1), show=10_000) if space.n != 8 else want
        assert (got.histogram, got.farthest, got.farthest_count) == (ref.histogram, ref.farthest,
                                                                     ref.farthest_count)


@pytest.mark.parametrize("ratio", [0.0, 1e9])
def test_top_down_only_and_bottom_up_only_agree(monkeypatch, ratio):
    monkeypatch.setattr(layers, "PULL_RATIO", ratio)
    for space, rows in ((pancakes(9), REF["pancake_distance_table"]["rows"]["9"]),):
        found = layers.search(space, run=RunOptions(workers=2))
        assert list(found.histogram) == rows
        assert set(found.directions) == ({"t"} if ratio == 0 else {"b"})
    p = puzzle.block_shuffle_puzzle(7, 3)
    found = layers.search(fullbfs.perm_space(p, tuple(range(1, 8))), run=RunOptions(workers=2))
    assert found.histogram == histogram(plain_bfs(tuple(range(1, 8)),
                                                  lambda s: (p.apply(s, j) for j in range(len(p.moves)))))


class Stop(Exception):
    pass


def test_a_killed_run_resumes_at_its_last_finished_layer(monkeypatch, tmp_path):
    ckpt = tmp_path / "run.ckpt"
    space = pancakes(9)
    whole = layers.search(space, run=RunOptions(workers=2), show=50)
    write = layers._write_checkpoint
    written = []

    def write_then_die(*args):
        write(*args)
        written.append(len(args[3]))
        if len(written) == 5:
            raise Stop

    monkeypatch.setattr(layers, "_write_checkpoint", write_then_die)
    with pytest.raises(Stop):
        layers.search(space, run=RunOptions(workers=2, checkpoint=str(ckpt)))
    monkeypatch.setattr(layers, "_write_checkpoint", write)
    again = layers.search(space, run=RunOptions(workers=2, checkpoint=str(ckpt)), show=50)
    assert again.resumed_at == 5 and written[-1] == 6  # layers 0..5 were kept
    assert (again.histogram, again.farthest, again.farthest_count) == (whole.histogram, whole.farthest,
                                                                       whole.farthest_count)
    done = layers.search(space, run=RunOptions(workers=2, checkpoint=str(ckpt)), show=50)
    assert done.histogram == whole.histogram and done.resumed_at == whole.diameter  # finished: read back


def test_checkpoints_of_other_searches_or_damaged_are_refused(tmp_path):
    ckpt = tmp_path / "run.ckpt"
    layers.search(pancakes(6), run=RunOptions(checkpoint=str(ckpt)))
    with pytest.raises(ValueError, match="made for another search: pancakes n=6 .*not pancakes n=7"):
        layers.search(pancakes(7), run=RunOptions(checkpoint=str(ckpt)))
    with pytest.raises(ValueError, match="another search"):  # same size, another start
        layers.search(pancakes(6, (2, 1, 3, 4, 5, 6)), run=RunOptions(checkpoint=str(ckpt)))
    data = ckpt.read_bytes()
    ckpt.write_bytes(data[:-3])
    with pytest.raises(ValueError, match="is damaged"):
        layers.search(pancakes(6), run=RunOptions(checkpoint=str(ckpt)))
    ckpt.write_bytes(layers.MAGIC + b"{not json\n" + b"\0" * 180)
    with pytest.raises(ValueError, match="is damaged"):
        layers.search(pancakes(6), run=RunOptions(checkpoint=str(ckpt)))
    ckpt.write_bytes(b"my precious notes\n")
    with pytest.raises(ValueError, match="not a puzzlesearch breadth-first-search checkpoint"):
        layers.search(pancakes(6), run=RunOptions(checkpoint=str(ckpt)))
    assert ckpt.read_bytes() == b"my precious notes\n"  # refused, not overwritten
    ckpt.write_bytes(b"")  # what a run killed before its first layer leaves: a fresh start
    assert layers.search(pancakes(6), run=RunOptions(checkpoint=str(ckpt))).diameter == 7


def test_memory_is_refused_before_allocating():
    with pytest.raises(ValueError, match=r"needs .* more than .*--memory cap"):
        layers.search(pancakes(13), run=RunOptions(memory=1 << 30))
    assert layers.memory_needed(pancakes(13)) == (factorial(13) + 3) // 4 + 8 * layers.BUFFER
    assert layers.memory_needed(pancakes(8)) == 40_320 // 4 + 8 * 4096
    with pytest.raises(ValueError, match="beyond"):
        layers.check_space(hanoi_space(21, 4), None)


# --- on a Dask cluster (engine.layers_dask) ---------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0",
                                  host="127.0.0.1") as c:
        yield c.scheduler_address


def spaces_for_the_cluster():
    p = puzzle.block_shuffle_puzzle(7, 3)
    return [pancakes(n) for n in range(1, 11)] + [
        fullbfs.burnt_space(5),
        fullbfs.perm_space(p, (3, 1, 2, 7, 5, 6, 4)),  # directed moves, from a random deck
        hanoi_space(7, 4),
    ]


def test_the_cluster_finds_what_one_machine_finds(cluster, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the temporary partition folder goes here, and goes away
    for space in spaces_for_the_cluster():
        here = layers.search(space, run=RunOptions(workers=2), show=30, watch=[space.start, 0])
        there = layers.search(space, run=RunOptions(scheduler=cluster), show=30, watch=[space.start, 0])
        assert (there.histogram, there.farthest, there.farthest_count, there.found) == (
            here.histogram, here.farthest, here.farthest_count, here.found), space.name
    assert list(tmp_path.iterdir()) == []
    # from the command line, as a user asks it
    from conftest import run_cli

    there = run_cli("pancake", "god", "-n", "7", "--burnt", "--scheduler", cluster, "--json",
                    "--store", str(tmp_path / "a.sqlite"))
    here = run_cli("pancake", "god", "-n", "7", "--burnt", "--json", "--store", str(tmp_path / "b.sqlite"))
    assert there.code == here.code == 0
    assert {k: v for k, v in there.json().items() if k not in ("seconds", "workers", "directions")} == {
        k: v for k, v in here.json().items() if k not in ("seconds", "workers", "directions")}
    assert there.json()["diameter"] == REF["burnt_pancake_numbers"]["values"][6]


def test_a_cluster_run_resumes_after_a_kill(cluster, tmp_path, monkeypatch):
    from puzzlesearch.engine import layers_dask

    space = pancakes(9)
    whole = layers.search(space, run=RunOptions(workers=2), show=20)
    ckpt = tmp_path / "run.ckpt"
    write = layers_dask._write_meta
    calls = []

    def write_then_die(*args):
        write(*args)
        calls.append(1)
        if len(calls) == 4:
            raise Stop

    monkeypatch.setattr(layers_dask, "_write_meta", write_then_die)
    with pytest.raises(Stop):
        layers.search(space, run=RunOptions(scheduler=cluster, checkpoint=str(ckpt)))
    monkeypatch.setattr(layers_dask, "_write_meta", write)
    # killed between the merges of layer 5: every expansion written, partition 0 merged
    folder, bounds = str(tmp_path / "run.ckpt.parts"), layers_dask._read_meta(ckpt)["bounds"]
    assert len(bounds) > 1
    for p in range(len(bounds)):
        layers_dask.expand_task(folder, p, 4, bounds, space.arrays())
    (tmp_path / "run.ckpt.parts" / "layer-5" / "EXPANDED").write_text("")
    layers_dask.merge_task(folder, 0, 4, [])
    again = layers.search(space, run=RunOptions(scheduler=cluster, checkpoint=str(ckpt)), show=20)
    assert again.resumed_at == 4
    assert (again.histogram, again.farthest) == (whole.histogram, whole.farthest)
    with pytest.raises(ValueError, match="another search"):  # a cluster's checkpoint on one machine
        layers.search(space, run=RunOptions(checkpoint=str(ckpt)))
    local = tmp_path / "local.ckpt"
    layers.search(space, run=RunOptions(checkpoint=str(local)))
    with pytest.raises(ValueError, match="another search: .*on one machine, not on a cluster"):
        layers.search(space, run=RunOptions(scheduler=cluster, checkpoint=str(local)))


def test_a_real_scheduler_and_workers_find_the_same(tmp_path):
    # `dask scheduler` and two `dask worker` processes, as a user starts them
    pytest.importorskip("distributed")
    import socket
    import subprocess
    import sys
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    procs = [subprocess.Popen([*dask, "--host", "127.0.0.1", "--port", str(port), "--dashboard-address",
                               ":0"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)]
    try:
        for _ in range(2):
            procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address,
                                           "--nthreads", "1", "--no-dashboard"],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path))
        distributed = pytest.importorskip("distributed")
        with distributed.Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
        for space in (pancakes(10), fullbfs.burnt_space(6)):
            there = layers.search(space, run=RunOptions(scheduler=address, checkpoint=str(tmp_path / "c")),
                                  show=20)
            here = layers.search(space, run=RunOptions(workers=2), show=20)
            assert (there.histogram, there.farthest, there.farthest_count) == (
                here.histogram, here.farthest, here.farthest_count)
            (tmp_path / "c").unlink()
            for f in (tmp_path / "c.parts").iterdir():
                f.unlink()
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
        time.sleep(0)
