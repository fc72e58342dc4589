"""The rehearsal's Debian Bookworm root: built once per machine from Debian's packages
(debootstrap from deb.debian.org) and cached outside the repository, then copied for each
run so every run starts from the same fresh system.

The cache (``$KEEZBORD_REHEARSAL_CACHE``, default /var/cache/keezbord-rehearsal) holds the
base root (its name carries a hash of the recipe, so a changed recipe builds anew), and
the downloads apt and pip make during runs (pip's cache bound into each run's root, apt's
packages linked into each run's own archive folder and kept after it), so a warm run
fetches only what changed. Builds are serialised by a lock file: several checkouts on one
machine share one cache.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

SUITE = "bookworm"
MIRROR = "https://deb.debian.org/debian"
# What Raspberry Pi OS Lite has that the guide relies on: systemd as PID 1, sudo, Python 3,
# cron (the nightly export), certificates (apt and pip over https).
INCLUDE = ("systemd-sysv", "dbus", "sudo", "python3", "cron", "ca-certificates", "procps")
RECIPE = 2  # bump when the steps below change
SOURCES = (
    f"deb {MIRROR} {SUITE} main\n"
    f"deb {MIRROR} {SUITE}-updates main\n"
    f"deb https://security.debian.org/debian-security {SUITE}-security main\n"
)


HOST_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")


def cache_dir() -> Path:
    return Path(os.environ.get("KEEZBORD_REHEARSAL_CACHE", "/var/cache/keezbord-rehearsal"))


def recipe_key() -> str:
    authorities = HOST_BUNDLE.read_bytes() if HOST_BUNDLE.is_file() else b""
    text = repr((SUITE, MIRROR, INCLUDE, RECIPE, SOURCES, hashlib.sha1(authorities).hexdigest()))
    return hashlib.sha1(text.encode()).hexdigest()[:12]


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _run(argv: list[str], log: Path, timeout: float) -> None:
    with log.open("a") as out:
        out.write(f"$ {' '.join(argv)}\n")
        out.flush()
        done = subprocess.run(
            argv, stdout=out, stderr=subprocess.STDOUT, timeout=timeout, check=False
        )
    if done.returncode != 0:
        tail = log.read_text(errors="replace")[-2000:]
        raise RuntimeError(f"{argv[0]} failed ({done.returncode}); {log}:\n{tail}")


def _pems(text: str) -> list[str]:
    found = re.findall(r"-----BEGIN CERTIFICATE-----.+?-----END CERTIFICATE-----", text, re.S)
    return [pem + "\n" for pem in found]


def extra_authorities(root_bundle: Path) -> list[str]:
    """Certificate authorities this machine trusts beyond Debian's (a TLS-intercepting
    egress, say): the machine's network needs them as this one does."""
    if not HOST_BUNDLE.is_file():
        return []
    theirs = set(_pems(root_bundle.read_text())) if root_bundle.is_file() else set()
    return [p for p in _pems(HOST_BUNDLE.read_text()) if p not in theirs]


def base_root() -> Path:
    """The cached base root, built if missing (debootstrap; a few minutes on a cold
    machine)."""
    cache = cache_dir()
    base = cache / f"{SUITE}-{recipe_key()}"
    if (base / ".complete").exists():
        return base
    with locked(cache / "build.lock"):
        if (base / ".complete").exists():  # another checkout built it meanwhile
            return base
        tmp = base.with_name(base.name + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        log = cache / f"{base.name}.log"
        log.unlink(missing_ok=True)
        _run(
            ["debootstrap", "--variant=minbase", f"--include={','.join(INCLUDE)}", SUITE,
             str(tmp), MIRROR],
            log, 1800,
        )  # fmt: skip
        (tmp / "etc/apt/sources.list").write_text(SOURCES)
        # This machine's network needs its extra authorities (the rehearsal's too).
        store = tmp / "etc/ssl/certs/ca-certificates.crt"
        for k, pem in enumerate(extra_authorities(store)):
            (tmp / f"usr/local/share/ca-certificates/this-machine-{k}.crt").write_text(pem)
        # The image is current when it is written (Imager's download): the updates of
        # the day are in the base, so a run's full-upgrade only fetches what is newer.
        nspawn = ["systemd-nspawn", "--quiet", "--keep-unit", "--register=no", "-D", str(tmp)]
        env = "DEBIAN_FRONTEND=noninteractive"
        _run([*nspawn, "update-ca-certificates"], log, 300)
        update = "apt-get -o APT::Update::Error-Mode=any update"
        _run([*nspawn, "sh", "-c", f"{update} && {env} apt-get -y full-upgrade"], log, 1800)
        _run([*nspawn, "apt-get", "clean"], log, 300)
        (tmp / ".complete").write_text(recipe_key() + "\n")
        tmp.rename(base)
    return base


def fresh_root(dest: Path) -> Path:
    """A copy of the base root for one run (the base is never booted itself)."""
    base = base_root()
    subprocess.run(["cp", "-a", "--reflink=auto", str(base), str(dest)], check=True)
    return dest


def downloads() -> tuple[Path, Path]:
    """apt's archive folder and pip's cache, kept between runs."""
    apt = cache_dir() / "apt-archives"
    pip = cache_dir() / "pip-cache"
    (apt / "partial").mkdir(parents=True, exist_ok=True)
    pip.mkdir(parents=True, exist_ok=True)
    return apt, pip


def run_archives(dest: Path) -> Path:
    """apt's archive folder for one run, with the cache's packages in it (linked, or
    copied where a link cannot be): apt locks its archive folder, so two runs at once
    (two checkouts) must not share one; pip's cache is safe to share."""
    (dest / "partial").mkdir(parents=True, exist_ok=True)
    for deb in downloads()[0].glob("*.deb"):
        try:
            os.link(deb, dest / deb.name)
        except OSError:
            shutil.copy2(deb, dest / deb.name)
    return dest


def keep_archives(src: Path) -> None:
    """The packages a run fetched, added to the cache (each copied whole, then renamed
    into place, so a run reading the cache meanwhile never sees half a file)."""
    cache = downloads()[0]
    for deb in src.glob("*.deb"):
        target = cache / deb.name
        if target.exists():
            continue
        tmp = cache / f".{deb.name}.{os.getpid()}"
        shutil.copy2(deb, tmp)
        tmp.rename(target)
