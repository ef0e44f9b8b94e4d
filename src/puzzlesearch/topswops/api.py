"""Topswops, the public API: f(n) by two independent searches, the decks that reach it,
and plain play.

``solve(n, mode)`` runs the backward search (backward.py), the forward search
(forward.py) or both, and cross-checks them; ``optimal(n)`` lists every deck reaching
f(n); ``play(deck)`` plays a deck with the plain rules (rules.py), and ``plot(game, FILE)``
draws it (pictures.py; a ``Play`` draws itself in a notebook). Every check of the
command line is made here, in the command line's words (a ValueError), so the API refuses
exactly what ``puzzlesearch topswops`` refuses. Long searches take ``run: RunOptions``
(workers, scheduler, checkpoint, results store, progress): ``solve`` and ``optimal``,
``long`` and ``estimate``. The search modules, and with them numba, are imported only by
the functions that run a search.

``solve`` checks the input, makes the forward search's plan (plan.py: its bounds, and for
the deep search the deck it starts at and the bottom bound), runs the searches, replays
every deck they return with the plain rules, and remembers the answer in the results
store (known.py).

>>> from puzzlesearch import topswops
>>> s = topswops.solve(8)
>>> s.backward, s.forward, s.match, s.decks
(22, 22, True, [(6, 1, 5, 7, 8, 3, 2, 4)])
>>> topswops.optimal(7).decks
[(3, 1, 4, 6, 7, 5, 2), (4, 7, 6, 2, 1, 5, 3)]
>>> topswops.play([3, 1, 2]).trace
[(3, 1, 2), (2, 1, 3), (1, 2, 3)]
>>> topswops.play("3 1 4 5 2").steps
7
>>> topswops.solve(16)
Traceback (most recent call last):
...
ValueError: --mode both supports n <= 15 (the backward search packs a deck in 64 bits), got n=16; \
--mode forward goes to n = 32
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from puzzlesearch.engine import figures
from puzzlesearch.engine.failures import CheckFailed
from puzzlesearch.engine.options import RunOptions, checked, cores
from puzzlesearch.engine.params import choice, items, listed, number, shown, whole, whole_or_none
from puzzlesearch.engine.params import flag as check_flag
from puzzlesearch.engine.params import seed as check_seed
from puzzlesearch.engine.store import saving
from puzzlesearch.topswops import known, pictures, rules
from puzzlesearch.topswops.limits import BOUNDS_ON_THE_WAY, DEEP_FROM, MAX_LONG_WORKERS, check_n

if TYPE_CHECKING:
    from collections.abc import Callable

    from puzzlesearch.topswops.backward import BackwardResult
    from puzzlesearch.topswops.forward import ForwardResult
    from puzzlesearch.topswops.longdecks import Improvement, LongResult
    from puzzlesearch.topswops.plan import Plan
    from puzzlesearch.topswops.probes import Estimate

MODES = ("backward", "forward", "both")
#: the modes that list decks (optimal)
SEARCHES = ("backward", "forward")


@dataclass(frozen=True)
class Solution:
    """f(n) as `solve` found it, with the decks that reach it.

    Attributes:
        n: The number of cards.
        backward: f(n) by the backward search (None when it did not run).
        forward: f(n) by the forward search (None when it did not run).
        match: Whether both searches found the same f(n) and the same decks (None when
            only one ran).
        decks: Every starting deck that makes f(n) steps, top card first, sorted.
        nodes: The nodes each search visited, by search ("backward", "forward").
        seconds: The seconds each search took, by search (the forward search's include
            making its plan).
        details: Each search's own result, by search (not shown, not compared).
        plan: What the forward search started from: its bounds, target, method and
            the deck it started at (None when it did not run).
    """

    n: int
    backward: int | None
    forward: int | None
    match: bool | None
    decks: list[tuple[int, ...]]
    nodes: dict[str, int]
    seconds: dict[str, float]
    details: dict[str, BackwardResult | ForwardResult] = field(repr=False, compare=False)
    plan: Plan | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class Optimal:
    """Every deck of n cards that makes f(n) steps.

    Attributes:
        n: The number of cards.
        steps: f(n), the most steps any deck of n cards makes.
        decks: Every deck that makes them, top card first, sorted.
    """

    n: int
    steps: int
    decks: list[tuple[int, ...]]


@dataclass(frozen=True)
class Play:
    """A deck played to its end with the plain rules.

    Attributes:
        deck: The deck, top card first.
        steps: The reversals it makes before card 1 is on top.
        trace: Every deck on the way, the first and the last included.
    """

    deck: tuple[int, ...]
    steps: int
    trace: list[tuple[int, ...]]

    def _repr_svg_(self) -> str | None:
        """A notebook shows a game move by move (pictures.game_figure; None without matplotlib)."""
        return figures.notebook_svg(pictures.game_figure, self)


def _check_run(run: RunOptions, why: str) -> None:
    """Refuse what a search that runs in this process would ignore."""
    for name, value in (("--checkpoint", run.checkpoint), ("--scheduler", run.scheduler)):
        if value is not None:
            raise ValueError(f"{name} applies to the forward search; {why}")


def _check_solve(n: object, mode: str, run: RunOptions, deep: bool | None,
                 start: str | Iterable[int | str] | None) -> tuple[int, bool | None, tuple[int, ...] | None]:
    """n, whether the forward search is the deep one (None: chosen by estimate), and the
    start deck, checked."""
    mode = choice(mode, MODES, "mode")
    checked(run)
    if deep is not None:
        check_flag(deep, "deep")
    n = check_n(n, mode)
    if mode == "backward":
        _check_run(run, "--mode backward runs in one call in this process")
    if deep is not None and mode == "backward":
        flag = "--deep" if deep else "--no-deep"
        raise ValueError(f"{flag} applies to the forward search; --mode backward has no deep search")
    if start is not None:
        if mode == "backward":
            raise ValueError("--start applies to the forward search; --mode backward needs no start")
        if deep is False:
            raise ValueError("--start is where the deep forward search starts; it cannot go with --no-deep")
        start = deck(start)
        if len(start) != n:
            raise ValueError(f"the start deck has {len(start)} cards, not n = {n}")
    return n, True if start is not None else deep, start


def _check_bounds(n: int, run: RunOptions) -> None:
    """Refuse a forward search whose bounds would include a long run of its own: f(m) for
    m > BOUNDS_ON_THE_WAY missing from the results store."""
    missing = known.missing_f(range(BOUNDS_ON_THE_WAY + 1, n), run.store)
    if missing:
        first, last = missing[0], missing[-1]
        names = (f"f({first}) to f({last})" if len(missing) > 2 and last - first == len(missing) - 1
                 else listed([f"f({m})" for m in missing]))
        raise ValueError(f"the forward search for n={n} needs {names} in the results store, each a long "
                         f"run of its own; solve {'them' if len(missing) > 1 else 'it'} first with "
                         f"`puzzlesearch topswops solve -n {first} --mode forward`"
                         + (" and up" if len(missing) > 1 else "") + " (the same --store)")


def solve(n: int = 10, mode: str = "both", *, run: RunOptions = RunOptions(),  # noqa: B008
          deep: bool | None = None, start: str | Iterable[int | str] | None = None) -> Solution:
    """f(n) by the backward search, the forward search, or both (then cross-checked).

    Every deck returned is replayed with the plain rules. The value found is kept in the
    results store for later forward searches to use as a bound.

    Args:
        n: The number of cards: 1 to 15 with the backward search, to 32 with the
            forward search alone.
        mode: "backward" (Pepperdine's search back from the decks with 1 on top),
            "forward" (Knuth's branch and bound) or "both" (each checks the other).
        run: Where the forward search runs (in this process for n < 13, else on all
            cores), its checkpoint, the results store, and whether progress is drawn.
        deep: True: the forward search starts at a long deck and prunes once card n is
            at the bottom (Chaffin's bound); False: Knuth's search; None: from
            n = `DEEP_FROM` on the cheaper of the two by Knuth's probes, below it
            Knuth's. Either finds the same decks.
        start: A deck found beforehand (see `deck`) to start the deep search at instead
            of the one `long` finds (implies `deep`).

    Returns:
        f(n), every deck that reaches it, and what each search did.

    Raises:
        ValueError: A value the command line refuses, in its words.
        CheckFailed: A deck that does not make the steps reported, or two searches that
            disagree; nothing is stored.
        NotSaved: The results store could not be written (it carries the solution).
    """
    n, deep, start = _check_solve(n, mode, run, deep, start)
    run.check_paths(store=True)
    if mode != "backward":
        _check_bounds(n, run)
    from puzzlesearch.topswops import backward, forward
    from puzzlesearch.topswops import plan as planning

    plan = planning.make(n, run, deep=deep, start=start) if mode in ("forward", "both") else None
    details: dict[str, BackwardResult | ForwardResult] = {}
    if mode in ("backward", "both"):
        details["backward"] = backward.solve_backward(n, progress=run.progress)
    if plan is not None:
        found = forward.search(plan, run)
        details["forward"] = replace(found, seconds=plan.seconds + found.seconds)
    for method, r in details.items():
        for d in r.decks:
            if rules.steps(d) != r.steps:
                raise CheckFailed("the deck's replay", f"{method} deck {d} makes {rules.steps(d)} steps, "
                                  f"not {r.steps}")
    b, f = details.get("backward"), details.get("forward")
    match = None if b is None or f is None else (b.steps == f.steps and b.decks == f.decks)
    if match is False:
        raise CheckFailed("the two searches agree", _disagreement(n, b, f))
    solution = Solution(
        n=n,
        backward=b.steps if b else None,
        forward=f.steps if f else None,
        match=match,
        decks=sorted(set().union(*(r.decks for r in details.values()))),
        nodes={k: r.nodes for k, r in details.items()},
        seconds={k: round(r.seconds, 4) for k, r in details.items()},
        details=details,
        plan=plan,
    )
    _remember(solution, run)
    return solution


def _disagreement(n: int, b: BackwardResult, f: ForwardResult) -> str:
    if b.steps != f.steps:
        return f"f({n}) = {b.steps} by the backward search, {f.steps} by the forward search"
    only_b, only_f = sorted(set(b.decks) - set(f.decks)), sorted(set(f.decks) - set(b.decks))
    return (f"f({n}) = {b.steps} by both, but the backward search finds {len(b.decks)} decks and the forward "
            f"{len(f.decks)} (first differing: {(only_b or only_f)[0]})")


def _remember(solution: Solution, run: RunOptions) -> None:
    """Keep f(n) in the results store for later runs to use as a bound, and after a deep
    search a deck longer than the one it started at, for later runs to start at."""
    n, details, plan = solution.n, solution.details, solution.plan
    best = next(iter(details.values()))
    with saving(solution, f"f({n}) = {best.steps}"):
        seconds = sum(r.seconds for r in details.values())
        known.remember_f(n, best.steps, "+".join(details), seconds, run.store)
        f = details.get("forward")
        if plan is not None and plan.witness is not None and f.decks and f.steps > plan.witness_steps:
            known.keep_deck(n, f.decks[0], f.steps, "the forward search", run.store)


def optimal(n: int, mode: str = "forward", *, run: RunOptions = RunOptions()) -> Optimal:  # noqa: B008
    """Every deck of n cards that makes f(n) steps (OEIS A123398 counts them).

    Args:
        n: The number of cards (as `solve`).
        mode: The search that lists them: "forward" or "backward".
        run: Where the search runs, as for `solve`.

    Returns:
        f(n) and every deck that reaches it.
    """
    choice(mode, SEARCHES, "mode")
    s = solve(n, mode, run=run)
    return Optimal(n=s.n, steps=s.backward if mode == "backward" else s.forward, decks=s.decks)


def long(n: int, seconds: float = 60.0, seed: int = 0,
         report: Callable[[Improvement], None] | None = None, goal: int | None = None, *,
         run: RunOptions = RunOptions()) -> LongResult:  # noqa: B008
    """Long decks of n cards by an anytime search: the longest found in the time given.

    A greedy beam runs first, then depth-first searches backward from decks with 1 on
    top, on ``run.workers`` threads (default: all cores). Each longer deck is replayed
    with the plain rules.

    Args:
        n: The number of cards, at most 255.
        seconds: About how long to search.
        seed: The seed of the random choices: the same seed, the same run.
        report: Called at once with each longer deck found (an `Improvement`), or None.
        goal: Stop as soon as a deck makes this many steps (None: search for `seconds`).
        run: The threads (``run.workers``); the search runs in this process.

    Returns:
        The longest deck found, its steps, and each improvement on the way.

    Raises:
        KeyboardInterrupt: On Ctrl-C; its ``result`` holds the decks found until then.
    """
    _check_run(checked(run), "long runs in this process")
    seconds, seed, goal = number(seconds, "--seconds"), check_seed(seed), whole_or_none(goal, "goal")
    if report is not None and not callable(report):
        raise TypeError(f"report must be a function of an Improvement, or None, got {shown(report)}")
    from puzzlesearch.topswops.longdecks import long_decks

    return long_decks(n, seconds, seed, report, goal, workers=cores() if run.workers is None else run.workers)


def estimate(n: int, probes: int = 200_000, seed: int = 0, *, long_seconds: float | None = None,
             run: RunOptions = RunOptions()) -> Estimate:  # noqa: B008
    """Knuth's random-probe estimate of the forward search's size and time.

    Also says which forward search `solve` would choose for n, and why.

    Args:
        n: The number of cards, at most 32.
        probes: The random probes of the search tree: more, a smaller error.
        seed: The seed of the probes: the same seed, the same estimate.
        long_seconds: How long `long` looks for a target deck when the results store
            has no f(n) (None: a time that grows with n), more than 0 and at most 3600.
        run: The workers the time is estimated for (default: all cores) and the
            results store whose bounds the search would use.

    Returns:
        The estimated nodes with their standard error, the expected seconds, and the
        plan `solve` would choose.
    """
    _check_run(checked(run), "estimate runs in this process")
    n, probes, seed = whole(n, "n"), whole(probes, "--probes"), check_seed(seed)
    if long_seconds is not None:
        long_seconds = number(long_seconds, "--long-seconds")
        if not 0 < long_seconds <= 3600:  # also refuses nan and inf
            raise ValueError(f"--long-seconds must be more than 0 and at most 3600, got {long_seconds}")
    from puzzlesearch.topswops.plan import with_plan
    from puzzlesearch.topswops.probes import estimate as knuth

    return with_plan(knuth(n, run=run, probes=probes, seed=seed, long_seconds=long_seconds), run, seed)


def deck(cards: str | Iterable[int | str]) -> tuple[int, ...]:
    """A deck from its cards, top first.

    Args:
        cards: Whole numbers, as a sequence or as a string ("3 1 2", "3,1,2").

    Returns:
        The deck as a tuple of cards.

    Raises:
        ValueError: Unless the cards are a permutation of 1..n.
    """
    words = cards.replace(",", " ").split() if isinstance(cards, str) else items(cards, "the deck")
    try:
        cards = tuple(int(w) if isinstance(w, str) else whole(w, "a card") for w in words)
    except ValueError:
        raise ValueError(f"the deck must be whole numbers, got {' '.join(map(str, words))!r}") from None
    if not cards:
        raise ValueError('the deck is empty: give its cards from the top, e.g. "3 1 2"')
    if not rules.is_deck(cards):
        raise ValueError(f"not a permutation of 1..{len(cards)}: {' '.join(map(str, cards))}")
    return cards


def play(cards: str | Iterable[int | str]) -> Play:
    """Play a deck to its end with the plain rules.

    Args:
        cards: The deck, top card first, as `deck` reads it.

    Returns:
        The deck, its steps and every deck on the way (a `Play` draws itself in a
        notebook).
    """
    d = deck(cards)
    trace = rules.trace(d)
    return Play(deck=d, steps=len(trace) - 1, trace=trace)


def check_plot(filename: str) -> None:
    """Before the work: a --plot file can be written, matplotlib is installed, and the
    name ends in an image format (engine.figures.check_plot: ValueError, ImportError)."""
    figures.check_plot(filename)


def plot(game: Play, filename: str) -> None:
    """The game drawn move by move (pictures.game_figure) into an image file, in the
    format its suffix names; OSError or ValueError when it cannot be saved. Check the file
    first with `check_plot` (engine.figures)."""
    figures.save(pictures.game_figure(game), filename)


__all__ = ["DEEP_FROM", "MAX_LONG_WORKERS", "MODES", "SEARCHES", "Optimal", "Play", "RunOptions", "Solution",
           "deck", "estimate", "long", "optimal", "play", "solve"]
