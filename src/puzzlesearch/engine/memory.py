"""How much memory a search may use, checked from its parameters before it allocates.

Every search that allocates in proportion to its size asks `require` first, with
what it would need; beyond the cap it is refused in one line that says how much it
would need. The cap is ``--memory`` (RunOptions.memory) or, by default, a share of the
memory the kernel reports as available now. A --memory above the machine's physical
memory is no licence to exceed it: a search that needs more than the machine has is
refused whatever the cap (swapping a search of this kind would take longer than refusing
it and running it elsewhere).
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


def physical_bytes() -> int:
    """The machine's physical memory (MemTotal; sysconf), the most any cap can give."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 1 << 62


def default_cap() -> int:
    """The cap when no --memory is given: DEFAULT_SHARE of what is available now."""
    return int(available_bytes() * DEFAULT_SHARE)


#: binary units up to exbibytes; beyond 1024 EiB a size is only an order of magnitude
_UNITS = ((2**60, "EiB", 1), (2**50, "PiB", 1), (2**40, "TiB", 1), (2**30, "GiB", 1), (2**20, "MiB", 0),
          (2**10, "KiB", 0))


def gib(nbytes: float) -> str:
    """A byte count for people: '5.8 GiB', '96 MiB', '2.1 EiB'; 'more than 10^24 bytes'
    beyond 1024 EiB (any Python int, no float overflow); never a 10-digit GiB figure."""
    if isinstance(nbytes, float) and math.isnan(nbytes):
        return "an unknown amount"
    if nbytes == math.inf:
        return "an unbounded amount"
    if nbytes >= 2**70:
        return f"more than 10^{_log10_floor(int(nbytes))} bytes"
    for scale, unit, digits in _UNITS:
        if nbytes >= scale:
            return f"{nbytes / scale:.{digits}f} {unit}"
    return f"{max(0, int(nbytes))} bytes"


def _log10_floor(n: int) -> int:
    """floor(log10(n)) for any positive int (str(n) is refused beyond 4300 digits)."""
    k = int(math.log10(n))
    while 10**k > n:
        k -= 1
    while 10 ** (k + 1) <= n:
        k += 1
    return k


def from_gib(value: float | str) -> int:
    """--memory GIB as bytes; refuses what is not a positive finite size of 1 byte to 1 PiB
    (nan, inf, 1e400, 0, negative, words), in one line that starts with '--memory'."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"--memory must be a number of GiB, got {value!r}") from None
    except OverflowError:  # an int too large for a float
        x = math.inf
    if math.isnan(x):
        raise ValueError(f"--memory must be a number of GiB, got {value}")
    if x <= 0:
        raise ValueError(f"--memory must be a positive number of GiB, got {value}")
    if x * 2**30 > MAX_BUDGET:
        raise ValueError(f"--memory must be at most {MAX_BUDGET // 2**30:,} GiB, got {_short(value)}")
    if x * 2**30 < 1:
        raise ValueError(f"--memory must be at least one byte, got {value} GiB")
    return check_budget(int(x * 2**30))


def _short(value: object) -> str:
    if isinstance(value, int) and value.bit_length() > 64:
        return f"a number of {_log10_floor(abs(value)) + 1} digits"
    text = str(value)
    return text if len(text) <= 24 else text[:20] + "..."


def check_budget(budget: int) -> int:
    """A memory cap in bytes must be a positive int up to MAX_BUDGET."""
    if isinstance(budget, bool) or not isinstance(budget, int) or not 0 < budget <= MAX_BUDGET:
        raise ValueError(f"the memory cap must be between 1 byte and {gib(MAX_BUDGET)}, got {budget!r}")
    return budget


def cap(budget: int | None) -> int:
    """The cap in force: the budget given, else the default one."""
    return default_cap() if budget is None else budget


def require(need: float, budget: int | None, what: str) -> None:
    """Refuse (ValueError, before anything is allocated) a search that needs more than the cap.

    The one line reads "WHAT needs 5.8 GiB, more than 3.1 GiB, the --memory cap" (or "...,
    the memory available now (cap it with --memory)"). ``need`` may be any Python int (no
    float overflow) or inf; nan is refused as unknown.
    """
    limit = cap(budget)
    if not need <= limit:  # also nan
        how = "the --memory cap" if budget is not None else "the memory available now (cap it with --memory)"
        raise _refusal(f"{what} needs {gib(need)}, more than {gib(limit)}, {how}")
    physical = physical_bytes()
    if need > physical:  # a --memory above the machine's memory: what it allows would not fit
        raise _refusal(f"{what} needs {gib(need)}, more than the {gib(physical)} of memory this machine "
                       f"has (--memory {gib(budget)} is more than there is)")


def _refusal(message: str) -> ValueError:
    # a plain ValueError, as every refused input is (the API's documented exception), marked
    # so that a caller can tell a refusal for memory from its other limits
    error = ValueError(message)
    error.memory_refusal = True  # type: ignore[attr-defined]
    return error


def refused_for_memory(error: BaseException) -> bool:
    """Whether `error` is a refusal of `require` (the memory a step needs)."""
    return getattr(error, "memory_refusal", False) is True


__all__ = ["available_bytes", "cap", "check_budget", "default_cap", "from_gib", "gib", "physical_bytes",
           "refused_for_memory", "require"]
