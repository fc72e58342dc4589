"""Install, remove and inspect the systemd service (``keezbord service ...``).

Everything on disk goes through a ``Layout`` (a root prefix) and every system command
(useradd, chown, systemctl) through a ``Runner``: on the Pi that runs the command, under
a test's root prefix it only records it. Nothing written here is ever overwritten except
the unit files, which are ours: the configuration and the state (games, tokens, cards)
stay through a reinstall and an uninstall.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources

from keezbord.engine.text import Text
from keezbord.host.appliance.paths import (
    DEFAULT_PORT,
    GROUPS,
    KIOSK_SERVICE,
    SERVICE,
    USER,
    Layout,
    colon_rows,
)
from keezbord.host.appliance.system import Runner as Runner
from keezbord.host.appliance.system import user_id as user_id
from keezbord.host.appliance.unit import kiosk_unit, service_unit, sudo_keezbord
from keezbord.host.roles import Tokens, TokenStore


@dataclass
class Recorder:
    """A runner that runs nothing: for a root prefix (``--root``) and the tests. It
    answers ``answers[command]`` (exit status, output), else ``default``; ``echo`` is
    told each command (the command line prints them)."""

    calls: list[list[str]] = field(default_factory=list)
    answers: dict[str, tuple[int, str]] = field(default_factory=dict)
    default: tuple[int, str] = (0, "")
    echo: Callable[[str], None] | None = None

    def __call__(self, argv: Sequence[str]) -> tuple[int, str]:
        self.calls.append(list(argv))
        if self.echo is not None:
            self.echo(" ".join(argv))
        return self.answers.get(" ".join(argv), self.default)


class ServiceError(ValueError):
    """A step of install/uninstall that failed; one line."""


def example_config() -> str:
    return (
        resources.files("keezbord.host.appliance")
        .joinpath("board.example.toml")
        .read_text(encoding="utf-8")
    )


def installed_config(layout: Layout) -> str:
    """The example configuration with its files in the state folder (the service's
    working folder is the only one it may write)."""
    text = example_config()
    text = re.sub(
        r'^cards = "cards.json".*$', f'cards = "{layout.cards}"', text, count=1, flags=re.M
    )
    return re.sub(
        r'^journal = "keezbord.sqlite".*$',
        f'journal = "{layout.journal}"  # the service\'s state folder',
        text,
        count=1,
        flags=re.M,
    )


def existing_groups(layout: Layout, wanted: Sequence[str] = GROUPS) -> list[str]:
    """The device groups of ``wanted`` that this system has (/etc/group)."""
    have = {r[0] for r in colon_rows(layout.group_file, 1)}
    return [g for g in wanted if g in have]


def user_exists(layout: Layout, user: str = USER) -> bool:
    return user_id(layout, user) is not None


def install(
    layout: Layout,
    runner: Runner,
    command: Sequence[str],
    *,
    port: int = DEFAULT_PORT,
    kiosk_user: str | None = None,
) -> list[Text]:
    """Install and start the service; what was done, one line each."""
    said: list[Text] = []
    uid = None if kiosk_user is None else user_id(layout, kiosk_user)
    if kiosk_user is not None and uid is None:  # refused before anything is written
        raise ServiceError(f"--kiosk {kiosk_user}: no such user (the desktop's user, e.g. pi)")
    if layout.config.exists():
        said.append(Text(f"{layout.config}: behouden", f"{layout.config}: kept"))
    else:
        layout.config_dir.mkdir(parents=True, exist_ok=True)
        layout.config.write_text(installed_config(layout), encoding="utf-8")
        said.append(
            Text(
                f"{layout.config}: aangemaakt uit het voorbeeld (pas het aan je bord aan)",
                f"{layout.config}: made from the example (edit it for your board)",
            )
        )
    layout.state.mkdir(parents=True, exist_ok=True)
    os.chmod(layout.state, 0o700)
    TokenStore(layout.tokens).load()  # made once (0600), kept through reinstalls
    groups = existing_groups(layout)
    if not user_exists(layout):
        _run(
            runner,
            [
                "useradd",
                "--system",
                "--user-group",
                "--no-create-home",
                "--home-dir",
                str(layout.state),
                "--shell",
                "/usr/sbin/nologin",
            ]
            + (["--groups", ",".join(groups)] if groups else [])
            + [USER],
        )
        said.append(Text(f"gebruiker {USER} aangemaakt", f"user {USER} created"))
    elif groups:
        _run(runner, ["usermod", "--append", "--groups", ",".join(groups), USER])
    _run(runner, ["chown", "-R", f"{USER}:{USER}", str(layout.state)])
    layout.unit.parent.mkdir(parents=True, exist_ok=True)
    layout.unit.write_text(
        service_unit(layout, command, groups=groups, port=port),
        encoding="utf-8",
    )
    said.append(Text(f"{layout.unit}: geschreven", f"{layout.unit}: written"))
    units = [SERVICE]
    if kiosk_user is not None:
        layout.kiosk_unit.write_text(
            kiosk_unit(f"http://127.0.0.1:{port}/", user=kiosk_user, uid=uid or 1000),
            encoding="utf-8",
        )
        said.append(Text(f"{layout.kiosk_unit}: geschreven", f"{layout.kiosk_unit}: written"))
        units.append(KIOSK_SERVICE)
    _run(runner, ["systemctl", "daemon-reload"])
    _run(runner, ["systemctl", "enable", *units])
    # restart, not start: after an upgrade (docs/install-pi.md, step 11) a running
    # service must run the new keezbord; a stopped one is started.
    _run(runner, ["systemctl", "restart", *units])
    said.append(
        Text(
            f"{SERVICE} aan en (her)start; `keezbord service token` geeft de links",
            f"{SERVICE} enabled and (re)started; `keezbord service token` prints the links",
        )
    )
    return said


def uninstall(layout: Layout, runner: Runner) -> list[Text]:
    """Stop and remove the units; the configuration, games and tokens stay."""
    said: list[Text] = []
    units = [
        u for u, f in ((SERVICE, layout.unit), (KIOSK_SERVICE, layout.kiosk_unit)) if f.exists()
    ]
    if not units:
        return [Text("de dienst is niet geïnstalleerd", "the service is not installed")]
    _run(runner, ["systemctl", "disable", "--now", *units])
    for f in (layout.unit, layout.kiosk_unit):
        f.unlink(missing_ok=True)
    _run(runner, ["systemctl", "daemon-reload"])
    said.append(Text(f"{', '.join(units)} verwijderd", f"{', '.join(units)} removed"))
    said.append(
        Text(
            f"bewaard: {layout.config_dir} en {layout.state} (spellen, codes, kaarten)",
            f"kept: {layout.config_dir} and {layout.state} (games, tokens, cards)",
        )
    )
    return said


def status(layout: Layout, runner: Runner) -> tuple[int, list[str]]:
    """systemd's word on the service (exit status: 0 running, else not) and the paths."""
    lines = [
        f"unit:    {layout.unit} ({'installed' if layout.unit.exists() else 'not installed'})",
        f"config:  {layout.config} ({'present' if layout.config.exists() else 'missing'})",
        f"state:   {layout.state} ({'present' if layout.state.is_dir() else 'missing'})",
    ]
    rc, out = runner(["systemctl", "is-active", SERVICE])
    lines.append(f"service: {out or ('active' if rc == 0 else 'inactive')}")
    return (0 if rc == 0 else 3), lines


def tokens(layout: Layout) -> Tokens:
    """The service's tokens (made by install; read-only here)."""
    if not layout.tokens.exists():
        raise ServiceError(
            f"{layout.tokens}: no tokens yet (install the service: "
            f"{sudo_keezbord('service install')})"
        )
    return TokenStore(layout.tokens).read()


def _run(runner: Runner, argv: list[str]) -> None:
    rc, out = runner(argv)
    if rc != 0:
        raise ServiceError(f"{' '.join(argv)} failed ({rc}): {' '.join(out.split())[:200]}")
