"""The rehearsal tier: it needs root, systemd-nspawn and debootstrap (./dev.sh test
installs both), and skips itself, saying why, only where this machine cannot boot a
container."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def cannot_rehearse() -> str | None:
    """Why this machine cannot boot the rehearsal's machine, or None."""
    if sys.platform != "linux":
        return "the rehearsal boots a Linux container (systemd-nspawn)"
    if os.geteuid() != 0:
        return "systemd-nspawn and debootstrap need root (run the suite as root, as CI does)"
    for tool in ("systemd-nspawn", "debootstrap", "nsenter", "setpriv"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (./dev.sh test installs it)"
    return None
