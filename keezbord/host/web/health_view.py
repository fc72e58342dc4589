"""The board's health as the page shows it in run mode: the sensors (chatter, stuck
switches), the driver's link and the journal's writes (journal_notice.py), and the key
that says when it changed enough to broadcast (ages and counters of good frames aside).
``HealthWatch`` keeps it over a game for the hub."""

from __future__ import annotations

from typing import Any

from keezbord.engine.position import NEST
from keezbord.host.events import HoleEvent
from keezbord.host.health import HealthMonitor
from keezbord.host.referee import RefereeState, colours
from keezbord.host.selftest_live import chips_view
from keezbord.host.session import GameSession

from .journal_notice import journal_health as journal_health  # (for hub.py too)
from .journal_notice import journal_notice as journal_notice  # (for page_view.py)


class HealthWatch:
    """The sensors over a game: the monitor fed every hole event, the holes a full read
    found changed (this turn), and the key of the health last broadcast."""

    def __init__(self, st: RefereeState) -> None:
        self.reset(st)

    def reset(self, st: RefereeState) -> None:
        """A new game (or the hub opened): every switch as the referee senses it now."""
        self.monitor = HealthMonitor(st.pos.topology.hole_names, st.sensed, start=st.now)
        self.resynced: set[str] = set()
        self._key: Any = None

    def observe(self, ev: HoleEvent) -> None:
        self.monitor.observe(ev)

    def resync(self, t: int, holes: frozenset[str], sensed: frozenset[str]) -> None:
        """A full read ``holes`` where the referee sensed ``sensed``: the differences
        are hole events the switches never reported."""
        self.resynced |= holes ^ sensed
        for h in sorted(holes ^ sensed):
            self.monitor.observe(HoleEvent(t, "place" if h in holes else "lift", h))

    def new_turn(self) -> None:
        self.resynced.clear()

    def view(
        self, st: RefereeState, driver: object, now: int, session: GameSession | None = None
    ) -> dict[str, Any]:
        """The board's health; with ``session``, its journal's too (journal_notice.py)."""
        out = board_health(self.monitor, st, self.resynced, driver, now)
        if session is not None:
            out["journal"] = journal_health(session)
        return out

    def news(self, h: dict[str, Any]) -> bool:
        """``h`` differs from the health last broadcast enough to tell the pages."""
        key = health_key(h)
        if key == self._key:
            return False
        self._key = key
        return True


def board_health(
    monitor: HealthMonitor, st: RefereeState, resynced: set[str], driver: object, now: int
) -> dict[str, Any]:
    """``resynced``: holes found closed by a full read (at start), never seen to close."""
    summary = monitor.summary(now, expected_closed(monitor, st, resynced))
    sensors = {**summary.to_dict(), "bad": list(summary.bad_holes)}
    del sensors["never_changed"]  # the selftest's business, not the game's
    link = None
    health = getattr(driver, "health", None)
    if callable(health):
        try:
            link = health()
        except Exception as e:  # shown on the page, not fatal
            link = {"ok": False, "error": repr(e)}
    return {"sensors": sensors, "link": link, "chips": chip_bits(monitor, st, driver)}


def chip_bits(monitor: HealthMonitor, st: RefereeState, driver: object) -> list[Any] | None:
    """Every chip's inputs as the referee senses them, with each switch's changes (the
    selftest's live view on the page: a bit that flips while nobody plays is a loose
    joint); None for a driver with no wiring (the simulator)."""
    wiring = getattr(driver, "wiring", None)
    if wiring is None:
        return None
    order = wiring.switch_order
    closed = [i for i, h in enumerate(order) if h is not None and h in st.sensed]
    changes = [0 if h is None else _transitions(monitor, h) for h in order]
    view: list[Any] = chips_view(wiring, len(order), closed, changes)["chips"]
    return view


def _transitions(monitor: HealthMonitor, hole: str) -> int:
    try:
        return monitor.transitions(hole)
    except KeyError:  # a hole the game's topology does not have
        return 0


def expected_closed(monitor: HealthMonitor, st: RefereeState, resynced: set[str]) -> set[str]:
    """The closed switches that are no stuck switch: where the game has a pawn on the
    track or at home; in a nest, as many as the nest has pawns (they sit in any of its
    holes, as the referee counts them: a pawn taken from N0.1 leaves N0.4 closed); and
    holes a pawn was put on this turn (a pawn put there by mistake is the referee's
    flag, not a stuck switch; a switch found closed by a full read counts)."""
    expected = set(colours(st.pos)) | (st.touched - resynced)
    for seat, locs in enumerate(st.pos.pawns):
        holes = [f"N{seat}.{k}" for k in range(1, 5)]
        room = sum(1 for loc in locs if loc == NEST) - sum(1 for h in holes if h in expected)
        closed = [h for h in holes if h in st.sensed and h not in expected]
        # More closed than pawns: the suspects are the ones closed longest (a switch
        # stuck closed never opened when its pawn was taken).
        closed.sort(key=lambda h: -(monitor.closed_since(h) or 0))
        expected.update(closed[: max(0, room)])
    return expected


def health_key(h: dict[str, Any]) -> tuple[Any, ...]:
    """What must change for the page to be told: good frames and ages do not count.
    The simulator's health is its journal's alone (no sensors, no link)."""
    link = h.get("link") or {}
    sensors = h.get("sensors") or {}
    return (
        sensors.get("ok"),
        tuple(sensors.get("bad", ())),
        link.get("ok"),
        link.get("connected"),
        link.get("frames_bad"),
        link.get("gaps"),
        link.get("chain_ok"),
        link.get("broken_reads"),
        link.get("error"),
        (link.get("leds") or {}).get("ok"),
        (link.get("leds") or {}).get("error"),
        (link.get("reader") or {}).get("ok"),
        str((h.get("journal") or {}).get("text")),
    )
