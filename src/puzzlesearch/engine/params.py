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


__all__ = ["whole"]
