"""A real Mosquitto broker with the configuration ``keezbord club broker-config`` writes,
on a free loopback port, and a club evening around it: a tournament store, the service,
simulated boards. Shared by the tests and bench/bench_club.py."""

from __future__ import annotations

import atexit
import dataclasses
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from keezbord.host.club.board_link import ClubSettings
from keezbord.host.club.broker_config import BrokerFiles, tournament_password, write_broker_config
from keezbord.host.club.service import BrokerSettings, Tournament
from keezbord.host.club.sim_board import SimBoard
from keezbord.host.club.store import Store

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


def broker_home(tmp: Path, name: str = "broker") -> Path:
    """Where a test's broker files go: ``tmp / name``; as root (CI), where mosquitto
    drops to its own user, which cannot enter pytest's root-only folders, a folder of
    /tmp that user may pass through (removed at exit)."""
    if os.geteuid() != 0:
        return tmp / name
    home = Path(tempfile.mkdtemp(prefix="keezbord-broker-"))
    os.chmod(home, 0o711)
    atexit.register(shutil.rmtree, home, True)
    return home / name


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def mosquitto_binary() -> str:
    found = shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin:/sbin")
    if found is None:
        raise RuntimeError("Debian's mosquitto is not installed (./dev.sh test installs it)")
    return found


def wait_for(
    check: Callable[[], object], timeout: float = 30.0, what: str = "", every: float = 0.02
) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or check}")
        time.sleep(every)


@dataclass
class Broker:
    files: BrokerFiles
    port: int
    proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [mosquitto_binary(), "-c", str(self.files.conf)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                    raise RuntimeError(f"mosquitto did not start: {err}") from None
                time.sleep(0.02)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGTERM)  # it saves its persistence file first
            self.proc.wait(timeout=10)
            self.proc = None

    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid


@dataclass
class Club:
    """A tournament with ``boards`` registered boards, its broker and service."""

    dir: Path
    store: Store
    broker: Broker
    tournament: Tournament
    boards: dict[str, str]
    sims: dict[str, SimBoard] = field(default_factory=dict)

    def settings(self, board: str) -> ClubSettings:
        ca = self.broker.files.boards[board].parent / "ca.crt"
        tls = ca.exists()
        return ClubSettings(
            board, self.boards[board], "127.0.0.1", self.broker.port, tls=tls,
            ca=str(ca) if tls else None,
        )  # fmt: skip

    def sim(
        self, board: str, *, seats: int = 2, move_ms: float = 0.0, resend_s: float = 30.0
    ) -> SimBoard:
        settings = dataclasses.replace(self.settings(board), resend_s=resend_s)
        s = SimBoard(settings, self.dir / f"{board}.sqlite", seats=seats, move_ms=move_ms)
        self.sims[board] = s
        s.start()
        return s

    def close(self) -> None:
        for s in self.sims.values():
            s.stop()
        self.tournament.stop()
        self.broker.stop()
        self.store.close()


def make_store(dir: Path, teams: int, boards: int) -> Store:
    """A tournament store with ``teams`` teams (Team A, B, ...) and ``boards`` boards."""
    store = Store(dir / "club.sqlite")
    for i in range(teams):
        name = f"Team {chr(65 + i % 26)}{i // 26 or ''}"
        store.add_team(name, [f"p{i}a", f"p{i}b"])
    for i in range(boards):
        store.add_board(f"tafel-{i + 1}")
    return store


def start_broker(dir: Path, store: Store, tls: bool = False) -> Broker:
    """Mosquitto on a free loopback port with the files broker-config writes (``tls``:
    its TLS listener, with the authority and certificate it makes with openssl)."""
    port = free_port()
    files = write_broker_config(
        store, broker_home(dir), port=port, bind="127.0.0.1", host="127.0.0.1", tls=tls or None
    )
    broker = Broker(files, port)
    broker.start()
    return broker


def open_club(dir: Path, teams: int, boards: int, tls: bool = False) -> Club:
    store = make_store(dir, teams, boards)
    broker = start_broker(dir, store, tls)
    port = broker.port
    ca = str(broker.files.conf.parent / "boards" / "ca.crt") if tls else None
    t = Tournament(store, BrokerSettings("127.0.0.1", port, tournament_password(store), tls, ca))
    t.start()
    wait_for(t.connected.is_set, 10, "the tournament's MQTT connection")
    return Club(dir, store, broker, t, store.boards())
