"""``[voice]`` of a board's TOML file (docs/voice.md): the board's own speaker. ``level``
off, disputes (illegal moves, questions, restore guidance) or all; ``language`` nl or
en; ``device`` the ALSA device aplay plays to ("default", "plughw:CARD=Device", "hdmi",
"null" to render without a speaker)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .config_table import Section

VOICE_LEVELS: Final = ("off", "disputes", "all")


@dataclass(frozen=True, slots=True)
class VoiceSettings:
    level: str = "off"
    language: str = "nl"
    device: str = "default"
    rate: int = 160  # espeak-ng's words a minute

    @property
    def on(self) -> bool:
        return self.level != "off"


def voice_section(top: Section) -> VoiceSettings:
    v = top.table("voice", ("level", "language", "device", "rate"))
    device = v.get_str("device", "default")
    if not device or any(c.isspace() for c in device):
        raise v.error("device", "an ALSA device name (aplay -L), without spaces")
    return VoiceSettings(
        v.get_str("level", "off", VOICE_LEVELS),
        v.get_str("language", "nl", ("nl", "en")),
        device,
        v.get_int("rate", 160, 80, 450),
    )
