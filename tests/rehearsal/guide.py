"""docs/install-pi.md as the rehearsal runs it: the page's shell blocks, in order, each
command either run as written (by the user ``pi`` over "SSH", ``sudo`` where the page
says; or on "your computer", the checkout) or replaced by a declared stand-in for what
only a Pi, its SD card or the builder's own computer has, each with its reason.

``RULES`` is the one place where every stand-in is named. A command of the page that no
rule matches is an error (tests/rehearsal/test_guide_plan.py), so the page cannot gain a
command the rehearsal neither runs nor declares.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

DOC = Path(__file__).resolve().parents[2] / "docs" / "install-pi.md"

# pi: run as written by the user pi, in the machine (sudo where the page writes it).
# computer: run as written on "your computer", in a copy of the checkout.
# stand-in: replaced by the named action (see ``why``).
# other-board: for another Pi or wiring than the rehearsal's board (a Pi 5 with a Pico).
How = Literal["pi", "computer", "stand-in", "other-board"]


@dataclass(frozen=True)
class Rule:
    pattern: str  # a regular expression the whole command matches
    how: How
    why: str = ""
    action: str = ""  # stand-in: the rehearsal's action (Rehearsal.stand_in)
    # pi: a rewrite (regex, replacement) for what this machine cannot install, with why
    rewrite: tuple[str, str] | None = None
    before: str = ""  # pi: an action of the rehearsal's parts first (the cards presented)

    def matches(self, command: str) -> bool:
        return re.fullmatch(self.pattern, command) is not None


@dataclass(frozen=True)
class Command:
    text: str
    section: str  # the page's "## ..." heading above it
    block: int  # which shell block of the page (0-based)
    index: int = 0  # which command of the page (0-based): the same text may come twice


KZ = r"sudo /opt/keezbord/bin/keezbord"
RULES: tuple[Rule, ...] = (
    # -- 1. the SD card
    Rule(
        r"ssh pi@keezbord\.local",
        "stand-in",
        "your computer's SSH session: the SD card is the cached Bookworm root with what "
        "Raspberry Pi Imager and the first boot put there (the user pi with sudo, the host "
        "name, /boot/firmware/config.txt and cmdline.txt as Pi OS Lite ships them); every "
        "later command is typed as pi in a login environment",
        "session",
    ),
    # -- 2. the system
    Rule(r"sudo apt update", "pi"),
    Rule(r"sudo apt full-upgrade -y", "pi"),
    Rule(
        r"sudo apt install -y python3-venv python3-dev build-essential swig liblgpio-dev",
        "pi",
        "liblgpio-dev is in Raspberry Pi's archive only (not Debian's); the rest installs",
        rewrite=(r" liblgpio-dev", ""),
    ),
    # -- 3. the wheel
    Rule(
        r"python3 -m pip wheel --no-deps -w dist \.",
        "computer",
        "a new release for the upgrade (step 11): before the second build the rehearsal "
        "raises the version in its copy of the checkout, so the upgrade is a real one",
        before="new-release",
    ),
    Rule(
        r'scp ("\$\(ls -t dist/keezbord-\*\.whl \| head -n 1\)"|RPI_PICO-\*\.uf2) '
        r"pi@keezbord\.local:",
        "stand-in",
        "scp from your computer: the file is copied into /home/pi (owner pi); the UF2 is "
        "not needed by the stand-in Pico (see the BOOTSEL lines)",
        "copy-to-pi",
    ),
    Rule(r"sudo python3 -m venv /opt/keezbord", "pi"),
    Rule(r"sudo /opt/keezbord/bin/pip install --upgrade pip", "pi"),
    Rule(
        r'sudo /opt/keezbord/bin/pip install (--upgrade )?"\$\(ls -t /home/pi/keezbord-\*\.whl '
        r'\| head -n 1\)\[web,pico,pi5\]"',
        "pi",
        "pi5's packages carry aarch64 markers, so on this machine it installs nothing; "
        "its part that a Pi with a Pico uses everywhere, appliance (mDNS), stands in",
        rewrite=(r"\[web,pico,pi5\]", "[web,pico,appliance]"),
    ),
    # -- 4. config.txt
    Rule(
        r"sudo raspi-config nonint (do_serial_cons 1|do_serial_hw 0)",
        "stand-in",
        "raspi-config is Raspberry Pi OS's: the rehearsal does to cmdline.txt and "
        "config.txt what its nonint functions do (console=serial0 out, enable_uart=1)",
        "raspi-config",
    ),
    Rule(r"echo 'dtparam=uart0=on' \| sudo tee -a /boot/firmware/config\.txt", "pi"),
    Rule(
        r"echo '(dtoverlay=disable-bt|dtoverlay=spi1-1cs|core_freq_min=500)' \| "
        r"sudo tee -a /boot/firmware/config\.txt"
        r"|sudo systemctl disable hciuart"
        r"|sudo raspi-config nonint do_spi 0",
        "other-board",
        "a Pi 4 or Pi-direct line: the rehearsal's board is a Pi 5 with a Pico",
    ),
    Rule(
        r"sudo reboot",
        "stand-in",
        "a restart: the machine is shut down by its systemd and booted again (nspawn)",
        "reboot",
    ),
    # -- 5. the service
    Rule(KZ + r" service (install|status|token|uninstall)", "pi"),
    Rule(
        r"sudo nano /etc/keezbord/board\.toml",
        "stand-in",
        "an editor session: the rehearsal's board is the example's (4 seats, a Pico on "
        "/dev/ttyACM0, a PN532 on the Pi 5's UART), so the file is saved as it is",
        "edit-config",
    ),
    Rule(r"sudo systemctl (stop|start|restart|daemon-reload)( keezbord)?", "pi"),
    # -- 6. the Pico
    Rule(r"sudo mkdir -p /mnt/(pico|state)", "pi"),
    Rule(
        r"sudo mount -L RPI-RP2 /mnt/pico",
        "stand-in",
        "BOOTSEL and the boot ROM's USB drive do not exist in a container: the stand-in "
        "Pico is plugged in as MicroPython's UF2 leaves it, at its REPL with an empty flash",
        "bootsel",
    ),
    Rule(
        r"sudo cp /home/pi/RPI_PICO-\*\.uf2 /mnt/pico/|sudo umount /mnt/pico",
        "stand-in",
        "the rest of the UF2 copy (see the mount line)",
        "none",
    ),
    Rule(KZ + r" firmware install --config /etc/keezbord/board\.toml", "pi"),
    # -- 7. the cards
    Rule(
        r"sudo -u keezbord /opt/keezbord/bin/keezbord cards enroll --config "
        r"/etc/keezbord/board\.toml",
        "pi",
        "the reader's antenna: a fake PN532 on /dev/ttyAMA0 presents the deck's stickers "
        "one after the other, round and round (a card already enrolled is skipped), from "
        "before the command until it ends",
        before="deck",
    ),
    # -- 8., 11. the check
    Rule(KZ + r" doctor", "pi"),
    # -- 9. the kiosk
    Rule(
        r"sudo apt install -y raspberrypi-ui-mods chromium-browser"
        r"|sudo raspi-config nonint do_boot_behaviour B4"
        r"|" + KZ + r" service install --kiosk pi",
        "stand-in",
        "the optional screen: the desktop packages are Raspberry Pi's; the kiosk unit is "
        "checked by tests/appliance/test_service.py (systemd-analyze verify)",
        "none",
    ),
    # -- 9. the board's own voice (optional, docs/voice.md)
    Rule(r"sudo apt install -y espeak-ng alsa-utils", "pi"),
    Rule(r"sudo usermod -aG audio keezbord", "pi"),
    Rule(
        r"aplay -l",
        "stand-in",
        "a container has no sound card (aplay -l says none, exit 1); the rehearsal's "
        "board.toml keeps the voice off, so doctor asks nothing of a speaker "
        "(tests/appliance/test_doctor_voice.py checks the cards and the group)",
        "none",
    ),
    # -- 10. the USB sticks
    Rule(
        r"sudo mkfs\.ext4 -F -L KEEZBORD /dev/sda1",
        "stand-in",
        "a USB stick: a container has no block devices and no udev (no LABEL= links); the "
        "stick is a folder, mounted by bind mounts in its place",
        "stick",
    ),
    Rule(
        r"sudo mount /dev/sda1 /mnt/state",
        "stand-in",
        "the stick mounted: a bind mount of its folder",
        "mount-stick",
    ),
    Rule(
        r"echo 'LABEL=(KEEZBORD|BACKUP) .*' \| sudo tee -a /etc/fstab",
        "stand-in",
        "the stick's fstab line: a bind line from its folder (the BACKUP stick's folder is "
        "the keezbord user's, as vfat's uid=keezbord makes it); same mount point, nofail",
        "fstab",
    ),
    Rule(r"sudo cp -a /var/lib/keezbord/\. /mnt/state/", "pi"),
    Rule(r"sudo umount /mnt/state", "pi"),
    Rule(r"sudo mount (/var/lib/keezbord|/media/keezbord-backup)", "pi"),
    Rule(r"sudo mkdir -p /media/keezbord-backup", "pi"),
    Rule(r"echo '30 3 \* \* \* keezbord .*' \| sudo tee /etc/cron\.d/keezbord-export", "pi"),
    Rule(
        r"sudo -u keezbord /opt/keezbord/bin/keezbord journal export --all --config "
        r"/etc/keezbord/board\.toml --out /media/keezbord-backup/games",
        "pi",
    ),
    Rule(
        r"sudo raspi-config nonint do_overlayfs [01]",
        "stand-in",
        "Raspberry Pi OS's overlay needs its initramfs (overlayroot), which a container "
        "does not boot: left out; the restart that follows is rehearsed",
        "none",
    ),
)


# What stands in for the Pi and its surroundings, whatever the commands (machine.py,
# rehearsal.py, standin_board.py).
SETUP: tuple[tuple[str, str], ...] = (
    (
        "the Pi",
        "a Debian Bookworm root of this machine's architecture (Raspberry Pi OS Lite is "
        "Bookworm for arm64), booted with systemd under systemd-nspawn; its device tree "
        "model says Raspberry Pi 5 (--tmpfs=/sys/firmware, a bind onto "
        "/sys/firmware/devicetree/base, which /proc/device-tree points at on a Pi)",
    ),
    (
        "the SD card",
        "/boot/firmware/config.txt and cmdline.txt as Pi OS Lite ships them; the user pi "
        "(uid 1000, Pi OS's groups, sudo without a password) and the host name keezbord, "
        "as Imager's settings make them at the first boot; dpkg does not sync what it "
        "unpacks (force-unsafe-io: the root is thrown away, no power cut to survive)",
    ),
    (
        "the network",
        "the machine has only loopback (its port 8000 and mDNS stay off this machine's "
        "network); apt and pip reach deb.debian.org and PyPI through a CONNECT proxy on "
        "its 127.0.0.1:3128 (apt.conf.d and pip.conf), apt over https; the certificate "
        "authorities this machine trusts beyond Debian's (a TLS-intercepting egress) are "
        "added to its store, and pip told to use that store; apt keeps what it fetched in "
        "the cache's archive folder (root.py) for the next run",
    ),
    (
        "the Pico",
        "/dev/ttyACM0: a pty (root:dialout 0660, as udev makes it) behind which MicroPython's "
        "REPL (mpremote's raw REPL, the code run by the MicroPython unix port on a flash "
        "folder) or the firmware installed on that flash, run by the unix port with the "
        "unix harness (firmware/unix_main.py, fakes.py) in place of main.py's PIO and SPI",
    ),
    (
        "the reed switches",
        "the pawns on the board: TEST_SWITCHES frames into the firmware's fake 74HC165 "
        "chain, slotted between the host's frames (which pass through renumbered)",
    ),
    (
        "the card reader",
        "/dev/ttyAMA0 (the Pi 5's UART0): a pty (root:dialout 0660) behind which "
        "rfid_fakes.FakePN532 answers in HSU mode",
    ),
)


def guide_commands(text: str) -> list[Command]:
    """Every command line of the page's ```sh blocks, in order (comments dropped, a line
    ending in a backslash joined to the next)."""
    out: list[Command] = []
    section = ""
    block = -1
    in_sh = False
    pending = ""
    for line in text.splitlines():
        if not in_sh:
            if line.startswith("## "):
                section = line[3:].strip()
            if line.strip() == "```sh":
                in_sh, block = True, block + 1
            continue
        if line.strip() == "```":
            in_sh = False
            continue
        cmd = pending + line.strip()
        if cmd.endswith("\\"):
            pending = cmd[:-1].rstrip() + " "
            continue
        pending = ""
        if cmd and not cmd.startswith("#"):
            out.append(Command(cmd, section, block, len(out)))
    return out


@dataclass(frozen=True)
class Step:
    command: Command
    rule: Rule

    @property
    def run_text(self) -> str:
        """What the rehearsal types: the page's text, or its declared rewrite."""
        if self.rule.rewrite is None:
            return self.command.text
        return re.sub(*self.rule.rewrite, self.command.text)


class UndeclaredCommand(ValueError):
    pass


def plan(text: str | None = None) -> list[Step]:
    """The page's commands, each with the one rule that says what the rehearsal does."""
    page = DOC.read_text(encoding="utf-8") if text is None else text
    steps = []
    for cmd in guide_commands(page):
        rules = [r for r in RULES if r.matches(cmd.text)]
        if len(rules) != 1:
            what = "no rule" if not rules else f"{len(rules)} rules"
            raise UndeclaredCommand(
                f"docs/install-pi.md ({cmd.section}): {cmd.text!r}: {what} in "
                "tests/rehearsal/guide.py says how the rehearsal runs it"
            )
        steps.append(Step(cmd, rules[0]))
    return steps


def stand_ins() -> list[Rule]:
    """The declared stand-ins and other-board lines, each with its reason."""
    return [r for r in RULES if r.how in ("stand-in", "other-board") or r.rewrite or r.before]
