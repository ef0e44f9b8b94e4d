"""engine.interrupt.call: a kernel's result and errors pass through; Ctrl-C is seen at once."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading

import pytest

from puzzlesearch.engine import interrupt


def test_results_pass_through():
    assert interrupt.call(pow, 3, 4) == 81
    assert interrupt.call(lambda: None) is None
    big = list(range(10_000))
    assert interrupt.call(sorted, big) == big


def test_the_kernel_runs_in_a_helper_thread_from_the_main_thread():
    names = interrupt.call(lambda: threading.current_thread().name)
    assert names == "puzzlesearch-kernel"


def test_outside_the_main_thread_the_kernel_is_simply_called():
    seen = []

    def work():
        seen.append(interrupt.call(lambda: threading.current_thread().name))

    worker = threading.Thread(target=work, name="some-worker")
    worker.start()
    worker.join()
    assert seen == ["some-worker"]


@pytest.mark.parametrize("error", [ValueError("n must be at most 17"), MemoryError(), OverflowError("big"),
                                   KeyboardInterrupt(), SystemExit(3)])
def test_exceptions_pass_through_unchanged(error):
    def kernel():
        raise error

    with pytest.raises(type(error)) as e:
        interrupt.call(kernel)
    assert e.value is error


def test_numba_results_and_errors_pass_through():
    numba = pytest.importorskip("numba")
    np = pytest.importorskip("numpy")

    @numba.njit(nogil=True)
    def total(a):
        return a.sum()

    @numba.njit(nogil=True)
    def first(a):
        if a.size == 0:
            raise ValueError("an empty deck")
        return a[0]

    assert interrupt.call(total, np.arange(10)) == 45
    with pytest.raises(ValueError, match="an empty deck"):
        interrupt.call(first, np.zeros(0, dtype=np.int64))


# In a child process that sends itself SIGINT while a long nogil kernel runs: the main
# thread must see Ctrl-C at once, while the kernel (which never looks at signals) is still
# running. The signal is sent once the kernel's thread runs; the kernel would take about a
# minute, so even a loaded machine's few seconds tell "at once" from "after the kernel".
# The child then leaves with os._exit, as clikit.exit_interrupted does.
CHILD = textwrap.dedent("""
    import os, signal, threading, time
    from numba import njit
    from puzzlesearch.engine import interrupt

    @njit(nogil=True)
    def spin(n):
        x = 1
        for i in range(n):
            x = (x * 6364136223846793005 + i) % 4294967291
        return x

    spin(10)  # compile first
    t0 = time.monotonic()
    spin(10_000_000)
    rate = 10_000_000 / max(time.monotonic() - t0, 1e-9)
    sent = []

    def kernel_running():
        return any(t.name == "puzzlesearch-kernel" and t.is_alive() for t in threading.enumerate())

    def ctrl_c():
        while not kernel_running():
            time.sleep(0.01)
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=ctrl_c, daemon=True).start()
    try:
        interrupt.call(spin, int(rate * 60))  # about a minute of work
        print("finished", flush=True)
    except KeyboardInterrupt:
        waited = time.monotonic() - sent[0]
        print(f"interrupted after {waited:.3f} s; kernel still running: {kernel_running()}", flush=True)
    os._exit(0)
""")


def test_ctrl_c_interrupts_a_long_nogil_kernel_at_once():
    pytest.importorskip("numba")
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    words = done.stdout.split()
    assert words[0] == "interrupted", done.stdout
    assert float(words[2]) < 5.0, done.stdout
    assert done.stdout.strip().endswith("kernel still running: True"), done.stdout
    assert "Traceback" not in done.stderr
