"""Checks of parameters that every puzzle's API shares, in the words the CLI prints."""

from __future__ import annotations

import operator


def whole(value: object, what: str) -> int:
    """`value` as an int: ints and numpy ints, not bools, 3.0 or '3' (ValueError naming `what`)."""
    if isinstance(value, bool):
        raise ValueError(f"{what} must be a whole number, got {value!r}")
    try:
        return int(operator.index(value))
    except TypeError:
        raise ValueError(f"{what} must be a whole number, got {value!r}") from None


def digits_text(digits: str) -> str:
    """A number as typed, for a one-line message: whole up to 20 digits, else its ends and
    its length, so a value is never shown cut short as if it were another number."""
    return digits if len(digits) <= 20 else f"{digits[:8]}...{digits[-4:]} ({len(digits)} digits)"


__all__ = ["digits_text", "whole"]
