"""Sprague–Grundy values: a general engine for impartial games and classic games.

``impartial`` / ``ImpartialGame`` evaluate any finite impartial game given by its
moves (sums of independent games included); the tables of the built-in games (cutting
game, Cow Digit Game, popcount game, octal games, Grundy's game) are computed with
numba. The API is in ``api`` (re-exported here).
"""

from .api import (
    Answers,
    ImpartialGame,
    OctalCode,
    PopcountValues,
    Sum,
    TakeBreakValues,
    cutting_answers,
    cutting_table,
    digits_answers,
    digits_table,
    grundys_values,
    impartial,
    mex,
    octal_values,
    parse_octal,
    popcount_values,
)

__all__ = [
    "Answers",
    "ImpartialGame",
    "OctalCode",
    "PopcountValues",
    "Sum",
    "TakeBreakValues",
    "cutting_answers",
    "cutting_table",
    "digits_answers",
    "digits_table",
    "grundys_values",
    "impartial",
    "mex",
    "octal_values",
    "parse_octal",
    "popcount_values",
]
