"""Sprague–Grundy values: a general engine for impartial games and classic games.

``impartial`` / ``ImpartialGame`` evaluate any finite impartial game given by its
moves (sums of independent games included); ``tables`` computes the built-in games
(cutting game, Cow Digit Game, popcount game, octal games, Grundy's game) with numba.
"""

from .general import ImpartialGame, Sum, impartial, mex
from .rules import OctalCode, parse_octal
from .tables import (
    PopcountValues,
    TakeBreakValues,
    cutting_table,
    digits_table,
    grundys_values,
    octal_values,
    popcount_values,
)

__all__ = [
    "ImpartialGame",
    "OctalCode",
    "PopcountValues",
    "Sum",
    "TakeBreakValues",
    "cutting_table",
    "digits_table",
    "grundys_values",
    "impartial",
    "mex",
    "octal_values",
    "parse_octal",
    "popcount_values",
]
