"""Does the voice delay the LEDs? A run-mode hub on its asyncio loop is fed a refereed
conformance game (../shared/conformance) one event at a time at a person's pace; for every
event that makes a move, the time from the event's input to the LED frame the driver is
asked to show is measured, with the voice off and on (the page's words and the board's
speaker: espeak-ng rendering and aplay playing to ALSA's null device in the queue's
thread). Prints the frame latencies (median, 95th percentile, max) per run, and the
queue's: from an utterance put to its saying begun (``--paced``: each sentence takes as
long as it lasts, as on a speaker, so words wait and stale ones are replaced).

    nice -n 10 .venv/bin/python bench/bench_voice.py [--game g101-4seats-standard]
                                                     [--gap-ms 30] [--rounds 2]
                                                     [--device null] [--paced]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from keezbord.host.config_voice import VoiceSettings
from keezbord.host.drivers.boards import FakeBoard
from keezbord.host.referee.trace import input_from_dict
from keezbord.host.voice.attach import Voice, attach
from keezbord.host.voice.player import Player, wav_seconds
from keezbord.host.voice.queue import SpeechQueue
from keezbord.host.web.hub import Hub
from keezbord.host.web.options import HubOptions

OBSERVER: list[float] = []  # the voice's observer, called before the LED frame
GAMES = Path(__file__).resolve().parents[2] / "shared" / "conformance" / "games"


class TimedBoard(FakeBoard):
    """A FakeBoard that notes when each LED frame was asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.shown_at: list[float] = []

    def show_leds(self, holes: Mapping[str, str], t: int) -> None:
        self.shown_at.append(time.perf_counter())
        super().show_leds(holes, t)


class PacedPlayer(Player):
    """aplay to the device, then the rest of the sentence's length waited: ALSA's null
    device takes no time, a speaker takes as long as the sentence (``--paced``)."""

    def play(self, wav: bytes) -> None:
        t0 = time.monotonic()
        super().play(wav)
        time.sleep(max(0.0, wav_seconds(wav) - (time.monotonic() - t0)))


async def one_run(
    lines: list[dict[str, Any]], speech: bool, gap_s: float, db: Path, device: str, paced: bool
) -> tuple[list[float], Voice | None]:
    board = TimedBoard()
    setup = {**lines[0], "mode": "run"}
    hub = Hub.open_run(HubOptions(db=db, mode="run"), setup, board, resume=False)
    voice = None
    if speech and not paced:
        voice = attach(hub, VoiceSettings("all", "nl", device))
    elif speech:
        player = PacedPlayer(device)
        voice = Voice(hub, SpeechQueue(player.say, "all", "nl", player.stop))
        hub.observers.append(voice.observe)
        hub.views["voice"] = voice.view
    if voice is not None:  # the voice's own part of the LED path, timed
        observe = hub.observers.pop()

        def timed(records: list[dict[str, Any]]) -> None:
            t0 = time.perf_counter()
            observe(records)
            OBSERVER.append(time.perf_counter() - t0)

        hub.observers.append(timed)
    await hub.start()
    frames: list[float] = []
    try:
        for d in lines[1:]:
            ev = input_from_dict(d)
            before = len(board.shown_at)
            moves = len(hub.session.state.history)
            t0 = time.perf_counter()
            hub.feed(ev)
            if len(hub.session.state.history) > moves and len(board.shown_at) > before:
                frames.append(board.shown_at[before] - t0)
            await asyncio.sleep(gap_s)  # a person's pace; the loop runs the rest meanwhile
        if voice is not None and voice.queue is not None:
            await asyncio.to_thread(voice.queue.idle, 60.0)
    finally:
        await hub.stop()
    return frames, voice


def figures(xs: list[float], what: str = "moves") -> str:
    ms = sorted(x * 1000 for x in xs)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    med = statistics.median(ms)
    return f"median {med:.3f} ms, p95 {p95:.3f} ms, max {ms[-1]:.3f} ms ({len(ms)} {what})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="g101-4seats-standard")
    ap.add_argument("--gap-ms", type=float, default=30.0)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--device", default="null", help="the ALSA device (a Pi: plughw:CARD=...)")
    ap.add_argument("--paced", action="store_true", help="each sentence takes its length")
    args = ap.parse_args()
    path = GAMES / f"{args.game}.trace.jsonl"
    if not path.is_file():
        print(f"no such game: {path}", file=sys.stderr)
        return 2
    lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    print(
        f"load average {os.getloadavg()[0]:.2f} (cores {os.cpu_count()}); "
        f"{args.game}, gap {args.gap_ms:g} ms, device {args.device}"
        f"{' paced' if args.paced else ''}"
    )
    off: list[float] = []
    on: list[float] = []
    waits: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            for speech in (False, True):
                db = Path(tmp) / f"{r}-{speech}.sqlite"
                run = one_run(lines, speech, args.gap_ms / 1000, db, args.device, args.paced)
                frames, voice = asyncio.run(run)
                (on if speech else off).extend(frames)
                state = "on " if speech else "off"
                print(f"round {r + 1} speech {state}: LED frame {figures(frames)}", flush=True)
                if voice is not None and voice.queue is not None:
                    log = voice.queue.log
                    began = [s.began_at - s.put_at for s in log if s.began_at is not None]
                    waits += began
                    dropped = sum(1 for s in log if s.dropped)
                    errors = sum(1 for s in log if s.error)
                    print(
                        f"  queue: {len(log)} utterances, {dropped} replaced as stale, "
                        f"{errors} errors; put to saying {figures(began, 'said')}"
                    )
    print(f"all speech off: LED frame {figures(off)}")
    print(f"all speech on:  LED frame {figures(on)}")
    print(f"queue put to saying: {figures(waits, 'said')}")
    print(f"the voice's observer on the LED path: {figures(OBSERVER, 'calls')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
