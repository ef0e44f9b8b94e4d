"""The puzzles in plain Python: what a move is, what a solution is.

Block shuffle (the book's puzzle for D = 2n cards, B = n): a deck of D cards; one move
takes the B consecutive cards starting at position k (k = 1..D-B, counted from 0 at the
top) and puts them on top, keeping their order:

    deck -> deck[k:k+B] + deck[:k] + deck[k+B:]

Pancake flip: reverse the top k cards of a stack (k = 2..n), sorted = smallest on top.

Everything here works on tuples and is the reference the kernels are tested against;
`bfs_distance` is the plain dictionary-and-deque search the book starts from.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence

Deck = tuple[int, ...]


def block_shuffle(deck: Sequence[int], k: int, block: int) -> Deck:
    """Move the `block` cards starting at position k (0-based) to the top."""
    deck = tuple(deck)
    if not 1 <= k <= len(deck) - block:
        raise ValueError(f"block move k={k} needs 1 <= k <= {len(deck) - block}")
    return deck[k : k + block] + deck[:k] + deck[k + block :]


def flip(stack: Sequence[int], k: int) -> Deck:
    """Reverse the top k pancakes."""
    stack = tuple(stack)
    if not 2 <= k <= len(stack):
        raise ValueError(f"flip k={k} needs 2 <= k <= {len(stack)}")
    return stack[:k][::-1] + stack[k:]


def burnt_flip(stack: Sequence[int], k: int) -> Deck:
    """Burnt pancakes (a negative pancake has its burnt side up): reverse the top k and
    turn each of them over."""
    stack = tuple(stack)
    if not 1 <= k <= len(stack):
        raise ValueError(f"burnt flip k={k} needs 1 <= k <= {len(stack)}")
    return tuple(-c for c in stack[:k][::-1]) + stack[k:]


def shuffle_moves(deck_size: int, block: int) -> list[int]:
    """The k of every block move: 1..D-B (k = 0 would change nothing)."""
    return list(range(1, deck_size - block + 1))


def flip_moves(n: int) -> list[int]:
    """The k of every flip: 2..n (k = 1 would change nothing)."""
    return list(range(2, n + 1))


def play_shuffles(deck: Sequence[int], ks: Iterable[int], block: int) -> Deck:
    """The deck after the block moves ks, in order."""
    deck = tuple(deck)
    for k in ks:
        deck = block_shuffle(deck, k, block)
    return deck


def play_flips(stack: Sequence[int], ks: Iterable[int]) -> Deck:
    """The stack after the flips ks, in order."""
    stack = tuple(stack)
    for k in ks:
        stack = flip(stack, k)
    return stack


def bfs_distance(start: Deck, goal: Deck, step: Callable[[Deck, int], Deck], ks: Sequence[int]) -> int:
    """Fewest moves from start to goal: plain BFS with a dict of seen decks (the book's way).

    Returns -1 when the goal cannot be reached.
    """
    seen = {start: 0}
    queue = deque([start])
    while queue:
        deck = queue.popleft()
        if deck == goal:
            return seen[deck]
        for k in ks:
            nxt = step(deck, k)
            if nxt not in seen:
                seen[nxt] = seen[deck] + 1
                queue.append(nxt)
    return -1


def shuffle_distance(n: int) -> int:
    """Fewest block moves reversing 2n cards, by the plain BFS (small n only)."""
    start = tuple(range(1, 2 * n + 1))
    return bfs_distance(start, start[::-1], lambda d, k: block_shuffle(d, k, n), shuffle_moves(2 * n, n))
