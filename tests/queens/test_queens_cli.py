"""`puzzlesearch queens count|show`: output, JSON, formats and bad input."""

import re

import pytest

from conftest import assert_bad_input, load_data, run_cli
from puzzlesearch import queens
from puzzlesearch.engine.paths import show
from puzzlesearch.queens import rules, tasks

DATA = load_data("queens")
TOTAL = {int(k): v for k, v in DATA["all_solutions"]["values"].items()}
UNIQUE = {int(k): v for k, v in DATA["unique_solutions"]["values"].items()}


def test_count_prints_one_line():
    r = run_cli("queens", "count", "-n", "8", "--workers", "1")
    assert r.code == 0, r.err
    assert r.out == "n=8  solutions=92  unique=12\n"


def test_count_json_has_the_result_fields():
    r = run_cli("queens", "count", "-n", "10", "--json")
    assert r.code == 0, r.err
    d = r.json()
    assert (d["n"], d["solutions"], d["unique"]) == (10, TOTAL[10], UNIQUE[10])
    assert d["seconds"] >= 0 and d["kernels"] in ("aot", "jit")
    assert (d["method"], d["tasks"], d["nodes"], d["fixed"], d["note"]) == ("constellation", 1, None, "", "")
    assert list(d) == ["n", "solutions", "unique", "fixed", "method", "nodes", "tasks", "seconds", "note",
                       "kernels"]


def test_count_with_fixed_queens_counts_completions():
    r = run_cli("queens", "count", "-n", "8", "--fixed", "1:1", "--workers", "1")
    expected = [b for b in rules.solutions(8) if b[0] == 0]
    classes = {rules.canonical(b) for b in expected}
    assert r.out == f"n=8  fixed=1:1  solutions={len(expected)}  unique={len(classes)}\n"


def test_count_with_attacking_givens_notes_it():
    r = run_cli("queens", "count", "-n", "8", "--fixed", "1:1,2:2", "--json")
    d = r.json()
    assert r.code == 0 and (d["solutions"], d["unique"], d["tasks"]) == (0, 0, 0)
    assert d["note"] == "the given queens 1:1 and 2:2 attack each other"
    r = run_cli("queens", "count", "-n", "8", "--fixed", "1:1,2:2")
    assert r.code == 0 and r.err == ""
    note = "(the given queens 1:1 and 2:2 attack each other)"
    assert r.out == f"n=8  fixed=1:1,2:2  solutions=0  unique=0  {note}\n"


def test_count_verbose_and_checkpoint(tmp_path):
    path = tmp_path / "q.ckpt"
    r = run_cli("queens", "count", "-n", "9", "-v", "--workers", "1", "--checkpoint", path)
    assert r.code == 0, r.err
    first, second = r.out.splitlines()
    assert first == "n=9  solutions=352  unique=46"
    assert re.fullmatch(r"method=constellation  kernels=(aot|jit)  tasks=1  seconds=[0-9.]+", second), second
    # the same checkpoint for another board, or for the other method, is refused
    r = run_cli("queens", "count", "-n", "10", "--checkpoint", path)
    assert_bad_input(r)
    assert r.err.startswith(f"puzzlesearch: error: checkpoint {path} was made for other parameters: ")
    r = run_cli("queens", "count", "-n", "9", "--method", "corner", "--checkpoint", path)
    assert_bad_input(r)
    assert "was made for other parameters" in r.err and '"method":"constellation"' in r.err
    # and with the method it was made for, it is reused
    r = run_cli("queens", "count", "-n", "9", "--checkpoint", path)
    assert r.code == 0 and r.out == "n=9  solutions=352  unique=46\n"


def test_method_is_refused_with_fixed_queens():
    r = run_cli("queens", "count", "-n", "8", "--fixed", "1:1", "--method", "corner")
    assert_bad_input(r)
    assert "completions of --fixed queens have their own search" in r.err
    r = run_cli("queens", "count", "-n", "8", "--method", "fast")
    assert_bad_input(r)


def test_show_formats():
    r = run_cli("queens", "show", "-n", "4", "--format", "rows")
    assert r.out == ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n"
    r = run_cli("queens", "show", "-n", "4", "--format", "columns")
    assert r.out == "2 4 1 3\n3 1 4 2\n"
    r = run_cli("queens", "show", "-n", "4", "--limit", "1")
    assert r.out == "· ♛ · ·\n· · · ♛\n♛ · · ·\n· · ♛ ·\n"


def test_show_limit_unique_and_json():
    r = run_cli("queens", "show", "-n", "8", "--limit", "0", "--unique", "--json")
    d = r.json()
    boards = [tuple(c - 1 for c in b) for b in d["solutions"]]
    assert d["shown"] == len(boards) == UNIQUE[8]
    assert all(rules.canonical(b) == b and rules.is_solution(b, 8) for b in boards)
    r = run_cli("queens", "show", "-n", "8", "--limit", "2", "--format", "columns")
    assert r.out.splitlines() == ["1 5 8 6 3 7 2 4", "1 6 8 3 7 4 2 5"]


def test_show_fixed_lists_completions():
    r = run_cli("queens", "show", "-n", "6", "--fixed", "1:2", "--format", "columns", "--limit", "0")
    assert r.out == "2 4 6 1 3 5\n"
    r = run_cli("queens", "show", "-n", "6", "--fixed", "1:1,2:2", "--format", "columns")
    assert (r.code, r.err) == (0, "")
    assert r.out == "no solutions (the given queens 1:1 and 2:2 attack each other)\n"
    r = run_cli("queens", "show", "-n", "6", "--fixed", "1:1,2:2", "--json")
    d = r.json()
    assert (d["shown"], d["solutions"], d["fixed"]) == (0, [], "1:1,2:2")
    assert d["note"] == "the given queens 1:1 and 2:2 attack each other"


def test_show_says_when_there_are_no_solutions():
    for fmt in ("board", "rows", "columns"):
        r = run_cli("queens", "show", "-n", "3", "--format", fmt)
        assert (r.code, r.out, r.err) == (0, "no solutions\n", ""), fmt
    r = run_cli("queens", "show", "-n", "3", "--json")
    d = r.json()
    assert r.code == 0 and (d["shown"], d["solutions"], d["note"]) == (0, [], "")
    # givens that do not attack each other but have no completion
    expected = [b for b in rules.solutions(6) if b[0] == 0]
    assert expected == []
    r = run_cli("queens", "show", "-n", "6", "--fixed", "1:1")
    assert (r.code, r.out) == (0, "no solutions\n")


def test_bad_input():
    for args in (
        ["count", "-n", "x"],
        ["count", "-n", "1e20"],
        ["count"],
        ["count", "-n", "8", "--workers", "0"],
        ["count", "-n", "8", "--workers", "100000000000000000000"],
        ["count", "-n", "8", "--checkpoint", "/proc/nope/q.ckpt"],
        ["show", "-n", "8", "--format", "svg"],
        ["show", "-n", "8", "--limit", "x"],
    ):
        assert_bad_input(run_cli("queens", *args))


SIZE = "-n must be at most 62 (rows are 64-bit masks), got "
COUNTING = ("-n must be at most 27 to count all solutions (27 is the largest n ever counted, and would take "
            "decades of CPU time here), got ")


@pytest.mark.parametrize(("args", "call"), [
    (["count", "-n", "0"], lambda: queens.count(0)),
    (["count", "-n", "63"], lambda: queens.count(63)),
    (["count", "-n", "28"], lambda: queens.count(28)),
    (["count", "-n", "100000000000000000000"], lambda: queens.count(10**20)),
    (["count", "-n", "8", "--fixed", "9:1"], lambda: queens.count(8, "9:1")),
    (["count", "-n", "8", "--fixed", "0:1"], lambda: queens.count(8, "0:1")),
    (["count", "-n", "8", "--fixed", "1-2"], lambda: queens.count(8, "1-2")),
    (["count", "-n", "8", "--fixed", "1:2:3"], lambda: queens.count(8, "1:2:3")),
    (["count", "-n", "8", "--fixed", ""], lambda: queens.count(8, "")),
    (["count", "-n", "8", "--fixed", "²:1"], lambda: queens.count(8, "²:1")),
    (["count", "-n", "8", "--fixed", "1:1,1:1"], lambda: queens.count(8, "1:1,1:1")),
    (["count", "-n", "8", "--fixed", "1" * 5000 + ":1"], lambda: queens.count(8, "1" * 5000 + ":1")),
    (["show", "-n", "0"], lambda: queens.solutions(0)),
    # without --fixed and --unique, show goes on past 62 with the constructed board (test_queens_solve)
    (["show", "-n", "100", "--unique"], lambda: queens.solutions(100, unique=True)),
    (["show", "-n", "100000000000000000000", "--unique"], lambda: queens.solutions(10**20, unique=True)),
    (["show", "-n", "100000000000000000000"], lambda: queens.solve(10**20)),
    (["show", "-n", "8", "--limit", "-1"], lambda: queens.solutions(8, limit=-1)),
    (["show", "-n", "8", "--limit", "100000000000000000000"], lambda: queens.solutions(8, limit=10**20)),
    (["show", "-n", "8", "--fixed", "1:9"], lambda: queens.solutions(8, fixed="1:9")),
    (["show", "-n", "8", "--fixed", "a:b"], lambda: queens.solutions(8, fixed="a:b")),
])
def test_the_command_line_refuses_what_the_api_refuses_in_its_words(args, call):
    r = run_cli("queens", *args)
    assert_bad_input(r)
    with pytest.raises(ValueError) as e:
        call()
    assert r.err == f"puzzlesearch: error: {e.value}\n"


def test_size_messages_say_the_limit_and_why():
    assert run_cli("queens", "count", "-n", "63").err == f"puzzlesearch: error: {SIZE}63\n"
    assert run_cli("queens", "count", "-n", "28").err == f"puzzlesearch: error: {COUNTING}28\n"
    # completions of given queens are not bound by the counting limit
    assert run_cli("queens", "count", "-n", "28", "--fixed", "1:1,2:2").code == 0
    r = run_cli("queens", "show", "-n", "63", "--fixed", "1:1")
    assert r.err == f"puzzlesearch: error: {SIZE}63\n"


def test_the_largest_limit_lists_all():
    r = run_cli("queens", "show", "-n", "6", "--format", "columns", "--limit", "9223372036854775807")
    assert r.code == 0 and r.out == "2 4 6 1 3 5\n3 6 2 5 1 4\n4 1 5 2 6 3\n5 3 1 6 4 2\n"


def test_not_a_checkpoint_is_bad_input(tmp_path):
    path = tmp_path / "junk.txt"
    path.write_text("not sqlite")
    r = run_cli("queens", "count", "-n", "8", "--checkpoint", path)
    assert_bad_input(r)
    assert r.err == f"puzzlesearch: error: --checkpoint {show(path)} is not a puzzlesearch checkpoint\n"


def test_unreachable_scheduler_is_bad_input():
    r = run_cli("queens", "count", "-n", "8", "--scheduler", "tcp://127.0.0.1:9")
    assert_bad_input(r)
    assert r.err.startswith("puzzlesearch: error: no Dask scheduler answers at tcp://127.0.0.1:9 (")


class Stop(Exception):
    pass


@pytest.mark.slow
def test_a_dask_cluster_counts_the_same_and_finishes_a_checkpoint_begun_here(dask_cluster, tmp_path,
                                                                               monkeypatch):
    distributed = pytest.importorskip("distributed")
    r = run_cli("queens", "count", "-n", "13", "--scheduler", dask_cluster, "--json")
    assert r.code == 0, r.err
    assert (r.json()["solutions"], r.json()["unique"]) == (TOTAL[13], UNIQUE[13])
    # a count begun in this process stops after a third of its tasks; the cluster runs the rest
    todo = tasks.complete_tasks(13, {0: 1})
    real, calls = tasks.complete_task, []

    def stop_after_a_third(task, shared=None):
        if len(calls) == len(todo) // 3:
            raise Stop
        calls.append(task)
        return real(task, shared)

    path = tmp_path / "q.ckpt"
    monkeypatch.setattr(tasks, "complete_task", stop_after_a_third)
    with pytest.raises(Stop):
        run_cli("queens", "count", "-n", "13", "--fixed", "1:2", "--workers", "1", "--checkpoint", path)
    monkeypatch.setattr(tasks, "complete_task", real)
    assert calls == todo[: len(todo) // 3]
    with distributed.Client(dask_cluster, set_as_default=False) as client, \
            distributed.get_task_stream(client) as stream:
        r = run_cli("queens", "count", "-n", "13", "--fixed", "1:2", "--scheduler", dask_cluster,
                    "--checkpoint", path, "--json")
    assert r.code == 0, r.err
    ran = sorted(int(t["key"].split("-")[1]) for t in stream.data if t["key"].startswith("complete_task-"))
    assert ran == list(range(len(todo) // 3, len(todo)))  # the unfinished tasks, each once
    expected = run_cli("queens", "count", "-n", "13", "--fixed", "1:2", "--workers", "1", "--json").json()
    assert (r.json()["solutions"], r.json()["unique"]) == (expected["solutions"], expected["unique"])
