"""Running ``keezbord`` as a subprocess in a sealed environment: its own data folder, no
system configuration, no language from the caller's environment."""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def exe() -> list[str]:
    venv = Path(sys.executable).parent / "keezbord"
    return [str(venv)] if venv.exists() else [sys.executable, "-m", "keezbord"]


def sealed_env(tmp: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KEEZBORD_")}
    env["XDG_DATA_HOME"] = str(tmp / "xdg")
    env["KEEZBORD_SYSTEM_CONFIG"] = str(tmp / "etc-keezbord-board.toml")  # absent
    env.update(extra)
    return env


def run(
    tmp: Path,
    *args: str,
    stdin: str | None = None,
    cwd: Path | None = None,
    timeout: float = 60,
    **env: str,
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*exe(), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        cwd=cwd or tmp,
        env=sealed_env(tmp, **env),
    )


def assert_one_line_error(r: subprocess.CompletedProcess[str], *words: str, code: int = 2) -> None:
    """Exit 2 (``code``: 3 for a journal it cannot use), nothing on standard output, one
    line on standard error naming the problem."""
    assert r.returncode == code, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("keezbord"), lines
    for w in words:
        assert w in lines[0], (w, lines[0])


class Server:
    """A ``keezbord sim``/``run`` process: its output lines as they come, stopped with
    SIGINT (Ctrl-C) at the end. ``tty``: its standard output is a terminal (a pty), as
    when a person starts it: only then does it print the links with their tokens.
    ``sigint_ignored``: started with SIGINT ignored, as a script's background job is."""

    def __init__(
        self,
        tmp: Path,
        *args: str,
        cwd: Path | None = None,
        tty: bool = False,
        sigint_ignored: bool = False,
        **env: str,
    ) -> None:
        out: Any = subprocess.PIPE
        self._master: int | None = None
        if tty:
            self._master, slave = pty.openpty()
            out = slave
        self.proc = subprocess.Popen(
            [*exe(), *args],
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            cwd=cwd or tmp,
            env=sealed_env(tmp, **env),
            preexec_fn=_ignore_sigint if sigint_ignored else None,
        )
        if self._master is not None:
            os.close(out)
            self.stdout: Any = os.fdopen(self._master, "r", encoding="utf-8", errors="replace")
        else:
            self.stdout = self.proc.stdout
        self.lines: list[str] = []

    def wait_for(self, pred: Callable[[str], bool], timeout: float = 30) -> str:
        """The first stdout line (from the start) that satisfies ``pred``."""
        assert self.stdout is not None
        for line in self.lines:
            if pred(line):
                return line
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.stdout.readline().replace("\r", "")
            except OSError:  # the pty's other end closed: the process is gone
                line = ""
            if not line:
                err = self.proc.stderr.read() if self.proc.stderr else ""
                raise AssertionError(f"exited {self.proc.wait()}: {self.lines} {err}")
            self.lines.append(line.rstrip("\n"))
            if pred(self.lines[-1]):
                return self.lines[-1]
        raise AssertionError(f"timed out; output so far: {self.lines}")

    def stop(self, timeout: float = 20) -> tuple[int, str]:
        """Ctrl-C, then its exit status and standard error; killed (-9) after ``timeout``
        seconds."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            _, err = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
        if self._master is not None:
            self.stdout.close()
            self._master = None
        return self.proc.returncode, err

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
