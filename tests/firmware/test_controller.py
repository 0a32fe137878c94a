"""The firmware's logic under CPython: what the strip shows after each message, by the Pico's clock."""

from __future__ import annotations

import struct

from companion import ledlink
from tests.firmware.sim import controller, lights, machine, neopixel, pico

RED, GREEN, OFF = (255, 0, 0), (0, 255, 0), (0, 0, 0)


class Board:
    """A powered-up Pico with a stub strip; `send` returns the decoded answers."""

    def __init__(self) -> None:
        self.strips: list[neopixel.NeoPixel] = []
        self.pico = controller.Controller(self._pixels, 0)
        self.seq = 0

    def _pixels(self, pin: int, count: int, order: str) -> neopixel.NeoPixel:
        self.strips.append(pico.make_pixels(pin, count, order))
        return self.strips[-1]

    def send(self, kind: int, body: bytes = b"", now: int = 0) -> list[ledlink.Message | ledlink.LinkError]:
        self.seq += 1
        return self.raw(ledlink.encode(ledlink.Message(self.seq, kind, body)), now)

    def raw(self, data: bytes, now: int = 0) -> list[ledlink.Message | ledlink.LinkError]:
        answers = ledlink.Decoder().feed(self.pico.receive(data, now))
        self.pico.tick(now)
        return answers

    def strip(self) -> list[tuple[int, ...]]:
        return [self.strips[-1][i] for i in range(len(self.strips[-1]))]

    def configure(self, count: int = 10, max_ma: int = 2000) -> None:
        assert self.send(ledlink.HELLO, ledlink.hello_body())[0].type == ledlink.HELLO_REPLY  # type: ignore[union-attr]
        assert self.send(ledlink.CONFIG, ledlink.config_body(count, 2, "GRB", max_ma, 3))[0].type == ledlink.ACK  # type: ignore[union-attr]
        self.send(ledlink.BRIGHTNESS, b"\xff")


def test_power_on_self_test_sweeps_red_green_blue_then_waits_for_the_host() -> None:
    board = Board()
    assert len(board.strip()) == 244  # the default two-track board until the host says otherwise
    board.pico.tick(399)
    assert board.strip()[243] == (32, 0, 0) or board.strip()[0][0] > 0
    board.pico.tick(500)
    assert board.strip()[0] == (0, 8, 0)  # green at brightness 64
    board.pico.tick(1100)
    assert board.strip()[0][2] > 0
    board.pico.tick(1300)
    shown = board.strip()
    assert shown[1] == OFF and shown[0] != OFF  # the calm waiting glow on every sixth LED
    assert shown[6] == shown[0]


def test_hello_reports_version_and_capabilities() -> None:
    [reply] = Board().send(ledlink.HELLO, ledlink.hello_body())
    assert isinstance(reply, ledlink.Message)
    hello = ledlink.parse_hello_reply(reply.body)
    assert (hello.version, hello.max_leds, hello.firmware) == (1, 682, "crib-pico 1.0")
    assert hello.capabilities & ledlink.CAP_SPARSE and hello.capabilities & ledlink.CAP_CELEBRATE


def test_a_frame_and_a_sparse_update_reach_the_strip() -> None:
    board = Board()
    board.configure()
    board.send(ledlink.FRAME, ledlink.frame_body([RED] + [OFF] * 9))
    assert board.strip() == [RED] + [OFF] * 9
    board.send(ledlink.SET, ledlink.set_body([(0, OFF), (7, GREEN)]))
    assert board.strip() == [OFF] * 7 + [GREEN] + [OFF] * 2


def test_messages_before_config_and_bad_bodies_are_refused_and_change_nothing() -> None:
    board = Board()
    [nak] = board.send(ledlink.FRAME, ledlink.frame_body([RED] * 244))
    assert isinstance(nak, ledlink.Message) and nak.type == ledlink.NAK and nak.body == b"\x06"
    board.configure()
    board.send(ledlink.FRAME, ledlink.frame_body([GREEN] * 10))
    for kind, body in [
        (ledlink.FRAME, ledlink.frame_body([RED] * 9)),  # one LED short
        (ledlink.SET, ledlink.set_body([(10, RED)])),  # past the end
        (ledlink.WALK, ledlink.walk_body(RED, 80, [3, 99])),
        (0x42, b""),
    ]:
        [answer] = board.send(kind, body)
        assert isinstance(answer, ledlink.Message) and answer.type == ledlink.NAK
    assert board.strip() == [GREEN] * 10


def test_a_supply_too_small_for_the_idle_leds_is_refused() -> None:
    board = Board()
    board.send(ledlink.HELLO, ledlink.hello_body())
    [nak] = board.send(ledlink.CONFIG, ledlink.config_body(600, 2, "GRB", 500, 3))
    assert isinstance(nak, ledlink.Message) and nak.body == b"\x05"


def test_the_current_limit_dims_a_bright_frame_to_fit_the_supply() -> None:
    board = Board()
    board.configure(count=100, max_ma=500)  # 500 - 25 (Pico) - 100 idle = 375 mA for light
    board.send(ledlink.FRAME, ledlink.frame_body([(255, 255, 255)] * 100))  # 6 A if unlimited
    shown = board.strip()
    drawn = sum(sum(color) for color in shown) * lights.CHANNEL_MA / 255
    assert 300 < drawn <= 375
    assert len(set(shown)) == 1  # dimmed evenly


def test_a_walk_moves_the_peg_hole_by_hole_and_settles_on_the_picture() -> None:
    board = Board()
    board.configure()
    picture = [OFF] * 10
    picture[4] = RED
    board.send(ledlink.WALK, ledlink.walk_body(RED, 100, [1, 2, 3, 4]), now=1000)
    board.send(ledlink.FRAME, ledlink.frame_body(picture), now=1000)
    seen = []
    for now in (1000, 1150, 1250, 1399):
        board.pico.tick(now)
        seen.append([i for i, color in enumerate(board.strip()) if color != OFF])
    assert seen == [[1], [2], [3], [4]]
    board.pico.tick(1400)
    assert board.strip() == picture


def test_a_flash_blinks_then_celebration_chases() -> None:
    board = Board()
    board.configure()
    board.send(ledlink.FRAME, ledlink.frame_body([OFF] * 10))
    board.send(ledlink.FLASH, ledlink.flash_body(GREEN, 2, 200, [5]))
    board.send(ledlink.CELEBRATE, ledlink.celebrate_body(RED, 1000, list(range(10))))
    states = []
    for now in (50, 150, 250, 350):
        board.pico.tick(now)
        states.append(board.strip()[5])
    assert states == [GREEN, OFF, GREEN, OFF]
    dim = (31, 0, 0)
    board.pico.tick(450)  # 50 ms into the celebration: a run of four bright LEDs every eight, over a dim track
    assert board.strip() == [RED, dim, dim, dim, dim, RED, RED, RED, RED, dim]
    board.pico.tick(510)  # one step further along the track
    assert board.strip() == [RED, RED, dim, dim, dim, dim, RED, RED, RED, RED]
    board.pico.tick(1400)
    assert board.strip() == [OFF] * 10


def test_a_silent_host_gets_the_waiting_pattern_and_a_ping_brings_the_picture_back() -> None:
    board = Board()
    board.configure()
    board.send(ledlink.FRAME, ledlink.frame_body([RED] * 10))
    board.pico.tick(3001)
    assert board.strip()[0] != RED and board.strip()[1] == OFF
    board.send(ledlink.PING, now=3100)
    assert board.strip() == [RED] * 10


def test_a_resent_message_is_acknowledged_again_but_played_once() -> None:
    board = Board()
    board.configure()
    wire = ledlink.encode(ledlink.Message(77, ledlink.WALK, ledlink.walk_body(RED, 100, [1, 2])))
    assert [m.type for m in board.raw(wire) + board.raw(wire)] == [ledlink.ACK, ledlink.ACK]  # type: ignore[union-attr]
    assert len(board.pico.lights.effects) == 1


def test_garbled_frames_are_nakked_and_the_next_good_one_is_shown() -> None:
    board = Board()
    board.configure()
    good = ledlink.encode(ledlink.Message(50, ledlink.FRAME, ledlink.frame_body([GREEN] * 10)))
    broken = bytearray(good)
    broken[9] ^= 0x10
    board.send(ledlink.FRAME, ledlink.frame_body([OFF] * 10))
    answers = board.raw(bytes(broken) + good[: len(good) // 2])
    assert [(a.type, a.body) for a in answers] == [(ledlink.NAK, b"\x01")]  # type: ignore[union-attr]
    assert board.strip() == [OFF] * 10
    assert [a.type for a in board.raw(b"\x00" + good)] == [ledlink.NAK, ledlink.ACK]  # type: ignore[union-attr]
    assert board.strip() == [GREEN] * 10


def test_colour_order_reaches_the_wire() -> None:
    strip = pico.make_pixels(2, 1, "RGB")
    strip[0] = (1, 2, 3)
    assert bytes(strip.buf) == b"\x01\x02\x03"
    strip = pico.make_pixels(2, 1, "BRG")
    strip[0] = (1, 2, 3)
    assert bytes(strip.buf) == b"\x03\x01\x02"


def test_the_keypad_reports_debounced_presses_over_the_link() -> None:
    board = Board()
    board.pico.make_keypad = lambda rows, columns: pico.make_keypad(rows, columns, lambda: 0)
    board.configure()
    assert board.send(ledlink.KEYPAD, bytes((5, 6, 13, 19, 12, 16, 20, 26)))[0].type == ledlink.ACK  # type: ignore[union-attr]
    keypad = board.pico.keypad
    assert [timer.period for timer in machine.matrix.timers] == [5]  # scanned by a timer, every 5 ms
    machine.matrix.pressed.add((6, 16))  # row 1, column 1: key 5
    try:
        keypad.scan(100)  # the first reading only starts the debounce
        keypad.scan(110)
        assert board.pico.tick(115) == b""
        keypad.scan(125)
        events = ledlink.Decoder().feed(board.pico.tick(126))
    finally:
        machine.matrix.pressed.clear()
    assert [(m.type, m.body) for m in events] == [(ledlink.KEY, b"\x05\x01")]  # type: ignore[union-attr]
    keypad.scan(130)
    keypad.scan(160)
    assert [m.body for m in ledlink.Decoder().feed(board.pico.tick(160))] == [b"\x05\x00"]  # type: ignore[union-attr]


def test_presses_scanned_while_the_loop_is_busy_wait_in_order_with_their_times() -> None:
    # GO tapped twice and then 3 during one 400 ms turn of the main loop (a long frame being read): the timer
    # scans on, and the next turn sends all six changes in order; never more than one row is driven, and low
    board = Board()
    board.pico.make_keypad = lambda rows, columns: pico.make_keypad(rows, columns, lambda: 0)
    board.configure()
    board.send(ledlink.KEYPAD, bytes((5, 6, 13, 19, 12, 16, 20, 26)))
    keypad = board.pico.keypad
    machine.matrix.most_low = 0
    now = 1000
    for row, column in ((5, 26), (5, 26), (5, 20)):  # A (GO), A, 3
        machine.matrix.pressed.add((row, column))
        for _ in range(8):
            keypad.scan(now)
            now += 5
        machine.matrix.pressed.clear()
        for _ in range(8):
            keypad.scan(now)
            now += 5
    events = ledlink.Decoder().feed(board.pico.tick(now))
    assert [m.body for m in events] == [b"\x03\x01", b"\x03\x00", b"\x03\x01", b"\x03\x00",  # type: ignore[union-attr]
                                       b"\x02\x01", b"\x02\x00"]
    assert machine.matrix.most_low == 1


def test_config_message_layout() -> None:
    assert struct.unpack("<HB3sHB", ledlink.config_body(366, 2, "GRB", 2000, 3)) == (366, 2, b"GRB", 2000, 3)
