# mypy: disable-error-code="import-not-found"
"""Allocation under the MicroPython unix port (issue 9, item 11): the firmware's loop
allocates nothing per idle step (heartbeats and the link-lost pattern included) nor per
received byte (LED colours, patterns, pings and garbage; through the real PollStream
too). Measured with gc.mem_alloc() around thousands of steps with the GC disabled."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "firmware"))

import protocol as P  # noqa: E402
from unix_pico import micropython_binary  # noqa: E402

pytestmark = [
    pytest.mark.micropython,
    pytest.mark.skipif(micropython_binary() is None, reason="no MicroPython unix port"),
]


def test_no_allocation_per_idle_step_nor_per_received_byte(tmp_path: Path) -> None:
    traffic = tmp_path / "traffic.bin"
    traffic.write_bytes(
        b"".join(
            P.encode_frame(P.CMD_LEDS, i, P.u16(0) + bytes(range(200)) * 2)
            + P.encode_frame(P.CMD_PING, i, b"x\x03")
            for i in range(40)
        )
    )
    exe = micropython_binary()
    assert exe is not None
    p = subprocess.run(
        [
            exe,
            str(ROOT / "tests" / "firmware" / "alloc_probe.py"),
            str(ROOT / "firmware"),
            str(traffic),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert p.returncode == 0, p.stdout + p.stderr
    rows = {line.split()[0]: line.split() for line in p.stdout.splitlines()}
    assert int(rows["control_steps"][-1]) >= 1000 * 16  # the probe sees small allocations
    assert int(rows["idle_lost_steps"][-1]) == 0
    assert int(rows["received_bytes"][-1]) == 0
    assert rows["pollstream_frames"][1:4] == ["80", "of", "80"]
    assert int(rows["pollstream_frames"][-1]) == 0
    stats = rows["strip_writes"]
    assert int(stats[1]) > 100  # the patterns were animated (and the link-lost dots)
    assert int(stats[3]) >= 10 and int(stats[5]) > 0  # the LED frames handled, garbage counted
