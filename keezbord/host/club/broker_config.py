"""Mosquitto's configuration for a club evening: the listener, a login per board and for
the tournament (password file made with Debian's ``mosquitto_passwd``), and the ACL that
lets each board publish only under its own topic (docs/club.md, protocol.py)."""

from __future__ import annotations

import getpass
import os
import secrets
import shutil
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

from . import protocol as p
from .store import Store, StoreError


@dataclass(frozen=True)
class BrokerFiles:
    conf: Path
    passwd: Path
    acl: Path
    boards: dict[str, Path]  # each board's [club] section, to copy into its board.toml


def acl_text() -> str:
    return (
        "# keezbord club: who may read and write what (generated: keezbord club broker-config)\n"
        f"user {p.TOURNAMENT_USER}\n"
        f"topic read {p.PREFIX}/board/#\n"
        f"topic write {p.PREFIX}/table/#\n"
        "\n"
        "# every board (%u is its login): publishes only under its own topic, reads only\n"
        "# what the tournament writes for it\n"
        f"pattern write {p.PREFIX}/board/%u/#\n"
        f"pattern read {p.PREFIX}/table/%u/#\n"
    )


def conf_text(out: Path, port: int, bind: str, user: str) -> str:
    data = out / "data"
    return (
        "# keezbord club: Mosquitto for one club evening (generated: keezbord club broker-config)\n"
        "# run: mosquitto -c " + str(out / "mosquitto.conf") + "\n"
        "per_listener_settings false\n"
        f"listener {port} {bind}\n"
        "allow_anonymous false\n"
        f"password_file {out / 'passwd'}\n"
        f"acl_file {out / 'acl'}\n"
        "# sessions, queued results and retained pairings survive a broker restart\n"
        "persistence true\n"
        f"persistence_location {data}/\n"
        "autosave_interval 5\n"
        "max_queued_messages 10000\n"
        f"user {user}\n"
        "log_dest stderr\n"
        "log_type error\n"
        "log_type warning\n"
    )


def tournament_password(store: Store) -> str:
    pw = store.meta("broker_password")
    if pw is None:
        pw = secrets.token_urlsafe(12)
        store.set_meta("broker_password", pw)
    return pw


def write_broker_config(
    store: Store, out: Path, *, port: int = 1883, bind: str = "0.0.0.0", host: str | None = None
) -> BrokerFiles:
    """Write mosquitto.conf, passwd, acl and boards/<name>.toml into ``out``."""
    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        raise StoreError(
            "mosquitto_passwd not found: install Debian's mosquitto (apt-get install mosquitto)"
        )
    boards = store.boards()
    if not boards:
        raise StoreError("no boards yet: add them first (keezbord club board add NAME)")
    out.mkdir(parents=True, exist_ok=True)
    (out / "data").mkdir(exist_ok=True)
    passwd = out / "passwd"
    passwd.unlink(missing_ok=True)
    passwd.touch(mode=0o600)
    logins = {p.TOURNAMENT_USER: tournament_password(store), **boards}
    for user, pw in logins.items():
        subprocess.run([tool, "-b", str(passwd), user, pw], check=True, capture_output=True)
    os.chmod(passwd, 0o600)
    acl = out / "acl"
    acl.write_text(acl_text(), encoding="utf-8")
    conf = out / "mosquitto.conf"
    conf.write_text(conf_text(out, port, bind, getpass.getuser()), encoding="utf-8")
    (out / "boards").mkdir(exist_ok=True)
    snippets = {}
    for name, pw in boards.items():
        f = out / "boards" / f"{name}.toml"
        f.write_text(board_section(name, pw, host or bind, port), encoding="utf-8")
        os.chmod(f, 0o600)
        snippets[name] = f
    return BrokerFiles(conf, passwd, acl, snippets)


def board_section(name: str, password: str, host: str, port: int) -> str:
    if host in ("0.0.0.0", "::"):  # no --host: this machine's mDNS name, not a made-up one
        host = f"{socket.gethostname().split('.')[0]}.local"
    return f'[club]\nboard = "{name}"\npassword = "{password}"\nbroker = "{host}"\nport = {port}\n'
