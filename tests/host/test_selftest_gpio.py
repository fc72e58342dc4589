"""`keezbord selftest` on a Pi-direct board whose LED strip cannot be opened (rpi_ws281x on a
Pi 4 without root, a missing backend): one line and exit 2, the GPIOs released."""

from __future__ import annotations

from pathlib import Path

import pytest

from keezbord.host.cli import main
from keezbord.host.drivers import pins, strip_neopixel
from keezbord.host.drivers.fakes import Hc165Chain
from keezbord.host.drivers.scanner_gpio import ChainPins


@pytest.mark.parametrize(
    "error",
    [
        RuntimeError("ws2811_init failed with code -5 (mmap() failed)"),
        ImportError("No module named 'neopixel'"),
    ],
)
def test_a_strip_that_cannot_open_is_one_line_and_exit_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    error: Exception,
) -> None:
    cfg = tmp_path / "board.toml"
    cfg.write_text(
        '[board]\nseats = 2\nsegment = 8\n[scanner]\nkind = "gpio"\nmethod = "bitbang"\n'
        '[leds]\ndriver = "neopixel"\n'  # Blinka's backend (a Pi 5's PIO, a Pi 4's PWM)
    )
    factories: list[pins.MockPinFactory] = []

    def factory() -> pins.MockPinFactory:
        f = pins.MockPinFactory()
        Hc165Chain(f, 4, ChainPins(17, 27, 22), signature=0xA5)  # 2 seats of 8: 32 holes, 4 chips
        factories.append(f)
        return f

    def no_strip(count: int, pin: int = 18) -> strip_neopixel.Pixels:
        raise error

    monkeypatch.setattr(pins, "RPiGPIOFactory", factory)
    monkeypatch.setattr(strip_neopixel, "open_neopixel", no_strip)
    code = main(["selftest", "--config", str(cfg), "--quiet", "--report", str(tmp_path / "r.json")])
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "LED strip" in err and str(error) in err
    assert factories and factories[0].closed  # the chain's GPIOs are released
    if isinstance(error, ImportError):  # says what to install, into the Pi's venv
        assert 'sudo /opt/keezbord/bin/pip install "$(ls -t /home/pi/keezbord-' in err


def test_no_gpio_library_says_which_extra_to_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = tmp_path / "board.toml"
    cfg.write_text('[board]\nseats = 2\nsegment = 8\n[scanner]\nkind = "gpio"\n')

    def no_rpi() -> pins.MockPinFactory:
        raise ImportError("No module named 'RPi'")

    monkeypatch.setattr(pins, "RPiGPIOFactory", no_rpi)
    assert (
        main(["selftest", "--config", str(cfg), "--quiet", "--report", str(tmp_path / "r.json")])
        == 2
    )
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and '[pi4]"' in err
    assert "sudo /opt/keezbord/bin/pip install" in err
    assert not (tmp_path / "r.json").exists()


def test_a_pi4s_spi_strip_without_spi1_says_the_config_txt_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # leds.driver auto on a Pi 4: the SPI strip on GPIO20; without /dev/spidev1.0 the
    # one line names dtoverlay=spi1-1cs.
    cfg = tmp_path / "board.toml"
    cfg.write_text(
        '[board]\nseats = 2\nsegment = 8\n[scanner]\nkind = "gpio"\nmethod = "bitbang"\n'
        '[leds]\ndriver = "neopixel-spi"\n'
    )

    def factory() -> pins.MockPinFactory:
        f = pins.MockPinFactory()
        Hc165Chain(f, 4, ChainPins(17, 27, 22), signature=0xA5)
        return f

    monkeypatch.setattr(pins, "RPiGPIOFactory", factory)
    code = main(["selftest", "--config", str(cfg), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "LED strip (leds.driver = neopixel-spi, GPIO20)" in err
    assert "dtoverlay=spi1-1cs" in err


def test_the_led_walk_on_a_pis_strip_needs_no_chain(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before the switches are in: no chain at all (its data line open), the strip walks.
    import io

    from keezbord.host.drivers.fakes import FakePixels, lit

    cfg = tmp_path / "board.toml"
    cfg.write_text(
        '[board]\nseats = 2\nsegment = 8\n[scanner]\nkind = "gpio"\nmethod = "bitbang"\n'
        '[leds]\ndriver = "neopixel"\n'
    )

    def factory() -> pins.MockPinFactory:
        f = pins.MockPinFactory()
        Hc165Chain(f, 4, ChainPins(17, 27, 22)).data_connected = False
        return f

    strips: list[FakePixels] = []

    def strip(count: int, pin: int = 18) -> FakePixels:
        strips.append(FakePixels(count))
        return strips[-1]

    monkeypatch.setattr(pins, "RPiGPIOFactory", factory)
    monkeypatch.setattr(strip_neopixel, "open_neopixel", strip)
    answers = ["\n"] * 16
    answers[3] = "n\n"  # the fourth LED stays dark
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(answers)))
    code = main(["selftest", "--config", str(cfg), "--leds", "--piece", "0", "--lang", "nl"])
    out = capsys.readouterr().out
    assert code == 1 and "16 LED's: 15 goed" in out and "brandt niet" in out
    shown = [lit(f.pixels) for f in strips[0].frames if lit(f.pixels)]
    assert [s[0] for s in dict.fromkeys(tuple(s) for s in shown)] == list(range(16))
