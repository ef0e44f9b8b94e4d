"""engine.memory: --memory parsed, sizes refused before allocation, sizes written for people."""

from __future__ import annotations

import math

import pytest

from puzzlesearch.engine import memory
from puzzlesearch.engine.memory import MAX_BUDGET, cap, check_budget, default_cap, from_gib, gib, require

GIB = 2**30


@pytest.mark.parametrize(
    ("value", "expected"),
    [("1", GIB), ("0.5", GIB // 2), (2, 2 * GIB), (" 3 ", 3 * GIB), ("1e3", 1000 * GIB),
     (1 << 20, MAX_BUDGET)],
)
def test_from_gib_takes_positive_finite_sizes(value, expected):
    assert from_gib(value) == expected


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("inf", "at most 1,048,576 GiB, got inf"),
        ("-inf", "positive number of GiB, got -inf"),
        ("Infinity", "at most 1,048,576 GiB"),
        ("1e400", "at most 1,048,576 GiB, got 1e400"),
        (10**400, "at most 1,048,576 GiB, got a number of 401 digits"),  # an int too large for a float
        pytest.param(10**5000, "got a number of 5001 digits", id="10**5000"),  # too long even for str()
        (float("inf"), "at most 1,048,576 GiB"),
        ("nan", "a number of GiB, got nan"),
        (float("nan"), "a number of GiB, got nan"),
        ("-1", "positive number of GiB, got -1"),
        ("0", "positive number of GiB, got 0"),
        ("-0.0", "positive number of GiB"),
        ("1048577", "at most 1,048,576 GiB"),
        ("1e-12", "at least one byte"),
        ("lots", "a number of GiB, got 'lots'"),
        ("", "a number of GiB, got ''"),
        ("4GiB", "a number of GiB, got '4GiB'"),
        (None, "a number of GiB, got None"),
    ],
)
def test_from_gib_refuses_in_one_line(value, words):
    with pytest.raises(ValueError) as e:
        from_gib(value)
    message = str(e.value)
    assert message.startswith("--memory must be ") and words in message
    assert "\n" not in message and len(message) < 100


def test_check_budget():
    assert check_budget(1) == 1 and check_budget(MAX_BUDGET) == MAX_BUDGET
    for bad in (0, -5, MAX_BUDGET + 1, True, 1.0, "8"):
        with pytest.raises(ValueError, match="memory cap must be between 1 byte and 1.0 PiB"):
            check_budget(bad)


def test_require_says_what_and_how_much(monkeypatch):
    require(5 * GIB, 5 * GIB, "a search")  # exactly the cap is allowed
    with pytest.raises(ValueError) as e:
        require(5.8 * GIB, 3 * GIB, "full BFS of shuffle n=7")
    assert str(e.value) == "full BFS of shuffle n=7 needs 5.8 GiB, more than 3.0 GiB, the --memory cap"

    monkeypatch.setattr(memory, "available_bytes", lambda: 10 * GIB)
    assert default_cap() == 9 * GIB and cap(None) == 9 * GIB and cap(GIB) == GIB
    require(9 * GIB, None, "a search")
    with pytest.raises(ValueError) as e:
        require(9 * GIB + 1, None, "pancake god -n 20")
    assert str(e.value) == (
        "pancake god -n 20 needs 9.0 GiB, more than 9.0 GiB, the memory available now (cap it with --memory)"
    )


def test_require_absurd_sizes_without_overflow():
    # 20! * 2 bytes, a Python int far beyond any float, inf and nan: refused, never an OverflowError
    for need, shown in [
        (2265816562.0 * GIB, "needs 2.1 EiB"),
        (2 * math.factorial(20), "needs 4.2 EiB"),
        (math.factorial(100_000), "needs more than 10^456573 bytes"),
        (math.inf, "needs an unbounded amount"),
        (math.nan, "needs an unknown amount"),
    ]:
        with pytest.raises(ValueError) as e:
            require(need, GIB, "X")
        assert shown in str(e.value), str(e.value)


@pytest.mark.parametrize(
    ("nbytes", "text"),
    [
        (0, "0 bytes"),
        (1023, "1023 bytes"),
        (1024, "1 KiB"),
        (96 * 2**20, "96 MiB"),
        (5.8 * GIB, "5.8 GiB"),
        (1000 * GIB, "1000.0 GiB"),
        (1024 * GIB, "1.0 TiB"),
        (3 * 2**50, "3.0 PiB"),
        (2265816562.0 * GIB, "2.1 EiB"),  # pancake god -n 20: not "2265816562.0 GiB"
        (1023 * 2**60, "1023.0 EiB"),
        (2**70, "more than 10^21 bytes"),
        (10**400, "more than 10^400 bytes"),
        (1e300, "more than 10^300 bytes"),
        (math.inf, "an unbounded amount"),
        (math.nan, "an unknown amount"),
    ],
)
def test_gib_is_for_people(nbytes, text):
    assert gib(nbytes) == text


def test_gib_never_prints_a_long_figure():
    for k in range(0, 1400, 7):
        text = gib(2**k)
        figure = text.split()[0] if not text.startswith("more") else "0"
        assert len(figure) <= 6, text


def test_available_bytes_is_plausible():
    assert 1 << 20 < memory.available_bytes() < 1 << 62


def test_a_cap_above_the_machine_refuses_what_the_machine_cannot_hold(monkeypatch):
    monkeypatch.setattr(memory, "physical_bytes", lambda: 24 << 30)
    with pytest.raises(ValueError, match=r"^the count needs 48.0 GiB, more than the 24.0 GiB of memory this "
                                         r"machine has \(--memory 100.0 GiB is more than there is\)$"):
        memory.require(48 << 30, 100 << 30, "the count")
    memory.require(20 << 30, 100 << 30, "the count")  # what fits the machine runs
    with pytest.raises(ValueError, match="more than 2.0 GiB, the --memory cap"):
        memory.require(48 << 30, 2 << 30, "the count")  # a cap below the machine: the cap's words


def test_physical_memory_is_at_least_what_is_available():
    assert memory.physical_bytes() >= memory.available_bytes() > 0


def test_a_refusal_for_memory_is_a_plain_value_error_that_says_so():
    with pytest.raises(ValueError) as refused:
        require(2 * 2**30, 2**30, "the table")
    assert type(refused.value) is ValueError  # what the API documents, and tracebacks show
    assert memory.refused_for_memory(refused.value)
    assert not memory.refused_for_memory(ValueError("-n must be positive"))
