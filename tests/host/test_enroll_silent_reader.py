"""`keezbord cards enroll` on a port that opens but where no reader answers (a PN532 on the
Pi's UART, unpowered or miswired): after a few seconds it says the reader does not answer
and what to check, keeps waiting, and enrolls the card once the reader is switched on."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from keezbord.host.card_registry import CardRegistry, Enrollment
from keezbord.host.commands.devices import SILENT_MS, enroll
from keezbord.host.drivers.rfid_fakes import FakePN532
from keezbord.host.drivers.rfid_pn532 import PN532Reader


class _Done(Exception):
    pass


@pytest.mark.parametrize(
    ("lang", "silent", "again"),
    [
        ("en", "does not answer", "the card reader answers"),
        ("nl", "antwoordt niet", "de kaartlezer antwoordt"),
    ],
)
def test_a_silent_reader_is_named_after_a_few_seconds_and_waited_for(
    tmp_path: Path, lang: str, silent: str, again: str
) -> None:
    chip = FakePN532(uid=bytes.fromhex("04A1B2C3D4E5F6"), powered=False)
    reader = PN532Reader(
        PN532Reader.open(chip.path).chip, retry_ms=0, port=chip.path
    )  # a fresh reader that retries its set-up at every poll
    out = io.StringIO()
    t = [0]
    said_at: list[int] = []

    def wait() -> None:
        t[0] += 250
        text = out.getvalue()
        if silent in text and not said_at:
            said_at.append(t[0])
            chip.power_on()  # the builder fixes the power: the card on it is read
        if t[0] > 60_000:
            raise _Done

    try:
        done = enroll(
            Enrollment(4, CardRegistry()),
            reader,
            tmp_path / "cards.json",
            lang,
            out,
            clock=lambda: t[0],
            wait=wait,
        )
    except _Done:
        done = None
    finally:
        reader.close()
        chip.close()
    text = out.getvalue()
    assert said_at and SILENT_MS <= said_at[0] <= SILENT_MS + 1000, text
    assert (
        sum(silent in ln for ln in text.splitlines()) == 1 and "HSU" in text and "rfid.port" in text
    )
    assert again in text and done is None  # it went on waiting: the next card asked for
    assert "enrolled" in text or "ingelezen" in text or "04A1B2C3D4E5F6" in text
