"""The board's HTTPS certificate: made once, kept, its fingerprint the one a browser shows, renewed when run out."""

from __future__ import annotations

import datetime
import hashlib
import ssl
import stat

from cryptography import x509

from companion.web.tls import CERT_FILE, DAYS, KEY_FILE, NAME, board_certificate


def test_the_certificate_is_made_at_the_first_start_and_kept(tmp_path):
    made = board_certificate(tmp_path)
    assert stat.S_IMODE((tmp_path / KEY_FILE).stat().st_mode) == 0o600
    der = ssl.PEM_cert_to_DER_cert((tmp_path / CERT_FILE).read_text())
    assert made.fingerprint == ":".join(f"{b:02X}" for b in hashlib.sha256(der).digest())
    assert made.short == made.fingerprint[:11] and len(made.short.split(":")) == 4
    cert = x509.load_der_x509_certificate(der)
    names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert NAME in names.get_values_for_type(x509.DNSName) and "localhost" in names.get_values_for_type(x509.DNSName)
    assert (cert.not_valid_after_utc - cert.not_valid_before_utc).days == DAYS
    assert board_certificate(tmp_path) == made  # kept: the phones that accepted it keep working
    made.context()  # the key and the certificate belong together


def test_a_run_out_or_broken_certificate_is_made_again(tmp_path):
    first = board_certificate(tmp_path)
    later = datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=DAYS + 1)
    assert board_certificate(tmp_path, now=later).fingerprint != first.fingerprint
    (tmp_path / CERT_FILE).write_text("not a certificate")
    assert board_certificate(tmp_path).fingerprint not in ("", first.fingerprint)
