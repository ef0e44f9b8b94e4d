"""Tables of the documentation made from the library when the site is built: the table of
every command (from the click groups, as the README's) and the table of limits (from the
constants the library checks its input against, so the page cannot drift from the code).

A page asks for a table with a line of its own: `<!-- table: commands -->` or
`<!-- table: limits -->`. An unknown table name fails the build.
"""

from __future__ import annotations

import re

from mkdocs.exceptions import PluginError

MARKER = re.compile(r"^<!-- table: ([\w-]+) -->$", re.MULTILINE)


def _n(value: int) -> str:
    """A number as the pages write it: 1,000,000; powers of two as 2^k."""
    if value >= 1 << 16 and value & (value - 1) == 0:
        return f"2^{value.bit_length() - 1}"
    return f"{value:,}"


#: a module of the commands table, as the README writes it: `puzzlesearch.games`
MODULE_CELL = re.compile(r"\| `puzzlesearch\.(\w+)` \|$", re.MULTILINE)


def commands() -> str:
    """The README's table of commands, each module a link to its API reference, kept on
    one line (the class nowrap: a module name broken at any letter is hard to read)."""
    from puzzlesearch import registry

    return MODULE_CELL.sub(lambda m: f"| [`puzzlesearch.{m[1]}`](api/{m[1]}.md){{ .nowrap }} |",
                           registry.command_table())


def limits() -> str:
    from puzzlesearch.engine import layers_common, memory
    from puzzlesearch.games import limits as g
    from puzzlesearch.hanoi import api as hanoi
    from puzzlesearch.hanoi import bfs
    from puzzlesearch.hanoi.rules import MAX_PEGS
    from puzzlesearch.perm import api as perm
    from puzzlesearch.perm import group, puzzlefile, schreier
    from puzzlesearch.queens import api as queens
    from puzzlesearch.queens import assembly, construct
    from puzzlesearch.shuffle import puzzle as shuffle
    from puzzlesearch.topswops import limits as t
    from puzzlesearch.topswops.longdecks import MAX_LONG

    share = f"{memory.DEFAULT_SHARE:.0%}"
    rows = [
        ("`topswops solve` / `optimal`",
         f"n ≥ 1; `--mode backward` and `both` n ≤ {t.MAX_BACKWARD} (a deck in 64 bits); `--mode forward` "
         f"n ≤ {t.MAX_FORWARD} (4 bits a card); `--checkpoint` and `--scheduler` with the forward "
         "search only"),
        ("`topswops play`", "a permutation of 1..n"),
        ("`topswops long`", f"1 ≤ n ≤ {MAX_LONG} (cards stored as bytes); `--seconds` more than 0; "
                            f"at most {t.MAX_LONG_WORKERS:,} workers"),
        ("`topswops estimate`", f"1 ≤ n ≤ {t.MAX_FORWARD} (the forward search's limit)"),
        ("`shuffle solve`, `pancake solve`",
         f"at most {shuffle.MAX_PACKED} cards or pancakes (a deck packed in one 64-bit word); each layer "
         "checked against the memory cap"),
        ("`shuffle god`, `pancake god`",
         f"at most {shuffle.MAX_CARDS} cards ({shuffle.MAX_CARDS}! < 2^63: ranks stay machine "
         f"integers); 2 bits a state within the memory cap, up to {_n(layers_common.MAX_STATES)} states; "
         f"`--show` 0..{shuffle.MAX_SHOW:,}"),
        ("`queens count`",
         f"1 ≤ n ≤ {queens.MAX_COUNT_N} for all solutions ({assembly.MIN_N} ≤ n with `--method assembly`, "
         f"within the memory cap); with `--fixed`, n ≤ {queens.MAX_N} and at most {queens.MAX_COUNT_N} rows "
         "without a given queen"),
        ("`queens estimate`",
         f"{assembly.MIN_N} ≤ n ≤ {queens.MAX_COUNT_N}; `--samples` 1..1,000,000; builds the quarter table, "
         "within the memory cap"),
        ("`queens show`",
         f"1 ≤ n ≤ {queens.MAX_N} (without `--fixed`/`--unique` up to {construct.MAX_SOLVE_N:,}: "
         f"past n = {construct.SEARCH_N} the constructed board)"),
        ("`queens solve`", f"1 ≤ n ≤ {construct.MAX_SOLVE_N:,} (n = 2, 3: no board, exit 1); `--format rows` "
                           f"and `board` n ≤ {construct.MAX_DRAW_N:,}"),
        ("`hanoi count`, `solve`", f"n ≤ {hanoi.COUNT_LIMIT:,}; 3..{MAX_PEGS} pegs; `solve` prints at most "
                                   f"{_n(hanoi.PRINT_LIMIT)} moves without `--force`"),
        ("`hanoi count --all`, `position`", f"n ≤ {hanoi.TABLE_LIMIT:,} / n ≤ {hanoi.POSITION_LIMIT:,}"),
        ("`hanoi distance`, `verify --diameter`",
         f"≤ {_n(bfs.BFS_LIMIT)} positions (a queue BFS); `--diameter` ≤ {_n(bfs.DIAMETER_WORK_LIMIT)} "
         "position visits"),
        ("`hanoi verify`", f"≤ {_n(layers_common.MAX_STATES)} positions, 2 bits each within the memory cap"),
        ("`grundy octal`, `grundys`",
         f"`--count` 1..{g.COUNT_MAX:,}, {g.HEAP_BYTES} bytes a heap (and {g.RARE_BYTES} a rare heap) within "
         f"the memory cap; values below {_n(g.VALUE_LIMIT)}"),
        ("`grundy hex`",
         f"as octal; with a digit that splits into three heaps, `--count` ≤ {g.HEX3_COUNT_MAX:,} "
         f"and values below {g.HEX_VALUE_LIMIT:,}"),
        ("`grundy subtraction`",
         f"S: 1 to {g.SUBTRACTION_SIZE_MAX:,} distinct numbers 1..{g.SUBTRACTION_MAX:,}; `--count` "
         f"1..{g.COUNT_MAX:,}, {g.SUBTRACTION_HEAP_BYTES} bytes a heap"),
        ("`grundy survey`", f"`--digits` 1..{g.SURVEY_DIGITS_MAX}; `--count` 1..{g.COUNT_MAX:,} a game"),
        ("`grundy move`", f"heaps 0..{g.COUNT_MAX - 1:,} ({g.HEX3_COUNT_MAX - 1:,} for codes that split into "
                          f"three heaps), at most {g.HEAPS_MAX:,} heaps"),
        ("`grundy cutting` / `digits`", f"2 ≤ W, H ≤ {g.CUTTING_MAX} / 1 ≤ N ≤ {g.DIGITS_MAX:,}, "
                                        f"at most {g.DIGITS_GAMES_MAX:,} numbers"),
        ("`grundy popcount`", f"`--parts` ≥ 1, `--max-k` 0..{g.POPCOUNT_BITS}, the bitmaps of reachable XORs "
                              f"within {g.POPCOUNT_MEMORY >> 20} MiB"),
        ("`perm` (every command)",
         f"a regular file of at most {puzzlefile.MAX_FILE_BYTES >> 20} MiB; at most "
         f"{puzzlefile.MAX_POSITIONS:,} positions, {puzzlefile.MAX_TWISTS} twists, "
         f"{puzzlefile.MAX_ROTATIONS:,} turns of `[rotations]`"),
        ("`perm info`",
         f"groups on at most {schreier.MAX_POINTS} points (positions × twists); one the invariants do not "
         f"describe on at most {group.MAX_EXACT_POINTS}; the chain within the memory cap"),
        ("`perm solve`", f"the bidirectional search stores at most `--states` states (default "
                         f"{perm.MAX_SOLVE_STATES:,}), each layer within the memory cap"),
        ("every command with `--memory GIB`",
         f"default: {share} of the memory available when the run starts; never more than the machine's "
         "physical memory"),
        ("every command with `--workers N`", "more than the cores (without `--scheduler`): capped at the "
                                             "cores, with one line on stderr"),
    ]
    return "\n".join(["| command | limits |", "|---|---|", *(f"| {a} | {b} |" for a, b in rows)])


TABLES = {"commands": commands, "limits": limits}


def on_page_markdown(markdown: str, page, config, files) -> str:
    def table(m: re.Match) -> str:
        if m[1] not in TABLES:
            raise PluginError(f"{page.file.src_uri}: no table named {m[1]!r} (known: {', '.join(TABLES)})")
        return TABLES[m[1]]()

    return MARKER.sub(table, markdown)
