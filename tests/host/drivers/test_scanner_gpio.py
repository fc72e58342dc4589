"""The Pi-direct 74HC165 scanner against a fake chain simulated bit by bit behind the
mock pin factory: the test asserts on the pin history and on the decoded switches."""

from __future__ import annotations

import itertools

import pytest

from keezbord.engine.topology import Topology
from keezbord.hardware.wiring import default_wiring
from keezbord.host.drivers.fakes import FakeShiftChain
from keezbord.host.drivers.pins import MockPinFactory
from keezbord.host.drivers.scanner_gpio import (
    BrokenChainError,
    ChainPins,
    ChainReader,
    Debouncer,
    GpioScanner,
)
from keezbord.host.drivers.switches import SwitchChange
from keezbord.host.events import HoleEvent

PINS = ChainPins(load=17, clock=27, data=22)


def make(chips: int = 2, tail: int = 8) -> tuple[MockPinFactory, FakeShiftChain, ChainReader]:
    clock = itertools.count()
    f = MockPinFactory(clock=lambda: next(clock))
    chain = FakeShiftChain(f, chips, PINS)
    return f, chain, ChainReader(f, chips * 8, PINS, tail_bits=tail)


def test_read_pulses_load_then_clocks_every_bit_in_order() -> None:
    f, chain, reader = make(chips=2, tail=4)
    f.history.clear()
    reader.read()
    ops = [(r.pin, r.op, r.level) for r in f.history]
    assert ops[:2] == [(17, "write", 0), (17, "write", 1)]
    # then per bit: read Q7, clock up, clock down; 16 board bits + 4 check bits
    body = ops[2:]
    assert len(body) == 20 * 3
    for k in range(20):
        assert body[3 * k : 3 * k + 3] == [
            (22, "read", body[3 * k][2]),
            (27, "write", 1),
            (27, "write", 0),
        ]
    times = [r.t for r in f.history]
    assert times == sorted(times)
    assert chain.loads == 1


def test_each_input_comes_out_at_its_own_bit_index() -> None:
    _, chain, reader = make(chips=3)
    for i in (0, 7, 8, 13, 23):
        chain.inputs = [1] * 24
        chain.close_switch(i)
        levels = reader.read()
        assert [j for j, lv in enumerate(levels) if lv == 0] == [i]


def test_broken_chain_is_detected_by_the_check_bits() -> None:
    _, chain, reader = make(chips=2)
    reader.read()
    chain.broken_from = 9  # the data line opens: the rest reads the pad's pull-down
    with pytest.raises(BrokenChainError) as e:
        reader.read()
    assert set(e.value.got) == {0}
    assert "broken" in str(e.value) and "onderbroken" in e.value.text.nl


def test_unpowered_board_reads_the_pull_down_and_is_caught() -> None:
    f = MockPinFactory()
    reader = ChainReader(f, 16, PINS)  # nothing drives QH: the pad's pull-down reads 0
    assert f.pulls[PINS.data] == 0  # the pull is the opposite of the tail level (1)
    with pytest.raises(BrokenChainError) as e:
        reader.read()
    assert e.value.got == (0,) * 8


def test_debouncer_needs_consistent_samples() -> None:
    d = Debouncer(3, samples=3)
    assert d.feed([1, 1, 1]) == []  # baseline
    assert d.feed([0, 1, 1]) == []
    assert d.feed([1, 1, 1]) == []  # a bounce: counting starts again
    assert d.feed([0, 1, 1]) == []
    assert d.feed([0, 1, 0]) == []
    assert d.feed([0, 1, 0]) == [(0, 0)]
    assert d.feed([0, 1, 0]) == [(2, 0)]
    assert d.stable == (0, 1, 0)


# the real board wiring: 2 seats of 7 holes give 30 holes on 4 chips, with spare inputs
WIRING = default_wiring(Topology(2, 7))


def test_scanner_reports_debounced_hole_events_through_the_wiring() -> None:
    _, chain, reader = make(chips=WIRING.chips)
    scanner = GpioScanner(reader, WIRING, samples=2)
    assert scanner.hole_events(0) == []  # baseline: everything open
    t5 = WIRING.switch_index("T5")
    spare = WIRING.switch_order.index(None)
    chain.close_switch(t5)
    chain.close_switch(spare)  # no hole on it: no event
    assert scanner.hole_events(5) == []
    assert scanner.hole_events(10) == [HoleEvent(10, "place", "T5")]
    assert scanner.closed_holes() == {"T5"}
    assert scanner.closed_switches() == {t5, spare}
    chain.close_switch(t5, False)
    assert scanner.scan(15) == []
    assert scanner.scan(20) == [SwitchChange(20, t5, False)]


def test_a_broken_read_feeds_nothing_to_the_debouncer() -> None:
    _, chain, reader = make(chips=WIRING.chips)
    scanner = GpioScanner(reader, WIRING, samples=1)
    scanner.scan(0)
    chain.broken_from = 3
    for t in (1, 2):
        with pytest.raises(BrokenChainError):
            scanner.scan(t)
    assert scanner.broken_reads == 2
    chain.broken_from = None
    assert scanner.scan(3) == []  # no phantom places from the floating line


def test_mock_factory_refuses_a_pin_twice() -> None:
    f = MockPinFactory()
    f.output(17)
    with pytest.raises(ValueError, match="GPIO17"):
        f.input(17)


@pytest.mark.pi
def test_rpi_gpio_factory_on_a_real_pi() -> None:
    from keezbord.host.drivers.pins import RPiGPIOFactory

    f = RPiGPIOFactory()
    try:
        out = f.output(PINS.clock)
        out.write(1)
        out.write(0)
        assert f.input(PINS.data).read() in (0, 1)
    finally:
        f.close()


def test_a_chain_fault_says_whether_the_bus_a_chip_count_or_an_open_line_is_at_fault() -> None:
    # issue 24 item 8: a double clock slides every bit behind the chip that saw it: the
    # signature arrives a bit early; a missing chip moves it by 8; an open line is all 0.
    from keezbord.host.drivers.scanner_gpio import (
        BrokenChainError,
        check_chain,
        signature_bits,
    )

    sig = list(signature_bits(0xA5))
    board = [1, 0, 1, 1] * 6  # 24 switch bits
    tail = [1] * 8

    def kind(levels: list[int]) -> str:
        try:
            check_chain(levels, 24, 0xA5)
        except BrokenChainError as e:
            return e.kind
        return "ok"

    assert kind(board + sig + tail) == "ok"
    assert kind(board[1:] + sig + tail + [1]) == "bus"  # one extra clock: a bit early
    assert kind([*board, 1, 1, *sig, *tail[:-2]]) == "bus"  # a missed load / late
    assert kind(board[8:] + sig + tail + [1] * 8) == "count"  # a chip missing
    assert kind([0] * 40) == "open"
    msg = ""
    try:
        check_chain(board[1:] + sig + tail + [1], 24, 0xA5)
    except BrokenChainError as e:
        msg = str(e) + e.text.nl
    assert "bus fault" in msg and "74LVC2G17" in msg and "busfout" in msg
