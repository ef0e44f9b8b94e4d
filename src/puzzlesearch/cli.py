"""The `puzzlesearch` command: one click group, one subgroup per registered puzzle.

Only dispatch lives here. Subgroups are imported only when named, so `puzzlesearch
hanoi ...` never pays for compiling (or even importing) the Topswops kernels. The pieces
the puzzles' command lines share are in clikit.py; the puzzles are listed in registry.py.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys

import click

from puzzlesearch import __version__, clikit
from puzzlesearch.engine.paths import NoSpace, full
from puzzlesearch.registry import PUZZLES


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(PUZZLES)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in PUZZLES:
            return None
        module, attr = PUZZLES[name].cli.split(":")
        return getattr(importlib.import_module(module), attr)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Puzzles"):
            formatter.write_dl([(name, PUZZLES[name].help) for name in sorted(PUZZLES)])


@click.group(cls=LazyGroup, context_settings=clikit.CONTEXT, no_args_is_help=True)
# the version of the code that runs (the installed metadata may be another copy's), under the
# command's own name however it was started (`python -m puzzlesearch` too)
@click.version_option(version=__version__, package_name="puzzlesearch", prog_name="puzzlesearch")
def cli() -> None:
    """Exact exhaustive search for classic puzzles and impartial games."""


def _sigterm(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # SIGTERM ends a run as Ctrl-C does: finished work kept, exit 130


#: a Ctrl-C that Python could not raise (see _unraisable)
_lost_interrupt = False


def _unraisable(u: object) -> None:
    """A KeyboardInterrupt raised inside a C callback (numba's compiler writing its cache
    through ctypes) is "ignored" and printed with a traceback; note it instead, so that the
    run still ends as interrupted (exit 130) once the command returns."""
    global _lost_interrupt
    if isinstance(getattr(u, "exc_value", None), KeyboardInterrupt):
        _lost_interrupt = True
        return
    sys.__unraisablehook__(u)


def main(argv: list[str] | None = None) -> None:
    """Entry point: usage errors become one stderr line and exit status 2; no command
    prints the help; Ctrl-C and SIGTERM exit 130.

    As the program itself (``argv`` None), an interrupted run leaves with os._exit: every
    finished task is already committed, and Python's own exit could still kill the process
    with SIGINT (exit -2): a Ctrl-C that lands inside an ``eval`` run by an import (e.g.
    collections.namedtuple while numba loads) sets the interpreter's "unhandled
    KeyboardInterrupt" flag even though it was handled. Called with ``argv`` (tests, other
    programs) it raises SystemExit as usual.
    """
    try:
        _main(argv)
    except SystemExit as e:
        if argv is None and e.code == clikit.EXIT_INTERRUPTED:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            os._exit(clikit.EXIT_INTERRUPTED)
        raise


def _interrupted(e: BaseException) -> bool:
    """A KeyboardInterrupt that Python wrapped in another error on its way up (e.g. a
    RuntimeError from a class's __set_name__ while a module was being imported)."""
    seen = set()
    while e is not None and id(e) not in seen:
        if isinstance(e, KeyboardInterrupt):
            return True
        seen.add(id(e))
        e = e.__cause__ or e.__context__
    return False


def _main(argv: list[str] | None) -> None:
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _sigterm)
    if sys.unraisablehook is sys.__unraisablehook__:
        sys.unraisablehook = _unraisable
    try:
        rv = cli.main(args=argv, standalone_mode=False)
        if _lost_interrupt:
            raise KeyboardInterrupt
    except click.exceptions.NoArgsIsHelpError as e:
        click.echo(e.ctx.get_help())
        sys.exit(clikit.EXIT_OK)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except (click.Abort, KeyboardInterrupt):
        clikit.exit_interrupted(resumable=False)
    except click.ClickException as e:
        # one line, no usage block: what was wrong and what to change
        msg = e.format_message().replace("\n", " ")
        click.echo(f"puzzlesearch: error: {msg}", err=True)
        sys.exit(clikit.EXIT_USAGE if isinstance(e, click.UsageError) else e.exit_code)
    except OSError as e:
        if _interrupted(e):
            clikit.exit_interrupted(resumable=False)
        _output_failed(e)
    except Exception as e:
        if _interrupted(e):
            clikit.exit_interrupted(resumable=False)
        raise
    sys.exit(rv if isinstance(rv, int) else 0)


def _output_failed(e: OSError) -> None:
    """An OSError no command turned into its own message: the output could not be written
    (a closed pipe, a full disk). One line on stderr (none for a closed pipe: the reader
    left, as with `| head`), exit status 1, and stdout dropped so that Python's final
    flush does not fail again with a traceback."""
    if full(e) and not isinstance(e, NoSpace):  # the standard output, on a full disk
        try:
            e = NoSpace(os.readlink("/proc/self/fd/1"), "the standard output")
        except OSError:  # no /proc: the output has no name to give
            pass
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    if isinstance(e, NoSpace):
        click.echo(f"puzzlesearch: error: {e}", err=True)
    elif not isinstance(e, BrokenPipeError):
        why = e.strerror or str(e)
        click.echo(f"puzzlesearch: error: cannot write the output ({why})", err=True)
    sys.exit(clikit.EXIT_CHECK_FAILED)


if __name__ == "__main__":
    main()

