"""Mosquitto's configuration for a club evening: the listener (plain, or TLS with the
certificates of tls_files.py or the club's own), a login per board and for the
tournament (password file made with Debian's ``mosquitto_passwd``), and the ACL that
lets each board publish only under its own topic (docs/club.md, protocol.py); the same
pieces for two linked boards (``write_link_config``, docs/remote.md)."""

from __future__ import annotations

import getpass
import os
import secrets
import shutil
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

from . import link_protocol as lp
from . import protocol as p
from .store import Store, StoreError
from .tls_files import TlsFiles, make_tls


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
        "\n" + link_acl_text()
    )


def link_acl_text() -> str:
    return (
        "# linked games (docs/remote.md): a board writes only what it sends, reads only\n"
        "# what is sent to it\n"
        f"pattern write {lp.PREFIX}/%u/#\n"
        f"pattern read {lp.PREFIX}/+/%u/#\n"
    )


def conf_text(
    out: Path, port: int, bind: str, user: str, tls: TlsFiles | None = None, what: str = "club"
) -> str:
    data = out / "data"
    tls_lines = ""
    if tls is not None:
        tls_lines = (
            f"certfile {tls.cert}\n"
            f"keyfile {tls.key}\n"
            + (f"cafile {tls.ca}\n" if tls.ca is not None else "")
            + "tls_version tlsv1.2\n"
        )
    return (
        f"# keezbord {what}: Mosquitto (generated: keezbord {what} broker-config)\n"
        "# run: mosquitto -c " + str(out / "mosquitto.conf") + "\n"
        "per_listener_settings false\n"
        f"listener {port} {bind}\n" + tls_lines + "allow_anonymous false\n"
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
        pw = secrets.token_urlsafe(18)
        store.set_meta("broker_password", pw)
    return pw


Tls = TlsFiles | bool | None  # files given; True: made here (tls_files.py); None: plain


def write_broker_config(
    store: Store,
    out: Path,
    *,
    port: int = 1883,
    bind: str = "0.0.0.0",
    host: str | None = None,
    tls: Tls = None,
) -> BrokerFiles:
    """Write mosquitto.conf, passwd, acl and boards/<name>.toml into ``out``."""
    boards = store.boards()
    if not boards:
        raise StoreError("no boards yet: add them first (keezbord club board add NAME)")
    logins = {p.TOURNAMENT_USER: tournament_password(store), **boards}
    return _write(out, logins, acl_text(), boards, "club", port, bind, host, tls)


def _write(
    out: Path,
    logins: dict[str, str],
    acl_body: str,
    boards: dict[str, str],
    what: str,
    port: int,
    bind: str,
    host: str | None,
    tls: Tls,
    section: str = "club",
    extra: dict[str, str] | None = None,
) -> BrokerFiles:
    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        raise StoreError(
            "mosquitto_passwd not found: install Debian's mosquitto (apt-get install mosquitto)"
        )
    out.mkdir(parents=True, exist_ok=True)
    (out / "data").mkdir(exist_ok=True)
    host = _public(host or bind)
    files = make_tls(out / "tls", [host, "localhost", "127.0.0.1"]) if tls is True else tls
    files = files or None
    passwd = out / "passwd"
    passwd.unlink(missing_ok=True)
    passwd.touch(mode=0o600)
    for user, pw in logins.items():
        subprocess.run([tool, "-b", str(passwd), user, pw], check=True, capture_output=True)
    os.chmod(passwd, 0o600)
    acl = out / "acl"
    acl.write_text(acl_body, encoding="utf-8")
    conf = out / "mosquitto.conf"
    conf.write_text(conf_text(out, port, bind, getpass.getuser(), files, what), encoding="utf-8")
    (out / "boards").mkdir(exist_ok=True)
    ca = None
    if files is not None and files.ca is not None:
        ca = out / "boards" / "ca.crt"  # copied beside each board's board.toml
        shutil.copyfile(files.ca, ca)
    snippets = {}
    for name, pw in boards.items():
        f = out / "boards" / f"{name}.toml"
        text = board_section(name, pw, host, port, files is not None, ca is not None, section)
        f.write_text(text + (extra or {}).get(name, ""), encoding="utf-8")
        os.chmod(f, 0o600)
        snippets[name] = f
    return BrokerFiles(conf, passwd, acl, snippets)


def _public(host: str) -> str:
    if host in ("0.0.0.0", "::"):  # no --host: this machine's mDNS name, not a made-up one
        return f"{socket.gethostname().split('.')[0]}.local"
    return host


def board_section(
    name: str,
    password: str,
    host: str,
    port: int,
    tls: bool = False,
    ca: bool = False,
    section: str = "club",
) -> str:
    text = (
        f'[{section}]\nboard = "{name}"\npassword = "{password}"\nbroker = "{_public(host)}"\n'
        f"port = {port}\n"
    )
    if tls:
        text += "tls = true\n"
    elif section == "link":
        text += "tls = false\n"  # a linked board's default is TLS
    if ca:
        text += 'ca = "ca.crt"  # the broker\'s authority: copy boards/ca.crt beside board.toml\n'
    return text


def write_link_config(
    boards: tuple[str, str],
    out: Path,
    *,
    port: int = 8883,
    bind: str = "0.0.0.0",
    host: str | None = None,
    tls: Tls = True,
    host_seats: tuple[int, ...] = (0, 2),
) -> BrokerFiles:
    """A broker for two linked boards (docs/remote.md): a login each (passwords made
    here, kept in ``out/logins.json`` so a second run keeps them), the ACL, and each
    board's ``[link]`` section (the first board is the host of record)."""
    import json

    for b in boards:
        p.check_board_name(b)
    if boards[0] == boards[1]:
        raise StoreError("two different boards, e.g. oma,thuis")
    kept = out / "logins.json"
    logins: dict[str, str] = {}
    if kept.exists():
        logins = {str(k): str(v) for k, v in json.loads(kept.read_text()).items()}
    for b in boards:
        logins.setdefault(b, secrets.token_urlsafe(18))
    out.mkdir(parents=True, exist_ok=True)
    fd = os.open(kept, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump(logins, f)
    mine = {b: logins[b] for b in boards}
    seats = ", ".join(map(str, host_seats))
    extra = {
        boards[0]: f'peer = "{boards[1]}"\nhost = true\nseats = [{seats}]\n',
        boards[1]: f'peer = "{boards[0]}"\n',
    }
    return _write(out, mine, link_acl_text(), mine, "link", port, bind, host, tls, "link", extra)
