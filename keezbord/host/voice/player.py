"""The Pi's voice: Debian's espeak-ng renders a sentence to WAV (offline, Dutch and
English), ALSA's aplay plays it to the configured device. Both are commands, run with an
argument list (no shell); a missing one is one clear line (``VoiceError``), never a
traceback in the game loop."""

from __future__ import annotations

import io
import shutil
import subprocess
import threading
import wave
from dataclasses import dataclass
from typing import Final

ESPEAK: Final = "espeak-ng"
APLAY: Final = "aplay"
# espeak-ng's voices for the page's languages (espeak-ng --voices=nl).
VOICES: Final = {"nl": "nl", "en": "en"}


class VoiceError(RuntimeError):
    """The synthesiser or the player is missing or failed: one line for the log."""


def wav_seconds(data: bytes) -> float:
    """A WAV's duration (RIFF header; espeak-ng --stdout leaves the sizes open, so the
    frames are counted from the bytes)."""
    with wave.open(io.BytesIO(data)) as w:
        rate, width, channels = w.getframerate(), w.getsampwidth(), w.getnchannels()
    return float(max(0, len(data) - 44)) / float(rate * width * channels)


@dataclass
class Player:
    device: str = "default"
    rate: int = 160
    espeak: str = ESPEAK
    aplay: str = APLAY

    def __post_init__(self) -> None:
        self._playing: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()

    def render(self, text: str, lang: str) -> bytes:
        """The sentence as WAV bytes."""
        if shutil.which(self.espeak) is None:
            raise VoiceError(f"{self.espeak} not found: sudo apt install espeak-ng")
        cmd = [self.espeak, "-v", VOICES.get(lang, "nl"), "-s", str(self.rate), "--stdout", text]
        got = subprocess.run(cmd, capture_output=True, timeout=30, check=False)
        if got.returncode != 0 or not got.stdout.startswith(b"RIFF"):
            why = got.stderr.decode(errors="replace").strip().splitlines()
            raise VoiceError(f"{self.espeak} failed: {why[-1] if why else got.returncode}")
        return got.stdout

    def play(self, wav: bytes) -> None:
        """Play to the device; returns when done or stopped (``stop``)."""
        if shutil.which(self.aplay) is None:
            raise VoiceError(f"{self.aplay} not found: sudo apt install alsa-utils")
        cmd = [self.aplay, "-q", "-D", self.device, "-"]
        with self._lock:
            proc = subprocess.Popen(
                cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
            )
            self._playing = proc
        try:
            _, err = proc.communicate(wav, timeout=120)
        except (subprocess.TimeoutExpired, BrokenPipeError):
            proc.kill()
            proc.wait()
            err = b""
        finally:
            with self._lock:
                self._playing = None
        if proc.returncode not in (0, -9, -15):
            lines = err.decode(errors="replace").strip().splitlines()
            raise VoiceError(
                f"{self.aplay} -D {self.device}: {lines[-1] if lines else proc.returncode}"
            )

    def say(self, text: str, lang: str) -> None:
        self.play(self.render(text, lang))

    def stop(self) -> None:
        """Cut the sentence being played (a move taken back)."""
        with self._lock:
            if self._playing is not None and self._playing.poll() is None:
                self._playing.terminate()
