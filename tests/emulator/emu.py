"""Python end of the emulated Pico (tests/emulator/harness.mjs): builds the littlefs image
from firmware/*.py and a board.json, opens the pseudo-terminal the host's pyserial uses,
starts the Node harness and talks to it over its JSON-lines control channel.

Times from the harness are simulated nanoseconds (8 ns a CPU cycle at 125 MHz).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import threading
import time
import tty
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FIRMWARE = ROOT / "firmware"
DATA = HERE / "data"
UF2 = DATA / "micropython-v1.28.0-RPI_PICO.uf2"
BOOTROM = DATA / "bootrom-rp2040-b1.bin"
HARNESS = HERE / "harness.mjs"

FS_BLOCK = 4096
FS_BLOCKS = 352
PINS = {"sck": 2, "mosi": 3, "miso": 4, "latch": 5, "led": 6, "safe": 22}
MS = 1_000_000  # ns


def node_binary() -> str | None:
    return shutil.which("node")


def _lock_stamp() -> str:
    return hashlib.sha1((HERE / "package-lock.json").read_bytes()).hexdigest()[:12]


def ensure_node_modules() -> None:
    """`npm ci` when node_modules is missing or older than package-lock.json (dev.sh does
    the same before the tests; this covers a bare `pytest`)."""
    stamp = HERE / "node_modules" / f".keezbord-{_lock_stamp()}"
    if stamp.exists():
        return
    subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=HERE,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    stamp.touch()


def build_fs_image(files: dict[str, bytes]) -> bytes:
    """A littlefs (v2) image as MicroPython's rp2 port mounts it at flash offset 0xA0000."""
    from littlefs import LittleFS

    lfs = LittleFS(
        block_size=FS_BLOCK, block_count=FS_BLOCKS, read_size=32, prog_size=32, lookahead_size=32
    )
    for name, data in sorted(files.items()):
        with lfs.open(name, "wb") as f:
            f.write(data)
    return bytes(lfs.context.buffer)


def firmware_files(
    board: dict[str, Any] | None,
    firmware_dir: Path = FIRMWARE,
    extra: dict[str, bytes] | None = None,
) -> dict[str, bytes]:
    """What `keezbord firmware install` copies (its FIRMWARE_FILES; every .py of a
    scenario's own firmware folder), plus board.json and any extra files."""
    from keezbord.host.commands.firmware import FIRMWARE_FILES

    if firmware_dir == FIRMWARE:
        names = list(FIRMWARE_FILES)
    else:
        names = [p.name for p in sorted(firmware_dir.glob("*.py"))]
    files = {name: (firmware_dir / name).read_bytes() for name in names}
    if board is not None:
        files["board.json"] = json.dumps(board).encode()
    files.update(extra or {})
    return files


class HarnessError(RuntimeError):
    pass


class EmulatedPico:
    """The firmware on an emulated Pico. ``path`` is the serial port the host opens."""

    def __init__(
        self,
        workdir: Path,
        board: dict[str, Any] | None = None,
        *,
        chain: dict[str, Any] | None = None,
        pace: float = 1.0,
        safe_pin_low: bool = False,
        extra_files: dict[str, bytes] | None = None,
        firmware_dir: Path = FIRMWARE,
        echo_rx: bool = False,
        inject: list[tuple[int, bytes]] | None = None,
        usb_packet: int = 64,
    ) -> None:
        if node_binary() is None:
            raise HarnessError("node is not installed")
        ensure_node_modules()
        workdir.mkdir(parents=True, exist_ok=True)
        self.board = dict(board or {})
        image = workdir / "littlefs.img"
        image.write_bytes(build_fs_image(firmware_files(board, firmware_dir, extra_files)))
        pins = dict(PINS)
        for key, name in (
            ("sck_pin", "sck"),
            ("mosi_pin", "mosi"),
            ("miso_pin", "miso"),
            ("latch_pin", "latch"),
            ("led_pin", "led"),
            ("safe_pin", "safe"),
        ):
            if key in self.board:
                pins[name] = self.board[key]
        master, slave = os.openpty()
        tty.setraw(slave)
        tty.setraw(master)
        self.slave_fd = slave  # held open: the "cable" stays plugged while the host reopens
        self.path = os.ttyname(slave)
        conf = {
            "uf2": str(UF2),
            "bootrom": str(BOOTROM),
            "fs": str(image),
            "pty_fd": master,
            "pins": pins,
            "chain": chain or {},
            "pace": pace,
            "safe_pin_low": safe_pin_low,
            "echo_rx": echo_rx,
            "inject": [{"at": at, "bytes": list(data)} for at, data in inject or []],
            "usb_packet": usb_packet,
        }
        conf_path = workdir / "harness.json"
        conf_path.write_text(json.dumps(conf))
        self.events: list[dict[str, Any]] = []
        self._replies: dict[int, dict[str, Any]] = {}
        self._cond = threading.Condition()
        self._next_id = 0
        self.proc = subprocess.Popen(
            ["node", str(HARNESS), str(conf_path)],
            cwd=HERE,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            pass_fds=(master,),
        )
        os.close(master)
        self._threads = [
            threading.Thread(target=self._read_replies, daemon=True),
            threading.Thread(target=self._read_events, daemon=True),
        ]
        for t in self._threads:
            t.start()
        self.stderr_text: list[str] = []

    # -- control channel ------------------------------------------------------------------

    def _read_replies(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            with self._cond:
                self._replies[msg.get("id", -1)] = msg
                self._cond.notify_all()
        with self._cond:
            self._cond.notify_all()

    def _read_events(self) -> None:
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:
            line = raw.decode(errors="replace").strip()
            try:
                ev = json.loads(line)
            except ValueError:
                self.stderr_text.append(line)
                continue
            with self._cond:
                self.events.append(ev)
                self._cond.notify_all()

    def call(self, cmd: str, timeout: float = 120.0, **kw: Any) -> dict[str, Any]:
        with self._cond:
            self._next_id += 1
            mid = self._next_id
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write((json.dumps({"id": mid, "cmd": cmd, **kw}) + "\n").encode())
            self.proc.stdin.flush()
        except BrokenPipeError as e:
            raise HarnessError(f"harness gone: {self.stderr_tail()}") from e
        end = time.monotonic() + timeout
        with self._cond:
            while mid not in self._replies:
                left = end - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    raise HarnessError(f"no reply to {cmd} ({self.stderr_tail()})")
                self._cond.wait(min(left, 0.5))
            reply = self._replies.pop(mid)
        if not reply.get("ok"):
            raise HarnessError(f"{cmd}: {reply.get('error')}")
        return reply

    def stderr_tail(self) -> str:
        return " | ".join(self.stderr_text[-5:])

    # -- conveniences ---------------------------------------------------------------------

    def now_ns(self) -> int:
        return int(self.call("status")["t"])

    def status(self) -> dict[str, Any]:
        return self.call("status")

    def run_for(self, ms: float) -> int:
        """Let the firmware run `ms` simulated milliseconds (the host keeps running too)."""
        return int(self.call("wait", **{"for": ms * MS})["t"])

    def run_until(self, t_ns: float) -> int:
        return int(self.call("wait", until=t_ns)["t"])

    def set_switches(self, changes: Iterable[tuple[int, bool]]) -> int:
        return int(self.call("switches", set=[[i, c] for i, c in changes])["t"])

    def set_closed(self, closed: Iterable[int]) -> int:
        return int(self.call("switches", closed=sorted(closed))["t"])

    def chain(self, **kw: Any) -> None:
        self.call("chain", **kw)

    def frames(self, since: int = 0) -> dict[str, Any]:
        return self.call("frames", since=since)

    def inject(self, data: bytes, at_ns: float | None = None) -> None:
        kw: dict[str, Any] = {"bytes": list(data)}
        if at_ns is not None:
            kw["at"] = at_ns
        self.call("inject", **kw)

    def hold_output(self, hold: bool) -> int:
        """The host stops (True) or resumes (False) reading what the Pico sends over USB:
        its IN packets stay pending, as with a host program that stopped reading."""
        return int(self.call("hold_output", hold=hold)["t"])

    def usb_packet(self, size: int) -> None:
        """At most `size` bytes per OUT packet from now on (64 is full-speed USB's)."""
        self.call("usb_packet", size=size)

    def wait_event(self, pred: Callable[[dict[str, Any]], bool], timeout: float) -> dict[str, Any]:
        end = time.monotonic() + timeout
        with self._cond:
            while True:
                for ev in self.events:
                    if pred(ev):
                        return ev
                left = end - time.monotonic()
                if left <= 0:
                    raise HarnessError("event not seen in time")
                self._cond.wait(min(left, 0.5))

    def wait_first_frame(self, timeout: float = 60.0) -> int:
        """Wait (wall seconds) until the firmware has sent a frame that decodes; return
        the simulated time it arrived."""
        from keezbord.host.drivers import link_protocol as P

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            dec = P.Decoder()
            text = b""
            for t, hexdata in self.call("rx_log")["log"]:
                data = bytes.fromhex(hexdata)
                text += data
                if dec.feed(data):
                    return int(t)
            if b"\n>>> " in text:
                raise HarnessError(f"the firmware stopped at the REPL: {text[-300:]!r}")
            time.sleep(0.1)
        raise HarnessError(f"no frame from the firmware ({self.status()})")

    def stop(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(HarnessError):
                self.call("quit", timeout=5)
        # Node's exit waits for its thread blocked reading the pty master; closing the
        # last slave end makes that read fail at once.
        with contextlib.suppress(OSError):
            os.close(self.slave_fd)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=5)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


def grb_words(colours: Iterable[tuple[int, int, int]]) -> list[int]:
    return [(g << 16) | (r << 8) | b for r, g, b in colours]
