"""Values built once per process and read by every thread of it: the tables kernels share.

A Dask worker runs ``--nthreads`` tasks side by side in one process, and the kernels
release the GIL, so whatever two tasks may hold at once is either private to one call or
built once and only read afterwards. `built_once` is the second kind: a cache like
``functools.lru_cache`` whose entries are built under a lock, so that two threads asking
for the same table at the same moment build it once (a quarter table of N-Queens can take
gigabytes: built twice at once it would take twice that) and both get that one object.

What is built must never be written afterwards: buffers a kernel writes into are made by
each call, never cached here.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def built_once(maxsize: int) -> Callable[[F], F]:
    """Decorate a function of hashable arguments whose value is built once per process and
    then only read: the last ``maxsize`` values are kept (the least recently used is
    dropped first), each built by one thread while any other that asks for it waits.
    ``f.cache_clear()`` forgets them all."""
    if maxsize < 1:
        raise ValueError(f"maxsize must be at least 1, got {maxsize}")

    def decorate(func: F) -> F:
        kept: OrderedDict[Hashable, Any] = OrderedDict()
        guard = threading.Lock()  # over `kept` and `building`, held only for a moment
        building: dict[Hashable, threading.Lock] = {}  # a lock per value being built

        @functools.wraps(func)
        def get(*args: Any) -> Any:
            key = args
            with guard:
                if key in kept:
                    kept.move_to_end(key)
                    return kept[key]
                lock = building.setdefault(key, threading.Lock())
            with lock:  # one builder per key; the others wait here, then find the value
                with guard:
                    if key in kept:
                        kept.move_to_end(key)
                        return kept[key]
                try:
                    value = func(*args)
                except BaseException:
                    with guard:
                        building.pop(key, None)
                    raise
                with guard:
                    kept[key] = value
                    while len(kept) > maxsize:
                        kept.popitem(last=False)
                    building.pop(key, None)
                return value

        def cache_clear() -> None:
            with guard:
                kept.clear()

        get.cache_clear = cache_clear  # type: ignore[attr-defined]
        return get  # type: ignore[return-value]

    return decorate


__all__ = ["built_once"]
