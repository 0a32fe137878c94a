from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import ledlink

VECTORS: dict[str, Any] = json.loads((Path(ledlink.__file__).parent / "vectors.json").read_text())


@pytest.mark.parametrize("case", VECTORS["crc"], ids=lambda c: repr(c["text"]))
def test_crc_matches_the_published_check_values(case: dict[str, Any]) -> None:
    assert ledlink.crc16(case["text"].encode()) == case["crc"]


@pytest.mark.parametrize("case", VECTORS["cobs"], ids=lambda c: c["data"][:12] or "empty")
def test_cobs_matches_the_published_examples(case: dict[str, Any]) -> None:
    data = bytes.fromhex(case["data"])
    assert ledlink.cobs_encode(data) + b"\x00" == bytes.fromhex(case["wire"])
    assert ledlink.cobs_decode(bytes.fromhex(case["wire"])[:-1]) == data


@pytest.mark.parametrize("case", VECTORS["messages"], ids=lambda c: c["about"])
def test_messages_encode_and_decode_to_the_shared_bytes(case: dict[str, Any]) -> None:
    message = ledlink.Message(case["seq"], case["type"], bytes.fromhex(case["body"]))
    assert ledlink.encode(message).hex() == case["wire"]
    assert ledlink.Decoder().feed(bytes.fromhex(case["wire"])) == [message]


@pytest.mark.parametrize("case", VECTORS["rejected"], ids=lambda c: c["about"])
def test_damaged_frames_are_rejected_with_their_reason(case: dict[str, Any]) -> None:
    [result] = ledlink.Decoder().feed(bytes.fromhex(case["wire"]))
    assert isinstance(result, ledlink.LinkError)
    assert result.reason == case["reason"]


def test_a_stream_split_anywhere_gives_the_same_messages() -> None:
    stream = b"".join(bytes.fromhex(case["wire"]) for case in VECTORS["messages"])
    expected = ledlink.Decoder().feed(stream)
    for cut in range(0, len(stream), 7):
        decoder = ledlink.Decoder()
        assert decoder.feed(stream[:cut]) + decoder.feed(stream[cut:]) == expected


def test_noise_before_a_frame_is_one_rejection_and_the_frame_still_arrives() -> None:
    wire = bytes.fromhex(VECTORS["messages"][0]["wire"])
    results = ledlink.Decoder().feed(b"\x17\x42\x00" + wire)
    assert isinstance(results[0], ledlink.LinkError)
    assert results[1] == ledlink.Message(1, ledlink.HELLO, b"\x01")


def test_an_endless_frame_is_dropped_and_the_next_one_read() -> None:
    decoder = ledlink.Decoder()
    assert decoder.feed(b"\x01" * (ledlink.MAX_BODY + 100)) == []
    results = decoder.feed(b"\x00" + bytes.fromhex(VECTORS["messages"][0]["wire"]))
    assert [getattr(r, "reason", None) for r in results] == [3, None]


def test_bodies_say_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="colour order 'XYZ' is not one of"):
        ledlink.config_body(244, 2, "XYZ", 500, 3)
    assert ledlink.nak_reason(b"\x06") == "not configured: send CONFIG first"
    reply = ledlink.parse_hello_reply(bytes.fromhex(VECTORS["messages"][10]["body"]))
    assert reply == ledlink.HelloReply(1, 63, 682, "crib-pico 1.0")
