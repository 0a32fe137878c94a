# The Pico's side of the conversation: messages from the Pi in, acknowledgements and key events out.
# Hardware comes in through factories so the same code runs on the Pico, under CPython tests and under the
# MicroPython WebAssembly build.
import struct

import link
from lights import Celebrate, Flash, Lights, Walk, light_budget_ma

VERSION = 1
FIRMWARE = "crib-pico 1.0"
MAX_LEDS = 682  # a whole frame fits in one message body (MAX_BODY / 3)
ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")

HELLO, CONFIG, FRAME, SET, BRIGHTNESS, WALK, FLASH, CELEBRATE, PING, KEYPAD = range(1, 11)
ACK, HELLO_REPLY, NAK, KEY = 0x80, 0x81, 0x82, 0x83
CAPABILITIES = 1 | 2 | 4 | 8 | 16 | 32  # sparse, walk, flash, celebrate, keypad, watchdog

WATCHDOG_MS = 2000  # the RP2040's watchdog (main.py): a loop that has not turned well for this long resets the Pico

# Used until the host sends CONFIG (and for the power-on self-test): the two-track board on GP2, from
# config.json on the Pico when present.
DEFAULTS = {"led_count": 244, "pin": 2, "order": "GRB", "max_current_ma": 500, "watchdog_s": 3}


class Controller:
    def __init__(self, make_pixels, now, defaults=None, make_keypad=None, restarted=False):
        """`make_pixels(pin, count, order)` returns the strip; `make_keypad(rows, columns)` a key scanner whose
        `take()` returns the (key, pressed, time) changes it has queued, or None when the board has no keypad
        support. `restarted`: the watchdog reset the Pico, which goes straight to the dim waiting pattern."""
        self.make_pixels = make_pixels
        self.make_keypad = make_keypad
        self.settings = dict(DEFAULTS)
        if defaults:
            self.settings.update(defaults)
        self.decoder = link.Decoder()
        self.keypad = None
        self.last_seq = None
        self.heard = now
        self.configured = False
        self.failed = False
        self.key_seq = 0
        settings = self.settings
        self.lights = Lights(
            make_pixels(settings["pin"], settings["led_count"], settings["order"]),
            settings["led_count"],
            settings["max_current_ma"],
            now,
        )
        if restarted:
            self.lights.selftest_until = now

    def turn(self, data, now, watchdog):
        """One turn of the main loop: the host's bytes in, the LEDs drawn, the bytes for the host out. Only a
        turn that worked feeds the watchdog: after an error the strip shows the dim waiting pattern and the loop
        does nothing more, so the watchdog resets the Pico and the host sends the whole board again."""
        if self.failed:
            return b""
        try:
            reply = self.receive(data, now) if data else b""
            reply += self.tick(now)
        except Exception:  # a bug: never leave the strip as it was (perhaps bright), nor keep the loop going
            self.failed = True
            self.lights.halt(now)
            return b""
        watchdog.feed()
        return reply

    def receive(self, data, now):
        """Bytes from the host; returns the bytes to send back."""
        out = bytearray()
        for item in self.decoder.feed(data):
            if isinstance(item, link.FrameError):
                out.extend(link.encode(item.seq, NAK, bytes((item.reason,))))
                continue
            seq, kind, body = item
            self.heard = now
            if seq == self.last_seq and kind != HELLO:  # a resend after a lost ACK: already done
                out.extend(link.encode(seq, ACK, bytes((kind,))))
                continue
            try:
                reply = self.handle(kind, body, now)
            except link.FrameError as error:
                out.extend(link.encode(seq, NAK, bytes((error.reason,))))
                continue
            except (ValueError, IndexError, KeyError):
                out.extend(link.encode(seq, NAK, bytes((link.BAD_BODY,))))
                continue
            self.last_seq = seq
            if reply is None:
                out.extend(link.encode(seq, ACK, bytes((kind,))))
            else:
                out.extend(link.encode(seq, reply[0], reply[1]))
        if self.heard == now:  # the host spoke: back from the waiting pattern once there is a picture
            self.lights.set_waiting(not self.lights.have_picture)
        return bytes(out)

    def tick(self, now):
        """Advance the watchdog, the keypad and the LEDs; returns bytes for the host (key events)."""
        if now - self.heard > self.settings["watchdog_s"] * 1000:
            self.lights.set_waiting(True)
        self.lights.render(now)
        out = bytearray()
        if self.keypad is not None:
            for key, pressed, _ in self.keypad.take():
                self.key_seq = (self.key_seq + 1) & 0xFF
                out.extend(link.encode(self.key_seq, KEY, bytes((key, 1 if pressed else 0))))
        return bytes(out)

    # -- one message each

    def handle(self, kind, body, now):
        if kind == HELLO:
            if len(body) != 1:
                raise link.FrameError(link.BAD_BODY)
            if body[0] != VERSION:
                raise link.FrameError(link.BAD_VERSION)
            self.last_seq = None
            return HELLO_REPLY, struct.pack("<BBH", VERSION, CAPABILITIES, MAX_LEDS) + FIRMWARE.encode()
        if kind == PING:
            return None
        if kind == CONFIG:
            return self.configure(body, now)
        if kind == KEYPAD:
            if len(body) != 8 or self.make_keypad is None:
                raise link.FrameError(link.BAD_BODY)
            self.keypad = self.make_keypad(tuple(body[:4]), tuple(body[4:]))
            return None
        if kind not in (FRAME, SET, BRIGHTNESS, WALK, FLASH, CELEBRATE):
            raise link.FrameError(link.UNKNOWN_TYPE)
        if not self.configured:
            raise link.FrameError(link.NOT_CONFIGURED)
        lights = self.lights
        if kind == FRAME:
            if len(body) != 3 * lights.count:
                raise link.FrameError(link.BAD_BODY)
            lights.set_picture([(body[i], body[i + 1], body[i + 2]) for i in range(0, len(body), 3)])
        elif kind == SET:
            if not body or len(body) % 5:
                raise link.FrameError(link.BAD_BODY)
            changes = []
            for at in range(0, len(body), 5):
                index = body[at] | body[at + 1] << 8
                if index >= lights.count:
                    raise link.FrameError(link.BAD_BODY)
                changes.append((index, (body[at + 2], body[at + 3], body[at + 4])))
            lights.set_leds(changes)
        elif kind == BRIGHTNESS:
            if len(body) != 1:
                raise link.FrameError(link.BAD_BODY)
            lights.set_brightness(body[0])
        else:
            lights.add_effect(self.effect(kind, body), now)
        return None

    def configure(self, body, now):
        if len(body) != 9:
            raise link.FrameError(link.BAD_BODY)
        count, pin, order, max_current, watchdog = struct.unpack("<HB3sHB", body)
        order = order.decode()
        if not 0 < count <= MAX_LEDS or pin > 29 or order not in ORDERS or watchdog < 1:
            raise link.FrameError(link.BAD_BODY)
        if light_budget_ma(count, max_current) < 1:
            raise link.FrameError(link.BAD_BODY)  # the supply cannot even feed the idle LEDs
        settings = self.settings
        brightness = self.lights.brightness
        if (count, pin, order) != (settings["led_count"], settings["pin"], settings["order"]):
            self.lights.pixels = self.make_pixels(pin, count, order)
        settings.update(led_count=count, pin=pin, order=order, max_current_ma=max_current, watchdog_s=watchdog)
        self.lights = Lights(self.lights.pixels, count, max_current, now)
        self.lights.selftest_until = now
        self.lights.brightness = brightness
        self.configured = True

    def effect(self, kind, body):
        header = 6 if kind == FLASH else 5
        if len(body) < header + 2 or (len(body) - header) % 2:
            raise link.FrameError(link.BAD_BODY)
        color = (body[0], body[1], body[2])
        leds = [body[at] | body[at + 1] << 8 for at in range(header, len(body), 2)]
        for index in leds:
            if index >= self.lights.count:
                raise link.FrameError(link.BAD_BODY)
        if kind == WALK:
            return Walk(color, body[3] | body[4] << 8, leds)
        if kind == FLASH:
            return Flash(color, body[3], body[4] | body[5] << 8, leds)
        return Celebrate(color, body[3] | body[4] << 8, leds)
