"""The systemd units: ``keezbord.service`` (``keezbord run`` at boot) and the optional
kiosk (a full-screen browser on an attached display). Text only; ``service.py`` writes it.

Hardening: the service runs as its own user with no capabilities, a read-only system and
no home folders, and may write only its state folder. It keeps the real ``/dev``
(no ``PrivateDevices``, no ``DevicePolicy``): the GPIO chips, ``/dev/spidev*``, the UART
and the Pico's ``/dev/ttyACM*`` are reached through the gpio, spi and dialout groups,
and their device-cgroup names differ between kernels and Pi generations, so a device
allow-list could lock the board out after an upgrade.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

from keezbord.host.appliance.paths import DEFAULT_PORT, SERVICE, USER, Layout
from keezbord.host.errors import JOURNAL_EXIT


def keezbord_command() -> list[str]:
    """How systemd starts this keezbord: the console script beside this interpreter (the
    virtual environment's), else the interpreter with the module."""
    script = Path(sys.executable).parent / "keezbord"
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-m", "keezbord.host.cli"]


def sudo_keezbord(args: str) -> str:
    """A fix line's command: sudo with this keezbord's full path (sudo's secure_path does
    not hold the venv's bin, /opt/keezbord/bin)."""
    return f"sudo {shlex.join(keezbord_command())} {args}"


def service_unit(
    layout: Layout,
    command: Sequence[str],
    *,
    groups: Sequence[str],
    port: int = DEFAULT_PORT,
) -> str:
    """The text of ``keezbord.service``; ``groups``: the device groups that exist.

    No ordering on the serial ports' device units: a hot-plug port (the Pico's
    ``/dev/ttyACM0``), or a UART that config.txt does not enable, may never appear, and a
    unit ordered after it waits systemd's 90 s device timeout at every boot and at
    ``enable --now``. The link and the card reader find their ports when they appear."""
    exec_start = shlex.join(
        [
            *command,
            "run",
            "--config",
            str(layout.config),
            "--state-dir",
            str(layout.state),
            "--port",
            str(port),
        ]
    )
    lines = [
        "# Written by `keezbord service install`; `keezbord service uninstall` removes it.",
        "# keezbord's docs/install-pi.md explains each line; `keezbord doctor` checks the Pi.",
        "[Unit]",
        "Description=keezbord: the Keezen board's referee and web page",
        "Wants=network-online.target",
        "After=network-online.target",
    ]
    lines += [
        "StartLimitIntervalSec=300",
        "StartLimitBurst=20",
        "",
        "[Service]",
        "Type=simple",
        f"User={USER}",
        f"Group={USER}",
    ]
    if groups:
        lines.append(f"SupplementaryGroups={' '.join(groups)}")
    lines += [
        f"ExecStart={exec_start}",
        "Restart=on-failure",
        "RestartSec=3",
        # A journal it cannot use (not writable, not a journal, a game that does not
        # read): starting again cannot mend it. The service stays stopped at once, with
        # its one line in the log and doctor's journal check saying the fix.
        f"RestartPreventExitStatus={JOURNAL_EXIT}",
        "Environment=PYTHONUNBUFFERED=1",
        "StandardOutput=journal",
        "StandardError=journal",
        "SyslogIdentifier=keezbord",
        f"WorkingDirectory={layout.state}",
    ]
    if layout.state == Path("/var/lib/keezbord"):
        # systemd makes the folder and hands it to the service's user at every start.
        lines += ["StateDirectory=keezbord", "StateDirectoryMode=0700"]
    lines += [
        # Hardening that leaves the device nodes alone (see the module's docstring).
        "NoNewPrivileges=yes",
        "CapabilityBoundingSet=",
        "AmbientCapabilities=",
        "ProtectSystem=strict",
        f"ReadWritePaths={layout.state}",
        "ProtectHome=read-only" if _in_home(command) else "ProtectHome=yes",
        "PrivateTmp=yes",
        "ProtectKernelModules=yes",
        "ProtectKernelLogs=yes",
        "ProtectControlGroups=yes",
        "ProtectClock=yes",
        "ProtectHostname=yes",
        "RestrictNamespaces=yes",
        "RestrictRealtime=yes",
        "RestrictSUIDSGID=yes",
        "LockPersonality=yes",
        "SystemCallArchitectures=native",
        # AF_NETLINK: the mDNS announcer lists the network interfaces.
        "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK",
        "UMask=0077",
        # Room for the page's connections (web/serving.py NOFILE, its caps below it).
        "LimitNOFILE=8192",
        "",
        "[Install]",
        "WantedBy=multi-user.target",
        "",
    ]
    return "\n".join(lines)


def kiosk_unit(
    url: str, *, user: str = "pi", uid: int = 1000, browser: str = "/usr/bin/chromium-browser"
) -> str:
    """The optional kiosk: the page full-screen on the Pi's own display (docs/install-pi.md).
    It joins the desktop user's graphical session (Bookworm's Wayland compositor, or X);
    ``url`` is the local address, whose QR corner then also shows the players' link (only
    the Pi itself is given that one). Until the session is up the browser fails and is
    started again."""
    cmd = shlex.join(
        [browser, "--kiosk", "--noerrdialogs", "--disable-infobars", "--incognito",
         "--ozone-platform-hint=auto", url]
    )  # fmt: skip
    return "\n".join(
        [
            "# Written by `keezbord service install --kiosk`; optional, needs a desktop session.",
            "[Unit]",
            "Description=keezbord kiosk: the board's page on the attached screen",
            f"After=graphical.target {SERVICE}",
            f"Wants={SERVICE}",
            "",
            "[Service]",
            f"User={user}",
            f"Environment=XDG_RUNTIME_DIR=/run/user/{uid} WAYLAND_DISPLAY=wayland-1 DISPLAY=:0",
            f"ExecStart={cmd}",
            "Restart=on-failure",
            "RestartSec=5",
            "",
            "[Install]",
            "WantedBy=graphical.target",
            "",
        ]
    )


def _in_home(command: Sequence[str]) -> bool:
    return any(part.startswith(("/home/", "/root/")) for part in command)
