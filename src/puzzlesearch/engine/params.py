"""Checks of parameters that every puzzle's API shares, in the words the CLI prints.

Each check returns the value as the library uses it, or raises in one line naming the
argument: ValueError for a number that is not one (the command line reads numbers from
text, so "3.5" for a whole number is a wrong value there), TypeError for an argument of
another kind (a list where text is expected, a number where a sequence is). A bool is
not a number here: ``n=True`` is a mistake, not 1.
"""

from __future__ import annotations

import numbers
import operator
import os
import re
from collections.abc import Iterable, Sequence

#: characters of a wrong value a message shows (a message stays one short line)
SHOWN = 40


def shown(value: object) -> str:
    """A value as a message shows it: its repr, cut to SHOWN characters."""
    text = repr(value)
    return text if len(text) <= SHOWN else f"{text[:SHOWN - 3]}..."


def whole(value: object, what: str) -> int:
    """`value` as an int: ints and numpy ints, not bools, 3.0 or '3' (ValueError naming `what`)."""
    if isinstance(value, bool):
        raise ValueError(f"{what} must be a whole number, got {shown(value)}")
    try:
        return int(operator.index(value))
    except TypeError:
        raise ValueError(f"{what} must be a whole number, got {shown(value)}") from None


def whole_or_none(value: object, what: str) -> int | None:
    """None, or `value` as by `whole`."""
    return None if value is None else whole(value, what)


#: seeds are 63-bit (the kernels' generators take 64 bits; a negative or longer one is a typo)
SEED_MAX = 2**63 - 1


def seed(value: object, what: str = "--seed") -> int:
    """A random seed: a whole number 0..SEED_MAX."""
    value = whole(value, what)
    if not 0 <= value <= SEED_MAX:
        raise ValueError(f"{what} must be between 0 and {SEED_MAX}, got {digits_text(str(value))}")
    return value


def number(value: object, what: str) -> float:
    """`value` as a float: ints, floats and numpy numbers, not bools or text (ValueError)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{what} must be a number, got {shown(value)}")
    return float(value)


def flag(value: object, what: str) -> bool:
    """True or False (numpy's bools too); anything else is a TypeError naming `what`."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return bool(value)
    raise TypeError(f"{what} must be True or False, got {shown(value)}")


def text(value: object, what: str) -> str:
    """A str; anything else (bytes, numbers, lists) is a TypeError naming `what`."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be text (a str), got {shown(value)}")
    return value


def text_or_none(value: object, what: str) -> str | None:
    return None if value is None else text(value, what)


def file_name(value: object, what: str) -> str:
    """A file's name: a str or a path (os.PathLike) naming one; TypeError otherwise."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a file name (a str or a path), got {shown(value)}")
    return value


def choice(value: object, choices: Iterable[str], what: str) -> str:
    """One of `choices` (strings); ValueError listing them otherwise."""
    choices = tuple(choices)
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{what} must be one of {', '.join(choices)}, got {shown(value)}")
    return value


def items(value: object, what: str) -> list:
    """The items of a list, tuple or other sequence, or of an iterator, for checking one by
    one; text, bytes, mappings, sets and scalars are TypeErrors naming `what`."""
    if isinstance(value, (str, bytes, bytearray, dict)) or not isinstance(value, Iterable) \
            or isinstance(value, (set, frozenset)):
        raise TypeError(f"{what} must be a sequence, got {shown(value)}")
    return list(value)


def wholes(value: object, what: str) -> tuple[int, ...]:
    """A sequence of whole numbers (see `items`, `whole`)."""
    return tuple(whole(v, f"{what}: an item") for v in items(value, what))


def pairs(value: object, what: str) -> list[tuple[int, int]]:
    """A sequence of pairs of whole numbers, e.g. [(0, 3), (2, 1)]."""
    found = []
    for item in items(value, what):
        if not isinstance(item, Sequence) or isinstance(item, (str, bytes)) or len(item) != 2:
            raise TypeError(f"{what} must be pairs of whole numbers, got {shown(item)} in it")
        found.append((whole(item[0], f"{what}: a pair"), whole(item[1], f"{what}: a pair")))
    return found


def plural(count: int, word: str, words: str | None = None) -> str:
    """`word` for a count of 1, else `words` (default: `word` + "s"): "1 step", "2 steps"."""
    return word if count == 1 else words or f"{word}s"


def listed(names: list[str]) -> str:
    """Names in words: "a", "a and b", "a, b and c"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


#: digits a number keeps in a line of output, with its commas (39 characters); a longer one
#: is shown by its ends and its length
LONG_DIGITS = 30


def number_text(value: int) -> str:
    """A whole number for people: with commas up to LONG_DIGITS digits, beyond that its ends
    and its length ("34772897...0000 (1167 digits)"), so that a line stays a line."""
    digits = str(abs(value))
    text = f"{abs(value):,}" if len(digits) <= LONG_DIGITS else digits_text(digits)
    return f"-{text}" if value < 0 else text


#: a count in a text, written with thousands separators (a number as typed, without them, is
#: the user's own and is quoted whole or by digits_text where it is refused)
_NUMBER = re.compile(r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?![\w.]|,\d)")


def short_numbers(text: str) -> str:
    """`text` with every count of more than LONG_DIGITS digits (written with commas) shortened
    as `number_text` shortens it: a message or a line of output stays one readable line."""

    def shorten(m: re.Match) -> str:
        digits = m.group().replace(",", "")
        return m.group() if len(digits) <= LONG_DIGITS else digits_text(digits)

    return _NUMBER.sub(shorten, text)


def digits_text(digits: str) -> str:
    """A number as typed, for a one-line message: whole up to 20 digits, else its ends and
    its length, so a value is never shown cut short as if it were another number."""
    return digits if len(digits) <= 20 else f"{digits[:8]}...{digits[-4:]} ({len(digits)} digits)"


__all__ = ["LONG_DIGITS", "SEED_MAX", "choice", "digits_text", "file_name", "flag", "items", "listed",
           "number", "number_text", "pairs", "plural", "seed", "short_numbers", "shown", "text",
           "text_or_none",
           "whole", "whole_or_none", "wholes"]
