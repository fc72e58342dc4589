"""tests/club: a real Mosquitto broker per test (club_helpers.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from club_helpers import CHROMIUM, CHROMIUM_ARGS, Club, open_club


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Callable[[int, int], Club]]:
    made: list[Club] = []

    def make(teams: int, boards: int) -> Club:
        c = open_club(tmp_path, teams, boards)
        made.append(c)
        return c

    yield make
    for c in made:
        c.close()


@pytest.fixture
def page() -> Iterator[Any]:
    """A page in headless Debian Chromium, driven by Playwright (as tests/web)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} not installed (./dev.sh test installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b.new_context(viewport={"width": 1280, "height": 720}).new_page()
        b.close()
