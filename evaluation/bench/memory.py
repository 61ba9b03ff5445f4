"""A process's resident memory, read from /proc (Linux): now (VmRSS) and its high-water mark (VmHWM).

The peak is VmHWM, never getrusage's ru_maxrss: ru_maxrss survives exec, so a process started from a larger
one (a measurement run from inside pytest, say) would report its parent's size at the fork as its own peak.
"""

from __future__ import annotations

from pathlib import Path


def _status_mb(field: str, pid: int | str) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    except OSError:  # the process has ended, or this is not Linux
        pass
    return None


def rss_mb(pid: int | str = "self") -> float | None:
    return _status_mb("VmRSS", pid)


def peak_rss_mb(pid: int | str = "self") -> float | None:
    return _status_mb("VmHWM", pid)
