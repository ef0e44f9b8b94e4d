"""`puzzlesearch toy ...`: parses, calls the API, prints (no check of its own)."""

from __future__ import annotations

import click

from puzzlesearch import clikit
from puzzlesearch.engine.options import RunOptions

from . import api


@clikit.group()
def toy() -> None:
    """A toy puzzle: Collatz chains (halve when even, else 3k + 1, until 1)."""


@toy.command()
@click.argument("k", type=int)
@clikit.json_option
def steps(k: int, as_json: bool) -> None:
    """Steps from K to 1, e.g. 111 from 27."""
    with clikit.library_call():
        s = api.steps(k)
    if as_json:
        clikit.emit_json({"k": k, "steps": s})
    else:
        click.echo(f"k={k}  steps={s}")


@toy.command()
@click.option("-n", "n", type=int, required=True, help=f"Largest start (1..{api.MAX_N:,}).")
@clikit.run_options(store=True, memory=True)
@clikit.json_option
def longest(n: int, run: RunOptions, as_json: bool) -> None:
    """The longest chain starting at 1..n."""
    with clikit.library_call(run):
        result = clikit.answer(api.longest, n, run=run)
    if as_json:
        clikit.emit_json(result)
    else:
        click.echo(f"n={n}  start={result.start}  steps={result.steps}")
