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


@dataclass(frozen=True, slots=True)
class HoleResult:
    hole: str
    status: Status
    expected_switch: int
    led: int
    switch: int | None = None  # the switch that closed
    reads_as: str | None = None  # the hole the wiring puts on that switch
    transitions: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "hole": self.hole,
            "status": self.status,
            "expected_switch": self.expected_switch,
            "led": self.led,
            "switch": self.switch,
            "reads_as": self.reads_as,
            "transitions": self.transitions,
        }


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
        for a, b in self.swapped_pairs():
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
        lines.append(
            t("Resultaat: in orde", "Result: all fine")
            if self.ok
            else t("Resultaat: NIET in orde", "Result: NOT fine")
        )
        return "\n".join(lines) + "\n"
