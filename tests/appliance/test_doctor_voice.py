"""keezbord doctor and the board's speaker ([voice], docs/voice.md): nothing asked while
the voice is off; with it on, espeak-ng and aplay, the service's user in the group audio
and the configured ALSA device among the sound cards, each fault with its fix."""

from __future__ import annotations

from pathlib import Path

from fake_tree import good_probes, pi5_pico, write

from keezbord.host.appliance.doctor import Finding, Probes, run_checks
from keezbord.host.appliance.paths import Layout
from keezbord.host.appliance.service import Recorder

CARDS = (
    " 0 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones\n"
    "                      bcm2835 Headphones\n"
    " 1 [Device         ]: USB-Audio - USB Audio Device\n"
    "                      C-Media Electronics Inc. USB Audio Device at usb-xhci-hcd.1-1\n"
)


def _voice_tree(root: Path, device: str, in_audio: bool = True, cards: str = CARDS) -> Layout:
    layout = pi5_pico(root)
    cfg = layout.config.read_text()
    layout.config.write_text(cfg + f'\n[voice]\nlevel = "all"\ndevice = "{device}"\n')
    group = layout.at("/etc/group")
    group.write_text(group.read_text() + f"audio:x:29:{'keezbord' if in_audio else 'pi'}\n")
    if cards:
        write(root, "/proc/asound/cards", cards)
    return layout


def _voice(findings: list[Finding]) -> dict[str, Finding]:
    return {f.check: f for f in findings if "voice" in f.check or f.check == "group audio"}


def test_nothing_is_asked_of_a_board_without_voice(tmp_path: Path) -> None:
    assert _voice(run_checks(pi5_pico(tmp_path), good_probes())) == {}


def test_a_usb_speaker_named_in_board_toml_passes(tmp_path: Path) -> None:
    found = _voice(run_checks(_voice_tree(tmp_path, "plughw:CARD=Device,DEV=0"), good_probes()))
    assert set(found) == {"voice espeak-ng", "voice aplay", "group audio", "voice device"}
    assert all(f.ok for f in found.values()), found


def test_each_fault_is_named_with_its_fix(tmp_path: Path) -> None:
    layout = _voice_tree(tmp_path, "plughw:CARD=Speaker", in_audio=False)
    probes = good_probes()
    runner = probes.runner
    assert isinstance(runner, Recorder)
    runner.answers["espeak-ng --version"] = (127, "espeak-ng: not found")
    found = _voice(run_checks(layout, Probes(**{**probes.__dict__, "runner": runner})))
    bad = {k: f for k, f in found.items() if not f.ok}
    assert set(bad) == {"voice espeak-ng", "group audio", "voice device"}
    assert bad["voice espeak-ng"].fix is not None
    assert bad["voice espeak-ng"].fix.en == "sudo apt install espeak-ng"
    assert bad["group audio"].fix is not None
    assert "usermod -aG audio keezbord" in bad["group audio"].fix.en
    fix = bad["voice device"].fix
    assert fix is not None and "0 Headphones, 1 Device" in fix.en and "PipeWire" in fix.en


def test_no_sound_card_at_all_fails_the_default_device(tmp_path: Path) -> None:
    found = _voice(run_checks(_voice_tree(tmp_path, "default", cards=""), good_probes()))
    assert not found["voice device"].ok
