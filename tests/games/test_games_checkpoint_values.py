"""The values file of a take-and-break checkpoint (`grundy octal`/`grundys --checkpoint FILE`,
values in FILE.values) proves that it is whole: every finished range's record vouches for
its values with their count, a CRC-32 and the largest value so far. Damaged, shortened or
foreign values are refused in one line: a range whose values fail their CRC-32 is a failed
check (exit 1), a file too short or of another version bad input (exit 2); values past the
last record (a run killed between flushing a range and recording it) are ignored."""

from __future__ import annotations

import json
import sqlite3
import zlib

import numpy as np
import pytest

from conftest import assert_bad_input, run_cli
from puzzlesearch import games
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.games import limits, takebreak


def assert_check_failed(r) -> None:
    """Exit 1, one line on stderr, no traceback, nothing on stdout."""
    assert r.code == 1, (r.code, r.out, r.err)
    assert len(r.err.splitlines()) == 1 and "Traceback" not in r.err, r.err
    assert r.out == ""

COUNT = 200_000  # 4 ranges of 50,000 heaps
KAYLES = ("grundy", "octal", "0.77", "-n", str(COUNT), "--summary")
GRUNDYS = ("grundy", "grundys", "-n", str(COUNT), "--summary")


def finished(tmp_path, args=KAYLES):
    """A run to its end with --checkpoint: (the checkpoint, its values file, the run's output)."""
    ck = tmp_path / "run.ckpt"
    r = run_cli(*args, "--checkpoint", ck)
    assert (r.code, r.err) == (0, "")
    return ck, tmp_path / "run.ckpt.values", r.out


def records(ck) -> list[dict]:
    with sqlite3.connect(ck) as db:
        return [json.loads(text) for (text,) in db.execute("select result from done order by idx")]


def rewrite_records(ck, change) -> None:
    """Apply `change` to every finished range's record (as another program might have made it)."""
    db = sqlite3.connect(ck)
    try:
        with db:
            for idx, text in db.execute("select idx, result from done").fetchall():
                state = json.loads(text)
                change(idx, state)
                db.execute("update done set result = ? where idx = ?", (json.dumps(state), idx))
    finally:
        db.close()


def test_each_record_vouches_for_its_range(tmp_path):
    ck, values, _ = finished(tmp_path)
    g = games.octal_values("0.77", COUNT).values
    raw = values.read_bytes()
    assert raw == g.tobytes()
    for state, (start, end) in zip(records(ck), [(0, 50_000), (50_000, 100_000), (100_000, 150_000),
                                                  (150_000, 200_000)], strict=True):
        assert state["values"] == end
        assert state["crc32"] == zlib.crc32(raw[2 * start: 2 * end])
        assert state["largest"] == int(g[:end].max())


@pytest.mark.parametrize("args", [KAYLES, pytest.param(GRUNDYS, marks=pytest.mark.slow)],
                         ids=["octal", "grundys"])
def test_random_bytes_in_the_values_file_are_refused(tmp_path, args):
    ck, values, _ = finished(tmp_path, args)
    values.write_bytes(np.random.default_rng(7).bytes(2 * COUNT))
    r = run_cli(*args, "--checkpoint", ck)
    assert_check_failed(r)
    assert "check failed: the CRC-32 of the checkpoint's values: " in r.err
    assert "heaps 0..49,999 differ from their CRC-32" in r.err
    assert "delete both to start afresh" in r.err


def test_one_changed_value_is_refused_and_named_by_its_range(tmp_path):
    ck, values, _ = finished(tmp_path)
    g = np.frombuffer(values.read_bytes(), np.uint16).copy()
    g[120_001] ^= 1
    values.write_bytes(g.tobytes())
    r = run_cli(*KAYLES, "--checkpoint", ck)
    assert_check_failed(r)
    assert ": heaps 100,000..149,999 differ from their CRC-32 in " in r.err


def test_a_shortened_values_file_is_refused(tmp_path):
    ck, values, _ = finished(tmp_path)
    values.write_bytes(values.read_bytes()[:2 * 150_000 - 2])
    r = run_cli(*KAYLES, "--checkpoint", ck)
    assert_bad_input(r)
    assert "(it holds 149,999 values, not the 200,000 recorded)" in r.err
    values.unlink()
    assert_bad_input(run_cli(*KAYLES, "--checkpoint", ck))


def test_values_past_the_last_record_are_ignored(tmp_path):
    ck, values, out = finished(tmp_path)
    with open(values, "ab") as f:
        f.write(b"\xff" * 1000)
    r = run_cli(*KAYLES, "--checkpoint", ck)
    assert (r.code, r.err, r.out) == (0, "", out)


def test_a_run_killed_between_flushing_and_recording_a_range_resumes(tmp_path, monkeypatch):
    # the values of range 2 reach the file, its record does not: the file is longer than recorded
    whole = games.octal_values("0.77", COUNT)
    ck = str(tmp_path / "run.ckpt")
    real_save = takebreak.TakeBreakCheckpoint.save

    def interrupted(*args):
        raise KeyboardInterrupt

    def flush_then_die(self, index, st):
        if index == 2:
            monkeypatch.setattr(self.db, "record", interrupted)
        real_save(self, index, st)

    monkeypatch.setattr(takebreak.TakeBreakCheckpoint, "save", flush_then_die)
    with pytest.raises(KeyboardInterrupt):
        games.octal_values("0.77", COUNT, run=RunOptions(checkpoint=ck))
    monkeypatch.undo()
    assert len(records(ck)) == 2 and (tmp_path / "run.ckpt.values").stat().st_size == 2 * 150_000
    resumed = games.octal_values("0.77", COUNT, run=RunOptions(checkpoint=ck))
    assert (resumed.values == whole.values).all() and resumed.max_value == whole.max_value


def test_a_value_beyond_the_limit_is_refused_even_with_a_matching_checksum(tmp_path):
    ck, values, _ = finished(tmp_path)
    g = np.frombuffer(values.read_bytes(), np.uint16).copy()
    g[10] = 65535
    values.write_bytes(g.tobytes())
    crc = zlib.crc32(g[:50_000].tobytes())
    rewrite_records(ck, lambda idx, s: s.update(crc32=crc) if idx == 0 else None)
    r = run_cli(*KAYLES, "--checkpoint", ck)
    assert_bad_input(r)
    assert f"it holds the value 65,535; values stay below {limits.VALUE_LIMIT:,}" in r.err


def test_a_largest_value_other_than_recorded_is_refused(tmp_path):
    ck, values, _ = finished(tmp_path)
    g = np.frombuffer(values.read_bytes(), np.uint16).copy()
    g[10] = 1000
    values.write_bytes(g.tobytes())
    crc = zlib.crc32(g[:50_000].tobytes())
    rewrite_records(ck, lambda idx, s: s.update(crc32=crc) if idx == 0 else None)
    r = run_cli(*KAYLES, "--checkpoint", ck)
    assert_bad_input(r)
    assert "its largest value is 1,000, not the 8 recorded" in r.err


def test_a_record_counting_other_heaps_is_refused(tmp_path):
    ck, _, _ = finished(tmp_path)
    rewrite_records(ck, lambda idx, s: s.update(values=s["values"] + 1) if idx == 1 else None)
    r = run_cli(*KAYLES, "--checkpoint", ck)
    assert_bad_input(r)
    assert "the record of heaps 50,000..99,999 counts 100001 values, not 100,000" in r.err


def test_a_checkpoint_without_checksums_is_refused(tmp_path):
    ck, _, _ = finished(tmp_path)
    rewrite_records(ck, lambda idx, s: [s.pop(k) for k in ("values", "crc32", "largest")])
    r = run_cli(*KAYLES, "--checkpoint", ck)
    assert_bad_input(r)
    assert "records no checksum of its values file" in r.err and "delete both" in r.err
