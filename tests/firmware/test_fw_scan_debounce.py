# mypy: disable-error-code="import-not-found"
"""Scanning the 74HC165 chain (fake chain) and debouncing the samples."""

from __future__ import annotations

import pytest
from debounce import Debouncer
from fakes import FakeChain, FakeClock
from hypothesis import given, settings
from hypothesis import strategies as st
from scan import ChainScanner


def make(chips: int = 3) -> tuple[FakeChain, ChainScanner]:
    chain = FakeChain(chips, FakeClock())
    return chain, ChainScanner(chain, chain.latch, chips)


def test_bit_order_and_active_low() -> None:
    chain, sc = make()
    chain.set(0, True)   # chip 0, input H: first bit out
    chain.set(15, True)  # chip 1, input A
    assert sc.scan()
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


@pytest.mark.parametrize("cut", [0, 1, 2, 3])
def test_broken_chain_detected(cut: int) -> None:
    chain, sc = make()
    assert sc.scan() and sc.chain_ok
    chain.break_after(cut)  # cut == 3: only the tail (DS of the last chip) is wrong
    assert not sc.scan()
    assert not sc.chain_ok and sc.chain_errors == 1
    chain.repair()
    assert sc.scan() and sc.chain_ok and sc.chain_errors == 1


def test_wrong_chip_count_detected() -> None:
    chain = FakeChain(3, FakeClock())
    sc = ChainScanner(chain, chain.latch, 2)  # fewer configured than fitted
    chain.set(16, True)  # chip 2 shows up where the tail should be
    assert not sc.scan()


def test_tail_level_high() -> None:
    chain = FakeChain(2, FakeClock(), tail_level=1)
    assert ChainScanner(chain, chain.latch, 2, tail_level=1).scan()
    assert not ChainScanner(chain, chain.latch, 2, tail_level=0).scan()


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
@given(st.lists(st.tuples(st.integers(0, 15), st.booleans(), st.integers(1, 6)),
                max_size=30), st.integers(1, 5))
def test_debounced_state_matches_reference(script: list[tuple[int, bool, int]],
                                           samples: int) -> None:
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
