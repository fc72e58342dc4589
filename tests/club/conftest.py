"""tests/club: a real Mosquitto broker per test (club_helpers.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from club_helpers import Club, open_club


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
