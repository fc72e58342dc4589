"""Issue 28: TLS on the club's MQTT link (and every keezbord MQTT client), on a real
Mosquitto with the TLS listener ``keezbord club broker-config --tls`` writes and the
certificates it makes with Debian's openssl: a club board reports its result over TLS;
a client that does not check the certificate's authority, a plain client, a wrong
password and an anonymous login all fail."""

from __future__ import annotations

import dataclasses
import ssl
import threading
from pathlib import Path
from typing import Any

import pytest
from club_helpers import open_club, wait_for

from keezbord.host.club.mqtt_client import TlsSetupError, new_client, tls_context
from keezbord.host.club_settings import ClubSettings


def _connects(settings: ClubSettings, user: str | None = None, timeout: float = 5) -> Any:
    """The reason code of one connection attempt, or "failed" (no MQTT answer: TLS)."""
    got: list[Any] = []
    done = threading.Event()
    client = new_client(
        f"probe-{id(settings)}", user or settings.board, settings, clean_session=True
    )
    client.reconnect_delay_set(min_delay=60, max_delay=60)

    def on_connect(c: Any, u: Any, f: Any, rc: Any, p: Any) -> None:
        got.append(rc)
        done.set()

    def on_fail(c: Any, u: Any) -> None:
        got.append("failed")
        done.set()

    client.on_connect = on_connect
    client.on_connect_fail = on_fail
    client.connect_async(settings.broker, settings.port, 15)
    client.loop_start()
    done.wait(timeout)
    client.loop_stop()
    client.disconnect()
    return got[0] if got else "failed"


def test_a_club_evening_over_tls(tmp_path: Path) -> None:
    c = open_club(tmp_path, 2, 1, tls=True)
    try:
        conf = c.broker.files.conf.read_text()
        assert "certfile" in conf and "keyfile" in conf and "allow_anonymous false" in conf
        snippet = c.broker.files.boards["tafel-1"].read_text()
        assert "tls = true" in snippet and 'ca = "ca.crt"' in snippet
        assert c.tournament.connected.is_set()  # the tournament's own client: TLS too
        sim = c.sim("tafel-1", move_ms=0)
        c.tournament.pair_next(50)
        c.tournament.start_clock()
        wait_for(lambda: len(c.store.results()) == 1, 120, "the result over TLS")
        assert sim.link.connected.is_set()

        good = c.settings("tafel-1")
        assert not _connects(good).is_failure
        # The system's authorities do not know the club's own: refused by the board.
        assert _connects(dataclasses.replace(good, ca=None)) == "failed"
        # Plain MQTT to the TLS port: no MQTT answer at all.
        assert _connects(dataclasses.replace(good, tls=False, ca=None)) == "failed"
        wrong = _connects(dataclasses.replace(good, password="not-the-password"))
        assert wrong != "failed" and wrong.is_failure
        anonymous = _connects(dataclasses.replace(good, password=""), user="")
        assert anonymous != "failed" and anonymous.is_failure
    finally:
        c.close()


def test_a_bad_ca_file_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(TlsSetupError, match="no such file"):
        tls_context(str(tmp_path / "missing.crt"))
    (tmp_path / "bad.crt").write_text("not a certificate")
    with pytest.raises(TlsSetupError, match="not a certificate"):
        tls_context(str(tmp_path / "bad.crt"))
    ctx = tls_context(None)
    assert ctx.verify_mode is ssl.CERT_REQUIRED and ctx.check_hostname
    assert ctx.minimum_version >= ssl.TLSVersion.TLSv1_2
