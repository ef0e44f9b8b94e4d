"""Fuzz every public function and method of the puzzles' API with arguments of the wrong type.

The functions are found by introspection: each puzzle package's ``__all__`` (what
``from puzzlesearch import X`` gives), the public methods of its classes and the
constructors of its classes that are not results. Each needs a signature in SIGNATURES: a
cheap valid call and the kind of every parameter; a new function, or a new parameter,
without one fails the test by name, so that it is fuzzed as soon as it is added.

Every parameter in turn is given each value of POOL that is not of its kind (a string for
a number, None where a RunOptions is expected, a float for a seed, a list for text, ...),
the others keeping their valid values. The call must raise ValueError or TypeError, at
once (wrong types are refused before any work), with a message naming the argument, in
the command line's words where the command line has the same option: never an
AttributeError, never an internal message, never an answer.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from puzzlesearch.engine.options import RunOptions

PUZZLES = ("games", "hanoi", "perm", "queens", "shuffle", "topswops")

#: values of every kind; each parameter gets those that are not of its kind
POOL = (
    None,
    True,
    False,
    0,
    7,
    -1,
    10**30,
    np.int64(3),
    1.5,
    -2.5,
    math.nan,
    math.inf,
    np.float64(2.5),
    Fraction(1, 2),
    1j,
    "",
    "1",
    "x",
    b"1",
    bytearray(b"1"),
    [],
    [1],
    (1, 2),
    range(3),
    {},
    {1: 2},
    {1},
    object(),
    print,
    Ellipsis,
    RunOptions(),
    Path("x"),
)


def _is_int(v: object) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def _is_real(v: object) -> bool:
    return (_is_int(v) or isinstance(v, (float, np.floating, Fraction))) and not isinstance(v, bool)


def _is_seq(v: object) -> bool:
    return isinstance(v, (list, tuple, range))


#: what each kind of parameter takes (the pool's values of the kind are not tried)
KINDS = {
    "int": _is_int,
    "float": _is_real,
    "text": lambda v: isinstance(v, str),
    "file": lambda v: isinstance(v, (str, Path)),
    "flag": lambda v: isinstance(v, bool),
    "choice": lambda v: False,  # any wrong value is refused, naming the choices
    "run": lambda v: isinstance(v, RunOptions),
    "ints": _is_seq,  # a sequence of whole numbers
    "values": lambda v: _is_seq(v) or isinstance(v, set),  # numbers, in a sequence or a set
    "deck": lambda v: _is_seq(v) or isinstance(v, str),  # a sequence, or its cards as text
    "pairs": _is_seq,
    "table": lambda v: isinstance(v, dict),
    "fixed": lambda v: isinstance(v, (dict, str)) or _is_seq(v),  # queens: {row: column}, pairs, "1:3,4:7"
    "code": lambda v: isinstance(v, str),  # a game's code, or its parsed form
    "callable": callable,
    "object": lambda v: False,  # an instance of the class the signature names
}


@dataclass
class Sig:
    """A cheap valid call (`base`, keyword arguments), the kind of every parameter (a kind
    ending in "?" also takes None), and other names a message may use for a parameter."""

    base: dict
    kinds: dict
    names: dict = field(default_factory=dict)
    make: object = None  # for a method: the instance, made by this function


def _games():
    from puzzlesearch import games

    return games


def _pancake():
    from puzzlesearch.shuffle import pancake_puzzle

    return pancake_puzzle(3)


def _demo():
    from puzzlesearch.perm import Puzzle

    return Puzzle(pieces={"p": ["a", "b", "c"]}, moves={"X": "(a b c)", "Y": "(b c)"})


def _perm_census():
    return _demo().god()


def _shuffle_census():
    from puzzlesearch.shuffle import census

    return census(_pancake())


def _rules():
    return _demo().rules


SIGNATURES = {
    # --- games
    "games.cutting_answers": Sig({"text": "2 2\n"}, {"text": "text"}),
    "games.cutting_table": Sig({"n": 3}, {"n": "int"}, {"n": ("cutting table size",)}),
    "games.digits_answers": Sig({"text": "1\n5\n"}, {"text": "text"}),
    "games.digits_table": Sig({"n_max": 5}, {"n_max": "int", "run": "run"}, {"n_max": ("digit game limit",)}),
    "games.grundys_values": Sig({"count": 5}, {"count": "int", "run": "run"}),
    "games.hex_values": Sig({"code": "0.F", "count": 5}, {"code": "code", "count": "int", "run": "run"}),
    "games.impartial": Sig({"options": lambda p: ()}, {"options": "callable"}),
    "games.mex": Sig({"values": [0, 1]}, {"values": "values"}),
    "games.octal_survey": Sig({"digits": 1, "count": 5}, {"digits": "int", "count": "int", "run": "run"}),
    "games.octal_values": Sig({"code": "0.07", "count": 5}, {"code": "code", "count": "int", "run": "run"}),
    "games.parse_hex": Sig({"code": "0.F"}, {"code": "text"}),
    "games.parse_octal": Sig({"code": "0.07"}, {"code": "text"}),
    "games.parse_subtraction": Sig({"text": "1,2"}, {"text": "text"}, {"text": ("subtraction",)}),
    "games.popcount_values": Sig({"parts": 2, "max_k": 3}, {"parts": "int", "max_k": "int"}),
    "games.position_moves": Sig(
        {"game": "0.07", "heaps": "1,2"}, {"game": "code", "heaps": "deck", "all_moves": "flag", "run": "run"}
    ),
    "games.subtraction_values": Sig(
        {"moves": "1,2", "count": 5},
        {"moves": "code", "count": "int", "run": "run"},
        {"moves": ("subtraction",)},
    ),
    "games.SubtractionValues.to_json": Sig(
        {}, {"values": "flag"}, make=lambda: _games().subtraction_values("1,2", 5)
    ),
    "games.TakeBreakValues.to_json": Sig(
        {}, {"values": "flag"}, make=lambda: _games().octal_values("0.07", 5)
    ),
    "games.ImpartialGame": Sig({"options": lambda p: ()}, {"options": "callable", "name": "text?"}),
    # --- hanoi
    "hanoi.count": Sig({"n": 3}, {"n": "int", "pegs": "int"}),
    "hanoi.counts": Sig({"nmax": 3}, {"nmax": "int", "pegs": "int"}, {"nmax": ("-n",)}),
    "hanoi.distance": Sig(
        {"start": "AB", "goal": "CC"}, {"start": "text", "goal": "text", "pegs": "int", "run": "run"}
    ),
    "hanoi.moves": Sig({"n": 3}, {"n": "int", "pegs": "int"}),
    "hanoi.moves_array": Sig({"n": 3}, {"n": "int", "src": "int", "dst": "int", "run": "run"}),
    "hanoi.path": Sig(
        {"start": "AB", "goal": "CC"}, {"start": "text", "goal": "text", "pegs": "int", "run": "run"}
    ),
    "hanoi.plan": Sig(
        {"n": 3},
        {"n": "int?", "pegs": "int", "start": "text?", "goal": "text?", "force": "flag", "run": "run"},
    ),
    "hanoi.position_after": Sig({"n": 3, "m": 2}, {"n": "int", "m": "int", "pegs": "int"}),
    "hanoi.solve": Sig({"n": 3}, {"n": "int", "pegs": "int", "run": "run"}),
    "hanoi.verify": Sig({"n": 2}, {"n": "int", "pegs": "int", "diameter": "flag", "run": "run"}),
    # --- perm
    "perm.check_plot": Sig(
        {"filename": "x.png"}, {"filename": "file", "option": "text"}, {"filename": ("--plot",)}
    ),
    "perm.find": Sig({"file": "cube2-htm"}, {"file": "file"}),
    "perm.plot": Sig(
        {"result": None, "filename": "x.png"}, {"result": "object", "filename": "file"}, make=_perm_census
    ),
    "perm.Puzzle": Sig(
        {"pieces": {"p": ["a", "b"]}, "moves": {"X": "(a b)"}},
        {
            "pieces": "table",
            "moves": "table",
            "name": "text",
            "metric": "text?",
            "fixed": "ints?",
            "rotations": "table?",
            "description": "text?",
            "source": "text?",
        },
    ),
    "perm.Puzzle.from_rules": Sig({"rules": None}, {"rules": "object"}, make=_rules),
    "perm.Puzzle.from_file": Sig({"path": "cube2-htm"}, {"path": "file"}),
    "perm.Puzzle.example": Sig({"name": "cube2-htm"}, {"name": "text"}),
    "perm.Puzzle.play": Sig({"moves": "X"}, {"moves": "text", "state": "text?"}, make=_demo),
    "perm.Puzzle.convert": Sig({"to": "toml"}, {"to": "choice", "out": "file?"}, make=_demo),
    "perm.Puzzle.info": Sig({}, {"run": "run"}, make=_demo),
    "perm.Puzzle.god": Sig({}, {"show": "int", "run": "run"}, make=_demo),
    "perm.Puzzle.solve": Sig(
        {"state": "c b a"}, {"state": "text?", "scramble": "text?", "states": "int", "run": "run"}, make=_demo
    ),
    # --- queens
    "queens.count": Sig({"n": 4}, {"n": "int", "fixed": "fixed?", "method": "choice?", "run": "run"}),
    "queens.estimate": Sig(
        {"n": 10}, {"n": "int", "method": "choice", "samples": "int", "seed": "int", "seeds": "int",
                   "run": "run"}
    ),
    "queens.givens": Sig({"n": 4, "fixed": None}, {"n": "int", "fixed": "fixed?"}),
    "queens.solutions": Sig(
        {"n": 4}, {"n": "int", "unique": "flag", "fixed": "fixed?", "limit": "int"}, {"n": ("-n",)}
    ),
    "queens.board": Sig({"n": 4}, {"n": "int"}),
    "queens.solve": Sig({"n": 4}, {"n": "int"}),
    "queens.verify": Sig({"cols": [1, 3, 0, 2]}, {"cols": "ints", "n": "int?"}, {"cols": ("board",)}),
    # --- shuffle
    "shuffle.PermPuzzle": Sig(
        {"name": "p", "size": 2, "moves": ((1, 0),), "labels": (1,)},
        {"name": "text", "size": "int", "moves": "ints", "labels": "ints", "unit": "text", "item": "text"},
    ),
    "shuffle.PermPuzzle.apply": Sig({"deck": (1, 2, 3), "j": 0}, {"deck": "ints", "j": "int"}, make=_pancake),
    "shuffle.PermPuzzle.inverse": Sig({"j": 0}, {"j": "int"}, make=_pancake),
    "shuffle.PermPuzzle.play": Sig(
        {"deck": (1, 2, 3), "labels": (2,)}, {"deck": "ints", "labels": "ints"}, make=_pancake
    ),
    "shuffle.block_shuffle_puzzle": Sig({"deck": 4, "block": 2}, {"deck": "int", "block": "int"}),
    "shuffle.block_size": Sig({"n": 2}, {"n": "int?", "deck": "int?", "block": "int?"}),
    "shuffle.census": Sig(
        {"puzzle": None}, {"puzzle": "object", "start": "ints?", "show": "int", "run": "run"}, make=_pancake
    ),
    "shuffle.check_plot": Sig(
        {"filename": "x.png"}, {"filename": "file", "option": "text"}, {"filename": ("--plot",)}
    ),
    "shuffle.god": Sig({"n": 2}, {"n": "int?", "deck": "int?", "block": "int?", "show": "int", "run": "run"}),
    "shuffle.pancake_god": Sig({"n": 3}, {"n": "int", "show": "int", "burnt": "flag", "run": "run"}),
    "shuffle.pancake_puzzle": Sig({"n": 3}, {"n": "int"}),
    "shuffle.plot": Sig(
        {"result": None, "filename": "x.png"},
        {"result": "object", "filename": "file", "unit": "text"},
        make=_shuffle_census,
    ),
    "shuffle.shortest_path": Sig(
        {"puzzle": None, "start": (1, 2, 3), "goal": (3, 2, 1)},
        {"puzzle": "object", "start": "ints", "goal": "ints", "count_paths": "flag", "run": "run"},
        make=_pancake,
    ),
    "shuffle.solve": Sig(
        {"n": 2},
        {
            "n": "int?",
            "deck": "int?",
            "block": "int?",
            "start": "ints?",
            "goal": "ints?",
            "count_paths": "flag",
            "run": "run",
        },
    ),
    "shuffle.solve_pancakes": Sig(
        {"stack": (2, 1, 3)}, {"stack": "ints", "count_paths": "flag", "run": "run"}
    ),
    "shuffle.RunOptions": Sig(
        {},
        {
            "workers": "int?",
            "scheduler": "text?",
            "checkpoint": "file?",
            "store": "file?",
            "memory": "int?",
            "progress": "flag",
        },
    ),
    "shuffle.RunOptions.check_paths": Sig({}, {"store": "flag"}, make=RunOptions),
    "shuffle.RunOptions.serial": Sig({}, {"quick": "flag"}, make=RunOptions),
    "shuffle.RunOptions.workers_for": Sig({}, {"quick": "flag"}, make=RunOptions),
    # --- topswops
    "topswops.deck": Sig({"cards": "3 1 2"}, {"cards": "deck"}, {"cards": ("deck",)}),
    "topswops.estimate": Sig(
        {"n": 6, "probes": 10},
        {"n": "int", "probes": "int", "seed": "int", "long_seconds": "float?", "run": "run"},
    ),
    "topswops.long": Sig(
        {"n": 6, "seconds": 0.01},
        {"n": "int", "seconds": "float", "seed": "int", "report": "callable?", "goal": "int?", "run": "run"},
    ),
    "topswops.optimal": Sig({"n": 3}, {"n": "int", "mode": "choice", "run": "run"}),
    "topswops.play": Sig({"cards": "3 1 2"}, {"cards": "deck"}, {"cards": ("deck",)}),
    "topswops.solve": Sig(
        {"n": 3, "mode": "backward"},
        {"n": "int", "mode": "choice", "run": "run", "deep": "flag?", "start": "deck?"},
        {"start": ("deck",)},
    ),
}
# one class in several packages: fuzzed once
SAME = {"perm.RunOptions": "shuffle.RunOptions", "topswops.RunOptions": "shuffle.RunOptions"}
#: the results the API returns (frozen records, not called by a user), and exceptions
RESULTS = {
    "games": {
        "Answers",
        "Move",
        "OctalCode",
        "PopcountValues",
        "PositionMoves",
        "SubtractionSet",
        "SubtractionValues",
        "Sum",
        "Survey",
        "SurveyRow",
        "TakeBreakValues",
    },
    "hanoi": {"Distance", "Solution", "Verification"},
    "perm": {"Census", "Example", "Info", "Solution"},
    "queens": {"Count", "Estimate", "Givens", "Solved"},
    "shuffle": {"Census", "Path"},
    "topswops": {"Optimal", "Play", "Solution"},
}
#: methods that take the user's own values, whatever they are (positions of a game the user defines)
ANY_VALUE = {
    "games.ImpartialGame.grundy",
    "games.ImpartialGame.outcome",
    "games.ImpartialGame.winning_move",
    "shuffle.RunOptions.but",
}


def public_callables() -> dict[str, object]:
    """Every public function, method and constructor, by its dotted name under its package."""
    found = {}
    for puzzle in PUZZLES:
        package = importlib.import_module(f"puzzlesearch.{puzzle}")
        for name in package.__all__:
            obj = getattr(package, name)
            key = f"{puzzle}.{name}"
            if key in SAME and SAME[key] != key:
                continue
            if inspect.isclass(obj):
                if issubclass(obj, BaseException):
                    continue
                if name not in RESULTS.get(puzzle, ()):
                    found[key] = obj
                for attr, member in vars(obj).items():
                    if attr.startswith("_") or not (
                        inspect.isfunction(member) or isinstance(member, (classmethod, staticmethod))
                    ):
                        continue
                    found[f"{key}.{attr}"] = getattr(obj, attr)
            elif callable(obj):
                found[key] = obj
    return found


def _parameters(func: object) -> list[inspect.Parameter]:
    sig = inspect.signature(func)
    return [
        p
        for p in sig.parameters.values()
        if p.name not in ("self", "cls") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]


CALLABLES = public_callables()
FUZZED = sorted(k for k, f in CALLABLES.items() if k not in ANY_VALUE and _parameters(f))


def test_every_public_callable_has_a_signature():
    missing = [k for k in FUZZED if k not in SIGNATURES]
    assert not missing, f"no fuzz signature in tests/test_fuzz_api.py for: {', '.join(missing)}"
    stale = [k for k in SIGNATURES if k not in CALLABLES]
    assert not stale, f"signatures of no public callable: {', '.join(stale)}"
    for key in FUZZED:
        params = {p.name for p in _parameters(CALLABLES[key])}
        kinds = set(SIGNATURES[key].kinds)
        assert params == kinds, f"{key}: parameters {sorted(params)}, kinds given for {sorted(kinds)}"


def _wrong(kind: str) -> list:
    optional = kind.endswith("?")
    takes = KINDS[kind.rstrip("?")]
    return [v for v in POOL if not takes(v) and not (optional and v is None)]


def _target(key: str, sig: Sig):
    """The callable and the base keyword arguments (with an instance made where needed)."""
    func = CALLABLES[key]
    base = dict(sig.base)
    if sig.make is not None:
        made = sig.make()
        objects = [k for k, v in sig.kinds.items() if v == "object"]
        if objects:
            base[objects[0]] = made
        else:
            func = getattr(made, key.rsplit(".", 1)[1])
    return func, base


def _names(key: str, sig: Sig, param: str) -> tuple[str, ...]:
    return (param, param.replace("_", " "), "--" + param.replace("_", "-"), *sig.names.get(param, ()))


@pytest.mark.parametrize("key", FUZZED)
def test_wrong_types_are_refused_naming_the_argument(key, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # files a wrong call could write land here
    monkeypatch.setenv("PUZZLESEARCH_STORE", str(tmp_path / "store.sqlite"))
    sig = SIGNATURES[key]
    func, base = _target(key, sig)
    cases = [(param, value) for param, kind in sig.kinds.items() for value in _wrong(kind)]
    assert len(cases) >= 20, f"{key}: only {len(cases)} wrong-type cases"
    failures = []
    for param, value in cases:
        args = {**base, param: value}
        t0 = time.perf_counter()
        try:
            got = func(**args)
            if inspect.isgenerator(got) or hasattr(got, "__next__"):
                next(iter(got), None)
        except (ValueError, TypeError) as e:
            message = str(e)
            if "\n" in message or not any(n.lower() in message.lower() for n in _names(key, sig, param)):
                failures.append(f"{key}({param}={value!r}): {type(e).__name__} not naming {param}: {message}")
            elif "unexpected keyword" in message or "positional argument" in message:
                failures.append(f"{key}({param}={value!r}): {message}")
        except Exception as e:  # noqa: BLE001 -- the point of the test
            failures.append(f"{key}({param}={value!r}): {type(e).__name__}: {str(e)[:200]}")
        else:
            failures.append(f"{key}({param}={value!r}): accepted")
        if time.perf_counter() - t0 > 2:
            failures.append(f"{key}({param}={value!r}): took {time.perf_counter() - t0:.1f} s")
    assert not failures, f"{len(failures)} of {len(cases)} cases:\n" + "\n".join(failures)


def test_the_pool_is_not_of_one_kind():
    """Every kind meets at least 20 wrong values (the test's own check)."""
    for kind in KINDS:
        assert len(_wrong(kind)) >= 20, kind
    assert dataclasses.is_dataclass(RunOptions)
