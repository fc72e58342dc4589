"""Why a move is not legal: a rule code plus the facts needed to say it to a player.

The move generator reports these on the paths it refuses (and, when asked to be
permissive, keeps walking), so legality and explanation come from one source.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Violation:
    code: str
    # Facts for the message: seat numbers, holes (as names), cards, counts.
    facts: tuple[tuple[str, Any], ...] = field(default=())

    @classmethod
    def of(cls, code: str, **facts: Any) -> Violation:
        return cls(code, tuple(sorted(facts.items())))

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.facts).get(key, default)


# Rule codes, in rough order of how "close to legal" a move breaking only that rule is.
BLOCKADE_PASS = "blockade_pass"
BLOCKADE_LAND = "blockade_land"
PASS_OWN = "pass_own"
CAPTURE_PARTNER = "capture_partner"
MUST_ENTER = "must_enter"
HOME_PASS = "home_pass"
FRESH_HOME = "fresh_home"
BACK_INTO_HOME = "back_into_home"
BACK_IN_HOME = "back_in_home"
FOUR_BACK_START = "four_back_start"
ENTER_OWN_START = "enter_own_start"
JACK_BLOCKADE = "jack_blockade"
JACK_NOT_OWN = "jack_not_own"
NOT_YOUR_PAWN = "not_your_pawn"
