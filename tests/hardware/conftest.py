"""Tests marked ``kicad`` run KiCad 9's kicad-cli (and pcbnew in Debian's python3), which
./dev.sh test installs; they skip only on a machine where kicad-cli is truly absent."""

from __future__ import annotations

import shutil

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if shutil.which("kicad-cli") is not None:
        return
    skip = pytest.mark.skip(
        reason="kicad-cli (KiCad 9) is not installed; ./dev.sh test installs it"
    )
    for item in items:
        if item.get_closest_marker("kicad") is not None:
            item.add_marker(skip)
