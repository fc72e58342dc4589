"""The Pi-direct readers (SPI and bit-banged) against a bit-level 74HC165 chain model
driven by the latch pin and the clock: the bit order, SPI mode 0, the latch ordering, and
every wiring fault (an open line at the pad's real level, a floating link mid-chain, a
missing chip, a wrong chip count) giving a chain fault, never closed switches."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Literal

import pytest

from keezbord.engine.topology import Topology
from keezbord.hardware.wiring import default_wiring
from keezbord.host.config import parse_config
from keezbord.host.drivers.fakes import FakeSpiDev, Hc165Chain
from keezbord.host.drivers.pins import MockPinFactory
from keezbord.host.drivers.scanner_gpio import (
    REFERENCE_SIGNATURE,
    SPI_MODE,
    BrokenChainError,
    ChainPins,
    ChainReader,
    GpioScanner,
    SpiChainReader,
    open_chain,
    scanner_from_config,
    signature_bits,
)

PINS = ChainPins(load=17, clock=27, data=22)
Method = Literal["spi", "bitbang"]
SIG = REFERENCE_SIGNATURE


class Rig:
    """A mock factory, a chain model on it, a reader of either kind, one shared clock."""

    def __init__(
        self,
        method: Method,
        chips: int,
        *,
        board_chips: int | None = None,
        signature: int | None = SIG,
        float_level: Callable[[], int] | None = None,
        mode: int | None = None,
    ) -> None:
        ticks = itertools.count()
        self.clock = lambda: next(ticks)
        self.factory = MockPinFactory(clock=self.clock)
        self.chain = Hc165Chain(
            self.factory,
            board_chips or chips,
            PINS,
            signature=signature,
            float_level=float_level,
            spi=method == "spi",
        )
        self.spi = FakeSpiDev(self.chain, clock=self.clock)
        self.spi.open(0, 0)
        self.reader: ChainReader | SpiChainReader = open_chain(
            self.factory,
            chips * 8,
            method=method,
            pins=PINS,
            signature=signature,
            spi=lambda: self.spi,
        )
        if mode is not None:
            self.spi.mode = mode


METHODS: tuple[Method, ...] = ("spi", "bitbang")


@pytest.mark.parametrize("method", METHODS)
def test_bit_i_is_chip_i_div_8_input_h_first(method: Method) -> None:
    rig = Rig(method, 3)
    assert rig.reader.read() == (1,) * 24  # all open
    for i in (0, 1, 7, 8, 15, 23):
        rig.chain.inputs = [1] * 24
        rig.chain.close_switch(i)
        levels = rig.reader.read()
        assert [j for j, lv in enumerate(levels) if lv == 0] == [i]


def test_spi_reader_sets_mode_0_and_reads_once_a_scan_after_the_latch() -> None:
    rig = Rig("spi", 24)
    assert SPI_MODE == 0 and rig.spi.mode == 0
    assert rig.spi.max_speed_hz == 1_000_000
    rig.factory.history.clear()
    rig.spi.transfers.clear()
    rig.reader.read()
    assert len(rig.spi.transfers) == 1  # one readbytes a scan
    t = rig.spi.transfers[0]
    assert t.n == 24 + 1 + 1  # the switch chips, the signature, one tail byte
    latch = [(r.t, r.level) for r in rig.factory.writes(PINS.load)]
    assert [lv for _, lv in latch] == [0, 1]
    assert latch[1][0] < t.t  # /PL is high again before the first clock edge
    assert rig.chain.edges == 26 * 8


def test_spi_mode_1_loses_input_h_and_is_a_chain_fault() -> None:
    rig = Rig("spi", 2, mode=1)
    with pytest.raises(BrokenChainError, match="signature"):
        rig.reader.read()
    no_sig = Rig("spi", 2, signature=None, mode=1)
    no_sig.chain.close_switch(0)  # H of chip 0 falls off the front: the read shifts by one
    assert 0 not in no_sig.reader.read()


@pytest.mark.parametrize("mode", [0, 2, 3])
def test_the_modes_that_sample_before_the_shift_read_correctly(mode: int) -> None:
    rig = Rig("spi", 2, mode=mode)
    rig.chain.close_switch(0)
    rig.chain.close_switch(9)
    levels = rig.reader.read()
    assert [i for i, lv in enumerate(levels) if lv == 0] == [0, 9]


def test_reading_while_the_latch_is_low_repeats_input_h() -> None:
    rig = Rig("spi", 2, signature=None)
    rig.chain.close_switch(3)
    rig.chain.latch(0)  # a reader that forgot to raise /PL: the chips keep loading
    assert rig.spi.readbytes(3) == [0xFF, 0xFF, 0xFF]  # H of chip 0, over and over
    rig.chain.close_switch(0)
    assert rig.spi.readbytes(3) == [0, 0, 0]


def test_spi_refuses_what_the_pi_refuses() -> None:
    rig = Rig("spi", 1)
    with pytest.raises(OSError):
        rig.spi.lsbfirst = True
    with pytest.raises(OSError):
        rig.spi.readbytes(4097)
    rig.spi.max_speed_hz = 20_000_000  # faster than the chips over the board's wiring
    with pytest.raises(BrokenChainError):
        rig.reader.read()
    with pytest.raises(ValueError, match="SPI clock"):
        SpiChainReader(rig.spi, rig.factory.output(5), 8, hz=20_000_000)
    with pytest.raises(ValueError, match="SPI0"):
        open_chain(MockPinFactory(), 8, method="spi", pins=ChainPins(load=9))


# --- faults: every one a chain fault, never a closed switch ---------------------------------

FLOATS: dict[str, Callable[[], int] | None] = {
    "floats-low": lambda: 0,
    "floats-high": lambda: 1,
    "floats-noisy": None,
}


def _fault(rig: Rig, fault: str) -> None:
    c = rig.chain
    if fault == "open-line":
        c.data_connected = False
    elif fault == "unpowered":
        c.powered = False
    elif fault == "floating-link":
        c.cut_after = 1  # chip 1's DS loose: chips 2.. never reach the reader
    elif fault == "missing-chip":
        c.missing = {2}
    elif fault == "tail-loose":
        c.tail_level = None
    else:
        raise AssertionError(fault)


FAULTS = ("open-line", "unpowered", "floating-link", "missing-chip", "tail-loose")


# A loose tail floating high reads as the tail level itself: the switches and the
# signature still arrive whole, so there is nothing wrong to catch in that one case.
CASES = [(f, fl) for f in FAULTS for fl in FLOATS if (f, fl) != ("tail-loose", "floats-high")]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(("fault", "floats"), CASES)
def test_a_wiring_fault_is_a_chain_fault_with_the_signature(
    method: Method, fault: str, floats: str
) -> None:
    rig = Rig(method, 4, float_level=FLOATS[floats])
    scanner = GpioScanner(rig.reader, samples=1)
    rig.chain.close_switch(5)
    scanner.scan(0)
    assert scanner.closed_switches() == {5}
    _fault(rig, fault)
    for t in range(1, 6):
        with pytest.raises(BrokenChainError):
            scanner.scan(t)
    assert scanner.closed_switches() == {5}  # the last good state, nothing invented
    assert scanner.broken_reads == 5


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("board_chips", [3, 5])
def test_a_wrong_chip_count_is_a_chain_fault(method: Method, board_chips: int) -> None:
    rig = Rig(method, 4, board_chips=board_chips)
    with pytest.raises(BrokenChainError, match="signature"):
        rig.reader.read()


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("fault", ["open-line", "unpowered"])
def test_an_open_line_is_caught_even_without_the_signature(method: Method, fault: str) -> None:
    rig = Rig(method, 3, signature=None)
    _fault(rig, fault)
    with pytest.raises(BrokenChainError, match="tail bits") as e:
        rig.reader.read()
    assert set(e.value.got) == {0}  # the pad's pull-down, not a kind 0xFF


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("floats", list(FLOATS))
def test_without_the_signature_a_floating_link_never_shows_closed_switches(
    method: Method, floats: str
) -> None:
    """What the signature chip is for: without it a link floating high passes the tail
    check (the far chips read as open), a low or noisy one is a fault. Never closed."""
    rig = Rig(method, 4, signature=None, float_level=FLOATS[floats])
    rig.chain.cut_after = 1
    try:
        levels = rig.reader.read()
    except BrokenChainError:
        assert floats != "floats-high"
        return
    assert floats == "floats-high" and 0 not in levels


def test_signature_bits_are_h_first() -> None:
    assert signature_bits(0xA5) == (1, 0, 1, 0, 0, 1, 0, 1)
    with pytest.raises(ValueError):
        signature_bits(256)


def test_scanner_from_config_picks_the_reader() -> None:
    wiring = default_wiring(Topology(2, 7))
    cfg = parse_config({"scanner": {"kind": "gpio", "signature": 0xA5}})
    assert cfg.scanner.method == "spi"
    f = MockPinFactory()
    chain = Hc165Chain(f, wiring.chips, ChainPins(cfg.scanner.load_pin), signature=0xA5, spi=True)
    spi = FakeSpiDev(chain)
    spi.open(0, 0)
    scanner = scanner_from_config(cfg.scanner, wiring, f, spi=lambda: spi)
    t5 = wiring.switch_index("T5")
    chain.close_switch(t5)
    for t in range(4):
        scanner.scan(t)
    assert scanner.closed_holes() == {"T5"}
    bb = parse_config({"scanner": {"kind": "gpio", "method": "bitbang"}})
    f2 = MockPinFactory()
    Hc165Chain(f2, wiring.chips, ChainPins(17, 27, 22), signature=0xA5)  # the default's
    s2 = scanner_from_config(bb.scanner, wiring, f2)
    assert isinstance(s2.reader, ChainReader) and f2.pulls[22] == 0
    s2.scan(0)


@pytest.mark.pi
def test_spi_reader_on_a_real_pi() -> None:  # pragma: no cover - needs the hardware
    """On a Pi with dtparam=spi=on: the real spidev takes mode 0 and one readbytes a scan;
    with no chain attached the pulled-down line fails the tail check."""
    from keezbord.host.drivers.pins import RPiGPIOFactory
    from keezbord.host.drivers.scanner_gpio import open_spidev

    f = RPiGPIOFactory()
    try:
        reader = open_chain(f, 8, method="spi", pins=PINS, spi=open_spidev)
        assert isinstance(reader, SpiChainReader) and reader.spi.mode == 0
        try:
            assert len(reader.read()) == 8  # a chain is attached
        except BrokenChainError as e:
            assert set(e.got) == {0}  # nothing attached: the pull-down, never a tail of 1s
        reader.close()
    finally:
        f.close()


def test_the_fake_spidev_refuses_settings_before_open_like_py_spidev() -> None:
    """py-spidev sets mode and speed by an ioctl on its file; before open() it fails."""
    spi = FakeSpiDev(Hc165Chain(None, 1))
    with pytest.raises(OSError):
        spi.mode = 0
    with pytest.raises(OSError):
        spi.max_speed_hz = 1_000_000
    spi.open(0, 0)
    spi.mode = 0
    spi.max_speed_hz = 1_000_000
    assert (spi.mode, spi.max_speed_hz) == (0, 1_000_000)


def test_spi_setup_refused_by_the_kernel_is_one_clear_error_and_frees_the_bus() -> None:
    f = MockPinFactory()
    spi = FakeSpiDev(Hc165Chain(None, 1))  # never opened: setting the mode fails
    closed: list[bool] = []
    spi.close = lambda: closed.append(True)  # type: ignore[method-assign]
    with pytest.raises(RuntimeError, match="SPI0 refused mode 0"):
        open_chain(f, 8, method="spi", pins=PINS, spi=lambda: spi)
    assert closed == [True]


def test_spidev_open_errors_are_runtime_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    from keezbord.host.drivers.scanner_gpio import open_spidev

    class Busy:
        def open(self, bus: int, device: int) -> None:
            raise OSError(16, "Device or resource busy")

    monkeypatch.setitem(sys.modules, "spidev", types.SimpleNamespace(SpiDev=Busy))
    with pytest.raises(RuntimeError, match=r"/dev/spidev0\.0: cannot open: Device or resource"):
        open_spidev()
