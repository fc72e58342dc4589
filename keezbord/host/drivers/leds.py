"""Referee LED frames (hole -> role) to per-LED RGB values, in the wiring's LED order.

Colours follow the Okabe-Ito palette (distinguishable with the common colour-vision
deficiencies), and every role also has its own time pattern, so colour is never the
only cue: ``error`` blinks fast, ``restore`` pulses, ``target`` is steady, and so on.
The blink phase is a pure function of the time passed in.

The patterns are defined once, in the firmware's plain module ``firmware/patterns.py``,
and twinned here in integer arithmetic (``pattern_level_u8``), like the link protocol:
the Pico animates them itself from a pattern id per LED, and the Pi-direct path renders
them here; ``render`` matches the firmware's ``leds.render_into`` byte for byte
(tests/host/drivers/test_led_patterns_twin.py). Per LED:

    base = int(colour * brightness)                  (the host; brightness 0..1)
    v    = base * (level + 1) >> 8                   (level 0..255 of its pattern now)

then the current budget (mA) scales a frame down as a whole when its estimated draw
would exceed it (WS2812: about 20 mA per channel at full, 1 mA idle), with the
firmware's 16.16 fixed-point factor. ``LedRenderer.base`` gives what goes over the link
(base colours and pattern ids); the Pico applies levels and its current cap.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

RGB = tuple[int, int, int]
Pattern = Literal[
    "steady", "dim", "blink_slow", "blink_fast", "double_flash", "pulse", "ramp", "halo"
]
PATTERNS: Final[tuple[Pattern, ...]] = (
    "steady",
    "dim",
    "blink_slow",
    "blink_fast",
    "double_flash",
    "pulse",
    "ramp",
    "halo",
)
# "around": the free track holes beside a lit hole that a pawn hides (referee/leds.py)
ROLES: Final = ("turn", "source", "target", "victim", "error", "restore", "hint", "around")

_HEX_RE = re.compile(r"#?([0-9a-fA-F]{6})")


@dataclass(frozen=True, slots=True)
class RoleStyle:
    colour: RGB
    pattern: Pattern


# Okabe-Ito colours; patterns chosen so that each role also differs in time.
DEFAULT_STYLES: Final[Mapping[str, RoleStyle]] = {
    "target": RoleStyle((0x00, 0x9E, 0x73), "steady"),  # bluish green
    "source": RoleStyle((0x56, 0xB4, 0xE9), "blink_slow"),  # sky blue
    "turn": RoleStyle((0xE6, 0x9F, 0x00), "dim"),  # orange
    "victim": RoleStyle((0xCC, 0x79, 0xA7), "double_flash"),  # reddish purple
    "error": RoleStyle((0xD5, 0x5E, 0x00), "blink_fast"),  # vermillion
    "restore": RoleStyle((0xF0, 0xE4, 0x42), "pulse"),  # yellow
    "hint": RoleStyle((0x00, 0x72, 0xB2), "ramp"),  # blue: the suggested move
    "around": RoleStyle((0x66, 0xC5, 0xAB), "halo"),  # the target's green, lighter
}


def parse_colour(text: str) -> RGB:
    """``#RRGGBB`` (or without the #) to an RGB tuple."""
    m = _HEX_RE.fullmatch(text) if isinstance(text, str) else None
    if not m:
        raise ValueError(f"not a colour {text!r} (expected #RRGGBB)")
    v = int(m.group(1), 16)
    return (v >> 16 & 0xFF, v >> 8 & 0xFF, v & 0xFF)


# The firmware's pattern ids (firmware/patterns.py NAMES, same order).
PATTERN_IDS: Final[Mapping[Pattern, int]] = {p: i for i, p in enumerate(PATTERNS)}


def pattern_level_u8(pattern: Pattern, t_ms: int) -> int:
    """How bright (0..255) a pattern is at time ``t_ms``: twin of firmware/patterns.py."""
    if pattern == "steady":
        return 255
    if pattern == "dim":
        return 89
    if pattern == "blink_slow":  # 1 Hz, mostly on so the hole stays findable
        return 255 if t_ms % 1000 < 700 else 38
    if pattern == "blink_fast":  # 4 Hz, half on
        return 255 if t_ms % 250 < 125 else 0
    if pattern == "double_flash":  # two short flashes every 1.2 s
        p = t_ms % 1200
        return 255 if p < 120 or 240 <= p < 360 else 0
    if pattern == "pulse":  # triangle wave, 1.5 s period, never fully dark
        p = t_ms % 1500
        if p >= 750:
            p = 1500 - p
        return 51 + 204 * p // 750
    if pattern == "ramp":  # rises slowly over 2 s, then drops at once
        return 38 + 217 * (t_ms % 2000) // 2000
    if pattern == "halo":  # 1.7 Hz, half on: around a lit hole a pawn hides
        return 255 if t_ms % 600 < 300 else 0
    raise ValueError(f"unknown LED pattern {pattern!r}")


def pattern_level(pattern: Pattern, t_ms: int) -> float:
    """How bright (0..1) a pattern is at time ``t_ms``."""
    return pattern_level_u8(pattern, t_ms) / 255


@dataclass(frozen=True, slots=True)
class LedSettings:
    """``brightness`` caps every channel (0..1); ``budget_ma`` caps the whole frame."""

    styles: Mapping[str, RoleStyle] = field(default_factory=lambda: dict(DEFAULT_STYLES))
    brightness: float = 0.5
    budget_ma: float | None = None
    ma_per_channel: float = 20.0
    idle_ma: float = 1.0  # a WS2812 draws about this much even when dark

    def __post_init__(self) -> None:
        if not 0.0 <= self.brightness <= 1.0:
            raise ValueError(f"LED brightness must be 0..1, not {self.brightness}")
        if self.budget_ma is not None and self.budget_ma <= 0:
            raise ValueError(f"LED current budget must be positive, not {self.budget_ma}")
        missing = [r for r in ROLES if r not in self.styles]
        if missing:
            raise ValueError(f"LED styles lack roles: {', '.join(missing)}")

    def with_overrides(
        self,
        colours: Mapping[str, str] | None = None,
        patterns: Mapping[str, str] | None = None,
    ) -> LedSettings:
        styles = dict(self.styles)
        for role, text in (colours or {}).items():
            _check_role(role)
            styles[role] = RoleStyle(parse_colour(text), styles[role].pattern)
        for role, pat in (patterns or {}).items():
            _check_role(role)
            if pat not in PATTERNS:
                raise ValueError(f"unknown LED pattern {pat!r} (one of {', '.join(PATTERNS)})")
            styles[role] = RoleStyle(styles[role].colour, pat)
        return LedSettings(
            styles, self.brightness, self.budget_ma, self.ma_per_channel, self.idle_ma
        )


def _check_role(role: str) -> None:
    if role not in ROLES:
        raise ValueError(f"unknown LED role {role!r} (one of {', '.join(ROLES)})")


def estimate_ma(pixels: Sequence[RGB], settings: LedSettings) -> float:
    """Estimated strip current for a frame, in mA."""
    channels = sum(r + g + b for r, g, b in pixels)
    return len(pixels) * settings.idle_ma + channels / 255 * settings.ma_per_channel


def base(
    frame: Mapping[str, str],
    led_order: Sequence[str | None],
    settings: LedSettings,
) -> tuple[list[RGB], list[int]]:
    """Per LED (``led_order[i]`` is the hole above LED i): its colour at the configured
    brightness and its pattern id, as the Pico gets them. Holes not in the frame are
    dark. A role or hole the strip does not know is an error: the referee never sends
    one, so it is a bug to surface, not to hide."""
    index = {h: i for i, h in enumerate(led_order) if h is not None}
    colours: list[RGB] = [(0, 0, 0)] * len(led_order)
    ids = [0] * len(led_order)
    k = settings.brightness
    for hole, role in frame.items():
        style = settings.styles.get(role)
        if style is None:
            raise ValueError(f"unknown LED role {role!r} for hole {hole}")
        i = index.get(hole)
        if i is None:
            raise ValueError(f"hole {hole} has no LED in this wiring")
        r, g, b = style.colour
        colours[i] = (int(r * k), int(g * k), int(b * k))
        ids[i] = PATTERN_IDS[style.pattern]
    return colours, ids


def apply_patterns(colours: Sequence[RGB], ids: Sequence[int], t_ms: int) -> list[RGB]:
    """Base colours at their patterns' levels at ``t_ms`` (the firmware's arithmetic)."""
    levels = [pattern_level_u8(p, t_ms) + 1 for p in PATTERNS]
    out: list[RGB] = []
    for (r, g, b), pid in zip(colours, ids, strict=True):
        s1 = levels[pid] if 0 <= pid < len(levels) else 256
        out.append(((r * s1) >> 8, (g * s1) >> 8, (b * s1) >> 8))
    return out


def render(
    frame: Mapping[str, str],
    led_order: Sequence[str | None],
    t_ms: int,
    settings: LedSettings,
) -> list[RGB]:
    """The RGB value of every LED (``led_order[i]`` is the hole above LED i) at ``t_ms``:
    what the Pico shows for the same frame, and what the Pi-direct strip shows."""
    colours, ids = base(frame, led_order, settings)
    return limit_current(apply_patterns(colours, ids, t_ms), settings)


def limit_current(pixels: list[RGB], settings: LedSettings) -> list[RGB]:
    """Scale the frame down as a whole if its estimated draw exceeds the budget (the
    firmware's integer formula: draw = channels * mA // 255, factor 16.16)."""
    if settings.budget_ma is None:
        return pixels
    total = sum(r + g + b for r, g, b in pixels)
    budget = int(settings.budget_ma) - len(pixels) * round(settings.idle_ma)
    draw = total * round(settings.ma_per_channel) // 255
    if draw <= budget:
        return pixels
    f = (budget << 16) // draw if budget > 0 else 0
    return [((r * f) >> 16, (g * f) >> 16, (b * f) >> 16) for r, g, b in pixels]


class LedRenderer:
    """A wiring's LED order plus settings: ``render(frame, t_ms)``, ``base(frame)``."""

    def __init__(self, led_order: Sequence[str | None], settings: LedSettings) -> None:
        self.led_order = tuple(led_order)
        self.settings = settings

    def render(self, frame: Mapping[str, str], t_ms: int) -> list[RGB]:
        return render(frame, self.led_order, t_ms, self.settings)

    def base(self, frame: Mapping[str, str]) -> tuple[list[RGB], list[int]]:
        return base(frame, self.led_order, self.settings)
