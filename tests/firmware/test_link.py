"""The firmware's framing against the same vectors as the host (companion/ledlink/vectors.json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.firmware.sim import link

VECTORS: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[2] / "companion" / "ledlink" / "vectors.json").read_text()
)


@pytest.mark.parametrize("case", VECTORS["crc"], ids=lambda c: repr(c["text"]))
def test_crc(case: dict[str, Any]) -> None:
    assert link.crc16(case["text"].encode()) == case["crc"]


@pytest.mark.parametrize("case", VECTORS["cobs"], ids=lambda c: c["data"][:12] or "empty")
def test_cobs(case: dict[str, Any]) -> None:
    data = bytes.fromhex(case["data"])
    assert link.cobs_encode(data) + b"\x00" == bytes.fromhex(case["wire"])
    assert bytes(link.cobs_decode(bytes.fromhex(case["wire"])[:-1])) == data


@pytest.mark.parametrize("case", VECTORS["messages"], ids=lambda c: c["about"])
def test_messages(case: dict[str, Any]) -> None:
    body = bytes.fromhex(case["body"])
    assert link.encode(case["seq"], case["type"], body).hex() == case["wire"]
    assert link.Decoder().feed(bytes.fromhex(case["wire"])) == [(case["seq"], case["type"], body)]


@pytest.mark.parametrize("case", VECTORS["rejected"], ids=lambda c: c["about"])
def test_rejected(case: dict[str, Any]) -> None:
    [result] = link.Decoder().feed(bytes.fromhex(case["wire"]))
    assert isinstance(result, link.FrameError)
    assert result.reason == case["reason"]


def test_the_nak_reasons_have_the_same_numbers_on_both_sides() -> None:
    from companion import ledlink

    names = ("BAD_CRC", "BAD_LENGTH", "BAD_FRAMING", "UNKNOWN_TYPE", "BAD_BODY", "NOT_CONFIGURED", "BAD_VERSION")
    assert [getattr(link, name) for name in names] == [getattr(ledlink, name) for name in names] == list(range(1, 8))
