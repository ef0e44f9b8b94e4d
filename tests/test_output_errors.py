"""Output that cannot be written (a full disk, a closed pipe) is one line and exit 1, never a
traceback: for every command, in the dispatcher (cli.main)."""

import os
import subprocess
import sys

import pytest

COMMANDS = [
    ["queens", "count", "-n", "8"],
    ["queens", "solve", "-n", "1000"],
    ["hanoi", "--help"],
    ["grundy", "octal", "0.77", "--count", "100"],
]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_full_disk_is_one_line(args):
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "puzzlesearch.cli", *args], stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=120)
    assert r.returncode == 1, r.stderr
    assert r.stderr.splitlines() == ["puzzlesearch: error: no space left on /dev/full for the standard "
                                     "output"]


def test_a_closed_pipe_is_quiet():
    code = "import sys; sys.stdin.close()"
    reader = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE)
    reader.wait(timeout=60)
    r = subprocess.run([sys.executable, "-m", "puzzlesearch.cli", "queens", "solve", "-n", "1000000"],
                       stdout=reader.stdin, stderr=subprocess.PIPE, text=True, timeout=120)
    reader.stdin.close()
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr == ""
