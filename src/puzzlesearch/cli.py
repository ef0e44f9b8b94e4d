"""The `puzzlesearch` command: one click group, one subgroup per puzzle.

Subgroups are imported only when named, so `puzzlesearch hanoi ...` never pays for
compiling (or even importing) the Topswops kernels.

Conventions shared by every subcommand (see DESIGN.md): short stable stdout,
``--json`` for one JSON object, progress on stderr only on a terminal, exit 0 on
success, 1 when a check fails, 2 on bad input with one line on stderr.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, is_dataclass
from typing import Any, NoReturn

import click

# name -> ("module:attribute" of the click group implementing it, one-line help).
# The help is kept here so that `puzzlesearch --help` imports no puzzle.
PUZZLES = {
    "topswops": ("puzzlesearch.topswops.cli:topswops", "Conway's topswops: f(n), optimal decks, play."),
    "shuffle": ("puzzlesearch.shuffle.cli:shuffle", "Block shuffles: fewest moves, whole state spaces."),
    "pancake": ("puzzlesearch.shuffle.cli:pancake", "Pancake flips: fewest flips, pancake numbers."),
    "queens": ("puzzlesearch.queens.cli:queens", "N-Queens: count, list, show and complete boards."),
    "hanoi": ("puzzlesearch.hanoi.cli:hanoi", "Tower of Hanoi: optimal moves, any pegs, any position."),
    "grundy": ("puzzlesearch.games.cli:grundy", "Sprague-Grundy values of impartial games."),
}


class UsageFailure(click.UsageError):
    """Bad input: one line on stderr, exit status 2."""


def fail(message: str) -> NoReturn:
    """Stop with `message` as the single stderr line and exit status 2."""
    raise UsageFailure(message)


def emit_json(obj: Any) -> None:
    """Print one JSON object (dataclasses become dicts)."""
    if is_dataclass(obj) and not isinstance(obj, type):
        obj = asdict(obj)
    click.echo(json.dumps(obj, separators=(",", ":")))


@contextmanager
def long_search(checkpoint: str | None) -> Iterator[None]:
    """Around a call into a long search: a refused parameter (ValueError, e.g. a checkpoint
    of another run; ImportError, e.g. --scheduler without dask) becomes one stderr line and
    exit 2, and Ctrl-C says how to resume and exits 130."""
    try:
        yield
    except KeyboardInterrupt:
        hint = (f" with --checkpoint {checkpoint}" if checkpoint
                else " (give --checkpoint FILE to make it resumable)")
        click.echo(f"puzzlesearch: interrupted; run the same command again{hint} to resume", err=True)
        sys.exit(130)
    except (ValueError, ImportError) as e:
        fail(str(e))


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(PUZZLES)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in PUZZLES:
            return None
        module, attr = PUZZLES[name][0].split(":")
        return getattr(importlib.import_module(module), attr)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Puzzles"):
            formatter.write_dl([(name, PUZZLES[name][1]) for name in sorted(PUZZLES)])


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="puzzlesearch")
def cli() -> None:
    """Exact exhaustive search for classic puzzles and impartial games."""


def main(argv: list[str] | None = None) -> None:
    """Entry point: usage errors become one stderr line and exit status 2."""
    try:
        rv = cli.main(args=argv, standalone_mode=False)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.Abort:
        click.echo("puzzlesearch: interrupted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        # one line, no usage block: what was wrong and what to change
        msg = e.format_message().replace("\n", " ")
        click.echo(f"puzzlesearch: error: {msg}", err=True)
        sys.exit(2 if isinstance(e, click.UsageError) else e.exit_code)
    sys.exit(rv if isinstance(rv, int) else 0)


if __name__ == "__main__":
    main()
