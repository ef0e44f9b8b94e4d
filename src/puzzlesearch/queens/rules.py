"""N-Queens in plain Python: the rules, the eight symmetries, and a reference backtracker.

Place n queens on an n x n board so that no two share a row, a column or a diagonal.
A board is written as its columns, one per row: ``board[r]`` is the column (0-based) of
row r's queen, so two queens never share a row by construction. The symmetries of the
square (4 rotations, 4 reflections) map solutions to solutions; "unique" solutions count
one per class. This module is the reference the fast kernels are tested against: it is
meant to be read against the puzzle statement, not to be fast.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping


class Board(tuple[int, ...]):
    """A board: ``board[r]`` is the column (0-based) of row r's queen.

    A tuple in all but one way: equal to the tuple of its columns, printed and written to
    JSON as that tuple; a notebook shows it as a chess board (pictures.py).
    """

    __slots__ = ()

    def _repr_svg_(self) -> str | None:
        """The board as a picture (None without matplotlib, or beyond pictures.MAX_N)."""
        from puzzlesearch.engine import figures
        from puzzlesearch.queens import pictures

        if len(self) > pictures.MAX_N:
            return None
        return figures.notebook_svg(pictures.board_figure, self)


# The 8 symmetries of the square as (transpose, flip rows, flip columns), applied in that
# order to every queen (r, c). Index 0 is the identity; the kernels use the same numbering.
SYMMETRIES = [(t, fr, fc) for t in (False, True) for fr in (False, True) for fc in (False, True)]


def attacks(r1: int, c1: int, r2: int, c2: int) -> bool:
    """Do queens on (r1, c1) and (r2, c2) attack each other (same row, column or diagonal)?"""
    return r1 == r2 or c1 == c2 or abs(r1 - r2) == abs(c1 - c2)


def is_solution(board: Board, n: int) -> bool:
    """n queens, one per row, on the board, no two attacking."""
    if len(board) != n or any(not 0 <= c < n for c in board):
        return False
    return not any(
        attacks(r1, board[r1], r2, board[r2]) for r1 in range(n) for r2 in range(r1 + 1, n)
    )


def map_square(r: int, c: int, n: int, symmetry: int) -> tuple[int, int]:
    """Where symmetry number `symmetry` (see SYMMETRIES) takes the square (r, c)."""
    transpose, flip_rows, flip_cols = SYMMETRIES[symmetry]
    if transpose:
        r, c = c, r
    if flip_rows:
        r = n - 1 - r
    if flip_cols:
        c = n - 1 - c
    return r, c


def transform(board: Board, symmetry: int) -> Board:
    """The image of a full board (a permutation) under one of the 8 symmetries."""
    n = len(board)
    image = [0] * n
    for r, c in enumerate(board):
        r2, c2 = map_square(r, c, n, symmetry)
        image[r2] = c2
    return Board(image)


def images(board: Board) -> list[Board]:
    """All 8 images of a board (with repeats when the board is symmetric)."""
    return [transform(board, s) for s in range(8)]


def canonical(board: Board) -> Board:
    """The representative of the board's class: its lexicographically smallest image."""
    return min(images(board))


def solutions(n: int, fixed: Mapping[int, int] | None = None) -> Iterator[Board]:
    """All solutions in lexicographic order, keeping any `fixed` {row: column} queens.

    Plain bitboard backtracking: ``down`` holds the used columns, ``left``/``right`` the
    squares attacked along the two diagonals in the current row.
    """
    fixed = dict(fixed or {})
    full = (1 << n) - 1
    board: list[int] = []

    def place(row: int, left: int, down: int, right: int) -> Iterator[Board]:
        if row == n:
            yield Board(board)
            return
        free = full & ~(left | down | right)
        if row in fixed:
            free &= 1 << fixed[row]
        while free:
            bit = free & -free
            free ^= bit
            board.append(bit.bit_length() - 1)
            yield from place(row + 1, ((left | bit) << 1) & full, down | bit, (right | bit) >> 1)
            board.pop()

    yield from place(0, 0, 0, 0)


def count(n: int) -> tuple[int, int]:
    """(all solutions, solutions up to symmetry) by listing every solution: the slow reference."""
    total = 0
    classes = set()
    for board in solutions(n):
        total += 1
        classes.add(canonical(board))
    return total, len(classes)


def count_bitboard(n: int) -> int:
    """Q(n) by plain bitboard backtracking without symmetry: the Python speed baseline."""
    full = (1 << n) - 1
    found = 0
    stack = [(0, 0, 0)]
    while stack:
        left, down, right = stack.pop()
        if down == full:
            found += 1
            continue
        free = full & ~(left | down | right)
        while free:
            bit = free & -free
            free ^= bit
            stack.append((((left | bit) << 1) & full, down | bit, (right | bit) >> 1))
    return found
