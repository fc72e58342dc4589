"""The board's name on the network: ``keezbord.local`` and an ``_http._tcp`` service
(``keezbord run`` starts it when the ``appliance`` extra is installed), so spectators
open http://keezbord.local:8000/ and phones' service browsers list the board.

zeroconf (pure Python) answers for the name itself: it works beside Raspberry Pi OS's
avahi (which answers for the Pi's host name) and needs no avahi configuration.
"""

from __future__ import annotations

import socket
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from zeroconf import ServiceInfo, Zeroconf

SERVICE_TYPE: Final = "_http._tcp.local."
HOST_NAME: Final = "keezbord"


class Announcer:
    """Announces the page at ``port`` on ``addresses`` until closed."""

    def __init__(
        self,
        port: int,
        addresses: Sequence[str],
        *,
        name: str = HOST_NAME,
        interfaces: Sequence[str] | None = None,
    ) -> None:
        from zeroconf import InterfaceChoice, IPVersion, ServiceInfo, Zeroconf

        self.zc: Zeroconf = Zeroconf(
            interfaces=list(interfaces) if interfaces is not None else InterfaceChoice.All,
            ip_version=IPVersion.V4Only,
        )
        self.host = f"{name}.local"
        self.info: ServiceInfo = ServiceInfo(
            SERVICE_TYPE,
            f"{name} board.{SERVICE_TYPE}",
            addresses=[socket.inet_aton(a) for a in addresses],
            port=port,
            properties={"path": "/", "app": "keezbord"},
            server=f"{self.host}.",
        )
        try:
            # Two boards on one network: the second becomes "keezbord board (2)".
            self.zc.register_service(self.info, allow_name_change=True)
        except BaseException:
            self.zc.close()
            raise

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.info.port}/"

    def close(self) -> None:
        try:
            self.zc.unregister_service(self.info)
        finally:
            self.zc.close()


def announce(port: int, address: str) -> Announcer | None:
    """Start announcing, or None when the ``appliance`` extra is not installed or the
    network refuses (the board then runs without a name; the banner says the address)."""
    try:
        import zeroconf  # noqa: F401
    except ModuleNotFoundError:
        return None
    try:
        return Announcer(port, [address])
    except (OSError, ValueError):
        return None
