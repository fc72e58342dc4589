"""Referee LED frames (hole -> role) to per-LED RGB values, in the wiring's LED order.

Colours follow the Okabe-Ito palette (distinguishable with the common colour-vision
deficiencies), and every role also has its own time pattern, so colour is never the
only cue: ``error`` blinks fast, ``restore`` pulses, ``target`` is steady, and so on.
The blink phase is a pure function of the time passed in.

A brightness cap scales everything; a current budget (mA) then scales a frame down as a
whole when its estimated draw would exceed it (WS2812: about 20 mA per channel at full).
Both the Pi-direct NeoPixel strip and the Pico serial link render through here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

RGB = tuple[int, int, int]
Pattern = Literal["steady", "dim", "blink_slow", "blink_fast", "double_flash", "pulse"]
PATTERNS: Final[tuple[Pattern, ...]] = (
    "steady", "dim", "blink_slow", "blink_fast", "double_flash", "pulse")
ROLES: Final = ("turn", "source", "target", "victim", "error", "restore")

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
}


def parse_colour(text: str) -> RGB:
    """``#RRGGBB`` (or without the #) to an RGB tuple."""
    m = _HEX_RE.fullmatch(text) if isinstance(text, str) else None
    if not m:
        raise ValueError(f"not a colour {text!r} (expected #RRGGBB)")
    v = int(m.group(1), 16)
    return (v >> 16 & 0xFF, v >> 8 & 0xFF, v & 0xFF)


def pattern_level(pattern: Pattern, t_ms: int) -> float:
    """How bright (0..1) a pattern is at time ``t_ms``."""
    if pattern == "steady":
        return 1.0
    if pattern == "dim":
        return 0.35
    if pattern == "blink_fast":  # 4 Hz, half on
        return 1.0 if t_ms % 250 < 125 else 0.0
    if pattern == "blink_slow":  # 1 Hz, mostly on so the hole stays findable
        return 1.0 if t_ms % 1000 < 700 else 0.15
    if pattern == "double_flash":  # two short flashes every 1.2 s
        p = t_ms % 1200
        return 1.0 if p < 120 or 240 <= p < 360 else 0.0
    if pattern == "pulse":  # triangle wave, 1.5 s period, never fully dark
        p = t_ms % 1500
        tri = p / 750 if p < 750 else (1500 - p) / 750
        return 0.2 + 0.8 * tri
    raise ValueError(f"unknown LED pattern {pattern!r}")


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
        return LedSettings(styles, self.brightness, self.budget_ma, self.ma_per_channel,
                           self.idle_ma)


def _check_role(role: str) -> None:
    if role not in ROLES:
        raise ValueError(f"unknown LED role {role!r} (one of {', '.join(ROLES)})")


def estimate_ma(pixels: Sequence[RGB], settings: LedSettings) -> float:
    """Estimated strip current for a frame, in mA."""
    channels = sum(r + g + b for r, g, b in pixels)
    return len(pixels) * settings.idle_ma + channels / 255 * settings.ma_per_channel


def render(
    frame: Mapping[str, str],
    led_order: Sequence[str | None],
    t_ms: int,
    settings: LedSettings,
) -> list[RGB]:
    """The RGB value of every LED (``led_order[i]`` is the hole above LED i) at ``t_ms``.

    Holes not in the frame are dark. A role or hole the strip does not know is an error:
    the referee never sends one, so it is a bug to surface, not to hide.
    """
    index = {h: i for i, h in enumerate(led_order) if h is not None}
    out: list[RGB] = [(0, 0, 0)] * len(led_order)
    for hole, role in frame.items():
        style = settings.styles.get(role)
        if style is None:
            raise ValueError(f"unknown LED role {role!r} for hole {hole}")
        i = index.get(hole)
        if i is None:
            raise ValueError(f"hole {hole} has no LED in this wiring")
        k = settings.brightness * pattern_level(style.pattern, t_ms)
        r, g, b = style.colour
        out[i] = (int(r * k), int(g * k), int(b * k))
    return limit_current(out, settings)


def limit_current(pixels: list[RGB], settings: LedSettings) -> list[RGB]:
    """Scale the frame down as a whole if its estimated draw exceeds the budget."""
    if settings.budget_ma is None:
        return pixels
    est = estimate_ma(pixels, settings)
    if est <= settings.budget_ma:
        return pixels
    idle = len(pixels) * settings.idle_ma
    f = max(0.0, (settings.budget_ma - idle) / (est - idle))
    return [(int(r * f), int(g * f), int(b * f)) for r, g, b in pixels]


class LedRenderer:
    """A wiring's LED order plus settings: ``render(frame, t_ms)``."""

    def __init__(self, led_order: Sequence[str | None], settings: LedSettings) -> None:
        self.led_order = tuple(led_order)
        self.settings = settings

    def render(self, frame: Mapping[str, str], t_ms: int) -> list[RGB]:
        return render(frame, self.led_order, t_ms, self.settings)
