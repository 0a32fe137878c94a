# The Pico's own parts: the strip on a GPIO pin (MicroPython's neopixel), the keypad pins, config.json.
import json

import machine
import neopixel
from keypad import Keypad


def make_pixels(pin, count, order):
    pixels = neopixel.NeoPixel(machine.Pin(pin, machine.Pin.OUT), count)
    pixels.ORDER = (order.index("R"), order.index("G"), order.index("B"), 3)  # wire position of R, G, B
    return pixels


def make_keypad(rows, columns):
    return Keypad(
        [machine.Pin(pin, machine.Pin.OUT) for pin in rows],
        [machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP) for pin in columns],
    )


def read_defaults():
    try:
        with open("config.json") as file:
            return json.load(file)
    except (OSError, ValueError):
        return None
