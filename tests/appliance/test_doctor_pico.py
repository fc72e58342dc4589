"""doctor's question to the Pico, asked for real: the firmware under the MicroPython
unix port on a pseudo-terminal answers with its version and a healthy link; a Pico that
says nothing is reported with the firmware install as its fix."""

# mypy: disable-error-code="import-not-found"
from __future__ import annotations

import os
import sys
from collections.abc import Callable
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


def test_doctor_just_after_a_replug_names_the_bare_micropython_not_the_cable(
    tmp_path: Path,
) -> None:
    # Found by the rehearsal on an idle machine: doctor typed right after the Pico came
    # back asked the service inside the second its link waits before reopening the port,
    # took the version heard before the unplug for an answer, and said "no link, check
    # the USB cable" where a bare MicroPython sat on the port. The service's own link
    # (pyserial, the default reopen delay) and doctor's wait, for real.
    import dataclasses
    import threading
    import time

    from keezbord import __version__
    from keezbord.host.appliance import checks_devices
    from keezbord.host.appliance.paths import Layout
    from keezbord.host.appliance.probes import ServiceReport
    from keezbord.host.drivers.link_serial import SerialLink

    node = tmp_path / "ttyACM0"  # the udev node: gone on unplug, a new device after it
    pico = UnixPico(tmp_path / "strip.txt", "--chips", "1", "--leds", "2", "--heartbeat", "200")
    node.symlink_to(pico.path)
    link, lock, stop = SerialLink(str(node)), threading.Lock(), threading.Event()

    def service() -> None:  # the service's board thread
        while not stop.is_set():
            with lock:
                link.poll(0.01)
            time.sleep(0.005)

    def ask_service(web: int) -> ServiceReport:  # GET /api/health
        with lock:
            return ServiceReport(__version__, {"link": link.health().to_dict()})

    def until(what: Callable[[], bool]) -> None:
        end = time.monotonic() + 10
        while not what():
            assert time.monotonic() < end
            time.sleep(0.01)

    thread = threading.Thread(target=service, daemon=True)
    thread.start()
    master = slave = -1
    try:
        until(lambda: ask_service(0).link.get("firmware") is not None)
        node.unlink()  # unplugged: the node goes, the port hangs up
        assert "Traceback" not in pico.stop()
        until(lambda: not ask_service(0).link.get("connected"))
        master, slave = os.openpty()  # plugged back in: MicroPython without our firmware
        node.symlink_to(os.ttyname(slave))
        probes = dataclasses.replace(good_probes(), ask_service=ask_service, settle_s=4.0)
        found = checks_devices._firmware_of_the_service(Layout(), "/dev/ttyACM0", probes)
    finally:
        stop.set()
        thread.join(timeout=5)
        link.close()
        for fd in (master, slave):
            if fd >= 0:
                os.close(fd)
    bad = {f.check: f.text.en for f in found if not f.ok}
    assert "no keezbord firmware on /dev/ttyACM0" in bad.get("firmware", ""), bad
    assert link.reconnects == 1  # the link did reopen the port it found again
