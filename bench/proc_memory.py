"""A process's memory as the benchmarks report it, from /proc (Linux)."""

from __future__ import annotations

from pathlib import Path


def memory_mb(pid: int) -> tuple[float, float]:
    """(RSS now, peak RSS) of process ``pid``, in MB (VmRSS and VmHWM)."""
    got = {"VmRSS": float("nan"), "VmHWM": float("nan")}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key = line.split(":", 1)[0]
        if key in got:
            got[key] = int(line.split()[1]) / 1024
    return got["VmRSS"], got["VmHWM"]
