"""A small permutation-puzzle engine: a puzzle is a set of moves, each a fixed permutation
of positions; a search goes from a start arrangement to a goal.

A move is stored as the tuple ``perm`` with ``new[i] = old[perm[i]]``. Applying moves
m1, m2, ... to the identity gives the product of their permutations, so the states
reachable from any start form a coset of the group the moves generate (the reachable
decks from the sorted one are that group itself). Two facts the searches rely on:

* the move graph is directed (the inverse of a block move is not a block move), so a
  search backwards from the goal must use the inverse permutations;
* if every move is an even permutation, only decks of the start's parity are reachable,
  and the full BFS indexes just those (half the memory).

The block shuffle and the pancake flips are built in; any list of position
permutations works with the same searches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from puzzlesearch.shuffle import rules

MAX_PACKED = 16  # cards that fit 4 bits each in one 64-bit word (the shortest-path search)


@dataclass(frozen=True)
class PermPuzzle:
    """Moves on decks of `size` cards: move j sends position perm[i] to position i."""

    name: str
    size: int
    moves: tuple[tuple[int, ...], ...]
    labels: tuple[int, ...]  # what a player calls move j (its k)

    def apply(self, deck: Sequence[int], j: int) -> tuple[int, ...]:
        return tuple(deck[p] for p in self.moves[j])

    def inverse(self, j: int) -> tuple[int, ...]:
        inv = [0] * self.size
        for i, p in enumerate(self.moves[j]):
            inv[p] = i
        return tuple(inv)

    def inverse_moves(self) -> tuple[tuple[int, ...], ...]:
        return tuple(self.inverse(j) for j in range(len(self.moves)))

    def all_moves_even(self) -> bool:
        return all(parity(m) == 0 for m in self.moves)

    def play(self, deck: Sequence[int], labels: Sequence[int]) -> tuple[int, ...]:
        """The deck after the moves named by their labels (k values)."""
        index = {k: j for j, k in enumerate(self.labels)}
        deck = tuple(deck)
        for k in labels:
            deck = self.apply(deck, index[k])
        return deck


def parity(perm: Sequence[int]) -> int:
    """0 for an even permutation of 0..n-1 (or of any distinct values), 1 for odd."""
    seen = [False] * len(perm)
    order = sorted(perm)
    pos = {v: i for i, v in enumerate(order)}
    swaps = 0
    for i in range(len(perm)):
        if not seen[i]:
            j, length = i, 0
            while not seen[j]:
                seen[j] = True
                j = pos[perm[j]]
                length += 1
            swaps += length - 1
    return swaps & 1


def block_shuffle_puzzle(deck: int, block: int) -> PermPuzzle:
    """D = deck cards, move k (1..D-B) puts the B cards at positions k..k+B-1 on top."""
    if deck < 2 or not 1 <= block < deck:
        raise ValueError(f"need at least 2 cards and 1 <= block < deck, got deck={deck} block={block}")
    ident = tuple(range(deck))
    ks = rules.shuffle_moves(deck, block)
    moves = tuple(rules.block_shuffle(ident, k, block) for k in ks)
    return PermPuzzle(f"block shuffle D={deck} B={block}", deck, moves, tuple(ks))


def pancake_puzzle(n: int) -> PermPuzzle:
    """n pancakes, flip k (2..n) reverses the top k (one pancake has no moves)."""
    if n < 1:
        raise ValueError(f"need at least 1 pancake, got {n}")
    ident = tuple(range(n))
    moves = tuple(rules.flip(ident, k) for k in rules.flip_moves(n))
    return PermPuzzle(f"pancakes n={n}", n, moves, tuple(rules.flip_moves(n)))


def check_deck(deck: Sequence[int], size: int, what: str = "deck") -> tuple[int, ...]:
    """The deck as a tuple if it holds each card 1..size once; ValueError naming the fault."""
    deck = tuple(int(c) for c in deck)
    if len(deck) != size:
        raise ValueError(f"{what} has {len(deck)} cards, expected {size}")
    if sorted(deck) != list(range(1, size + 1)):
        missing = sorted(set(range(1, size + 1)) - set(deck))
        raise ValueError(f"{what} {' '.join(map(str, deck))} is not a permutation of 1..{size}"
                         + (f" (missing {' '.join(map(str, missing))})" if missing else ""))
    return deck
