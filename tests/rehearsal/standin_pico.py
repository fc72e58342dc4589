"""The rehearsal's stand-in Pico (run inside the machine by standin_board.py, as root).

Plugged in, it is a USB serial port: ``/dev/ttyACM0``, a pty made root:dialout 0660 as
udev makes a Pico's, which goes away when the Pico resets and comes back. Behind it:

- with no ``main.py`` on its flash (a folder), MicroPython's REPL as the UF2 leaves it:
  the friendly prompt and the raw REPL that mpremote drives, the code run by the real
  MicroPython unix port with the flash mounted as "/" (mp_repl.py); ``machine.reset()``
  restarts the Pico;
- with ``main.py``, the firmware on its flash, run by the unix port with the unix harness
  (firmware/unix_main.py, fakes.py: a bit-level 74HC165 chain, a recorded LED strip) in
  place of main.py's PIO and SPI. Host frames pass through renumbered, so the switch
  changes of the "hand on the board" (TEST_SWITCHES frames) slot in between them as if
  the host had sent them; the pawns on the board are set again at every start.
"""

from __future__ import annotations

import contextlib
import grp
import os
import shutil
import subprocess
import tempfile
import time
import tty
from pathlib import Path

from keezbord.host.drivers import link_protocol as P

BANNER = (
    b"MicroPython v1.24.1 on 2024-11-29; Raspberry Pi Pico with RP2040\r\n"
    b'Type "help()" for more information.\r\n>>> '
)
RAW = b"raw REPL; CTRL-B to exit\r\n>"
HARNESS = ("unix_main.py", "fakes.py")
RESET_EXIT = 42
MAINTENANCE_FLAG = "maintenance"  # firmware/main.py's


class Port:
    """The Pico's USB serial device node (the master end is the Pico's).

    Unplugged as a real one is: the node goes first, then closing the master hangs up the
    host's open slave, as cdc_acm's tty_vhangup does (a read after select said readable
    returns no data: pyserial's "device reports readiness to read but returned no data");
    plugged in, a new node at once, where a real Pico takes a moment to enumerate (harsher
    for the host, never kinder)."""

    def __init__(self, link: Path) -> None:
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        name = os.ttyname(self._slave)
        os.chown(name, 0, grp.getgrnam("dialout").gr_gid)
        os.chmod(name, 0o660)
        os.set_blocking(self.master, False)
        self.link = link
        with contextlib.suppress(FileNotFoundError):
            link.unlink()
        link.symlink_to(name)

    def write(self, data: bytes) -> None:
        # A host that does not read loses what does not fit, as with USB CDC.
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self.master, data)

    def read(self) -> bytes:
        try:
            return os.read(self.master, 4096)
        except (BlockingIOError, OSError):
            return b""

    def close(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.link.unlink()
        for fd in (self.master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)


class Pico:
    def __init__(
        self, flash: Path, firmware_src: Path, micropython: str, link: Path, run: Path
    ) -> None:
        self.flash, self.firmware_src, self.micropython = flash, firmware_src, micropython
        self.link, self.run = link, run
        self.port: Port | None = None
        self.mode = "off"  # off | repl | firmware
        self.closed: set[int] = set()  # the pawns on the board: switch bits closed
        self.boots = 0
        self._proc: subprocess.Popen[bytes] | None = None
        self._fw_fd = -1  # firmware mode: our end of the firmware's pty
        self._decoder = P.Decoder()
        self._seq = 0
        self._held = bytearray()  # firmware output before the pawns are set
        self._release_at = 0.0
        self._raw = False
        self._code = bytearray()
        self._busy = False  # raw REPL: a block is running
        self._eots = 0
        self._pending = bytearray()
        self._replug_at: float | None = None
        self._boot_dir: Path | None = None

    # -- power and USB -------------------------------------------------------------------

    def plug(self) -> None:
        if self.port is None:
            self.port = Port(self.link)
            self._start()

    def unplug(self) -> None:
        self._stop()
        if self.port is not None:
            self.port.close()
            self.port = None
        self.mode = "off"

    def _restart(self, after: float = 0.5) -> None:
        """A reset: USB goes away and the Pico comes back after ``after`` seconds."""
        self.unplug()
        self._replug_at = time.monotonic() + after

    def _start(self) -> None:
        self.boots += 1
        flag = self.flash / MAINTENANCE_FLAG
        if (self.flash / "main.py").exists() and not flag.exists():
            self._start_firmware()
        else:
            # main.py's stop_reason(): the flag sends this one boot to the REPL.
            flag.unlink(missing_ok=True)
            self.mode, self._raw, self._busy = "repl", False, False
            self._start_repl()

    def _stop(self) -> None:
        if self._proc is not None:
            with contextlib.suppress(ProcessLookupError):
                self._proc.kill()
            self._proc.wait()
            self._proc = None
        if self._fw_fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._fw_fd)
            self._fw_fd = -1
        if self._boot_dir is not None:
            shutil.rmtree(self._boot_dir, ignore_errors=True)
            self._boot_dir = None

    # -- the firmware --------------------------------------------------------------------

    def _start_firmware(self) -> None:
        self.mode = "firmware"
        boot = Path(tempfile.mkdtemp(prefix="pico-boot-"))
        for f in self.flash.iterdir():
            if f.is_file():
                shutil.copy2(f, boot / f.name)
        for name in HARNESS:
            shutil.copy2(self.firmware_src / name, boot / name)
        self._boot_dir = boot
        master, slave = os.openpty()
        tty.setraw(slave)
        err = (self.run / "pico-firmware.log").open("ab")
        self._proc = subprocess.Popen(
            [self.micropython, "unix_main.py", "--record", str(self.run / "pico-leds.txt")],
            stdin=master, stdout=master, stderr=err, cwd=boot,
        )  # fmt: skip
        err.close()
        os.close(master)
        os.set_blocking(slave, False)
        self._fw_fd = slave
        self._decoder = P.Decoder()
        self._held = bytearray()
        self._release_at = 0.0

    def set_switches(self, changes: list[tuple[int, bool]]) -> None:
        for bit, closed in changes:
            (self.closed.add if closed else self.closed.discard)(bit)
        if self.mode == "firmware" and self._release_at:
            self._send_switches(changes)

    def _send_switches(self, changes: list[tuple[int, bool]]) -> None:
        for k in range(0, len(changes), 400):
            body = b"".join(
                P.u16(bit | (P.CLOSED_FLAG if c else 0)) for bit, c in changes[k : k + 400]
            )
            self._to_firmware(P.encode_frame(P.CMD_TEST_SWITCHES, self._seq, body))
            self._seq += 1

    def _to_firmware(self, data: bytes) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._fw_fd, data)

    def _firmware_output(self) -> None:
        try:
            data = os.read(self._fw_fd, 4096)
        except (BlockingIOError, OSError):
            data = b""
        if not data:
            return
        if not self._release_at:
            # It runs: the pawns on the board are there when it first scans.
            self._send_switches(sorted((b, True) for b in self.closed))
            self._release_at = time.monotonic() + 0.1
        if time.monotonic() < self._release_at:
            self._held += data
            return
        if self.port is not None:
            self.port.write(bytes(self._held) + data)
        self._held = bytearray()

    def _host_to_firmware(self, data: bytes) -> None:
        for f in self._decoder.feed(data):
            if f.type == P.CMD_HELLO:
                self._seq = 0  # a host's HELLO starts its sequence afresh
            self._to_firmware(P.encode_frame(f.type, self._seq, f.payload))
            self._seq += 1

    # -- MicroPython's REPL --------------------------------------------------------------

    def _start_repl(self) -> None:
        self._stop()
        self._proc = subprocess.Popen(
            [self.micropython, str(Path(__file__).with_name("mp_repl.py")), str(self.flash)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )  # fmt: skip
        assert self._proc.stdout is not None
        os.set_blocking(self._proc.stdout.fileno(), False)

    def _repl_input(self, data: bytes) -> None:
        self._pending += data
        while self._pending and not self._busy:
            c = self._pending[0]
            del self._pending[0]
            self._repl_byte(c)

    def _repl_byte(self, c: int) -> None:
        assert self.port is not None
        if not self._raw:
            if c == 0x01:
                self._raw, self._code = True, bytearray()
                self.port.write(b"\r\n" + RAW)
            elif c == 0x03:
                self.port.write(b"\r\n>>> ")
            elif c == 0x04:
                self._start_repl()
                self.port.write(b"MPY: soft reboot\r\n" + BANNER)
            elif c == 0x0D:
                self.port.write(b"\r\n>>> ")
            else:
                self.port.write(bytes([c]))  # echo, as the friendly REPL does
            return
        if c == 0x02:
            self._raw = False
            self.port.write(b"\r\n" + BANNER)
        elif c == 0x03:
            self._code = bytearray()
        elif c == 0x01:
            self._code = bytearray()
            self.port.write(b"\r\n" + RAW)
        elif c == 0x05 and self._pending[:2] == b"A\x01":
            del self._pending[:2]
            self.port.write(b"R\x00")  # raw-paste mode: not offered (mpremote falls back)
        elif c == 0x04 and not self._code:
            self._start_repl()
            self.port.write(b"OK\r\nMPY: soft reboot\r\n" + RAW)
        elif c == 0x04:
            self.port.write(b"OK")
            code, self._code = bytes(self._code), bytearray()
            self._busy, self._eots = True, 0
            assert self._proc is not None and self._proc.stdin is not None
            try:
                self._proc.stdin.write(b"%d\n" % len(code) + code)
                self._proc.stdin.flush()
            except OSError:
                self._repl_ended()
        else:
            self._code.append(c)

    def _repl_output(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        try:
            data = self._proc.stdout.read(4096) or b""
        except (BlockingIOError, OSError):
            data = b""
        if data and self.port is not None:
            self.port.write(data)
            self._eots += data.count(b"\x04")
            if self._busy and self._eots >= 2:
                self._busy = False
                self.port.write(b">")
                self._repl_input(b"")

    def _repl_ended(self) -> None:
        code = self._proc.wait() if self._proc is not None else 0
        self._proc = None
        if code == RESET_EXIT:
            self._restart()
        else:
            self._start_repl()  # a crash of the executor: MicroPython would soft-reset
            self._busy = False

    # -- the loop (standin_board.py calls these) ------------------------------------------

    def fds(self) -> list[int]:
        out = []
        if self.port is not None:
            out.append(self.port.master)
        if self.mode == "firmware" and self._fw_fd >= 0:
            out.append(self._fw_fd)
        if self.mode == "repl" and self._proc is not None and self._proc.stdout is not None:
            out.append(self._proc.stdout.fileno())
        return out

    def ready(self, fd: int) -> None:
        if self.port is not None and fd == self.port.master:
            data = self.port.read()
            if data:
                (self._host_to_firmware if self.mode == "firmware" else self._repl_input)(data)
        elif fd == self._fw_fd:
            self._firmware_output()
        elif self._proc is not None and self._proc.stdout is not None:
            self._repl_output()

    def tick(self) -> None:
        now = time.monotonic()
        if self._replug_at is not None and now >= self._replug_at:
            self._replug_at = None
            self.plug()
        if self._held and self._release_at and now >= self._release_at and self.port:
            self.port.write(bytes(self._held))
            self._held = bytearray()
        if self._proc is not None and self._proc.poll() is not None:
            if self.mode == "firmware":
                # The firmware ended: MAINTENANCE (it restarts into the REPL), or a crash
                # (the watchdog restarts it). Either way the USB port goes and comes back.
                if self._proc.returncode == 0:  # as main.py does before machine.reset()
                    (self.flash / MAINTENANCE_FLAG).write_text("1")
                self._restart()
            else:
                self._repl_ended()

    def status(self) -> dict[str, object]:
        return {"mode": self.mode, "boots": self.boots, "closed": sorted(self.closed)}
