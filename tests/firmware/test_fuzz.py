"""Random and truncated bytes at the firmware's frame parser: never a crash, never a changed picture."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion import ledlink
from tests.firmware.sim import controller, neopixel, pico

PICTURE = [(10, 20, 30)] * 12
GOOD = ledlink.encode(ledlink.Message(9, ledlink.FRAME, ledlink.frame_body([(255, 0, 0)] * 12)))


def configured() -> tuple[controller.Controller, list[neopixel.NeoPixel]]:
    strips: list[neopixel.NeoPixel] = []

    def pixels(pin: int, count: int, order: str) -> neopixel.NeoPixel:
        strips.append(pico.make_pixels(pin, count, order))
        return strips[-1]

    board = controller.Controller(pixels, 0)
    for seq, (kind, body) in enumerate(
        [
            (ledlink.HELLO, ledlink.hello_body()),
            (ledlink.CONFIG, ledlink.config_body(12, 2, "GRB", 1000, 3)),
            (ledlink.FRAME, ledlink.frame_body(PICTURE)),
        ],
        start=1,
    ):
        board.receive(ledlink.encode(ledlink.Message(seq, kind, body)), 0)
    board.tick(0)
    return board, strips


def picture(strips: list[neopixel.NeoPixel]) -> list[tuple[int, ...]]:
    return [strips[-1][i] for i in range(len(strips[-1]))]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600))
def test_random_bytes_show_nothing(noise: bytes) -> None:
    board, strips = configured()
    before = picture(strips)
    replies = board.receive(noise, 5) + board.tick(5)
    assert picture(strips) == before
    assert all(isinstance(m, ledlink.Message) and m.type == ledlink.NAK for m in ledlink.Decoder().feed(replies))


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=len(GOOD) - 2), st.binary(max_size=40), st.integers(0, len(GOOD) - 2))
def test_cut_or_damaged_frames_show_nothing(cut: int, tail: bytes, flip: int) -> None:
    board, strips = configured()
    before = picture(strips)
    damaged = bytearray(GOOD)
    damaged[flip] = damaged[flip] ^ 0x5A or 1  # never a new delimiter
    for data in (GOOD[:cut] + tail + b"\x00", bytes(damaged)):
        board.receive(data, 5)
        board.tick(5)
        assert picture(strips) == before
    board.receive(b"\x00" + GOOD, 5)  # the link recovers at the next delimiter
    board.tick(5)
    assert picture(strips)[0] == (64, 0, 0)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_the_host_decoder_never_raises(noise: bytes) -> None:
    for item in ledlink.Decoder().feed(noise):
        assert isinstance(item, ledlink.Message | ledlink.LinkError)
