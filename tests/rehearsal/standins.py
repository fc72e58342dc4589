"""What the rehearsal does in place of a command it cannot run as written: the actions
that guide.RULES names (each rule there says why)."""

from __future__ import annotations

import re
import shutil
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
    if "RPI_PICO" in step.command.text:
        return "the stand-in Pico needs no UF2"
    wheels = sorted((r.work / "computer/keezbord/dist").glob("keezbord-*.whl"))
    assert wheels, "no wheel built on your computer"
    home = r.m.path("/home/pi")
    for w in wheels:
        shutil.copy2(w, home / w.name)
        (home / w.name).chmod(0o644)
    done = r.m.root_sh("chown pi:pi /home/pi/keezbord-*.whl")
    assert done.rc == 0, done.out
    return ", ".join(w.name for w in wheels)


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
}
