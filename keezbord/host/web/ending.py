"""A players' request that begins a new game (``set_up``, ``lesson``, ``puzzle``,
``retry_board``) over a game in progress (issue 37, roles.py ``may_end_game``): refused
where a referee's link is in use (``run``, a club evening: the referee's word), and in
the simulator done only once the page has confirmed, naming what is lost: the request
comes again with ``"confirm": <the game's number>``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from keezbord.engine.text import Text
from keezbord.host.roles import Access, Ending, may_end_game

from .board_task import BoardTask
from .hub_error import HubError

if TYPE_CHECKING:
    from .hub import Hub


def in_progress(hub: Hub) -> bool:
    """Whether the board's game would be lost by a new one: not over, not a task (a
    lesson's step, a puzzle, a retry), and begun: a move made, or a club match's game."""
    st = hub.session.state
    if st.over or any(isinstance(o, BoardTask) for o in hub.observers):
        return False
    club = hub.club
    if club is not None and club.view().get("playing"):
        return True
    return bool(st.history)


def lost(hub: Hub) -> Text:
    """What a new game ends, in words."""
    game, moves = hub.session.game, len(hub.session.state.history)
    return Text(
        f"spel {game}, nog bezig ({moves} zetten gespeeld)",
        f"game {game}, still in progress ({moves} moves played)",
    )


def check(hub: Hub, msg: Mapping[str, Any], access: Access) -> None:
    """Raise HubError unless ``access`` may begin a new game now (``msg`` its request)."""
    busy = in_progress(hub)
    needs = may_end_game(
        access.role, in_progress=busy, referee_link=hub.opts.mode != "sim" or hub.club is not None
    )
    if needs is Ending.FREE:
        return
    what = lost(hub)
    if needs is Ending.REFEREE:
        raise HubError(
            Text(
                f"dit zou {what.nl} beëindigen: alleen de link van de scheidsrechter begint "
                "nu een nieuw spel",
                f"this would end {what.en}: only the referee's link starts a new game now",
            )
        )
    game = hub.session.game
    confirm = msg.get("confirm")
    if isinstance(confirm, int) and not isinstance(confirm, bool) and confirm == game:
        return
    question = Text(
        f"Dit beëindigt {what.nl}: het blijft in het journaal, maar dit bord speelt het niet "
        "verder. Toch beginnen?",
        f"This ends {what.en}: it stays in the journal, but this board will not play it "
        "on. Start anyway?",
    )
    raise HubError(
        Text(f"eerst bevestigen: {what.nl} eindigt", f"confirm first: {what.en} would end"),
        {"confirm": {"game": game, "text": question.as_dict()}},
    )
