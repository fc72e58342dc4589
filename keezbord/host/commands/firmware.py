"""``keezbord firmware``: install the Pico firmware and its board.json, or check the link.

    keezbord firmware install [--port P] [--config board.toml | --chips N --leds N ...]
                              [--dry-run] [--no-maintenance]
    keezbord firmware status  [--port P] [--seconds S]

``install`` wraps mpremote. A Pico already running the firmware ignores Ctrl-C (its
serial line carries binary frames), so install first sends the link's MAINTENANCE
command: the firmware restarts into the REPL, where mpremote can copy files. A Pico
that does not answer (fresh MicroPython, or started in safe mode) is used as it is.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from keezbord.hardware.wiring import REFERENCE_SIGNATURE, TAIL_LEVEL
from keezbord.host.errors import UsageError

# What goes onto the Pico; fakes.py and unix_main.py are for tests on a PC.
FIRMWARE_FILES = (
    "protocol.py",
    "byteops.py",
    "proto_viper.py",
    "scan.py",
    "scan_viper.py",
    "chain_dma.py",
    "chain_dma_viper.py",
    "debounce.py",
    "leds.py",
    "leds_viper.py",
    "viper_py.py",  # never imported on the Pico; the viper modules name it for CPython
    "patterns.py",
    "link.py",
    "stream.py",
    "usb_cdc.py",
    "boot_mode.py",
    "boot.py",
    "app.py",
    "board_config.py",
    "ws2812.py",
    "ws2812_timing.py",
    "main.py",
)
# Written at install (not in firmware/): the package's version, so the firmware reports
# the version of the keezbord that installed it.
VERSION_FILE = "version.py"


def firmware_dir() -> Path | None:
    """Where the firmware's .py files are: the package data a wheel carries
    (keezbord/_firmware, copied from firmware/ at build time by setup.py), else the
    repository's firmware/ next to the package (a checkout or an editable install)."""
    import keezbord

    pkg = Path(keezbord.__file__).resolve().parent
    for d in (pkg / "_firmware", pkg.parent / "firmware"):
        if all((d / name).is_file() for name in FIRMWARE_FILES):
            return d
    return None


def add_firmware_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    inst = sub.add_parser("install", help="copy the firmware and board.json to the Pico")
    inst.add_argument(
        "--port",
        help="the Pico's serial port (default: from --config, "
        "else the first USB device with vendor 2E8A)",
    )
    inst.add_argument("--config", help="board.toml to take chips, LEDs and limits from")
    inst.add_argument("--chips", type=int, help="74HC165 chips in the chain")
    inst.add_argument("--leds", type=int, help="WS2812 LEDs on the strip")
    inst.add_argument("--scan-hz", type=int, help="scans a second (at least 200)")
    inst.add_argument("--debounce", type=int, help="consistent samples before a change counts")
    inst.add_argument("--brightness", type=int, help="LED brightness 0..255")
    inst.add_argument("--max-ma", type=int, help="LED current budget in mA")
    inst.add_argument(
        "--signature",
        metavar="BYTE|none",
        help="the chain's signature chip (default: scanner.signature with "
        "--config, else 0xA5: a board built to the reference design)",
    )
    inst.add_argument(
        "--firmware-dir",
        help="folder holding the firmware's .py files (default: the copy installed with keezbord)",
    )
    inst.add_argument(
        "--dry-run",
        action="store_true",
        help="print board.json and the mpremote commands, run nothing",
    )
    inst.add_argument(
        "--no-maintenance",
        action="store_true",
        help="skip the MAINTENANCE request (the Pico is already at its REPL)",
    )
    st = sub.add_parser("status", help="connect to the firmware and print the link's health")
    st.add_argument("--port", help="serial port (default: the first Pico found)")
    st.add_argument("--seconds", type=float, default=2.0, help="how long to listen")


def run_firmware(args: argparse.Namespace) -> int:
    if args.action == "status":
        return _status(args)
    return _install(args)


def board_json(args: argparse.Namespace) -> tuple[dict[str, Any], str | None]:
    """The firmware's board.json settings and the configured port, from the options."""
    cfg: dict[str, Any] = {}
    port: str | None = None
    if args.config is not None:
        from keezbord.host.config import load_config

        board = load_config(args.config)
        wiring = board.load_wiring()
        cfg.update(
            chips=wiring.chips,
            leds=len(wiring.led_order),
            debounce=board.scanner.debounce,
            brightness=round(board.leds.brightness * 255),
        )
        if board.scanner.scan_hz >= 200:
            cfg["scan_hz"] = board.scanner.scan_hz
        if board.leds.budget_ma is not None:
            cfg["max_ma"] = int(board.leds.budget_ma)
        if board.scanner.kind == "pico-serial":
            port = board.scanner.port
        cfg["signature"] = board.scanner.signature
    else:
        cfg["signature"] = REFERENCE_SIGNATURE
    if args.signature is not None:
        cfg["signature"] = _signature(args.signature)
    # the reference design ties the far end to 3V3 (keezbord board wiring)
    cfg["tail_level"] = TAIL_LEVEL
    for key, lo, hi in (
        ("chips", 1, 255),
        ("leds", 0, 2000),
        ("scan_hz", 200, 1000),
        ("debounce", 1, 20),
        ("brightness", 0, 255),
        ("max_ma", 100, 60_000),
    ):
        v = getattr(args, key)
        if v is None:
            continue
        if not lo <= v <= hi:
            raise UsageError(f"--{key.replace('_', '-')} must be {lo} to {hi}, not {v}")
        cfg[key] = v
    if "chips" not in cfg:
        raise UsageError("say how big the board is: --config board.toml or --chips N")
    cfg.setdefault("leds", cfg["chips"] * 8)
    return cfg, port


def _signature(text: str) -> int | None:
    if text.lower() == "none":
        return None
    try:
        v = int(text, 0)
    except ValueError:
        raise UsageError(f"--signature must be a byte (e.g. 0xA5) or none, not {text!r}") from None
    if not 0 <= v <= 255:
        raise UsageError(f"--signature must be 0 to 255, not {v}")
    return v


def version_module() -> str:
    """firmware/version.py as installed: the package's version (pyproject.toml, the one
    place it is written), which the firmware reports in its HELLO."""
    from keezbord import __version__

    return (
        "# Written by `keezbord firmware install`: the version of the keezbord that "
        "installed it.\n"
        f"VERSION = {'keezbord-fw ' + __version__!r}\n"
    )


def mpremote_commands(port: str, files: list[Path], config_file: Path) -> list[list[str]]:
    connect = ["mpremote", "connect", port]
    return [
        [*connect, "fs", "cp", *[str(f) for f in files], str(config_file), ":"],
        [*connect, "reset"],
    ]


def _install(args: argparse.Namespace) -> int:
    cfg, config_port = board_json(args)
    found = Path(args.firmware_dir) if args.firmware_dir else firmware_dir()
    if found is None:
        raise UsageError(
            "the firmware files are not installed with keezbord; pass "
            "--firmware-dir (the firmware/ folder of the source)"
        )
    fw_dir = found
    if not args.dry_run:
        from keezbord.host.extras import require

        require("pico", "installing the firmware")
        _refuse_beside_the_service()
    files = [fw_dir / name for name in FIRMWARE_FILES]
    missing = [f.name for f in files if not f.is_file()]
    if missing:
        raise UsageError(
            f"{fw_dir}: firmware files missing ({', '.join(missing)}); pass --firmware-dir"
        )
    port = args.port or config_port
    if port is None and not args.dry_run:
        from keezbord.host.drivers.link_serial import find_pico_port

        port = find_pico_port()
        if port is None:
            raise UsageError("no Pico found (USB vendor 2E8A): plug it in or pass --port")
    port = port or "auto"
    with tempfile.TemporaryDirectory() as tmp:
        config_file = Path(tmp) / "board.json"
        config_file.write_text(json.dumps(cfg, indent=1, sort_keys=True) + "\n")
        version_file = Path(tmp) / VERSION_FILE
        version_file.write_text(version_module())
        commands = mpremote_commands(port, [*files, version_file], config_file)
        if args.dry_run:
            print("# board.json: " + json.dumps(cfg, sort_keys=True))
            if not args.no_maintenance:
                print(
                    f"# keezbord: send MAINTENANCE over {port} so the firmware restarts "
                    "into the REPL"
                )
            for cmd in commands:
                print(shlex.join(cmd))
            return 0
        if not args.no_maintenance:
            _request_maintenance(port)
        for cmd in commands:
            print(shlex.join(cmd), file=sys.stderr)
            done = subprocess.run([sys.executable, "-m", "mpremote", *cmd[1:]], check=False)
            if done.returncode != 0:
                from keezbord.host.drivers.port_holder import busy_message, holders

                if holders(port):
                    raise UsageError(f"mpremote failed: {busy_message(port)}")
                raise UsageError(
                    f"mpremote failed (exit {done.returncode}); if the firmware "
                    "is stuck, hold the safe-mode pin (GP22) to GND at power-up"
                )
    said = _wait_for_firmware(port)
    print(f"firmware installed on {port}: {cfg['chips']} chips, {cfg['leds']} LEDs; {said}")
    return 0


def _wait_for_firmware(port: str, within_s: float = 20.0) -> str:
    """After the reset: the port back and the firmware answering with this keezbord's
    version (a doctor or a service started right after finds it there). Found by the
    rehearsal: the USB port is gone for a moment after ``mpremote reset``."""
    from keezbord.host.drivers.link_serial import SerialLink

    want = version_module().split("VERSION = ", 1)[1].strip().strip("'\"")
    end = time.monotonic() + within_s
    while time.monotonic() < end and not Path(port).exists():
        time.sleep(0.2)
    link = SerialLink(port, retry_ms=200)
    try:
        while time.monotonic() < end:
            link.poll(0.05)
            got = link.health().firmware
            if got == want:
                return f"{got} answers"
            if got is not None:
                raise UsageError(f"{port}: the Pico answers {got}, not {want}: install again")
        why = link.last_error or "no answer"
    finally:
        link.close()
    raise UsageError(
        f"{port}: the firmware did not answer within {within_s:.0f} s after the reset ({why}); "
        "keezbord firmware status shows what the Pico says"
    )


def _refuse_beside_the_service() -> None:
    """The service takes the Pico's port whenever it is free, also between mpremote's
    commands (when the Pico resets): a half-installed Pico. Refused before anything."""
    from keezbord.host.drivers.port_holder import SERVICE, START, STOP, service_active

    if service_active():
        raise UsageError(
            f"the keezbord service ({SERVICE}) is running and takes the Pico's port whenever "
            f"it is free: stop it first with `{STOP}` (and `{START}` after)"
        )


def _request_maintenance(port: str, reappear_s: float = 10.0) -> None:
    """Ask a running firmware to restart into its REPL; wait for the port to come back."""
    import serial

    from keezbord.host.drivers import link_protocol as P
    from keezbord.host.drivers.port_holder import PortBusy, open_exclusive

    try:
        # exclusive: never share the port with a running `keezbord run`
        s = open_exclusive(
            lambda: serial.serial_for_url(port, baudrate=115200, timeout=0.1, exclusive=True),
            port,
        )
    except PortBusy as e:
        raise UsageError(str(e)) from None
    except OSError as e:
        raise UsageError(f"{port}: cannot open: {e}") from None
    answered = False
    try:
        # Sequence 0 keeps 0x03/0x04 (Ctrl-C/D) out of the frame, should a REPL read it.
        s.write(P.encode_frame(P.CMD_MAINTENANCE, 0, P.MAINTENANCE_MAGIC))
        decoder = P.Decoder()
        deadline = time.monotonic() + 1.5
        while not answered and time.monotonic() < deadline:
            answered = any(f.type == P.MSG_LOG for f in decoder.feed(s.read(256)))
    except OSError:
        answered = True  # the port vanished under us: the Pico is restarting
    finally:
        with contextlib.suppress(OSError):
            s.close()
    if not answered:
        return  # not our firmware running: a REPL already
    print(f"{port}: firmware restarting into the REPL ...", file=sys.stderr)
    if reappear_s <= 0:
        return
    time.sleep(1.0)  # USB goes away and comes back as the Pico resets
    deadline = time.monotonic() + reappear_s
    while time.monotonic() < deadline and not Path(port).exists():
        time.sleep(0.2)
    time.sleep(1.0)


def _status(args: argparse.Namespace) -> int:
    from keezbord.host.extras import require

    require("pico", "talking to the Pico")
    from keezbord.host.drivers.link_serial import SerialLink

    link = SerialLink(args.port)
    if not link.connect():
        raise UsageError(link.last_error or "cannot connect")
    end = time.monotonic() + args.seconds
    changes = 0
    while time.monotonic() < end:
        changes += len(link.poll(0.05))
    health = link.health().to_dict()
    health["closed_switches"] = [i for i in range(link.session.n_bits) if link.session.closed(i)]
    link.close()
    print(json.dumps(health, indent=1))
    return 0 if health["ok"] else 1
