"""The pieces every puzzle's command line shares (the dispatcher, cli.py, owns none of them).

- `group`: a puzzle's click group (help on ``-h``; with no command, the help).
- `json_option`, `quiet_option`: the output options, declared once here.
- `run_options`: ``--workers/--scheduler/--checkpoint`` (``--store``, ``--memory``
  where they apply) and ``--quiet``, collapsed into one `RunOptions` argument ``run``
  that travels to the puzzle's API and on to the engine.
- `library_call`: around a call into the library: a refused parameter
  (ValueError, ImportError, MemoryError, OverflowError) becomes one stderr line and exit 2;
  Ctrl-C or SIGTERM one line with resume advice and exit 130.
- `answer`: around a call whose answer is saved afterwards (results store, --out):
  an answer computed but not saved is printed all the same, then one line, exit 1.
- `plot_option`, `save_plot`: ``--plot FILE`` (a picture of the answer, checked
  before the work by the puzzle's API) and its saving after the answer is printed: a plot
  not saved costs the answer nothing (printed all the same, then one line, exit 1).
- `fail`, `emit_json`: the two ways a command ends early or prints JSON.

Conventions (DESIGN.md): short stable stdout; ``--json`` prints one JSON object; progress
on stderr, only on a terminal; exit 0 on success, 1 when a check fails or an answer could
not be saved, 2 on bad input with one line on stderr, 75 when the Dask cluster was lost
(finished work kept), 130 when interrupted.
"""

from __future__ import annotations

import functools
import json
import math
import os
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, is_dataclass
from typing import Any, NoReturn, TypeVar

import click

from puzzlesearch.engine.failures import CheckFailed, ClusterLost
from puzzlesearch.engine.memory import from_gib, gib
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.params import plural, short_numbers
from puzzlesearch.engine.paths import NoSpace, show
from puzzlesearch.engine.progress import bar_enabled
from puzzlesearch.engine.store import NotSaved

T = TypeVar("T")

CONTEXT = {"help_option_names": ["-h", "--help"]}

#: exit statuses, one meaning each; EXIT_CLUSTER_LOST is sysexits' EX_TEMPFAIL (try again later)
EXIT_OK, EXIT_CHECK_FAILED, EXIT_USAGE, EXIT_CLUSTER_LOST, EXIT_INTERRUPTED = 0, 1, 2, 75, 130


class UsageFailure(click.UsageError):
    """Bad input: one line on stderr, exit status 2."""


def fail(message: str) -> NoReturn:
    """Stop with `message` as the single stderr line and exit status 2 (a number of more
    than 20 digits shortened: engine.params.short_numbers)."""
    raise UsageFailure(short_numbers(message))


def warn(message: str) -> None:
    """One line on stderr, prefixed like every other line the program writes there."""
    click.echo(f"puzzlesearch: {short_numbers(message)}", err=True)


def emit_json(obj: Any) -> None:
    """Print one JSON object (dataclasses become dicts), strict JSON: a float that is not
    finite (NaN, infinity; JSON has no word for them) is printed as null."""
    if is_dataclass(obj) and not isinstance(obj, type):
        obj = asdict(obj)
    click.echo(json.dumps(_finite(obj), separators=(",", ":"), allow_nan=False))


def _finite(obj: Any) -> Any:
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_finite(v) for v in obj]
    return obj


# --- groups ------------------------------------------------------------------------------------------


def _short_help(cmd: click.Command, limit: int) -> str:
    """A command's one-line help for a list: its short_help, or its docstring's first
    line whole (click's own would cut it at the first '.', as in 'e.g.')."""
    if cmd.short_help:
        return cmd.short_help
    first = (cmd.help or "").strip().split("\n", 1)[0].strip()
    return first if len(first) <= limit else first[: limit - 1].rstrip() + "…"


class Group(click.Group):
    """A click group that lists its commands with their whole first help line."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, _short_help(cmd, 100)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def group(**kwargs: Any) -> Callable[[Callable], click.Group]:
    """``@clikit.group()`` for a puzzle's command group: -h/--help, and the help when no
    command is given."""
    kwargs.setdefault("cls", Group)
    kwargs.setdefault("context_settings", CONTEXT)
    kwargs.setdefault("no_args_is_help", True)
    return click.group(**kwargs)


# --- options -----------------------------------------------------------------------------------------

json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
quiet_option = click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
verbose_option = click.option("-v", "--verbose", is_flag=True, help="Print more detail.")


def plot_option(what: str) -> Callable[[Callable], Callable]:
    """``--plot FILE``: draw `what` ("the distance histogram") into FILE, in the image
    format its suffix names; the command receives it as ``plot`` (None when not given)."""
    return click.option("--plot", default=None, metavar="FILE.png",
                        help=f"Draw {what} into FILE (matplotlib; .png, .svg, .pdf, ...).")


class GiB(click.ParamType):
    """--memory GIB: a positive finite number of GiB, converted to bytes."""

    name = "GIB"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and param is None:
            return value
        try:
            return from_gib(value)
        except ValueError as e:
            self.fail(str(e).removeprefix("--memory "), param, ctx)


class Workers(click.ParamType):
    """--workers N: a whole number from 1 to `most` (not 1e9, not 10**20); `most` is the
    command's own limit where its library has one."""

    name = "N"

    def __init__(self, most: int = 4096) -> None:
        self.most = most

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        try:
            n = int(str(value).strip())
        except ValueError:
            self.fail(f"must be a whole number, got {value!r}", param, ctx)
        if not 1 <= n <= self.most:
            self.fail(f"must be between 1 and {self.most}, got {value}", param, ctx)
        return n


def progress_wanted(quiet: bool) -> bool:
    """Progress is drawn unless --quiet, and only on a terminal (the engine's rule)."""
    return bar_enabled(not quiet)


def run_options(*, workers: bool = True, checkpoint: bool = True, store: bool = False,
                memory: bool = False, workers_help: str | None = None, scheduler: bool = True
                ) -> Callable[[Callable], Callable]:
    """The run options of a long search, as one decorator.

    Adds --workers/--scheduler (workers=True; scheduler=False: --workers alone, for work
    that runs on threads of this process), --checkpoint, --store, --memory as asked,
    and always --quiet; the command receives them as one ``run: RunOptions`` argument
    (and ``quiet`` no more). A checkpoint or store that cannot be written is refused
    here, before any work; with store=True also the default store (PUZZLESEARCH_STORE or
    the user data directory) when no --store is given; and a --scheduler nobody answers at.
    """

    def decorate(f: Callable) -> Callable:
        @functools.wraps(f)
        def command(*args: Any, **kw: Any) -> Any:
            quiet = kw.pop("quiet")
            with library_call(None):
                run = RunOptions(
                    workers=kw.pop("workers", None),
                    scheduler=kw.pop("scheduler", None),
                    checkpoint=kw.pop("checkpoint", None),
                    store=kw.pop("store", None),
                    memory=kw.pop("memory", None),
                    progress=progress_wanted(quiet),
                )
                run.check_paths(store=store)
                run.check_scheduler()
                run, note = run.within_cores()
                for line in (note, run.memory_note()):
                    if line and run.progress:  # a warning, on a terminal only
                        warn(line)
            return f(*args, run=run, **kw)

        options = []
        if workers:
            options.append(click.option("--workers", type=Workers(), default=None, help=workers_help
                                        or "Worker processes (default: all cores, or 1 for a quick job)."))
            if scheduler:
                options.append(click.option("--scheduler", metavar="tcp://HOST:PORT", default=None,
                                            help="Run the tasks on an existing Dask cluster."))
        if checkpoint:
            options.append(click.option(
                "--checkpoint", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                help="File recording finished work; run the same command again with it to resume."))
        if store:
            options.append(click.option(
                "--store", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                help="Results store of computed values (default: in the user data directory)."))
        if memory:
            options.append(click.option(
                "--memory", type=GiB(), default=None, metavar="GIB",
                help="Most memory to use, in GiB (default: 90% of what is available)."))
        options.append(quiet_option)
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


# --- calls into the library --------------------------------------------------------------------------


def exit_interrupted(checkpoint: str | None = None, resumable: bool = True) -> NoReturn:
    """One line on stderr (with resume advice), exit status 130.

    A kernel interrupted in a helper thread (engine.interrupt) may still be running; the
    process then leaves at once (os._exit, after flushing), rather than finalising the
    interpreter under it.
    """
    if checkpoint:
        hint = f"; run the same command again with --checkpoint {checkpoint} to resume"
    elif resumable:
        hint = "; give --checkpoint FILE to make a long run resumable"
    else:
        hint = ""
    click.echo(f"puzzlesearch: interrupted{hint}", err=True)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    if any(t.name == "puzzlesearch-kernel" and t.is_alive() for t in threading.enumerate()):
        os._exit(EXIT_INTERRUPTED)
    sys.exit(EXIT_INTERRUPTED)


@contextmanager
def library_call(run: RunOptions | None = None, *, resumable: bool = True) -> Iterator[None]:
    """Around a call into the library: what it refuses (ValueError, ImportError e.g.
    --scheduler without dask, MemoryError, OverflowError) becomes one stderr line and
    exit 2; Ctrl-C and SIGTERM exit 130 with one line, which says how to resume when the
    command takes a checkpoint (``run`` given and ``resumable``). An answer computed but
    not saved (engine.store.NotSaved) that `answer` did not catch: its one line,
    which names the answer's value, and exit 1. A check the answer failed
    (engine.failures.CheckFailed): one line naming it, exit 1. A cluster that cannot go
    on (engine.failures.ClusterLost): one line saying what is kept, exit 75."""
    try:
        yield
    except KeyboardInterrupt:
        exit_interrupted(run.checkpoint if run is not None else None, resumable and run is not None)
    except (NotSaved, CheckFailed) as e:
        sys.stdout.flush()
        warn(_one_line(e))
        sys.exit(EXIT_CHECK_FAILED)
    except ClusterLost as e:
        checkpoint = run.checkpoint if run is not None else None
        if checkpoint:
            advice = (f"; {show(checkpoint)} keeps the finished work: run the same command again once the "
                      "cluster is back, to resume")
        else:
            advice = "; give --checkpoint FILE to keep finished work when a cluster fails"
        warn(_one_line(e) + advice)
        sys.exit(EXIT_CLUSTER_LOST)
    except (ValueError, ImportError, MemoryError, OverflowError) as e:
        message = str(e) or type(e).__name__
        if isinstance(e, MemoryError):
            message = f"out of memory: {message}" if str(e) else "out of memory (cap it with --memory)"
        fail(message.splitlines()[0] if message else message)


def _one_line(e: BaseException) -> str:
    text = str(e) or type(e).__name__
    return text.splitlines()[0]


def answer(compute: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``compute(*args, **kwargs)`` for a command whose answer is saved after it is found
    (a results store, an --out file). If the library raises ``engine.store.NotSaved``, its
    answer (``e.result``) is returned all the same: the command prints it as usual, and
    when the command is done the NotSaved line goes to stderr and the exit status is 1.
    Inside `library_call`::

        with clikit.library_call(run):
            solution = clikit.answer(api.solve, n, run=run)
        print(solution)          # printed even when saving failed; then exit 1
    """
    try:
        return compute(*args, **kwargs)
    except NotSaved as e:
        click.get_current_context().call_on_close(functools.partial(_not_saved, _one_line(e)))
        return e.result


def save_plot(save: Callable[[], object], filename: str) -> int:
    """``save()`` for a --plot file, after the answer is printed; EXIT_OK. The file was
    checked before the work, but a disk can fill up or a folder go away meanwhile: then
    one line on stderr and EXIT_CHECK_FAILED (the answer is printed all the same)."""
    try:
        save()
    except (OSError, ValueError) as e:
        sys.stdout.flush()
        warn(f"the plot was not saved: {not_written(e, filename)}")
        return EXIT_CHECK_FAILED
    return EXIT_OK


def not_written(e: BaseException, filename: str | os.PathLike) -> str:
    """Why a file could not be written, in one line: "no space left on DEVICE for FILE"
    on a full disk (engine.paths.NoSpace), else "cannot write FILE (why)"."""
    if isinstance(e, NoSpace):
        return str(e)
    why = e.strerror if isinstance(e, OSError) and e.strerror else _one_line(e)
    return f"cannot write {show(filename)} ({why})"


def print_layers(result: Any, noun: str, farthest: Iterable[str], verbose: bool) -> None:
    """The body of a breadth-first census, below its headline: the states at each distance,
    the farthest ones listed (each a line of `farthest`) and, with -v, how the layers ran.
    `result` has the fields of the censuses: histogram, farthest_count, indexed, bytes,
    directions, workers, resumed_at, seconds and source ("store" or "run")."""
    click.echo(f"distance  {noun}")
    for d, c in enumerate(result.histogram):
        click.echo(f"{d:8}  {c:,}")
    lines = list(farthest)
    if lines:
        first = f", first {len(lines)}" if len(lines) < result.farthest_count else ""
        click.echo(f"farthest ({result.farthest_count:,}{first}):")
        for line in lines:
            click.echo(f"  {line}")
    if verbose:
        how = ("from the results store" if result.source == "store" else
               f"layers {result.directions} (t top-down, b bottom-up) on {result.workers} "
               f"{plural(result.workers, 'thread')}"
               + (f", resumed at layer {result.resumed_at}" if result.resumed_at is not None else ""))
        click.echo(f"{result.indexed:,} {noun} indexed in {gib(result.bytes)}; {how}; {result.seconds:.2f} s")


def _not_saved(message: str) -> NoReturn:
    # runs when the command's context closes, after everything it printed
    sys.stdout.flush()
    warn(message)
    raise click.exceptions.Exit(EXIT_CHECK_FAILED)


__all__ = [
    "EXIT_CHECK_FAILED", "EXIT_CLUSTER_LOST", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_USAGE", "GiB", "Group",
    "NoSpace", "NotSaved", "UsageFailure", "Workers", "answer", "emit_json", "exit_interrupted", "fail",
    "group", "json_option", "library_call", "not_written", "plot_option", "print_layers", "progress_wanted",
    "quiet_option", "run_options", "save_plot", "verbose_option", "warn",
]
