"""Who holds a serial port, in one line with how to free it.

Every program of keezbord opens its serial ports exclusively (pyserial's ``exclusive``:
a flock, which binds root too), so a second one cannot cut into the Pico's link or steal
half a card reader's answers. The one that is refused says who holds the port, found in
/proc (which process has it open, and the systemd unit it runs in), and what to do:
the service's own port is freed by stopping the service.
"""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

SERVICE = "keezbord.service"
STOP = "sudo systemctl stop keezbord"
START = "sudo systemctl start keezbord"


class PortBusy(OSError):
    """A port another program holds; the message says who and how to free it."""


def open_exclusive(open_port: Callable[[], T], device: str) -> T:
    """``open_port()``, with a refusal because another program holds ``device`` turned
    into PortBusy with its one line."""
    try:
        return open_port()
    except (OSError, ValueError) as e:
        if is_busy(e):
            raise PortBusy(busy_message(device)) from None
        raise


@dataclass(frozen=True)
class Holder:
    pid: int
    command: str
    unit: str | None  # the systemd service it runs in, if any


def is_busy(e: BaseException) -> bool:
    """Whether opening a port failed because another program holds it."""
    if isinstance(e, OSError) and e.errno in (errno.EAGAIN, errno.EBUSY):
        return True
    text = str(e)
    return "exclusively lock" in text or "Resource temporarily unavailable" in text


def holders(device: str, proc: Path = Path("/proc")) -> list[Holder]:
    """The processes that have ``device`` (or what it links to) open; only those this
    user may look into are seen."""
    try:
        st = os.stat(device)
    except OSError:
        return []
    # The same file, not the same name: a container's /dev/pts/2 is another pty.
    target = (st.st_dev, st.st_ino)
    found = []
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fds = list((entry / "fd").iterdir())
        except OSError:
            continue
        for fd in fds:
            try:
                fst = os.stat(fd)
            except OSError:
                continue
            if (fst.st_dev, fst.st_ino) == target:
                found.append(_holder(entry))
                break
    # Another process before this one (which may hold a spare descriptor of its own).
    return sorted(found, key=lambda h: h.pid == os.getpid())


def _holder(entry: Path) -> Holder:
    try:
        argv = (entry / "cmdline").read_bytes().split(b"\0")
        command = " ".join(a.decode(errors="replace") for a in argv if a)[:80]
    except OSError:
        command = "?"
    unit = None
    try:
        for line in (entry / "cgroup").read_text().splitlines():
            tail = line.rsplit("/", 1)[-1]
            if tail.endswith(".service"):
                unit = tail
                break
    except OSError:
        pass
    return Holder(int(entry.name), command, unit)


def service_active(unit: str = SERVICE) -> bool:
    """Whether systemd runs the service now (False where there is no systemd)."""
    try:
        done = subprocess.run(
            ["systemctl", "is-active", "--quiet", unit], capture_output=True, check=False
        )
    except OSError:
        return False
    return done.returncode == 0


def busy_message(device: str, found: list[Holder] | None = None) -> str:
    """One line: who holds ``device`` and how to free it."""
    found = holders(device) if found is None else found
    mine = [h for h in found if h.unit == SERVICE]
    if mine:
        h = mine[0]
        return (
            f"{device} is held by the keezbord service ({SERVICE}, pid {h.pid}): stop it "
            f"first with `{STOP}` (and `{START}` after)"
        )
    if found:
        h = found[0]
        where = f", {h.unit}" if h.unit else ""
        return f"{device} is held by pid {h.pid} ({h.command}{where}): end that program first"
    return (
        f"{device} is in use by another program (the keezbord service? `{STOP}` frees it, "
        f"`{START}` after)"
    )
