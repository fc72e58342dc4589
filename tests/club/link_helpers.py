"""Two linked boards' broker, as ``keezbord link broker-config`` writes it, started on a
free loopback port, and each board's folder with its board.toml and the authority's
certificate (tests/club, bench/bench_remote.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from club_helpers import Broker, broker_home, free_port

from keezbord.host.club.broker_config import BrokerFiles
from keezbord.host.config import load_config


def link_broker(tmp: Path) -> tuple[Broker, dict[str, Any]]:
    """``keezbord link broker-config`` run as a user would, then its broker started."""
    port = free_port()
    out = broker_home(tmp, "keezlink")
    r = subprocess.run(
        [sys.executable, "-m", "keezbord", "link", "broker-config", "--boards", "oma,thuis",
         "--out", str(out), "--host", "127.0.0.1", "--bind", "127.0.0.1", "--port", str(port)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert f"mosquitto -c {out / 'mosquitto.conf'}" in r.stdout
    boards = {n: out / "boards" / f"{n}.toml" for n in ("oma", "thuis")}
    broker = Broker(BrokerFiles(out / "mosquitto.conf", out / "passwd", out / "acl", boards), port)
    broker.start()
    settings = {}
    for name, f in boards.items():
        toml = tmp / name / "board.toml"
        toml.parent.mkdir()
        toml.write_text(f.read_text())
        (toml.parent / "ca.crt").write_bytes((out / "boards" / "ca.crt").read_bytes())
        cfg = load_config(toml)
        assert cfg.link is not None
        settings[name] = cfg.link
    return broker, settings


class Board:
    """A ``keezbord run`` process in its own folder: its page's address from the banner,
    its state read as a spectator would (``/api/state``)."""

    def __init__(self, folder: Path, *args: str) -> None:
        import os

        self.folder, self.args = folder, args
        env = {k: v for k, v in os.environ.items() if not k.startswith("KEEZBORD_")}
        env["XDG_DATA_HOME"] = str(folder / "xdg")
        env["KEEZBORD_SYSTEM_CONFIG"] = str(folder / "none.toml")
        self.env = env
        self.lines: list[str] = []
        self.url = ""
        self.proc: subprocess.Popen[str] | None = None
        self.start()

    def start(self) -> None:
        import threading

        self.proc = subprocess.Popen(
            [sys.executable, "-m", "keezbord", "run", "--host", "127.0.0.1", "--port", "0",
             *self.args],
            cwd=self.folder, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True,
        )  # fmt: skip
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))
            if line.startswith("keezbord run: http://"):
                self.url = line.split()[2].rstrip("/")
                break
        else:
            raise AssertionError(f"no banner: {self.lines}")
        out = self.proc.stdout

        def drain() -> None:
            for line in out:
                self.lines.append(line.rstrip("\n"))

        threading.Thread(target=drain, daemon=True).start()

    def state(self) -> dict[str, Any]:
        import json
        import urllib.request

        with urllib.request.urlopen(self.url + "/api/state", timeout=10) as r:
            got: dict[str, Any] = json.load(r)
            return got

    def kill(self) -> None:
        """Switched off: no goodbye, nothing flushed but what the journal already has."""
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(10)

    def stop(self) -> None:
        import signal

        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
