"""A take-and-break checkpoint's values file (FILE.values) is written only when a run with
that checkpoint made it: a file of the user's at that name, beside a checkpoint that does
not exist yet, is refused in one line before any work and left as it was."""

from __future__ import annotations

import hashlib

import pytest

from conftest import assert_bad_input, run_cli

COUNT = 200_000  # 4 ranges of 50,000 heaps
COMMANDS = {
    "grundys": ("grundy", "grundys", "-n", str(COUNT), "--summary"),
    "octal": ("grundy", "octal", "0.77", "-n", str(COUNT), "--summary"),
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("content", [b"precious\n", b""], ids=["text", "empty"])
def test_a_values_file_no_run_made_is_refused_and_kept(tmp_path, command, content):
    ck = tmp_path / "h.ck"
    values = tmp_path / "h.ck.values"
    values.write_bytes(content)
    result = run_cli(*COMMANDS[command], "--checkpoint", ck)
    assert_bad_input(result)
    assert "h.ck.values exists but no run with this checkpoint made it" in result.err
    assert values.read_bytes() == content
    assert not ck.exists()


def test_beside_an_empty_checkpoint_file_too(tmp_path):
    ck = tmp_path / "h.ck"
    ck.write_bytes(b"")
    values = tmp_path / "h.ck.values"
    values.write_bytes(b"precious\n")
    assert_bad_input(run_cli(*COMMANDS["grundys"], "--checkpoint", ck))
    assert values.read_bytes() == b"precious\n"


def test_through_a_link_to_the_values_file(tmp_path):
    precious = tmp_path / "precious.bin"
    precious.write_bytes(b"\x01\x02")
    (tmp_path / "h.ck.values").symlink_to(precious)
    assert_bad_input(run_cli(*COMMANDS["octal"], "--checkpoint", tmp_path / "h.ck"))
    assert precious.read_bytes() == b"\x01\x02"


def test_the_values_file_of_the_checkpoint_s_own_run_is_resumed(tmp_path):
    ck = tmp_path / "h.ck"
    first = run_cli(*COMMANDS["grundys"], "--checkpoint", ck)
    assert (first.code, first.err) == (0, "")
    digest = hashlib.sha256((tmp_path / "h.ck.values").read_bytes()).hexdigest()
    again = run_cli(*COMMANDS["grundys"], "--checkpoint", ck)
    assert (again.code, again.err, again.out) == (0, "", first.out)
    assert hashlib.sha256((tmp_path / "h.ck.values").read_bytes()).hexdigest() == digest
