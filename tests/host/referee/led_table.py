"""A referee fed by hand and the simulated person who follows its lights
(host/sim/led_person.py): the harness of the lit-move and hold tests (test_lit.py,
test_flags_put_right.py)."""

from __future__ import annotations

import random
from typing import Any

from keezbord.engine.bots import RandomBot
from keezbord.engine.cards import RANKS
from keezbord.engine.game import Game
from keezbord.engine.movegen import successor_positions
from keezbord.engine.notation import Move
from keezbord.engine.position import Position
from keezbord.engine.text import Text
from keezbord.host.events import HoleEvent, Tick
from keezbord.host.referee import Config, Decision, new_game, step
from keezbord.host.sim.led_person import ROLES, Held, carry, next_touch

WAIT = Text("blauw speelt op afstand", "blue plays remotely")


class Table:
    """A referee fed by hand, the time moving on with each touch."""

    def __init__(self, pos: Position, hints: Any = "off") -> None:
        self.t = 0
        self.state, _ = new_game(pos, 0, Config(hints=hints), turn=pos.turn)
        self.decisions: list[Decision] = []
        self.hand: list[Held] = []

    def feed(self, ev: Any) -> None:
        self.t = max(self.t, ev.t)
        self.state, effects = step(self.state, ev)
        self.decisions += [e for e in effects if isinstance(e, Decision)]

    def touch(self, action: str, hole: str) -> None:
        self.t += 300
        self.feed(HoleEvent(self.t, action, hole))  # type: ignore[arg-type]

    def rest(self, ms: int = 4000) -> None:
        self.t += ms
        self.feed(Tick(self.t))

    def follow_once(self) -> bool:
        """The person's next touch as the LEDs ask (False: they ask nothing)."""
        st = self.state
        frame = {h: r for h, r in st.leds.items() if r in ROLES}
        touch = next_touch(frame, st.sensed, self.hand)
        if touch is None:
            return False
        carry(self.hand, touch, frame)
        self.touch(*touch)
        return True

    def follow(self, limit: int = 30) -> int:
        """The person follows the LEDs until they ask nothing more; the touches made."""
        n = 0
        while n < limit:
            if not self.follow_once():
                return n
            n += 1
        raise AssertionError(f"the person kept touching: {self.state.leds}")

    def kinds(self, kind: str) -> list[Decision]:
        return [d for d in self.decisions if d.type == kind]


def positions(n: int, seed: int) -> list[Position]:
    """Positions of random bot games, a few turns apart."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < n:
        game = Game(4, "standard", rng.randrange(10**6))
        bots = [RandomBot(random.Random(rng.random())) for _ in range(4)]
        for k in range(rng.randrange(20, 120)):
            if game.over:
                break
            if game.exchange_pending:
                game.exchange(bots)
            game.play_turn(bots[game.table.turn or 0])
            if k % 17 == 16 and not game.over and game.table.turn is not None:
                out.append(game.position.replace(turn=game.table.turn))
    return out[:n]


def every_move(pos: Position) -> list[Move]:
    return [m for c in dict.fromkeys(RANKS) for m in successor_positions(pos, c).values()]
