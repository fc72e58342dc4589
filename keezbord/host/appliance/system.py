"""What ``service`` and ``doctor`` (and doctor's probes) both ask of the system: to run a
command (a ``Runner``: ``system_runner`` on the Pi, a recorder under a test's root
prefix) and a user's uid. Below them both, so neither imports the other for it."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence

from keezbord.host.appliance.paths import Layout, colon_rows

# A system command -> (exit status, what it printed).
Runner = Callable[[Sequence[str]], tuple[int, str]]


def system_runner(argv: Sequence[str]) -> tuple[int, str]:
    """Run a command on this machine (the Pi)."""
    try:
        done = subprocess.run(list(argv), capture_output=True, text=True, check=False)
    except OSError as e:
        return 127, f"{argv[0]}: {e.strerror}"
    return done.returncode, (done.stdout + done.stderr).strip()


def user_id(layout: Layout, user: str) -> int | None:
    """The user's uid in /etc/passwd, or None: no such user."""
    rows = colon_rows(layout.at("/etc/passwd"), 3)
    return next((int(r[2]) for r in rows if r[0] == user and r[2].isdigit()), None)
