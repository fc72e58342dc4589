"""Before the selftest walks the board: is the reader there, and does the chain read
right? A fault found here stops the selftest at once with what is wrong and its fix (in
Dutch and English), instead of a walk that waits at hole 1 for ever or reports every hole
missing: no Pico on the port, a port that opens but where no firmware answers, the
firmware's chain faults (its LOG lines and ``chain_ok=0``: an open data line, the tail, a
wrong signature), a firmware configured for another chip count, the Pi-direct scanner's
check bits (keezbord/host/drivers/chain_check.py), and a link lost during the walk.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from keezbord.engine.text import Text
from keezbord.host.drivers.chain_check import FAULT_TEXT, BrokenChainError

LINK_WAIT_MS = 3000  # for the firmware's first frame and a trusted chain after opening
RAW_VIEW = "keezbord firmware status"
CHAIN_KINDS = frozenset({"open", "tail", "signature", "chain", "chips", "bus", "count", "broken"})

# The firmware's LOG line for each chain fault (firmware/scan.py FAULT_TEXT) -> our kind.
FIRMWARE_FAULTS = (
    ("open data line", "open"),
    ("tail bits wrong", "tail"),
    ("signature byte wrong", "signature"),
)


def _sig(signature: int | None) -> str:
    return "none" if signature is None else f"0x{signature:02X}"


def fault_text(kind: str, signature: int | None = None, detail: str = "") -> Text:
    """What is wrong and what to check, for a fault ``kind``."""
    sig = _sig(signature)
    d = f" ({detail})" if detail else ""
    raw = f"; {RAW_VIEW}"
    texts = {
        "no-pico": Text(
            nl=f"geen Pico gevonden{d}: controleer de USB-kabel (een datakabel, geen "
            "laadkabel), scanner.port in board.toml en of de firmware erop staat "
            f"(keezbord firmware install){raw} toont wat de Pico zegt",
            en=f"no Pico found{d}: check the USB cable (a data cable, not a charging "
            "cable), scanner.port in board.toml and that the firmware is installed "
            f"(keezbord firmware install){raw} shows what the Pico says",
        ),
        "busy": Text(
            nl=f"de poort van de Pico is bezet{d}: stop eerst de dienst "
            "(sudo systemctl stop keezbord) of het andere programma",
            en=f"the Pico's port is held{d}: stop the service first "
            "(sudo systemctl stop keezbord) or the other program",
        ),
        "silent": Text(
            nl=f"de poort ging open maar er antwoordt geen firmware{d}: staat de "
            "keezbord-firmware op de Pico (keezbord firmware install)? is dit de poort van "
            f"de Pico (scanner.port)?{raw}",
            en=f"the port opened but no firmware answers{d}: is the keezbord firmware on "
            "the Pico (keezbord firmware install)? is this the Pico's port "
            f"(scanner.port)?{raw}",
        ),
        "open": Text(
            nl="open datalijn: de keten levert alleen nullen (los, stroomloos of "
            "onderbroken voor chip 0): controleer de signaalkabel naar het eerste stuk, "
            "3V3 en logische massa van de chips en QH (pin 9) van chip 0 naar GP4" + raw,
            en="open data line: the chain reads all 0s (unplugged, unpowered or cut before "
            "chip 0): check the signal cable to the first piece, the chips' 3V3 and logic "
            "ground, and chip 0's QH (pin 9) to GP4" + raw,
        ),
        "tail": Text(
            nl="de staartbits kloppen niet (keten onderbroken, een chip te veel of te "
            "weinig): controleer elke verbinding tussen de stukken (DS pin 10 van de "
            "volgende chip zijn QH pin 9), de DS van het verre eind aan 3V3 en het aantal "
            "chips in de configuratie" + raw,
            en="the tail bits are wrong (the chain is cut, or a chip too many or too few): "
            "check every link between pieces (DS pin 10 from the next chip's QH pin 9), "
            "the far end's DS to 3V3 and the chip count of the configuration" + raw,
        ),
        "signature": Text(
            nl=f"verkeerde signatuur: de zelftest verwacht {sig} (scanner.signature): "
            "controleer de vaste ingangen van de signatuurchip, het aantal chips (een "
            "chip te veel of te weinig verschuift de signatuur), elke verbinding tussen de "
            "stukken (een open DS leest willekeurig) en zet de firmware "
            "opnieuw met deze configuratie (keezbord firmware install)" + raw,
            en=f"wrong signature: the selftest expects {sig} (scanner.signature): check "
            "the signature chip's tied inputs, the chip count (a chip too many or too "
            "few moves the signature), every link between pieces (an open DS reads "
            "anything) and install the firmware again with this "
            "configuration (keezbord firmware install)" + raw,
        ),
        "chips": Text(
            nl=f"de firmware leest een ander aantal schakelaars dan de configuratie{d}: "
            "zet de firmware opnieuw met deze configuratie (keezbord firmware install)",
            en=f"the firmware reads another number of switches than the configuration{d}: "
            "install the firmware again with this configuration (keezbord firmware install)",
        ),
        "chain": Text(
            nl="de Pico vertrouwt de keten niet (chain_ok=0) en noemt geen oorzaak: "
            "controleer de signaalkabel en de voeding van de chips" + raw,
            en="the Pico does not trust the chain (chain_ok=0) and names no cause: check "
            "the signal cable and the chips' power" + raw,
        ),
        "lost": Text(
            nl=f"de verbinding met de Pico viel weg tijdens de zelftest{d}: controleer de "
            f"USB-kabel{raw}",
            en=f"the link to the Pico dropped during the selftest{d}: check the USB cable{raw}",
        ),
    }
    if kind == "tail" and signature is None:  # a signature chip the configuration lacks?
        t = texts["tail"]
        return Text(
            nl=t.nl + "; heeft het bord een signatuurchip, zet dan scanner.signature (de "
            "zelftest verwacht er geen)",
            en=t.en + "; a signature chip on the board needs scanner.signature (the "
            "selftest expects none)",
        )
    if kind in texts:
        return texts[kind]
    base = FAULT_TEXT.get(kind, FAULT_TEXT["broken"])  # the Pi-direct check's kinds
    return Text(
        nl=f"{base.nl} (verwachte signatuur {sig}){d}",
        en=f"{base.en} (expected signature {sig}){d}",
    )


@dataclass(frozen=True, slots=True)
class BringupFault:
    kind: str
    text: Text


class BringupStop(Exception):
    """The selftest cannot go on: the link or the chain is at fault."""

    def __init__(self, fault: BringupFault) -> None:
        super().__init__(fault.text.en)
        self.fault = fault


def fault(kind: str, signature: int | None = None, detail: str = "") -> BringupFault:
    return BringupFault(kind, fault_text(kind, signature, detail))


def firmware_fault_kind(line: str) -> str | None:
    """The chain fault a firmware LOG line names ("chain fault: open data line ...")."""
    if not line.startswith("chain fault"):
        return None
    for words, kind in FIRMWARE_FAULTS:
        if words in line:
            return kind
    return "chain"


def chain_error_fault(e: BrokenChainError, signature: int | None) -> BringupFault:
    """The Pi-direct scanner's failed check (signature, tail) as a stop."""
    kind = "signature" if e.what == "signature" and e.kind == "broken" else e.kind
    if kind == "broken" and e.what == "tail bits":
        kind = "tail"
    return fault(kind, signature)


def _log_fault(link: Any, seen: int) -> str | None:
    lines = list(link.session.log)[seen:]
    kinds = [k for k in map(firmware_fault_kind, lines) if k is not None]
    return kinds[-1] if kinds else None


def pico_link_fault(link: Any, signature: int | None) -> BringupFault | None:
    """During the walk: the link or the chain gone bad since the preflight."""
    if not link.connected:
        return fault("lost", signature, link.last_error or "")
    if link.session.chain_ok is False:
        return fault(_log_fault(link, 0) or "chain", signature)
    return None


def pico_preflight(
    link: Any,
    bits: int,
    signature: int | None,
    clock: Callable[[], int],
    wait_ms: int = LINK_WAIT_MS,
    hint: str = "",
) -> BringupFault | None:
    """Open the link and wait (at most ``wait_ms``) for the firmware's HELLO, its first
    snapshot and a trusted chain. A fault is returned as soon as it is known: the port
    absent or held, a firmware LOG line naming a chain fault, no firmware within the
    wait, a chain never trusted, a chip count other than the configuration's (``hint``:
    the install line for a board built only this far)."""
    if not link.connect():
        if link.busy:
            return fault("busy", signature, link.last_error or "")
        why = link.last_error or ""
        return fault("no-pico", signature, "" if why.startswith("no Pico found") else why)
    session = link.session
    seen = len(session.log)
    end = clock() + wait_ms
    while clock() < end:
        link.poll(0.05)
        if not link.connected:
            return fault("no-pico", signature, link.last_error or "")
        kind = _log_fault(link, seen)
        if kind is not None:
            return fault(kind, signature)
        if session.hello is not None and session.hello.n_bits != bits:
            got = f"{session.hello.n_bits} != {bits}"
            return fault("chips", signature, f"{got}; {hint}" if hint else got)
        if session.hello is not None and session.state is not None and session.chain_ok:
            return None
    if session.hello is None:
        return fault("silent", signature, f"{link.port_name or ''} {wait_ms / 1000:g} s".strip())
    return fault(_log_fault(link, 0) or "chain", signature)
