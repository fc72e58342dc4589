"""End to end: the firmware under the MicroPython unix port on a pty, the host's pyserial
client on the other end."""

# mypy: disable-error-code="import-not-found"
from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from keezbord.host.drivers import link_protocol as P
from keezbord.host.drivers.link_serial import SerialLink
from keezbord.host.drivers.switches import SwitchChange

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "firmware"))
from unix_pico import UnixPico, micropython_binary

pytestmark = [
    pytest.mark.micropython,
    pytest.mark.skipif(micropython_binary() is None, reason="no MicroPython unix port"),
    pytest.mark.timeout(60),
]


@pytest.fixture
def pico(tmp_path: Path) -> Iterator[UnixPico]:
    p = UnixPico(
        tmp_path / "strip.txt",
        "--chips",
        "3",
        "--leds",
        "6",
        "--debounce",
        "3",
        "--link-timeout",
        "600",
        "--heartbeat",
        "200",
    )
    yield p
    err = p.stop()
    assert "Traceback" not in err, err


def collect(
    link: SerialLink, until: Callable[[list[SwitchChange]], bool], timeout: float = 5.0
) -> list[SwitchChange]:
    out: list[SwitchChange] = []
    end = time.monotonic() + timeout
    while time.monotonic() < end and not until(out):
        out += link.poll(0.02)
    return out


def pairs(changes: list[SwitchChange]) -> list[tuple[int, bool]]:
    return [(c.index, c.closed) for c in changes]


def test_switch_changes_and_leds_through_micropython(pico: UnixPico) -> None:
    link = SerialLink(pico.path)
    assert link.connect(), link.last_error
    collect(link, lambda _: link.session.state is not None)
    assert link.session.hello is not None and link.session.hello.n_bits == 24

    link.session.test_switches([(0, True), (17, True)])
    got = collect(link, lambda c: len(c) >= 2)
    assert pairs(got) == [(0, True), (17, True)]

    link.send_leds([(255, 0, 0), (0, 0, 0), (0, 0, 255)])
    assert wait_until(lambda: any(f[:3] == bytes((0, 96, 0)) for _, f in pico.strip_frames()))
    frame = pico.strip_frames()[-1][1]
    assert frame == bytes((0, 96, 0, 0, 0, 0, 0, 0, 96)) + bytes(9)  # GRB, brightness 96

    collect(link, lambda _: link.health().firmware_counters.get("led_frames", 0) >= 1)
    h = link.health()
    assert h.ok and h.frames_bad == 0 and h.gaps == 0
    assert h.firmware_counters["scans"] > 0 and h.firmware_counters["rx_bad"] == 0
    link.close()


def test_garbage_from_the_host_is_survived(pico: UnixPico) -> None:
    link = SerialLink(pico.path)
    assert link.connect()
    collect(link, lambda _: link.session.state is not None)
    port = link._port
    assert port is not None
    port.write(b"\x00\xde\xad\xbe\xef" * 50 + b"\x01\x02\x03")
    link.session.test_switches([(5, True)])
    got = collect(link, lambda c: len(c) >= 1)
    assert pairs(got) == [(5, True)]
    collect(link, lambda _: link.health().firmware_counters.get("rx_bad", 0) >= 1)
    assert link.health().firmware_counters["rx_bad"] >= 1
    link.close()


def test_replug_resyncs_from_snapshot(pico: UnixPico) -> None:
    link = SerialLink(pico.path)
    assert link.connect()
    collect(link, lambda _: link.session.state is not None)
    link.session.test_switches([(3, True)])
    assert pairs(collect(link, lambda c: len(c) >= 1)) == [(3, True)]

    before = link.health().snapshots  # (1 or 2: the firmware also sends one at its first
    # trusted read, which this host may or may not have been connected for)
    link.close()  # unplugged: pawns move meanwhile, their CHANGES frames are lost
    pico.write_raw(P.encode_frame(P.CMD_TEST_SWITCHES, 0, P.u16(3) + P.u16(9 | P.CLOSED_FLAG)))
    time.sleep(0.2)
    assert link.connect()  # pyserial flushes what the firmware sent meanwhile
    got = collect(link, lambda c: len(c) >= 2)
    assert sorted(pairs(got)) == [(3, False), (9, True)]
    h = link.health()
    assert h.reconnects == 1 and h.snapshots == before + 1
    link.close()


def test_firmware_restart_is_followed(tmp_path: Path) -> None:
    first = UnixPico(tmp_path / "a.txt", "--chips", "1", "--leds", "2")
    where = {"path": first.path}
    link = SerialLink(None, find_port=lambda: where["path"], retry_ms=50)
    try:
        assert link.connect()
        collect(link, lambda _: link.session.state is not None)
        link.session.test_switches([(6, True)])
        assert pairs(collect(link, lambda c: len(c) >= 1)) == [(6, True)]
        first.stop()  # the Pico reboots (unplugged, power lost): a new port appears
        second = UnixPico(tmp_path / "b.txt", "--chips", "1", "--leds", "2")
        where["path"] = second.path
        try:
            got = collect(link, lambda c: len(c) >= 1, timeout=10)
            assert pairs(got) == [(6, False)]  # the fresh firmware sees an empty chain
            assert link.health().reconnects == 1 and link.connected
        finally:
            second.stop()
    finally:
        link.close()


def test_an_unplugged_pico_is_not_named_by_the_health(tmp_path: Path) -> None:
    # Between the unplug and the reopen (retry_ms) the health named the firmware heard
    # before: doctor took it for an answer. Whatever comes back may be another firmware.
    first = UnixPico(tmp_path / "a.txt", "--chips", "1", "--leds", "2")
    link = SerialLink(first.path, retry_ms=60_000)
    try:
        assert link.connect()
        collect(link, lambda _: link.health().firmware is not None)
        assert link.health().firmware == link.session.hello.version  # type: ignore[union-attr]
        first.stop()  # unplugged
        collect(link, lambda _: not link.connected, timeout=5)
        h = link.health()
        assert not h.connected and h.firmware is None and h.error and "read failed" in h.error
    finally:
        link.close()


def test_link_lost_pattern_when_host_goes_quiet(pico: UnixPico) -> None:
    link = SerialLink(pico.path, ping_ms=100)
    assert link.connect()
    collect(link, lambda _: link.session.ready)
    link.send_leds([(0, 0, 200)] * 6)
    collect(link, lambda _: link.health().firmware_counters.get("led_frames", 0) >= 1)
    assert link.health().firmware_counters["led_frames"] >= 1
    link.close()  # no more pings: after 600 ms the firmware shows the amber pattern

    def amber_shown() -> bool:
        frames = pico.strip_frames()
        last = frames[-1][1] if frames else b""
        return any(last[i : i + 3] == bytes((16, 48, 0)) for i in range(0, len(last), 3))

    assert wait_until(amber_shown, timeout=5)


def test_chain_faults_through_the_unix_port_firmware(pico: UnixPico) -> None:
    link = SerialLink(pico.path)
    assert link.connect()
    collect(link, lambda _: link.session.state is not None)
    link.session.test_switches([(5, True)])
    assert pairs(collect(link, lambda c: len(c) >= 1)) == [(5, True)]
    collect(link, lambda _: link.health().chain_ok is True)
    link.session.test_chain(0)  # the data line open: MISO reads its pull-down
    got = collect(link, lambda _: link.health().chain_ok is False)
    assert link.health().chain_ok is False and got == []
    assert any("open data line" in line for line in link.health().log)
    link.session.test_chain(2)  # cut after chip 1: chip 1's DS floats (wanders)
    got += collect(link, lambda _: False, timeout=1.0)
    link.session.test_chain(None)
    got += collect(link, lambda _: link.health().chain_ok is True)
    assert got == [] and link.health().chain_ok is True  # never phantom switches
    link.close()


def test_signature_chip_in_the_unix_port_firmware(tmp_path: Path) -> None:
    pico = UnixPico(
        tmp_path / "s.txt",
        "--chips",
        "2",
        "--leds",
        "2",
        "--signature",
        "165",
        "--heartbeat",
        "200",
    )
    link = SerialLink(pico.path)
    try:
        assert link.connect()
        collect(link, lambda _: link.health().chain_ok is True)
        assert link.health().chain_ok is True
        link.session.test_chain(2)  # the signature chip's socket empty: the tail floats
        collect(link, lambda _: link.health().chain_ok is False)
        assert link.health().chain_ok is False
    finally:
        link.close()
        err = pico.stop()
    assert "Traceback" not in err, err


def test_ports_are_opened_exclusively(pico: UnixPico) -> None:
    from keezbord.host.commands import firmware as fwcmd
    from keezbord.host.errors import UsageError

    first = SerialLink(pico.path)
    assert first.connect()
    second = SerialLink(pico.path)
    assert not second.connect()
    assert f"{pico.path} is held by pid {os.getpid()}" in (second.last_error or "")
    with pytest.raises(UsageError, match="is held by pid"):
        fwcmd._request_maintenance(pico.path, reappear_s=0)
    first.close()
    assert second.connect()
    second.close()


class WatchedPort:
    """A pyserial port that logs (time, "read"/"write", bytes) for the order test."""

    def __init__(self, path: str, log: list[tuple[float, str, bytes]]) -> None:
        import serial

        self.port = serial.serial_for_url(
            path, baudrate=115200, timeout=0.0, write_timeout=0.5, exclusive=True
        )
        self.log = log

    @property
    def timeout(self) -> float | None:
        return float(self.port.timeout) if self.port.timeout is not None else None

    @timeout.setter
    def timeout(self, v: float | None) -> None:
        self.port.timeout = v

    @property
    def in_waiting(self) -> int:
        return int(self.port.in_waiting)

    def read(self, size: int = 1) -> bytes:
        data = bytes(self.port.read(size))
        if data:
            self.log.append((time.monotonic(), "read", data))
        return data

    def write(self, data: bytes, /) -> int | None:
        self.log.append((time.monotonic(), "write", bytes(data)))
        return int(self.port.write(data) or 0)

    def close(self) -> None:
        self.port.close()


def test_host_sends_nothing_until_the_firmware_has_sent_a_valid_frame(tmp_path: Path) -> None:
    # The firmware takes 1.5 s to boot (as a Pico compiling its modules); the host opens
    # the port at once and keeps polling, LEDs and config requested meanwhile.
    pico = UnixPico(tmp_path / "s.txt", "--chips", "2", "--leds", "4", "--boot-delay", "1500")
    log: list[tuple[float, str, bytes]] = []
    link = SerialLink(pico.path, open_port=lambda p: WatchedPort(p, log), ping_ms=100)
    try:
        t0 = time.monotonic()
        assert link.connect()
        link.send_config(255, 0)
        link.set_leds([(9, 9, 9)] * 4)
        collect(link, lambda _: link.session.state is not None, timeout=10)
        assert link.session.state is not None
        first_write = next(t for t, kind, _ in log if kind == "write")
        decoder = P.Decoder()
        first_frame = next(t for t, kind, data in log if kind == "read" and decoder.feed(data))
        assert first_frame <= first_write
        assert first_write - t0 >= 1.0  # nothing went out during the boot
        collect(link, lambda _: link.health().firmware_counters.get("led_frames", 0) >= 1)
        assert link.session.led_updates == 1 and link.session.config == (255, 0)
    finally:
        link.close()
        err = pico.stop()
    assert "Traceback" not in err, err


def wait_until(cond: Callable[[], bool], timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.01)
    return False
