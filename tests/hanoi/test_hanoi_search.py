"""Breadth-first search: the kernel against a plain BFS, Frame-Stewart against the BFS, and the
largest-disc rule against the BFS between arbitrary positions."""

import itertools
import random
from collections import deque

import pytest

from puzzlesearch import hanoi
from puzzlesearch.hanoi import bfs, rules, threepeg


def plain_bfs(source, pegs):
    dist = {source: 0}
    queue = deque([source])
    while queue:
        here = queue.popleft()
        for move in rules.legal_moves(here, pegs):
            there = rules.apply_move(here, move)
            if there not in dist:
                dist[there] = dist[here] + 1
                queue.append(there)
    return dist


def kernel_bfs(source, pegs):
    n = len(source)
    dist, _, stats = bfs.search(n, pegs, bfs.encode(source, pegs))
    return dist, stats


@pytest.mark.parametrize("n,pegs", [(0, 3), (1, 3), (4, 3), (5, 3), (3, 4), (5, 4), (3, 5), (4, 6)])
def test_kernel_bfs_equals_plain_bfs(n, pegs):
    rng = random.Random(n * 10 + pegs)
    source = tuple(rng.randrange(pegs) for _ in range(n))
    expected = plain_bfs(source, pegs)
    dist, (reached, far, at_far) = kernel_bfs(source, pegs)
    assert reached == len(expected) == pegs**n
    for position, d in expected.items():
        assert dist[bfs.encode(position, pegs)] == d
        assert bfs.decode(bfs.encode(position, pegs), n, pegs) == position
    assert far == max(expected.values())
    assert at_far == sum(1 for d in expected.values() if d == far)


@pytest.mark.parametrize("n", range(0, 9))
def test_bfs_agrees_with_frame_stewart_for_four_pegs(n):
    v = hanoi.verify(n, 4)
    assert v.reached == v.positions == 4**n
    assert v.bfs_moves == v.frame_stewart == hanoi.count(n, 4)
    assert v.agree and v.sequence_ok


@pytest.mark.parametrize("n,pegs", [(5, 5), (6, 5), (5, 6), (9, 3)])
def test_bfs_agrees_with_frame_stewart_for_other_pegs(n, pegs):
    v = hanoi.verify(n, pegs)
    assert v.agree and v.sequence_ok and v.bfs_moves == hanoi.count(n, pegs)


@pytest.mark.parametrize("n,pegs", [(2, 4), (3, 4), (4, 3), (3, 5)])
def test_diameter_equals_all_pairs_plain_bfs(n, pegs):
    positions = list(itertools.product(range(pegs), repeat=n))
    expected = max(max(plain_bfs(p, pegs).values()) for p in positions)
    v = hanoi.verify(n, pegs, diameter=True)
    assert v.diameter == expected
    assert v.diameter_sources == bfs.canonical_count(n, pegs)


@pytest.mark.parametrize("n", range(1, 6))
def test_largest_disc_rule_equals_bfs_for_all_pairs(n):
    for source in itertools.product(range(3), repeat=n):
        dist, _ = kernel_bfs(source, 3)
        for index in range(3**n):
            target = bfs.decode(index, n, 3)
            assert threepeg.distance(source, target) == dist[index], (source, target)


@pytest.mark.parametrize("n", [6, 7])
def test_largest_disc_rule_equals_bfs_from_sampled_sources(n):
    rng = random.Random(n)
    for _ in range(25):
        source = tuple(rng.randrange(3) for _ in range(n))
        dist, _ = kernel_bfs(source, 3)
        for index in range(3**n):
            target = bfs.decode(index, n, 3)
            assert threepeg.distance(source, target) == dist[index], (source, target)


@pytest.mark.parametrize("n", [1, 3, 6, 7])
def test_paths_between_positions_replay_to_the_goal_with_the_distance(n):
    rng = random.Random(n + 100)
    for _ in range(40):
        a = rules.format_position(rng.randrange(3) for _ in range(n))
        b = rules.format_position(rng.randrange(3) for _ in range(n))
        found, moves = hanoi.path(a, b)
        sequence = list(moves)
        assert len(sequence) == found.moves == hanoi.distance(a, b).moves
        assert rules.format_position(rules.replay(rules.parse_position(a, 3), sequence, 3)) == b


def test_moving_the_largest_disc_twice_can_be_shorter():
    # ABB -> BAA: disc 3 straight to B costs 3 + 1 + 3 = 7; via C (A -> C, discs 1-2 B -> A,
    # C -> B) costs 1 + 3 + 1 = 5
    found, moves = hanoi.path("ABB", "BAA")
    sequence = list(moves)
    assert found.moves == len(sequence) == 5
    assert [m for m in sequence if m[0] == 3] == [(3, 0, 2), (3, 2, 1)]
    assert plain_bfs(rules.parse_position("ABB", 3), 3)[rules.parse_position("BAA", 3)] == 5


def test_more_pegs_between_positions_by_bfs():
    for a, b in [("ABDDCA", "DDDDDD"), ("DCBA", "ABCD"), ("AAAAA", "DDDDD")]:
        found, moves = hanoi.path(a, b, 4)
        sequence = list(moves)
        assert found.method == "breadth-first search"
        expected = plain_bfs(rules.parse_position(a, 4), 4)[rules.parse_position(b, 4)]
        assert len(sequence) == found.moves == expected
        assert rules.format_position(rules.replay(rules.parse_position(a, 4), sequence, 4)) == b


def test_bfs_refuses_too_many_positions():
    with pytest.raises(ValueError, match="beyond the limit of 16,777,216"):
        hanoi.verify(13, 4, diameter=True)  # the queue search of the diameter
    with pytest.raises(ValueError, match="beyond the limit of 1,099,511,627,776"):
        hanoi.verify(21, 4)  # the 2-bit search from the tower
