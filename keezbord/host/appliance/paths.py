"""Where the installed board keeps everything, under one root prefix.

``Layout(Path("/"))`` is the Pi; the tests (and ``--root`` on the command line) point it
at a fake tree, so the service commands and ``keezbord doctor`` touch nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

SERVICE: Final = "keezbord.service"
KIOSK_SERVICE: Final = "keezbord-kiosk.service"
USER: Final = "keezbord"
# The groups of the Pi's device nodes: /dev/gpiochip* and /dev/gpiomem (gpio),
# /dev/spidev* (spi), the serial ports and the Pico's /dev/ttyACM* (dialout).
GROUPS: Final = ("gpio", "spi", "dialout")
TOKENS_NAME: Final = "tokens.json"
DEFAULT_PORT: Final = 8000


@dataclass(frozen=True)
class Layout:
    root: Path = Path("/")

    def at(self, path: str) -> Path:
        """An absolute system path (``/etc/...``) inside this root."""
        return self.root / path.lstrip("/")

    @property
    def config_dir(self) -> Path:
        return self.at("/etc/keezbord")

    @property
    def config(self) -> Path:
        return self.config_dir / "board.toml"

    @property
    def state(self) -> Path:
        return self.at("/var/lib/keezbord")

    @property
    def journal(self) -> Path:
        return self.state / "keezbord.sqlite"

    @property
    def cards(self) -> Path:
        return self.state / "cards.json"

    @property
    def tokens(self) -> Path:
        return self.state / TOKENS_NAME

    @property
    def unit(self) -> Path:
        return self.at("/etc/systemd/system") / SERVICE

    @property
    def kiosk_unit(self) -> Path:
        return self.at("/etc/systemd/system") / KIOSK_SERVICE

    @property
    def boot_configs(self) -> tuple[Path, Path]:
        """config.txt: Bookworm's place first, then the older one."""
        return self.at("/boot/firmware/config.txt"), self.at("/boot/config.txt")

    @property
    def model(self) -> Path:
        return self.at("/proc/device-tree/model")

    @property
    def os_release(self) -> Path:
        return self.at("/etc/os-release")

    @property
    def group_file(self) -> Path:
        return self.at("/etc/group")

    @property
    def dev(self) -> Path:
        return self.at("/dev")


def state_tokens_path(state_dir: Path) -> Path:
    """The tokens file of a state folder (``keezbord run --state-dir``)."""
    return state_dir / TOKENS_NAME


def colon_rows(path: Path, fields: int) -> list[list[str]]:
    """The rows of a colon-separated system file (/etc/group, /etc/passwd) with at least
    ``fields`` fields; none if it cannot be read (a bare fake root)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    rows = (line.split(":") for line in lines if line and not line.startswith("#"))
    return [r for r in rows if len(r) >= fields]
