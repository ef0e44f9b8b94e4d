"""The general engine: Nim, sums, winning moves, deep games, cycles."""

from __future__ import annotations

import itertools

import pytest

from puzzlesearch.games import ImpartialGame, Sum, impartial, mex


@impartial
def nim(heap: int) -> range:
    return range(heap)


def test_mex():
    assert mex([]) == 0
    assert mex([1, 2]) == 0
    assert mex([0, 1, 3]) == 2
    assert mex(iter([2, 0, 1])) == 3


def test_nim_heap_value_is_its_size():
    assert [nim.grundy(n) for n in range(40)] == list(range(40))


def test_sum_value_is_xor_of_parts():
    for a, b, c in itertools.product(range(7), repeat=3):
        assert nim.grundy(Sum(a, b, c)) == a ^ b ^ c
        assert nim.outcome(Sum(a, b, c)) == ("lose" if a ^ b ^ c == 0 else "win")


def test_nested_sums_flatten():
    assert nim.grundy(Sum(Sum(1, 2), Sum(Sum(4)), 8)) == 15


def test_winning_move_in_nim_sums_is_legal_and_wins():
    for heaps in itertools.product(range(6), repeat=3):
        move = nim.winning_move(Sum(*heaps))
        if heaps[0] ^ heaps[1] ^ heaps[2] == 0:
            assert move is None
            continue
        assert isinstance(move, Sum) and len(move) == 3
        changed = [k for k in range(3) if move[k] != heaps[k]]
        assert len(changed) == 1 and move[changed[0]] < heaps[changed[0]]
        assert nim.grundy(move) == 0


def test_options_that_are_sums_xor_their_parts():
    # Splitting Nim: take tokens, or split a heap in two (Lasker's Nim): values known
    # in closed form: 4k+1 -> 4k+1, 4k+2 -> 4k+2, 4k+3 -> 4k+4, 4k+4 -> 4k+3.
    @impartial
    def lasker(heap: int):
        yield from range(heap)
        for a in range(1, heap // 2 + 1):
            yield Sum(a, heap - a)

    for n in range(1, 60):
        expected = {1: n, 2: n, 3: n + 1, 0: n - 1}[n % 4]
        assert lasker.grundy(n) == expected


def test_kayles_through_the_engine_matches_published(load):
    @impartial
    def kayles(heap: int):
        for take in (1, 2):
            for a in range(0, (heap - take) // 2 + 1):
                b = heap - take - a
                if b >= 0:
                    yield Sum(a, b)

    assert [kayles.grundy(n) for n in range(72)] == load["grundy_kayles_077"]["first"]


def test_winning_move_single_position():
    @impartial
    def subtract_1_or_2(n: int):
        return [n - k for k in (1, 2) if n - k >= 0]

    assert subtract_1_or_2.winning_move(3) is None
    assert subtract_1_or_2.winning_move(4) == 3
    assert subtract_1_or_2.winning_move(5) == 3
    assert [subtract_1_or_2.grundy(n) for n in range(7)] == [0, 1, 2, 0, 1, 2, 0]


@pytest.mark.parametrize("depth", [10**5, pytest.param(10**6, marks=pytest.mark.slow)])
def test_a_million_moves_deep_needs_no_recursion(depth):
    chain = ImpartialGame(lambda n: [n - 1] if n > 0 else [], name="chain")
    assert chain.grundy(depth) == 0
    assert chain.grundy(depth - 1) == 1
    assert chain.cache_size == depth + 1


def test_positions_may_be_tuples_and_strings():
    @impartial
    def word(s: str):
        return [s[1:], s[:-1]] if s else []

    # both moves shorten the word by one letter, so the value is the length's parity
    assert [word.grundy("abcdef"[:k]) for k in range(7)] == [0, 1, 0, 1, 0, 1, 0]

    @impartial
    def pair(p: tuple[int, int]):
        a, b = p
        return [(a - 1, b)] * (a > 0) + [(a, b - 1)] * (b > 0)

    assert pair.grundy((2, 3)) == (2 + 3) % 2


def test_a_cycle_is_an_error():
    loop = ImpartialGame(lambda n: [(n + 1) % 3], name="loop")
    with pytest.raises(ValueError, match="reached from itself"):
        loop.grundy(0)


@pytest.fixture
def load():
    from conftest import load_data

    return load_data("games")


def test_module_example_runs():
    import doctest

    import puzzlesearch.games.general as module

    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
