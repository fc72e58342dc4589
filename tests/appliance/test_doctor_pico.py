"""doctor's question to the Pico, asked for real: the firmware under the MicroPython
unix port on a pseudo-terminal answers with its version and a healthy link; a Pico that
says nothing is reported with the firmware install as its fix."""

# mypy: disable-error-code="import-not-found"
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from fake_tree import Port, good_probes, pi5_pico

from keezbord.host.appliance.doctor import run_checks
from keezbord.host.appliance.probes import Probes, ask_pico_over_usb

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "firmware"))
from unix_pico import UnixPico, micropython_binary

pytestmark = [
    pytest.mark.micropython,
    pytest.mark.skipif(micropython_binary() is None, reason="no MicroPython unix port"),
    pytest.mark.timeout(60),
]


def test_the_firmware_answers_with_its_version_and_health(tmp_path: Path) -> None:
    pico = UnixPico(tmp_path / "strip.txt", "--chips", "3", "--leds", "6", "--heartbeat", "200")
    try:
        report = ask_pico_over_usb(pico.path)
    finally:
        assert "Traceback" not in pico.stop()
    assert report.firmware is not None and report.firmware.startswith("keezbord-fw")
    assert report.ok, report
    # The same answer through doctor's checks, the Pico found by VID:PID on that port.
    layout = pi5_pico(tmp_path / "root")
    base = good_probes(active=False, ports=[Port(pico.path, 0x2E8A, 0x0005)])
    layout.config.write_text(layout.config.read_text().replace("/dev/ttyACM0", pico.path))
    (tmp_path / "root" / pico.path.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / "root" / pico.path.lstrip("/")).touch(mode=0o660)
    probes = Probes(
        runner=base.runner,
        usb_ports=base.usb_ports,
        importable=base.importable,
        ask_pico=lambda port: report,
        free_bytes=base.free_bytes,
        expected_firmware=report.firmware,
    )
    found = {f.check: f for f in run_checks(layout, probes)}
    assert found["firmware"].ok and "healthy" in found["firmware"].text.en


def test_a_silent_pico_is_reported(tmp_path: Path) -> None:
    # A port whose other end never speaks: a Pico without the keezbord firmware.
    master, slave = os.openpty()
    try:
        report = ask_pico_over_usb(os.ttyname(slave))
    finally:
        os.close(master)
        os.close(slave)
    assert not report.ok


def test_doctor_waits_for_a_service_that_is_still_binding_its_port() -> None:
    # `systemctl start` returns before the service listens; doctor typed right after it
    # must not call the service dead.
    import socket
    import threading
    import time

    from keezbord.host.appliance.probes import ask_service_over_http

    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()

    def serve_later() -> None:
        time.sleep(1.0)
        srv = socket.socket()
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind(("127.0.0.1", port))
        srv.listen(1)
        conn, _ = srv.accept()
        conn.recv(4096)
        body = b'{"version": "9.9", "health": null}'
        conn.sendall(b"HTTP/1.0 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
        conn.close()
        srv.close()

    th = threading.Thread(target=serve_later)
    th.start()
    report = ask_service_over_http(port, wait_s=10)
    th.join()
    assert report.version == "9.9" and report.error is None
    assert ask_service_over_http(port, wait_s=0.3).version is None  # nobody there now
