"""The public API of the Sprague-Grundy games: the general engine (from ``general``) and the
built-in games' tables. Each function checks its parameters and delegates to the module that
computes: ``judges`` (the cutting game, the Cow Digit Game), ``popcount``, ``takebreak``
(octal games, Grundy's game), ``hex``, ``subtraction``, ``position`` (sums of heaps) and
``survey``.

Each table function returns a numpy array (read-only) or a small frozen dataclass whose
values are a read-only numpy array (``.tolist()`` for plain lists). Every limit of the
`puzzlesearch grundy` commands is in ``limits``, and a refused parameter raises ValueError
with the line the command prints; sizes and memory are checked before anything is allocated.

    >>> from puzzlesearch.games import Sum, impartial, octal_values, grundys_values
    >>> @impartial
    ... def nim(heap):
    ...     return range(heap)
    >>> nim.grundy(Sum(3, 4, 5)), nim.winning_move(Sum(3, 4, 5))
    (2, Sum(1, 4, 5))
    >>> r = octal_values("0.77", 1000)
    >>> r.values[:12].tolist(), r.period, r.preperiod
    ([0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6], 12, 71)
    >>> grundys_values(21).values.tolist()
    [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0]
    >>> popcount_values(7, 64).values[-1]
    23734709
    >>> int(cutting_table(200)[4, 2]), int(digits_table(10**6)[10])
    (1, 0)
    >>> cutting_answers("2 2\\n3 2\\n4 2\\n").answers
    ('LOSE', 'LOSE', 'WIN')
    >>> subtraction_values("1,3,4", 20).period
    7
    >>> position_moves("0.77", "5,9,12").moves[0].position
    (2, 2, 9, 12)
    >>> grundys_values(0)
    Traceback (most recent call last):
    ...
    ValueError: --count must be between 1 and 1,000,000,000, got 0
"""

from __future__ import annotations

import numpy as np

from puzzlesearch.engine import figures
from puzzlesearch.engine.options import RunOptions, checked
from puzzlesearch.engine.params import flag, items, shown, whole

from . import hex as hexadecimal
from . import judges, pictures, popcount, position, subtraction, survey, takebreak
from .general import ImpartialGame, Sum, impartial, mex
from .judges import Answers
from .limits import (
    COUNT_MAX,
    CUTTING_MAX,
    CUTTING_TABLE_MAX,
    DIGITS_MAX,
    DIGITS_TABLE_MAX,
    HEAPS_MAX,
    HEX3_COUNT_MAX,
    POPCOUNT_BITS,
    SUBTRACTION_MAX,
    SUBTRACTION_SIZE_MAX,
    SURVEY_DIGITS_MAX,
    check_count,
    check_digits,
)
from .popcount import PopcountValues, popcount_value_bound
from .position import GRUNDYS, Move, PositionMoves, parse_game, parse_heaps
from .rules import OctalCode, SubtractionSet, parse_hex, parse_octal, parse_subtraction
from .subtraction import SubtractionValues
from .survey import Survey, SurveyRow
from .takebreak import TakeBreakValues

DEFAULT_RUN = RunOptions()  # frozen, so one shared default is safe


# ---------------------------------------------------------------- the judges' games


def cutting_table(n: int = CUTTING_MAX) -> np.ndarray:
    """G(w, h) of the cutting game for 2 <= w, h <= n (rows and columns 0, 1 unused).

    Args:
        n: The largest width and height, 2 to `CUTTING_MAX`.
    """
    n = whole(n, "cutting table size")
    if not 2 <= n <= CUTTING_TABLE_MAX:
        raise ValueError(f"cutting table size {n} outside 2..{CUTTING_TABLE_MAX}")
    return judges.cutting_table(n)


def digits_table(n_max: int = DIGITS_MAX, *, run: RunOptions = DEFAULT_RUN) -> np.ndarray:
    """G(n) of the Cow Digit Game for 0 <= n <= n_max; the first player wins iff G(n) > 0.

    Args:
        n_max: The largest number, 0 to 10^9.
        run: ``run.memory`` caps the memory; ``run.progress`` draws a bar.
    """
    n_max, run = whole(n_max, "digit game limit"), checked(run)
    if not 0 <= n_max <= DIGITS_TABLE_MAX:
        raise ValueError(f"digit game limit {n_max} outside 0..10^9")
    return judges.digits_table(n_max, run)


def cutting_answers(text: str) -> Answers:
    """POJ 2311's input answered WIN or LOSE, a line each.

    All of it is checked first: a bad line is a ValueError naming it.

    Args:
        text: The judge's input: lines "W H", 2 <= W, H <= 200.
    """
    return judges.cutting_answers(judges.read_sheets(text))


def digits_answers(text: str) -> Answers:
    """USACO 2009's input answered YES or NO, a number each.

    All of it is checked first: a bad line is a ValueError naming it.

    Args:
        text: The judge's input: G, then G numbers 1..1,000,000.
    """
    return judges.digits_answers(judges.read_numbers(text))


# ---------------------------------------------------------------- popcount game


def popcount_values(parts: int = 7, max_k: int = POPCOUNT_BITS) -> PopcountValues:
    """G(k) for k = 0..max_k set bits when a number becomes 1..parts numbers with fewer set
    bits.

    Args:
        parts: The most numbers a move leaves, at least 1.
        max_k: The most set bits, 0 to `POPCOUNT_BITS`.
    """
    parts, max_k = whole(parts, "--parts"), whole(max_k, "--max-k")
    if parts < 1:
        raise ValueError(f"--parts must be at least 1, got {parts}")
    if not 0 <= max_k <= POPCOUNT_BITS:
        raise ValueError(f"--max-k must be between 0 and {POPCOUNT_BITS}, got {max_k}")
    return popcount.popcount_values(parts, max_k)


# ---------------------------------------------------------------- take-and-break games


def octal_values(code: str | OctalCode, count: int = 1000, *, run: RunOptions = DEFAULT_RUN
                 ) -> TakeBreakValues:
    """Values of heaps 0..count-1 of an octal game, and its period if already proven.

    The period is the least p for which the octal periodicity theorem (Guy and Smith
    1956) applies within the computed values; `period` is None when none does yet.

    Args:
        code: The game's octal code ("0.77", "4.07") or a parsed one.
        count: The heaps to compute, 1 to `COUNT_MAX`.
        run: ``run.progress`` draws a bar on stderr when it is a terminal;
            ``run.memory`` caps the memory (2 bytes a heap, and 6 for each rare heap);
            ``run.checkpoint`` makes a long run resumable.
    """
    game = code if isinstance(code, OctalCode) else parse_octal(code)
    return takebreak.octal_values(game, check_count(count), checked(run))


def hex_values(code: str | OctalCode, count: int = 1000, *, run: RunOptions = DEFAULT_RUN) -> TakeBreakValues:
    """Values of heaps 0..count-1 of a hexadecimal take-and-break game (0.F, 4.8, ...),
    and its period once proven.

    Without a digit with bit 8 the code is an octal game and goes through
    `octal_values`' engine; with one (leave three heaps), by the plain mex.

    Args:
        code: The game's hexadecimal code ("0.F", "4.8") or a parsed one.
        count: The heaps to compute (at most `HEX3_COUNT_MAX` for a game that leaves
            three heaps).
        run: The progress bar, memory cap and checkpoint, as for `octal_values`.
    """
    game = code if isinstance(code, OctalCode) else parse_hex(code)
    count, run = check_count(count), checked(run)
    if hexadecimal.leaves_three(game) and count > HEX3_COUNT_MAX:
        raise ValueError(f"--count must be at most {HEX3_COUNT_MAX:,} for a game that leaves three heaps "
                         f"(its time grows as the square of the count), got {count:,}")
    return hexadecimal.hex_values(game, count, run)


def grundys_values(count: int = 1000, *, run: RunOptions = DEFAULT_RUN) -> TakeBreakValues:
    """Values of heaps 0..count-1 of Grundy's game (split a heap into two unequal heaps).

    Args:
        count: The heaps to compute, 1 to `COUNT_MAX`.
        run: The progress bar, memory cap and checkpoint, as for `octal_values`.
    """
    return takebreak.grundys_values(check_count(count), checked(run))


# ---------------------------------------------------------------- subtraction games


def subtraction_values(moves: str | SubtractionSet, count: int = 1000, *, run: RunOptions = DEFAULT_RUN
                       ) -> SubtractionValues:
    """Values of heaps 0..count-1 of the subtraction game `moves` ('1,3,4' or a parsed set),
    and its period and preperiod once a window of max(S) values repeats within them.

    Args:
        moves: The subtraction set ("1,3,4") or a parsed one.
        count: The heaps to compute, 1 to `COUNT_MAX`.
        run: ``run.memory`` caps the memory (4 bytes a heap); the progress bar and
            checkpoint as for `octal_values`.
    """
    game = moves if isinstance(moves, SubtractionSet) else parse_subtraction(moves)
    return subtraction.subtraction_values(game, check_count(count), checked(run))


def check_plot(filename: str) -> None:
    """Check, before the work, that a picture can be saved into a file.

    Args:
        filename: The image file.

    Raises:
        ValueError: The file cannot be written, or its suffix names no image format.
        ImportError: matplotlib is not installed.
    """
    figures.check_plot(filename)


def plot(result: TakeBreakValues | SubtractionValues, filename: str) -> None:
    """Draw a table of values into an image file: G(n) against n, the rare heaps and
    the start of the period marked. A table draws itself so in a notebook.

    Check the file first with `check_plot`.

    Args:
        result: The values, from `octal_values`, `hex_values`, `grundys_values` or
            `subtraction_values`.
        filename: The image file, in the format its suffix names.

    Raises:
        OSError: The file cannot be written.
        ValueError: The suffix names no image format.
    """
    figures.save(pictures.values_figure(result), filename)


# ---------------------------------------------------------------- sums of heaps


def position_moves(game: str | position.Game, heaps: str | tuple[int, ...], *, all_moves: bool = False,
                   run: RunOptions = DEFAULT_RUN) -> PositionMoves:
    """The value and outcome of a sum of heaps of one game, and a winning move when the
    player to move wins.

    Args:
        game: The game as ``grundy move`` reads it ("0.77", "hex:0.F", "grundys",
            "sub:1,3,4"), or a parsed code.
        heaps: The heaps: "3,5,7" or a sequence of whole numbers.
        all_moves: List every winning move, not one.
        run: The memory cap and progress of the table of values the answer needs.
    """
    if isinstance(game, str):
        game = parse_game(game)
    elif not isinstance(game, (OctalCode, SubtractionSet)):
        raise TypeError(f"game must be a game's text (0.77, hex:0.F, grundys, sub:1,3,4) or a parsed code, "
                        f"got {shown(game)}")
    if not isinstance(heaps, str):
        heaps = ",".join(str(whole(h, "--heaps: a heap")) for h in items(heaps, "--heaps"))
    heaps = parse_heaps(heaps)
    all_moves, run = flag(all_moves, "all_moves"), checked(run)
    if isinstance(game, OctalCode) and hexadecimal.leaves_three(game) and max(heaps) >= HEX3_COUNT_MAX:
        raise ValueError(f"--heaps: a game that leaves three heaps takes heaps up to "
                         f"{HEX3_COUNT_MAX - 1:,}, got {max(heaps):,}")
    return position.position_moves(game, heaps, all_moves, run)


# ---------------------------------------------------------------- survey of octal games


def octal_survey(digits: int = 2, count: int = 1000, *, run: RunOptions = DEFAULT_RUN) -> Survey:
    """Every octal code with 1..digits digits after the point (first digit 0), each to
    `count` heaps: its period and preperiod when proven, largest value and rare heaps.

    Rows come from the results store where it has them; the others are computed as
    tasks and then kept there.

    Args:
        digits: The most digits after the point, 1 to `SURVEY_DIGITS_MAX`.
        count: The heaps of each game, 1 to `COUNT_MAX`.
        run: The workers, scheduler, checkpoint, results store and progress.
    """
    return survey.octal_survey(check_digits(digits), check_count(count), checked(run))


__all__ = [
    "COUNT_MAX", "CUTTING_MAX", "DIGITS_MAX", "GRUNDYS", "HEAPS_MAX", "HEX3_COUNT_MAX", "POPCOUNT_BITS",
    "SUBTRACTION_MAX", "SUBTRACTION_SIZE_MAX", "SURVEY_DIGITS_MAX",
    "Answers", "ImpartialGame", "Move", "OctalCode", "PopcountValues", "PositionMoves", "SubtractionSet",
    "SubtractionValues", "Sum", "Survey", "SurveyRow", "TakeBreakValues",
    "check_count", "cutting_answers", "cutting_table", "digits_answers", "digits_table",
    "grundys_values",
    "hex_values", "impartial", "mex", "octal_survey", "octal_values", "parse_game", "parse_heaps",
    "parse_hex", "parse_octal", "parse_subtraction", "popcount_value_bound", "popcount_values",
    "position_moves", "subtraction_values",
]
