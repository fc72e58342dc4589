"""The Pi 4's LEDs without root (issue 24 item 1): WS2812 data as an SPI byte stream on
SPI1's MOSI (GPIO20), decoded as the LEDs would at the clock the Pi's auxiliary SPI really
runs (fake_ws2812_spi.py): the frame must come out exact, and the stream must fail where
the real part fails (a scaled core clock, a slower clock, a frame split over transfers)."""

from __future__ import annotations

import pytest

from keezbord.host.drivers.fake_ws2812_spi import (
    FakeSpiBus,
    Ws2812Error,
    aux_spi_hz,
    decode,
)
from keezbord.host.drivers.strip_neopixel import NeoPixelStrip
from keezbord.host.drivers.strip_spi import (
    RESET_BYTES,
    SPI_HZ,
    SpiPixels,
    encode,
    frame_bytes,
    too_big,
)

FRAME = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (0x12, 0x34, 0x56), (0, 0, 0)] * 20


def test_the_aux_spi_runs_6_4_mhz_as_6_25_at_a_500_mhz_core() -> None:
    assert aux_spi_hz(500e6, SPI_HZ) == 6.25e6
    assert aux_spi_hz(250e6, SPI_HZ) == pytest.approx(6.25e6)  # set up at 250: divider 20


def test_a_frame_decodes_exactly_at_the_clock_the_pi_4_gives() -> None:
    bus = FakeSpiBus(core_hz=500e6, bufsiz=4096)
    strip = NeoPixelStrip(SpiPixels(bus, len(FRAME), bus.bufsiz))
    assert bus.max_speed_hz == SPI_HZ and bus.mode == 0
    strip.show(FRAME)
    strip.show(list(reversed(FRAME)))
    assert bus.frames() == [FRAME, list(reversed(FRAME))]
    assert len(bus.transfers) == 2  # one transfer a frame: no gap inside it
    assert bus.transfers[0].data.endswith(bytes(RESET_BYTES))
    assert RESET_BYTES * 8 / 6.25e6 >= 280e-6  # the V5's reset fits at the real clock


def test_a_core_clock_that_drops_under_the_frame_garbles_it() -> None:
    # Without core_freq_min=500 the VPU may run at 250 MHz: the bytes stretch, a 0's
    # 320 ns high becomes 640 ns: a 1.
    bus = FakeSpiBus(core_hz=500e6, core_hz_running=250e6)
    NeoPixelStrip(SpiPixels(bus, len(FRAME))).show(FRAME)
    with pytest.raises(Ws2812Error):
        assert bus.frames() == [FRAME]


def test_the_400_khz_clock_or_other_patterns_are_no_ws2812_bits() -> None:
    bus = FakeSpiBus()
    bus.max_speed_hz = 3_200_000
    bus.writebytes2(encode(FRAME))
    with pytest.raises(Ws2812Error, match="neither a 0 nor a 1"):
        bus.frames()


def test_a_frame_bigger_than_spidevs_buffer_is_refused_with_the_fix() -> None:
    # 192 LEDs (8 seats) are 4848 bytes: py-spidev would split them, the gap between the
    # two transfers latching half a frame.
    assert too_big(160, 4096) is None and frame_bytes(160) <= 4096
    why = too_big(192, 4096)
    assert why is not None and "spidev.bufsiz=65536" in why and "cmdline.txt" in why
    with pytest.raises(OSError, match=r"spidev\.bufsiz=65536"):
        SpiPixels(FakeSpiBus(), 192, 4096)
    bus = FakeSpiBus(bufsiz=65536)
    frame = FRAME * 2
    NeoPixelStrip(SpiPixels(bus, 200, bus.bufsiz)).show((frame + frame)[:200])
    assert len(bus.transfers) == 1 and bus.frames() == [(frame + frame)[:200]]
    # ... and the model sees what the refusal prevents: a split frame.
    split = FakeSpiBus(bufsiz=4096)
    split.max_speed_hz = SPI_HZ
    split.writebytes2(encode((frame + frame)[:200]))
    assert len(split.transfers) == 2
    with pytest.raises(Ws2812Error):
        assert split.frames() == [(frame + frame)[:200]]


def test_decode_reads_grb_msb_first() -> None:
    bus = FakeSpiBus()
    bus.max_speed_hz = SPI_HZ
    bus.writebytes2(encode([(0x80, 0x01, 0xFF)]))
    assert decode(bus.transfers) == [[(0x80, 0x01, 0xFF)]]
