"""End to end: a recorded conformance game played as switch changes in the chain model,
through the emulated Pico, the link, the referee and back to LED frames decoded on the
pin. Every move accepted as `keezbord replay` accepts it; the LEDs as the referee decided.

Default: the opening of g101 (its first 45 trace events, 8 moves). KEEZBORD_EMULATOR=full plays
all four games from start to end."""

# mypy: disable-error-code="import-not-found"
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FULL, needs_node
from emu import MS
from game import EmulatedTable, consistent, expected_decisions, moves_of

from keezbord.host.events import HoleEvent

pytestmark = [pytest.mark.emulator, needs_node, pytest.mark.timeout(1800)]

GAMES = ("g101-4seats-standard", "g102-6seats-standard", "g103-4seats-keezspel", "g104-2seats-nk")
CASES = [(g, None) for g in GAMES] if FULL else [("g101-4seats-standard", 45)]


@pytest.mark.parametrize(("game", "n_events"), CASES)
def test_recorded_game_through_the_emulated_pico(
    shared_dir: Path, tmp_path: Path, game: str, n_events: int | None
) -> None:
    trace = shared_dir / "conformance" / "games" / f"{game}.trace.jsonl"
    table = EmulatedTable(trace, tmp_path / "pico")
    if n_events is not None:
        # End where a move is complete: just before the next card tap or discard.
        n_events = next(
            (
                i
                for i in range(n_events, len(table.events))
                if not isinstance(table.events[i], HoleEvent)
            ),
            len(table.events),
        )
    try:
        run = table.play(n_events)
        frames = table.frames()
        boot_at = table.boot_at()
        health = table.link.health()
    finally:
        table.close()

    events = table.events[:n_events] if n_events is not None else table.events
    want = expected_decisions(table.setup, events)
    assert moves_of(run.decisions) == moves_of(want)
    assert len(moves_of(want)) >= (8 if n_events else 40)
    flags = ("illegal", "second_card", "ambiguous", "card_rejected")
    bad = [d for d in run.decisions if d["type"] in flags]
    assert bad == []
    assert [d["ok"] for d in run.decisions if d["type"] == "discard"] == [
        d["ok"] for d in want if d["type"] == "discard"
    ]
    assert run.state is not None
    assert run.state.pos.to_dict()["pawns"] == want[-1]["position"]["pawns"]
    assert health.frames_bad == 0 and health.chain_ok is True

    # The pin: every frame well formed, and at every checkpoint (the host caught up,
    # before the next card) the referee's LEDs were on the strip.
    assert frames and all(f["violations"] == [] for f in frames)
    assert any(c != (0, 0, 0) for _, colours, _ in run.checkpoints for c in colours)
    missing = []
    for t_cp, colours, ids in run.checkpoints:
        # What the strip showed then (its last frame before), or shows soon after (the
        # host paces LED updates, at most 20 in any second).
        before = [f for f in frames if f["start"] <= t_cp][-1:]
        near = before + [f for f in frames if t_cp < f["start"] <= t_cp + 1000 * MS]
        if not any(
            consistent(f["words"], colours, ids, int((f["start"] - boot_at) // MS)) for f in near
        ):
            missing.append(t_cp)
    assert missing == [], f"{len(missing)} of {len(run.checkpoints)} LED states not on the pin"
