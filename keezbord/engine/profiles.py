"""Rule profiles: the flags of RULES.md, as frozen data looked up by name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Jack = Literal["own_with_other", "any_two"]
HomeEntry = Literal["must_enter", "may_pass"]
FourBack = Literal["any", "from_start_only"]
Scoring = Literal["none", "nk"]


class UnknownProfileError(ValueError):
    """A profile name that is not one of PROFILES."""


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    jack: Jack = "own_with_other"
    home_entry: HomeEntry = "must_enter"
    four_back: FourBack = "any"
    pass_own: bool = True
    capture_partner: bool = True
    king_13: bool = False
    seven_pawns: int = 2
    partner_exchange: bool = False
    scoring: Scoring = "none"


PROFILES: dict[str, Profile] = {
    p.name: p
    for p in (
        Profile("standard"),
        Profile(
            "keezspel",
            jack="any_two",
            home_entry="may_pass",
            four_back="from_start_only",
            capture_partner=False,
        ),
        Profile("wikipedia"),
        Profile("reiseditie", jack="any_two", king_13=True, partner_exchange=True),
        Profile("nk", pass_own=False, scoring="nk"),
        Profile("bordspel"),
    )
}

DEFAULT_PROFILE = "standard"


def get_profile(name: str) -> Profile:
    """The profile of that name; unknown names are refused."""
    try:
        return PROFILES[name]
    except (KeyError, TypeError):
        known = ", ".join(PROFILES)
        raise UnknownProfileError(f"unknown profile {name!r} (known: {known})") from None
