"""The breadth-first engine over ranked spaces (engine.layers): published tables, plain
Python BFS over tuples, the queue BFS of hanoi, threads and tiny buffers agreeing,
checkpoints resumed and refused, the same answers on a Dask cluster."""

from __future__ import annotations

import ast
import dataclasses
import random
import shutil
import threading
from collections import deque
from math import factorial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import load_data, run_cli
from puzzlesearch.engine import layers, layers_common, layers_dask, layers_kernel
from puzzlesearch.engine import space as ranked
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


def pancakes(n: int, start=None) -> ranked.Space:
    p = puzzle.pancake_puzzle(n)
    return fullbfs.perm_space(p, tuple(range(1, n + 1)) if start is None else start)


def test_the_kinds_of_space_are_the_kernels_kinds():
    kinds = ("PERM", "SIGNED", "HANOI", "FLIPS")
    assert [getattr(ranked, k) for k in kinds] == [getattr(layers_kernel, k) for k in kinds]


@pytest.mark.parametrize("n", [*range(1, 10), pytest.param(10, marks=pytest.mark.slow)])
def test_pancake_rows_are_oeis_a092113(n):
    found = layers.search(pancakes(n), run=RunOptions(workers=2))
    assert list(found.histogram) == REF["pancake_distance_table"]["rows"][str(n)]
    assert found.diameter == REF["pancake_numbers"]["values"][n - 1]


def test_flips_are_found_and_the_general_gather_agrees():
    space = pancakes(9)
    assert space.kind == ranked.FLIPS
    assert fullbfs.perm_space(puzzle.block_shuffle_puzzle(7, 3), tuple(range(1, 8))).kind == ranked.PERM
    general = dataclasses.replace(space, kind=ranked.PERM)
    want = layers.search(space, show=100)
    got = layers.search(general, show=100)
    assert (got.histogram, got.farthest) == (want.histogram, want.farthest)
    assert list(got.histogram) == REF["pancake_distance_table"]["rows"]["9"]


@pytest.mark.parametrize("n", [*range(1, 8), pytest.param(8, marks=pytest.mark.slow)])
def test_burnt_pancake_diameters_are_oeis_a078941(n):
    found = layers.search(fullbfs.burnt_space(n), run=RunOptions(workers=2), show=20)
    assert found.states == 2**n * factorial(n)
    assert found.diameter == REF["burnt_pancake_numbers"]["values"][n - 1]


def burnt_flips(n: int):
    """The plain rule: a flip of the top k reverses them and turns each over."""
    return lambda s: (rules.burnt_flip(s, k) for k in range(1, n + 1))


def ball(n: int, radius: int) -> set:
    """The stacks within `radius` flips of the sorted one, by plain BFS over tuples."""
    layer = seen = {tuple(range(1, n + 1))}
    flips = burnt_flips(n)
    for _ in range(radius):
        layer = {t for s in layer for t in flips(s)} - seen
        seen = seen | layer
    return seen


def within(stack: tuple, half: set) -> bool:
    """Whether `stack` is within 2r flips of the sorted stack, `half` being the ball of
    radius r: a path that short passes through a stack within r flips of both ends. Those
    within r of `stack` are `stack` moved as the flips of some p in the ball moved the
    sorted stack (a flip moves positions, whatever pancakes lie on them): the pancake at
    position |p[i]| - 1 goes to position i, turned over when p[i] < 0."""
    return any(tuple(stack[abs(c) - 1] if c > 0 else -stack[abs(c) - 1] for c in p) in half for p in half)


@pytest.mark.parametrize("n", [6, pytest.param(7, marks=pytest.mark.slow)])
def test_the_farthest_burnt_stacks_are_those_of_a_plain_bfs(n):
    # 46,080 and 645,120 stacks: every one's distance by plain BFS over tuples
    dist = plain_bfs(tuple(range(1, n + 1)), burnt_flips(n))
    space = fullbfs.burnt_space(n)
    found = layers.search(space, run=RunOptions(workers=2), show=100)
    assert found.histogram == histogram(dist)
    assert found.diameter == REF["burnt_pancake_numbers"]["values"][n - 1]
    far = {s for s, d in dist.items() if d == found.diameter}
    assert found.farthest_count == len(far)
    assert {ranked.deck_of(space, i) for i in found.farthest} == far


@pytest.mark.slow
def test_the_farthest_burnt_stacks_of_8_are_at_the_diameter():
    # 10,321,920 stacks are too many for a plain BFS: each farthest stack is shown to need
    # the published diameter D = 15 (no stack needs more) by meeting in the middle, which
    # needs only the 361,853 stacks within 7 flips of the sorted one
    n, diameter = 8, REF["burnt_pancake_numbers"]["values"][7]
    space = fullbfs.burnt_space(n)
    found = layers.search(space, run=RunOptions(workers=2), show=100)
    assert found.diameter == diameter == 15 and 0 < found.farthest_count <= 100
    half = ball(n, 7)
    assert len(half) == sum(found.histogram[:8]) == 361_853
    for i in found.farthest:
        stack = ranked.deck_of(space, i)
        assert sorted(abs(c) for c in stack) == list(range(1, n + 1))
        assert not within(stack, half), stack  # not within D - 1 = 14 flips: it needs D
    # the meeting finds a stack 14 flips away from the sorted one when there is one
    near = tuple(range(1, n + 1))
    for k in (8, 3, 7, 2, 8, 5, 1, 6, 4, 8, 2, 7, 3, 5):
        near = rules.burnt_flip(near, k)
    assert within(near, half)


@pytest.mark.parametrize("n", range(1, 6))
def test_burnt_pancakes_against_plain_bfs(n):
    flips = range(1, n + 1)
    dist = plain_bfs(tuple(range(1, n + 1)), lambda s: (rules.burnt_flip(s, k) for k in flips))
    space = fullbfs.burnt_space(n)
    found = layers.search(space, run=RunOptions(workers=2), show=10_000)
    assert found.histogram == histogram(dist)
    far = {ranked.deck_of(space, i) for i in found.farthest}
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
    assert {ranked.deck_of(space, i) for i in found.farthest} == {s for s, d in dist.items()
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
    assert {ranked.deck_of(space, i) for i in found.farthest} == {s for s, d in dist.items()
                                                                   if d == found.diameter}


def hanoi_space(n, pegs, start=None):
    start = hanoi_rules.perfect(n, 0) if start is None else start
    return ranked.hanoi_space(f"hanoi {pegs} pegs, {n} discs", n, pegs, start, {"n": n, "pegs": pegs})


@pytest.mark.parametrize("n,pegs", [(1, 3), (5, 3), (7, 3), (6, 4), (8, 4), (5, 5), (4, 6)])
def test_hanoi_against_the_queue_bfs(n, pegs):
    rng = random.Random(n * 10 + pegs)
    start = tuple(rng.randrange(pegs) for _ in range(n))
    source = hanoi_bfs.encode(start, pegs)
    dist, _, (reached, far, at_far) = hanoi_bfs.search(n, pegs, source)
    space = hanoi_space(n, pegs, start)
    goal = hanoi_rules.perfect(n, pegs - 1)
    found = layers.search(space, run=RunOptions(workers=2), show=10_000,
                          watch=[ranked.hanoi_index(space, goal)])
    assert found.histogram == tuple(int(c) for c in np.bincount(dist))
    assert (found.states, found.diameter, found.farthest_count) == (reached, far, at_far)
    assert found.found[ranked.hanoi_index(space, goal)] == dist[hanoi_bfs.encode(goal, pegs)]
    assert all(dist[i] == far for i in found.farthest)


@pytest.mark.parametrize("n", [*range(1, 11), *(pytest.param(n, marks=pytest.mark.slow) for n in (11, 12))])
def test_hanoi_four_pegs_tower_distance_is_frame_stewart(n):
    space = hanoi_space(n, 4)
    goal = ranked.hanoi_index(space, hanoi_rules.perfect(n, 3))
    found = layers.search(space, run=RunOptions(workers=2), show=0, watch=[goal])
    assert found.found[goal] == HANOI["hanoi_four_peg_moves"]["values"][n] == framestewart.frame_stewart(n, 4)


@pytest.mark.parametrize("workers", [1, 2, pytest.param(3, marks=pytest.mark.slow)])
def test_threads_and_tiny_chunks_buffers_and_blocks_agree(monkeypatch, workers):
    # many rounds, buffers that fill (a push stops and resumes), jobs of a few blocks
    want = layers.search(pancakes(8), run=RunOptions(workers=1), show=10_000)
    monkeypatch.setattr(layers, "CHUNK", 1 << 8)
    monkeypatch.setattr(layers, "BLOCK", 1 << 6)
    monkeypatch.setattr(layers_common, "BUFFER", 64)
    for space in (pancakes(8), fullbfs.burnt_space(5), hanoi_space(6, 4)):
        got = layers.search(space, run=RunOptions(workers=workers), show=10_000)
        ref = layers.search(space, run=RunOptions(workers=1), show=10_000) if space.n != 8 else want
        assert (got.histogram, got.farthest, got.farthest_count) == (ref.histogram, ref.farthest,
                                                                     ref.farthest_count)


@pytest.mark.parametrize("ratio", [0.0, 1e9])
def test_top_down_only_and_bottom_up_only_agree(monkeypatch, ratio):
    monkeypatch.setattr(layers, "PULL_RATIO", ratio)
    found = layers.search(pancakes(8), run=RunOptions(workers=2))
    assert list(found.histogram) == REF["pancake_distance_table"]["rows"]["8"]
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
    write = layers.write_checkpoint
    written = []

    def write_then_die(*args):
        write(*args)
        written.append(len(args[3]))
        if len(written) == 5:
            raise Stop

    monkeypatch.setattr(layers, "write_checkpoint", write_then_die)
    with pytest.raises(Stop):
        layers.search(space, run=RunOptions(workers=2, checkpoint=str(ckpt)))
    monkeypatch.setattr(layers, "write_checkpoint", write)
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
    ckpt.write_bytes(layers_common.MAGIC + b"{not json\n" + b"\0" * 180)
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
    assert layers_common.memory_needed(pancakes(13)) == (factorial(13) + 3) // 4 + 8 * layers_common.BUFFER
    assert layers_common.memory_needed(pancakes(8)) == 40_320 // 4 + 8 * 4096
    with pytest.raises(ValueError, match="beyond"):
        layers_common.check_space(hanoi_space(21, 4), None)


# --- on a Dask cluster (engine.layers_dask) ---------------------------------------------------------------


def spaces_for_the_cluster():
    p = puzzle.block_shuffle_puzzle(7, 3)
    return [pancakes(n) for n in range(1, 11)] + [
        fullbfs.burnt_space(5),
        fullbfs.perm_space(p, (3, 1, 2, 7, 5, 6, 4)),  # directed moves, from a random deck
        hanoi_space(7, 4),
    ]


@pytest.mark.slow
def test_the_cluster_finds_what_one_machine_finds(dask_cluster, tmp_path, monkeypatch):
    cluster = dask_cluster
    monkeypatch.chdir(tmp_path)  # the temporary partition folder goes here, and goes away
    for space in spaces_for_the_cluster():
        here = layers.search(space, run=RunOptions(workers=2), show=30, watch=[space.start, 0])
        there = layers.search(space, run=RunOptions(scheduler=cluster), show=30, watch=[space.start, 0])
        assert (there.histogram, there.farthest, there.farthest_count, there.found) == (
            here.histogram, here.farthest, here.farthest_count, here.found), space.name
    assert list(tmp_path.iterdir()) == []
    # from the command line, as a user asks it
    there = run_cli("pancake", "god", "-n", "7", "--burnt", "--scheduler", cluster, "--json",
                    "--store", str(tmp_path / "a.sqlite"))
    here = run_cli("pancake", "god", "-n", "7", "--burnt", "--json", "--store", str(tmp_path / "b.sqlite"))
    assert there.code == here.code == 0
    assert {k: v for k, v in there.json().items() if k not in ("seconds", "workers", "directions")} == {
        k: v for k, v in here.json().items() if k not in ("seconds", "workers", "directions")}
    assert there.json()["diameter"] == REF["burnt_pancake_numbers"]["values"][6]


def test_the_layer_files_are_read_without_pythons_parser(tmp_path, monkeypatch):
    # CPython 3.11's AST builder keeps one recursion count per interpreter: two threads of a
    # Dask worker parsing at once (np.load's header) can fail; the merge never parses
    ranks = np.array([0, 5, 17, (1 << 40) + 3], dtype=np.int64)
    path = tmp_path / "p0-c0-q0.npy"
    layers_dask._save_array(path, ranks)
    assert np.array_equal(np.load(path), ranks)  # a plain .npy file, for whoever looks at it

    def parse(*_args, **_kwargs):
        raise AssertionError("the layer file went through Python's parser")

    with monkeypatch.context() as m:
        m.setattr(ast, "parse", parse)
        m.setattr(ast, "literal_eval", parse)
        assert np.array_equal(layers_dask._load_array(path), ranks)
        layers_dask._save_array(path, np.array([], dtype=np.int64))
        assert len(layers_dask._load_array(path)) == 0
    layers_dask._save_array(path, ranks)
    path.write_bytes(path.read_bytes()[:-8])
    with pytest.raises(ValueError, match="p0-c0-q0.npy is damaged"):
        layers_dask._load_array(path)
    np.save(path, ranks.astype(np.int32))
    with pytest.raises(ValueError, match="not a file of ranks"):
        layers_dask._load_array(path)


def test_a_task_left_running_after_its_folder_is_removed_never_makes_it_again(tmp_path):
    # A Ctrl-C removes the run's temporary folder while tasks it cancelled may still be
    # running on the workers: each fails where it first touches the folder, leaving nothing.
    space = pancakes(6)
    folder = tmp_path / "puzzlesearch-layers-run"
    folder.mkdir()
    (lo, hi), = layers_dask.partitions(space.size, 1)[:1]
    layers_dask.init_task(str(folder), 0, lo, hi, space.start)
    layers_dask.expand_task(str(folder), 0, 0, [(lo, hi)], space)
    shutil.rmtree(folder)
    with pytest.raises(FileNotFoundError):
        layers_dask.merge_task(str(folder), 0, 0, [])
    with pytest.raises(FileNotFoundError):
        layers_dask.init_task(str(folder), 0, lo, hi, space.start)
    assert list(tmp_path.iterdir()) == []


def test_a_stale_merge_of_a_partition_never_writes_over_the_live_one(tmp_path, monkeypatch):
    # Dask may run a merge again while a worker it took for lost still runs it. The stale
    # run read the partition first; the live one merges, the driver removes the layer's
    # files, then the stale one goes on: it must not write the partition back without them.
    space = pancakes(8)
    whole = layers.search(space, run=RunOptions(workers=1))
    folder, bounds = str(tmp_path), layers_dask.partitions(space.size, 1)
    for p, (lo, hi) in enumerate(bounds):
        layers_dask.init_task(folder, p, lo, hi, space.start)
    for d in range(3):
        for p in range(len(bounds)):
            layers_dask.expand_task(folder, p, d, bounds, space)
        merged = [layers_dask.merge_task(folder, q, d, []) if d < 2 else None for q in range(len(bounds))]
        if d < 2:
            assert sum(c for c, _ in merged) == whole.histogram[d + 1]
            shutil.rmtree(tmp_path / f"layer-{d + 1}")
    read, paused, go = layers_dask._read_part, threading.Event(), threading.Event()

    def read_then_wait(path):
        got = read(path)
        if threading.current_thread().name == "stale":
            paused.set()
            go.wait(10)
        return got

    monkeypatch.setattr(layers_dask, "_read_part", read_then_wait)
    results = {}

    def merge(name):
        results[name] = layers_dask.merge_task(folder, 0, 2, [])

    stale = threading.Thread(name="stale", target=merge, args=("stale",))
    live = threading.Thread(target=merge, args=("live",))
    stale.start()
    assert paused.wait(10)
    live.start()
    live.join(0.5)
    if not live.is_alive():  # merged: the driver, every merge returned, removes the files
        shutil.rmtree(tmp_path / "layer-3")
    go.set()
    stale.join(10)
    live.join(10)
    head, _ = read(layers_dask._part_path(tmp_path, 0))
    assert head["layer"] == 3 and results["stale"] == results["live"] == (head["count"], {})
    rest = sum(layers_dask.merge_task(folder, q, 2, [])[0] for q in range(1, len(bounds)))
    assert head["count"] + rest == whole.histogram[3]


def test_a_cluster_run_resumes_after_a_kill(dask_cluster, tmp_path, monkeypatch):
    cluster = dask_cluster
    space = pancakes(8)
    whole = layers.search(space, run=RunOptions(workers=2), show=20)
    ckpt = tmp_path / "run.ckpt"
    write = layers_dask._write_meta
    calls = []

    def write_then_die(*args):
        write(*args)
        calls.append(1)
        if len(calls) == 5:  # the first before layer 1, then one after each layer
            raise Stop

    monkeypatch.setattr(layers_dask, "_write_meta", write_then_die)
    with pytest.raises(Stop):
        layers.search(space, run=RunOptions(scheduler=cluster, checkpoint=str(ckpt)))
    monkeypatch.setattr(layers_dask, "_write_meta", write)
    # killed between the merges of layer 5: every expansion written, partition 0 merged
    assert layers_dask._read_meta(ckpt)["histogram"] == list(whole.histogram[:5])
    folder, bounds = str(tmp_path / "run.ckpt.parts"), layers_dask._read_meta(ckpt)["bounds"]
    assert len(bounds) > 1
    for p in range(len(bounds)):
        layers_dask.expand_task(folder, p, 4, bounds, space)
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


def test_a_cluster_run_stopped_after_a_layers_merges_before_its_checkpoint_resumes(dask_cluster, tmp_path,
                                                                                  monkeypatch):
    space = pancakes(8)
    whole = layers.search(space, run=RunOptions(workers=2), show=20)
    ckpt = tmp_path / "run.ckpt"
    write = layers_dask._write_meta
    calls = []

    def die_instead(*args):
        calls.append(1)
        if len(calls) == 4:  # layer 3 merged everywhere, its folder removed, not yet noted
            raise Stop
        write(*args)

    monkeypatch.setattr(layers_dask, "_write_meta", die_instead)
    with pytest.raises(Stop):
        layers.search(space, run=RunOptions(scheduler=dask_cluster, checkpoint=str(ckpt)))
    monkeypatch.setattr(layers_dask, "_write_meta", write)
    assert layers_dask._read_meta(ckpt)["histogram"] == list(whole.histogram[:3])
    again = layers.search(space, run=RunOptions(scheduler=dask_cluster, checkpoint=str(ckpt)), show=20)
    assert again.resumed_at == 2
    assert (again.histogram, again.farthest) == (whole.histogram, whole.farthest)


def test_a_parts_folder_no_run_made_is_refused_before_the_cluster_is_asked(tmp_path):
    ckpt = tmp_path / "run.ckpt"
    run = RunOptions(scheduler="tcp://127.0.0.1:9", checkpoint=str(ckpt))  # nobody answers there
    parts = tmp_path / "run.ckpt.parts"

    def in_folder(p):
        p.mkdir()
        (p / "notes.txt").write_text("precious\n")

    for make, kept in ((in_folder, parts / "notes.txt"), (lambda p: p.write_text("precious\n"), parts)):
        make(parts)
        with pytest.raises(ValueError, match=r"run\.ckpt\.parts exists but no run with this checkpoint"):
            layers.search(pancakes(5), run=run)
        assert not ckpt.exists()
        assert kept.read_text() == "precious\n"
        shutil.rmtree(parts) if parts.is_dir() else parts.unlink()


@pytest.mark.slow
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
