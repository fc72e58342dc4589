"""The selftest's report (keezbord/host/selftest.py walks the board): one result per
hole, the switches stuck closed, and the report as JSON and as text in Dutch or English.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from keezbord.engine.text import Text

Status = Literal["ok", "swapped", "unmapped", "missing", "chatter", "stuck"]
STATUSES: tuple[Status, ...] = ("ok", "swapped", "unmapped", "missing", "chatter", "stuck")
Cause = Literal["led", "switch"]  # of a swapped hole: found with the pawn put by name


@dataclass(frozen=True, slots=True)
class HoleResult:
    hole: str
    status: Status
    expected_switch: int
    led: int
    switch: int | None = None  # the switch that closed
    reads_as: str | None = None  # the hole the wiring puts on that switch
    transitions: int = 0
    cause: Cause | None = None  # swapped: the LED or the switch is in the wrong place
    confirm_switch: int | None = None  # what closed with the pawn put by the hole's name
    closed_at: tuple[int, ...] = ()  # every switch closed when the pawn was judged

    def to_dict(self) -> dict[str, Any]:
        return {
            "hole": self.hole,
            "status": self.status,
            "expected_switch": self.expected_switch,
            "led": self.led,
            "switch": self.switch,
            "reads_as": self.reads_as,
            "transitions": self.transitions,
            "cause": self.cause,
            "confirm_switch": self.confirm_switch,
            "closed_at": list(self.closed_at),
        }


def _pin(bit: int | None) -> str:
    from keezbord.hardware.wiring import chip_pin, input_pin

    if bit is None:
        return "?"
    chip, name = chip_pin(bit)
    return f"chip {chip} {name} (pin {input_pin(bit)})"


def swap_advice(r: HoleResult) -> Text:
    """Which of the two is wrong, the LED or the switch, and what to check."""
    if r.cause == "led":
        return Text(
            nl=f"de schakelaar klopt; de LED is verkeerd: LED {r.led} brandt onder "
            f"{r.reads_as}, niet onder {r.hole}: controleer de volgorde van de LED-keten "
            "(DIN/DOUT-draden) bij deze gaten",
            en=f"the switch is right; the LED is wrong: LED {r.led} sits under "
            f"{r.reads_as}, not under {r.hole}: check the LED chain's order (the DIN/DOUT "
            "wires) at these holes",
        )
    if r.cause == "switch":
        return Text(
            nl=f"de LED klopt; de schakelaar is verkeerd aangesloten: die onder {r.hole} "
            f"zit op {_pin(r.switch)} in plaats van {_pin(r.expected_switch)}: "
            "controleer die twee draden",
            en=f"the LED is right; the switch is wired wrong: the one under {r.hole} is on "
            f"{_pin(r.switch)} instead of {_pin(r.expected_switch)}: check those two wires",
        )
    return Text(
        nl=f"LED of schakelaar: niet vastgesteld (de pion op {r.hole} op naam gaf "
        f"schakelaar {r.confirm_switch}); controleer de LED-volgorde en de draden van "
        f"{_pin(r.switch)} en {_pin(r.expected_switch)}",
        en=f"the LED or the switch: not found out (the pawn on {r.hole} by its name gave "
        f"switch {r.confirm_switch}); check the LED order and the wires of "
        f"{_pin(r.switch)} and {_pin(r.expected_switch)}",
    )


@dataclass(frozen=True, slots=True)
class SelftestReport:
    results: tuple[HoleResult, ...]
    stuck_switches: tuple[int, ...]  # closed on the empty board
    stuck_holes: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.stuck_switches and all(r.status == "ok" for r in self.results)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = dict.fromkeys(STATUSES, 0)
        for r in self.results:
            out[r.status] += 1
        return out

    def swapped_pairs(self) -> list[tuple[str, str]]:
        """Holes that each read as the other: two switch wires (or LEDs) crossed."""
        reads = {r.hole: r.reads_as for r in self.results if r.status == "swapped"}
        return sorted(
            {
                tuple(sorted((a, b)))  # type: ignore[misc]
                for a, b in reads.items()
                if b is not None and reads.get(b) == a
            }
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "counts": self.counts(),
            "stuck_switches": list(self.stuck_switches),
            "stuck_holes": list(self.stuck_holes),
            "swapped_pairs": [list(p) for p in self.swapped_pairs()],
            "holes": [r.to_dict() for r in self.results],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    def to_text(self, lang: str) -> str:
        def t(nl: str, en: str) -> str:
            return Text(nl, en).get(lang)

        c = self.counts()
        lines = [
            t("Zelftest van het bord", "Board selftest"),
            t(
                f"{len(self.results)} gaten: {c['ok']} goed, {c['swapped']} verwisseld, "
                f"{c['unmapped']} onbekende schakelaar, {c['missing']} geen signaal, "
                f"{c['chatter']} dendert, {c['stuck']} vast",
                f"{len(self.results)} holes: {c['ok']} ok, {c['swapped']} swapped, "
                f"{c['unmapped']} unmapped switch, {c['missing']} missing, "
                f"{c['chatter']} chattering, {c['stuck']} stuck",
            ),
        ]
        if self.stuck_switches:
            where = ", ".join(
                h or f"#{i}" for i, h in zip(self.stuck_switches, self.stuck_holes, strict=True)
            )
            lines.append(
                t(
                    f"schakelaars dicht op het lege bord (vast of een pion vergeten): {where}",
                    f"switches closed on the empty board (stuck, or a pawn left on it): {where}",
                )
            )
        causes = {r.hole: r.cause for r in self.results}
        for a, b in self.swapped_pairs():
            what = causes.get(a) if causes.get(a) == causes.get(b) else None
            if what == "led":
                lines.append(
                    t(
                        f"de LED's van {a} en {b} zijn verwisseld",
                        f"the LEDs of {a} and {b} are swapped",
                    )
                )
            elif what == "switch":
                lines.append(
                    t(
                        f"de schakelaars van {a} en {b} zijn verwisseld",
                        f"the switches of {a} and {b} are swapped",
                    )
                )
            else:
                lines.append(t(f"{a} en {b} zijn verwisseld", f"{a} and {b} are swapped"))
        for r in self.results:
            if r.status == "ok":
                continue
            msg = {
                "swapped": t(
                    f"LED {r.led} brandde, maar schakelaar {r.switch} ({r.reads_as})"
                    f" sloot in plaats van {r.expected_switch}",
                    f"LED {r.led} was lit, but switch {r.switch} ({r.reads_as}) "
                    f"closed instead of {r.expected_switch}",
                ),
                "unmapped": t(
                    f"schakelaar {r.switch} sloot; die hoort bij geen gat",
                    f"switch {r.switch} closed; no hole is wired to it",
                ),
                "missing": t(
                    f"geen schakelaar sloot (verwacht: {r.expected_switch})",
                    f"no switch closed (expected: {r.expected_switch})",
                ),
                "chatter": t(
                    f"schakelaar {r.switch} dendert ({r.transitions} wissels)",
                    f"switch {r.switch} chatters ({r.transitions} changes)",
                ),
                "stuck": t(
                    f"schakelaar {r.expected_switch} was al dicht (vast): niet te testen",
                    f"switch {r.expected_switch} was closed already (stuck): not tested",
                ),
            }[r.status]
            lines.append(f"  {r.hole}: {msg}")
            if r.status == "swapped":
                lines.append(f"    {swap_advice(r).get(lang)}")
        lines.append(
            t("Resultaat: in orde", "Result: all fine")
            if self.ok
            else t("Resultaat: NIET in orde", "Result: NOT fine")
        )
        return "\n".join(lines) + "\n"
