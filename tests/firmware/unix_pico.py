"""The firmware under the MicroPython unix port on one end of a pseudo-terminal.

The firmware process gets the pty master as stdin/stdout; the host opens the slave path
with pyserial, exactly as it opens /dev/ttyACM0 for a real Pico. Used by the end-to-end
tests and by bench/bench_link.py.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tty
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"


def micropython_binary() -> str | None:
    beside = Path(sys.executable).with_name("micropython")
    if beside.exists():
        return str(beside)
    return shutil.which("micropython")


class UnixPico:
    def __init__(self, record: Path, *args: str) -> None:
        exe = micropython_binary()
        if exe is None:
            raise RuntimeError("the MicroPython unix port is not installed")
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo before pyserial opens it
        # The firmware's end never blocks, as the Pico's USB port never does (usb_cdc.py):
        # a write the pty cannot take returns at once with what it took (EAGAIN for none),
        # and the firmware keeps the rest for its next pass (stream.PollStream).
        fcntl.fcntl(master, fcntl.F_SETFL, fcntl.fcntl(master, fcntl.F_GETFL) | os.O_NONBLOCK)
        self.slave_fd = slave  # held open: the "cable" stays plugged while the host reopens
        self.path = os.ttyname(slave)
        self.record = record
        self.proc = subprocess.Popen(
            [exe, "unix_main.py", "--record", str(record), *args],
            stdin=master,
            stdout=master,
            stderr=subprocess.PIPE,
            cwd=FIRMWARE,
        )
        os.close(master)

    def strip_frames(self) -> list[tuple[int, bytes]]:
        if not self.record.exists():
            return []
        out = []
        for line in self.record.read_text().splitlines():
            t, _, hexdata = line.partition(" ")
            if hexdata or line.endswith(" "):
                out.append((int(t), bytes.fromhex(hexdata)))
        return out

    def write_raw(self, data: bytes) -> None:
        """Bytes into the firmware while no host has the port open (a hand at the board)."""
        os.write(self.slave_fd, data)

    def stop(self) -> str:
        self.proc.kill()
        _, err = self.proc.communicate(timeout=5)
        os.close(self.slave_fd)
        return err.decode(errors="replace")
