"""benchmarks/perm_peers.py, the side-by-side run against twsearch: its reading of
twsearch's histogram and the row it records, with stand-ins for twsearch (the real one is
not part of the project), so that a wrong answer, or a run stopped at its limit, is said
so in the record."""

from __future__ import annotations

import importlib
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import load_data

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"

# the 4 pancakes: stacks at 0..4 flips, OEIS A092113's row n = 4 (tests/data/shuffle.json)
PANCAKES_4 = load_data("shuffle")["pancake_distance_table"]["rows"]["4"]


@pytest.fixture(scope="module")
def peers():
    sys.path.insert(0, str(BENCHMARKS))
    try:
        yield importlib.import_module("perm_peers")
    finally:
        sys.path.remove(str(BENCHMARKS))


def stand_in(tmp_path: Path, counts: list[int], sleep: float = 0.0) -> Path:
    """An executable that prints what ``twsearch -g`` prints of a histogram, after `sleep` s."""
    lines, total = [], 0
    for d, c in enumerate([*counts, 0]):  # twsearch ends with the empty layer it stopped at
        total += c
        lines.append(f"Dist {d} cnt {c} tot {total} in 0.01")
    text = "\n".join(lines)
    path = tmp_path / f"twsearch-{len(list(tmp_path.iterdir()))}"
    path.write_text(textwrap.dedent(f"""\
        #!{sys.executable}
        import time
        time.sleep({sleep})
        print({text!r})
        """))
    path.chmod(0o755)
    return path


def test_twsearchs_histogram_is_read_and_checked(peers):
    out = "Reading\nDist 0 cnt 1 tot 1 in 0.0\nDist 1 cnt 3 tot 4 in 0.0\nDist 2 cnt 0 tot 4 in 0.0\n"
    assert peers.twsearch_histogram(out) == [1, 3]
    with pytest.raises(RuntimeError, match="do not add up"):
        peers.twsearch_histogram(out.replace("tot 4 in 0.0\nDist 2", "tot 5 in 0.0\nDist 2"))
    with pytest.raises(RuntimeError, match="no histogram from distance 0"):
        peers.twsearch_histogram("Dist 1 cnt 3 tot 4\n")


@pytest.mark.slow
def test_a_case_records_the_same_answer_a_different_one_and_a_stopped_run(peers, tmp_path):
    puzzle = tmp_path / "pancakes-4.tws"
    puzzle.write_text(peers.pancakes_tws(4))
    info = {"states": 24, "indexed": 24, "tables": 0}
    tools = tmp_path / "tools"
    tools.mkdir()
    same = peers.run_case("pancakes-4", puzzle, stand_in(tools, PANCAKES_4), 1, info)
    assert same["same_histogram"] is True and same["histogram"] == "same"
    assert same["diameter"] == 4 and same["states"] == 24 and same["perm/twsearch"] > 0
    wrong = peers.run_case("pancakes-4", puzzle, stand_in(tools, [1, 3, 6, 12, 2]), 1, info)
    assert wrong["same_histogram"] is False and wrong["histogram"] == "DIFFERS"
    assert wrong["histogram_perm"] == PANCAKES_4 and wrong["histogram_twsearch"] == [1, 3, 6, 12, 2]
    stopped = peers.run_case("pancakes-4", puzzle, stand_in(tools, PANCAKES_4, sleep=30), 1, info, limit=1.0)
    assert stopped["same_histogram"] is None and stopped["twsearch_s"] is None
    assert stopped["histogram"] == "twsearch stopped after 1 s" and stopped["histogram_perm"] == PANCAKES_4
