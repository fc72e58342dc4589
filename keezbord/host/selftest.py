"""Selftest: walk a newly built board hole by hole.

For each hole in turn: light its LED as ``target``, ask the builder to put a pawn on the
lit hole, and check that the switch that closes is the one the wiring puts under that
hole (so switch and LED agree); then ask to lift it. Flags: ``swapped`` (another hole's
switch closed: its wire, or the LED chain order, is wrong), ``unmapped`` (a switch input
the wiring does not use closed), ``missing`` (nothing closed: skipped or timed out),
``chatter`` (the switch flickered while the pawn sat still), ``stuck`` (the hole's switch
was closed before its pawn came: it cannot be tested), and switches stuck closed on the
empty board. Every phase ends: a pawn that is never lifted (or a switch that stays
closed) is given up on after the timeout, a switch that never stops flickering after
``CHATTER_MAX_MS``.

The walk is a pure state machine: ``start_walk`` and ``step(walk, input, now)`` return
the new walk and effects (LED frames, prompts, the final report); ``run_walk`` drives it
with injected I/O (real hardware, or ``SimBoard`` of keezbord/host/sim/builder.py for
``keezbord selftest --sim``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from keezbord.engine.text import Text
from keezbord.host.drivers.switches import SwitchChange, WiringLike

from .selftest_report import Cause, HoleResult, Status
from .selftest_report import SelftestReport as SelftestReport  # where the walk's users find it

CHATTER_MAX_MS = 2000  # a pawn whose switch flickers this long is judged (as chatter)
Phase = Literal["place", "settle", "confirm", "lift", "done"]
Ask = Literal["place", "confirm", "lift", "info"]


@dataclass(frozen=True, slots=True)
class Skip:
    """The builder gives up on this hole (no switch closes)."""

    t: int


@dataclass(frozen=True, slots=True)
class WalkTick:
    """Time passing with no switch change (the walk's own timers: settle, give up)."""

    t: int


WalkInput = SwitchChange | Skip | WalkTick


@dataclass(frozen=True, slots=True)
class ShowLeds:
    frame: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class Prompt:
    ask: Ask
    hole: str | None
    text: Text


@dataclass(frozen=True, slots=True)
class Finished:
    report: SelftestReport


WalkEffect = ShowLeds | Prompt | Finished


@dataclass(frozen=True, slots=True)
class WalkSettings:
    settle_ms: int = 300  # a pawn must sit still this long before it is judged
    chatter_threshold: int = 3  # more transitions than this while settling: chatter
    timeout_ms: int | None = None  # per hole; None: wait for the builder (or a skip)
    confirm_swaps: bool = True  # a hole read as another: ask for the pawn by its name


@dataclass(frozen=True)
class Walk:
    wiring: WiringLike = field(compare=False)
    order: tuple[str, ...]
    settings: WalkSettings
    stuck: frozenset[int]
    i: int = 0
    phase: Phase = "place"
    results: tuple[HoleResult, ...] = ()
    closed: frozenset[int] = frozenset()
    placed: int | None = None
    transitions: int = 0
    last_change: int = 0
    phase_start: int = 0
    pending: HoleResult | None = None  # a swapped hole waiting for its pawn by name
    lifted: bool = False  # in confirm: the pawn left the lit hole

    @property
    def hole(self) -> str | None:
        return self.order[self.i] if self.i < len(self.order) else None


def _ask_place(w: Walk) -> list[WalkEffect]:
    hole = w.hole
    assert hole is not None
    n, total = w.i + 1, len(w.order)
    return [
        ShowLeds({hole: "target"}),
        Prompt(
            "place",
            hole,
            Text(
                nl=f"[{n}/{total}] zet een pion op het verlichte gat ({hole})",
                en=f"[{n}/{total}] put a pawn on the lit hole ({hole})",
            ),
        ),
    ]


def _report(w: Walk) -> SelftestReport:
    stuck = tuple(sorted(w.stuck))
    return SelftestReport(w.results, stuck, tuple(w.wiring.hole_at_switch(i) or "" for i in stuck))


def start_walk(
    wiring: WiringLike,
    closed_at_start: Iterable[int],
    now: int,
    order: Sequence[str] | None = None,
    settings: WalkSettings = WalkSettings(),
) -> tuple[Walk, list[WalkEffect]]:
    """Begin the walk. ``order``: the holes to visit (default: along the LED chain, so
    the builder follows the lit hole around the board)."""
    holes = (
        tuple(order) if order is not None else tuple(h for h in wiring.led_order if h is not None)
    )
    stuck = frozenset(closed_at_start)
    w = Walk(wiring, holes, settings, stuck, closed=stuck, phase_start=now, last_change=now)
    effects: list[WalkEffect] = []
    if stuck:
        where = ", ".join(wiring.hole_at_switch(i) or f"#{i}" for i in sorted(stuck))
        effects.append(
            Prompt(
                "info",
                None,
                Text(
                    nl=f"let op: schakelaars dicht op het lege bord: {where}",
                    en=f"note: switches closed on the empty board: {where}",
                ),
            )
        )
    w, asked = _ask_or_finish(w, now)
    return w, effects + asked


def _advance(w: Walk, result: HoleResult | None, now: int) -> tuple[Walk, list[WalkEffect]]:
    results = w.results if result is None else (*w.results, result)
    w = replace(
        w,
        i=w.i + 1,
        phase="place",
        results=results,
        placed=None,
        transitions=0,
        phase_start=now,
        last_change=now,
    )
    return _ask_or_finish(w, now)


def _ask_or_finish(w: Walk, now: int) -> tuple[Walk, list[WalkEffect]]:
    """Ask for a pawn on the walk's hole; a hole whose switch is stuck closed cannot
    tell a pawn: it is reported as such at once (no pawn asked for)."""
    while w.hole is not None and w.wiring.switch_index(w.hole) in w.stuck:
        hole = w.hole
        result = HoleResult(hole, "stuck", w.wiring.switch_index(hole), w.wiring.led_index(hole))
        w = replace(w, i=w.i + 1, results=(*w.results, result))
    if w.hole is None:
        w = replace(w, phase="done")
        return w, [ShowLeds({}), Finished(_report(w))]
    return w, _ask_place(w)


def _missing(w: Walk) -> HoleResult:
    hole = w.hole
    assert hole is not None
    return HoleResult(hole, "missing", w.wiring.switch_index(hole), w.wiring.led_index(hole))


def _judge(w: Walk) -> HoleResult:
    hole, s = w.hole, w.placed
    assert hole is not None and s is not None
    reads = w.wiring.hole_at_switch(s) if 0 <= s < len(w.wiring.switch_order) else None
    status: Status
    if reads is None:
        status = "unmapped"
    elif reads != hole:
        status = "swapped"
    elif w.transitions > w.settings.chatter_threshold:
        status = "chatter"
    else:
        status = "ok"
    return HoleResult(
        hole,
        status,
        w.wiring.switch_index(hole),
        w.wiring.led_index(hole),
        s,
        reads,
        w.transitions,
        closed_at=tuple(sorted(w.closed - w.stuck)),
    )


def step(w: Walk, inp: WalkInput, now: int) -> tuple[Walk, list[WalkEffect]]:
    """One input (a switch change, a skip or a tick) at ``now`` ms."""
    if w.phase == "done":
        return w, []
    if isinstance(inp, SwitchChange):
        closed = w.closed | {inp.index} if inp.closed else w.closed - {inp.index}
        w = replace(w, closed=closed)
        if inp.index in w.stuck:
            pass  # a stuck switch is reported once, not judged per hole
        elif w.phase == "place" and inp.closed:
            w = replace(
                w, phase="settle", placed=inp.index, transitions=1, last_change=now, phase_start=now
            )
        elif w.phase == "settle" and inp.index == w.placed:
            w = replace(w, transitions=w.transitions + 1, last_change=now)
        elif w.phase == "confirm" and inp.index == w.placed and not inp.closed:
            w = replace(w, lifted=True, last_change=now)
        elif w.phase == "confirm" and w.lifted and inp.closed and w.pending is not None:
            w = replace(w, placed=inp.index, transitions=0, last_change=now)
        elif w.phase == "lift":
            w = replace(w, last_change=now)
    elif isinstance(inp, Skip) and w.phase in ("place", "settle"):
        return _advance(w, _missing(w), now)
    elif isinstance(inp, Skip) and w.phase == "lift":
        return _give_up_lift(w, now)
    elif isinstance(inp, Skip) and w.phase == "confirm" and w.pending is not None:
        return _to_lift(w, w.pending, now)

    st = w.settings
    timed_out = st.timeout_ms is not None and now - w.phase_start >= st.timeout_ms
    if w.phase == "place" and timed_out:
        return _advance(w, _missing(w), now)
    settled = now - w.last_change >= st.settle_ms
    if w.phase == "settle" and (settled or now - w.phase_start >= CHATTER_MAX_MS):
        if w.placed not in w.closed:  # the pawn did not stay: wait for it again
            return replace(w, phase="place", placed=None, transitions=0, phase_start=now), []
        result = _judge(w)
        if (
            result.status == "swapped" and w.settings.confirm_swaps
        ):  # the LED or the switch? the pawn by the hole's name
            w = replace(w, phase="confirm", pending=result, lifted=False, phase_start=now)
            return w, [_ask_confirm(w.hole, result)]
        return _to_lift(w, result, now)
    if w.phase == "confirm":
        return _confirm(w, now, timed_out)
    if w.phase == "lift" and not (w.closed - w.stuck) and settled:
        return _advance(w, None, now)
    if w.phase == "lift" and timed_out:
        return _give_up_lift(w, now)
    return w, []


def _ask_confirm(hole: str | None, r: HoleResult) -> Prompt:
    return Prompt(
        "confirm",
        hole,
        Text(
            nl=f"schakelaar {r.switch} ({r.reads_as}) sloot in plaats van die van {hole}: "
            f"til de pion op en zet hem op het gat dat {hole} heet (op de mal, niet op het "
            "licht)",
            en=f"switch {r.switch} ({r.reads_as}) closed instead of {hole}'s: lift the pawn "
            f"and put it on the hole named {hole} (by the template, not by the light)",
        ),
    )


def _confirm(w: Walk, now: int, timed_out: bool) -> tuple[Walk, list[WalkEffect]]:
    """The pawn put on the hole by its name, settled: its own switch closing says the
    LED was in the wrong place; the same wrong switch again says the switch's wire is."""
    r = w.pending
    assert r is not None
    if timed_out:
        return _to_lift(w, r, now)
    if not w.lifted or w.placed is None or w.placed not in w.closed:
        return w, []
    if now - w.last_change < w.settings.settle_ms:
        return w, []
    cause: Cause | None = (
        "led" if w.placed == r.expected_switch else "switch" if w.placed == r.switch else None
    )
    return _to_lift(w, replace(r, cause=cause, confirm_switch=w.placed), now)


def _to_lift(w: Walk, result: HoleResult, now: int) -> tuple[Walk, list[WalkEffect]]:
    w = replace(
        w,
        phase="lift",
        results=(*w.results, result),
        pending=None,
        phase_start=now,
        last_change=now,
    )
    return w, [Prompt("lift", w.hole, Text(nl="haal de pion weg", en="lift the pawn"))]


def _give_up_lift(w: Walk, now: int) -> tuple[Walk, list[WalkEffect]]:
    """The pawn was not lifted in time (or the hole was skipped): a switch still closed
    is stuck from now on (reported with those closed on the empty board, and never
    taken for the next hole's pawn)."""
    return _advance(replace(w, stuck=w.stuck | (w.closed - w.stuck)), None, now)


# --- driving it ---------------------------------------------------------------------------


def link_led_show(link: Any, renderer: Any) -> Callable[[Mapping[str, str], int], object]:
    """The selftest's LED output over the Pico link: the walk shows its frame at every
    poll (every 5 ms), but only a change reaches the link, as one span, at most 20
    updates a second (SerialLink.set_leds); the firmware animates the patterns. As in
    play, the host applies the brightness and the Pico its own current cap (or a lower
    configured budget)."""
    budget = renderer.settings.budget_ma
    link.send_config(255, int(budget) if budget else 0)

    def show(frame: Mapping[str, str], now: int) -> object:
        colours, ids = renderer.base(frame)
        return link.set_leds(colours, ids)

    return show


class WalkIO(Protocol):
    def poll(self, now: int) -> list[WalkInput]:
        """Switch changes (and skips) since the last poll."""
        ...

    def apply(self, effect: ShowLeds | Prompt) -> None: ...


def run_walk(
    walk: Walk,
    effects: list[WalkEffect],
    io: WalkIO,
    clock: Callable[[], int],
    wait: Callable[[], None] = lambda: None,
    max_ms: int | None = None,
) -> SelftestReport | None:
    """Drive the walk until it finishes (its report) or ``max_ms`` pass (None)."""
    pending = list(effects)
    start = clock()
    while True:
        for e in pending:
            if isinstance(e, Finished):
                return e.report
            io.apply(e)
        pending = []
        now = clock()
        if max_ms is not None and now - start > max_ms:
            return None
        for inp in io.poll(now) or [WalkTick(now)]:
            walk, effs = step(walk, inp, now)
            pending += effs
        wait()
