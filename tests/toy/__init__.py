"""A toy puzzle for the tests: the longest Collatz chain, laid out as every puzzle is.

It is added the way the README's Development section says a puzzle is added: this one
folder (rules.py, api.py, cli.py, and this file re-exporting the API) plus one
``registry.register(...)`` line (tests/test_toy_puzzle.py makes it).
"""

from .api import MAX_N, Longest, longest, steps

__all__ = ["MAX_N", "Longest", "longest", "steps"]
