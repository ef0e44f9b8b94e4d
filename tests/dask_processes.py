"""A Dask cluster as a user starts one: a ``dask scheduler`` process and ``dask worker``
processes of several threads each (a worker's default is one thread per core), each in its
own process group, so that a test can kill a worker, every worker or the scheduler as a
machine of a real cluster dies.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

#: the ``dask`` command installed beside this Python, as a user types it
DASK = str(Path(sys.executable).with_name("dask"))
#: seconds a process has to come up or go
UP = 60.0


class ProcessCluster:
    """A scheduler and its workers, each a process tree of its own (a worker is its nanny
    and the worker process the nanny starts). Logs go to files in ``folder``."""

    def __init__(self, folder: Path, workers: int = 2, threads: int = 2):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.file = self.folder / "scheduler.json"
        self.threads = threads
        self.scheduler: subprocess.Popen | None = None
        self.workers: list[subprocess.Popen] = []
        self.start_scheduler()
        for _ in range(workers):
            self.add_worker()
        self.wait_for_workers(workers)

    # --- starting -----------------------------------------------------------------------------------

    def _start(self, args: list[str], log: str) -> subprocess.Popen:
        with open(self.folder / log, "ab") as out:
            return subprocess.Popen([DASK, *args], stdout=out, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, cwd=self.folder, start_new_session=True)

    def start_scheduler(self) -> None:
        """A scheduler on a free port of loopback (a new one gets a new port)."""
        self.file.unlink(missing_ok=True)
        self.scheduler = self._start(["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                      "--scheduler-file", str(self.file)], "scheduler.log")
        deadline = time.monotonic() + UP
        while time.monotonic() < deadline:
            if self.scheduler.poll() is not None:
                raise RuntimeError(f"dask scheduler ended: {self.log('scheduler.log')}")
            try:
                self.address = json.loads(self.file.read_text())["address"]
                return
            except (OSError, ValueError, KeyError):
                time.sleep(0.05)
        raise RuntimeError("dask scheduler did not start")

    def add_worker(self, threads: int | None = None) -> subprocess.Popen:
        """One more ``dask worker`` process (with its nanny) of ``threads`` threads."""
        k = len(self.workers)
        worker = self._start(["worker", self.address, "--nthreads", str(threads or self.threads),
                              "--no-dashboard", "--name", f"worker-{k}",
                              "--local-directory", str(self.folder / f"worker-{k}")], f"worker-{k}.log")
        self.workers.append(worker)
        return worker

    def client(self):
        import distributed

        return distributed.Client(self.address, timeout=UP, set_as_default=False)

    def wait_for_workers(self, count: int) -> None:
        with self.client() as c:
            c.wait_for_workers(count, timeout=UP)

    def worker_names(self) -> dict[str, str]:
        """{worker address: name} of the workers the scheduler knows now."""
        with self.client() as c:
            return {a: w["name"] for a, w in c.scheduler_info(n_workers=-1)["workers"].items()}

    # --- killing -------------------------------------------------------------------------------------

    def kill_worker(self, k: int, sig: int = signal.SIGKILL) -> None:
        """Worker k's whole process group (nanny and worker), as when its machine dies."""
        _kill(self.workers[k], sig)

    def kill_workers(self) -> None:
        for k in range(len(self.workers)):
            self.kill_worker(k)

    def kill_scheduler(self) -> None:
        assert self.scheduler is not None
        _kill(self.scheduler, signal.SIGKILL)

    def close(self) -> None:
        for process in [*self.workers, self.scheduler]:
            if process is not None:
                _kill(process, signal.SIGTERM, wait=5.0)
                _kill(process, signal.SIGKILL)

    def log(self, name: str) -> str:
        try:
            return (self.folder / name).read_text(errors="replace")[-3000:]
        except OSError:
            return ""


def _kill(process: subprocess.Popen, sig: int, wait: float = 10.0) -> None:
    if process.poll() is None:
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            pass
        try:
            process.wait(wait)
        except subprocess.TimeoutExpired:
            pass
