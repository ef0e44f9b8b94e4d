"""How the drivers call the two kernels: interruptibly, watched, and with buffers that grow.

- `call`: a kernel run in this process goes through ``engine.interrupt.call`` (the
  kernels are compiled with ``nogil=True``), so that Ctrl-C and SIGTERM are seen at once
  rather than when the kernel returns. While it runs, a progress meter (engine ``Meter``)
  can follow the per-level counts the kernel keeps in an array the caller gave it.
- `until_it_fits`: a kernel fills a buffer of decks it is given the size of; when
  more decks reached the best than fit, it is run again with room for all of them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from puzzlesearch.engine import interrupt
from puzzlesearch.engine.progress import Meter

T = TypeVar("T")

#: rows of the first deck buffer; optimal decks are few, so a rerun is rare
FIRST_CAP = 1 << 10
#: seconds between two looks at the kernel's counts
_LOOK = 0.25


def until_it_fits(run: Callable[[int], T], needed: Callable[[T], int], cap: int = FIRST_CAP) -> T:
    """``run(cap)``, then again with a larger power of two while ``needed(result) > cap``."""
    while True:
        result = run(cap)
        need = needed(result)
        if need <= cap:
            return result
        cap = 1 << (need - 1).bit_length()


def call(kernel: Callable[..., T], *args: Any, meter: Meter | None = None, nodes: np.ndarray | None = None,
         note: Callable[[np.ndarray], str | None] | None = None) -> T:
    """``kernel(*args)`` through ``engine.interrupt.call``. With an enabled `meter`, the
    sum of `nodes` (per-level counts in one of the kernel's arguments, which it updates as
    it goes) is shown a few times a second while it runs, with ``note(nodes)`` beside it;
    the caller shows the final counts."""
    if meter is None or not meter.enabled or nodes is None:
        return interrupt.call(kernel, *args)
    stop = threading.Event()

    def look() -> None:
        # reads what the kernel's thread writes: a count may be one node stale, never torn (int64)
        while not stop.wait(_LOOK):
            meter.update(int(nodes.sum()), note(nodes) if note else None)

    watcher = threading.Thread(target=look, name="topswops-meter", daemon=True)
    watcher.start()
    try:
        return interrupt.call(kernel, *args)
    finally:
        stop.set()
        watcher.join()


__all__ = ["FIRST_CAP", "call", "until_it_fits"]
