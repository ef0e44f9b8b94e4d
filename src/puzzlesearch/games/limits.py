"""Every limit of the games, each written once, with the checks of the parameters they bound
(in the words the command line prints), and the bytes each table takes per heap, which the
memory cap is checked with before anything is allocated.

This module imports no numba, so that checking a parameter costs nothing; the kernels read
their limits from here.
"""

from __future__ import annotations

from puzzlesearch.engine.params import whole

# ---------------------------------------------------------------- the judges' games

#: the judge's largest sheet side (POJ 2311)
CUTTING_MAX = 200
#: the largest table cutting_table computes
CUTTING_TABLE_MAX = 4000
#: the judge's largest N (USACO 2009)
DIGITS_MAX = 1_000_000
#: the largest table digits_table computes (1 byte a value)
DIGITS_TABLE_MAX = 10**9
#: the judge's G: numbers on stdin
DIGITS_GAMES_MAX = 10**7

# ---------------------------------------------------------------- popcount game

#: a number has at most 64 set bits
POPCOUNT_BITS = 64
#: bytes for the bitmaps of reachable XORs (7 parts need 32 MiB)
POPCOUNT_MEMORY = 1 << 28

# ---------------------------------------------------------------- tables of heaps

#: heaps of an octal game, Grundy's game or a subtraction game (2 bytes each and the rare
#: heaps: about 2 GiB)
COUNT_MAX = 10**9
#: take-and-break values must stay below this (the classic games stay far below it)
VALUE_LIMIT = 1 << 15
#: bytes per heap of a take-and-break computation: its value (uint16); the rare heaps take
#: RARE_BYTES more each, in arrays that grow (checked against the cap as they do)
HEAP_BYTES = 2
#: bytes a rare heap takes: its number (int32) and its value (uint16)
RARE_BYTES = 6
#: the arrays indexed by value: stamp and hist (int64)
VALUE_BYTES = 16 * (VALUE_LIMIT + 1)

#: heaps of a game with 3-heap splits (time grows as count^2)
HEX3_COUNT_MAX = 100_000
#: values of a game with 3-heap splits must stay below this (bitmaps of HEX_WORDS words)
HEX_VALUE_LIMIT = 1 << 10
HEX_WORDS = HEX_VALUE_LIMIT // 64
#: bytes per heap of a game with 3-heap splits: g (int32) and two bitmaps of reachable values
HEX3_HEAP_BYTES = 4 + 16 * HEX_WORDS

#: the largest number of tokens a subtraction move may remove, and the most moves a set may have
SUBTRACTION_MAX = 1_000_000
SUBTRACTION_SIZE_MAX = 1000
#: bytes per heap of a subtraction game: g (int32)
SUBTRACTION_HEAP_BYTES = 4

#: the most heaps in a position (`grundy move`)
HEAPS_MAX = 10_000

#: the most digits after the point of a survey: 4 digits are 4,095 games (5 would be 32,767)
SURVEY_DIGITS_MAX = 4


def check_count(count: object) -> int:
    """--count: the number of heaps, 1..COUNT_MAX."""
    count = whole(count, "--count")
    if not 1 <= count <= COUNT_MAX:
        raise ValueError(f"--count must be between 1 and {COUNT_MAX:,}, got {count:,}")
    return count


def check_digits(digits: object) -> int:
    """--digits of a survey: 1..SURVEY_DIGITS_MAX."""
    digits = whole(digits, "--digits")
    if not 1 <= digits <= SURVEY_DIGITS_MAX:
        raise ValueError(f"--digits must be between 1 and {SURVEY_DIGITS_MAX} "
                         f"({SURVEY_DIGITS_MAX} digits: {8**SURVEY_DIGITS_MAX - 1:,} games), got {digits}")
    return digits


__all__ = [
    "COUNT_MAX", "CUTTING_MAX", "CUTTING_TABLE_MAX", "DIGITS_GAMES_MAX", "DIGITS_MAX", "DIGITS_TABLE_MAX",
    "HEAPS_MAX", "HEAP_BYTES", "HEX3_COUNT_MAX", "HEX3_HEAP_BYTES", "HEX_VALUE_LIMIT", "HEX_WORDS",
    "POPCOUNT_BITS", "POPCOUNT_MEMORY", "RARE_BYTES", "SUBTRACTION_HEAP_BYTES", "SUBTRACTION_MAX",
    "SUBTRACTION_SIZE_MAX", "SURVEY_DIGITS_MAX", "VALUE_BYTES", "VALUE_LIMIT", "check_count", "check_digits",
]
