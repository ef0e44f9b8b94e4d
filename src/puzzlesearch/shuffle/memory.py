"""How much memory a search may use: what the kernel reports as available now."""

from __future__ import annotations

import os


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


def gib(nbytes: float) -> str:
    if nbytes >= 2**30:
        return f"{nbytes / 2**30:.1f} GiB"
    if nbytes >= 2**20:
        return f"{nbytes / 2**20:.0f} MiB"
    return f"{nbytes / 2**10:.0f} KiB" if nbytes >= 2**10 else f"{int(nbytes)} bytes"
