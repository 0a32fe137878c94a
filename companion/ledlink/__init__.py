"""The host side of the LED co-processor protocol (firmware/PROTOCOL.md): pure encoding and decoding.

A message is `seq | type | length (u16 LE) | body | CRC-16/CCITT-FALSE (u16 BE)` over seq..body, COBS-encoded
and ended by one 0x00 byte. The firmware has its own copy of the framing (it cannot import this package);
`vectors.json` beside this file holds the bytes both sides must agree on.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

VERSION = 1
MAX_BODY = 2048
"""Largest body either side accepts: a whole frame of 682 LEDs."""

# host -> Pico
HELLO, CONFIG, FRAME, SET, BRIGHTNESS, WALK, FLASH, CELEBRATE, PING, KEYPAD = range(1, 11)
# Pico -> host
ACK, HELLO_REPLY, NAK, KEY = 0x80, 0x81, 0x82, 0x83

# capability bits in the HELLO reply
CAP_SPARSE, CAP_WALK, CAP_FLASH, CAP_CELEBRATE, CAP_KEYPAD, CAP_WATCHDOG = 1, 2, 4, 8, 16, 32

# NAK reasons (the firmware's names, firmware/link.py)
BAD_CRC, BAD_LENGTH, BAD_FRAMING, UNKNOWN_TYPE, BAD_BODY, NOT_CONFIGURED, BAD_VERSION = range(1, 8)
NAK_REASONS = {
    BAD_CRC: "CRC mismatch",
    BAD_LENGTH: "length field does not match the body",
    BAD_FRAMING: "bad COBS framing or frame too long",
    UNKNOWN_TYPE: "unknown message type",
    BAD_BODY: "bad body for this message type",
    NOT_CONFIGURED: "not configured: send CONFIG first",
    BAD_VERSION: "unsupported protocol version",
}

COLOR_ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")

Color = tuple[int, int, int]


class LinkError(ValueError):
    """Bytes that are not a valid message."""

    def __init__(self, reason: int, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result has no zero byte (as in the COBS paper and Wikipedia)."""
    out = bytearray(b"\x00")
    code_at, code = 0, 1
    for index, byte in enumerate(data):
        if byte:
            out.append(byte)
            code += 1
        if not byte or code == 0xFF:
            out[code_at] = code
            code = 1
            code_at = len(out)
            if not byte or index + 1 < len(data):
                out.append(0)
    if code_at < len(out):
        out[code_at] = code
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    if 0 in data:
        raise LinkError(BAD_FRAMING, "zero byte inside a COBS frame")
    out = bytearray()
    index = 0
    while index < len(data):
        code = data[index]
        end = index + code
        if end > len(data):
            raise LinkError(BAD_FRAMING, "COBS block runs past the end of the frame")
        out += data[index + 1 : end]
        index = end
        if code != 0xFF and index < len(data):
            out.append(0)
    return bytes(out)


@dataclass(frozen=True, slots=True)
class Message:
    seq: int
    type: int
    body: bytes = b""


def encode(message: Message) -> bytes:
    """The bytes on the wire for one message, delimiter included."""
    if len(message.body) > MAX_BODY:
        raise LinkError(BAD_LENGTH, f"body of {len(message.body)} bytes is over the limit of {MAX_BODY}")
    packet = struct.pack("<BBH", message.seq, message.type, len(message.body)) + message.body
    return cobs_encode(packet + struct.pack(">H", crc16(packet))) + b"\x00"


def decode(frame: bytes) -> Message:
    """One frame without its delimiter; LinkError with the NAK reason if it is not a valid message."""
    if len(frame) > MAX_BODY + 16:
        raise LinkError(BAD_FRAMING, "frame too long")
    packet = cobs_decode(frame)
    if len(packet) < 6:
        raise LinkError(BAD_LENGTH, "frame shorter than a header and CRC")
    seq, kind, length = struct.unpack_from("<BBH", packet)
    if length != len(packet) - 6:
        raise LinkError(BAD_LENGTH, f"length field says {length} bytes, the body has {len(packet) - 6}")
    if struct.unpack(">H", packet[-2:])[0] != crc16(packet[:-2]):
        raise LinkError(BAD_CRC, "CRC mismatch")
    return Message(seq, kind, packet[4:-2])


class Decoder:
    """Splits a byte stream into messages; bad frames come out as LinkError values, never as messages."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._overflow = False

    def feed(self, data: bytes) -> list[Message | LinkError]:
        results: list[Message | LinkError] = []
        for byte in data:
            if byte:
                if len(self._buffer) > MAX_BODY + 16:
                    self._overflow = True
                else:
                    self._buffer.append(byte)
                continue
            if self._overflow:
                results.append(LinkError(BAD_FRAMING, "frame too long"))
            elif self._buffer:
                try:
                    results.append(decode(bytes(self._buffer)))
                except LinkError as error:
                    results.append(error)
            self._buffer.clear()
            self._overflow = False
        return results


# Message bodies, host -> Pico


def hello_body() -> bytes:
    return bytes((VERSION,))


def config_body(led_count: int, pin: int, color_order: str, max_current_ma: int, watchdog_s: int) -> bytes:
    if color_order not in COLOR_ORDERS:
        raise ValueError(f"colour order {color_order!r} is not one of {', '.join(COLOR_ORDERS)}")
    return struct.pack("<HB3sHB", led_count, pin, color_order.encode(), max_current_ma, watchdog_s)


def _rgb(color: Color) -> bytes:
    return bytes(max(0, min(255, int(c))) for c in color)


def frame_body(frame: Sequence[Color]) -> bytes:
    return b"".join(_rgb(color) for color in frame)


def set_body(changes: Iterable[tuple[int, Color]]) -> bytes:
    return b"".join(struct.pack("<H", led) + _rgb(color) for led, color in changes)


def _leds(leds: Sequence[int]) -> bytes:
    return struct.pack(f"<{len(leds)}H", *leds)


def walk_body(color: Color, step_ms: int, leds: Sequence[int]) -> bytes:
    return _rgb(color) + struct.pack("<H", step_ms) + _leds(leds)


def flash_body(color: Color, times: int, period_ms: int, leds: Sequence[int]) -> bytes:
    return _rgb(color) + struct.pack("<BH", times, period_ms) + _leds(leds)


def celebrate_body(color: Color, duration_ms: int, leds: Sequence[int]) -> bytes:
    return _rgb(color) + struct.pack("<H", duration_ms) + _leds(leds)


# Message bodies, Pico -> host


@dataclass(frozen=True, slots=True)
class HelloReply:
    version: int
    capabilities: int
    max_leds: int
    firmware: str


def parse_hello_reply(body: bytes) -> HelloReply:
    if len(body) < 4:
        raise LinkError(BAD_BODY, "HELLO reply shorter than 4 bytes")
    version, capabilities, max_leds = struct.unpack_from("<BBH", body)
    return HelloReply(version, capabilities, max_leds, body[4:].decode("ascii", "replace"))


def nak_code(body: bytes) -> int:
    """The reason code of a NAK's body (0 when it has none)."""
    return body[0] if body else 0


def nak_reason(body: bytes) -> str:
    code = nak_code(body)
    return NAK_REASONS.get(code, f"reason {code}")
