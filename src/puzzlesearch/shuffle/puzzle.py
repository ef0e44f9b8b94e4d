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

The limits of both searches live here too, each written once and checked from the
parameters alone, before a puzzle is built or anything allocated (building the moves of
D cards already costs D^2): the shortest-path search packs a deck into one 64-bit word
(MAX_PACKED cards), the full BFS gives every deck 2 bits indexed by its rank
(MAX_CARDS cards, and D! or D!/2 states, checked against the memory cap).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from puzzlesearch.engine.layers_common import memory_needed_for
from puzzlesearch.engine.memory import gib, require
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.params import items, shown, text, whole, wholes
from puzzlesearch.engine.space import parity
from puzzlesearch.shuffle import rules

MAX_PACKED = 16  # cards that fit 4 bits each in one 64-bit word (the shortest-path search)
MAX_CARDS = 20  # 20! < 2**63: the full BFS's ranks stay machine integers
MAX_SHOW = 10_000  # farthest decks a census lists at most


@dataclass(frozen=True)
class PermPuzzle:
    """A puzzle whose moves permute the positions of a deck.

    Move j sends the card at position ``moves[j][i]`` to position i (positions count
    from 0, the top).

    Attributes:
        name: The puzzle's name, as results and progress show it.
        size: The number of cards (positions).
        moves: Each move, a permutation of 0..size-1.
        labels: What a player calls each move (its k), one a move.
        unit: What the arrangements are called in counts and progress ("decks").
        item: What they are made of ("cards").
    """

    name: str
    size: int
    moves: tuple[tuple[int, ...], ...]
    labels: tuple[int, ...]
    unit: str = "decks"
    item: str = "cards"

    def __post_init__(self) -> None:
        """The fields as the searches use them (tuples of ints), or ValueError/TypeError
        naming the field: each move a permutation of 0..size-1, one label a move."""
        for name in ("name", "unit", "item"):
            text(getattr(self, name), name)
        size = whole(self.size, "size")
        if size < 1:
            raise ValueError(f"size must be at least 1, got {size}")
        moves = tuple(wholes(m, "moves: a move") for m in items(self.moves, "moves"))
        for m in moves:
            if sorted(m) != list(range(size)):
                raise ValueError(f"moves: each move is a permutation of 0..{size - 1}, got {shown(m)}")
        labels = wholes(self.labels, "labels")
        if len(labels) != len(moves):
            raise ValueError(f"labels: one a move, got {len(labels)} for {len(moves)} moves")
        for name, value in (("size", size), ("moves", moves), ("labels", labels)):
            object.__setattr__(self, name, value)

    def _move(self, j: object) -> int:
        j = whole(j, "j (a move's index)")
        if not 0 <= j < len(self.moves):
            raise ValueError(f"j (a move's index) must be between 0 and {len(self.moves) - 1}, got {j}")
        return j

    def apply(self, deck: Sequence[int], j: int) -> tuple[int, ...]:
        deck, j = wholes(deck, "deck"), self._move(j)
        if len(deck) != self.size:
            raise ValueError(f"deck has {len(deck)} {self.item}, expected {self.size}")
        return tuple(deck[p] for p in self.moves[j])

    def inverse(self, j: int) -> tuple[int, ...]:
        j = self._move(j)
        inv = [0] * self.size
        for i, p in enumerate(self.moves[j]):
            inv[p] = i
        return tuple(inv)

    def inverse_moves(self) -> tuple[tuple[int, ...], ...]:
        return tuple(self.inverse(j) for j in range(len(self.moves)))

    def all_moves_even(self) -> bool:
        return all(parity(m) == 0 for m in self.moves)

    def play(self, deck: Sequence[int], labels: Sequence[int]) -> tuple[int, ...]:
        """The deck after the moves named by their labels.

        Args:
            deck: The deck, top card first.
            labels: The moves, each by its label (its k).
        """
        index = {k: j for j, k in enumerate(self.labels)}
        deck = wholes(deck, "deck")
        for k in wholes(labels, "labels"):
            if k not in index:
                raise ValueError(f"labels: {k} is no move of {self.name} (its moves: {shown(self.labels)})")
            deck = self.apply(deck, index[k])
        return deck


def check_n(n: int) -> int:
    """The size of the book's puzzle (2n cards, blocks of n) or of a pancake stack, as an int."""
    n = whole(n, "-n")
    if n < 1:
        raise ValueError(f"-n must be at least 1, got {n}")
    return n


def check_block(deck: int, block: int) -> tuple[int, int]:
    """A block shuffle needs at least 2 cards and 1 <= block < deck; both as ints."""
    deck, block = whole(deck, "--deck"), whole(block, "--block")
    if deck < 2:
        raise ValueError(f"--deck must be at least 2, got {deck}")
    if not 1 <= block < deck:
        raise ValueError(f"--block must be between 1 and deck - 1 = {deck - 1}, got {block}")
    return deck, block


def check_packed(size: int, unit: str = "decks", item: str = "cards") -> None:
    """The shortest-path search packs a deck into 64 bits: at most MAX_PACKED cards."""
    if size > MAX_PACKED:
        raise ValueError(f"solve handles {unit} of at most {MAX_PACKED} {item}, got {size}")


def check_show(show: int) -> None:
    show = whole(show, "--show")
    if not 0 <= show <= MAX_SHOW:
        raise ValueError(f"--show must be between 0 and {MAX_SHOW}, got {show}")


def block_name(deck: int, block: int) -> str:
    return f"block shuffle D={deck} B={block}"


def pancake_name(n: int) -> str:
    return f"pancakes n={n}"


def block_moves_even(block: int) -> bool:
    """Whether every block move is an even permutation: move k rotates the top k + B
    cards by k, of sign (-1)^(kB), and k = 1 is always a move, so exactly when B is even."""
    return block % 2 == 0


def census_states(cards: int, half: bool, signed: bool = False) -> int:
    """The states the full BFS indexes: D! decks, D!/2 when every move is even (one parity),
    2^D D! burnt stacks. Only for cards <= MAX_CARDS (D! is cheap to compute)."""
    return math.factorial(cards) // (2 if half else 1) * (2**cards if signed else 1)


def check_census(name: str, cards: int, half: bool, run: RunOptions, unit: str = "decks",
                 item: str = "cards", signed: bool = False) -> int:
    """Refuse (ValueError, one line saying what it would need) a full BFS beyond the rank
    limit or the memory cap; else the states it indexes. From the sizes alone."""
    if cards > MAX_CARDS:
        count = f"{cards}!/2" if half else f"2^{cards} x {cards}!" if signed else f"{cards}!"
        need = _factorial_bytes(cards, half, signed)
        raise ValueError(f"full BFS indexes {unit} by rank: at most {MAX_CARDS} {item}, got {cards} "
                         f"(it would need {need}, 2 bits for each of {count} {unit})")
    states = census_states(cards, half, signed)
    if run.scheduler is not None:  # partitions on the cluster's workers, not here
        return states
    require(memory_needed_for(states), run.memory,
            f"full BFS of {name} ({states:,} {unit}, 2 bits each)")
    return states


def _factorial_bytes(cards: int, half: bool, signed: bool = False) -> str:
    """2 bits for each of D! (D!/2, 2^D D!) states, for people, for any D (no D! is
    computed beyond a few thousand)."""
    if cards <= 1000:
        return gib(census_states(cards, half, signed) / 4)
    if cards >= 10**300:
        return "more than 10^(10^300) bytes"
    digits = (math.lgamma(cards + 1) + (cards * math.log(2) if signed else 0)
              - math.log(2) * (3 if half else 2)) / math.log(10)
    return f"more than 10^{int(digits):,} bytes" if digits < 1e15 else f"more than 10^({digits:.3g}) bytes"


def block_shuffle_puzzle(deck: int, block: int) -> PermPuzzle:
    """The block shuffle: move k (1..D-B) puts the B cards at positions k..k+B-1 on top.

    Building it costs D x (D - B): check the size you need first.

    Args:
        deck: D, the number of cards, at least 2.
        block: B, the cards a move lifts, 1 <= B < D.
    """
    deck, block = check_block(deck, block)
    ident = tuple(range(deck))
    ks = rules.shuffle_moves(deck, block)
    moves = tuple(rules.block_shuffle(ident, k, block) for k in ks)
    return PermPuzzle(block_name(deck, block), deck, moves, tuple(ks))


def pancake_puzzle(n: int) -> PermPuzzle:
    """Pancake flipping: flip k (2..n) reverses the top k pancakes.

    Args:
        n: The number of pancakes, at least 1 (one pancake has no moves).
    """
    n = check_n(n)
    ident = tuple(range(n))
    moves = tuple(rules.flip(ident, k) for k in rules.flip_moves(n))
    return PermPuzzle(pancake_name(n), n, moves, tuple(rules.flip_moves(n)), "stacks", "pancakes")


def check_deck(deck: Sequence[int], size: int, what: str = "deck") -> tuple[int, ...]:
    """The deck as a tuple if it holds each card 1..size once; ValueError naming the fault."""
    deck = wholes(deck, what)
    if len(deck) != size:
        raise ValueError(f"{what} has {len(deck)} cards, expected {size}")
    if sorted(deck) != list(range(1, size + 1)):
        missing = sorted(set(range(1, size + 1)) - set(deck))
        raise ValueError(f"{what} {' '.join(map(str, deck))} is not a permutation of 1..{size}"
                         + (f" (missing {' '.join(map(str, missing))})" if missing else ""))
    return deck
