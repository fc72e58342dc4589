"""Issue 28: a board's [link] and [remote] sections and the --link address, checked
before anything starts (one line naming the key)."""

from __future__ import annotations

from pathlib import Path

import pytest

from keezbord.host.club_settings import LinkUrlError, parse_link_url
from keezbord.host.config import ConfigError, parse_config


def test_the_link_address() -> None:
    s = parse_link_url("mqtts://oma@link.example.org/thuis?host=1&seats=2,0", "pw")
    assert (s.board, s.peer, s.broker, s.port, s.tls, s.host, s.seats) == (
        "oma", "thuis", "link.example.org", 8883, True, True, (0, 2)
    )  # fmt: skip
    plain = parse_link_url("mqtt://thuis:secret@10.0.0.2:1999/oma")
    assert (plain.password, plain.port, plain.tls, plain.host) == ("secret", 1999, False, False)
    assert parse_link_url("mqtts://a@b/c?ca=/etc/ca.crt", "x").ca == "/etc/ca.crt"


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("https://oma@b/thuis", "mqtts://"),
        ("mqtts://b/thuis", "this board's login"),
        ("mqtts://oma@b/", "the other board"),
        ("mqtts://oma@b/oma", "another board"),
        ("mqtts://Oma@b/thuis", "this board's login"),
        ("mqtts://oma@b:99999/thuis", "port"),
        ("mqtts://oma@b/thuis", "no password"),
        ("mqtts://oma@b/thuis?colour=red", "unknown option"),
        ("mqtts://oma@b/thuis?seats=a", "seats"),
    ],
)
def test_a_bad_link_address_is_one_line(url: str, says: str) -> None:
    with pytest.raises(LinkUrlError, match=says) as e:
        parse_link_url(url, None if says == "no password" else "pw")
    assert "\n" not in str(e.value)


def test_a_password_in_the_address_is_never_repeated_in_an_error() -> None:
    with pytest.raises(LinkUrlError) as e:
        parse_link_url("mqtts://oma:hunter2@b/oma")
    assert "hunter2" not in str(e.value) and ":***@" in str(e.value)


def test_the_link_and_remote_sections(tmp_path: Path) -> None:
    cfg = parse_config(
        {
            "link": {
                "board": "oma",
                "password": "p",
                "peer": "thuis",
                "ca": "ca.crt",
                "host": True,
                "seats": [2, 0],
            },
            "remote": {
                "seats": [3],
                "public_url": "https://k.example/",
                "trusted_proxies": ["::1"],
            },
            "club": {"board": "tafel-1", "password": "q", "tls": True},
        },
        "board.toml",
        tmp_path,
    )
    assert cfg.link is not None and cfg.link.seats == (0, 2) and cfg.link.port == 8883
    assert cfg.link.ca == str(tmp_path / "ca.crt")  # beside the board.toml
    assert cfg.remote.seats == (3,) and cfg.remote.public_url == "https://k.example/"
    assert cfg.remote.trusted_proxies == ("::1",)
    assert parse_config({}).remote.trusted_proxies == ()  # no proxy believed by default
    assert cfg.club is not None and cfg.club.tls and cfg.club.port == 8883
    assert not cfg.hints_given
    assert parse_config({"board": {"hints": "targets"}}).hints_given


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({"link": {"board": "oma", "peer": "oma"}}, "link.peer"),
        ({"link": {"board": "oma", "peer": "thuis", "seats": [9]}}, "link.seats"),
        ({"link": {"board": "oma", "peer": "thuis", "tls": "yes"}}, "link.tls"),
        ({"link": {"board": "oma", "peer": "thuis", "colour": 1}}, "unknown key"),
        ({"remote": {"seats": [0, 1, 2, 3]}}, "at least one seat"),
        ({"remote": {"seats": [1, 1]}}, "distinct"),
        ({"remote": {"public_url": "keezbord.example"}}, "https://"),
        ({"remote": {"trusted_proxies": "127.0.0.1"}}, "trusted_proxies"),
        ({"remote": {"trusted_proxies": ["localhost"]}}, "IP addresses"),
    ],
)
def test_bad_sections_are_one_line(data: dict[str, object], says: str) -> None:
    with pytest.raises(ConfigError, match=says):
        parse_config(data, "board.toml")
