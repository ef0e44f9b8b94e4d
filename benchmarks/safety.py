"""How fast, and how harmlessly, commands refuse what they must not touch.

Each case is a command a user types, in a fresh process, pointed at something that is not
what it asks for:

- ``--scheduler`` at a loopback HTTP server, at a server that accepts and never answers,
  and at a closed port: one line on stderr and exit 2, timed (target: within 15 s);
- ``--checkpoint``/``--out``/``--store`` at a character device made in a temporary folder
  (as root only; never the system's /dev/null), a FIFO and a link to the device: exit 2,
  and the node's type, device numbers and inode unchanged afterwards.

    .venv/bin/python benchmarks/safety.py [--repeats 3]

Writes benchmarks/results/safety.json.
"""

from __future__ import annotations

import argparse
import http.server
import os
import socket
import stat
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from _bench import print_table, write_results

CLI = [sys.executable, "-m", "puzzlesearch"]
TARGET_SECONDS = 15.0
#: commands whose last option is given the node: a breadth-first checkpoint, a whole-file --out, the
#: results store and an SQLite checkpoint with its values file
OUTPUT_COMMANDS = (["pancake", "god", "-n", "5", "--checkpoint"], ["queens", "solve", "-n", "8", "--out"],
                   ["topswops", "solve", "-n", "9", "--store"], ["grundy", "grundys", "--checkpoint"])


def refusal(argv: list[str], cwd: Path | None = None) -> tuple[float, int, str]:
    """(wall seconds, exit status, stderr) of one fresh run."""
    t0 = time.perf_counter()
    done = subprocess.run(CLI + argv, capture_output=True, text=True, cwd=cwd, timeout=120)
    return time.perf_counter() - t0, done.returncode, done.stderr


def one_line_exit_2(code: int, err: str) -> bool:
    return code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err


class _Quiet(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def servers() -> dict[str, tuple[str, object]]:
    """name -> (tcp address, the object to close afterwards)."""
    http_server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Quiet)
    threading.Thread(target=http_server.serve_forever, daemon=True).start()
    silent = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []

    def hold() -> None:  # accept every connection and keep it open, saying nothing
        while True:
            accepted.append(silent.accept()[0])

    threading.Thread(target=hold, daemon=True).start()
    closed = socket.create_server(("127.0.0.1", 0))
    closed_port = closed.getsockname()[1]
    closed.close()
    return {
        "an HTTP server": (f"tcp://127.0.0.1:{http_server.server_address[1]}", http_server),
        "a server that never answers": (f"tcp://127.0.0.1:{silent.getsockname()[1]}", silent),
        "a closed port": (f"tcp://127.0.0.1:{closed_port}", None),
    }


def node_state(path: Path) -> tuple[int, int, int]:
    st = path.lstat()
    return stat.S_IFMT(st.st_mode), st.st_rdev, st.st_ino


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rows = []
    for name, (address, handle) in servers().items():
        for command in (["pancake", "god", "-n", "5"], ["topswops", "solve", "-n", "9", "--mode", "forward"]):
            runs = [refusal([*command, "--scheduler", address]) for _ in range(args.repeats)]
            seconds = statistics.median(r[0] for r in runs)
            ok = all(one_line_exit_2(code, err) for _, code, err in runs)
            rows.append({"case": f"--scheduler at {name}", "command": " ".join(command), "seconds": seconds,
                         "runs": [round(r[0], 3) for r in runs], "one line, exit 2": ok,
                         "messages": sorted({r[2].strip() for r in runs}),
                         "met": ok and max(r[0] for r in runs) <= TARGET_SECONDS})
        if isinstance(handle, http.server.HTTPServer):
            handle.shutdown()
        elif handle is not None:
            handle.close()
    with tempfile.TemporaryDirectory() as folder:
        top = Path(folder)
        nodes = {"a FIFO": top / "fifo"}
        os.mkfifo(nodes["a FIFO"])
        if os.geteuid() == 0:
            nodes["a character device"] = top / "device"
            os.mknod(nodes["a character device"], 0o666 | stat.S_IFCHR, os.makedev(1, 3))
            nodes["a link to the device"] = top / "link"
            nodes["a link to the device"].symlink_to("device")
        before = {n: node_state(p) for n, p in nodes.items()}
        for name, path in nodes.items():
            for command in OUTPUT_COMMANDS:
                seconds, code, err = refusal([*command, str(path)], cwd=top)
                unchanged = all(node_state(p) == before[n] for n, p in nodes.items())
                rows.append({"case": f"{command[-1]} at {name}", "command": " ".join(command[:-1]),
                             "seconds": seconds, "one line, exit 2": one_line_exit_2(code, err),
                             "node unchanged": unchanged, "message": err.strip(),
                             "met": one_line_exit_2(code, err) and unchanged})
    print_table("Refusals (fresh processes)", rows, ["case", "command", "seconds", "one line, exit 2", "met"])
    write_results("safety", rows, {"target_seconds": TARGET_SECONDS})
    if not all(r["met"] for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
