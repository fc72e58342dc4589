"""keezbord doctor against fake root trees: a good Pi 5 with the Pico, a good Pi 4 wired
Pi-direct, a non-Pi; every planted fault is named with its fix, and only a good tree
passes."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from fake_tree import FIRMWARE, Port, good_probes, healthy_service, pi4_direct, pi5_pico, write

from keezbord.host.appliance.doctor import Finding, PicoReport, Probes, run_checks
from keezbord.host.appliance.paths import Layout
from keezbord.host.appliance.probes import ServiceReport
from keezbord.host.cli import main


def problems(findings: list[Finding]) -> dict[str, Finding]:
    return {f.check: f for f in findings if not f.ok}


def test_a_good_pi5_with_the_pico_passes_every_check(tmp_path: Path) -> None:
    layout = pi5_pico(tmp_path)
    findings = run_checks(layout, good_probes())
    assert problems(findings) == {}
    checks = {f.check for f in findings}
    assert {"model", "os", "uart", "console", "reader", "pico", "firmware", "journal"} <= checks
    assert {"service", "group dialout", "extra web", "extra appliance", "extra pico"} <= checks
    assert "spi" not in checks and "audio" not in checks  # the Pico scans and drives the LEDs


def test_a_configured_port_no_usb_list_shows_is_the_pico_if_its_firmware_answers(
    tmp_path: Path,
) -> None:
    # The seam the rehearsal uses (tests/rehearsal): a port that exists but is not listed
    # as USB 2E8A:0005 (a udev link, /dev/serial/by-id/..., a pty) is asked as the Pico.
    layout = pi5_pico(tmp_path)
    asked: list[str] = []

    def ask(port: str) -> PicoReport:
        asked.append(port)
        return PicoReport(FIRMWARE, True)

    probes = good_probes(active=False, ports=())
    probes = Probes(**{**probes.__dict__, "ask_pico": ask})
    found = {f.check: f for f in run_checks(layout, probes)}
    assert found["pico"].ok and "not listed as USB 2E8A:0005" in found["pico"].text.en
    assert found["firmware"].ok and asked == ["/dev/ttyACM0"]
    # ... and a bare MicroPython behind it is not taken for ours.
    probes = Probes(**{**probes.__dict__, "ask_pico": lambda port: PicoReport(None, False, "x")})
    bad = problems(run_checks(layout, probes))
    assert "firmware" in bad and "bare MicroPython" in bad["firmware"].text.en
    # A udev link to the listed device is that device.
    (tmp_path / "dev/serial/by-id").mkdir(parents=True)
    (tmp_path / "dev/serial/by-id/usb-MicroPython-if00").symlink_to(tmp_path / "dev/ttyACM0")
    cfg = layout.config.read_text().replace(
        'port = "/dev/ttyACM0"', 'port = "/dev/serial/by-id/usb-MicroPython-if00"'
    )
    layout.config.write_text(cfg)
    probes = good_probes(active=False, ports=[Port("/dev/ttyACM0", 0x2E8A, 5)])
    assert "pico" not in problems(run_checks(layout, probes))


def test_a_good_pi4_wired_pi_direct_passes_every_check(tmp_path: Path) -> None:
    layout = pi4_direct(tmp_path)
    findings = run_checks(layout, good_probes(ports=()))
    assert problems(findings) == {}
    checks = {f.check for f in findings}
    assert {"spi", "uart", "spidev", "gpiochip", "group gpio", "group spi"} <= checks
    assert {"spi1", "core clock", "led spidev", "led frame"} <= checks  # the SPI LEDs
    assert "audio" not in checks  # the SPI LEDs do not use the audio's PWM
    assert {"extra pi4"} <= checks and "pico" not in checks


def test_a_pc_is_not_a_pi(tmp_path: Path) -> None:
    layout = pi5_pico(tmp_path)
    (tmp_path / "proc/device-tree/model").unlink()
    bad = problems(run_checks(layout, good_probes()))
    assert "not a Raspberry Pi" in bad["model"].text.en
    assert bad["model"].fix is not None and "on the board's Pi" in bad["model"].fix.en


def _edit(path: str, old: str, new: str) -> Callable[[Path], None]:
    def do(root: Path) -> None:
        p = root / path.lstrip("/")
        text = p.read_text()
        assert old in text
        p.write_text(text.replace(old, new))

    return do


def _rm(path: str) -> Callable[[Path], None]:
    return lambda root: (root / path.lstrip("/")).unlink()


# (planted fault, probes, the check that must fail, a piece of its exact fix)
PI5_FAULTS: list[tuple[str, Callable[[Path], None], Probes, str, str]] = [
    ("pi 3", _edit("/proc/device-tree/model", "Pi 5 Model B", "Pi 3 Model B"), good_probes(),
     "model", "Raspberry Pi 4 or 5"),
    ("bullseye", _edit("/etc/os-release", "bookworm", "bullseye"), good_probes(), "os", "Bookworm"),
    ("uart off", _edit("/boot/firmware/config.txt", "dtparam=uart0=on", "#dtparam=uart0=on"),
     good_probes(), "uart", "add `dtparam=uart0=on` to /boot/firmware/config.txt"),
    ("pi4's uart line on a pi5",
     _edit("/boot/firmware/config.txt", "dtparam=uart0=on", "dtoverlay=disable-bt"),
     good_probes(), "uart", "`dtparam=uart0=on`"),
    ("uart0 off again", _edit("/boot/firmware/config.txt", "dtparam=uart0=on",
                              "dtparam=uart0=on\ndtparam=uart0=off"),
     good_probes(), "uart", "`dtparam=uart0=on`"),
    ("uart only for a pi4", _edit("/boot/firmware/config.txt", "[all]\n", "[pi4]\n"),
     good_probes(), "uart", "`dtparam=uart0=on`"),
    ("serial console on uart0", _edit("/boot/firmware/cmdline.txt", "console=tty1",
                                      "console=ttyAMA0,115200 console=tty1"),
     good_probes(), "console", "raspi-config nonint do_serial_cons 1"),
    ("no config.txt", _rm("/boot/firmware/config.txt"), good_probes(), "config.txt",
     "/boot/firmware/config.txt"),
    ("no reader port", _rm("/dev/ttyAMA0"), good_probes(), "reader", "turn the UART on"),
    ("no pico", _rm("/dev/ttyACM0"), good_probes(ports=[Port("/dev/ttyACM1", 0x2E8A, 0x000C)]),
     "pico", "plug the Pico in"),
    ("pico elsewhere", lambda root: None, good_probes(ports=[Port("/dev/ttyACM1", 0x2E8A, 5)]),
     "pico", 'set port = "/dev/ttyACM1" under [scanner]'),
    ("old firmware", lambda root: None,
     good_probes(active=False, firmware=PicoReport("keezbord-fw 0.0.1", True)),
     "firmware", "firmware install --config /etc/keezbord/board.toml"),
    ("silent pico", lambda root: None,
     good_probes(active=False, firmware=PicoReport(None, False, "no heartbeat")),
     "firmware", "keezbord firmware install"),
    ("unhealthy link", lambda root: None,
     good_probes(active=False, firmware=PicoReport(FIRMWARE, False, "chain broken")),
     "firmware", "sudo journalctl -u keezbord.service"),
    # The service holds the link: doctor asks it (GET /api/health), never assumes.
    ("bare micropython behind the service", lambda root: None,
     good_probes(service=healthy_service(firmware=None, ok=False, error="no frame yet")),
     "firmware", "sudo systemctl stop keezbord.service && sudo "),
    ("old firmware behind the service", lambda root: None,
     good_probes(service=healthy_service(firmware="keezbord-fw 0.0.1")),
     "firmware", "firmware install --config /etc/keezbord/board.toml && sudo systemctl start"),
    ("the service lost the pico", lambda root: None,
     good_probes(service=healthy_service(connected=False, error="/dev/ttyACM0: gone")),
     "firmware", "check the USB cable"),
    ("the service's strip fails", lambda root: None,
     good_probes(service=healthy_service(leds={"ok": False, "error": "RuntimeError: -5"})),
     "leds", "docs/drivers.md"),
    ("the service's reader is missing", lambda root: None,
     good_probes(service=healthy_service(reader={"ok": False, "error": "the PN532 ..."})),
     "reader answers", "switch the card reader on"),
    ("the service does not answer", lambda root: None,
     good_probes(service=ServiceReport(None, None, "connection refused")),
     "firmware", "sudo systemctl restart keezbord.service"),
    ("the service runs an older keezbord", lambda root: None,
     good_probes(service=ServiceReport("0.0.1", healthy_service().health)),
     "service version", "sudo systemctl restart keezbord.service"),
    ("not in dialout", _edit("/etc/group", "dialout:x:20:keezbord,pi", "dialout:x:20:pi"),
     good_probes(), "group dialout", "sudo usermod -aG dialout keezbord"),
    ("node mode", lambda root: os.chmod(root / "dev/ttyACM0", 0o600), good_probes(),
     "permissions", "sudo chgrp dialout /dev/ttyACM0 && sudo chmod g+rw /dev/ttyACM0"),
    ("no zeroconf", lambda root: None, good_probes(missing=frozenset({"zeroconf"})),
     "extra appliance", 'pip install "$(ls -t /home/pi/keezbord-*.whl | head -n 1)[appliance]'),
    ("no pyserial", lambda root: None, good_probes(missing=frozenset({"serial"})),
     "extra pico", "keezbord-*.whl | head -n 1)[pico]"),
    ("no web", lambda root: None, good_probes(missing=frozenset({"segno"})),
     "extra web", "sudo "),
    ("state folder not the service's", _edit("/etc/passwd", f"keezbord:x:{os.getuid()}:",
                                             f"keezbord:x:{os.getuid() + 1}:"),
     good_probes(), "journal", "sudo chown -R keezbord:keezbord"),
    ("disk full", lambda root: None, good_probes(free=20 * 1024 * 1024), "journal",
     "journal export --all"),
    ("no state folder", lambda root: os.rename(root / "var/lib/keezbord", root / "var/lib/x"),
     good_probes(), "journal", "/bin/keezbord service install"),
    ("service stopped", lambda root: None, good_probes(active=False), "service",
     "sudo systemctl restart keezbord.service"),
    ("service missing", _rm("/etc/systemd/system/keezbord.service"), good_probes(), "service",
     "/bin/keezbord service install"),
    ("bad config", _edit("/etc/keezbord/board.toml", "[board]", "[board"), good_probes(),
     "config", "correct it (sudo nano"),
    ("no config", _rm("/etc/keezbord/board.toml"), good_probes(), "config",
     "/bin/keezbord service install (makes it from the example)"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("plant", "probes", "check", "fix"),
    [f[1:] for f in PI5_FAULTS],
    ids=[f[0] for f in PI5_FAULTS],
)
def test_every_fault_on_the_pi5_is_named_with_its_fix(
    tmp_path: Path, plant: Callable[[Path], None], probes: Probes, check: str, fix: str
) -> None:
    layout = pi5_pico(tmp_path)
    plant(tmp_path)
    bad = problems(run_checks(layout, probes))
    assert check in bad, f"{check} passed: {sorted(bad)}"
    found = bad[check].fix
    assert found is not None and fix in found.en, found
    assert found.nl and bad[check].text.nl != bad[check].text.en  # Dutch too


PI4_FAULTS: list[tuple[str, Callable[[Path], None], str, str]] = [
    ("spi off", _edit("/boot/config.txt", "spi=on", "spi=off"), "spi",
     "add `dtparam=spi=on` to /boot/config.txt"),
    # The LEDs on SPI1's MOSI (GPIO20): no root, but SPI1 on, a fixed core clock, the node.
    ("no spi1", _edit("/boot/config.txt", "dtoverlay=spi1-1cs\n", ""), "spi1",
     "add `dtoverlay=spi1-1cs` to /boot/config.txt"),
    ("core clock scales", _edit("/boot/config.txt", "core_freq_min=500\n", ""), "core clock",
     "add `core_freq_min=500` to /boot/config.txt"),
    ("no spidev1.0", _rm("/dev/spidev1.0"), "led spidev", "`dtoverlay=spi1-1cs`"),
    ("8 seats in a small spidev buffer",
     _edit("/etc/keezbord/board.toml", "seats = 4", "seats = 8"), "led frame",
     "`spidev.bufsiz=65536` to /boot/firmware/cmdline.txt"),
    ("no disable-bt", _edit("/boot/config.txt", "dtoverlay=disable-bt", ""), "uart",
     "add `dtoverlay=disable-bt` to /boot/config.txt"),
    ("disable-bt for a cm4 only", _edit("/boot/config.txt", "[pi4]", "[cm4]"), "uart",
     "`dtoverlay=disable-bt`"),
    ("no spidev", lambda root: _rm("/dev/spidev0.0")(root) or _rm("/dev/spidev0.1")(root),
     "spidev", "turn SPI on"),
    ("no gpiochip", _rm("/dev/gpiochip0"), "gpiochip", "Raspberry Pi OS"),
    ("no serial0", _rm("/dev/serial0"), "reader", "turn the UART on"),
    ("not in spi", _edit("/etc/group", "spi:x:994:keezbord", "spi:x:994:"), "group spi",
     "sudo usermod -aG spi keezbord"),
    ("not in gpio", _edit("/etc/group", "gpio:x:993:keezbord", "gpio:x:993:"), "group gpio",
     "sudo usermod -aG gpio keezbord"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("plant", "check", "fix"), [f[1:] for f in PI4_FAULTS], ids=[f[0] for f in PI4_FAULTS]
)
def test_every_fault_on_the_pi4_is_named_with_its_fix(
    tmp_path: Path, plant: Callable[[Path], None], check: str, fix: str
) -> None:
    layout = pi4_direct(tmp_path)
    plant(tmp_path)
    bad = problems(run_checks(layout, good_probes(ports=())))
    assert check in bad, f"{check} passed: {sorted(bad)}"
    found = bad[check].fix
    assert found is not None and fix in found.en, found


def test_a_pi4s_pwm_leds_fail_as_the_service_cannot_run_them(tmp_path: Path) -> None:
    # issue 24 item 1: rpi_ws281x needs root; the unit's user has no capabilities.
    layout = pi4_direct(tmp_path)
    cfg = layout.config.read_text().replace('driver = "auto"', 'driver = "neopixel"\npin = 18')
    layout.config.write_text(cfg)
    bad = problems(run_checks(layout, good_probes(ports=())))
    assert "needs root" in bad["leds"].text.en
    fix = bad["leds"].fix
    assert fix is not None and 'driver = "neopixel-spi"' in fix.en and "GPIO20" in fix.en
    assert "audio" in bad  # Pi OS's own config.txt has dtparam=audio=on: the PWM's
    # No audio line: audio is off by default, nothing to fix (issue 24 item 10).
    config = tmp_path / "boot/config.txt"
    config.write_text(config.read_text().replace("dtparam=audio=on\n", ""))
    assert "audio" not in problems(run_checks(layout, good_probes(ports=())))
    # A unit changed to run as root may use it.
    layout.unit.write_text(layout.unit.read_text().replace("User=keezbord", "User=root"))
    assert "leds" not in problems(run_checks(layout, good_probes(ports=())))


def test_a_pi5s_debug_console_on_serial0_is_not_the_readers_uart(tmp_path: Path) -> None:
    # issue 24 item 10: on a Pi 5 serial0 is the 3-pin debug UART, not GPIO14/15.
    layout = pi5_pico(tmp_path)
    _edit("/boot/firmware/cmdline.txt", "console=tty1", "console=serial0,115200 console=tty1")(
        tmp_path
    )
    assert "console" not in problems(run_checks(layout, good_probes()))


@pytest.mark.parametrize(
    ("gen", "module"), [(4, "spidev"), (5, "adafruit_blinka_raspberry_pi5_neopixel")]
)
def test_the_neopixel_backend_is_the_one_of_the_model(
    tmp_path: Path, gen: int, module: str
) -> None:
    layout = pi4_direct(tmp_path)
    if gen == 5:
        write(tmp_path, "/proc/device-tree/model", "Raspberry Pi 5 Model B Rev 1.0\x00")
        write(tmp_path, "/boot/config.txt", "dtparam=spi=on\ndtparam=uart0=on\n")
        write(tmp_path, "/dev/ttyAMA0", "", 0o660)
    bad = problems(run_checks(layout, good_probes(ports=(), missing=frozenset({module}))))
    extra = f"extra pi{gen}"
    assert module in bad[extra].text.en
    fix = bad[extra].fix
    assert fix is not None and fix.en.startswith("sudo ") and fix.en.endswith(f'[pi{gen}]"')
    assert "audio" not in bad  # a Pi 5's LEDs do not use the audio PWM


def test_the_command_exits_0_only_on_a_good_tree_and_speaks_dutch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # On a fake root systemd answers nothing: the service is not running. This machine
    # has none of the Pi 4's backends either.
    pi4_direct(tmp_path)
    assert main(["doctor", "--root", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "FAIL service: keezbord.service does not start at boot" in out
    assert "FAIL extra pi4: missing: " in out and "2 problems" in out
    assert "ok   spi: SPI on" in out
    (tmp_path / "boot/config.txt").write_text("dtparam=audio=off\n")
    assert main(["doctor", "--root", str(tmp_path), "--lang", "nl"]) == 1
    out = capsys.readouterr().out
    assert "FOUT spi: SPI staat uit -> zet `dtparam=spi=on` in /boot/config.txt" in out


def test_each_problem_is_one_line(tmp_path: Path) -> None:
    layout = Layout(tmp_path)  # an empty tree: nearly everything is wrong
    for f in run_checks(layout, good_probes()):
        assert "\n" not in f.line("en") and "\n" not in f.line("nl")


def test_a_config_problem_is_one_plain_line_with_the_fix_that_helps(tmp_path: Path) -> None:
    """A broken board.toml was told to `service install`, which keeps it; a missing
    --config file was told the same; the error named the file twice, errno and all."""
    layout = pi5_pico(tmp_path)
    cfg = layout.config
    cfg.write_text(cfg.read_text().replace("[board]", "[board", 1))
    bad = problems(run_checks(layout, good_probes()))["config"]
    line = bad.line("en")
    assert "service install" not in line and line.count(str(cfg)) == 2  # the text, the fix
    assert "not valid TOML" in line and "sudo nano" in bad.line("nl")
    other = tmp_path / "elders.toml"
    bad = problems(run_checks(layout, good_probes(), config=other))["config"]
    assert (
        bad.line("en")
        == f"FAIL config: {other} does not exist -> give board.toml's path to --config"
    )
    assert "Errno" not in bad.line("nl") and "bestaat niet" in bad.line("nl")


def test_a_link_lost_again_during_the_wait_is_judged_by_what_it_heard() -> None:
    # found by the rehearsal under load: a bare MicroPython behind the service makes the
    # link reopen the port; doctor's last look fell between two opens and said "no link"
    # (check the cable) where the Pico answered, just not with our firmware.
    from keezbord.host.appliance import checks_devices

    answers = iter(
        [healthy_service(connected=True, firmware=None, ok=False, error="no HELLO")]
        + [healthy_service(connected=False, firmware=None, ok=False, error="read failed")] * 50
    )
    probes = dataclasses.replace(good_probes(), ask_service=lambda web: next(answers), settle_s=0.6)
    found = checks_devices._firmware_of_the_service(Layout(), "/dev/ttyACM0", probes)
    bad = {f.check: f for f in found if not f.ok}
    assert "bare MicroPython" in bad["firmware"].text.en, bad["firmware"].text.en


def test_a_link_between_an_unplug_and_its_reopen_is_waited_for() -> None:
    # doctor right after a replug: the link has not reopened the port yet (it waits a
    # second), and a service of an older keezbord still names the firmware heard before
    # the unplug. Not an answer: doctor waits for the link to open and hear the Pico.
    from keezbord.host.appliance import checks_devices

    stale = healthy_service(connected=False, ok=False, error="read failed: no data")
    answers = iter(
        [stale] * 2 + [healthy_service(connected=True, firmware=None, ok=False, error=None)] * 50
    )
    probes = dataclasses.replace(good_probes(), ask_service=lambda web: next(answers), settle_s=2)
    found = checks_devices._firmware_of_the_service(Layout(), "/dev/ttyACM0", probes)
    bad = {f.check: f for f in found if not f.ok}
    assert "no keezbord firmware on /dev/ttyACM0" in bad["firmware"].text.en, bad
    assert "USB" not in bad["firmware"].fix.en  # type: ignore[union-attr]
