"""A simulated Pico: the real firmware (firmware/*.py) running under CPython at the far end of a pseudo-terminal.

With `devices.strip = "pico-sim"` (the strip `crib sim` uses by default) the daemon's real `PicoPegStrip` talks
the real protocol over a pty pair to the real firmware, which runs in a thread of the daemon and writes its
LEDs through `NeoPixel` below: a byte-for-byte stand-in for MicroPython's `neopixel` (the same colour-order
mapping into the same buffer). So everything down to the neopixel write is the code that runs on the board:
framing, acknowledgements, brightness, colour order, the current limit, walks, flashes and celebrations.

The firmware modules are loaded privately: each file is executed into a module of its own whose `import`
statements resolve among themselves and the stand-ins for `machine` and `neopixel` here, so nothing lands in
`sys.modules` and two simulated Picos share no state. Only the simulator imports this module (the registry,
lazily): a run on a real Pi never does. The tests use the same stand-ins (tests/firmware/stubs/).

The Pico's clock is the daemon's clock in milliseconds, so animations play in the firmware's own time;
`settle(strip)` waits (bounded) until the Pico has acknowledged everything the driver was asked to show, then
lets the Pico's clock skip to the end of its animations, so a picture drawn after an input shows the settled
board. `leds()` is what the strip holds, as RGB; `picture()` the same with the brightness divided back out, for
drawing. `unplug()` pulls the USB cable (the firmware stops, the strip keeps its last colours, as WS2812s on
their own supply do); `plug()` plugs in a freshly powered Pico.

A keypad wired to the Pico (`devices.keypad = "pico"`) is scanned by the firmware's own scanner once the host
has sent KEYPAD, on the stand-in pins of `Wiring`. `tap("53")` presses its keys there: the firmware's loop holds
each key down until its scanner has debounced the press (on the Pico's clock), then lets go until it has
debounced the release, and the KEY messages it sends go to the host's `PicoKeypad` through the real driver.
`PicoKeys` is the simulator's hand on those keys ("key:53" lines), busy until the host has heard them all.
"""

from __future__ import annotations

import builtins
import collections
import contextlib
import importlib.resources
import os
import select
import shutil
import tempfile
import threading
import tty
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from companion.base.clock import Clock
from companion.devices.base import DeviceMissing, Fault
from companion.devices.sim import key_position
from companion.view.leds import OFF, Frame

if TYPE_CHECKING:
    from companion.devices.pegstrip import PicoPegStrip
    from companion.devices.picokeys import PicoKeypad

FIRMWARE = Path(str(importlib.resources.files("companion") / "firmware"))
"""The firmware sources, package data (companion/firmware is a link to the checkout's firmware/)."""
MODULES = ("link", "lights", "keypad", "controller", "pico")
"""The firmware files the simulated Pico loads, each after those it imports (main.py is the board's own loop)."""
SETTLE_S = 5.0


class NeoPixel:
    """MicroPython's `neopixel.NeoPixel`: `ORDER` maps (r, g, b) into the wire order of `buf`; `write()` sends
    `buf` down the data line, and here keeps it as `written` (what the LEDs hold) and wakes anyone waiting."""

    ORDER = (1, 0, 2, 3)

    def __init__(self, pin: object, n: int, bpp: int = 3, timing: int = 1) -> None:
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.written = bytes(n * bpp)
        self.writes = 0
        self.changed = threading.Condition()

    def __len__(self) -> int:
        return self.n

    def __setitem__(self, index: int, value: tuple[int, ...]) -> None:
        offset = index * self.bpp
        for i in range(self.bpp):
            self.buf[offset + self.ORDER[i]] = value[i]

    def __getitem__(self, index: int) -> tuple[int, ...]:
        offset = index * self.bpp
        return tuple(self.buf[offset + self.ORDER[i]] for i in range(self.bpp))

    def fill(self, value: tuple[int, ...]) -> None:
        for index in range(self.n):
            self[index] = value

    def write(self) -> None:
        with self.changed:
            self.written = bytes(self.buf)
            self.writes += 1
            self.changed.notify_all()

    def held(self) -> Frame:
        """The colours the LEDs hold since the last write, as (r, g, b) whatever the wire order."""
        data, step, order = self.written, self.bpp, self.ORDER
        return tuple((data[at + order[0]], data[at + order[1]], data[at + order[2]])
                     for at in range(0, len(data), step))


class Wiring:
    """The Pico's GPIO, timers and watchdog: the level each output drives, the keypad keys held down as (row pin,
    column pin) pairs (a column input reads 0 while a pressed key joins it to a row output driven low, as on the
    board), the timers running (`fire()` runs their callbacks: the simulated Pico's loop stands in for their
    periods), and the watchdog's last feed on the clock `now` (milliseconds) that the simulated Pico sets."""

    def __init__(self) -> None:
        self.pressed: set[tuple[int, int]] = set()
        self.outputs: dict[int, int] = {}
        self.most_low = 0
        """The most outputs ever driven low at once (a keypad must never drive two rows)."""
        self.timers: list[Any] = []
        self.watchdog: Any = None
        self.now: Callable[[], int] = lambda: 0

    def fire(self) -> None:
        for timer in list(self.timers):
            timer.callback(timer)

    def machine(self) -> ModuleType:
        """A `machine` module whose `Pin`, `Timer` and `WDT` are wired here."""
        wiring = self

        class Pin:
            OUT = 1
            IN = 0
            PULL_UP = 1

            def __init__(self, id: int, mode: int = -1, pull: int = -1, value: int | None = None) -> None:
                self.id, self.mode, self.pull = id, -1, -1
                self.init(mode, pull, value=value)

            def init(self, mode: int = -1, pull: int = -1, value: int | None = None) -> None:
                self.mode = mode if mode != -1 else self.mode
                self.pull = pull if pull != -1 else self.pull
                if self.mode == Pin.OUT:
                    wiring.outputs[self.id] = 1 if value is None else value
                    wiring.most_low = max(wiring.most_low, sum(1 for level in wiring.outputs.values() if not level))
                else:
                    wiring.outputs.pop(self.id, None)

            def value(self, level: int | None = None) -> int | None:
                if level is not None:
                    wiring.outputs[self.id] = level
                    return None
                if self.mode == Pin.OUT:
                    return wiring.outputs[self.id]
                joined = any(wiring.outputs.get(row, 1) == 0 for row, column in wiring.pressed if column == self.id)
                return 0 if joined else 1

        class Timer:
            PERIODIC = 1

            def __init__(self, period: int = -1, mode: int = 1, callback: Any = None) -> None:
                self.period, self.callback = period, callback
                wiring.timers.append(self)

            def deinit(self) -> None:
                if self in wiring.timers:
                    wiring.timers.remove(self)

        class WDT:
            def __init__(self, id: int = 0, timeout: int = 5000) -> None:
                self.timeout = timeout
                self.fed_at: int = wiring.now()
                wiring.watchdog = self

            def feed(self) -> None:
                self.fed_at = wiring.now()

            def expired(self, now: int) -> bool:
                return now - self.fed_at > self.timeout

        module = ModuleType("machine", "CPython stand-in for MicroPython's machine module (pins, timers, watchdog).")
        module.Pin = Pin  # type: ignore[attr-defined]
        module.Timer = Timer  # type: ignore[attr-defined]
        module.WDT = WDT  # type: ignore[attr-defined]
        module.WDT_RESET = 3  # type: ignore[attr-defined]
        module.PWRON_RESET = 1  # type: ignore[attr-defined]
        return module


def neopixel_module() -> ModuleType:
    module = ModuleType("neopixel", "CPython stand-in for MicroPython's neopixel module.")
    module.NeoPixel = NeoPixel  # type: ignore[attr-defined]
    return module


def load_firmware(wiring: Wiring | None = None, directory: Path | None = None) -> dict[str, ModuleType]:
    """The firmware's modules by name, loaded apart from `sys.modules`: their imports of each other, `machine`
    and `neopixel` resolve here; anything else (struct, json) is the standard library."""
    private = {"machine": (wiring or Wiring()).machine(), "neopixel": neopixel_module()}

    def private_import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> Any:
        if level == 0 and name in private:
            return private[name]
        return builtins.__import__(name, globals, locals, fromlist, level)

    namespace = {**vars(builtins), "__import__": private_import}
    for name in MODULES:
        path = (directory or FIRMWARE) / f"{name}.py"
        try:
            source = path.read_text(encoding="utf-8")
        except OSError as error:
            raise DeviceMissing(Fault.PICO_SOURCES, error=str(error)) from error
        module = ModuleType(name)
        module.__file__ = str(path)
        module.__dict__["__builtins__"] = namespace
        exec(compile(source, str(path), "exec"), module.__dict__)
        private[name] = module
    return private


def _own_directory() -> Path:
    """A fresh directory for the port's link, named after this process; those of processes that are gone (a
    simulator killed before it could clean up) are removed first, so none are left behind for long."""
    for stale in Path(tempfile.gettempdir()).glob("crib-pico-*-*"):
        pid = stale.name.split("-")[2]
        if pid.isdigit() and int(pid) != os.getpid() and not Path(f"/proc/{pid}").exists():
            shutil.rmtree(stale, ignore_errors=True)
    return Path(tempfile.mkdtemp(prefix=f"crib-pico-{os.getpid()}-"))


class SimulatedPico:
    """A Pico with the project's firmware, plugged in at `port` (a link to a fresh pseudo-terminal, in a
    directory of its own unless given). Its millisecond clock is `clock`'s, plus any time skipped by `settle`."""

    def __init__(self, clock: Clock, port: Path | None = None) -> None:
        self.clock = clock
        self._own_dir = None if port is not None else _own_directory()
        self.port = port or self._own_dir / "ttyACM0"  # type: ignore[operator]
        self.wiring = Wiring()
        self.wiring.now = self.now_ms
        self.firmware = load_firmware(self.wiring)
        self.machine = self.firmware["machine"]
        self.resets = 0
        """Times the watchdog has reset the Pico."""
        self.strips: list[NeoPixel] = []
        self.ticked = threading.Condition()
        """Notified after each turn of the firmware's loop."""
        self.ticks = 0
        self.keypad_pins: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        """The keypad's (row, column) pins, as the host told the Pico plugged in now."""
        self.keys_sent = 0
        """KEY messages the firmware has sent since it was plugged in."""
        self._taps: collections.deque[tuple[int, int]] = collections.deque()
        self._held: tuple[int, int] | None = None  # the key being tapped, as (row, column)
        self._start = clock.monotonic()
        self._skipped_ms = 0
        self._skip_asked = self._skip_done = 0
        self._thread: threading.Thread | None = None
        self._power = threading.Lock()  # plugging, unplugging and the watchdog's resets, one at a time
        self.plug()

    @property
    def plugged(self) -> bool:
        return self._thread is not None

    @property
    def strip(self) -> NeoPixel | None:
        """The strip of the Pico plugged in last."""
        return self.strips[-1] if self.strips else None

    @property
    def pressing(self) -> bool:
        """Keys still to tap, or one being tapped."""
        return self._held is not None or bool(self._taps)

    def tap(self, labels: str) -> None:
        """Press and release each key in `labels` in turn ("53", "*24") on the keypad's pins; safe from any
        thread. Nothing is pressed until the host has told the Pico its keypad pins; an unplugged Pico's are lost."""
        positions = [key_position(label) for label in labels]  # every key checked before any is pressed
        self._taps.extend(positions)
        self._wake()

    def now_ms(self) -> int:
        return round((self.clock.monotonic() - self._start) * 1000) + self._skipped_ms

    def plug(self) -> None:
        """A freshly powered Pico: self-test, then the waiting glow until the host speaks."""
        with self._power:
            if self._thread is None:
                self._power_up(restarted=False)

    def _power_up(self, *, restarted: bool) -> None:
        """The firmware starts (main.py): a fresh controller and watchdog, and its USB port appears."""
        self.keypad_pins, self.keys_sent = None, 0
        for timer in list(self.wiring.timers):
            timer.deinit()
        self.controller = self.firmware["controller"].Controller(self._make_pixels, self.now_ms(),
                                                                 make_keypad=self._make_keypad, restarted=restarted)
        self.watchdog = self.machine.WDT(timeout=self.firmware["controller"].WATCHDOG_MS)
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo: the link is binary
        self._wake_read, self._wake_write = os.pipe()
        self.port.unlink(missing_ok=True)
        self.port.symlink_to(os.ttyname(self._slave))
        self._running = True
        self._thread = threading.Thread(target=self._serve, name="simulated-pico", daemon=True)
        self._thread.start()

    def unplug(self) -> None:
        """Pull the cable: the host's port goes away and the firmware stops (the strip keeps its colours)."""
        with self._power:
            thread, self._thread = self._thread, None
            if thread is None:
                return
            self._running = False
            self._wake()
        thread.join(5)
        with self._power:
            self._close_port()
        self._taps.clear()
        self._held = None
        self.wiring.pressed.clear()
        with self.ticked:
            self.ticked.notify_all()

    def close(self) -> None:
        self.unplug()
        if self._own_dir is not None:
            shutil.rmtree(self._own_dir, ignore_errors=True)

    def _make_pixels(self, pin: int, count: int, order: str) -> NeoPixel:
        pixels: NeoPixel = self.firmware["pico"].make_pixels(pin, count, order)
        self.strips.append(pixels)
        return pixels

    def _make_keypad(self, rows: tuple[int, ...], columns: tuple[int, ...]) -> Any:
        self.keypad_pins = (rows, columns)
        return self.firmware["pico"].make_keypad(rows, columns, self.now_ms)

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self._wake_write, b"\0")

    def _serve(self) -> None:
        """The firmware's main loop (firmware/main.py, with the pty for USB and this loop for the keypad's timer):
        bytes in, a turn of the controller (which feeds the watchdog when it works), bytes out. A watchdog that
        has gone unfed for its timeout resets the Pico: its port goes away and comes back with fresh firmware."""
        controller = self.controller
        while self._running:
            ready, _, _ = select.select([self._master, self._wake_read], [], [], 0.02)
            if self._wake_read in ready:
                os.read(self._wake_read, 4096)
            try:
                data = os.read(self._master, 4096) if self._master in ready else b""
            except OSError:  # nobody has the host's end open (yet)
                data = b""
            now = self.now_ms()
            skip = self._skip_asked
            if skip != self._skip_done:
                now = self._skip_animations(controller, now)
            self._hand(controller)
            self.wiring.fire()
            events = controller.key_seq
            reply = controller.turn(data, now, self.watchdog)
            self.keys_sent += (controller.key_seq - events) % 256
            if reply:
                os.write(self._master, reply)
            with self.ticked:
                self._skip_done = skip
                self.ticks += 1
                self.ticked.notify_all()
            if self.watchdog.expired(self.now_ms()):
                self._watchdog_reset()
                return

    def _watchdog_reset(self) -> None:
        """From the firmware's own thread: the port goes away (USB re-enumerates) and the firmware starts again,
        with `restarted`, in a thread of its own (unless the cable was pulled meanwhile)."""
        with self._power:
            if self._thread is not threading.current_thread():
                return
            self._close_port()
            self.resets += 1
            self._power_up(restarted=True)

    def _close_port(self) -> None:
        for fd in (self._master, self._slave, self._wake_read, self._wake_write):
            os.close(fd)
        self.port.unlink(missing_ok=True)

    def _hand(self, controller: Any) -> None:
        """The finger on the keypad: a key stays down until the firmware's scanner has debounced the press, then
        up until it has debounced the release; then the next key."""
        scanner, pins = controller.keypad, self.keypad_pins
        if scanner is None or pins is None:
            return
        if self._held is None:
            if not self._taps:
                return
            self._held = self._taps[0]  # held before it leaves the queue: `pressing` never blinks
            self._taps.popleft()
            self.wiring.pressed.add((pins[0][self._held[0]], pins[1][self._held[1]]))
            return
        row, column = self._held
        switch, key = (pins[0][row], pins[1][column]), row * len(pins[1]) + column
        if switch in self.wiring.pressed:
            if scanner.state[key]:
                self.wiring.pressed.discard(switch)
        elif not scanner.state[key]:
            self._held = None

    def _skip_animations(self, controller: Any, now: int) -> int:
        """Move the Pico's clock past its self-test and the effects it has queued; the host's keep-alive pings
        of the skipped time count as heard (the host would have sent them), so the watchdog stays calm."""
        lights = controller.lights
        left: int = max(0, lights.selftest_until - now)
        if lights.effects:
            left = max(left, sum(effect.duration for effect in lights.effects) - (now - lights.effect_start))
        self._skipped_ms += left
        controller.heard += left
        return now + left

    def settle(self, strip: PicoPegStrip, timeout: float = SETTLE_S) -> bool:
        """Wait until the Pico has acknowledged all that `strip` was asked to show and skip its animations: the
        LEDs then hold the settled picture. False when the Pico is unplugged or did not answer in time."""
        if not self.plugged or not strip.wait_delivered(timeout):
            return False
        with self.ticked:
            self._skip_asked += 1
            wanted = self._skip_asked
        self._wake()
        with self.ticked:
            return self.ticked.wait_for(lambda: self._skip_done >= wanted or not self.plugged, timeout) and self.plugged

    def turn(self, timeout: float = SETTLE_S) -> bool:
        """Wake the firmware's loop and wait (at most `timeout` seconds) until it has gone round once wholly after
        this call, at the clock's time now (for tests that move a manual clock). False when unplugged."""
        with self.ticked:
            wanted = self.ticks + 2  # the turn under way may have read the clock before this call
        self._wake()
        with self.ticked:
            return self.ticked.wait_for(lambda: self.ticks >= wanted or not self.plugged, timeout) and self.plugged

    def leds(self) -> Frame:
        """What the LEDs hold now (after brightness, colour order and the current limit), as (r, g, b)."""
        strip = self.strip
        return strip.held() if strip is not None else ()

    def picture(self) -> Frame:
        """The LEDs as the board pictures draw them: their colours with the brightness divided back out, so a
        peg at full colour is drawn at full while the current limit's dimming and the 8-bit steps remain."""
        brightness: int = self.controller.lights.brightness
        if brightness == 0:
            return tuple(OFF for _ in self.leds())

        def up(level: int) -> int:
            return min(255, round(level * 255 / brightness))

        return tuple((up(r), up(g), up(b)) for r, g, b in self.leds())


class PicoKeys:
    """The simulator's hand on the keys of the simulated Pico's keypad (the lines "key:53"): busy until the
    host's `keypad` has heard every KEY message the Pico sent for them, so the next line never overtakes them."""

    def __init__(self, pico: SimulatedPico, keypad: PicoKeypad) -> None:
        self.pico = pico
        self.keypad = keypad
        self._controller = pico.controller
        self._heard = keypad.heard  # what the keypad had heard when the Pico plugged in now began

    @property
    def busy(self) -> bool:
        pico = self.pico
        return pico.plugged and (pico.pressing or self.keypad.heard - self._heard < pico.keys_sent)

    def tap(self, labels: str) -> None:
        if self.pico.controller is not self._controller:  # a fresh Pico: what the last one sent unheard is lost
            self._controller, self._heard = self.pico.controller, self.keypad.heard
        self.pico.tap(labels)
