"""The solutions fixed by a rotation: R90(n) (OEIS A033148) and R180(n) (OEIS A032522).

R90 is checked against the published A033148. R180 is derived from published values by
Burnside's lemma: no solution of a board n >= 2 is fixed by a reflection (the kernel
module's docstring says why), so U(n) = (Q(n) + 2 R90(n) + R180(n)) / 8 and
R180(n) = 8 U(n) - Q(n) - 2 R90(n), with Q = A000170 and U = A002562. A plain-Python
count over the reference solutions of puzzlesearch.queens.rules checks both for small n,
and checks that no reflection fixes a solution.
"""

import pytest

from conftest import load_data
from puzzlesearch.queens import rules
from puzzlesearch.queens.symmetric_kernel import half_turn_count, quarter_turn_count

DATA = load_data("queens")
TOTAL = {int(k): v for k, v in DATA["all_solutions"]["values"].items()}
UNIQUE = {int(k): v for k, v in DATA["unique_solutions"]["values"].items()}
QUARTER = {int(k): v for k, v in DATA["quarter_turn_symmetric"]["values"].items()}

# rules.SYMMETRIES numbers (transpose, flip rows, flip columns) as bits 4, 2, 1
HALF_TURN = 3  # (r, c) -> (n-1-r, n-1-c)
QUARTER_TURN = 5  # (r, c) -> (c, n-1-r)
OTHER_QUARTER_TURN = 6  # (r, c) -> (n-1-c, r), the inverse
REFLECTIONS = (1, 2, 4, 7)  # vertical axis, horizontal axis, main diagonal, anti-diagonal


def published_half_turn(n: int) -> int:
    """A032522 from A002562, A000170 and A033148 by Burnside's lemma."""
    if n == 1:
        return TOTAL[1]  # the lone queen is fixed by all eight symmetries
    return 8 * UNIQUE[n] - TOTAL[n] - 2 * QUARTER[n]


def fixed_by(n: int, symmetry: int) -> int:
    """The reference solutions of rules.solutions that `symmetry` leaves unchanged."""
    return sum(1 for board in rules.solutions(n) if rules.transform(board, symmetry) == board)


def test_the_symmetry_numbers_are_the_rotations_and_reflections():
    n = 7
    for r in range(n):
        for c in range(n):
            assert rules.map_square(r, c, n, HALF_TURN) == (n - 1 - r, n - 1 - c)
            assert rules.map_square(r, c, n, QUARTER_TURN) == (c, n - 1 - r)
            assert rules.map_square(r, c, n, OTHER_QUARTER_TURN) == (n - 1 - c, r)
            assert rules.map_square(r, c, n, 1) == (r, n - 1 - c)
            assert rules.map_square(r, c, n, 2) == (n - 1 - r, c)
            assert rules.map_square(r, c, n, 4) == (c, r)
            assert rules.map_square(r, c, n, 7) == (n - 1 - c, n - 1 - r)


def test_quarter_turn_matches_a033148():
    assert sorted(QUARTER) == list(range(1, 30))
    assert {n: quarter_turn_count(n) for n in QUARTER} == QUARTER


def test_quarter_turn_is_zero_unless_n_is_0_or_1_mod_4():
    assert all(quarter_turn_count(n) == 0 for n in range(1, 33) if n % 4 in (2, 3))


def test_half_turn_matches_a032522_from_burnside():
    # every n with published Q, U and R90 up to 25 (about a second); 26 and 27 below
    sizes = sorted(set(TOTAL) & set(UNIQUE) & set(QUARTER))
    assert sizes == list(range(1, 28))
    sizes = [n for n in sizes if n <= 25]
    assert {n: half_turn_count(n) for n in sizes} == {n: published_half_turn(n) for n in sizes}


@pytest.mark.slow
@pytest.mark.parametrize("n", [26, 27])
def test_half_turn_matches_a032522_from_burnside_slow(n):
    assert half_turn_count(n) == published_half_turn(n)


@pytest.mark.parametrize("n", range(1, 11))
def test_kernels_match_the_plain_python_count(n):
    half, quarter = fixed_by(n, HALF_TURN), fixed_by(n, QUARTER_TURN)
    assert half_turn_count(n) == half
    assert quarter_turn_count(n) == quarter
    assert fixed_by(n, OTHER_QUARTER_TURN) == quarter


@pytest.mark.parametrize("n", range(2, 11))
def test_no_reflection_fixes_a_solution(n):
    # the premise of the Burnside formula used for A032522 above
    assert [fixed_by(n, s) for s in REFLECTIONS] == [0, 0, 0, 0]
    assert 8 * UNIQUE[n] == TOTAL[n] + 2 * fixed_by(n, QUARTER_TURN) + fixed_by(n, HALF_TURN)


@pytest.mark.parametrize("count", [half_turn_count, quarter_turn_count])
@pytest.mark.parametrize("n", [0, -1, 33])
def test_a_board_out_of_range_is_refused(count, n):
    with pytest.raises(ValueError, match="between 1 and 32"):
        count(n)
