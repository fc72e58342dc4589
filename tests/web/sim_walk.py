"""A simulator hub driven without a browser or a loop, on a clock the test moves: the
page's requests (``click`` does what board.js's click does), the referee's timers fired
as the hub's ticker would, the hub's ``call_soon`` run at once. For tests that make many
click sequences (the drawing and the referee agree)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from web_helpers import sim_hub_at

from keezbord.engine.position import NEST
from keezbord.host.referee import RefereeState, colours, nest_seat
from keezbord.host.roles import Role
from keezbord.host.web.hub import Hub, HubError

HUMAN_PACE_MS = 150  # between two clicks: more than the referee's bounce time


class Walk:
    def __init__(
        self,
        db: Path,
        seed: int = 1,
        pawns: list[list[str]] | None = None,
        kinds: list[str] | None = None,
    ) -> None:
        pawns = pawns or [["N"] * 4] * 4
        kinds = kinds or ["human"] + ["greedy"] * (len(pawns) - 1)
        self.hub: Hub = sim_hub_at(db, seed, pawns, kinds)()
        self.t = self.hub.session.state.now + 1
        self.hub.now = lambda: self.t  # type: ignore[method-assign]
        self.pending: list[Callable[[], None]] = []
        self.sent: list[str] = []  # what was asked, for a failing test's story
        self.hub.call_soon = self.pending.append  # type: ignore[method-assign,assignment]

    @property
    def st(self) -> RefereeState:
        return self.hub.session.state

    def send(self, **msg: Any) -> str | None:
        """A page's request; the player's error text (English) when refused."""
        self.t += HUMAN_PACE_MS
        self.sent.append(" ".join(str(v) for v in msg.values()))
        try:
            self.hub.request(msg, Role.REFEREE)
        except HubError as e:
            return e.text.en
        finally:
            self._run()
        return None

    def _run(self) -> None:
        while self.pending:
            self.pending.pop(0)()

    def wait(self, ms: int = 4000) -> None:
        """Time passes: the referee's deadlines fire as the ticker fires them."""
        end = self.t + ms
        while self.t < end:
            self.t += 40
            effects = self.hub.session.tick(self.t)
            if effects and not (self.sent and self.sent[-1] == "wait"):
                self.sent.append("wait")
            if effects:
                self.hub._after(effects)
            self._run()

    def lesson(self, lesson_id: str, step: int) -> None:
        self.send(type="lesson", lesson=lesson_id, step=step, learner="walker")
        self.wait(200)

    def state(self) -> dict[str, Any]:
        return self.hub.page_state()

    def click(self, hole: str, pawn: int | None = None) -> str | None:
        """What board.js does with a click on ``hole``: a lit target with a pawn in hand
        captures (the victim lifted, the mover put down), an occupied hole lifts, an
        empty one puts down the pawn in hand (``pawn``: which one, else the last)."""
        s = self.state()
        held = s["held"]
        if any(p["hole"] == hole for p in s["pawns"]):
            if held and s["leds"].get(hole) in ("target", "hint"):
                mover = len(held) - 1 if pawn is None else pawn
                self.send(type="lift", hole=hole)
                return self.send(type="place", hole=hole, pawn=mover)
            return self.send(type="lift", hole=hole)
        if held:
            msg: dict[str, Any] = {"type": "place", "hole": hole}
            if pawn is not None:
                msg["pawn"] = pawn
            return self.send(**msg)
        return None

    def drawn(self) -> dict[str, int | None]:
        return {p["hole"]: p["seat"] for p in self.state()["pawns"]}

    def drawn_is_position(self) -> bool:
        """The drawn board is the referee's position, colours and all: track and home
        holes as the position has them, each nest's pawns in it."""
        pos = self.st.pos
        drawn = self.drawn()
        want = colours(pos)
        track = {h: s for h, s in drawn.items() if nest_seat(h) is None}
        nests = [0] * pos.seats
        for h, s in drawn.items():
            n = nest_seat(h)
            if n is not None:
                if s != n:
                    return False
                nests[n] += 1
        in_nest = [sum(1 for loc in locs if loc == NEST) for locs in pos.pawns]
        return track == want and nests == in_nest and not self.state()["held"]
