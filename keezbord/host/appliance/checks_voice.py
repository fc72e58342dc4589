"""``doctor``'s checks of the board's speaker (``[voice]``, docs/voice.md), only when its
level is not off: espeak-ng and aplay installed, the service's user in the group
``audio`` (which owns /dev/snd), and the configured ALSA device among the sound cards
(/proc/asound/cards, what ``aplay -l`` lists)."""

from __future__ import annotations

import re

from keezbord.engine.text import Text
from keezbord.host.appliance.checks_devices import group_members
from keezbord.host.appliance.paths import USER, Layout
from keezbord.host.appliance.probes import Board, Finding, Probes

PROGRAMS = (("espeak-ng", "espeak-ng"), ("aplay", "alsa-utils"))
_CARD = re.compile(r"^\s*(\d+)\s+\[(\S+)\s*\]", re.M)
_NAMED = re.compile(r"CARD=([A-Za-z0-9_]+)|^(?:plug)?hw:([A-Za-z0-9_]+)(?![=A-Za-z0-9_])")


def sound_cards(layout: Layout) -> dict[str, str]:
    """Card index -> its id (``0`` -> ``Headphones``), from /proc/asound/cards."""
    try:
        text = layout.at("/proc/asound/cards").read_text(encoding="utf-8")
    except OSError:
        return {}
    return {m.group(1): m.group(2) for m in _CARD.finditer(text)}


def device_finding(layout: Layout, device: str) -> Finding:
    cards = sound_cards(layout)
    named = _NAMED.search(device)
    if device == "null":
        ok, what = True, Text("null: geen geluid (proef)", "null: no sound (a trial)")
    elif named is not None:
        want = named.group(1) or named.group(2)
        ok = want in cards or want in cards.values()
        what = Text(f"{device}: kaart {want}", f"{device}: card {want}")
    else:
        ok = bool(cards)
        what = Text(
            f"{device}: {len(cards)} geluidskaart(en)", f"{device}: {len(cards)} sound card(s)"
        )
    listed = ", ".join(f"{i} {n}" for i, n in sorted(cards.items())) or "-"
    fix = Text(
        f'kies een kaart uit aplay -l ({listed}): [voice] device = "plughw:CARD=<naam>" in '
        'board.toml; een bureaublad met PipeWire houdt de kaart vast: device = "default"',
        f'pick a card of aplay -l ({listed}): [voice] device = "plughw:CARD=<name>" in '
        'board.toml; a desktop\'s PipeWire holds the card: device = "default"',
    )
    if not ok:
        what = Text(f"{what.nl} niet gevonden", f"{what.en} not found")
    return Finding("voice device", ok, what, None if ok else fix)


def voice_checks(layout: Layout, board: Board, probes: Probes) -> list[Finding]:
    if board.voice.level == "off":
        return []
    out: list[Finding] = []
    for cmd, package in PROGRAMS:
        rc, _ = probes.runner([cmd, "--version"])
        out.append(
            Finding(
                f"voice {cmd}",
                rc == 0,
                Text(f"{cmd} is er", f"{cmd} is there")
                if rc == 0
                else Text(f"{cmd} ontbreekt", f"{cmd} is missing"),
                None
                if rc == 0
                else Text(f"sudo apt install {package}", f"sudo apt install {package}"),
            )
        )
    user = probes.user or USER
    ok = user in group_members(layout).get("audio", set())
    out.append(
        Finding(
            "group audio",
            ok,
            Text(f"{user} zit in audio", f"{user} is in audio")
            if ok
            else Text(f"{user} zit niet in de groep audio", f"{user} is not in the group audio"),
            None
            if ok
            else Text(
                f"sudo usermod -aG audio {user} (en herstart de dienst)",
                f"sudo usermod -aG audio {user} (and restart the service)",
            ),
        )
    )
    out.append(device_finding(layout, board.voice.device))
    return out
