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

# The plain-Python test oracle of a viper module (firmware/*_viper.py), for probes run by
# the MicroPython unix port in firmware/: the module's very source run as bytecode, the
# @micropython.viper lines dropped and viper's casts taken from viper_py.py. Each loop is
# written once; a probe checks that native code and bytecode agree on it (viper's 32-bit
# ints, its 8-bit stores) on random inputs, and against the plain reference codecs.
AS_PYTHON = r"""
import viper_py


class _Oracle:
    pass


def as_python(name):
    g = {"__name__": name + "_oracle"}
    g["ptr8"], g["ptr16"], g["ptr32"] = viper_py.ptr8, viper_py.ptr16, viper_py.ptr32
    with open(name + ".py") as f:
        src = f.read().replace("@micropython.viper\n", "")
    exec(src, g)
    m = _Oracle()
    for k in g:
        setattr(m, k, g[k])
    return m
"""


def micropython_binary() -> str | None:
    beside = Path(sys.executable).with_name("micropython")
    if beside.exists():
        return str(beside)
    return shutil.which("micropython")


def run_viper_probe(probe: str) -> str:
    """Run a probe script under the unix port in firmware/, with AS_PYTHON before it; its
    output (stdout, and stderr after it). Skips the test without the port."""
    exe = micropython_binary()
    if exe is None:
        import pytest

        pytest.skip("no MicroPython unix port")
    p = subprocess.run(
        [exe, "-c", AS_PYTHON + probe],
        cwd=FIRMWARE,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return p.stdout.strip() + p.stderr


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
