"""Forward branch-and-bound for Topswops f(n) (Knuth's topswops-fwd.w, with the
refinements of Nguyen & Fahle 2010).

Play forward from a deck of n *placeholder* cards, the card that starts at position j
being the placeholder -j. While the top card is known, play it. When a placeholder
reaches the top, branch on which unused value it is; the deck it started as is then
known up to the placeholders that never reach the top, which play no part. Three facts
cut the branching:
  * optimal decks are derangements: a deck with card j at position j (j >= 2) is what
    a deck with j on top turns into, so it is one step short of that one. The
    placeholder -j is never given the value j.
  * card 1 is chosen only last: giving the top placeholder the value 1 ends the game
    with the steps made so far, while any other free value would make at least one
    more; so 1 is tried only when no other free value is allowed.
  * the largest cards sitting at the bottom in any order never move again: if
    positions t..n-1 hold exactly the values t+1..n, a reversal reaching them needs one
    of them on top, which never happens. From then on the game is a game of t cards
    and makes at most f(t) more steps (Nguyen & Fahle; Knuth's program uses the cards
    in order only). A node is pruned when steps so far + f(t) < target.
The bounds f(m), m < n, are this program's own results (bounds.py), and the first
target is f(n-1) + 1, which every n reaches (put n on top of an optimal (n-1)-deck reversed).
Pruning only what is *below* the target keeps every deck that reaches it, so the
search yields all optimal decks, not just one.
[D. E. Knuth, topswops-fwd.w; K. Nguyen and T. Fahle, "Topswops" computations (2010),
f(17) = 159.]

The kernel is in forward_kernel.py. This module runs it: as one call in this process, or
split into subproblems (the subtrees below the choices made first) that
puzzlesearch.engine runs on local worker processes or a Dask cluster, with a checkpoint.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.progress import Display, Meter
from puzzlesearch.topswops import calls
from puzzlesearch.topswops.bounds import first_target, own_bounds
from puzzlesearch.topswops.forward_kernel import forward_kernel
from puzzlesearch.topswops.limits import LONG_FROM, check_n

#: The split: the first depth with at least SPLIT_AT_LEAST choice prefixes, dealt into
#: TASKS tasks (>= 50 per worker up to 4 workers; fewer, larger tasks cost the parent
#: and the workers less per subtree). Fixed, never derived from the number of workers,
#: so that a checkpoint can be resumed with any --workers or on a cluster.
SPLIT_AT_LEAST = 400
TASKS = 200

_NO_PREFIX = np.zeros(0, np.int8)


@dataclass(frozen=True)
class ForwardResult:
    n: int
    steps: int  # f(n)
    decks: list[tuple[int, ...]]  # every deck reaching f(n)
    nodes_per_level: list[int]  # choice points reached after l choices
    nodes: int
    first_target: int  # where the search starts: f(n-1) + 1, or the length of a deck found before
    bounds: list[int]  # f(0..n-1), as used for pruning
    subproblems: int  # 1 for the plain serial search
    seconds: float
    bottom: int | None = None  # the bound on steps left once card n is at the bottom (deep.py), if any
    start: dict | None = None  # how the first target and the bottom bound were found (deep.solve)


def _bound_array(n: int, bounds: list[int]) -> np.ndarray:
    return np.array(list(bounds[:n]) + [0], dtype=np.int64)


def _search(n: int, bound: np.ndarray, target: int, prefix: np.ndarray = _NO_PREFIX, split_depth: int = 0,
            *, every: bool = False, in_engine: bool = False, meter: Meter | None = None) -> tuple:
    """The kernel's answer below `prefix` (forward_kernel), run again with a larger deck
    buffer until every deck reaching the best (with `every`: reaching the target, which
    then stays fixed) fits. In this process, the call is
    interruptible (calls.call) and `meter` follows its node counts; `in_engine`: called
    by an engine task, which is already interruptible (a helper thread) or in a worker
    process (where Ctrl-C goes to the parent), so the kernel is called directly."""
    nodes = np.zeros(n + 2, np.int64)

    def run(cap: int) -> tuple:
        args = (n, bound, target, prefix, split_depth, cap, nodes, not every)
        if in_engine:
            return forward_kernel(*args)
        return calls.call(forward_kernel, *args, meter=meter, nodes=nodes)

    return calls.until_it_fits(run, needed=lambda r: max(r[1], r[5]))


def _part(best: int, count: int, decks: np.ndarray, nodes: np.ndarray, *_: object) -> dict:
    """A kernel's answer as a JSON value: its best, the decks reaching it, its nodes per level."""
    return {"best": int(best), "decks": [[int(x) for x in d] for d in decks[:count]],
            "nodes": [int(x) for x in nodes]}


def forward_task(task: dict, found: int) -> dict:
    """One subproblem (engine task): the subtrees below each choice prefix in
    task["prefixes"]. The target starts at the best found so far by the whole run (or
    task["target"]) and rises from one subtree to the next as better decks turn up; with
    task["every"], it stays at task["target"] and every deck reaching it is kept."""
    n = task["n"]
    bound = _bound_array(n, task["bounds"])
    every = task.get("every", False)
    target = task["target"] if every else max(task["target"], found)
    parts = []
    for prefix in task["prefixes"]:
        part = _part(*_search(n, bound, target, np.array(prefix, dtype=np.int8), every=every, in_engine=True))
        parts.append(part)
        if not every:
            target = max(target, part["best"])
    best, decks, nodes = _merge(n, parts, every)
    return {"best": best, "decks": [list(d) for d in decks], "nodes": nodes}


def _best_so_far(found: int, result: dict) -> int:
    return max(found, result["best"])


def split_tasks(n: int, bounds: list[int], at_least: int = SPLIT_AT_LEAST,
                tasks: int = TASKS, *, target: int | None = None,
                every: bool = False) -> tuple[list[dict], dict]:
    """Subproblems: the choice prefixes at the first depth giving at least `at_least`
    of them, dealt round-robin into at most `tasks` tasks (so that each task holds
    subtrees from all over the tree, and the big ones spread out). Also returns what
    the split itself found (leaves above that depth). `target`: the first target
    (default f(n-1) + 1); `every`: list every deck reaching it (forward_kernel's rise)."""
    bound = _bound_array(n, bounds)
    if target is None:
        target = first_target(bounds, n)
    depth = 1
    while True:
        found = _search(n, bound, target, split_depth=depth, every=every)
        paths, npaths = found[4], found[5]
        if npaths >= at_least or depth >= n - 1 or npaths == 0:
            break
        depth += 1
    prefixes = [[int(x) for x in p] for p in paths[:npaths]]
    ntasks = min(tasks, len(prefixes))
    work = [{"n": n, "bounds": list(bounds[:n]), "target": target, "every": every,
             "prefixes": prefixes[i::ntasks]} for i in range(ntasks)]
    return work, _part(*found)


def _merge(n: int, parts: list[dict], every: bool = False) -> tuple[int, list[tuple[int, ...]], list[int]]:
    """The best over all parts, every deck reaching it (with `every`: every deck of every
    part), and the node counts summed."""
    best = max(p["best"] for p in parts)
    decks = sorted({tuple(d) for p in parts if every or p["best"] == best for d in p["decks"]})
    width = max(len(p["nodes"]) for p in parts)
    nodes = [sum(p["nodes"][i] for p in parts if i < len(p["nodes"])) for i in range(width)]
    while len(nodes) > 1 and nodes[-1] == 0:
        nodes.pop()
    return best, decks, nodes


def _best_text(first: int):
    def text(found: int) -> str:
        # the target is not an answer: say what is sought until a deck reaches it
        return f"best so far: {found} steps" if found >= 0 else f"searching for decks of >= {first} steps"
    return text


def solve_forward(n: int, bounds: list[int] | None = None, *,
                  run: RunOptions = RunOptions(),  # noqa: B008 (frozen)
                  target: int | None = None, bottom: int | None = None, every: bool = False) -> ForwardResult:
    """f(n) and all decks reaching it, by the forward branch-and-bound.

    `bounds` (f(0..n-1)) default to this program's own results (bounds.own_bounds, in
    ``run.store``). `target`: where the search starts (default f(n-1) + 1); it must be
    the length of a deck that exists (then the search finds every deck of f(n) steps).
    `bottom`: at most that many steps are left once card n is at the bottom (deep.py),
    a bound valid for games of at least `target` steps. `every`: keep the target fixed
    and list every deck reaching it (as patterns, 0 for a card that never reaches the
    top), not just the longest. When ``run`` says serial (one worker and no checkpoint
    or scheduler; by the engine's policy, the default for n < LONG_FROM) the search is
    one kernel call in this process; otherwise it is split into subproblems run by
    engine.run_tasks.
    """
    n = check_n(n, "forward")
    t0 = time.perf_counter()
    if bounds is None:
        bounds = own_bounds(n, store=run.store, progress=run.progress)
    own = list(bounds[:n])
    first = first_target(bounds, n) if target is None else target
    used = own if bottom is None else [min(b, bottom) for b in own]
    quick = n < LONG_FROM
    label = f"topswops forward n={n}" + (f" (every deck of >= {first} steps)" if every else "")
    if run.serial(quick):
        with Meter(label, None, "decks", run.progress and not quick) as meter:
            parts = [_part(*_search(n, _bound_array(n, used), first, every=every, meter=meter))]
            meter.update(sum(parts[0]["nodes"]))
        subproblems = 1
    else:
        from puzzlesearch.engine.run import run_tasks

        tasks, found = split_tasks(n, used, target=first, every=every)
        params = {"puzzle": "topswops", "search": "forward", "n": n, "bounds": own}
        if target is not None or bottom is not None or every:  # the plain search's checkpoints keep their key
            params |= {"target": first, "bottom": bottom, "every": every}
        results = run_tasks(
            forward_task,
            tasks,
            shared=-1 if every else found["best"],
            update=None if every else _best_so_far,
            params=params,
            options=run.but(workers=run.workers_for(quick)),
            display=Display(label=label, unit="decks", nodes=lambda r: sum(r["nodes"]),
                            best=_best_text(first)),
        )
        parts = [found, *results]
        subproblems = len(tasks)
    best, decks, nodes = _merge(n, parts, every)
    if best < 0 and not every:
        why = f"{first} = f({n - 1}) + 1; a bound is wrong" if target is None else f"the target {first}"
        raise RuntimeError(f"no deck of {n} cards reached {why}")
    return ForwardResult(
        n=n,
        steps=best,
        decks=decks,
        nodes_per_level=nodes,
        nodes=sum(nodes),
        first_target=first,
        bounds=own,
        subproblems=subproblems,
        seconds=time.perf_counter() - t0,
        bottom=bottom,
    )


__all__ = ["SPLIT_AT_LEAST", "TASKS", "ForwardResult", "forward_task", "solve_forward", "split_tasks"]
