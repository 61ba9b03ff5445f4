"""A throwaway certificate authority for tests, made with the openssl command line.

make_pki(directory) writes a CA, a server certificate for 127.0.0.1 / localhost and a
client certificate signed by it, plus a second, unrelated CA whose trust must fail.
Keys are unencrypted, valid for two days and never leave the test's temporary folder.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from infra.server import MissingBinary

DAYS = "2"


@dataclass(frozen=True)
class PKI:
    ca: Path           # trusted by clients and, for mutual TLS, by servers
    server_cert: Path  # CN=localhost, SAN IP:127.0.0.1 and DNS:localhost
    server_key: Path
    client_cert: Path  # CN=groundwatch, for mutual TLS
    client_key: Path
    other_ca: Path     # an unrelated CA: trusting only this one must fail the handshake


def _openssl(*args: str, cwd: Path) -> None:
    result = subprocess.run(["openssl", *args], cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"openssl {' '.join(args[:2])} failed: {result.stderr.strip()[-500:]}")


def _self_signed(directory: Path, name: str) -> tuple[Path, Path]:
    key, cert = directory / f"{name}.key", directory / f"{name}.pem"
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key.name, "-out", cert.name,
             "-days", DAYS, "-subj", f"/CN={name}", "-addext", "basicConstraints=critical,CA:TRUE",
             "-addext", "keyUsage=critical,keyCertSign,cRLSign", cwd=directory)
    return cert, key


def _signed(directory: Path, name: str, subject: str, ca: tuple[Path, Path], extensions: str) -> tuple[Path, Path]:
    key, csr, cert = directory / f"{name}.key", directory / f"{name}.csr", directory / f"{name}.pem"
    _openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", key.name, "-out", csr.name,
             "-subj", subject, cwd=directory)
    ext = directory / f"{name}.ext"
    ext.write_text(extensions)
    _openssl("x509", "-req", "-in", csr.name, "-CA", ca[0].name, "-CAkey", ca[1].name, "-CAcreateserial",
             "-out", cert.name, "-days", DAYS, "-extfile", ext.name, cwd=directory)
    return cert, key


def make_pki(directory: str | Path) -> PKI:
    if shutil.which("openssl") is None:
        raise MissingBinary("openssl is not installed (apt-get install openssl)")
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    ca = _self_signed(directory, "test-ca")
    server = _signed(directory, "server", "/CN=localhost", ca,
                     "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
    client = _signed(directory, "client", "/CN=groundwatch", ca, "extendedKeyUsage=clientAuth\n")
    other, _ = _self_signed(directory, "other-ca")
    return PKI(ca[0], server[0], server[1], client[0], client[1], other)
