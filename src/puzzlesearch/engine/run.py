"""Run independent subproblems in this process, on local worker processes, or on a Dask cluster.

A long search is split (by its own puzzle code) into a fixed list of independent tasks;
``run_tasks`` runs ``func(task, shared)`` for each and returns the results in task order.
``shared`` is a small value the tasks read when they start — for a branch-and-bound search,
the best target found so far — and ``update(shared, result)`` folds each result into it in
the parent as results arrive. Each worker has a next task queued, so that none waits idle
for the parent between tasks; a task therefore sees the results of all but the last few
that finished before it started.

Three ways to run (``RunOptions``), one semantics:

- ``workers=1``: in this process, one task after another, no pool;
- ``workers=N`` (None: all cores): N local worker processes;
- ``scheduler="tcp://HOST:PORT"``: an existing ``dask.distributed`` cluster (optional extra).

With ``checkpoint=FILE`` every finished task is committed to an SQLite file (see
``store.Checkpoint``); running again with the same file skips those tasks, reads their
results back, and folds them into ``shared`` before starting the rest. Results are JSON
values in every mode (a result is passed through JSON before anyone sees it), so a
resumed run returns exactly what an uninterrupted one would.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import logging
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
import uuid
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

from puzzlesearch.engine import interrupt
from puzzlesearch.engine.options import RunOptions, cores
from puzzlesearch.engine.paths import show
from puzzlesearch.engine.progress import Display, Progress
from puzzlesearch.engine.scheduler import NEEDS_DASK, check_scheduler
from puzzlesearch.engine.store import Checkpoint

#: the default run options (frozen, so one shared value is safe): all cores, no checkpoint, no bar
DEFAULT_OPTIONS = RunOptions()


def run_tasks(
    func: Callable[[Any, Any], Any],
    tasks: list,
    *,
    shared: Any = None,
    update: Callable[[Any, Any], Any] | None = None,
    params: dict | None = None,
    options: RunOptions = DEFAULT_OPTIONS,
    display: Display | None = None,
) -> list:
    """Run ``func(task, shared)`` for every task; return the results in task order.

    What runs: ``func``, ``tasks``, ``shared``/``update`` and the checkpoint's ``params``.
    How: ``options`` (workers, scheduler, checkpoint, progress). What the bar shows:
    ``display`` (label, unit, nodes and best of a result, weight of a task).

    func must be a module-level function (workers import it by name) when workers > 1 or
    with a scheduler; tasks, shared and results must be JSON-serialisable, and results come
    back as JSON gives them (lists, string keys). With a scheduler, ``options.workers`` is
    ignored: the cluster's threads set how many tasks are in flight; otherwise None means
    all cores. Raises ValueError for a checkpoint made for other params, not a checkpoint,
    or damaged, and for a scheduler that cannot be reached; ImportError if a scheduler is
    given and dask.distributed is not installed. On KeyboardInterrupt the workers are
    stopped, the checkpoint keeps every task finished so far, and the interrupt propagates.
    """
    tasks = list(tasks)
    _json(tasks, "the task list")  # also without a checkpoint, so that adding one never breaks a run
    display = display or Display()
    workers = options.workers if options.workers is not None else cores()
    checkpoint = options.checkpoint
    ckpt = Checkpoint(checkpoint, params, tasks) if checkpoint is not None else None
    try:
        run = _Run(tasks, shared, update, ckpt, display)
        todo = [i for i in range(len(tasks)) if not run.have[i]]
        run.bar = Progress(display, tasks, run.have, options.progress)
        if display.best is not None and len(todo) < len(tasks):
            run.bar.set_best(display.best(run.shared))
        if options.scheduler is not None and todo:
            _run_dask(func, run, todo, options.scheduler)
        elif workers == 1 or len(todo) <= 1:  # also a finished checkpoint: a full bar, no pool
            _run_serial(func, run, todo)
        else:
            _run_local(func, run, todo, min(workers, len(todo)))
    finally:
        if ckpt is not None:
            ckpt.close()
    return run.results


def _json(value: Any, what: str) -> Any:
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError) as e:
        raise TypeError(
            f"{what} is not JSON-serialisable ({e}): use lists, dicts, str and Python int/float "
            "(numpy values: .tolist(), int())"
        ) from e


class _Run:
    """The parent's side of a run: results so far, the shared value, checkpoint and progress."""

    def __init__(self, tasks: list, shared: Any, update: Any, ckpt: Checkpoint | None, display: Display):
        self.tasks = tasks
        self.results: list = [None] * len(tasks)
        self.have = [False] * len(tasks)
        self.shared = shared
        self.update, self.ckpt, self.display = update, ckpt, display
        self.bar = Progress(display, [], [], False)  # each backend enters it once its workers exist
        if ckpt is not None:
            # in task order, so the restored shared value does not depend on finishing order
            for i, result in sorted(ckpt.done().items()):
                self.results[i], self.have[i] = result, True
                if update is not None:
                    self.shared = update(self.shared, result)

    def accept(self, i: int, result: Any) -> None:
        """A task's result arrived: keep it and fold it into shared (before the next submit)."""
        result = _json(result, f"the result of task {i}")
        self.results[i], self.have[i] = result, True
        if self.update is not None:
            self.shared = self.update(self.shared, result)

    def settle(self, i: int, seconds: float) -> None:
        """After the next task is on its way: commit this one and show it."""
        if self.ckpt is not None:
            self.ckpt.record(i, self.tasks[i], self.results[i], seconds)
        d = self.display
        self.bar.advance(
            i,
            d.nodes(self.results[i]) if d.nodes else None,
            d.best(self.shared) if d.best else None,
        )


def _timed(func: Callable[[Any, Any], Any], task: Any, shared: Any) -> tuple[Any, float]:
    t0 = time.perf_counter()
    result = func(task, shared)
    return result, time.perf_counter() - t0


# --- in this process -------------------------------------------------------------------------------


def _run_serial(func: Callable, run: _Run, todo: list[int]) -> None:
    # A KeyboardInterrupt simply propagates: every finished task is already committed.
    # Each task runs in a helper thread (interrupt.call), so that Ctrl-C is seen at once
    # even while a numba kernel, which never looks at signals, is running.
    with run.bar:
        for i in todo:
            result, seconds = interrupt.call(_timed, func, run.tasks[i], run.shared)
            run.accept(i, result)
            run.settle(i, seconds)


# --- local worker processes ------------------------------------------------------------------------


def _start_method() -> str:
    # fork starts a worker in milliseconds and the worker inherits everything already
    # imported and compiled (numba kernels included), where forkserver/spawn pay an
    # interpreter start, the imports and numba's cache load in every worker. fork is only
    # unsafe when other threads exist (one could hold a lock at the moment of the fork),
    # so with any other thread running (a Dask client, a progress bar) use forkserver.
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def _worker_init(parent: int) -> None:
    # Ctrl-C reaches the whole process group; the parent alone decides what to do with it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker inherits the CLI's SIGTERM handler (raise KeyboardInterrupt): the
    # parent's _terminate would then print a traceback from each worker waiting on its queue,
    # and a worker interrupted holding the queue's lock could hang the parent's exit.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # If the parent is SIGKILLed, its workers must not run on as orphans (they would never
    # see the end of their queue: fork shares its write end with them).
    if sys.platform == "linux":
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
        try:
            os.kill(parent, 0)  # the parent may have died before prctl
        except ProcessLookupError:
            os._exit(1)
    else:
        threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()


def _watch_parent(parent: int) -> None:
    # the parent (or the forkserver, which exits with it) is gone when we are reparented;
    # not os.kill(parent, 0), which on Windows would terminate the parent
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


def _run_local(func: Callable, run: _Run, todo: list[int], workers: int) -> None:
    try:
        pickle.dumps(func)
    except Exception as e:
        raise TypeError(f"{func!r} cannot be sent to worker processes: use a module-level function") from e
    pool = cf.ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context(_start_method()),
        initializer=_worker_init,
        initargs=(os.getpid(),),
    )
    pending = iter(todo)
    running: dict[cf.Future, int] = {}

    def submit() -> None:
        i = next(pending, None)
        if i is not None:
            running[pool.submit(_timed, func, run.tasks[i], run.shared)] = i

    try:
        # Every worker keeps a second task queued, so that none waits idle for the parent's
        # next submit. A task reads `shared` when it is submitted, so with an update it starts
        # from a value one result older: the price, measured on Topswops' forward search at
        # n = 13 on 2 workers, of 1.66 s against 1.88 s with one task in flight per worker
        # (tasks of about 16 ms, each paying a round trip through this process).
        for _ in range(2 * workers):
            submit()
        # with fork, the first submit forked every worker: only now start the bar's thread
        with run.bar:
            while running:
                finished, _ = cf.wait(running, return_when=cf.FIRST_COMPLETED)
                for future in finished:
                    i = running.pop(future)
                    result, seconds = future.result()
                    run.accept(i, result)
                    submit()
                    run.settle(i, seconds)
        pool.shutdown()
    except BaseException:
        _terminate(pool)
        raise


def _terminate(pool: cf.ProcessPoolExecutor) -> None:
    """Stop a pool now: drop queued tasks and kill the workers (their tasks are lost, not half-kept)."""
    if hasattr(pool, "terminate_workers"):  # Python 3.14+
        pool.terminate_workers()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        p.terminate()
    for p in processes:
        p.join(5)


# --- a Dask cluster --------------------------------------------------------------------------------


def _run_dask(func: Callable, run: _Run, todo: list[int], scheduler: str) -> None:
    name = getattr(func, "__name__", "task")
    pending = iter(todo)
    running: dict[Any, int] = {}
    with dask_client(scheduler) as cluster:
        from distributed import as_completed  # importable: dask_client checked

        queue = as_completed(loop=cluster.client.loop)

        def submit() -> None:
            i = next(pending, None)
            if i is not None:
                key = f"{name}-{i}-{uuid.uuid4().hex}"  # readable on the dashboard, unique per run
                future = cluster.submit(_timed, func, run.tasks[i], run.shared, key=key)
                running[future] = i
                queue.add(future)

        # Two tasks in flight per cluster thread: the scheduler holds the second and hands it
        # to a thread the moment it is free, one network hop instead of a round trip through
        # this process, at the price of a shared value one result older. The thread count is
        # asked again (at most once a second: a round trip) so that workers joining later get work.
        in_flight, asked = 2 * cluster.threads(), time.monotonic()
        for _ in range(in_flight):
            submit()
        with run.bar:
            for future in queue:
                i = running.pop(future)
                result, seconds = future.result()
                run.accept(i, result)
                if time.monotonic() - asked > 1.0:
                    in_flight, asked = 2 * cluster.threads(), time.monotonic()
                for _ in range(max(1, in_flight - len(running))):
                    submit()
                run.settle(i, seconds)


#: seconds a client interrupted mid-run has to say goodbye to the scheduler
QUIET_CLOSE_SECONDS = 5.0


class Cluster:
    """The Dask client of one run (see :func:`dask_client`). ``submit`` keeps a weak
    reference to each future, so that an interrupted run can cancel those still wanted
    (a strong one would keep every result in the cluster's memory until the run ends)."""

    def __init__(self, client: Any):
        self.client = client
        self.futures: weakref.WeakSet = weakref.WeakSet()

    def submit(self, func: Callable, *args: Any, key: str | None = None) -> Any:
        """``func(*args)`` on the cluster, never taken from an earlier result (pure=False)."""
        future = self.client.submit(func, *args, key=key, pure=False)
        self.futures.add(future)
        return future

    def gather(self, futures: list) -> list:
        """The results of ``futures``, in their order."""
        return self.client.gather(futures)

    def threads(self) -> int:
        """The cluster's worker threads now (at least 1: workers may join later)."""
        return max(1, sum(self.client.nthreads().values()))


@contextmanager
def dask_client(scheduler: str) -> Iterator[Cluster]:
    """A client of the Dask cluster at ``scheduler``, for one run; closed when the block ends.

    The scheduler is checked first (scheduler.check_scheduler: one line, at once, for an
    address where no scheduler answers). When the block ends by an exception, Ctrl-C
    above all, the run's futures are cancelled and the client is closed quietly: its
    abandoned calls (distributed's AllExit, "Task exception was never retrieved") and its
    loggers say nothing, so that the exception is all the user hears of it. A Ctrl-C while
    the client is made waits until it exists, so that it can be closed. ImportError without
    dask.distributed (the optional extra).
    """
    try:
        from distributed import Client
    except ImportError as e:
        raise ImportError(NEEDS_DASK) from e
    check_scheduler(scheduler)  # at once, not after the Client's whole timeout
    cluster = None
    try:
        with deferred_interrupts():
            try:
                cluster = Cluster(Client(scheduler, timeout=10, set_as_default=False))
            except (OSError, TimeoutError, ValueError) as e:
                why = (str(e) or type(e).__name__).splitlines()[0]
                raise ValueError(f"no Dask scheduler answers at {show(scheduler)} ({why})") from None
        yield cluster
    except BaseException:
        if cluster is not None:
            _close_quietly(cluster)
        raise
    with deferred_interrupts():  # a Ctrl-C now is raised once the client is closed
        cluster.client.close()


def _close_quietly(cluster: Cluster) -> None:
    """Cancel the run's futures and close its client, saying nothing; a second Ctrl-C
    meanwhile waits (the first one is already on its way out). A task already running on
    a worker thread cannot be stopped: it ends there and its result is dropped."""
    client = cluster.client
    loop = getattr(client.loop, "asyncio_loop", None)
    if loop is not None:
        # The client's own loop, which ends with it: the calls it abandons (a gather that
        # was waiting, as_completed) raise when the futures are cancelled, and asyncio would
        # print each as "Task exception was never retrieved" with a traceback, even later,
        # when the task is garbage collected.
        loop.set_exception_handler(lambda loop, context: None)
    previous = logging.root.manager.disable
    logging.disable(logging.CRITICAL)  # distributed's "closing" and "lost connection" lines too
    try:
        with deferred_interrupts(raise_after=False):
            futures = [f for f in list(cluster.futures) if not f.done()]
            with suppress(Exception):
                if futures:
                    client.cancel(futures)
            with suppress(Exception):
                client.close(timeout=QUIET_CLOSE_SECONDS)
    finally:
        logging.disable(previous)


@contextmanager
def deferred_interrupts(raise_after: bool = True) -> Iterator[None]:
    """Ctrl-C and SIGTERM during the block are noted, not raised; KeyboardInterrupt when it
    ends (``raise_after``). Python handlers only (a signal ignored or left to the system
    stays so), and only in the main thread, where signal handlers run."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted: list[int] = []
    saved = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        handler = signal.getsignal(sig)
        if callable(handler):
            saved[sig] = handler
            signal.signal(sig, lambda signum, frame: noted.append(signum))
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
    if noted and raise_after:
        raise KeyboardInterrupt
