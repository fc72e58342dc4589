"""The rehearsal's Pi: a Bookworm root booted with systemd as PID 1 under systemd-nspawn.

    systemd-nspawn --keep-unit --register=no -D ROOT -b --private-network
        --tmpfs=/sys/firmware --bind-ro=DT:/sys/firmware/devicetree/base ...

(``--register=no`` alone fails without a system bus; the host's PID 1 is not systemd.)
The device tree's folder holds the model string of a Pi, which ``/proc/device-tree``
points at on a real one. Commands are run inside with nsenter (all the machine's
namespaces) as root or, through setpriv, as a user with a login environment.

The machine has only a loopback interface, so its port 8000 and its mDNS stay off this
machine's network and two runs never collide. What needs the internet (apt, pip) goes
through a CONNECT proxy that listens on the machine's loopback but connects out from
here: its listening socket is made inside the machine's network namespace (setns), the
connections out in ours. The page is reached the same way, through a forwarder.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import select
import shlex
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

CLONE_NEWNET = 0x40000000
PROXY_PORT = 3128
LOGIN_PATH = "/usr/local/bin:/usr/bin:/bin:/usr/local/games:/usr/games"
T = TypeVar("T")
_libc = ctypes.CDLL(None, use_errno=True)


@dataclass(frozen=True)
class Done:
    rc: int
    out: str
    seconds: float


def in_netns(pid: int, make: Callable[[], T]) -> T:
    """``make()`` run with this thread in the network namespace of process ``pid``; what
    it creates (sockets) stays there."""
    mine = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
    theirs = os.open(f"/proc/{pid}/ns/net", os.O_RDONLY)
    try:
        if _libc.setns(theirs, CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), "setns into the machine's network")
        try:
            return make()
        finally:
            if _libc.setns(mine, CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), "setns back")
    finally:
        os.close(mine)
        os.close(theirs)


def _pipe(a: socket.socket, b: socket.socket) -> None:
    """Copy both ways until either side closes."""
    try:
        socks = [a, b]
        while True:
            ready, _, _ = select.select(socks, [], [], 300)
            if not ready:
                return
            for s in ready:
                data = s.recv(65536)
                if not data:
                    return
                (b if s is a else a).sendall(data)
    except OSError:
        return
    finally:
        a.close()
        b.close()


def _serve(listener: socket.socket, handle: Callable[[socket.socket], None]) -> None:
    def loop() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=handle, args=(conn,), daemon=True).start()

    threading.Thread(target=loop, daemon=True).start()


def _connect_proxy(conn: socket.socket) -> None:
    """One CONNECT host:port request (apt over https, pip): tunnel it."""
    head = b""
    with contextlib.suppress(OSError):
        while b"\r\n\r\n" not in head and len(head) < 8192:
            chunk = conn.recv(4096)
            if not chunk:
                break
            head += chunk
    parts = head.split(b"\r\n", 1)[0].split()
    if len(parts) < 2 or parts[0] != b"CONNECT":
        with contextlib.suppress(OSError):
            conn.sendall(b"HTTP/1.1 405 CONNECT only\r\n\r\n")
        conn.close()
        return
    host, _, port = parts[1].decode().rpartition(":")
    try:
        out = socket.create_connection((host, int(port)), timeout=60)
        out.settimeout(None)
    except OSError:
        with contextlib.suppress(OSError):
            conn.sendall(b"HTTP/1.1 502 cannot connect\r\n\r\n")
        conn.close()
        return
    conn.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
    rest = head.split(b"\r\n\r\n", 1)[1]
    if rest:
        out.sendall(rest)
    _pipe(conn, out)


class Machine:
    def __init__(self, root: Path, devicetree: Path, binds: Sequence[str], log: Path) -> None:
        self.root = root
        self.devicetree = devicetree
        self.binds = list(binds)
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self.leader = 0
        self.boots = 0
        self._listeners: list[socket.socket] = []

    # -- power ---------------------------------------------------------------------------

    def boot(self, timeout: float = 120) -> float:
        """Boot; the seconds until systemd says the system is up."""
        began = time.monotonic()
        argv = [
            "systemd-nspawn", "--keep-unit", "--register=no", "-D", str(self.root), "-b",
            f"--machine=keezbord-rehearsal-{os.getpid()}",
            "--private-network", "--tmpfs=/sys/firmware",
            f"--bind-ro={self.devicetree}:/sys/firmware/devicetree/base",
            *(f"--bind={b}" if not b.startswith("ro:") else f"--bind-ro={b[3:]}"
              for b in self.binds),
        ]  # fmt: skip
        out = self.log.open("ab")
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        out.close()
        self.boots += 1
        self.leader = 0
        while time.monotonic() - began < timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(f"systemd-nspawn ended ({self.proc.returncode}); {self.log}")
            self.leader = self._find_leader()
            if self.leader:
                state = self.root_sh("systemctl is-system-running --wait", timeout=timeout)
                if state.out.strip() in ("running", "degraded"):
                    break
            time.sleep(0.1)
        else:
            raise RuntimeError(f"the machine did not come up in {timeout} s; {self.log}")
        self._start_proxy()
        return time.monotonic() - began

    def _find_leader(self) -> int:
        assert self.proc is not None
        with contextlib.suppress(OSError):
            kids = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text()
            for pid in kids.split():
                if Path(f"/proc/{pid}/comm").read_text().strip() == "systemd":
                    return int(pid)
        return 0

    def shutdown(self, timeout: float = 60) -> None:
        for s in self._listeners:
            s.close()
        self._listeners = []
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()  # nspawn turns it into an orderly poweroff of the machine
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)

    def reboot(self) -> float:
        """``sudo reboot``: systemd inside stops everything, the machine starts again."""
        self.shutdown()
        return self.boot()

    # -- commands ------------------------------------------------------------------------

    def _nsenter(self) -> list[str]:
        return ["nsenter", "-t", str(self.leader), "-m", "-u", "-i", "-n", "-p", "-r", "-w"]

    def root_sh(self, script: str, timeout: float = 600, stdin: str = "") -> Done:
        return self._run(["/bin/sh", "-c", script], timeout, stdin)

    def sh(self, script: str, user: str = "pi", timeout: float = 900, stdin: str = "") -> Done:
        """``script`` in bash as ``user`` would type it in an SSH session."""
        env = self.login_env(user)
        uid, gid = self.ids(user)
        argv = ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--init-groups", "env", "-i",
                *env, "bash", "-e", "-o", "pipefail", "-c", f"cd ~ && {script}"]  # fmt: skip
        return self._run(argv, timeout, stdin)

    def ids(self, user: str) -> tuple[int, int]:
        """The user's uid and gid in the machine's /etc/passwd."""
        for line in self.path("/etc/passwd").read_text().splitlines():
            f = line.split(":")
            if f[0] == user:
                return int(f[2]), int(f[3])
        raise KeyError(f"no user {user} in the machine")

    def login_env(self, user: str) -> list[str]:
        home = "/root" if user == "root" else f"/home/{user}"
        return [f"HOME={home}", f"USER={user}", f"LOGNAME={user}", f"PATH={LOGIN_PATH}",
                "LANG=C.UTF-8", "SHELL=/bin/bash", "TERM=dumb"]  # fmt: skip

    def _run(self, argv: list[str], timeout: float, stdin: str) -> Done:
        began = time.monotonic()
        try:
            done = subprocess.run(
                [*self._nsenter(), *argv], input=stdin, capture_output=True, text=True,
                timeout=timeout, check=False,
            )  # fmt: skip
        except subprocess.TimeoutExpired as e:
            out = (e.stdout or b"") + (e.stderr or b"")
            text = out.decode(errors="replace") if isinstance(out, bytes) else str(out)
            return Done(124, text + f"\n(timed out after {timeout} s)", timeout)
        return Done(done.returncode, done.stdout + done.stderr, time.monotonic() - began)

    def start_unit(self, name: str, argv: Sequence[str], log: str) -> Done:
        """A long-running process inside the machine (the board's parts), as a transient
        unit of its systemd: stopped with everything else when the machine shuts down.
        (A process left to nsenter would be frozen by the shutdown's final kill, and its
        nsenter parent with it, and the shutdown would wait for it for ever.)"""
        return self._run(
            ["systemd-run", f"--unit={name}", "--collect", "--quiet",
             f"--property=StandardOutput=append:{log}", f"--property=StandardError=append:{log}",
             *argv],
            60, "",
        )  # fmt: skip

    def path(self, system_path: str) -> Path:
        return self.root / system_path.lstrip("/")

    def quote(self, *words: str) -> str:
        return shlex.join(words)

    # -- the network ---------------------------------------------------------------------

    def _listen_inside(self, port: int) -> socket.socket:
        def make() -> socket.socket:
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", port))
            s.listen(64)
            return s

        s = in_netns(self.leader, make)
        self._listeners.append(s)
        return s

    def _start_proxy(self) -> None:
        _serve(self._listen_inside(PROXY_PORT), _connect_proxy)

    def connect_inside(self, port: int, timeout: float = 5) -> socket.socket:
        return in_netns(self.leader, lambda: socket.create_connection(("127.0.0.1", port), timeout))

    def forward(self, port: int) -> int:
        """A port on this machine's loopback that reaches the machine's ``port``."""
        host = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        host.bind(("127.0.0.1", 0))
        host.listen(64)
        self._listeners.append(host)

        def handle(conn: socket.socket) -> None:
            try:
                inside = self.connect_inside(port)
            except OSError:
                conn.close()
                return
            inside.settimeout(None)
            _pipe(conn, inside)

        _serve(host, handle)
        return int(host.getsockname()[1])
