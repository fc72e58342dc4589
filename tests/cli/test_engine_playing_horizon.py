"""The engine protocol's search plays with the bot's playout length
(``search.play_horizon``), asked of the search module at every ``go``, and
still serves a search module without one (the ladder's pinned b80f2dd search is served by
today's protocol module: bench/engine_pinned.py)."""

from __future__ import annotations

from typing import Any

import pytest

from keezbord.engine import search
from keezbord.host.commands.engine_protocol import Engine

POS = "NNST20/NNNT33/NT60H3H4/NNNN 0 standard"


def _ask(eng: Engine) -> list[str]:
    out: list[str] = []
    for line in (f"position {POS}", "hand 5 7 K", "seen 2 3 9", "go playouts 8 seed 3"):
        out += eng.handle(line)
    return out


def test_the_engine_searches_with_the_playing_horizon(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[Any] = []
    real = search.analyse

    def spy(*args: Any, **kw: Any) -> search.Analysis:
        asked.append(kw.get("horizon"))
        return real(*args, **kw)

    monkeypatch.setattr(search, "analyse", spy)
    answer = _ask(Engine("search", 5))
    assert answer[-1].startswith("bestmove "), answer
    assert asked == [search.play_horizon(4)] == [8]


def test_a_search_module_without_a_playing_horizon_is_served(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delattr(search, "play_horizon")
    answer = _ask(Engine("search", 5))
    assert answer[-1].startswith("bestmove "), answer
