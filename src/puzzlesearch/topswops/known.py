"""What Topswops keeps in the results store (engine.store.ResultsStore), and every read
and write of it.

Three kinds of value, each under one key:

    f(m)        f(m) computed by this program (the forward search's bounds, the answers of
                `solve`), with the method that computed it
    deck(n)     the longest deck of n cards met so far (where a deep search starts)
    bottom(n)   the bottom bounds computed for n: a list of records (bottom.Bottom as a
                dict), each valid for the games of at least its `target` steps

A value is only ever this program's own result, never a published one. The records are
plain JSON here; the modules that compute them (forward.py, plan.py, bottom.py) give
them their meaning. This module imports no numba.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from puzzlesearch.engine.paths import NoSpace
from puzzlesearch.engine.store import ResultsStore
from puzzlesearch.topswops import rules

#: the results store's name for this puzzle
STORE_PUZZLE = "topswops"


def f_key(m: int) -> str:
    return f"f({m})"


def deck_key(n: int) -> str:
    return f"deck({n})"


def bottom_key(n: int) -> str:
    return f"bottom({n})"


def f(m: int, store: str | None) -> int | None:
    """f(m) if the store has it."""
    with ResultsStore(store) as db:
        value = db.get(STORE_PUZZLE, f_key(m))
    return None if value is None else int(value)


def missing_f(ms: Iterable[int], store: str | None) -> list[int]:
    """Those m whose f(m) the store does not have, in the order given."""
    with ResultsStore(store) as db:
        return [m for m in ms if db.get(STORE_PUZZLE, f_key(m)) is None]


def remember_f(m: int, steps: int, method: str, seconds: float, store: str | None) -> None:
    """Keep a computed f(m) for later runs to use as a bound."""
    with ResultsStore(store) as db:
        db.put(STORE_PUZZLE, f_key(m), steps, method, seconds)


def deck(n: int, store: str | None) -> rules.Deck | None:
    """The longest deck of n cards the store keeps, if any (the caller replays it)."""
    with ResultsStore(store) as db:
        kept = db.get(STORE_PUZZLE, deck_key(n))
    if kept is None or len(kept) != n or not rules.is_deck(kept):
        return None
    return tuple(int(x) for x in kept)


@contextmanager
def on_the_way() -> Iterator[None]:
    """Around keeping what a search makes on the way to its answer (a smaller f(m), a deck to
    start at, a bottom bound): a full disk skips the write, so that the search goes on to
    its answer, which is printed and then reported as computed but not saved."""
    try:
        yield
    except NoSpace:
        pass


def keep_deck(n: int, cards: rules.Deck, steps: int, method: str, store: str | None) -> None:
    """Keep `cards` (a deck of `steps` steps) as the longest of n cards, unless the store
    has one at least as long."""
    kept = deck(n, store)
    if kept is not None and rules.steps(kept) >= steps:
        return
    with ResultsStore(store) as db:
        db.put(STORE_PUZZLE, deck_key(n), list(cards), method)


def bottoms(n: int, store: str | None) -> list[dict]:
    """The bottom bounds kept for n (records as dicts), oldest first."""
    with ResultsStore(store) as db:
        return db.get(STORE_PUZZLE, bottom_key(n)) or []


def keep_bottom(n: int, record: dict, method: str, seconds: float, store: str | None,
                kept: list[dict] | None = None) -> None:
    """Add a bottom bound for n to those kept (`kept`: the ones to keep with it, instead of
    those the store holds, which the caller found damaged)."""
    if kept is None:
        kept = bottoms(n, store)
    with ResultsStore(store) as db:
        db.put(STORE_PUZZLE, bottom_key(n), [*kept, record], method, seconds)


__all__ = ["STORE_PUZZLE", "bottom_key", "bottoms", "deck", "deck_key", "f", "f_key", "keep_bottom",
           "keep_deck", "missing_f", "on_the_way", "remember_f"]
