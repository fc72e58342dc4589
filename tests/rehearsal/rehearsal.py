"""The rehearsal: docs/install-pi.md typed into a fresh Bookworm machine (machine.py)
with a stand-in board attached (standin_board.py), step by step as guide.py plans it.

Each step's command, exit status, output and time are kept in ``transcript``; the first
command that fails stops the run (what follows depends on it).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from guide import SETUP, Step, plan
from machine import PROXY_PORT, Done, Machine
from root import downloads, fresh_root, keep_archives, run_archives

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
PI5_MODEL = "Raspberry Pi 5 Model B Rev 1.0"
INSIDE_RUN = "/rehearsal"  # the run folder, as the machine sees it
# Raspberry Pi OS Lite (Bookworm, 64-bit) as Imager writes it, after its first boot.
CONFIG_TXT = """# For more options and information see
# http://rptl.io/configtxt
# Some settings may impact device functionality. See link above for details

# Uncomment some or all of these to enable the optional hardware interfaces
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on

# Enable audio (loads snd_bcm2835)
dtparam=audio=on

# Automatically load overlays for detected cameras
camera_auto_detect=1

# Automatically load overlays for detected DSI displays
display_auto_detect=1

# Automatically load initramfs files, if found
auto_initramfs=1

# Enable DRM VC4 V3D driver
dtoverlay=vc4-kms-v3d
max_framebuffers=2

# Don't have the firmware create an initial video= setting in cmdline.txt.
# Use the kernel's default instead.
disable_fw_kms_setup=1

# Run in 64-bit mode
arm_64bit=1

# Disable compensation for displays with overscan
disable_overscan=1

# Run as fast as firmware / CPU allows
arm_boost=1

[cm4]
# Enable host mode on the 2711 built-in XHCI USB controller.
# This line should be removed if the legacy DWC2 controller is required
# (e.g. for USB device mode) or if USB support is not required.
otg_mode=1

[all]
"""
CMDLINE_TXT = (
    "console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 "
    "fsck.repair=yes rootwait quiet\n"
)
PI_GROUPS = (
    "adm,dialout,cdrom,sudo,audio,video,plugdev,games,users,input,render,netdev,gpio,spi,i2c"
)


@dataclass
class Ran:
    step: Step
    done: Done
    note: str = ""


@dataclass
class Rehearsal:
    work: Path  # this run's folder: the root, the run folder, logs
    transcript: list[Ran] = field(default_factory=list)
    machine: Machine | None = None
    closed: set[int] = field(default_factory=set)  # pawns on the board: switch bits
    pico_plugged: bool = False
    boot_seconds: list[float] = field(default_factory=list)

    @property
    def run(self) -> Path:
        return self.work / "run"

    # -- the machine ----------------------------------------------------------------------

    def prepare(self) -> None:
        """A fresh root with the SD card's contents (guide.SETUP says what and why)."""
        self.run.mkdir(parents=True, exist_ok=True)
        (self.run / "pico-flash").mkdir(exist_ok=True)
        root = fresh_root(self.work / "root")
        dt = self.work / "devicetree"
        dt.mkdir()
        (dt / "model").write_bytes(PI5_MODEL.encode() + b"\0")
        boot = root / "boot/firmware"
        boot.mkdir(parents=True)
        (boot / "config.txt").write_text(CONFIG_TXT)
        (boot / "cmdline.txt").write_text(CMDLINE_TXT)
        (root / "etc/hostname").write_text("keezbord\n")
        (root / "etc/hosts").write_text("127.0.0.1\tlocalhost\n127.0.1.1\tkeezbord\n")
        proxy = f"http://127.0.0.1:{PROXY_PORT}"
        # `apt install` deletes the packages it fetched (Keep-Downloaded-Packages is off
        # for apt, not apt-get): kept, the cache's archive folder spares the next run them.
        (root / "etc/apt/apt.conf.d/80rehearsal-proxy").write_text(
            f'Acquire::https::Proxy "{proxy}";\nAcquire::http::Proxy "{proxy}";\n'
            'Binary::apt::APT::Keep-Downloaded-Packages "true";\n'
        )
        # dpkg syncs every file it unpacks: against a power cut, which a throwaway root
        # never sees, and slow on a shared disk (the page's apt install is most of a run).
        (root / "etc/dpkg/dpkg.cfg.d/80rehearsal-unsafe-io").write_text("force-unsafe-io\n")
        bundle = "/etc/ssl/certs/ca-certificates.crt"
        (root / "etc/pip.conf").write_text(f"[global]\nproxy = {proxy}\ncert = {bundle}\n")

        pip = downloads()[1]
        apt = run_archives(self.work / "apt-archives")
        binds = [
            f"ro:{REPO}",
            f"{self.run}:{INSIDE_RUN}",
            f"{apt}:/var/cache/apt/archives",
            f"{pip}:/root/.cache/pip",
        ]
        base = Path(sys.base_prefix)
        if not str(base).startswith("/usr"):
            binds.append(f"ro:{base}")  # the checkout's venv runs on this interpreter
        self.machine = Machine(root, dt, binds, self.work / "machine.log")

    @property
    def m(self) -> Machine:
        assert self.machine is not None
        return self.machine

    def power_on(self) -> None:
        self.boot_seconds.append(self.m.boot())
        if self.m.boots == 1:
            self._first_boot()
        self.start_board()

    def _first_boot(self) -> None:
        """What Imager's settings do at the first boot: the user pi with sudo."""
        # Pi OS's packages make gpio, spi, i2c (and a desktop's groups); minbase has not.
        script = (
            "set -e; for g in $(echo " + PI_GROUPS + " | tr , ' '); do "
            "getent group $g >/dev/null || groupadd --system $g; done; "
            f"useradd --create-home --uid 1000 --shell /bin/bash --groups {PI_GROUPS} pi; "
            "echo 'pi ALL=(ALL) NOPASSWD: ALL' > /etc/sudoers.d/010_pi-nopasswd; "
            "chmod 0440 /etc/sudoers.d/010_pi-nopasswd"
        )
        done = self.m.root_sh(script)
        assert done.rc == 0, done.out

    def reboot(self) -> None:
        self.boot_seconds.append(self.m.reboot())
        self.start_board()

    def close(self) -> None:
        if self.machine is not None:
            self.machine.shutdown()
        archives = self.work / "apt-archives"
        if archives.exists():
            keep_archives(archives)
            shutil.rmtree(archives, ignore_errors=True)

    # -- the board ------------------------------------------------------------------------

    def start_board(self) -> None:
        ready = self.run / "board.ready"
        ready.unlink(missing_ok=True)
        venv_python = REPO / ".venv/bin/python"
        argv = [
            str(venv_python), str(HERE / "standin_board.py"), "--run", INSIDE_RUN,
            "--flash", f"{INSIDE_RUN}/pico-flash", "--firmware-src", str(REPO / "firmware"),
            "--micropython", str(REPO / ".venv/bin/micropython"),
            "--closed", ",".join(map(str, sorted(self.closed))),
        ] + (["--plugged"] if self.pico_plugged else [])  # fmt: skip
        done = self.m.start_unit("rehearsal-board", argv, f"{INSIDE_RUN}/board.log")
        assert done.rc == 0, done.out
        end = time.monotonic() + 30
        while not ready.exists():
            if time.monotonic() > end:
                log = (self.run / "board.log").read_text(errors="replace")[-3000:]
                raise RuntimeError(f"the stand-in board did not start:\n{log}")
            time.sleep(0.05)

    def ask(self, **req: Any) -> dict[str, Any]:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(10)
        try:
            s.connect(str(self.run / "board.sock"))
            s.sendall(json.dumps(req).encode() + b"\n")
            reply: dict[str, Any] = json.loads(s.makefile("rb").readline())
        finally:
            s.close()
        assert "error" not in reply, reply
        return reply

    def plug_pico(self) -> None:
        self.pico_plugged = True
        self.ask(op="plug")

    def unplug_pico(self) -> None:
        self.pico_plugged = False
        self.ask(op="unplug")

    def move(self, changes: list[tuple[int, bool]]) -> None:
        for bit, c in changes:
            (self.closed.add if c else self.closed.discard)(bit)
        self.ask(op="switches", changes=changes)

    # -- the guide ------------------------------------------------------------------------

    def run_guide(self, until_section: str | None = None) -> None:
        """Every step of the page in order (up to the section named), stopping at the
        first failure."""
        for step in plan():
            if until_section is not None and step.command.section.startswith(until_section):
                return
            if any(r.step == step for r in self.transcript):
                continue
            ran = self.run_step(step)
            self.transcript.append(ran)
            if ran.done.rc != 0:
                raise StepFailed(ran)

    def run_step(self, step: Step) -> Ran:
        rule = step.rule
        if rule.before and rule.how == "pi":
            self.stand_in(rule.before, step)
        if rule.how == "pi":
            done = self.m.sh(step.run_text)
            if rule.before == "deck":
                self.ask(op="lift")
            return Ran(step, done)
        if rule.how == "computer":
            note = self.stand_in(rule.before, step) if rule.before else ""
            return Ran(step, self.on_computer(step.run_text), note)
        if rule.how == "other-board":
            return Ran(step, Done(0, "", 0.0), f"not run: {rule.why}")
        began = time.monotonic()
        note = self.stand_in(rule.action, step)
        return Ran(step, Done(0, note, time.monotonic() - began), f"stand-in: {rule.action}")

    def on_computer(self, command: str) -> Done:
        """On "your computer": in a copy of the checkout, this checkout's Python first."""
        src = self.work / "computer" / "keezbord"
        if not src.exists():
            for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"):
                src.mkdir(parents=True, exist_ok=True)
                shutil.copy2(REPO / name, src / name)
            for name in ("keezbord", "firmware"):
                shutil.copytree(
                    REPO / name, src / name, ignore=shutil.ignore_patterns("__pycache__")
                )
        env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
        began = time.monotonic()
        done = subprocess.run(
            ["bash", "-e", "-c", command], cwd=src, env=env, capture_output=True, text=True,
            timeout=600, check=False,
        )  # fmt: skip
        return Done(done.returncode, done.stdout + done.stderr, time.monotonic() - began)

    def stand_in(self, action: str, step: Step) -> str:
        from standins import ACTIONS

        return ACTIONS[action](self, step)


class StepFailed(AssertionError):
    def __init__(self, ran: Ran) -> None:
        self.ran = ran
        super().__init__(
            f"docs/install-pi.md ({ran.step.command.section}): `{ran.step.command.text}` "
            f"exited {ran.done.rc}:\n{ran.done.out[-3000:]}"
        )


__all__ = ["SETUP", "Ran", "Rehearsal", "StepFailed"]
