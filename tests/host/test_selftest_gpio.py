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
        Hc165Chain(f, 4, ChainPins(17, 27, 22))  # 2 seats of 8: 32 holes, 4 chips
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
        Hc165Chain(f, 4, ChainPins(17, 27, 22))
        return f

    monkeypatch.setattr(pins, "RPiGPIOFactory", factory)
    code = main(["selftest", "--config", str(cfg), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "LED strip (leds.driver = neopixel-spi, GPIO20)" in err
    assert "dtoverlay=spi1-1cs" in err
