"""Forward branch-and-bound search for f(n) (Knuth's topswops-fwd.w).

Cards are chosen only when they reach the top. Start with n *placeholders* -1..-n
(placeholder -j stands for the unknown card that starts at position j-1), and whenever a
placeholder is on top, choose which unused value it is, then play moves until a
placeholder is on top again. Two rules shrink the tree:

- the derangement rule: a deck with card j at position j (j >= 2) is never optimal, since
  undoing the move j from it gives a deck one step longer; so placeholder -j never gets
  the value j;
- the bound: once the cards at positions t..n-1 are t+1..n in place, they never move
  again, and at most f(t) steps remain; prune when steps + f(t) < target. The block grows
  only by a move that puts card t at position t-1, so it is checked on those moves, in the
  middle of a run of moves as well as at its end.

The bounds f(m), m < n, are this program's own results (own_bounds), and the first
target is f(n-1) + 1, which every n reaches (bounds.py). Pruning only what is *below* the
target keeps every deck that reaches it, so the search yields all optimal decks, not just
one. [D. E. Knuth, topswops-fwd.w; K. Nguyen and T. Fahle, "Topswops" computations
(2010), f(17) = 159.]

What is searched is a `Tree`: n, the bounds, the target, and optionally the bottom
bound (bottom.py) and `every` (list every deck reaching the fixed target). The kernel is
in forward_kernel.py. `search` runs it: as one call in this process, or split into
subproblems (the subtrees below the choices made first) that puzzlesearch.engine runs on
local worker processes or a Dask cluster, with a checkpoint.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.progress import Display, Meter
from puzzlesearch.engine.run import run_tasks
from puzzlesearch.topswops import calls, known
from puzzlesearch.topswops.bounds import bound_array, first_target, pruned
from puzzlesearch.topswops.forward_kernel import Found, forward_kernel
from puzzlesearch.topswops.limits import LONG_FROM, MAX_PACKED, check_n
from puzzlesearch.topswops.wide_kernel import wide_kernel

#: The split: the first depth with at least SPLIT_AT_LEAST choice prefixes, dealt into
#: TASKS tasks (>= 50 per worker up to 4 workers; fewer, larger tasks cost the parent
#: and the workers less per subtree). Fixed, never derived from the number of workers,
#: so that a checkpoint can be resumed with any --workers or on a cluster.
SPLIT_AT_LEAST = 400
TASKS = 200

_NO_PREFIX = np.zeros(0, np.int8)


@dataclass(frozen=True)
class Tree:
    """The tree the forward search walks.

    n        cards
    bounds   f(0..n-1) (bounds.py)
    target   the fewest steps a deck must make to count: f(n-1) + 1, or the length of a
             deck that exists (then every deck of f(n) steps is still found)
    bottom   at most this many steps are left once card n is at the bottom, for the games
             of at least `target` steps (bottom.py); None: no such bound
    every    keep the target fixed and list every deck reaching it (as patterns, 0 for a
             card that never reaches the top), not just the longest
    deep     the deep search's tree (plan.py), started at a deck found beforehand: its
             checkpoints are keyed by its target and bottom bound, whatever they are
    """

    n: int
    bounds: tuple[int, ...]
    target: int
    bottom: int | None = None
    every: bool = False
    deep: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "bounds", tuple(int(b) for b in self.bounds[: self.n]))

    @classmethod
    def plain(cls, n: int, bounds: list[int] | tuple[int, ...]) -> Tree:
        """Knuth's search for f(n): its bounds, the first target, no bottom bound."""
        return cls(n, tuple(bounds[:n]), first_target(bounds, n))

    def is_plain(self) -> bool:
        """Knuth's search for f(n): the first target, no bottom bound, not the deep search's."""
        return not (self.deep or self.every or self.bottom is not None) \
            and self.target == first_target(self.bounds, self.n)


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
    bottom: int | None = None  # the bound on steps left once card n is at the bottom (bottom.py), if any


def kernel(n: int):
    """The kernel for decks of n cards: packed 4 bits a card up to MAX_PACKED cards
    (forward_kernel.py), a row of bytes beyond (wide_kernel.py). Both walk the same tree."""
    return forward_kernel if n <= MAX_PACKED else wide_kernel


def search_below(n: int, bound: np.ndarray, target: int, prefix: np.ndarray = _NO_PREFIX,
                 split_depth: int = 0, *, every: bool = False, in_engine: bool = False,
                 meter: Meter | None = None) -> Found:
    """The kernel's answer below `prefix` (forward_kernel), run again with a larger deck
    buffer until every deck reaching the best (with `every`: reaching the target, which
    then stays fixed) fits. In this process, the call is
    interruptible (calls.call) and `meter` follows its node counts; `in_engine`: called
    by an engine task, which is already interruptible (a helper thread) or in a worker
    process (where Ctrl-C goes to the parent), so the kernel is called directly."""
    nodes = np.zeros(n + 2, np.int64)

    def run(cap: int) -> Found:
        args = (n, bound, target, prefix, split_depth, cap, nodes, not every)
        if in_engine:
            return Found._make(kernel(n)(*args))
        return Found._make(calls.call(kernel(n), *args, meter=meter, nodes=nodes))

    return calls.until_it_fits(run, needed=lambda found: max(found.count, found.npaths))


def part(found: Found) -> dict:
    """A kernel's answer as a JSON value: its best, the decks reaching it, its nodes per level."""
    return {"best": int(found.best), "decks": [[int(x) for x in d] for d in found.decks[:found.count]],
            "nodes": [int(x) for x in found.nodes]}


def forward_task(task: dict, best: int) -> dict:
    """One subproblem (engine task): the subtrees below each choice prefix in
    task["prefixes"]. The target starts at `best`, the best found so far by the whole run
    (or task["target"]), and rises from one subtree to the next as better decks turn up;
    with task["every"], it stays at task["target"] and every deck reaching it is kept."""
    n = task["n"]
    bound = bound_array(n, task["bounds"])
    every = task.get("every", False)
    target = task["target"] if every else max(task["target"], best)
    parts = []
    for prefix in task["prefixes"]:
        p = part(search_below(n, bound, target, np.array(prefix, dtype=np.int8), every=every, in_engine=True))
        parts.append(p)
        if not every:
            target = max(target, p["best"])
    top, decks, nodes = merge(parts, every)
    return {"best": top, "decks": [list(d) for d in decks], "nodes": nodes}


def _best_so_far(best: int, result: dict) -> int:
    return max(best, result["best"])


def split_tasks(tree: Tree, at_least: int = SPLIT_AT_LEAST, tasks: int = TASKS) -> tuple[list[dict], dict]:
    """Subproblems: the choice prefixes at the first depth giving at least `at_least`
    of them, dealt round-robin into at most `tasks` tasks (so that each task holds
    subtrees from all over the tree, and the big ones spread out). Also returns what
    the split itself found (leaves above that depth), as a part."""
    n = tree.n
    used = pruned(tree.bounds, n, tree.bottom)
    bound = bound_array(n, used)
    depth = 1
    while True:
        split = search_below(n, bound, tree.target, split_depth=depth, every=tree.every)
        if split.npaths >= at_least or depth >= n - 1 or split.npaths == 0:
            break
        depth += 1
    prefixes = [[int(x) for x in p] for p in split.paths[:split.npaths]]
    ntasks = min(tasks, len(prefixes))
    work = [{"n": n, "bounds": used, "target": tree.target, "every": tree.every,
             "prefixes": prefixes[i::ntasks]} for i in range(ntasks)]
    return work, part(split)


def merge(parts: list[dict], every: bool = False) -> tuple[int, list[tuple[int, ...]], list[int]]:
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
    def text(best: int) -> str:
        # the target is not an answer: say what is sought until a deck reaches it
        return f"best so far: {best} steps" if best >= 0 else f"searching for decks of >= {first} steps"
    return text


def search(tree: Tree, run: RunOptions) -> ForwardResult:
    """Every deck of `tree` reaching the best (f(n), when the target is at most f(n)), or
    with ``tree.every`` every deck reaching the target, by the forward branch-and-bound.

    When ``run`` says serial (one worker and no checkpoint or scheduler; by the engine's
    policy, the default for n < LONG_FROM) the search is one kernel call in this process;
    otherwise it is split into subproblems run by engine.run_tasks.
    """
    n = check_n(tree.n, "forward")
    t0 = time.perf_counter()
    own = list(tree.bounds)
    used = pruned(own, n, tree.bottom)
    target, every = tree.target, tree.every
    quick = n < LONG_FROM
    label = f"topswops forward n={n}" + (f" (every deck of >= {target} steps)" if every else "")
    if run.serial(quick):
        with Meter(label, None, "decks", run.progress and not quick) as meter:
            parts = [part(search_below(n, bound_array(n, used), target, every=every, meter=meter))]
            meter.update(sum(parts[0]["nodes"]))
        subproblems = 1
    else:
        tasks, above = split_tasks(tree)
        params = {"puzzle": "topswops", "search": "forward", "n": n, "bounds": own}
        if not tree.is_plain():  # the plain search's checkpoints keep their key
            params |= {"target": target, "bottom": tree.bottom, "every": every}
        results = run_tasks(
            forward_task,
            tasks,
            shared=-1 if every else above["best"],
            update=None if every else _best_so_far,
            params=params,
            options=run.but(workers=run.workers_for(quick)),
            display=Display(label=label, unit="decks", nodes=lambda r: sum(r["nodes"]),
                            best=_best_text(target)),
        )
        parts = [above, *results]
        subproblems = len(tasks)
    best, decks, nodes = merge(parts, every)
    if best < 0 and not every:
        why = f"{target} = f({n - 1}) + 1; a bound is wrong" if tree.is_plain() else f"the target {target}"
        raise RuntimeError(f"no deck of {n} cards reached {why}")
    return ForwardResult(
        n=n,
        steps=best,
        decks=decks,
        nodes_per_level=nodes,
        nodes=sum(nodes),
        first_target=target,
        bounds=own,
        subproblems=subproblems,
        seconds=time.perf_counter() - t0,
        bottom=tree.bottom,
    )


def own_bounds(n: int, store: str | None = None, *, progress: bool = False,
               workers: int | None = 1) -> list[int]:
    """f(0..n-1), each this program's own result: read back from the results store, or
    computed now by the forward search (smallest first, each using the ones before) and
    stored; never taken from a published table. `progress`: a meter for the long ones;
    `workers`: local worker processes for those from LONG_FROM cards on (None: all
    cores), the smaller ones running in this process."""
    bounds = [0]
    for m in range(1, n):
        value = known.f(m, store)
        if value is None:
            # below LONG_FROM cards a search takes well under a second, less than a pool costs
            here = RunOptions(workers=workers if m >= LONG_FROM else 1, progress=progress)
            r = search(Tree.plain(m, bounds), here)
            value = r.steps
            with known.on_the_way():
                known.remember_f(m, value, "forward", r.seconds, store)
                known.keep_deck(m, r.decks[0], value, "the forward search", store)
        bounds.append(value)
    return bounds


__all__ = ["SPLIT_AT_LEAST", "TASKS", "ForwardResult", "Tree", "forward_task", "kernel", "merge",
           "own_bounds", "part", "search", "search_below", "split_tasks"]
