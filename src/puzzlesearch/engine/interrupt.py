"""Ctrl-C during a kernel that runs in this process.

A numba kernel never looks at signals: while it runs, Python's SIGINT handler waits,
and when it finally runs inside numba's return path it can leave an exception set
under a returned value (a SystemError) or worse. `call` therefore runs the
kernel in a helper thread (kernels are compiled with ``nogil=True``, so the main thread
keeps the interpreter) while the main thread waits in plain Python, where Ctrl-C and
SIGTERM raise ``KeyboardInterrupt`` at once and cleanly.

The interrupted kernel cannot be stopped from outside: it runs on, unseen, until it
returns (its result is dropped) or the process exits. The command line exits at once
(see `puzzlesearch.clikit.exit_interrupted`), so nothing is lost but the
unfinished call, whose finished parts any checkpoint already holds.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

#: how often the waiting main thread wakes (it also wakes at once on a signal or when the kernel ends)
_POLL = 0.1


def call(kernel: Callable[..., T], *args: Any) -> T:
    """``kernel(*args)``, interruptible by Ctrl-C/SIGTERM in the main thread.

    Outside the main thread (a worker thread, a Dask worker) the kernel is simply called.
    """
    if threading.current_thread() is not threading.main_thread():
        return kernel(*args)
    box: dict[str, Any] = {}
    finished = threading.Event()

    def run() -> None:
        try:
            box["result"] = kernel(*args)
        except BaseException as e:  # handed to the caller below
            box["error"] = e
        finally:
            finished.set()

    worker = threading.Thread(target=run, name="puzzlesearch-kernel", daemon=True)
    worker.start()
    # Not worker.join(): a KeyboardInterrupt inside join() makes Python < 3.13 mark the
    # still running thread as stopped (threading._wait_for_tstate_lock releases the lock the
    # thread holds), and exit_interrupted would then not know that a kernel still runs.
    while not finished.wait(_POLL):
        pass
    if "error" in box:
        raise box["error"]
    return box["result"]


def parallel(jobs: list[Callable[[], None]], workers: int, tick: Callable[[], None] | None = None) -> None:
    """Run the jobs on `workers` daemon threads; wait in plain Python (Ctrl-C is seen at
    once, as in call) and re-raise the first error."""
    if not jobs:
        return
    lock = threading.Lock()
    queue = list(reversed(jobs))
    errors: list[BaseException] = []
    finished = threading.Event()
    alive = [min(workers, len(jobs))]

    def worker() -> None:
        try:
            while not errors:
                with lock:
                    if not queue:
                        break
                    job = queue.pop()
                job()
        except BaseException as e:  # handed to the caller below
            errors.append(e)
        finally:
            with lock:
                alive[0] -= 1
                if alive[0] == 0:
                    finished.set()

    for _ in range(alive[0]):
        threading.Thread(target=worker, name="puzzlesearch-kernel", daemon=True).start()
    try:
        while not finished.wait(0.1):
            if tick is not None:
                tick()
    except BaseException:
        errors.append(KeyboardInterrupt())  # no new jobs start
        raise
    if errors:
        raise errors[0]


__all__ = ["call", "parallel"]
