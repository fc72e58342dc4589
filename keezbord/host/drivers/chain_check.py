"""The chain's check bits (the signature byte, the tail) and what a failed check points
at: the CLK and /PL bus (a signature a few bits off: a double clock or a missed load), a
chip count that does not match (8 bits off), an open line (all 0s). Read after the board's
bits by the Pi-direct scanner (scanner_gpio.py); docs/hardware.md, "The CLK and /PL bus".
"""

from __future__ import annotations

from collections.abc import Sequence

from keezbord.engine.text import Text
from keezbord.hardware.wiring import TAIL_LEVEL

# What a failed check says about the chain (hardware.md, "The CLK and /PL bus").
FAULT_TEXT: dict[str, Text] = {
    "bus": Text(
        nl="busfout: de signatuur staat een paar bits verschoven (dubbele klok of gemiste "
        "load): controleer de serieweerstanden, de 74LVC2G17's en de logische massa van "
        "CLK en /PL",
        en="bus fault: the signature is a few bits off (a double clock or a missed load): "
        "check CLK and /PL's series resistors, the 74LVC2G17 buffers and the logic ground",
    ),
    "count": Text(
        nl="een chip te veel of te weinig in de keten (de signatuur staat 8 bits verschoven)",
        en="a chip too many or too few in the chain (the signature is 8 bits off)",
    ),
    "open": Text(
        nl="de keten levert alleen nullen: een open, losgeraakte of stroomloze datalijn",
        en="the chain reads all 0s: an open, unplugged or unpowered data line",
    ),
    "broken": Text(
        nl="de schuifregisterketen is onderbroken: controleer de kabels en de voeding",
        en="the shift-register chain is broken: check the cables and the power",
    ),
}


class BrokenChainError(RuntimeError):
    """The signature or the tail bits clocked in from the far end did not arrive.
    ``kind`` says what that points at: bus, count, open or broken (FAULT_TEXT)."""

    def __init__(
        self,
        got: Sequence[int],
        expected: Sequence[int] | int,
        what: str = "check bits",
        kind: str = "broken",
    ) -> None:
        self.got = tuple(got)
        self.expected = (
            tuple(expected) if not isinstance(expected, int) else (expected,) * len(self.got)
        )
        self.what = what
        self.kind = kind
        self.text = FAULT_TEXT[kind]
        super().__init__(
            f"{self.text.en} ({what} {''.join(map(str, self.got))}, "
            f"expected {''.join(map(str, self.expected))})"
        )


def fault_kind(levels: Sequence[int], bits: int, want: Sequence[int]) -> str:
    """Where the signature went: one to seven bits off is a double clock or a missed
    load somewhere on the CLK and /PL bus (every bit behind that chip slid), eight off a
    chip count that does not match, all 0s an open line."""
    w = tuple(want)

    def at(start: int) -> bool:
        return start >= 0 and tuple(levels[start : start + len(w)]) == w

    if any(at(bits + d) or at(bits - d) for d in range(1, 8)):
        return "bus"
    if at(bits + 8) or at(bits - 8):
        return "count"
    if not any(levels):
        return "open"
    return "broken"


def signature_bits(signature: int) -> tuple[int, ...]:
    """The levels a signature chip shifts out, H (bit 7) first."""
    if not 0 <= signature <= 255:
        raise ValueError(f"the signature is one byte (0 to 255), not {signature}")
    return tuple(signature >> (7 - k) & 1 for k in range(8))


def check_chain(
    levels: Sequence[int], bits: int, signature: int | None, tail_level: int = TAIL_LEVEL
) -> tuple[int, ...]:
    """The board's ``bits`` levels from one read that also clocked in the signature (if
    any) and the tail; BrokenChainError if either is wrong."""
    end = bits
    if signature is not None:
        want = signature_bits(signature)
        got = tuple(levels[bits : bits + 8])
        if got != want:
            raise BrokenChainError(got, want, "signature", fault_kind(levels, bits, want))
        end += 8
    tail = levels[end:]
    if not tail or any(b != tail_level for b in tail):
        kind = "open" if not any(levels) else "broken"
        raise BrokenChainError(tail, tail_level, "tail bits", kind)
    return tuple(levels[:bits])
