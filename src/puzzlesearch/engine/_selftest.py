"""A small real search used only by the engine's own tests (not part of the API).

Derangements of 0..n-1 (no p[i] == i) extending a given prefix: the task counts them all
and collects those of largest total displacement sum |p[i] - i|, but only when that
displacement reaches ``shared`` (the best found so far by earlier tasks) — the same shape
as a branch-and-bound task whose results depend on when it started while the combined
answer does not. Workers import it by name, hence a module in the package.
PUZZLESEARCH_SELFTEST_SLEEP=SECONDS slows every task down, for the tests that interrupt a run;
each task then says on stderr when it starts sleeping, so that a test can wait for that line.
"""

from __future__ import annotations

import os
import sys
import time

from puzzlesearch.engine.tasks import split


def derangement_tasks(n: int, at_least: int) -> list[dict]:
    def children(prefix: list[int]) -> list[list[int]]:
        k = len(prefix)
        return [] if k == n else [prefix + [v] for v in range(n) if v != k and v not in prefix]

    return [{"n": n, "prefix": p} for p in split([], children, at_least)]


def derangements(task: dict, shared: int | None) -> dict:
    n, prefix = task["n"], list(task["prefix"])
    if task.get("fail"):
        raise RuntimeError(f"task {prefix} failed on purpose")
    pause = float(os.environ.get("PUZZLESEARCH_SELFTEST_SLEEP", 0))
    if pause:
        os.write(sys.stderr.fileno(), f"task {prefix} sleeps {pause:g} s\n".encode())  # one write: whole
        time.sleep(pause)
    target = shared or 0
    used = set(prefix)
    perm = prefix[:]
    count, nodes = 0, 1
    best, witnesses = -1, []

    def leaf() -> None:
        nonlocal count, best, witnesses
        count += 1
        score = sum(abs(p - i) for i, p in enumerate(perm))
        if score >= max(best, target):
            if score > best:
                best, witnesses = score, []
            witnesses.append(perm[:])

    if len(perm) == n:
        leaf()
    # nexts[j]: the next value to try at position len(prefix) + j; perm holds the choices above it
    nexts = [0] if len(perm) < n else []
    while nexts:
        k = len(prefix) + len(nexts) - 1
        v = nexts[-1]
        while v < n and (v == k or v in used):
            v += 1
        if v == n:
            nexts.pop()
            if len(perm) > len(prefix):
                used.discard(perm.pop())
            continue
        nexts[-1] = v + 1
        perm.append(v)
        used.add(v)
        nodes += 1
        if len(perm) == n:
            leaf()
            used.discard(perm.pop())
        else:
            nexts.append(0)
    return {"count": count, "best": best if witnesses else None, "witnesses": witnesses, "nodes": nodes}


def raise_target(shared: int | None, result: dict) -> int | None:
    if result["best"] is None:
        return shared
    return result["best"] if shared is None else max(shared, result["best"])


def combine(results: list[dict]) -> tuple[int, int, list[list[int]]]:
    """(number of derangements, largest displacement, the derangements reaching it, sorted)."""
    best = max(r["best"] for r in results if r["best"] is not None)
    found = sorted(w for r in results if r["best"] == best for w in r["witnesses"])
    return sum(r["count"] for r in results), best, found


def nodes(result: dict) -> int:
    return result["nodes"]
