"""A newly built board with faults, and a patient builder who does what the selftest's
prompts say: ``keezbord selftest --sim`` and the selftest's tests (keezbord/host/selftest.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from keezbord.host.drivers.switches import SwitchChange, WiringLike
from keezbord.host.selftest import Ask, Prompt, ShowLeds, Skip, WalkInput
from keezbord.host.sim.chain import ChainFaults

FAULT_EXAMPLE = (
    "swap:T3,T4;led-swap:T1,T2;missing:T7;dead:T8;chatter:T9;flaky:T10;stuck:N0.1;"
    "dark:T11;crosstalk:T12,T13;no-pico;open;signature:0x5A;cut:2"
)
FLAKY_FLIPS = (0, 160, 260, 440, 500)  # ms after the pawn lands (or the finger presses)


@dataclass
class SimFaults:
    """Faults to build into a simulated board (hole names)."""

    swapped: list[tuple[str, str]] = field(default_factory=list)  # switch wires crossed
    missing: list[str] = field(default_factory=list)  # no switch (or a dead one)
    chatter: list[str] = field(default_factory=list)  # flickers when a pawn sits on it
    stuck: list[str] = field(default_factory=list)  # closed all the time
    led_swapped: list[tuple[str, str]] = field(default_factory=list)  # LED chain crossed
    flaky: list[str] = field(default_factory=list)  # a cold joint: opens when pressed on
    dark: list[str] = field(default_factory=list)  # the LED under the hole stays dark
    crosstalk: list[tuple[str, str]] = field(default_factory=list)  # a pawn closes both
    chain: ChainFaults = field(default_factory=ChainFaults)  # the link and the chain

    @classmethod
    def parse(cls, text: str) -> SimFaults:
        """``swap:T3,T4;missing:T7;chatter:T9;stuck:N0.1;led-swap:T1,T2``, and the link
        and chain faults ``no-pico``, ``open``, ``signature:0x5A``, ``cut:2`` (FAULT_EXAMPLE)."""
        f = cls()
        for part in filter(None, (p.strip() for p in text.split(";"))):
            kind, _, arg = part.partition(":")
            holes = [h.strip() for h in arg.split(",") if h.strip()]
            pairs = {"swap": f.swapped, "led-swap": f.led_swapped, "crosstalk": f.crosstalk}
            if kind in pairs and len(holes) == 2:
                pairs[kind].append((holes[0], holes[1]))
            elif kind in ("missing", "dead", "chatter", "stuck", "flaky", "dark") and holes:
                getattr(f, "missing" if kind == "dead" else kind).extend(holes)
            elif kind == "no-pico" and not arg:
                f.chain.no_pico = True
            elif kind == "open" and not arg:
                f.chain.open_line = True
            elif kind in ("signature", "cut") and _byte(arg) is not None:
                if kind == "signature":
                    f.chain.signature = _byte(arg)
                else:
                    f.chain.cut_after = _byte(arg)
            else:
                raise ValueError(f"bad fault {part!r} (e.g. {FAULT_EXAMPLE})")
        return f


def _byte(text: str) -> int | None:
    try:
        v = int(text.strip(), 0)
    except ValueError:
        return None
    return v if 0 <= v <= 255 else None


class SimBoard:
    """A built board with faults, and a patient builder who does what the prompts say:
    puts a pawn on the hole that is physically lit, lifts it when asked, gives up on a
    hole after 5 s when nothing happens (types ``s``), and when the walk moves on by
    itself (its timeout) takes the pawn along to the hole lit next, giving up on the
    old hole rather than skipping the new one."""

    def __init__(
        self, wiring: WiringLike, faults: SimFaults | None = None, react_ms: int = 400
    ) -> None:
        self.wiring = wiring
        f = faults or SimFaults()
        holes = [h for h in wiring.switch_order if h is not None]
        for h in [
            *f.missing,
            *f.chatter,
            *f.stuck,
            *f.flaky,
            *f.dark,
            *(x for p in f.crosstalk for x in p),
            *(x for p in f.swapped for x in p),
            *(x for p in f.led_swapped for x in p),
        ]:
            if h not in holes:
                raise ValueError(f"fault names {h!r}, which is not a hole of this board")
        # the switch physically under each hole, and the hole physically above each LED
        self.switch_under: dict[str, int | None] = {h: wiring.switch_index(h) for h in holes}
        for a, b in f.swapped:
            self.switch_under[a], self.switch_under[b] = (
                self.switch_under[b],
                self.switch_under[a],
            )
        for h in f.missing:
            self.switch_under[h] = None
        self.above_led: dict[int, str] = {wiring.led_index(h): h for h in holes}
        for a, b in f.led_swapped:
            ia, ib = wiring.led_index(a), wiring.led_index(b)
            self.above_led[ia], self.above_led[ib] = b, a
        self.chatter = set(f.chatter)
        self.flaky = set(f.flaky)
        self.dark = {wiring.led_index(h) for h in f.dark}
        self.crosstalk: dict[str, set[str]] = {}
        for a, b in f.crosstalk:
            self.crosstalk.setdefault(a, set()).add(b)
            self.crosstalk.setdefault(b, set()).add(a)
        self.stuck = {s for h in f.stuck if (s := self.switch_under[h]) is not None}
        self.react_ms = react_ms
        self.lit: str | None = None  # the physical hole under the lit LED
        self.pawn: str | None = None
        self._todo: list[tuple[int, WalkInput]] = []
        self._ask: Ask | None = None
        self._asked_at: int | None = None
        self._named: str | None = None  # the hole the last prompt names
        self.log: list[str] = []

    def closed_at_start(self) -> frozenset[int]:
        return frozenset(self.stuck)

    def apply(self, effect: ShowLeds | Prompt) -> None:
        if isinstance(effect, ShowLeds):
            self.lit = None
            for hole, role in effect.frame.items():
                led = self.wiring.led_index(hole)
                if role == "target" and led not in self.dark:
                    self.lit = self.above_led[led]
        else:
            self.log.append(effect.text.en)
            if effect.ask == "place":
                # A new hole is lit: whatever the builder meant for the last one (giving
                # up on it, a flicker) is moot.
                self._todo = [(t, i) for t, i in self._todo if not isinstance(i, Skip)]
            if effect.ask != "info":
                self._ask, self._asked_at = effect.ask, None
                self._named = effect.hole

    def poll(self, now: int) -> list[WalkInput]:
        if self._ask is not None and self._asked_at is None:
            self._asked_at = now
        if (
            self._ask is not None
            and self._asked_at is not None
            and now - self._asked_at >= self.react_ms
        ):
            self._act(now)
            self._ask = None
        due = [inp for t, inp in self._todo if t <= now]
        self._todo = [(t, inp) for t, inp in self._todo if t > now]
        return due

    def lit_answer(self, hole: str) -> str:
        """What the builder answers in the LED-only walk with ``hole`` lit: Enter (the
        hole named is lit), the hole that is lit, or n (none)."""
        led = self.wiring.led_index(hole)
        if led in self.dark:
            return "n"
        lit = self.above_led[led]
        return "" if lit == hole else lit

    def press_joints(self, now: int, start: int) -> list[SwitchChange]:
        """The builder presses on every joint in turn in the live view (a second each,
        from ``start``): a flaky one's switch flips under the finger."""
        out = []
        for k, hole in enumerate(sorted(self.flaky)):
            s = self.switch_under[hole]
            t0 = start + 1000 * k
            for n, dt in enumerate(FLAKY_FLIPS):
                if s is not None and t0 + dt == now:
                    out.append(SwitchChange(now, s, n % 2 == 0))
            if s is not None and now == t0 + 700:
                out.append(SwitchChange(now, s, False))
        return out

    def _act(self, now: int) -> None:
        if self._ask == "place" and self.lit is None:  # nothing lit: give up on the hole
            self._todo.append((now + 5000, Skip(now + 5000)))
        elif self._ask == "place" and self.lit is not None:
            if self.pawn is not None and self.pawn != self.lit:
                self._lift(now)  # the walk moved on without asking: the pawn comes along
            self.pawn = self.lit
            s = self.switch_under[self.lit]
            if s is None or s in self.stuck:  # nothing changes: the builder gives up
                self._todo.append((now + 5000, Skip(now + 5000)))
            else:
                self._todo.append((now, SwitchChange(now, s, True)))
                for other in sorted(self.crosstalk.get(self.pawn, ())):
                    so = self.switch_under[other]
                    if so is not None and so not in self.stuck:
                        self._todo.append((now + 20, SwitchChange(now + 20, so, True)))
                if self.pawn in self.flaky:
                    for n, dt in enumerate(FLAKY_FLIPS[1:], 1):
                        self._todo.append((now + dt, SwitchChange(now + dt, s, n % 2 == 0)))
                if self.pawn in self.chatter:
                    for k in range(1, 7):
                        self._todo.append((now + 20 * k, SwitchChange(now + 20 * k, s, k % 2 == 0)))
        elif self._ask == "lift" and self.pawn is not None:
            self._lift(now)
        elif self._ask == "confirm" and self.pawn is not None and self._named is not None:
            # by the hole's name (the template), not the light: lift, then put it there
            self._lift(now)
            self.pawn = self._named
            s = self.switch_under[self._named]
            later = now + self.react_ms
            if s is None or s in self.stuck:
                self._todo.append((later + 5000, Skip(later + 5000)))
            else:
                self._todo.append((later, SwitchChange(later, s, True)))

    def _lift(self, now: int) -> None:
        assert self.pawn is not None
        for hole in (self.pawn, *sorted(self.crosstalk.get(self.pawn, ()))):
            s = self.switch_under[hole]
            if s is not None and s not in self.stuck:
                self._todo.append((now, SwitchChange(now, s, False)))
        self.pawn = None
