"""The LED-only walk (``keezbord selftest --leds``): before any switch is in, light each
hole's LED in turn and let the builder say whether the lit hole is the one named: Enter
if it is, the name of the hole that lit if another, ``n`` if none did. And the test
piece's report (``--test-piece``): pull-in at each hole, crosstalk to its neighbours."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from keezbord.engine.text import Text
from keezbord.host.drivers.switches import WiringLike
from keezbord.host.selftest_report import HoleResult


@dataclass(frozen=True, slots=True)
class LedResult:
    hole: str
    led: int
    lit: str | None  # the hole that lit (None: none)


def led_walk(
    holes: Sequence[str],
    wiring: WiringLike,
    show: Callable[[Mapping[str, str]], object],
    ask: Callable[[str, int, Text], str],
) -> list[LedResult]:
    """Light each hole (as ``target``), ask; ``ask`` returns the builder's answer."""
    out = []
    for n, hole in enumerate(holes, 1):
        led = wiring.led_index(hole)
        show({hole: "target"})
        prompt = Text(
            nl=f"[{n}/{len(holes)}] LED {led} hoort onder {hole}: Enter als {hole} brandt, "
            "anders de naam van het gat dat brandt, of n als er niets brandt",
            en=f"[{n}/{len(holes)}] LED {led} belongs under {hole}: Enter if {hole} is lit, "
            "else the name of the hole that is lit, or n if none is",
        )
        answer = ask(hole, led, prompt).strip()
        lit = hole if answer == "" else None if answer.lower() in ("n", "no", "nee") else answer
        out.append(LedResult(hole, led, lit))
    show({})
    return out


def led_report(results: Sequence[LedResult], lang: str) -> tuple[bool, str]:
    def t(nl: str, en: str) -> str:
        return Text(nl, en).get(lang)

    bad = [r for r in results if r.lit != r.hole]
    lines = [t("LED-test van het bord", "Board LED test")]
    lines.append(
        t(
            f"{len(results)} LED's: {len(results) - len(bad)} goed",
            f"{len(results)} LEDs: {len(results) - len(bad)} ok",
        )
    )
    for r in bad:
        if r.lit is None:
            lines.append(
                t(
                    f"  {r.hole}: LED {r.led} brandt niet: controleer 5 V en GND bij deze LED en "
                    "de datadraad (DOUT van de vorige naar DIN)",
                    f"  {r.hole}: LED {r.led} stays dark: check 5 V and GND at this LED and the "
                    "data wire (the previous LED's DOUT to its DIN)",
                )
            )
        else:
            lines.append(
                t(
                    f"  {r.hole}: LED {r.led} brandt onder {r.lit}: de LED-keten loopt hier in "
                    "een andere volgorde dan de bedrading",
                    f"  {r.hole}: LED {r.led} lights {r.lit}: the LED chain runs in another "
                    "order than the wiring here",
                )
            )
    lines.append(
        t("Resultaat: in orde", "Result: all fine")
        if not bad
        else t("Resultaat: NIET in orde", "Result: NOT fine")
    )
    return not bad, "\n".join(lines) + "\n"


def offcut_report(results: Sequence[HoleResult], lang: str) -> tuple[bool, str]:
    """Per placement: did the hole's own switch pull in, did a neighbour's close too?"""

    def t(nl: str, en: str) -> str:
        return Text(nl, en).get(lang)

    names = {r.expected_switch: r.hole for r in results}
    lines = [
        t(
            "Testplankje: drie gaten op de eerste drie ingangen",
            "Test piece: three holes on the first three inputs",
        )
    ]
    good = True
    for r in results:
        pulled = r.expected_switch in r.closed_at
        others = [names.get(i, f"#{i}") for i in r.closed_at if i != r.expected_switch]
        good = good and pulled and not others and r.status != "chatter"
        pull = t("trekt aan", "pulls in") if pulled else t("trekt NIET aan", "does NOT pull in")
        cross = (
            t("geen overspraak", "no crosstalk")
            if not others
            else t(f"OVERSPRAAK naar {', '.join(others)}", f"CROSSTALK to {', '.join(others)}")
        )
        extra = t(" (dendert)", " (chatters)") if r.status == "chatter" else ""
        lines.append(
            t(
                f"  pion op {r.hole}: {pull}, {cross}{extra}",
                f"  pawn on {r.hole}: {pull}, {cross}{extra}",
            )
        )
    if not good:
        lines.append(
            t(
                "Geen aantrekking: schakelaar te diep of magneet te zwak; overspraak: de "
                "schakelaars te dicht bij elkaar of te gevoelig (docs/hardware.md)",
                "No pull-in: the switch sits too deep or the magnet is too weak; crosstalk: the "
                "switches sit too close or are too sensitive (docs/hardware.md)",
            )
        )
    lines.append(
        t("Resultaat: in orde", "Result: all fine")
        if good
        else t("Resultaat: NIET in orde", "Result: NOT fine")
    )
    return good, "\n".join(lines) + "\n"
