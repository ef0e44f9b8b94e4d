"""How big is the forward search for n, before running it (`topswops estimate`).

Knuth's estimate [D. E. Knuth, "Estimation of the efficiency of backtrack programs",
Math. Comp. 29 (1975) 121-136]: walk from the root of a search tree to a leaf, choosing
each child at random; with d_1, d_2, ... the numbers of children met on the way,
1 + d_1 + d_1 d_2 + ... is an unbiased estimate of the number of nodes. The mean over many
such probes estimates the size of the tree, and their spread gives a standard error.

The tree is the forward search's (forward_kernel.py), node for node (probes_kernel.py),
with its bounds f(m), m < n, and a fixed target. The real search raises its target to the
best it has found; it meets an optimal deck early, so its tree is close to the tree with
target f(n) (measured: n = 13, 125,770,480 nodes against 120,897,591 with target 80 from
the start, and 3.4e8 with target f(12) + 1 = 66). So the target of the estimate is f(n)
when the results store has it, else the length of the best deck `topswops long` finds in
long_time(n) seconds (at most f(n), so the estimate errs high), and never below f(n-1) + 1.

Nodes per second come from the real kernel, timed on random subtrees (below the choices
of random probes, at a depth where a subtree is about SUBTREE nodes) for about `sample`
seconds; the expected time on W workers is nodes / (nodes per second x W).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from puzzlesearch.engine.options import RunOptions, cores
from puzzlesearch.engine.params import listed, whole
from puzzlesearch.topswops import calls, known
from puzzlesearch.topswops.bounds import bound_array, first_target, pruned
from puzzlesearch.topswops.forward import Tree, kernel, own_bounds
from puzzlesearch.topswops.limits import LONG_FROM, MAX_FORWARD
from puzzlesearch.topswops.longdecks import long_decks, rng_state
from puzzlesearch.topswops.probes_kernel import probe_kernel

#: the typical size of a subtree timed for the nodes per second
SUBTREE = 2e5


@dataclass(frozen=True)
class Estimate:
    n: int
    target: int  # the target of the estimated tree
    target_from: str  # where it comes from: "store" (f(n)), "long" (a deck found), "f(n-1)+1"
    long_seconds: float  # how long `long` looked for it (0: not run)
    first_target: int  # f(n-1) + 1, where the real search starts
    nodes: float  # the estimate
    stderr: float | None  # its standard error (None from one probe: no spread to measure)
    probes: int
    nodes_per_level: list[float]  # estimated nodes after l choices
    upper: float  # the estimate with target f(n-1)+1 (the tree if no deck raised the target)
    nodes_per_second: float
    sampled_nodes: int
    workers: int
    seconds: float  # expected time of the forward search on `workers` workers
    took: float  # seconds this estimate took
    method: str = "plain"  # the plan `solve` would choose (plan.with_plan): "plain" or "deep"
    why: str = ""  # what was compared
    plan_nodes: float = 0.0  # nodes of that plan: its search, and for deep its listings
    plan_seconds: float = 0.0  # its expected time on `workers` workers
    parts: dict[str, float] | None = None  # nodes of each part of the deep plan
    k: int | None = None  # its listing of n - 1 cards: games of at least k steps
    k2: int | None = None  # its chain of n - 2 cards: games of at least k2 steps
    witness: tuple[int, ...] | None = None  # a deck of `target` steps, if one is known


def long_time(n: int) -> float:
    """Seconds of `long` for the target: grows with the search it is for (n = 14: 5 s), at most 10."""
    return min(10.0, 0.04 * 2 ** (n / 2))


def check(n: object) -> int:
    n = whole(n, "n")
    if not 1 <= n <= MAX_FORWARD:
        raise ValueError(f"estimate supports 1 <= n <= {MAX_FORWARD} (the forward search it estimates keeps "
                         f"a deck in at most {MAX_FORWARD} bytes), got n={n}")
    return n


def _bounds(n: int, store: str | None) -> tuple[list[int], int | None]:
    """f(0..n-1) (forward.own_bounds: computed now for the small ones) and f(n) if the
    store has it. A missing f(m) with m >= LONG_FROM is refused: it is a long run."""
    missing = known.missing_f(range(LONG_FROM, n), store)
    if missing:
        # solving the largest one computes and stores the smaller ones on the way (own_bounds)
        names = [f"f({m})" for m in missing]
        need = listed(names)
        also = "" if len(missing) == 1 else f" (it computes {', '.join(names[:-1])} on the way)"
        raise ValueError(f"the estimate for n={n} needs {need} in the results store (each f(m) from "
                         f"m = {LONG_FROM} on is a long run); run "
                         f"`puzzlesearch topswops solve -n {missing[-1]} --mode forward` first{also}")
    return own_bounds(n, store=store), known.f(n, store)


class Probes(NamedTuple):
    estimates: np.ndarray  # one estimate of the nodes per probe
    per_level: np.ndarray  # the estimated nodes after l choices
    paths: np.ndarray  # the values each probe chose (0 past its end)


def probe(n: int, bound: np.ndarray, target: int, probes: int, rng: np.ndarray) -> Probes:
    """`probes` of Knuth's random probes of the forward tree (probes_kernel.probe_kernel)."""
    per_level = np.zeros(n + 2, np.float64)
    paths = np.zeros((probes, n), np.int8)
    ests = calls.call(probe_kernel, n, bound, target, probes, rng, per_level, paths)
    return Probes(ests, per_level / probes, paths)


def prefix_type() -> np.ndarray:
    """An empty prefix of the kernels' type."""
    return np.zeros(0, np.int8)


def _rate(n: int, bound: np.ndarray, target: int, per_level: np.ndarray, paths: np.ndarray,
          sample: float, rng: np.random.Generator) -> tuple[float, int]:
    """Nodes per second of the real kernel, timed on subtrees below random probes' choices."""
    total = per_level.sum()
    depth = 0
    while depth + 1 < len(per_level) and per_level[depth + 1] > 0 and \
            per_level[depth:].sum() / per_level[depth] > SUBTREE:
        depth += 1
    rows = np.flatnonzero(paths[:, depth - 1] != 0) if depth > 0 else np.zeros(1, np.int64)
    nodes_arr = np.zeros(n + 2, np.int64)
    count, spent = 0, 0.0
    if total <= 0 or len(rows) == 0:
        return 0.0, 0
    # load (or compile) the kernel before the clock runs: a 1-card search of the same types
    kernel(n)(1, bound_array(1, [0]), 0, prefix_type(), 0, 1, np.zeros(3, np.int64), True)
    while spent < sample:
        prefix = paths[rng.choice(rows), :depth].astype(np.int8)
        t0 = time.perf_counter()
        calls.call(kernel(n), n, bound, target, prefix, 0, calls.FIRST_CAP, nodes_arr, True)
        spent += time.perf_counter() - t0
        count += int(nodes_arr.sum())
        if depth == 0:
            break
    return count / spent if spent > 0 else 0.0, count


def estimate(n: int, *, run: RunOptions = RunOptions(), probes: int = 200_000, seed: int = 0,  # noqa: B008
             sample: float = 1.0, long_seconds: float | None = None) -> Estimate:
    """Knuth's estimate of the forward search's nodes for n, and its expected time on
    ``run.workers`` workers (default: all cores), with the bounds of the results store
    ``run.store``. See the module docstring. `long_seconds`: how long `long` looks for a
    target when the store has no f(n) (default long_time(n))."""
    n = check(n)
    workers = cores() if run.workers is None else run.workers
    probes = whole(probes, "--probes")
    seed = whole(seed, "--seed")
    if not 1 <= probes <= 10**8:
        raise ValueError(f"--probes must be between 1 and 10**8, got {probes}")
    t0 = time.perf_counter()
    bounds, fn = _bounds(n, run.store)
    first = first_target(bounds, n)
    if fn is not None:
        target, source, long_seconds = fn, "store", 0.0
        witness = known.deck(n, run.store)
    else:
        long_seconds = long_time(n) if long_seconds is None else long_seconds
        found = long_decks(n, long_seconds, seed) if n > 1 else None
        steps = found.steps if found is not None else 0
        target, source = (steps, "long") if steps >= first else (first, "f(n-1)+1")
        witness = found.deck if found is not None else None
    bound = bound_array(n, bounds)
    probed = probe(n, bound, target, probes, rng_state(seed))
    upper = float(probed.estimates.mean())
    if target > first:
        upper = float(probe(n, bound, first, probes, rng_state(seed + 1)).estimates.mean())
    pick = np.random.default_rng(seed & (2**64 - 1))
    rate, sampled = _rate(n, bound, target, probed.per_level, probed.paths, sample, pick)
    nodes = float(probed.estimates.mean())
    seconds = nodes / (rate * workers) if rate > 0 else 0.0
    return Estimate(
        n=n, target=target, target_from=source, long_seconds=long_seconds, first_target=first, nodes=nodes,
        stderr=float(probed.estimates.std(ddof=1) / np.sqrt(probes)) if probes > 1 else None,
        probes=probes, nodes_per_level=[float(x) for x in probed.per_level[: n + 1]], upper=upper,
        nodes_per_second=rate, sampled_nodes=sampled, workers=workers,
        seconds=seconds, took=time.perf_counter() - t0, plan_nodes=nodes, plan_seconds=seconds,
        witness=tuple(witness) if witness is not None else None,
    )


@dataclass(frozen=True)
class Preview:
    """The estimate of a search about to run (plan.py), for its own bounds and target."""

    nodes: float
    stderr: float
    probes: int
    nodes_per_second: float
    workers: int
    seconds: float  # expected on `workers` workers


def preview(tree: Tree, workers: int, probes: int = 100_000, seed: int = 0, sample: float = 1.0) -> Preview:
    """The nodes of the forward search of `tree` (with its bottom bound, and its target
    fixed) and its expected seconds on `workers` workers."""
    n = tree.n
    bound = bound_array(n, pruned(tree.bounds, n, tree.bottom))
    probed = probe(n, bound, tree.target, probes, rng_state(seed))
    pick = np.random.default_rng(seed)
    rate, _ = _rate(n, bound, tree.target, probed.per_level, probed.paths, sample, pick)
    nodes = float(probed.estimates.mean())
    return Preview(nodes=nodes, stderr=float(probed.estimates.std(ddof=1) / np.sqrt(probes)), probes=probes,
                   nodes_per_second=rate, workers=workers,
                   seconds=nodes / (rate * workers) if rate > 0 else 0.0)


__all__ = ["SUBTREE", "Estimate", "Preview", "Probes", "check", "estimate", "long_time",
           "preview", "probe"]
