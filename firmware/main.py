# Runs at power-on on the Pico: USB serial link to the Pi, the strip on a PIO state machine (neopixel), the
# optional keypad. Everything else lives in controller.py and lights.py, which the tests run off the board.
import select
import sys
import time

import micropython
from controller import Controller
from pico import make_keypad, make_pixels, read_defaults


def run():
    micropython.kbd_intr(-1)  # frame bytes may contain 0x03: no Ctrl-C over the link
    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    now = 0
    last = time.ticks_ms()
    controller = Controller(make_pixels, now, read_defaults(), make_keypad)
    while True:
        ticks = time.ticks_ms()
        now += time.ticks_diff(ticks, last)  # a millisecond count that never wraps
        last = ticks
        reply = b""
        while poller.poll(0):
            reply += controller.receive(stdin.read(1), now)
        reply += controller.tick(now)
        if reply:
            stdout.write(reply)
        time.sleep_ms(2)


run()
