# The Pico's own parts: the strip on a GPIO pin (MicroPython's neopixel), the keypad pins and the timer that
# scans them, config.json.
import json
import time

import machine
import neopixel
from keypad import SCAN_MS, Keypad

_scanning = []  # the timer scanning the keypad the host set up last


def make_pixels(pin, count, order):
    pixels = neopixel.NeoPixel(machine.Pin(pin, machine.Pin.OUT), count)
    pixels.ORDER = (order.index("R"), order.index("G"), order.index("B"), 3)  # wire position of R, G, B
    return pixels


def make_keypad(rows, columns, clock=None):
    """The keypad on these GP pins, scanned every SCAN_MS by a timer (at `clock()` ms, ticks_ms on the Pico)
    whatever the main loop is doing; a keypad set up again replaces the last one and its timer."""
    clock = clock or time.ticks_ms
    for timer in _scanning:
        timer.deinit()
    _scanning.clear()
    keypad = Keypad([machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP) for pin in rows],
                    [machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP) for pin in columns])
    _scanning.append(machine.Timer(period=SCAN_MS, mode=machine.Timer.PERIODIC,
                                   callback=lambda timer: keypad.scan(clock())))
    return keypad


def read_defaults():
    try:
        with open("config.json") as file:
            return json.load(file)
    except (OSError, ValueError):
        return None
