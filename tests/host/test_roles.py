"""The roles module: tokens to roles, what each role may ask for, the token file."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from keezbord.host.roles import Role, TokenError, Tokens, TokenStore, links, may, role_of


def test_tokens_give_roles() -> None:
    tokens = Tokens(referee="ref-secret", player="play-secret")
    assert role_of(tokens, "ref-secret") is Role.REFEREE
    assert role_of(tokens, "play-secret") is Role.PLAYER
    assert role_of(tokens, None) is Role.SPECTATOR
    assert role_of(tokens, "") is Role.SPECTATOR
    assert role_of(tokens, "ref-secreT") is Role.SPECTATOR


def test_odd_tokens_are_spectators_not_errors() -> None:
    """A token typed with an accent, or a number in a JSON message, is no token: it
    used to raise TypeError in compare_digest (a 500 on the page and the club's control)."""
    tokens = Tokens(referee="ref-secret", player="play-secret")
    assert role_of(tokens, "réf-secret") is Role.SPECTATOR
    assert role_of(tokens, "\udcff") is Role.SPECTATOR
    assert role_of(tokens, 5) is Role.SPECTATOR
    assert role_of(tokens, ["ref-secret"]) is Role.SPECTATOR


def test_what_each_role_may_ask() -> None:
    assert may(Role.REFEREE, "undo") and not may(Role.PLAYER, "undo")
    assert not may(Role.SPECTATOR, "new_game")
    assert may(Role.PLAYER, "lift") and not may(Role.SPECTATOR, "lift")
    # a message type nobody listed is closed to spectators
    assert not may(Role.SPECTATOR, "something_new") and may(Role.PLAYER, "something_new")


def test_links() -> None:
    got = links("http://keezbord.local:8000", Tokens(referee="r", player="p"))
    assert got[Role.SPECTATOR] == "http://keezbord.local:8000/"
    assert got[Role.PLAYER] == "http://keezbord.local:8000/?token=p"
    assert got[Role.REFEREE] == "http://keezbord.local:8000/?token=r"


def test_token_store_makes_once_and_keeps(tmp_path: Path) -> None:
    store = TokenStore(tmp_path / "state" / "tokens.json")
    first = store.load()
    assert first.referee != first.player
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert store.load() == first  # a restart keeps everyone's links


def test_token_store_refuses_a_bad_file(tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    path.write_text("{not json")
    with pytest.raises(TokenError, match="not a keezbord token file"):
        TokenStore(path).load()


def test_token_store_narrows_a_wide_file(tmp_path: Path) -> None:
    """A token file found readable by others (restored from a backup) keeps its tokens
    and becomes 0600 on the next start; it stayed 0644 before."""
    path = tmp_path / "tokens.json"
    ref, play = "r" * 24, "p" * 24
    path.write_text(f'{{"referee": "{ref}", "player": "{play}"}}\n')
    path.chmod(0o644)
    assert TokenStore(path).load() == Tokens(referee=ref, player=play)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
