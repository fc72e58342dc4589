"""The harness's own instruments: the binaries are the provided ones, and the heap read
from outside agrees with MicroPython's gc.mem_free()."""

# mypy: disable-error-code="import-not-found"
from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from conftest import needs_node
from emu import BOOTROM, UF2, EmulatedPico

SHA256 = {
    UF2: "5daa8e5fcdb37f1d81ff1a720b6c632113a5b11336564c62db7cd0005354cd87",
    BOOTROM: "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae",
}


@pytest.mark.parametrize("path", list(SHA256), ids=lambda p: p.name)
def test_binaries_are_the_provided_ones(path: Path) -> None:
    assert hashlib.sha256(path.read_bytes()).hexdigest() == SHA256[path]


@pytest.mark.emulator
@needs_node
@pytest.mark.timeout(120)
def test_heap_read_from_outside_matches_gc_mem_free(tmp_path: Path) -> None:
    fw = tmp_path / "fw"
    fw.mkdir()
    (fw / "main.py").write_text(
        "import gc, time\n"
        "time.sleep_ms(200)\n"  # output before the host has the port open is dropped
        "gc.collect()\n"
        "x = [bytearray(100) for _ in range(50)]\n"  # a few kB in use, then measured
        "print('free=%d' % gc.mem_free())\n"
        "while True:\n"
        "    time.sleep_ms(50)\n"
    )
    pico = EmulatedPico(tmp_path / "pico", None, firmware_dir=fw, pace=0, echo_rx=True)
    try:
        pico.run_for(600)
        m = re.search(r"free=(\d+)", pico.call("rx_text")["text"])
        assert m, (pico.call("rx_text")["text"], pico.status())
        heap = pico.call("heap")
    finally:
        pico.stop()
    assert heap["found"]
    # The print's own string is allocated after gc.mem_free() ran: a block or two.
    assert 0 <= int(m.group(1)) - heap["free"] <= 64
    assert heap["total"] > 200_000
