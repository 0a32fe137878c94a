"""The host side of the LED link under random, truncated and corrupted bytes: only messages whose CRC holds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.ledlink import MAX_BODY, Decoder, LinkError, Message, decode, encode

MESSAGES = st.builds(Message, st.integers(0, 255), st.integers(0, 255), st.binary(max_size=300))


def _valid(message: Message) -> bool:
    """The message is what some frame with a correct CRC carried."""
    return decode(encode(message)[:-1]) == message and len(message.body) <= MAX_BODY


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=MAX_BODY + 40))
def test_decode_of_any_bytes_is_a_message_or_a_link_error(frame):
    try:
        message = decode(frame)
    except LinkError as error:
        assert error.reason in (1, 2, 3) and str(error)
    else:
        assert encode(message)[:-1] == frame and _valid(message)  # the one frame that carries it


@settings(max_examples=200, deadline=None)
@given(messages=st.lists(MESSAGES, min_size=1, max_size=6), data=st.data())
def test_a_stream_torn_and_corrupted_yields_only_messages_that_were_sent(messages, data):
    stream = bytearray(b"".join(encode(m) for m in messages))
    for _ in range(data.draw(st.integers(0, 4), label="damage")):
        at = data.draw(st.integers(0, len(stream) - 1), label="at")
        kind = data.draw(st.sampled_from(["flip", "cut", "insert", "truncate"]))
        if kind == "flip":
            stream[at] ^= data.draw(st.integers(1, 255))
        elif kind == "cut":
            del stream[at : at + data.draw(st.integers(1, 30))]
        elif kind == "insert":
            stream[at:at] = data.draw(st.binary(min_size=1, max_size=30))
        else:
            del stream[at:]
        if not stream:
            break
    decoder = Decoder()
    results: list[Message | LinkError] = []
    chunks = data.draw(st.lists(st.integers(1, 64), max_size=20), label="chunks")  # read() sizes
    rest = bytes(stream)
    for size in chunks:
        results += decoder.feed(rest[:size])
        rest = rest[size:]
    results += decoder.feed(rest + b"\x00")
    for result in results:
        assert isinstance(result, Message | LinkError)
        if isinstance(result, Message):
            # damage passes CRC-16 about once in 65,536 frames: far rarer than these examples
            assert _valid(result) and result in messages


def test_a_frame_over_the_limit_is_one_error_and_the_next_frame_still_decodes():
    decoder = Decoder()
    results = decoder.feed(b"\x01" * (MAX_BODY + 100) + b"\x00" + encode(Message(7, 0x80)))
    assert [type(r) for r in results] == [LinkError, Message] and results[1] == Message(7, 0x80)
