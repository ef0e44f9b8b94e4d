"""How a long search runs: one value that travels CLI -> puzzle API -> engine.

``RunOptions`` holds where the work runs (``workers``, ``scheduler``), where it is kept
(``checkpoint``, ``store``), how much memory it may take (``memory``) and whether a
progress bar is drawn. It also owns the one worker policy of the project
(`RunOptions.workers_for`): puzzles say whether a job is quick, the engine decides
what that means for the number of processes, and `cores` says how many there are.
A scheduler's address is checked by `engine.scheduler`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

from puzzlesearch.engine.memory import check_budget, gib, physical_bytes
from puzzlesearch.engine.params import file_name, flag, plural, shown, text
from puzzlesearch.engine.scheduler import check_scheduler
from puzzlesearch.engine.store import check_apart, check_checkpoint, check_store


def cores() -> int:
    """The cores this process may use (containers, taskset), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return os.cpu_count() or 1


@dataclass(frozen=True)
class RunOptions:
    """Where and how a long search runs: the command line's run options, as one value.

    Attributes:
        workers: Local worker processes (None: all cores, or this process alone for a
            job of well under a second).
        scheduler: The address of an existing Dask cluster, tcp://HOST:PORT (the
            `cluster` extra).
        checkpoint: An SQLite file recording finished tasks; the same call resumes from
            it.
        store: The results store of computed values (None: ``$PUZZLESEARCH_STORE``,
            else one in the user data directory).
        memory: The most bytes a search may allocate (None: a cap from the available
            memory).
        progress: Draw a progress bar on stderr (only ever when stderr is a terminal).
    """

    workers: int | None = None
    scheduler: str | None = None
    checkpoint: str | None = None
    store: str | None = None
    memory: int | None = None
    progress: bool = False

    def __post_init__(self) -> None:
        if self.workers is not None and (isinstance(self.workers, bool) or not isinstance(self.workers, int)
                                         or self.workers < 1):
            raise ValueError(f"--workers must be a whole number of at least 1, got {shown(self.workers)}")
        for name, value in (("--checkpoint", self.checkpoint), ("--store", self.store)):
            if value is not None:  # a path is kept as its name, as the engine uses it
                object.__setattr__(self, name[2:], file_name(value, name))
        flag(self.progress, "progress")
        if self.scheduler is not None:
            text(self.scheduler, "--scheduler")
        if self.memory is not None:
            check_budget(self.memory)
        if self.scheduler is not None:
            check_scheduler(self.scheduler, reach=False)

    def check_paths(self, *, store: bool = False) -> None:
        """Refuse (ValueError, one line), before any work, a checkpoint that could not be
        written or is some other file, and a results store that could not be used.

        The store checked is ``self.store``, else PUZZLESEARCH_STORE, else the default one
        (whose folder is created). The checkpoint and that store must be two files.

        Args:
            store: The search uses the results store (an explicit ``self.store`` is
                checked either way).
        """
        store = flag(store, "store")
        if store or self.store is not None:
            check_apart(self.checkpoint, self.store)
        if self.checkpoint is not None:
            check_checkpoint(self.checkpoint)
        if store or self.store is not None:
            check_store(self.store)

    def check_scheduler(self) -> None:
        """Refuse, before any work, an address where no Dask scheduler answers (even where the
        puzzle would run a quick job in this process: the user asked for that cluster)."""
        if self.scheduler is not None:
            check_scheduler(self.scheduler)

    def within_cores(self) -> tuple[RunOptions, str]:
        """The project's one policy for --workers above the cores: on this machine (no
        scheduler) more workers than cores only slow the engine (each one more process or
        thread contending for the same cores, with its own share of the tables), so the
        count is capped at the cores, and the note says so in one line (the command line
        prints it on stderr; "" when nothing was changed). With a scheduler the cluster's
        threads decide, and the value is left as asked."""
        have = cores()
        if self.workers is None or self.scheduler is not None or self.workers <= have:
            return self, ""
        note = (f"--workers {self.workers}: this machine has {have} {plural(have, 'core')}, and more "
                f"workers than cores only slow the engine: running {have}")
        return self.but(workers=have), note

    def memory_note(self) -> str:
        """A --memory above the machine's physical memory gives no more than it has: a search
        that needs more is refused whatever it says (engine.memory.require). The one line
        that says so ("" when the cap fits the machine); the command line prints it on stderr."""
        have = physical_bytes()
        if self.memory is None or self.memory <= have:
            return ""
        return (f"--memory {gib(self.memory)}: this machine has {gib(have)} of memory, and a search that "
                f"needs more is refused whatever --memory says")

    def workers_for(self, quick: bool = False) -> int | None:
        """The project's one worker policy: the workers asked for; else, for a quick job
        (well under a second, by the puzzle's own estimate) without a scheduler or
        checkpoint, this process alone (a pool costs more than it saves); else all cores.
        None means "the cluster decides" (with a scheduler).

        Args:
            quick: The job takes well under a second, by the puzzle's own estimate.
        """
        quick = flag(quick, "quick")
        if self.workers is not None:
            return self.workers
        if self.scheduler is not None:
            return None
        if quick and self.checkpoint is None:
            return 1
        return cores()

    def serial(self, quick: bool = False) -> bool:
        """True when the search runs as one call in this process: one worker, no
        scheduler, no checkpoint (nothing to split the work for).

        Args:
            quick: The job takes well under a second, as for `workers_for`.
        """
        return self.scheduler is None and self.checkpoint is None and self.workers_for(quick) == 1

    def but(self, **changes: object) -> RunOptions:
        """A copy with some fields changed.

        Args:
            **changes: The fields to change, by name: ``run.but(workers=1)``.
        """
        return replace(self, **changes)


def checked(run: object, what: str = "run") -> RunOptions:
    """`run` if it is a RunOptions (TypeError naming `what` otherwise: None is not one)."""
    if not isinstance(run, RunOptions):
        raise TypeError(f"{what} must be a RunOptions, got {shown(run)}")
    return run


__all__ = ["RunOptions", "check_scheduler", "checked", "cores"]
