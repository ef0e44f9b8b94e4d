"""RunOptions: the one worker policy, refusals of nonsense, and the paths checked before the work."""

from __future__ import annotations

import dataclasses
import os
import time

import pytest

from puzzlesearch.engine import options as options_module
from puzzlesearch.engine import scheduler
from puzzlesearch.engine.options import RunOptions, cores


@pytest.fixture
def four_cores(monkeypatch):
    monkeypatch.setattr(options_module, "cores", lambda: 4)


def test_cores_is_what_this_process_may_use():
    assert cores() == len(os.sched_getaffinity(0)) >= 1


def test_workers_asked_for_always_win(four_cores):
    for quick in (False, True):
        assert RunOptions(workers=3).workers_for(quick) == 3
        assert RunOptions(workers=1, checkpoint="x.ckpt").workers_for(quick) == 1
        assert RunOptions(workers=2, scheduler="tcp://h:1").workers_for(quick) == 2


def test_a_quick_job_runs_in_this_process(four_cores):
    assert RunOptions().workers_for(quick=True) == 1
    assert RunOptions().serial(quick=True)


def test_a_long_job_takes_all_cores(four_cores):
    assert RunOptions().workers_for() == 4
    assert RunOptions().workers_for(quick=False) == 4
    assert not RunOptions().serial()


def test_a_checkpoint_makes_even_a_quick_job_split(four_cores):
    # a checkpoint records tasks: one call in this process would record nothing
    run = RunOptions(checkpoint="x.ckpt")
    assert run.workers_for(quick=True) == 4
    assert not run.serial(quick=True)
    assert not RunOptions(workers=1, checkpoint="x.ckpt").serial(quick=True)


def test_with_a_scheduler_the_cluster_decides(four_cores):
    run = RunOptions(scheduler="tcp://127.0.0.1:8786")
    assert run.workers_for() is None
    assert run.workers_for(quick=True) is None
    assert not run.serial(quick=True)


def test_one_worker_asked_for_is_serial(four_cores):
    assert RunOptions(workers=1).serial()
    assert not RunOptions(workers=2).serial(quick=True)


def test_one_core_machine(monkeypatch):
    monkeypatch.setattr(options_module, "cores", lambda: 1)
    assert RunOptions().workers_for() == 1
    assert RunOptions().serial()


@pytest.mark.parametrize("workers", [0, -1, -(10**20), True, False, 1.5, 2.0, "2"])
def test_workers_nonsense_is_refused(workers):
    with pytest.raises(ValueError, match="--workers must be a whole number of at least 1"):
        RunOptions(workers=workers)


@pytest.mark.parametrize("memory", [0, -1, True, 1.5, float("inf"), float("nan"), 2**50 + 1, 10**400, "1"])
def test_memory_nonsense_is_refused(memory):
    with pytest.raises(ValueError, match="memory cap must be between 1 byte and 1.0 PiB"):
        RunOptions(memory=memory)


def test_memory_in_range_is_kept():
    assert RunOptions(memory=1).memory == 1
    assert RunOptions(memory=2**50).memory == 2**50


def test_frozen_and_but_makes_a_copy():
    run = RunOptions(workers=2, checkpoint="a.ckpt")
    with pytest.raises(dataclasses.FrozenInstanceError):
        run.workers = 3  # type: ignore[misc]
    other = run.but(workers=1, progress=True)
    assert (other.workers, other.checkpoint, other.progress) == (1, "a.ckpt", True)
    assert (run.workers, run.progress) == (2, False)
    with pytest.raises(ValueError, match="at least 1"):
        run.but(workers=0)


def test_check_paths_refuses_a_checkpoint_nowhere(tmp_path):
    with pytest.raises(ValueError, match=r"^--checkpoint /nonexistent/x\.ckpt: the folder /nonexistent "):
        RunOptions(checkpoint="/nonexistent/x.ckpt").check_paths()
    RunOptions(checkpoint=str(tmp_path / "x.ckpt")).check_paths()
    assert not (tmp_path / "x.ckpt").exists()  # checked, not created


def test_check_paths_refuses_a_text_file_as_checkpoint(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    with pytest.raises(ValueError, match=r"notes\.txt is not a puzzlesearch checkpoint"):
        RunOptions(checkpoint=str(notes)).check_paths()
    assert notes.read_text() == "my notes\n"


def test_check_paths_refuses_an_explicit_store_nowhere(tmp_path):
    # as --checkpoint is: no folder is created for it
    with pytest.raises(ValueError, match=r"^--store /nonexistent/dir/r\.sqlite: the folder /nonexistent/dir"):
        RunOptions(store="/nonexistent/dir/r.sqlite").check_paths()
    assert not os.path.exists("/nonexistent")


def test_check_paths_checks_the_default_store_only_for_a_search_that_uses_it(monkeypatch):
    monkeypatch.setenv("PUZZLESEARCH_STORE", "/proc/nope/x.sqlite")
    RunOptions().check_paths()  # a search without a store does not care
    with pytest.raises(ValueError, match=r"^PUZZLESEARCH_STORE /proc/nope/x\.sqlite: the folder /proc/nope"):
        RunOptions().check_paths(store=True)


@pytest.mark.parametrize(
    ("address", "words"),
    [
        ("nonsense", "bad scheduler address nonsense: expected tcp://HOST:PORT"),
        ("tcp://", "bad scheduler address tcp://: expected tcp://HOST:PORT"),
        ("tcp://127.0.0.1", "expected tcp://HOST:PORT"),
        ("tcp://127.0.0.1:99999", "bad scheduler address tcp://127.0.0.1:99999 (Port out of range"),
        ("tcp://[::1", "Invalid IPv6 URL"),
        ("udp://127.0.0.1:1", "--scheduler udp://127.0.0.1:1: unknown scheme 'udp'"),
        ("", "--scheduler needs an address like tcp://HOST:PORT"),
        ("a\nb", "'a\\nb'"),
    ],
)
def test_a_malformed_scheduler_is_refused_when_the_options_are_made(address, words):
    with pytest.raises(ValueError) as e:
        RunOptions(scheduler=address)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_a_scheduler_nobody_listens_at_is_refused_before_the_work():
    run = RunOptions(scheduler="tcp://127.0.0.1:1")  # well formed: made without a network call
    t0 = time.monotonic()
    with pytest.raises(ValueError, match=r"^no Dask scheduler answers at tcp://127\.0\.0\.1:1 \(Connection"):
        run.check_scheduler()
    assert time.monotonic() - t0 < 5
    RunOptions(scheduler="inproc://x").check_scheduler()  # other schemes: left to dask
    RunOptions().check_scheduler()


@pytest.mark.slow
def test_a_dask_scheduler_is_accepted(dask_cluster):
    # what else may listen at an address is refused: tests/engine/test_engine_cluster_safety.py
    port = dask_cluster.rsplit(":", 1)[1]
    t0 = time.monotonic()
    RunOptions(scheduler=f"tcp://127.0.0.1:{port}").check_scheduler()
    RunOptions(scheduler=f"127.0.0.1:{port}").check_scheduler()  # tcp when no scheme is given
    assert time.monotonic() - t0 < 5


def test_the_scheduler_check_is_the_engines_one():
    assert options_module.check_scheduler is scheduler.check_scheduler


def test_workers_above_the_cores_are_capped_with_one_note(monkeypatch):
    monkeypatch.setattr(options_module, "cores", lambda: 2)
    run, note = RunOptions(workers=4096).within_cores()
    assert run.workers == 2
    assert note == ("--workers 4096: this machine has 2 cores, and more workers than cores only slow the "
                    "engine: running 2")
    for kept in (RunOptions(workers=2), RunOptions(), RunOptions(workers=8, scheduler="tcp://127.0.0.1:1")):
        assert kept.within_cores() == (kept, "")


def test_the_command_line_caps_workers_and_says_so(monkeypatch):
    from conftest import run_cli
    from puzzlesearch import clikit

    monkeypatch.setattr(options_module, "cores", lambda: 2)
    monkeypatch.setattr(clikit, "progress_wanted", lambda quiet: not quiet)  # as on a terminal
    r = run_cli("pancake", "god", "-n", "5", "--workers", "4096")
    assert r.code == 0, r.err
    assert r.err.strip().splitlines()[0] == ("puzzlesearch: --workers 4096: this machine has 2 cores, and "
                                             "more workers than cores only slow the engine: running 2")
    quiet = run_cli("pancake", "god", "-n", "5", "--workers", "4096", "--quiet")
    assert quiet.code == 0 and quiet.err == ""


def test_memory_above_the_machine_has_one_note(monkeypatch):
    monkeypatch.setattr(options_module, "physical_bytes", lambda: 24 * 2**30)
    assert RunOptions(memory=100 * 2**30).memory_note() == (
        "--memory 100.0 GiB: this machine has 24.0 GiB of memory, and a search that needs more is refused "
        "whatever --memory says")
    for kept in (RunOptions(memory=24 * 2**30), RunOptions(memory=2**20), RunOptions()):
        assert kept.memory_note() == ""
    monkeypatch.setattr(options_module, "cores", lambda: 1)
    assert "this machine has 1 core, and" in RunOptions(workers=3).within_cores()[1]
