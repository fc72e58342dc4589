"""doctor on a chain whose check bits fail: it says which signature this board's
configuration expects (the reference design's 0xA5 when the key is left out, none when
the board says so) and how to put it right, from the Pico itself or from the service."""

from __future__ import annotations

from pathlib import Path

from fake_tree import FIRMWARE, good_probes, healthy_service, pi5_pico

from keezbord.host.appliance.doctor import PicoReport, run_checks
from keezbord.host.appliance.paths import Layout

SIG_WRONG = "chain fault: signature byte wrong (wrong chip count or a floating input)"
BROKEN = PicoReport(FIRMWARE, False, None, chain_ok=False, log=("chain ok again", SIG_WRONG))


def _set_signature(layout: Layout, line: str) -> None:
    text = layout.config.read_text()
    assert "signature = 0xA5\n" in text  # the installed example's
    layout.config.write_text(text.replace("signature = 0xA5\n", line))


def _chain(layout: Layout, report: PicoReport) -> list[str]:
    found = run_checks(layout, good_probes(active=False, firmware=report))
    return [f"{f.text.en} -> {f.fix.en if f.fix else ''} | {f.text.nl}"
            for f in found if f.check == "chain"]  # fmt: skip


def test_a_broken_tail_names_the_expected_signature(tmp_path: Path) -> None:
    layout = pi5_pico(tmp_path)
    [line] = _chain(layout, BROKEN)
    assert "signature byte wrong" in line  # the firmware's own word on the fault
    assert "expects signature 0xA5" in line and "after the 12 switch chips" in line
    assert "terminator with the signature chip (0xA5)" in line
    assert 'signature = "none"' in line and "verwacht signatuur 0xA5" in line


def test_the_default_is_the_reference_designs_chip(tmp_path: Path) -> None:
    layout = pi5_pico(tmp_path)
    _set_signature(layout, "")  # the key left out
    [line] = _chain(layout, BROKEN)
    assert "expects signature 0xA5" in line


def test_a_board_without_the_chip_is_told_so(tmp_path: Path) -> None:
    layout = pi5_pico(tmp_path)
    _set_signature(layout, 'signature = "none"\n')
    [line] = _chain(layout, BROKEN)
    assert "expects no signature chip" in line and "signature = 0x.." in line
    _set_signature_any(layout, "signature = 0x5A\n")
    [line] = _chain(layout, BROKEN)
    assert "expects signature 0x5A" in line


def _set_signature_any(layout: Layout, line: str) -> None:
    text = layout.config.read_text().replace('signature = "none"\n', line)
    layout.config.write_text(text)


def test_a_good_chain_has_no_chain_finding(tmp_path: Path) -> None:
    layout = pi5_pico(tmp_path)
    assert _chain(layout, PicoReport(FIRMWARE, True, chain_ok=True)) == []


def test_the_service_link_says_it_too(tmp_path: Path) -> None:
    layout = pi5_pico(tmp_path)
    service = healthy_service(ok=False, chain_ok=False, log=[SIG_WRONG])
    found = {f.check: f for f in run_checks(layout, good_probes(service=service))}
    assert not found["chain"].ok and "expects signature 0xA5" in found["chain"].text.en


def test_a_pi_direct_board_is_asked_through_its_service(tmp_path: Path) -> None:
    from fake_tree import pi4_direct

    layout = pi4_direct(tmp_path)
    error = (
        "a chip too many or too few in the chain (the signature is 8 bits off) "
        "(signature 11111111, expected 10100101)"
    )
    service = healthy_service(kind="gpio", ok=False, chain_ok=False, error=error)
    found = [f for f in run_checks(layout, good_probes(service=service)) if f.check == "chain"]
    [chain] = found
    assert "expected 10100101" in chain.text.en and "expects signature 0xA5" in chain.text.en
    assert chain.fix is not None and "terminator" in chain.fix.en
    # a healthy chain, or the service stopped: nothing to say about it
    healthy = healthy_service(kind="gpio", chain_ok=True)
    assert not [f for f in run_checks(layout, good_probes(service=healthy)) if f.check == "chain"]
    quiet = good_probes(active=False, service=service)
    assert not [f for f in run_checks(layout, quiet) if f.check == "chain"]
