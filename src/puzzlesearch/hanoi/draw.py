"""The pegs as text: one column per peg, disc d drawn as [===] with 2d - 1 '=' signs."""

from __future__ import annotations

from .rules import Position, peg_letter


def draw(position: Position, pegs: int) -> list[str]:
    """The picture of a position, as lines (no trailing spaces)."""
    n = len(position)
    width = 2 * n + 1
    stacks: list[list[int]] = [[] for _ in range(pegs)]
    for i, peg in enumerate(position):  # largest first = bottom first
        stacks[peg].append(n - i)
    lines = []
    for row in range(n, -1, -1):  # row n is the bare tip of the poles
        cells = []
        for stack in stacks:
            if row < len(stack):
                disc = stack[row]
                cells.append(("[" + "=" * (2 * disc - 1) + "]").center(width))
            else:
                cells.append("|".center(width))
        lines.append(" ".join(cells).rstrip())
    lines.append(" ".join(peg_letter(p).center(width, "-") for p in range(pegs)))
    return lines
