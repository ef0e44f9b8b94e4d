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
import queue
import signal
import sys
import threading
import time
import uuid
import weakref
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager, suppress
from typing import Any

from puzzlesearch.engine import interrupt
from puzzlesearch.engine.failures import ClusterLost
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

    Tasks, shared and results must be JSON-serialisable, and results come back as JSON
    gives them (lists, string keys). On KeyboardInterrupt the workers are stopped, the
    checkpoint keeps every task finished so far, and the interrupt propagates.

    Args:
        func: The task function. A module-level function (workers import it by name)
            when there are several workers or a scheduler.
        tasks: The tasks, in the order a serial run would do them.
        shared: A small value every task reads when it starts (for a branch and
            bound, the best found so far).
        update: ``update(shared, result)`` folds each result into `shared`, in task
            order, before the next task starts (None: `shared` never changes).
        params: What the checkpoint was made for: a checkpoint made for other params
            is refused.
        options: The workers (None: all cores; ignored with a scheduler, whose threads
            set how many tasks are in flight), scheduler, checkpoint and progress.
        display: What the progress bar shows: its label and unit, the nodes and best
            of a result, the weight of a task.

    Returns:
        Each task's result, in task order.

    Raises:
        ValueError: A checkpoint made for other params, not a checkpoint, or damaged;
            a scheduler that cannot be reached.
        ImportError: A scheduler is given and dask.distributed is not installed.
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

        def submit() -> None:
            i = next(pending, None)
            if i is not None:
                key = f"{name}-{i}-{uuid.uuid4().hex}"  # readable on the dashboard, unique per run
                running[cluster.submit(_timed, func, run.tasks[i], run.shared, key=key)] = i

        # Two tasks in flight per cluster thread: the scheduler holds the second and hands it
        # to a thread the moment it is free, one network hop instead of a round trip through
        # this process, at the price of a shared value one result older. The thread count is
        # asked again (at most once a LOOK_SECONDS) so that workers joining later get work.
        for _ in range(2 * max(1, cluster.threads())):
            submit()
        with run.bar:
            while running:
                for future in cluster.wait(running):
                    i = running.pop(future)
                    result, seconds = cluster.result(future)
                    run.accept(i, result)
                    for _ in range(max(1, 2 * cluster.threads() - len(running))):
                        submit()
                    run.settle(i, seconds)


#: seconds a client interrupted mid-run has to say goodbye to the scheduler
QUIET_CLOSE_SECONDS = 5.0
#: how often (seconds) a run waiting on its cluster looks at it: its scheduler and its threads
LOOK_SECONDS = 1.0
#: seconds the scheduler has to answer that look before the run counts it as lost
ANSWER_SECONDS = 10.0
#: seconds a run waits for a worker while its cluster has none (every worker lost, or none
#: started yet) before it gives up, its finished tasks kept; the environment variable
#: PUZZLESEARCH_NO_WORKER_SECONDS sets another wait
NO_WORKER_SECONDS = 30.0


def no_worker_seconds() -> float:
    """How long a run waits for a worker (NO_WORKER_SECONDS, or the environment's)."""
    text = os.environ.get("PUZZLESEARCH_NO_WORKER_SECONDS", "").strip()
    if not text:
        return NO_WORKER_SECONDS
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        raise ValueError(f"PUZZLESEARCH_NO_WORKER_SECONDS must be a positive number of seconds, got {text!r}")
    return value


class Cluster:
    """The Dask client of one run (see `dask_client`), and what the run needs of it.

    ``submit`` keeps a weak reference to each future, so that an interrupted run can cancel
    those still wanted (a strong one would keep every result in the cluster's memory until
    the run ends). ``wait``, ``result`` and ``gather`` never block longer than LOOK_SECONDS
    without looking at the cluster: a worker lost is Dask's to handle (it runs the lost
    tasks again on the others), but a cluster that cannot go on, its scheduler gone or no
    worker left for `no_worker_seconds`, ends the wait with ClusterLost, one line,
    rather than an endless wait or distributed's traceback."""

    def __init__(self, client: Any, address: str, patience: float = NO_WORKER_SECONDS):
        self.client, self.address = client, address
        self.futures: weakref.WeakSet = weakref.WeakSet()
        self._threads, self._asked = 0, -float("inf")
        self._workerless_since: float | None = None
        self._patience = patience  # seconds without a worker before the run gives up
        self._finished: queue.Queue = queue.Queue()  # a future put here as it finishes

    def submit(self, func: Callable, *args: Any, key: str | None = None) -> Any:
        """``func(*args)`` on the cluster, never taken from an earlier result (pure=False)."""
        future = self.client.submit(func, *args, key=key, pure=False)
        self.futures.add(future)
        future.add_done_callback(self._finished.put)  # wakes `wait`
        return future

    def threads(self) -> int:
        """The cluster's worker threads now (0 while it has no worker), asked of the
        scheduler at most once a LOOK_SECONDS. ClusterLost when the scheduler does not
        answer, or when the cluster has had no worker for no_worker_seconds()."""
        now = time.monotonic()
        if now - self._asked < LOOK_SECONDS:
            return self._threads
        self._alive()
        try:
            self._threads = sum(self.client.nthreads(callback_timeout=ANSWER_SECONDS).values())
        except (OSError, TimeoutError) as e:  # distributed's CommClosedError is an OSError
            self._alive()
            raise self._lost(f" (no answer within {ANSWER_SECONDS:g} s)") from e
        self._asked = time.monotonic()
        if self._threads:
            self._workerless_since = None
        elif self._workerless_since is None:
            self._workerless_since = now
        elif now - self._workerless_since >= self._patience:
            raise ClusterLost(f"the Dask cluster at {show(self.address)} has had no worker for "
                              f"{self._patience:g} s")
        return self._threads

    def wait(self, futures: Collection) -> set:
        """The futures of ``futures`` that are done (at least one), looking at the cluster
        each LOOK_SECONDS meanwhile. (Not distributed.wait, which asks for a default
        client: a run's client is its own, so that it never takes over a user's.)"""
        while True:
            done = {f for f in futures if f.done()}
            if done:
                return done
            try:
                self._finished.get(timeout=LOOK_SECONDS)
            except queue.Empty:
                self.threads()

    def result(self, future: Any) -> Any:
        """The result of a future that is done, or the exception its task raised. A result
        held by a worker that is lost meanwhile is computed again (Dask does so): looked
        for each LOOK_SECONDS, with the cluster looked at in between."""
        from distributed import KilledWorker

        while True:
            try:
                return future.result(timeout=LOOK_SECONDS)
            except TimeoutError:
                if future.status == "error":  # the task's own TimeoutError
                    raise
                self.threads()
            except (cf.CancelledError, OSError) as e:  # the scheduler is gone (CommClosedError: OSError)
                self._alive()
                if isinstance(e, OSError) and future.status == "error":  # the task's own OSError
                    raise
                raise self._lost() from e
            except KilledWorker as e:
                raise ClusterLost(f"a task of the run at {show(self.address)} ended every worker that ran it "
                                  f"({e.args[2] if len(e.args) > 2 else 'several'} of them; out of memory?)"
                                  ) from None

    def gather(self, futures: list) -> list:
        """The results of ``futures``, in their order (as ``wait`` and ``result``)."""
        left = set(futures)
        while left:
            left -= self.wait(left)
        return [self.result(f) for f in futures]

    def _alive(self) -> None:
        if self.client.status not in ("running", "newly-created"):  # "connecting": the connection is lost
            raise self._lost()

    def _lost(self, why: str = "") -> ClusterLost:
        return ClusterLost(f"the Dask scheduler at {show(self.address)} stopped answering{why}")


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
    patience = no_worker_seconds()
    check_scheduler(scheduler)  # at once, not after the Client's whole timeout
    cluster = None
    quiet = _Quiet()
    handlers = [*logging.getLogger("distributed").handlers, *logging.root.handlers]
    try:
        with deferred_interrupts():
            try:
                cluster = Cluster(Client(scheduler, timeout=10, set_as_default=False), scheduler, patience)
            except (OSError, TimeoutError, ValueError) as e:
                why = (str(e) or type(e).__name__).splitlines()[0]
                raise ValueError(f"no Dask scheduler answers at {show(scheduler)} ({why})") from None
        for handler in handlers:
            handler.addFilter(quiet)
        yield cluster
    except BaseException:
        if cluster is not None:
            _close_quietly(cluster)
        raise
    finally:
        for handler in handlers:
            handler.removeFilter(quiet)
    with deferred_interrupts():  # a Ctrl-C now is raised once the client is closed
        cluster.client.close()


class _Quiet(logging.Filter):
    """Drops what distributed's loggers in this process say while a run's client is open:
    a worker lost ("Couldn't gather ... rescheduling": Dask computes its results again, and
    the answer is the same) or the scheduler's connection closing (a traceback at INFO),
    which the run itself reports in one line (ClusterLost) when it cannot go on. The
    workers' and the scheduler's own logs are theirs, untouched."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.name.startswith("distributed")


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
