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
The bounds f(m), m < n, are this program's own results, and the first target is
f(n-1) + 1, which every n reaches (put n on top of an optimal (n-1)-deck reversed).
Pruning only what is *below* the target keeps every deck that reaches it, so the
search yields all optimal decks, not just one.
[D. E. Knuth, topswops-fwd.w; K. Nguyen and T. Fahle, "Topswops" computations (2010),
f(17) = 159.]

Data structures of the kernel (one row per level l = number of values chosen):
  deck_at[l]    the deck when the l-th choice is due: value > 0 known, -j placeholder
  steps_at[l]   reversals made so far
  used_at[l]    bit v set when value v has been chosen
  fixed_at[l]   t: positions t..n-1 hold exactly the values t+1..n (never move again)
  next_at[l]    the next value to try for the placeholder on top
  who[l], val[l]  the placeholder -who[l] was given the value val[l]
Invariant: deck_at[l][0] is a placeholder, and deck_at[l] is what the deck made of the
choices val[0..l-1] looks like after steps_at[l] reversals.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from puzzlesearch.topswops.backward import _reverse_nibbles

#: a deck is packed 4 bits per position (values 1..16 stored as 0..15), so n <= 16
MAX_N = 16

_F = np.uint64(15)
_ALL = ~np.uint64(0)


@njit(cache=True, inline="always")
def _masks(k):
    """Shift and masks that reverse the top k nibbles of a word X, given R = reverse(X):
    X' = (R >> sh) | (X & keep) and reverse(X') = (X << sh) | (R & rkeep). Computed, not
    looked up: a table load would sit on the critical path of every reversal. The double
    shifts keep k = 16 defined (a shift by 64 is not)."""
    q = np.uint64(4 * k - 4)
    return (np.uint64(64 - 4 * k), (_ALL << q) << np.uint64(4), (_ALL >> q) >> np.uint64(4))


@njit(cache=True)
def forward_kernel(n, bound, target, prefix, split_depth, cap):
    """Branch-and-bound below the choices `prefix`.

    bound[m] = f(m) for m < n; bound[n] is ignored (no pruning on the whole deck).
    Searches the subtree where the first len(prefix) choices are prefix[...]. With
    split_depth > len(prefix), stops at that many choices and lists the paths there
    instead (the subproblems), while still solving the leaves met on the way.

    Returns (best, count, decks, nodes, paths, npaths):
      best    the most steps seen at a leaf with steps >= target (-1 if none)
      decks   decks[:min(count, cap)] start decks reaching `best`
      nodes   nodes[l] = choice points reached after l choices (leaves included)
      paths   paths[:npaths] = choice prefixes of length split_depth (split only)
    """
    # each deck is two words and their nibble reversals: D holds value-1 for a known
    # card and j-1 for the placeholder -j; K has nibble 15 where the card is known.
    d_at = np.zeros(n + 1, np.uint64)
    rd_at = np.zeros(n + 1, np.uint64)
    k_at = np.zeros(n + 1, np.uint64)
    rk_at = np.zeros(n + 1, np.uint64)
    steps_at = np.zeros(n + 1, np.int64)
    free_at = np.zeros(n + 1, np.int64)  # bit v: value v (>= 2) not chosen yet
    todo_at = np.zeros(n + 1, np.int64)  # bit v: value v still to try here
    fixed_at = np.zeros(n + 1, np.int64)
    only1 = np.zeros(n + 1, np.bool_)  # no value but 1 may go to the top placeholder
    who = np.zeros(n + 1, np.int64)
    val = np.zeros(n + 1, np.int64)
    nodes = np.zeros(n + 2, np.int64)
    decks = np.zeros((cap, n), np.int8)
    maxpaths = cap if split_depth > 0 else 1
    paths = np.zeros((maxpaths, max(split_depth, 1)), np.int8)
    npaths = 0
    best, count = -1, 0
    d0 = np.uint64(0)
    for i in range(n):
        d0 |= np.uint64(i) << np.uint64(4 * i)
    d_at[0] = d0
    rd_at[0] = _reverse_nibbles(d0)
    fixed_at[0] = n
    free_at[0] = ((np.int64(1) << (n + 1)) - 1) & ~np.int64(3)
    npre = len(prefix)
    level = 0
    if npre == 0:
        nodes[0] = 1
    todo_at[0], only1[0] = _choices(free_at[0], d0, 0, npre, prefix)
    while True:
        todo = todo_at[level]
        D = d_at[level]
        j = np.int64(D & _F) + 1
        if todo == 0:
            if only1[level]:
                # nothing but 1 could be given to -j: the game ends here
                only1[level] = False
                c = steps_at[level]
                nodes[level + 1] += 1
                if c >= target:
                    if c > best:
                        best, count = c, 0
                        target = max(target, c)
                    if count < cap:
                        _rebuild(n, who, val, level, j, 1, decks[count])
                    count += 1
            if level <= npre:
                break
            level -= 1
            continue
        bit = todo & -todo
        todo_at[level] = todo ^ bit
        v = np.int64(trailing_zeros(bit))
        free = free_at[level] ^ bit
        c = steps_at[level]
        K = k_at[level] | _F
        RK = rk_at[level] | (_F << np.uint64(60))
        D = (D & ~_F) | np.uint64(v - 1)
        RD = (rd_at[level] & ~(_F << np.uint64(60))) | (np.uint64(v - 1) << np.uint64(60))
        if free == 0:
            # v was the last value but 1: the one placeholder left is 1, and the rest
            # of the game is a plain game of known cards (1 stored as 0)
            c, done = _play_out(D & K, RD & RK, v, c, fixed_at[level], bound, target)
            nodes[level + 1] += 1
            if done and c >= target:
                if c > best:
                    best, count = c, 0
                    target = max(target, c)
                if count < cap:
                    who[level] = j
                    val[level] = v
                    _rebuild(n, who, val, level + 1, 0, 0, decks[count])
                count += 1
            continue
        D, RD, K, RK, c = _play(D, RD, K, RK, v, c)
        t = _closure(D, K, fixed_at[level])
        if t < n and c + bound[t] < target:
            continue
        who[level] = j
        val[level] = v
        if split_depth == 0 and level + 1 >= npre and free & (free - 1) & (free - 1 - (free & -free)) == 0:
            # The child has one or two values left but 1: settle it here instead of going
            # down a level (most nodes are such, so this saves pushes and pops).
            if level + 1 > npre:
                nodes[level + 1] += 1
            if free & (free - 1) == 0:
                nodes[level + 2] += 1
                c1, done, j2, x, ends = _settle1(D, RD, K, RK, c, t, free, bound, target)
                if done and c1 >= target:
                    best, count, target = _record(n, who, val, level + 1, j2, x, ends, c1,
                                                  best, count, target, decks)
                continue
            j2 = np.int64(D & _F) + 1
            options = free & ~(np.int64(1) << j2)
            K |= _F
            RK |= _F << np.uint64(60)
            while options:
                wbit = options & -options
                options ^= wbit
                w = np.int64(trailing_zeros(wbit))
                D2 = (D & ~_F) | np.uint64(w - 1)
                RD2 = (RD & ~(_F << np.uint64(60))) | (np.uint64(w - 1) << np.uint64(60))
                D2, RD2, K2, RK2, c2 = _play(D2, RD2, K, RK, w, c)
                t2 = _closure(D2, K2, t)
                if t2 < n and c2 + bound[t2] < target:
                    continue
                who[level + 1] = j2
                val[level + 1] = w
                nodes[level + 2] += 1
                nodes[level + 3] += 1
                c1, done, j3, x, ends = _settle1(D2, RD2, K2, RK2, c2, t2, free ^ wbit, bound, target)
                if done and c1 >= target:
                    best, count, target = _record(n, who, val, level + 2, j3, x, ends, c1,
                                                  best, count, target, decks)
            continue
        level += 1
        if level > npre:  # a task does not count the nodes of its prefix again
            nodes[level] += 1
        d_at[level] = D
        rd_at[level] = RD
        k_at[level] = K
        rk_at[level] = RK
        steps_at[level] = c
        free_at[level] = free
        fixed_at[level] = t
        if split_depth > 0 and level == split_depth:
            if npaths < maxpaths:
                for q2 in range(split_depth):
                    paths[npaths, q2] = val[q2]
            npaths += 1
            level -= 1
            continue
        todo_at[level], only1[level] = _choices(free, D, level, npre, prefix)
    return best, count, decks, nodes, paths, npaths


@njit(cache=True, inline="always")
def _play(D, RD, K, RK, k, c):
    """Play from a deck whose top card k is known, until a placeholder is on top."""
    while True:
        s, kp, rkp = _masks(k)
        D, RD = (RD >> s) | (D & kp), (D << s) | (RD & rkp)
        K, RK = (RK >> s) | (K & kp), (K << s) | (RK & rkp)
        c += 1
        if (K & _F) == 0:
            return D, RD, K, RK, c
        k = np.int64(D & _F) + 1


@njit(cache=True, inline="always")
def _settle1(D, RD, K, RK, c, t, free, bound, target):
    """A choice point whose only value left but 1 is x (free = 1 << x), placeholder -j
    on top: -j is x and the last placeholder 1, or, when x = j, -j is 1 and the game ends.
    Returns (steps, whether the game reached its end, j, x, whether -j is 1)."""
    j = np.int64(D & _F) + 1
    x = np.int64(trailing_zeros(free))
    if x == j:
        return c, True, j, x, True
    K |= _F
    RK |= _F << np.uint64(60)
    D = ((D & ~_F) | np.uint64(x - 1)) & K
    RD = ((RD & ~(_F << np.uint64(60))) | (np.uint64(x - 1) << np.uint64(60))) & RK
    c, done = _play_out(D, RD, x, c, t, bound, target)
    return c, done, j, x, False


@njit(cache=True)
def _record(n, who, val, nchosen, j, x, ends, c, best, count, target, decks):
    """A leaf with c >= target steps, as left by _settle1 after the choices who/val[:nchosen]:
    keep its start deck. Returns the new (best, count, target)."""
    if c > best:
        best, count = c, 0
        target = max(target, c)
    if count < len(decks):
        if ends:
            _rebuild(n, who, val, nchosen, j, 1, decks[count])
        else:
            who[nchosen] = j
            val[nchosen] = x
            _rebuild(n, who, val, nchosen + 1, 0, 0, decks[count])
    return best, count + 1, target


@njit(cache=True, inline="always")
def _play_out(D, RD, k, c, t, bound, target):
    """Play a deck of known cards (1 stored as 0) whose top card is k until 1 is on top.
    Returns (steps, True), or (steps so far, False) once the bottom block that never
    moves again has grown so far that the target is out of reach."""
    while k > 1:
        s, kp, rkp = _masks(k)
        D, RD = (RD >> s) | (D & kp), (D << s) | (RD & rkp)
        c += 1
        if k == t:
            # card t went to the bottom of the moving part: the block grew
            t = _closure(D, _ALL, t)
            if c + bound[t] < target:
                return c, False
        k = np.int64(D & _F) + 1
    return c, True


@njit(cache=True, inline="always")
def _closure(D, K, t):
    """The bottom block that never moves again, given that positions t..n-1 form one:
    the least i, 1 <= i <= t, such that positions i..t-1 are known and hold exactly
    i+1..t. (Never 0: the top card always moves.)"""
    lowest = t + 1
    i = t - 1
    while i >= 1:
        q = np.uint64(4 * i)
        if (K >> q) & _F == 0:
            break
        x = np.int64((D >> q) & _F) + 1
        if x < lowest:
            lowest = x
        if lowest >= i + 1:
            t = i
        i -= 1
    return t


@njit(cache=True, inline="always")
def _choices(free, D, level, npre, prefix):
    """Values to try for the placeholder on top of D: the free ones but its own index
    (derangement), or just the prefix's choice on a forced level."""
    j = np.int64(D & _F) + 1
    todo = free & ~(np.int64(1) << j)
    only1 = todo == 0
    if level < npre:
        todo &= np.int64(1) << prefix[level]
    return todo, only1


@njit(cache=True)
def _rebuild(n, who, val, nchosen, j, jval, out):
    """The start deck of a leaf: placeholder -who[q] is val[q] for q < nchosen, -j is
    jval (when j > 0), and the placeholders left (at most one) take the values left."""
    out[:] = 0
    placed = np.int64(0)
    for q in range(nchosen):
        out[who[q] - 1] = val[q]
        placed |= np.int64(1) << val[q]
    if j > 0:
        out[j - 1] = jval
        placed |= np.int64(1) << jval
    for i in range(n):
        if out[i] == 0:
            for v in range(1, n + 1):
                if not (placed >> v) & 1:
                    out[i] = v
                    placed |= np.int64(1) << v
                    break


# --------------------------------------------------------------------------- driver

#: The split: the first depth with at least SPLIT_AT_LEAST choice prefixes, dealt into
#: TASKS tasks (>= 50 per worker up to 4 workers; fewer, larger tasks cost the parent
#: and the workers less per subtree). Fixed, never derived from the number of workers,
#: so that a checkpoint can be resumed with any --workers or on a cluster.
SPLIT_AT_LEAST = 400
TASKS = 200

#: results store: puzzle name and key of f(m)
STORE_PUZZLE = "topswops"


def _key(m: int) -> str:
    return f"f({m})"


@dataclass(frozen=True)
class ForwardResult:
    n: int
    steps: int  # f(n)
    decks: list[tuple[int, ...]]  # every deck reaching f(n)
    nodes_per_level: list[int]  # choice points reached after l choices
    nodes: int
    first_target: int  # f(n-1) + 1, where the search starts
    bounds: list[int]  # f(0..n-1), as used for pruning
    subproblems: int  # 1 for the plain serial search
    seconds: float


def _kernel_run(n: int, bound: np.ndarray, target: int, prefix: np.ndarray, split_depth: int = 0):
    """Call the kernel, growing the deck buffer until every deck reaching the best fits."""
    cap = 1 << 10
    while True:
        best, count, decks, nodes, paths, npaths = forward_kernel(n, bound, target, prefix, split_depth, cap)
        if count <= cap and npaths <= cap:
            return best, count, decks, nodes, paths, npaths
        cap = 1 << (max(count, npaths) - 1).bit_length()


def _bound_array(n: int, bounds: list[int]) -> np.ndarray:
    return np.array(list(bounds[:n]) + [0], dtype=np.int64)


def forward_task(task: dict, target: int) -> dict:
    """One subproblem (engine task): the subtrees below each choice prefix in
    task["prefixes"], the target rising from one to the next as better decks turn up."""
    n = task["n"]
    bound = _bound_array(n, task["bounds"])
    parts = []
    for prefix in task["prefixes"]:
        best, count, decks, nodes, _, _ = _kernel_run(n, bound, int(target), np.array(prefix, dtype=np.int8))
        parts.append({"best": int(best), "decks": [[int(x) for x in d] for d in decks[:count]],
                      "nodes": [int(x) for x in nodes]})
        target = max(target, best)
    best, decks, nodes = _merge(n, parts)
    return {"best": best, "decks": [list(d) for d in decks], "nodes": nodes}


def _raise_target(target: int, result: dict) -> int:
    return max(target, result["best"])


def split_tasks(n: int, bounds: list[int], at_least: int = SPLIT_AT_LEAST,
                tasks: int = TASKS) -> tuple[list[dict], dict]:
    """Subproblems: the choice prefixes at the first depth giving at least `at_least`
    of them, dealt round-robin into at most `tasks` tasks (so that each task holds
    subtrees from all over the tree, and the big ones spread out). Also returns what
    the split itself found (leaves above that depth)."""
    bound = _bound_array(n, bounds)
    target = bounds[n - 1] + 1 if n > 1 else 0
    depth = 1
    while True:
        best, count, decks, nodes, paths, npaths = _kernel_run(n, bound, target, np.zeros(0, np.int8), depth)
        if npaths >= at_least or depth >= n - 1 or npaths == 0:
            break
        depth += 1
    prefixes = [[int(x) for x in p] for p in paths[:npaths]]
    ntasks = min(tasks, len(prefixes))
    work = [{"n": n, "bounds": list(bounds[:n]), "prefixes": prefixes[i::ntasks]} for i in range(ntasks)]
    found = {"best": int(best), "decks": [[int(x) for x in d] for d in decks[:count]],
             "nodes": [int(x) for x in nodes]}
    return work, found


def _merge(n: int, parts: list[dict]) -> tuple[int, list[tuple[int, ...]], list[int]]:
    """The best over all parts, every deck reaching it, and the node counts summed."""
    best = max(p["best"] for p in parts)
    decks = sorted({tuple(d) for p in parts if p["best"] == best for d in p["decks"]})
    width = max(len(p["nodes"]) for p in parts)
    nodes = [sum(p["nodes"][i] for p in parts if i < len(p["nodes"])) for i in range(width)]
    while len(nodes) > 1 and nodes[-1] == 0:
        nodes.pop()
    return best, decks, nodes


def solve_forward(
    n: int,
    bounds: list[int] | None = None,
    *,
    store: str | None = None,
    workers: int | None = 1,
    scheduler: str | None = None,
    checkpoint: str | None = None,
    progress: bool = False,
) -> ForwardResult:
    """f(n) and all decks reaching it, by the forward branch-and-bound.

    `bounds` (f(0..n-1)) default to this program's own results: read from the results
    store, or computed here first (smaller n first) and then stored. workers=1 without a
    checkpoint or scheduler runs the search as one kernel call; otherwise the search is
    split into subproblems run by puzzlesearch.engine.run_tasks.
    """
    if not 1 <= n <= MAX_N:
        raise ValueError(f"forward search supports 1 <= n <= {MAX_N}, got n={n}")
    t0 = time.perf_counter()
    if bounds is None:
        bounds = own_bounds(n, store=store)
    first_target = bounds[n - 1] + 1 if n > 1 else 0
    if workers == 1 and scheduler is None and checkpoint is None:
        best, count, decks, nodes, _, _ = _kernel_run(n, _bound_array(n, bounds), first_target,
                                                       np.zeros(0, np.int8))
        parts = [{"best": int(best), "decks": [[int(x) for x in d] for d in decks[:count]],
                  "nodes": [int(x) for x in nodes]}]
        subproblems = 1
    else:
        from puzzlesearch.engine.run import run_tasks

        tasks, found = split_tasks(n, bounds)
        results = run_tasks(
            forward_task,
            tasks,
            shared=max(first_target, found["best"]),
            update=_raise_target,
            workers=workers,
            scheduler=scheduler,
            checkpoint=checkpoint,
            params={"puzzle": "topswops", "search": "forward", "n": n, "bounds": list(bounds[:n])},
            progress=progress,
            label=f"topswops forward n={n}",
            nodes=lambda r: sum(r["nodes"]),
            best=lambda target: f"target {target}",
        )
        parts = [found, *results]
        subproblems = len(tasks)
    best, decks, nodes = _merge(n, parts)
    if best < 0:
        raise RuntimeError(f"no deck of {n} cards reached {first_target} = f({n - 1}) + 1; a bound is wrong")
    return ForwardResult(
        n=n,
        steps=best,
        decks=decks,
        nodes_per_level=nodes,
        nodes=sum(nodes),
        first_target=first_target,
        bounds=list(bounds[:n]),
        subproblems=subproblems,
        seconds=time.perf_counter() - t0,
    )


def own_bounds(n: int, store: str | None = None) -> list[int]:
    """f(0..n-1), each this program's own result: read back from the results store, or
    computed now by the forward search (smallest first, each using the ones before) and
    stored. f(0) = 0 by convention (it is never used: a placeholder is always on top)."""
    from puzzlesearch.engine.store import ResultsStore

    bounds = [0]
    with ResultsStore(store) as db:
        for m in range(1, n):
            value = db.get(STORE_PUZZLE, _key(m))
            if value is None:
                r = solve_forward(m, bounds)
                value = r.steps
                db.put(STORE_PUZZLE, _key(m), value, "forward", r.seconds)
            bounds.append(int(value))
    return bounds


def remember(n: int, steps: int, method: str, seconds: float, store: str | None = None) -> None:
    """Keep a computed f(n) in the results store for later runs to use as a bound."""
    from puzzlesearch.engine.store import ResultsStore

    with ResultsStore(store) as db:
        db.put(STORE_PUZZLE, _key(n), steps, method, seconds)


def search_plain(n: int, bounds: list[int]) -> tuple[int, list[tuple[int, ...]]]:
    """The same branch-and-bound in plain recursive Python, on lists (the kernel's
    reference; small n). Placeholders are -j; returns (f(n), every deck reaching it)."""
    best, found = -1, []
    target = bounds[n - 1] + 1 if n > 1 else 0

    def leaf(steps: int, chosen: dict[int, int]) -> None:
        nonlocal best, found, target
        if steps < target:
            return
        deck = [chosen.get(j) for j in range(1, n + 1)]
        rest = sorted(set(range(1, n + 1)) - set(chosen.values()))
        for i, x in enumerate(deck):
            if x is None:
                deck[i] = rest.pop(0)
        if steps > best:
            best, found, target = steps, [], max(target, steps)
        found.append(tuple(deck))

    def choose(deck: list[int], steps: int, chosen: dict[int, int], fixed: int) -> None:
        j = -deck[0]
        free = [v for v in range(2, n + 1) if v not in chosen.values()]
        allowed = [v for v in free if v != j]
        if not allowed:
            leaf(steps, {**chosen, j: 1})
            return
        for v in allowed:
            now = {**chosen, j: v}
            d = [v, *deck[1:]]
            if len(now) == n - 1:
                d = [1 if x < 0 else x for x in d]  # the one placeholder left is 1
            c = steps
            while d[0] > 1:  # play while the top card is known (placeholders are < 0)
                k = d[0]
                d[:k] = d[:k][::-1]
                c += 1
            if len(now) == n - 1:
                leaf(c, now)
                continue
            # least t such that positions t..fixed-1 are known and hold exactly t+1..fixed
            t = min(i for i in range(fixed + 1) if all(x > 0 for x in d[i:fixed])
                    and min(d[i:fixed], default=fixed + 1) >= i + 1)
            if t < n and c + bounds[t] < target:
                continue
            choose(d, c, now, t)

    choose([-(i + 1) for i in range(n)], 0, {}, n)
    return best, sorted(found)
