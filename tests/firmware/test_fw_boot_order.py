# mypy: disable-error-code="import-not-found"
"""The order of main.py, read from its syntax tree (issue 9, item 1): Ctrl-C off before
anything else, the safe-mode and maintenance checks before the heavy imports, the
watchdog armed only after the app and its configuration are built; and board.json
values that are wrong fall back to defaults instead of stopping the boot."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import board_config
import protocol as P
import pytest
from app import App
from fakes import FakeChain, FakeClock, FakeStrip, FakeWDT, ListStream
from scan import ChainScanner

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
HEAVY = {
    "app",
    "scan",
    "stream",
    "ws2812",
    "link",
    "leds",
    "debounce",
    "protocol",
    "patterns",
    "leds_viper",
}


def _tree(name: str) -> ast.Module:
    return ast.parse((FIRMWARE / name).read_text(), name)


def _is_kbd_intr_off(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Attribute)
        and node.value.func.attr == "kbd_intr"
        and [ast.literal_eval(a) for a in node.value.args] == [-1]
    )


def _calls_in_order(fn: ast.FunctionDef) -> list[tuple[int, str]]:
    """(line, what) for imports and calls in a function, in source order."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(fn):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.append((node.lineno, "import " + node.module))
        elif isinstance(node, ast.Import):
            out += [(node.lineno, "import " + a.name) for a in node.names]
        elif isinstance(node, ast.Call):
            f = node.func
            name = (
                f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            )
            out.append((node.lineno, name))
    return sorted(out)


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


@pytest.mark.parametrize("name", ["main.py", "unix_main.py"])
def test_kbd_intr_off_is_the_first_statement(name: str) -> None:
    body = _tree(name).body
    assert isinstance(body[0], ast.Import) and [a.name for a in body[0].names] == ["micropython"]
    assert _is_kbd_intr_off(body[1]), f"{name}: kbd_intr(-1) must follow at once"
    # nothing heavy at module level: only light modules before main() runs
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            mods = (
                [node.module] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            )
            assert not HEAVY & set(mods), f"{name}: {mods} imported at module level"


def test_main_checks_safe_mode_before_heavy_imports_and_arms_the_watchdog_last() -> None:
    fns = _functions(_tree("main.py"))
    main = _calls_in_order(fns["main"])
    names = [w for _, w in main]
    assert names.index("load_checked") < names.index("stop_reason") < names.index("build")
    stop_line = next(ln for ln, w in main if w == "stop_reason")
    # the heavy modules are imported in build() (called after the check) or later
    build = _calls_in_order(fns["build"])
    assert {w.split()[1] for _, w in build if w.startswith("import ")} >= {
        "app",
        "scan",
        "ws2812",
    }
    assert "usb_stream" in [w for _, w in build]  # the port boot.py started, or stdin
    assert all(
        ln > stop_line for ln, w in main if w.startswith("import ") and w.split()[1] in HEAVY
    )
    wdt = [ln for ln, w in main if w == "WDT"]
    assert len(wdt) == 1
    builds = [ln for ln, w in main if w == "build"]
    assert builds and all(ln < wdt[0] for ln in builds), "watchdog before the app"
    assert [w for _, w in build].count("App") == 1 and "WDT" not in [w for _, w in build]
    # the checks themselves import nothing heavy
    checks = _functions(_tree("boot_mode.py"))["stop_reason"]
    assert not [w for _, w in _calls_in_order(checks) if w.startswith("import")]


def test_boot_py_takes_the_usb_port_only_when_the_firmware_will_start() -> None:
    """boot.py runs before MicroPython brings USB up: it starts the firmware's own CDC
    (no Ctrl-C handling at all) unless the safe-mode pin or the maintenance flag say the
    REPL is wanted, and it only looks at the flag (main.py removes it and stops)."""
    tree = _tree("boot.py")
    top = [n for n in tree.body if not isinstance(n, ast.Expr)]
    assert all(isinstance(n, ast.Import) for n in top[:-1])
    assert {a.name for n in top[:-1] if isinstance(n, ast.Import) for a in n.names} == {
        "board_config",
        "boot_mode",
    }
    guard = top[-1]
    assert isinstance(guard, ast.If)
    cond = ast.unparse(guard.test)
    assert "stop_reason(" in cond and "remove_flag=False" in cond and "is None" in cond
    inner = ast.unparse(guard)
    assert "import usb_cdc" in inner and "usb_cdc.start()" in inner
    assert not guard.orelse


def test_main_pulls_miso_down_before_the_spi_takes_the_pin_in_mode_0() -> None:
    build = _functions(_tree("main.py"))["build"]
    src = ast.unparse(build)
    pull = src.index("PULL_DOWN")
    spi = src.index("machine.SPI(")
    assert pull < spi
    assert "polarity=SPI_POLARITY" in src and "phase=SPI_PHASE" in src
    assert "firstbit=machine.SPI.MSB" in src


def test_every_module_main_imports_is_installed() -> None:
    from keezbord.host.commands.firmware import FIRMWARE_FILES

    local = {p.stem for p in FIRMWARE.glob("*.py")} - {"fakes", "unix_main"}
    assert {f.removesuffix(".py") for f in FIRMWARE_FILES} == local


# --- board.json: wrong values never stop the firmware -----------------------------------


def test_bad_values_fall_back_one_by_one(tmp_path: Path) -> None:
    f = tmp_path / "board.json"
    f.write_text(
        json.dumps(
            {
                "chips": 0,
                "leds": 96,
                "watchdog_ms": 20000,
                "tail_level": 0,
                "signature": 300,
                "active_low": "yes",
                "bogus": 1,
                "scan_hz": 200,
            }
        )
    )
    cfg, problems = board_config.load_checked(str(f))
    assert cfg["leds"] == 96 and cfg["scan_hz"] == 200  # good values kept
    for k in ("chips", "watchdog_ms", "tail_level", "signature", "active_low"):
        assert cfg[k] == board_config.DEFAULTS[k]
        assert any(p.startswith(k) for p in problems), (k, problems)
    assert any("bogus" in p for p in problems)


def test_broken_json_and_duplicate_pins(tmp_path: Path) -> None:
    f = tmp_path / "board.json"
    f.write_text("{not json")
    assert board_config.load_checked(str(f)) == (
        board_config.DEFAULTS,
        ["board.json is not valid JSON: defaults used"],
    )
    assert board_config.load_checked(str(tmp_path / "missing.json")) == (board_config.DEFAULTS, [])
    cfg, problems = board_config.check({"led_pin": 4})  # the MISO pin
    assert cfg["led_pin"] == 6 and problems


def test_defaults_are_the_shared_decisions() -> None:
    d = board_config.DEFAULTS
    assert d["tail_level"] == 1 and d["signature"] == 0xA5  # the reference design's chip
    assert 2000 < d["watchdog_ms"] <= 8000  # margin, under the RP2040's 8.3 s maximum
    assert board_config.check(dict(d)) == (d, [])


def test_config_problems_reach_the_host_after_hello() -> None:
    clock = FakeClock(0)
    cfg, problems = board_config.check({"chips": 2, "leds": 4, "max_ma": -5})
    chain = FakeChain(2, clock)
    stream = ListStream()
    app = App(cfg, ChainScanner(chain, chain.latch, 2), stream, FakeStrip(clock), clock)
    app.config_problems = problems
    wdt = FakeWDT(clock)
    for _ in range(30):
        app.step()
        clock.advance(1)
    assert wdt.feeds == []  # not armed yet
    app.start_watchdog(wdt)
    stream.incoming += P.encode_frame(P.CMD_HELLO, 0, b"\x02")
    for _ in range(30):
        app.step()
        clock.advance(1)
    frames: list[Any] = P.Decoder().feed(bytes(stream.sent))
    logs = [p for t, _, p in frames if t == P.MSG_LOG]
    assert any(b"board.json: max_ma=-5" in x for x in logs)
    beats = [P.decode_heartbeat(p) for t, _, p in frames if t == P.MSG_HEARTBEAT]
    assert beats[-1] is not None and beats[-1][2] & P.FLAG_CONFIG_DEFAULTS
    assert wdt.feeds
