"""The six profiles of RULES.md as frozen data, flag by flag against the table."""

from __future__ import annotations

import dataclasses

import pytest
import reference_rules as ref

from keezbord.engine.position import InvalidPositionError, Position
from keezbord.engine.profiles import (
    DEFAULT_PROFILE,
    PROFILES,
    Profile,
    UnknownProfileError,
    get_profile,
)

FLAGS = (
    "jack",
    "home_entry",
    "four_back",
    "pass_own",
    "capture_partner",
    "king_13",
    "seven_pawns",
    "partner_exchange",
    "scoring",
)


def test_exactly_the_six_profiles() -> None:
    assert set(PROFILES) == {"standard", "keezspel", "wikipedia", "reiseditie", "nk", "bordspel"}
    assert DEFAULT_PROFILE == "standard"


@pytest.mark.parametrize("name", sorted(ref.PROFILE_FLAGS))
def test_every_flag_matches_the_rules_table(name: str) -> None:
    prof = get_profile(name)
    assert prof.name == name
    for flag in FLAGS:
        assert getattr(prof, flag) == ref.PROFILE_FLAGS[name][flag], (name, flag)


def test_table_spot_checks() -> None:
    assert get_profile("keezspel").home_entry == "may_pass"
    assert get_profile("keezspel").four_back == "from_start_only"
    assert get_profile("keezspel").capture_partner is False
    assert get_profile("reiseditie").king_13 is True
    assert get_profile("reiseditie").partner_exchange is True
    assert get_profile("nk").pass_own is False
    assert get_profile("nk").scoring == "nk"
    assert {n for n, p in PROFILES.items() if p.jack == "any_two"} == {"keezspel", "reiseditie"}


def test_profiles_are_frozen() -> None:
    prof = get_profile("standard")
    with pytest.raises(dataclasses.FrozenInstanceError):
        prof.jack = "any_two"  # type: ignore[misc]
    assert isinstance(prof, Profile)


@pytest.mark.parametrize("bad", ["Standard", "", "dog", "nk ", None, 3])
def test_unknown_profile_refused(bad: object) -> None:
    with pytest.raises(UnknownProfileError):
        get_profile(bad)  # type: ignore[arg-type]


def test_unknown_profile_in_a_position_names_it() -> None:
    with pytest.raises(InvalidPositionError, match="dog"):
        Position.from_dict({"seats": 4, "profile": "dog", "pawns": [["N"] * 4] * 4})


def test_position_profile_defaults_to_standard() -> None:
    p = Position.from_dict({"seats": 2, "pawns": [["N"] * 4] * 2})
    assert p.profile.name == "standard"
