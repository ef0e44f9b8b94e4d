"""A general Sprague–Grundy engine for impartial games given by their moves.

Describe a game by one function: position -> its options (the positions one move can
reach). The Sprague–Grundy value is G(s) = mex{G(t) : s -> t}, the least non-negative
integer that is not the value of an option; G(s) = 0 exactly when the player to move
loses (normal play: whoever cannot move loses). A move that leaves several independent
games side by side (a heap broken in two, a sheet cut in two pieces) is written as a
``Sum`` of positions; by the Sprague–Grundy theorem the value of a sum is the XOR of the
values of its parts (Sprague 1935, Grundy 1939; Berlekamp, Conway and Guy, *Winning
Ways*, ch. 3–4).

The values are memoized and computed with an explicit stack, so a game that is a
million moves deep needs no recursion limit. A cycle of positions is reported as an
error: impartial games must end.

    >>> @impartial
    ... def nim(heap):
    ...     return range(heap)              # take any number of tokens
    >>> nim.grundy(5), nim.grundy(Sum(3, 4, 5)), nim.winning_move(Sum(3, 4, 5))
    (5, 2, Sum(1, 4, 5))
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, Literal

from puzzlesearch.engine.failures import CheckFailed
from puzzlesearch.engine.params import items, shown, text_or_none, whole

Position = Hashable


class Sum(tuple):
    """Independent games played side by side; a move is made in exactly one part."""

    def __new__(cls, *parts: Position) -> Sum:
        return super().__new__(cls, parts)

    def __repr__(self) -> str:
        return "Sum(" + ", ".join(repr(p) for p in self) + ")"


def mex(values: Iterable[int]) -> int:
    """The minimum excludant: the least non-negative integer not among `values`.

    Args:
        values: Whole numbers.
    """
    seen = {whole(v, "values: an item") for v in
            (values if isinstance(values, (set, frozenset)) else items(values, "values"))}
    m = 0
    while m in seen:
        m += 1
    return m


def _parts(option: Any) -> tuple:
    """The single positions an option consists of (nested sums are flattened)."""
    if not isinstance(option, Sum):
        return (option,)
    out: list = []
    stack: list = [option]
    while stack:
        p = stack.pop()
        if isinstance(p, Sum):
            stack.extend(reversed(p))  # so the parts come out in order
        else:
            out.append(p)
    return tuple(out)


class ImpartialGame:
    """An impartial game defined by the options of each position.

    Values are cached per position for the life of the object (``cache_size`` tells
    how many).

    Args:
        options: ``options(position)``: an iterable of the positions one move leads to,
            each a position or a `Sum` of positions.
        name: The game's name in its repr (None: the function's name).
    """

    def __init__(self, options: Callable[[Any], Iterable[Any]], name: str | None = None) -> None:
        if not callable(options):
            raise TypeError(f"options must be a function of a position, got {shown(options)}")
        self.options = options
        self.name = text_or_none(name, "name") or getattr(options, "__name__", "game")
        self._memo: dict[Any, int] = {}

    def __repr__(self) -> str:
        return f"ImpartialGame({self.name})"

    @property
    def cache_size(self) -> int:
        return len(self._memo)

    def _value_of_single(self, position: Position) -> int:
        """G(position) for one (non-sum) position: iterative depth-first evaluation.

        Invariant: `stack` is the path of positions under evaluation, each with the
        flattened list of parts of its options and how many of them are known; every
        position on the path is in `on_path`, and a part met again there is a cycle.
        """
        memo = self._memo
        if position in memo:
            return memo[position]
        stack: list[list] = [[position, None, None, 0]]
        on_path = {position}
        while stack:
            frame = stack[-1]
            pos, opts, flat, i = frame
            if opts is None:
                opts = [_parts(o) for o in self.options(pos)]
                flat = [p for parts in opts for p in parts]
                frame[1], frame[2] = opts, flat
            while i < len(flat) and flat[i] in memo:
                i += 1
            frame[3] = i
            if i < len(flat):
                child = flat[i]
                if child in on_path:
                    raise ValueError(f"{self.name}: the position {child!r} can be reached from itself")
                on_path.add(child)
                stack.append([child, None, None, 0])
                continue
            reach = set()
            for parts in opts:
                x = 0
                for p in parts:
                    x ^= memo[p]
                reach.add(x)
            memo[pos] = mex(reach)
            on_path.discard(pos)
            stack.pop()
        return memo[position]

    def grundy(self, position: Any) -> int:
        """The Sprague–Grundy value of a position or of a ``Sum`` of positions.

        Args:
            position: A position, or a `Sum` of positions.
        """
        x = 0
        for p in _parts(position):
            x ^= self._value_of_single(p)
        return x

    def outcome(self, position: Any) -> Literal["win", "lose"]:
        """'win' if the player to move wins with best play, else 'lose'.

        Args:
            position: A position, or a `Sum` of positions.
        """
        return "win" if self.grundy(position) else "lose"

    def winning_move(self, position: Any) -> Any | None:
        """An option of value 0 (the opponent then loses), or None if there is none.

        For a ``Sum`` the move is made in one part: the part whose value v has
        v XOR total < v is moved to an option of value v XOR total, and the new sum
        is returned.

        Args:
            position: A position, or a `Sum` of positions.
        """
        parts = _parts(position)
        if len(parts) == 1 and not isinstance(position, Sum):
            for option in self.options(position):
                if self.grundy(option) == 0:
                    return option
            return None
        values = [self._value_of_single(p) for p in parts]
        total = 0
        for v in values:
            total ^= v
        if total == 0:
            return None
        for k, (p, v) in enumerate(zip(parts, values, strict=True)):
            target = v ^ total
            if target < v:
                for option in self.options(p):
                    if self.grundy(option) == target:
                        return Sum(*parts[:k], *_parts(option), *parts[k + 1:])
        raise CheckFailed("the mex property", f"no part of a sum of value {total} has a move to value 0")


def impartial(options: Callable[[Any], Iterable[Any]]) -> ImpartialGame:
    """Decorator: turn an options function into an ``ImpartialGame``.

    Args:
        options: ``options(position)``: the positions one move leads to.
    """
    return ImpartialGame(options)
