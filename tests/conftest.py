"""Suite-wide test setup: tests marked ``pi`` need a real Raspberry Pi and skip elsewhere."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import pytest

# The engine tests' shared builders (engine_helpers, puzzle_record, reference_rules),
# importable by name from every test folder (mypy's MYPYPATH has tests/engine likewise).
sys.path.insert(0, str(Path(__file__).resolve().parent / "engine"))

# The commands a test starts and stops with SIGINT stand for a person's Ctrl-C at a
# terminal, where SIGINT is at its default. Run as a script's background job, pytest
# inherits SIGINT ignored and so would they (tests/cli/test_ctrl_c.py starts one so on
# purpose); the default here is what they inherit instead.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def on_raspberry_pi() -> bool:
    try:
        return "Raspberry Pi" in Path("/proc/device-tree/model").read_text(errors="replace")
    except OSError:
        return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if on_raspberry_pi():
        return
    skip = pytest.mark.skip(reason="needs a real Raspberry Pi")
    for item in items:
        if item.get_closest_marker("pi") is not None:
            item.add_marker(skip)


# -- the shared project folder (RULES.md, FORMATS.md, conformance vectors) -------------
# It sits beside the clone: ../shared relative to the repo root (here and in CI).

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The shared folder beside the repo; skips loudly when it is missing."""
    for candidate in (REPO_ROOT.parent / "shared", REPO_ROOT / "shared"):
        if (candidate / "RULES.md").is_file():
            return candidate
    pytest.skip(
        f"shared folder with RULES.md and conformance/ not found at "
        f"{REPO_ROOT.parent / 'shared'}: conformance tests NOT run"
    )


@pytest.fixture(autouse=True)
def _no_host_settings(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The machine's installed configuration and the caller's KEEZBORD_LANG stay out of
    the tests (keezbord/host/paths.py, keezbord/host/cli.py)."""
    missing = tmp_path_factory.getbasetemp() / "no-etc-keezbord-board.toml"
    monkeypatch.setenv("KEEZBORD_SYSTEM_CONFIG", str(missing))
    monkeypatch.delenv("KEEZBORD_LANG", raising=False)
