"""The coach (hints ``coach``): after a person's clearly worse move, a remark with the
better move (engine/advice.py), judged by the analysis's own judge (engine/judge.py:
the same numbers on the same scale, at the coach's budget). Never for a bot's move,
never at another hint level; the hub keeps the last remark for the page."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from keezbord.engine.advice import coach
from keezbord.engine.judge import judge_seed
from keezbord.engine.search import Known
from keezbord.host.referee import RefereeState, cards_seen
from keezbord.host.sim.table import SimTable


def coach_remark(
    st: RefereeState,
    record: Mapping[str, Any],
    sim: SimTable | None,
    tap: tuple[int, list[str]] | None,
    playouts: int,
) -> dict[str, Any] | None:
    """The remark on the move ``record`` just accepted, or None. ``tap``: the seat and
    its hand when it tapped the card (the simulator knows it; a real board does not, so
    the played card is all of the hand the coach may assume)."""
    if record["type"] != "move" or st.config.hints != "coach" or not st.history:
        return None
    seat = record["seat"]
    if sim is not None and sim.is_bot(seat):
        return None
    rec = st.history[-1]
    whole = tap is not None and tap[0] == seat and rec.card in tap[1]
    hand = list(tap[1]) if tap is not None and whole else [rec.card]
    seen = cards_seen(st, len(st.history) - 1, rec.table_before.shuffle_no)
    known = Known(seen, rec.table_before.cards_left)
    remark = coach(
        rec.before.replace(turn=seat),
        hand,
        rec.card,
        rec.move,
        known,
        total=playouts,
        seed=judge_seed(0, len(st.history) - 1),  # the analysis's seed (game seed 0)
        hand_known=whole,
    )
    return None if remark is None else {"n": len(st.history), **remark.record()}
