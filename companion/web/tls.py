"""The page's HTTPS certificate: phones open their camera only for a secure page.

A real board has no name a public authority would sign, so it makes its own certificate at the first start
(cryptography: an EC P-256 key and a self-signed certificate for cribbage.local, the host's own .local name and
localhost) and keeps it in the state directory. A phone accepts it once; its SHA-256 fingerprint, shown in the
board's menu and on the page, is what the player compares with the one the phone's browser shows. The certificate
lasts 825 days (the longest Apple's devices accept) and a new one is made at a start after it has run out.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import socket
import ssl
from dataclasses import dataclass
from pathlib import Path

CERT_FILE = "web-cert.pem"
KEY_FILE = "web-key.pem"
NAME = "cribbage.local"
DAYS = 825


@dataclass(frozen=True)
class Certificate:
    cert: Path
    key: Path
    fingerprint: str  # SHA-256 of the DER certificate, "AB:CD:..." as browsers show it

    @property
    def short(self) -> str:
        """The first four bytes of the fingerprint: what fits the OLED beside the address."""
        return self.fingerprint[:11]

    def context(self) -> ssl.SSLContext:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(self.cert, self.key)
        return context


def board_certificate(state_dir: Path, *, now: datetime.datetime | None = None) -> Certificate:
    """The board's certificate: the one kept in `state_dir` while it is valid, else a new one written there."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes

    now = now or datetime.datetime.now(datetime.UTC)
    cert_path, key_path = state_dir / CERT_FILE, state_dir / KEY_FILE
    try:
        kept = x509.load_pem_x509_certificate(cert_path.read_bytes())
        if kept.not_valid_after_utc > now and key_path.exists():
            return Certificate(cert_path, key_path, _colons(kept.fingerprint(hashes.SHA256())))
    except (OSError, ValueError):
        pass  # none yet, or unreadable: a new one
    return _make(cert_path, key_path, now)


def _make(cert_path: Path, key_path: Path, now: datetime.datetime) -> Certificate:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    host = socket.gethostname().split(".")[0] or "cribbage"
    names = dict.fromkeys([NAME, f"{host}.local", host, "localhost"])
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, NAME),
                         x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Cribbage Companion")])
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=DAYS))
            .add_extension(x509.SubjectAlternativeName(
                [*(x509.DNSName(name) for name in names), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .sign(key, hashes.SHA256()))
    cert_path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption()))
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return Certificate(cert_path, key_path, _colons(cert.fingerprint(hashes.SHA256())))


def _colons(digest: bytes) -> str:
    return ":".join(f"{byte:02X}" for byte in digest)
