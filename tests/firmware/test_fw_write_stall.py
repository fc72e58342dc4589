"""Issue 24 item 9 under the MicroPython unix port: a host that stops reading never stalls
the firmware's loop and never gets a cut frame. The port (a non-blocking pty, as the
Pico's USB port never blocks) takes what fits; stream.PollStream keeps the rest of a frame
for the next pass and drops only whole frames, counted in tx_dropped."""

# mypy: disable-error-code="import-not-found"
from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from unix_pico import UnixPico, micropython_binary

from keezbord.host.drivers import link_protocol as P
from keezbord.host.drivers.link_serial import SerialLink

pytestmark = [
    pytest.mark.micropython,
    pytest.mark.skipif(micropython_binary() is None, reason="no MicroPython unix port"),
    pytest.mark.timeout(120),
]


@pytest.fixture
def pico(tmp_path: Path) -> Iterator[UnixPico]:
    p = UnixPico(tmp_path / "strip.txt", "--chips", "3", "--leds", "6", "--heartbeat", "100")
    yield p
    err = p.stop()
    assert "Traceback" not in err, err


def poll_until(link: SerialLink, cond: object, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not cond():  # type: ignore[operator]
        assert time.monotonic() < end, str(link.health().to_dict())
        link.poll(0.02)


def test_a_host_that_stops_reading_gets_whole_frames_and_the_loop_goes_on(pico: UnixPico) -> None:
    link = SerialLink(pico.path)
    assert link.connect(), link.last_error
    poll_until(link, lambda: link.session.state is not None)
    port = link._port
    assert port is not None
    poll_until(link, lambda: "scans" in link.health().firmware_counters)
    before = dict(link.health().firmware_counters)
    t0 = time.monotonic()
    # The host stops reading and asks for far more than the pty (about 68 KB) and the
    # firmware's 2 KB queue hold: 110 pings of 1000 bytes over 2.7 s, each answered by a
    # 1000-byte PONG. Meanwhile a pawn moves (the firmware must keep scanning to see it).
    payload = (bytes(range(1, 256)) * 4)[:1000]
    port.write(P.encode_frame(P.CMD_TEST_SWITCHES, 2000, P.u16(5 | P.CLOSED_FLAG)))
    for k in range(110):
        port.write(P.encode_frame(P.CMD_PING, 1000 + k, payload))
        time.sleep(0.025)
    time.sleep(1.0)
    stalled_s = time.monotonic() - t0
    # The host reads again: every frame it gets decodes, and the board is as it is.
    link.session.request_snapshot()
    poll_until(link, lambda: link.session.closed(5), timeout=30)
    t1 = time.monotonic()
    poll_until(link, lambda: time.monotonic() > t1 + 0.5)
    h = link.health()
    after = h.firmware_counters
    assert h.frames_bad == 0, h.to_dict()  # nothing was cut mid-frame
    assert after["tx_dropped"] > before["tx_dropped"]  # whole frames dropped, counted
    assert after["rx_bad"] == 0
    # the loop went on scanning through the stall (at 500 scans/s; a generous floor for a
    # loaded machine: a write that blocked would have stopped it for the whole stall)
    assert after["scans"] - before["scans"] > 100 * stalled_s
