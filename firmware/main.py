# Runs at power-on on the Pico: USB serial link to the Pi, the strip through MicroPython's neopixel (which sends
# the 800 kHz bitstream with machine.bitstream, interrupts off: 24 bits of 1.25 us, about 30 us per LED, 7.3 ms
# for 244 LEDs), the optional keypad (scanned by a timer, pico.py), and the RP2040's watchdog, fed only by a turn
# of the loop that worked. Everything else lives in controller.py and lights.py, which the tests run off the board.
import select
import sys
import time

import machine
import micropython
from controller import WATCHDOG_MS, Controller
from pico import make_keypad, make_pixels, read_defaults


def run():
    micropython.kbd_intr(-1)  # frame bytes may contain 0x03: no Ctrl-C over the link
    watchdog = machine.WDT(timeout=WATCHDOG_MS)  # a loop stuck (or crashed) this long resets the Pico
    restarted = machine.reset_cause() == machine.WDT_RESET
    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    now = 0
    last = time.ticks_ms()
    controller = Controller(make_pixels, now, read_defaults(), make_keypad, restarted)
    while True:
        ticks = time.ticks_ms()
        now += time.ticks_diff(ticks, last)  # a millisecond count that never wraps
        last = ticks
        data = b""
        while poller.poll(0):
            data += stdin.read(1)
        reply = controller.turn(data, now, watchdog)
        if reply:
            stdout.write(reply)
        time.sleep_ms(2)


run()
