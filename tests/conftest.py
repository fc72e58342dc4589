"""Suite-wide test setup: tests marked ``pi`` need a real Raspberry Pi and skip elsewhere."""

from __future__ import annotations

from pathlib import Path

import pytest


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
