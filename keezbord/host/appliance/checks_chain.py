"""The switch chain's check bits as the Pico (or the service's link to it) reports them:
when the signature or the tail did not arrive, doctor says which signature this board's
configuration expects (``scanner.signature``, default the reference design's 0xA5 on the
terminator plug) and what to change: the plug, or the configuration and the firmware's
copy of it (docs/hardware.md, "Signature chip")."""

from __future__ import annotations

from collections.abc import Iterable

from keezbord.engine.text import Text
from keezbord.host.appliance.paths import SERVICE
from keezbord.host.appliance.probes import Board, Finding, Probes

CHAIN_FAULT = "chain fault: "  # the firmware's LOG lines (docs/protocol.md)


def expected_signature(board: Board) -> Text:
    """What the configuration expects after the switch chips, in words."""
    chips = f"{board.chips} " if board.chips else ""
    if board.signature is None:
        return Text(
            f"board.toml verwacht geen signatuurchip: na de {chips}schakelchips meteen de "
            'staart van enen (scanner.signature = "none")',
            f"board.toml expects no signature chip: the tail of 1s right after the {chips}"
            'switch chips (scanner.signature = "none")',
        )
    sig = f"0x{board.signature:02X}"
    return Text(
        f"board.toml verwacht signatuur {sig} (de signatuurchip op de afsluitstekker) na de "
        f"{chips}schakelchips, dan de staart van enen",
        f"board.toml expects signature {sig} (the signature chip on the terminator plug) "
        f"after the {chips}switch chips, then the tail of 1s",
    )


def chain_checks(
    board: Board | None,
    chain_ok: object,
    log: Iterable[object] = (),
    config: str = "/etc/keezbord/board.toml",
) -> list[Finding]:
    """A finding only when the chain's check bits failed (``chain_ok`` False)."""
    if board is None or chain_ok is not False:
        return []
    said = [str(x) for x in log if str(x).startswith(CHAIN_FAULT)]
    why = said[-1].removeprefix(CHAIN_FAULT) if said else "chain not ok"
    want = expected_signature(board)
    install = f"keezbord firmware install --config {config}"
    if board.signature is None:
        fix = Text(
            "controleer de kabels tussen de stukken (keezbord board wiring); heeft het bord "
            f"een signatuurchip: zet signature = 0x.. onder [scanner], dan {install}",
            "check the cables between the pieces (keezbord board wiring); a board with a "
            f"signature chip: set signature = 0x.. under [scanner], then {install}",
        )
    else:
        sig = f"0x{board.signature:02X}"
        fix = Text(
            f"steek de afsluitstekker met de signatuurchip ({sig}) in de laatste OUT-connector "
            "en controleer de kabels (keezbord board wiring); een bord zonder signatuurchip: "
            f'zet signature = "none" onder [scanner], dan {install}',
            f"plug the terminator with the signature chip ({sig}) into the last OUT "
            "connector and check the cables (keezbord board wiring); a board without one: "
            f'set signature = "none" under [scanner], then {install}',
        )
    return [
        Finding(
            "chain",
            False,
            Text(f"keten fout ({why}); {want.nl}", f"chain fault ({why}); {want.en}"),
            fix,
        )
    ]


def pi_direct_chain_checks(board: Board, probes: Probes, web: int) -> list[Finding]:
    """A Pi-direct board (scanner.kind = "gpio"): the running service reads the chain, so
    ask it (GET /api/health on port ``web``); its ``error`` is the failed check
    (BrokenChainError's text, "... (signature 01011010, expected 10100101)")."""
    if board.scanner != "gpio" or probes.runner(["systemctl", "is-active", SERVICE])[0] != 0:
        return []
    link = probes.ask_service(web).link
    return chain_checks(board, link.get("chain_ok"), [f"{CHAIN_FAULT}{link.get('error')}"])
