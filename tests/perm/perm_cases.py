"""Puzzles for the tests of puzzlesearch.perm: small random ones (every search checked
against the plain dictionary-and-deque one) and the shipped examples by name."""

from __future__ import annotations

import random
from math import factorial, prod

from puzzlesearch.perm import Puzzle, api

EXAMPLES = {e.name: e for e in api.examples()}
#: the most states a random puzzle may have (its plain BFS stays well under a second)
MOST = 30_000


def random_tables(seed: int, colours: bool = False) -> dict:
    """The tables of a random puzzle: one to three sets of 1..5 positions, twists 1..3,
    two or three moves of random cycles with random twists (identical pieces with
    `colours`). At most MOST arrangements."""
    rng = random.Random(seed)
    while True:
        sets, names = {}, []
        for s in range(rng.randint(1, 3)):
            m, k = rng.randint(1, 5), rng.choice((1, 2, 3))
            positions = [f"{'abc'[s]}{i}" for i in range(m)]
            table = {"positions": positions, "twists": k}
            if colours and m > 1:
                table["solved"] = [rng.choice("xyz") for _ in positions]
            sets[f"s{s}"] = table
            names.append((positions, k))
        size = prod(factorial(len(p)) * k ** len(p) for p, k in names)
        if size > MOST:
            continue
        moves = {}
        for j in range(rng.randint(2, 3)):
            cycles = []
            for positions, k in names:
                free = positions[:]
                rng.shuffle(free)
                while len(free) >= 1 and rng.random() < 0.7:
                    length = rng.randint(1, len(free))
                    cyc, free = free[:length], free[length:]
                    tokens = [p + (f"+{rng.randrange(k)}" if k > 1 and rng.random() < 0.5 else "")
                              for p in cyc]
                    if len(cyc) > 1 or any("+" in t for t in tokens):
                        cycles.append("(" + " ".join(tokens) + ")")
            if cycles:
                moves[f"M{j}"] = "".join(cycles)
        if moves:
            return {"pieces": sets, "moves": moves, "metric": rng.choice(("powers", "inverses", "given"))}


def random_puzzle(seed: int, colours: bool = False) -> Puzzle:
    """A random puzzle that is one (a move that changes nothing is drawn again)."""
    while True:
        tables = random_tables(seed, colours)
        try:
            return Puzzle(**tables, name=f"random {seed}")
        except ValueError:
            seed += 10_000


def example(name: str) -> Puzzle:
    return Puzzle.example(name)
