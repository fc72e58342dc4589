"""The simulator's drawn board kept in agreement with the referee (issue 40, items 1-5).

After every input the hub asks sim/agree.py whether the pawns drawn (the person's
board) and the referee's reading of it differ. A difference the referee has not
flagged becomes the simulator's flag (``Hub.mismatch``, shown as the page's flag with
the reason and how to put the board right, and judged as an illegal attempt by a
lesson or a puzzle); a move the referee accepted that the drawing contradicts (two
pawns of a jack put back where they stood, read as the swap) is taken back. "Put the
board right" turns the drawing into the position, colours and all, through the
referee like any hand (``put_right``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from keezbord.engine.text import Text
from keezbord.host.referee import colours
from keezbord.host.sim import agree
from keezbord.host.sim.restore import put_drawn_back

from .board_task import BoardTask

if TYPE_CHECKING:
    from .hub import Hub


def active(hub: Hub) -> bool:
    """The drawing is the board: the simulator (not a real board's virtual deal)."""
    return hub.sim is not None and hub.opts.mode == "sim"


def contradicted(drawn: Mapping[str, int | None], hub: Hub) -> bool:
    """The position the referee just reached puts another colour on a drawn pawn."""
    want = colours(hub.session.state.pos)
    return any(s is not None and h in want and want[h] != s for h, s in drawn.items())


def watch(hub: Hub, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """After an input (before the tasks judge ``records``): the drawing checked
    against the referee; returns what the tasks see."""
    if not active(hub):
        return records
    st = hub.session.state
    seen = records
    move = next((r for r in records if r.get("type") == "move"), None)
    drawn, held = hub.pawns.pawn_seat, hub.pawns.held
    mismatch = agree.check(st, drawn, held)
    if hub.mismatch is not None and not agree.judged(st, drawn, held):
        # Being put right (a pawn in hand, one settling): the way back and its lights
        # stay the drawing's, not the referee's reading of the touches (issue 40).
        mismatch = agree.guide(st.pos, drawn, held, hub.mismatch)
    elif hub.mismatch is not None and mismatch is not None and hub.mismatch.holes:
        # Still apart: the reason stays the rule first broken, not the half-put-right
        # board read as a move.
        mismatch = replace(mismatch, reason=hub.mismatch.reason)
    if move is not None and contradicted(hub.pawns.pawn_seat, hub):
        # The referee read a move the drawn pawns do not show: taken back at once.
        seen = [r for r in records if r is not move]
        said = Text(
            f"het bord las {move.get('move')}, maar de pionnen staan niet zo: "
            "de zet is teruggenomen",
            f"the board read {move.get('move')}, but the pawns do not stand that way: "
            "the move was taken back",
        )
        mismatch = agree.Mismatch((), said, ())
        # The drawing is the truth: kept as it is (the referee's position would repaint
        # it) until the move is taken back and the pawns put back from it.
        kept = (dict(hub.pawns.pawn_seat), list(hub.pawns.held))
        hub.call_soon(lambda: _take_back(hub, kept))
    if mismatch is not None and hub.mismatch is None:
        record = {
            "t": hub.now(),
            "type": "illegal",
            "seat": st.seat,
            "holes": list(mismatch.holes),
            "reason": mismatch.reason.as_dict(),
            "drawing": True,
        }
        hub.log.add(record, st, hub.shown, hub.pawns.pawn_seat)
        seen = [*seen, record]
    hub.mismatch = mismatch
    return seen


def observe(hub: Hub, records: list[dict[str, Any]], seen: list[dict[str, Any]]) -> None:
    """The referee's ``records`` to the hub's observers; the task judging the game gets
    ``seen`` (the drawing's flag added, a contradicted move left out)."""
    for o in hub.observers:
        got = seen if isinstance(o, BoardTask) else records
        if got:
            o(got)


def _take_back(hub: Hub, kept: tuple[dict[str, int | None], list[int | None]]) -> None:
    if hub.bots is not None:
        hub.bots.cancel()
    hub.undo()
    hub.pawns.pawn_seat, hub.pawns.held = kept
    put_right(hub)


def recolours(hub: Hub) -> tuple[str, ...]:
    """The decisions after which the drawing takes its colours from the position: in
    the simulator not an undo (the pawns drawn are where they are until put back)."""
    return (
        ("move", "penalty", "overrule") if active(hub) else ("move", "undo", "penalty", "overrule")
    )


def put_right(hub: Hub) -> None:
    """Put the drawn board right: the position's pawns, colours and all (the
    simulator's "put the board right"; sim/restore.py)."""
    put_drawn_back(hub)
