"""The one-line text form of a position (docs/formats.md), parsed into the JSON form's
fields for ``Position.from_dict``, which validates them: ``Position.from_text``."""

from __future__ import annotations

import re
from typing import Any

from .position_error import InvalidPositionError
from .topology import MAX_SEATS

_TEXT_SEAT_RE = re.compile(r"(?:N|S|T(?:0|[1-9][0-9]*)|H[1-4])+")
_TEXT_LOC_RE = re.compile(r"N|S|T(?:0|[1-9][0-9]*)|H[1-4]")
_TEXT_OPTION_RE = re.compile(r"(segment|teams)=(.*)")


def text_fields(text: str) -> dict[str, Any]:
    """``<pawns> <turn> <profile> [segment=<L>] [teams=pairs|none]`` as the JSON form's
    fields; InvalidPositionError, with a one-line message, for text not of that form."""
    if not isinstance(text, str):
        raise InvalidPositionError("a position text must be a string")
    if "\n" in text.strip() or "\r" in text.strip():
        raise InvalidPositionError("a position text is one line")
    fields = text.split()
    if len(fields) < 3:
        raise InvalidPositionError(
            "a position text is <pawns> <turn> <profile> [segment=L] [teams=pairs|none], "
            f"not {text.strip()!r}"
        )
    seats_text, turn_text, profile, *options = fields
    data: dict[str, Any] = {"profile": profile}
    rows = seats_text.split("/")
    data["seats"] = len(rows)
    pawns: list[list[str]] = []
    for seat, row in enumerate(rows):
        if not _TEXT_SEAT_RE.fullmatch(row):
            raise InvalidPositionError(
                f"seat {seat}: {row!r} is not four pawn locations (N, S, T<i>, H1..H4 "
                "written together, e.g. NNST20)"
            )
        pawns.append(_TEXT_LOC_RE.findall(row))
    data["pawns"] = pawns
    if not re.fullmatch(r"[0-7]", turn_text):
        raise InvalidPositionError(f"the turn must be a seat number, not {turn_text!r}")
    data["turn"] = int(turn_text)
    for opt in options:
        m = _TEXT_OPTION_RE.fullmatch(opt)
        if not m:
            raise InvalidPositionError(
                f"unknown position text field {opt!r} (segment=L or teams=pairs|none)"
            )
        key, value = m[1], m[2]
        if key in data:
            raise InvalidPositionError(f"{key}= given twice")
        if key == "segment":
            if not re.fullmatch(r"[1-9][0-9]{0,2}", value):
                raise InvalidPositionError(f"segment must be a whole number, not {value!r}")
            data[key] = int(value)
        else:
            data[key] = value
    if not 2 <= len(rows) <= MAX_SEATS:
        raise InvalidPositionError(
            f"a position has 2 to {MAX_SEATS} seats (joined by /), not {len(rows)}"
        )
    return data
