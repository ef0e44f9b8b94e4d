"""Sprague–Grundy values: a general engine for impartial games and classic games.

`impartial` and `ImpartialGame` evaluate any finite impartial game given by its moves
(sums of independent games included); the tables of the built-in games (cutting game,
Cow Digit Game, popcount game, octal and hexadecimal games, Grundy's game, subtraction
games) are computed with numba, with the periods they prove; `position_moves` finds
winning moves in sums of heaps, and `octal_survey` surveys every octal game of a few
digits.
"""

from .api import (
    Answers,
    ImpartialGame,
    Move,
    OctalCode,
    PopcountValues,
    PositionMoves,
    SubtractionSet,
    SubtractionValues,
    Sum,
    Survey,
    SurveyRow,
    TakeBreakValues,
    cutting_answers,
    cutting_table,
    digits_answers,
    digits_table,
    grundys_values,
    hex_values,
    impartial,
    mex,
    octal_survey,
    octal_values,
    parse_hex,
    parse_octal,
    parse_subtraction,
    popcount_values,
    position_moves,
    subtraction_values,
)

__all__ = [
    "Answers",
    "ImpartialGame",
    "Move",
    "OctalCode",
    "PopcountValues",
    "PositionMoves",
    "SubtractionSet",
    "SubtractionValues",
    "Sum",
    "Survey",
    "SurveyRow",
    "TakeBreakValues",
    "cutting_answers",
    "cutting_table",
    "digits_answers",
    "digits_table",
    "grundys_values",
    "hex_values",
    "impartial",
    "mex",
    "octal_survey",
    "octal_values",
    "parse_hex",
    "parse_octal",
    "parse_subtraction",
    "popcount_values",
    "position_moves",
    "subtraction_values",
]
