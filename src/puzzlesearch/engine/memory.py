"""How much memory a search may use, checked from its parameters before it allocates.

Every search that allocates in proportion to its size asks :func:`require` first, with
what it would need; beyond the cap it is refused in one line that says how much it
would need. The cap is ``--memory`` (RunOptions.memory) or, by default, a share of the
memory the kernel reports as available now.
"""

from __future__ import annotations

import math
import os

#: share of the available memory a search may take when no --memory is given
DEFAULT_SHARE = 0.9
#: the largest --memory accepted: 1 PiB (a typo beyond it is not a plan)
MAX_BUDGET = 1 << 50


def available_bytes() -> int:
    """MemAvailable from /proc/meminfo, else free physical pages (sysconf)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 1 << 62


def default_cap() -> int:
    """The cap when no --memory is given: DEFAULT_SHARE of what is available now."""
    return int(available_bytes() * DEFAULT_SHARE)


def gib(nbytes: float) -> str:
    """A byte count for people: '5.8 GiB', '96 MiB', '2.3e+09 GiB' for absurd sizes."""
    if nbytes >= 2**40 * 1000:
        return f"{nbytes / 2**30:.3g} GiB"
    if nbytes >= 2**30:
        return f"{nbytes / 2**30:.1f} GiB"
    if nbytes >= 2**20:
        return f"{nbytes / 2**20:.0f} MiB"
    return f"{nbytes / 2**10:.0f} KiB" if nbytes >= 2**10 else f"{int(nbytes)} bytes"


def from_gib(value: float) -> int:
    """--memory GIB as bytes; refuses what is not a positive finite size up to 1 PiB."""
    try:
        x = float(value)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"--memory must be a number of GiB, got {value!r}") from None
    if math.isnan(x) or math.isinf(x) or x <= 0:
        raise ValueError(f"--memory must be a positive number of GiB, got {value}")
    if x * 2**30 > MAX_BUDGET:
        raise ValueError(f"--memory must be at most {MAX_BUDGET // 2**30:,} GiB, got {value}")
    return check_budget(int(x * 2**30))


def check_budget(budget: int) -> int:
    """A memory cap in bytes must be a positive int up to MAX_BUDGET."""
    if isinstance(budget, bool) or not isinstance(budget, int) or not 0 < budget <= MAX_BUDGET:
        raise ValueError(f"the memory cap must be between 1 byte and {gib(MAX_BUDGET)}, got {budget!r}")
    return budget


def cap(budget: int | None) -> int:
    """The cap in force: the budget given, else the default one."""
    return default_cap() if budget is None else budget


def require(need: float, budget: int | None, what: str) -> None:
    """Refuse (ValueError, before anything is allocated) a search that needs more than the cap."""
    limit = cap(budget)
    if need > limit:
        how = "the --memory cap" if budget is not None else "the memory available now (cap it with --memory)"
        raise ValueError(f"{what} needs {gib(need)}, more than {gib(limit)}, {how}")


__all__ = ["available_bytes", "cap", "check_budget", "default_cap", "from_gib", "gib", "require"]
