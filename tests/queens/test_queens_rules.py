"""The plain-Python rules: attacks, solutions, the symmetry group, the reference counts."""

from itertools import permutations

from conftest import load_data
from puzzlesearch.queens import rules

DATA = load_data("queens")
TOTAL = {int(k): v for k, v in DATA["all_solutions"]["values"].items()}
UNIQUE = {int(k): v for k, v in DATA["unique_solutions"]["values"].items()}


def test_attacks_on_rows_columns_and_diagonals():
    assert rules.attacks(0, 0, 0, 5)
    assert rules.attacks(0, 3, 6, 3)
    assert rules.attacks(1, 1, 4, 4)
    assert rules.attacks(2, 5, 5, 2)
    assert not rules.attacks(0, 0, 1, 2)


def test_is_solution_by_brute_force_over_permutations():
    for n in range(1, 8):
        found = [p for p in permutations(range(n)) if rules.is_solution(p, n)]
        assert len(found) == TOTAL[n]
        assert found == list(rules.solutions(n))
    assert not rules.is_solution((0, 2), 2)
    assert not rules.is_solution((0, 2, 4, 1, 3), 4)


def test_reference_counts_match_oeis():
    for n in range(1, 10):
        assert rules.count(n) == (TOTAL[n], UNIQUE[n])
        assert rules.count_bitboard(n) == TOTAL[n]


def test_symmetries_form_the_group_of_the_square():
    board = (0, 4, 7, 5, 2, 6, 1, 3)  # no symmetry: 8 distinct images
    imgs = rules.images(board)
    assert len(set(imgs)) == 8
    assert all(rules.is_solution(b, 8) for b in imgs)
    for b in imgs:  # closed under composition: images of an image are the same set
        assert set(rules.images(b)) == set(imgs)
    assert rules.transform(board, 0) == board
    assert rules.canonical(board) == min(imgs)


def test_symmetric_boards_have_smaller_classes():
    # n=4: the two solutions are mirror images and each is symmetric under 90 degrees
    a, b = rules.solutions(4)
    assert set(rules.images(a)) == {a, b}


def test_solutions_keep_fixed_queens():
    full = list(rules.solutions(8))
    kept = list(rules.solutions(8, {0: 0, 5: 2}))
    assert kept == [s for s in full if s[0] == 0 and s[5] == 2]
