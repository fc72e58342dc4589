"""What the rehearsal does in place of a command it cannot run as written: the actions
that guide.RULES names (each rule there says why)."""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from guide import Step

if TYPE_CHECKING:
    from rehearsal import Rehearsal

STICKS = {"KEEZBORD": "/srv/usb-stick-KEEZBORD", "BACKUP": "/srv/usb-stick-BACKUP"}
DECK = [f"04{k:02X}A1B2C3D4{k:02X}" for k in range(52)]  # 7-byte NTAG UIDs


def session(r: Rehearsal, step: Step) -> str:
    return "commands from here on are typed as pi"


def copy_to_pi(r: Rehearsal, step: Step) -> str:
    """scp: the file the command names (its $(...) run on "your computer") into
    /home/pi, owner pi, modification time now as scp gives it."""
    if "RPI_PICO" in step.command.text:
        return "the stand-in Pico needs no UF2"
    src = r.on_computer("ls -t dist/keezbord-*.whl | head -n 1").out.strip()
    wheel = r.work / "computer/keezbord" / src
    assert src and wheel.is_file(), f"no wheel built on your computer: {src!r}"
    dest = r.m.path("/home/pi") / wheel.name
    shutil.copyfile(wheel, dest)
    dest.chmod(0o644)
    done = r.m.root_sh(f"chown pi:pi /home/pi/{wheel.name}")
    assert done.rc == 0, done.out
    return wheel.name


def new_release(r: Rehearsal, step: Step) -> str:
    """Before a second build: the next release, its version raised in the copy."""
    src = r.work / "computer/keezbord"
    if not list((src / "dist").glob("keezbord-*.whl")):
        return "the first release"
    pyproject = src / "pyproject.toml"
    text = pyproject.read_text()
    old = re.search(r'^version = "([^"]+)"', text, flags=re.M)
    assert old is not None
    new = old.group(1) + ".post1"
    pyproject.write_text(text.replace(old.group(0), f'version = "{new}"', 1))
    time.sleep(1.1)  # a newer modification time than the old wheel's, for ls -t
    return f"version {old.group(1)} -> {new}"


def raspi_config(r: Rehearsal, step: Step) -> str:
    """What raspi-config's nonint functions do to the boot files (its do_serial_cons 1:
    the serial console out of cmdline.txt; do_serial_hw 0: enable_uart=1)."""
    boot = r.m.path("/boot/firmware")
    what = step.command.text.split("nonint ", 1)[1]
    if what == "do_serial_cons 1":
        cmdline = boot / "cmdline.txt"
        text = re.sub(r"console=(serial0|ttyAMA0|ttyS0),[0-9]+ ", "", cmdline.read_text())
        cmdline.write_text(text)
        return text.strip()
    if what == "do_serial_hw 0":
        config = boot / "config.txt"
        text = config.read_text()
        if re.search(r"^enable_uart=", text, re.M):
            text = re.sub(r"^enable_uart=.*$", "enable_uart=1", text, flags=re.M)
        else:
            text += "enable_uart=1\n"
        config.write_text(text)
        return "enable_uart=1"
    raise AssertionError(f"raspi-config {what}: no stand-in")


def reboot(r: Rehearsal, step: Step) -> str:
    r.reboot()
    return f"booted again in {r.boot_seconds[-1]:.1f} s"


def edit_config(r: Rehearsal, step: Step) -> str:
    assert r.m.path("/etc/keezbord/board.toml").is_file()
    return "saved unchanged"


def bootsel(r: Rehearsal, step: Step) -> str:
    r.plug_pico()
    return "the Pico is at MicroPython's REPL"


def nothing(r: Rehearsal, step: Step) -> str:
    return ""


def stick(r: Rehearsal, step: Step) -> str:
    folder = r.m.path(STICKS["KEEZBORD"])
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return f"the stick is {STICKS['KEEZBORD']}"


def mount_stick(r: Rehearsal, step: Step) -> str:
    done = r.m.root_sh(f"mount --bind {STICKS['KEEZBORD']} /mnt/state")
    assert done.rc == 0, done.out
    return ""


def fstab(r: Rehearsal, step: Step) -> str:
    label = "KEEZBORD" if "LABEL=KEEZBORD" in step.command.text else "BACKUP"
    mount_point = step.command.text.split()[2]
    folder = STICKS[label]
    script = f"mkdir -p {folder}"
    if label == "BACKUP":
        script += f" && chown keezbord:keezbord {folder}"  # vfat's uid=keezbord
    script += f" && echo '{folder} {mount_point} none bind,nofail 0 0' >> /etc/fstab"
    done = r.m.root_sh(script)
    assert done.rc == 0, done.out
    return f"{folder} {mount_point} none bind,nofail"


def deck(r: Rehearsal, step: Step) -> str:
    r.ask(op="deck", uids=DECK, hold_ms=250)
    return f"{len(DECK)} stickers presented"


ACTIONS: dict[str, Callable[[Rehearsal, Step], str]] = {
    "session": session,
    "copy-to-pi": copy_to_pi,
    "raspi-config": raspi_config,
    "reboot": reboot,
    "edit-config": edit_config,
    "bootsel": bootsel,
    "none": nothing,
    "stick": stick,
    "mount-stick": mount_stick,
    "fstab": fstab,
    "deck": deck,
    "new-release": new_release,
}
