"""Certificates for a broker's TLS listener, made with Debian's ``openssl`` (issue 28):
a small authority of its own (``ca.crt``, which each board is given to trust) and the
broker's certificate for the names the boards connect to, signed by it.

For a broker on the internet a certificate from a public authority (Let's Encrypt) is
better still: the boards then trust it with the system's authorities and need no
``ca`` (``keezbord club broker-config --tls-cert FILE --tls-key FILE``, docs/remote.md).
"""

from __future__ import annotations

import ipaddress
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class TlsFiles:
    """A TLS listener's files: ``ca`` (None: a certificate from a public authority)."""

    cert: Path
    key: Path
    ca: Path | None = None


class TlsError(ValueError):
    """openssl missing or failing (one line)."""


def _openssl() -> str:
    tool = shutil.which("openssl")
    if tool is None:
        raise TlsError("openssl not found: install Debian's openssl (apt-get install openssl)")
    return tool


def _run(argv: list[str]) -> None:
    r = subprocess.run(argv, capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise TlsError(f"openssl failed: {' '.join(r.stderr.split())[:300]}")


def _alt_names(names: list[str]) -> str:
    out = []
    for n in names:
        try:
            ipaddress.ip_address(n)
            out.append(f"IP:{n}")
        except ValueError:
            out.append(f"DNS:{n}")
    return ",".join(out)


def make_tls(out: Path, names: list[str], days: int = 825) -> TlsFiles:
    """An authority and a broker certificate for ``names`` (host names or addresses)
    in ``out`` (``ca.crt``, ``ca.key``, ``server.crt``, ``server.key``; keys mode 0600).
    An authority already there is kept (boards given its ``ca.crt`` stay good); the
    broker's certificate is made again for the names given."""
    tool = _openssl()
    out.mkdir(parents=True, exist_ok=True)
    ca_crt, ca_key = out / "ca.crt", out / "ca.key"
    crt, key = out / "server.crt", out / "server.key"
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    if not (ca_crt.exists() and ca_key.exists()):
        _run(
            [
                tool, "req", "-x509", *ec, "-keyout", str(ca_key), "-out", str(ca_crt),
                "-days", "3650", "-subj", "/CN=keezbord broker authority",
                "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ]
        )  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        csr, ext = Path(tmp) / "server.csr", Path(tmp) / "ext.cnf"
        ext.write_text(
            f"subjectAltName={_alt_names(names)}\n"
            "basicConstraints=critical,CA:FALSE\n"
            "keyUsage=critical,digitalSignature,keyEncipherment\n"
            "extendedKeyUsage=serverAuth\n"
        )
        _run([tool, "req", *ec, "-keyout", str(key), "-out", str(csr), "-subj", f"/CN={names[0]}"])
        _run(
            [
                tool, "x509", "-req", "-in", str(csr), "-CA", str(ca_crt), "-CAkey",
                str(ca_key), "-CAcreateserial", "-out", str(crt), "-days", str(days),
                "-extfile", str(ext),
            ]
        )  # fmt: skip
    for k in (ca_key, key):
        os.chmod(k, 0o600)
    (out / "ca.srl").unlink(missing_ok=True)
    return TlsFiles(crt, key, ca_crt)
