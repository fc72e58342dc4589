"""``keezbord doctor``: is this Pi ready to run the configured board? Each check says what
it found; a problem comes with its exact fix (the line to add, the command to run).

Everything is read through a ``Layout`` (a root prefix: the tests plant faults in fake
trees) and the few things no file shows (USB devices, the Pico's answer, importable
modules, systemd's word, free space) through ``Probes``, injected in the tests.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from keezbord.engine.text import Text
from keezbord.host.appliance.checks_chain import pi_direct_chain_checks
from keezbord.host.appliance.checks_devices import device_checks, group_checks, service_port
from keezbord.host.appliance.checks_journal import journal_state_checks
from keezbord.host.appliance.checks_pi import boot_config_checks, model_check, os_check
from keezbord.host.appliance.checks_system import extra_checks, journal_check, service_check
from keezbord.host.appliance.checks_voice import voice_checks
from keezbord.host.appliance.paths import USER, Layout
from keezbord.host.appliance.probes import Board, Finding, PicoReport, Probes, short
from keezbord.host.appliance.system import user_id
from keezbord.host.appliance.unit import sudo_keezbord
from keezbord.host.drivers import pi

__all__ = ["Board", "Finding", "PicoReport", "Probes", "read_board", "run_checks"]


def read_board(layout: Layout, config: Path | None = None) -> Board:
    """The board in the installed configuration (``/etc/keezbord/board.toml``); the
    reader's default port follows this tree's Pi model, not the machine's."""
    from keezbord.host.config import load_config

    path = config or layout.config
    cfg = load_config(path)
    gen = pi.pi_generation(pi.pi_model(layout.model))  # this tree's Pi, not the machine's
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    given_port = isinstance(raw.get("rfid"), dict) and "port" in raw["rfid"]
    reader_port = cfg.rfid.port if given_port else pi.default_rfid_port(layout.model)
    from keezbord.host.paths import JOURNAL_NAME, data_dir

    return Board(
        scanner=cfg.scanner.kind,
        method=cfg.scanner.method,
        scanner_port=cfg.scanner.port,
        led_driver=(driver := cfg.leds.led_driver_for(cfg.scanner.kind, gen)),
        led_pin=cfg.leds.pin_for(driver),
        reader=cfg.rfid.reader,
        reader_port=reader_port,
        journal=cfg.journal or data_dir() / JOURNAL_NAME,
        leds=len((wiring := cfg.load_wiring()).led_order),
        chips=wiring.chips,
        signature=cfg.scanner.signature,
        voice=cfg.voice,
    )


# -- the checks -------------------------------------------------------------------------


def config_problem(path: Path, e: BaseException, *, given: bool) -> Finding:
    """The board's TOML cannot be used. Missing: the service install makes it (unless
    ``--config`` named another file); broken: only an edit helps (install keeps it)."""
    if isinstance(e, FileNotFoundError):
        if given:
            return Finding(
                "config",
                False,
                Text(f"{path} bestaat niet", f"{path} does not exist"),
                Text(
                    "geef het pad van board.toml bij --config", "give board.toml's path to --config"
                ),
            )
        return Finding(
            "config",
            False,
            Text(f"{path} bestaat niet", f"{path} does not exist"),
            Text(
                f"{sudo_keezbord('service install')} (maakt het uit het voorbeeld)",
                f"{sudo_keezbord('service install')} (makes it from the example)",
            ),
        )
    why = short(e).removeprefix(f"{path}: ")  # the config's errors name the file first
    return Finding(
        "config",
        False,
        Text(f"{path}: onbruikbaar ({why})", f"{path}: unusable ({why})"),
        Text(
            f"verbeter het (sudo nano {path}), dan sudo systemctl restart keezbord",
            f"correct it (sudo nano {path}), then sudo systemctl restart keezbord",
        ),
    )


def run_checks(layout: Layout, probes: Probes, config: Path | None = None) -> list[Finding]:
    found: list[Finding] = []
    model = pi.pi_model(layout.model)
    gen = pi.pi_generation(model)
    found.append(model_check(model, gen))
    found.append(os_check(layout))
    cfg_path = config or layout.config
    try:
        board = read_board(layout, cfg_path)
    except (OSError, ValueError) as e:
        found.append(config_problem(cfg_path, e, given=config is not None))
        found.append(service_check(layout, probes))
        return found
    found.append(Finding("config", True, Text(str(cfg_path), str(cfg_path))))
    found += boot_config_checks(layout, board, gen)
    found += device_checks(layout, board, probes)
    found += pi_direct_chain_checks(board, probes, service_port(layout))
    found += group_checks(layout, board, probes)
    found += extra_checks(board, gen, probes)
    found += voice_checks(layout, board, probes)
    found.append(journal_check(board, probes, user_id(layout, probes.user or USER)))
    found += journal_state_checks(board, layout, probes)
    found.append(service_check(layout, probes))
    return found
