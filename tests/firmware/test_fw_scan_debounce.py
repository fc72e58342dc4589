# mypy: disable-error-code="import-not-found"
"""Scanning the 74HC165 chain (fake chain) and debouncing the samples."""

from __future__ import annotations

import pytest
from debounce import Debouncer
from fakes import FakeChain, FakeClock
from hypothesis import given, settings
from hypothesis import strategies as st
from scan import (
    FAULT_OPEN,
    FAULT_TAIL,
    RECOVER_SCANS,
    SPI_PHASE,
    SPI_POLARITY,
    ChainScanner,
)


def make(chips: int = 3) -> tuple[FakeChain, ChainScanner]:
    chain = FakeChain(chips, FakeClock())
    return chain, ChainScanner(chain, chain.latch, chips)


def settled(sc: ChainScanner) -> bool:
    """Scan until the chain is trusted (RECOVER_SCANS good reads in a row)."""
    return any(sc.scan() for _ in range(RECOVER_SCANS))


def test_bit_order_and_active_low() -> None:
    chain, sc = make()
    chain.set(0, True)  # chip 0, input H: first bit out
    chain.set(15, True)  # chip 1, input A
    assert settled(sc)
    assert bytes(sc.sample) == bytes([0x80, 0x01, 0x00])


def test_latch_pulsed_before_every_read() -> None:
    chain, sc = make()
    for _ in range(3):
        sc.scan()
    assert [v for _, v in chain.latch.history] == [0, 1] * 3
    assert chain.reads == 3 and chain.reads_unlatched == 0


def test_inputs_are_sampled_at_the_latch_not_at_the_read() -> None:
    chain, _ = make()
    chain.set(5, True)
    chain.latch.value(0)
    chain.latch.value(1)
    chain.set(5, False)  # after the load: the registers still hold "closed"
    buf = bytearray(4)
    chain.readinto(buf)
    assert buf[0] == 0xFF ^ 0x04


def test_trusted_only_after_consecutive_good_reads() -> None:
    chain, sc = make()
    assert [sc.scan() for _ in range(RECOVER_SCANS)] == [False] * (RECOVER_SCANS - 1) + [True]
    chain.break_after(1)
    assert not sc.scan() and sc.chain_errors == 1
    chain.repair()
    assert [sc.scan() for _ in range(RECOVER_SCANS)] == [False] * (RECOVER_SCANS - 1) + [True]


@pytest.mark.parametrize("cut", [0, 1, 2, 3])
def test_broken_chain_detected(cut: int) -> None:
    chain, sc = make()
    assert settled(sc) and sc.chain_ok
    chain.break_after(cut)  # cut == 3: only the tail (DS of the last chip) floats
    chain.float_level = 0
    assert not sc.scan()
    assert not sc.chain_ok and sc.chain_errors == 1
    assert sc.fault == (FAULT_OPEN if cut == 0 else FAULT_TAIL)
    chain.repair()
    assert settled(sc) and sc.chain_ok and sc.chain_errors == 1


# --- the bit-level 74HC165 model: the faults of a real chain ----------------------------


def scans(
    chain: FakeChain, chips: int, n: int = 300, signature: int | None = None, spi: object = None
) -> tuple[int, int, int]:
    """(trusted samples, faults, samples showing any closed switch) over n scans."""
    sc = ChainScanner(spi or chain, chain.latch, chips, signature=signature)
    good = faults = closed = 0
    for _ in range(n):
        if sc.scan():
            good += 1
            closed += any(sc.sample)
        elif sc.fault:
            faults += 1
    return good, faults, closed


def test_spi_mode_0_reads_input_h_of_chip_0_first() -> None:
    chain = FakeChain(2, signature=0xA5)
    chain.set(0, True)  # chip 0, input H (pin 6)
    buf = bytearray(4)
    chain.latch.value(0)
    chain.latch.value(1)
    chain.spi(SPI_POLARITY, SPI_PHASE).readinto(buf)
    # closed -> 0, MSB first: H of chip 0 is bit 7 of the first byte; then chip 1, the
    # signature chip, and the last chip's DS tied high.
    assert bytes(buf) == bytes([0x7F, 0xFF, 0xA5, 0xFF])
    assert (SPI_POLARITY, SPI_PHASE) == (0, 0)


def test_spi_mode_1_would_lose_input_h_and_is_caught() -> None:
    # CPHA 1 samples after the first shift: every bit moves up by one. The model
    # discriminates the modes; the signature turns the mistake into a chain fault.
    chain = FakeChain(2, signature=0xA5)
    chain.set(1, True)
    assert scans(chain, 2, 50, 0xA5, chain.spi(0, 1))[:2] == (0, 50)
    for mode in ((0, 0), (1, 0), (1, 1)):  # these sample before the shifting edge
        assert scans(chain, 2, 50, 0xA5, chain.spi(*mode))[0] > 40


@pytest.mark.parametrize("pad_level", [0, 1])
def test_open_line_is_a_fault_at_the_pads_real_level(pad_level: int) -> None:
    # Unplugged (line open): MISO reads its pad's pull. With the firmware's pull-down
    # and the tail tied high, that is a fault; a pull-up (the wrong pull) reads as a
    # chain of open switches with a good tail -- which is why the pull is DOWN.
    chain = FakeChain(3, pad_level=pad_level)
    chain.open_line()
    good, faults, closed = scans(chain, 3)
    assert closed == 0
    if pad_level == 0:
        assert good == 0 and faults == 300
    else:
        assert good > 0  # the hazard the pull-down removes: no fault on an open line


def test_unpowered_chain_is_a_fault() -> None:
    chain = FakeChain(3)
    chain.powered = False
    assert scans(chain, 3) == (0, 300, 0)


def test_old_design_tail_low_with_pad_pull_down_hid_an_open_line() -> None:
    # The finding of issue 9: tail level 0 and the pad's reset pull-down -> an unplugged
    # chain reads 0 everywhere, passes the tail check, and shows every switch closed.
    chain = FakeChain(3, tail_level=0)
    chain.open_line()
    sc = ChainScanner(chain, chain.latch, 3, tail_level=0)
    assert settled(sc) and all(b == 0xFF for b in sc.sample)


@pytest.mark.parametrize("level", [None, 0])
def test_floating_mid_chain_input_is_a_fault(level: int | None) -> None:
    chain = FakeChain(4, float_level=level)
    chain.set(3, True)
    chain.break_after(2)  # chip 1's DS floats (cut wire to chip 2's QH)
    good, faults, closed = scans(chain, 4, 1000)
    assert good == 0 and faults >= 990 and closed == 0


def test_floating_input_stuck_high_needs_the_signature() -> None:
    chain = FakeChain(4, float_level=1, signature=0xA5)
    chain.break_after(2)
    assert scans(chain, 4, 100, 0xA5) == (0, 100, 0)
    # Without a signature chip a floating input stuck high reads as open switches and a
    # good tail: no fault, but never closed switches either.
    plain = FakeChain(4, float_level=1)
    plain.break_after(2)
    assert scans(plain, 4, 100)[2] == 0


@pytest.mark.parametrize("missing", [0, 1, 3])
def test_missing_chip_is_a_fault(missing: int) -> None:
    chain = FakeChain(4, signature=0xA5)
    chain.break_after(missing)  # an empty socket: its neighbour's DS floats
    good, faults, closed = scans(chain, 4, 300, 0xA5)
    assert good == 0 and closed == 0 and faults >= 295


@pytest.mark.parametrize("fitted", [3, 5])
def test_wrong_chip_count_is_a_fault_with_the_signature(fitted: int) -> None:
    chain = FakeChain(4, fitted=fitted, signature=0xA5)
    for bit in range(0, fitted * 8, 3):
        chain.set(bit, bit % 2 == 0)
    good, faults, closed = scans(chain, 4, 100, 0xA5)
    assert (good, faults, closed) == (0, 100, 0)
    assert chain.closed  # (switches are closed on the real chips: still no sample)


def test_more_chips_configured_than_fitted_is_a_tail_fault_only_if_a_switch_is_closed() -> None:
    # Without the signature a chain one chip short reads the tail's ones as the missing
    # chip's open switches: documented in docs/protocol.md; the signature catches it.
    chain = FakeChain(4, fitted=3)
    assert scans(chain, 4, 20)[0] > 0
    chain.set(2, True)
    sc = ChainScanner(chain, chain.latch, 2)  # fewer configured than fitted, switch set
    chain.set(16, True)  # chip 2 shows up where the tail should be
    assert not any(sc.scan() for _ in range(10)) and sc.fault == FAULT_TAIL


def test_change_needs_consecutive_samples() -> None:
    d = Debouncer(2, samples=3)
    on = bytes([0x01, 0x00])
    off = bytes(2)
    assert d.update(on) == [] and d.update(on) == []
    assert d.update(on) == [(7, True)]
    assert d.update(on) == []
    assert d.closed(7)
    assert d.update(off) == [] and d.update(on) == []  # a bounce: never reported
    assert d.update(off) == [] and d.update(off) == []
    assert d.update(off) == [(7, False)]


def test_several_bits_in_one_pass() -> None:
    d = Debouncer(3, samples=2)
    s = bytes([0x80, 0x00, 0x03])
    d.update(s)
    assert d.update(s) == [(0, True), (22, True), (23, True)]


def test_reset_sets_state_without_changes() -> None:
    d = Debouncer(1, samples=2)
    d.reset(bytes([0xFF]))
    assert d.update(bytes([0xFF])) == []
    assert all(d.closed(i) for i in range(8))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 15), st.booleans(), st.integers(1, 6)), max_size=30),
    st.integers(1, 5),
)
def test_debounced_state_matches_reference(
    script: list[tuple[int, bool, int]], samples: int
) -> None:
    """Against a per-bit reference: a bit takes a value held for `samples` samples."""
    d = Debouncer(2, samples)
    raw = [False] * 16
    run = [samples] * 16  # how long each bit has held its raw value
    ref = [False] * 16
    for bit, level, hold in script:
        if raw[bit] != level:
            raw[bit] = level
            run[bit] = 0
        for _ in range(hold):
            sample = bytearray(2)
            for i in range(16):
                if raw[i]:
                    sample[i >> 3] |= 0x80 >> (i & 7)
                run[i] += 1
            changes = d.update(bytes(sample))
            expect = []
            for i in range(16):
                if run[i] >= samples and ref[i] != raw[i]:
                    ref[i] = raw[i]
                    expect.append((i, raw[i]))
            assert changes == expect
