"""The board's name on the network, on loopback: announce in-process, then browse for
it as a phone would (another zeroconf instance) and resolve its address and port."""

from __future__ import annotations

import threading
import time

import pytest

zeroconf = pytest.importorskip("zeroconf", reason="the appliance extra (zeroconf)")

from keezbord.host.appliance.mdns import SERVICE_TYPE, Announcer  # noqa: E402


def test_the_board_is_announced_and_found_by_a_browser() -> None:
    from zeroconf import ServiceBrowser, ServiceListener, Zeroconf

    board = Announcer(8123, ["127.0.0.1"], interfaces=["127.0.0.1"])
    phone = Zeroconf(interfaces=["127.0.0.1"])
    seen: list[str] = []
    found = threading.Event()

    class Listener(ServiceListener):
        def add_service(self, zc: Zeroconf, type_: str, name: str) -> None:
            seen.append(name)
            found.set()

        def update_service(self, zc: Zeroconf, type_: str, name: str) -> None:
            pass

        def remove_service(self, zc: Zeroconf, type_: str, name: str) -> None:
            pass

    try:
        ServiceBrowser(phone, SERVICE_TYPE, Listener())
        assert found.wait(10), "the board was not found"
        name = next(n for n in seen if n.startswith("keezbord"))
        info = phone.get_service_info(SERVICE_TYPE, name, timeout=5000)
        assert info is not None
        assert info.port == 8123
        assert info.server == "keezbord.local."
        assert info.parsed_addresses() == ["127.0.0.1"]
        assert info.properties[b"path"] == b"/"
        assert board.url == "http://keezbord.local:8123/"
    finally:
        phone.close()
        board.close()


def test_the_name_resolves_and_goes_away_when_the_board_stops() -> None:
    from zeroconf import Zeroconf

    board = Announcer(8124, ["127.0.0.1"], interfaces=["127.0.0.1"])
    phone = Zeroconf(interfaces=["127.0.0.1"])
    try:
        info = phone.get_service_info(SERVICE_TYPE, f"keezbord board.{SERVICE_TYPE}", timeout=5000)
        assert info is not None and info.port == 8124
        board.close()
        time.sleep(0.5)
        gone = Zeroconf(interfaces=["127.0.0.1"])
        try:
            again = gone.get_service_info(
                SERVICE_TYPE, f"keezbord board.{SERVICE_TYPE}", timeout=1500
            )
            assert again is None
        finally:
            gone.close()
    finally:
        phone.close()
