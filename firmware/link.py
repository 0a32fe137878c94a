# Framing of the link to the Pi (see PROTOCOL.md): COBS frames ended by 0x00, each holding
# seq | type | length (u16 LE) | body | CRC-16/CCITT-FALSE (u16 BE). A copy of companion/ledlink's framing,
# kept in step by the shared test vectors (companion/ledlink/vectors.json). MicroPython and CPython alike.
import struct

MAX_BODY = 2048
MAX_FRAME = MAX_BODY + 16

# NAK reasons
BAD_CRC = 1
BAD_LENGTH = 2
BAD_FRAMING = 3
UNKNOWN_TYPE = 4
BAD_BODY = 5
NOT_CONFIGURED = 6
BAD_VERSION = 7


class FrameError(Exception):
    def __init__(self, reason, seq=0):
        super().__init__(reason)
        self.reason = reason
        self.seq = seq


def crc16(data):
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def cobs_encode(data):
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    last = len(data) - 1
    for index in range(len(data)):
        byte = data[index]
        if byte:
            out.append(byte)
            code += 1
        if not byte or code == 0xFF:
            out[code_at] = code
            code = 1
            code_at = len(out)
            if not byte or index < last:
                out.append(0)
    if code_at < len(out):
        out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    out = bytearray()
    index = 0
    size = len(data)
    while index < size:
        code = data[index]
        end = index + code
        if code == 0 or end > size:
            raise FrameError(BAD_FRAMING)
        out.extend(data[index + 1 : end])
        index = end
        if code != 0xFF and index < size:
            out.append(0)
    return out


def encode(seq, kind, body=b""):
    packet = struct.pack("<BBH", seq & 0xFF, kind, len(body)) + bytes(body)
    return cobs_encode(packet + struct.pack(">H", crc16(packet))) + b"\x00"


def decode(frame):
    """(seq, type, body) of one frame without its delimiter, or FrameError with the NAK reason."""
    if len(frame) > MAX_FRAME:
        raise FrameError(BAD_FRAMING)
    packet = cobs_decode(frame)
    if len(packet) < 6:
        raise FrameError(BAD_LENGTH)
    seq, kind, length = struct.unpack("<BBH", packet[:4])
    if length != len(packet) - 6:
        raise FrameError(BAD_LENGTH, seq)
    if (packet[-2] << 8 | packet[-1]) != crc16(packet[:-2]):
        raise FrameError(BAD_CRC)
    return seq, kind, bytes(packet[4:-2])


class Decoder:
    """Bytes in, complete frames out: a list of (seq, type, body) tuples and FrameError values."""

    def __init__(self):
        self.buffer = bytearray()
        self.overflow = False

    def feed(self, data):
        results = []
        for byte in data:
            if byte:
                if len(self.buffer) >= MAX_FRAME:
                    self.overflow = True
                else:
                    self.buffer.append(byte)
                continue
            if self.overflow:
                results.append(FrameError(BAD_FRAMING))
            elif self.buffer:
                try:
                    results.append(decode(self.buffer))
                except FrameError as error:
                    results.append(error)
            self.buffer = bytearray()
            self.overflow = False
        return results
