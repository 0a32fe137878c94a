"""The one place that picks device drivers from the configuration.

`open_devices(config, clock=, simulate=)` opens every configured device. With `simulate=True` (`crib sim`)
each device is simulated (gpiozero's MockFactory pins for the keypad and buttons, luma's dummy OLED, the
recording strip, the terminal or a script for typing) unless its `devices.*` choice was made explicitly on the
command line or in a --config file: so `crib sim --set devices.scanner=serial` uses a real serial scanner with
otherwise simulated parts. The simulated Pico (`devices.strip = "pico-sim"`, companion/devices/picosim.py, the
strip `crib sim` picks) runs the firmware in a thread behind a pseudo-terminal, driven by the real Pico driver;
should its firmware sources be missing, the recording strip stands in unless "pico-sim" was chosen explicitly.
A keypad on the Pico (`devices.keypad = "pico"`) is opened with the strip, whose link carries its keys: on the
simulated Pico its keys are pressed on the Pico's stand-in pins and come over the link as from a real one; with
the recording strip, which carries no keys, it is simulated on mock pins of the Pi's. Drivers import their
hardware library only when opened here.
"""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from companion.clock import Clock
from companion.config import SYSTEM_PATH, Config
from companion.devices.base import DeviceError, EntryDevice, PegStrip, StatusDisplay
from companion.devices.picokeys import PicoKeypad
from companion.devices.presence import WatchedDisplay, WatchedEntry

if TYPE_CHECKING:
    from companion.devices.picosim import SimulatedPico
    from companion.devices.sim import KeyHand
    from companion.devices.voice import Speaker

log = logging.getLogger(__name__)


@dataclass
class Devices:
    entries: list[EntryDevice] = field(default_factory=list)
    strip: PegStrip | None = None
    display: StatusDisplay | None = None
    keypad: KeyHand | None = None
    """In simulation: the hand on the keypad's keys, `keypad.tap("5")` (terminal and script lines "key:5" use it):
    the `SimulatedKeypad` on mock pins, or `PicoKeys` on the simulated Pico's."""
    pin_factory: Any = None
    """The gpiozero pin factory of the keypad and buttons (a MockFactory in simulation), if any."""
    pico: SimulatedPico | None = None
    """The simulated Pico at the far end of the strip's link (devices.strip = "pico-sim"), if any."""
    voice: Speaker | None = None
    """The board's voice ([voice] enabled), its worker and its sound device."""
    speak: tuple[str, ...] = ("scores", "winner")
    """What the board's voice and the page's say ([voice] speak)."""

    def status(self) -> dict[str, str]:
        """Each device that can go missing: what is wrong with it, or "" while it works."""
        found = {device.name: device.watch.problem for device in (*self.entries, self.display)
                 if isinstance(device, (WatchedEntry, WatchedDisplay))}
        if self.strip is not None:
            found[STRIP] = "" if self.strip.connected else self.strip.problem or "not connected"
        if self.voice is not None:
            found[self.voice.name] = self.voice.problem
        return found

    def close(self) -> None:
        """Close every device; one that fails to close (it is gone) does not keep the others open."""
        for device in (*self.entries, self.strip, self.display, self.pico, self.voice):
            if device is not None:
                try:
                    device.close()
                except Exception as error:  # each device on its own
                    log.warning("closing %s: %s", getattr(device, "name", type(device).__name__), error)


STRIP = "LED strip"


def simulated_choice(config: Config, key: str) -> bool:
    """Whether `crib sim` simulates this device: yes, unless chosen on the command line or in a --config file."""
    origin = config.origins.get(f"devices.{key}", "packaged")
    return origin.startswith(("packaged", f"{SYSTEM_PATH}:"))


def open_devices(config: Config, *, clock: Clock, simulate: bool, script: Path | None = None,
                 terminal: IO[str] | None = None) -> Devices:
    """Open the configured devices (closing those already open if one fails). `script` feeds entries from a
    file instead of the terminal, in simulation."""
    devices = Devices(speak=config.voice.speak)
    try:
        _open_all(devices, config, clock=clock, simulate=simulate, script=script, terminal=terminal or sys.stdin)
    except BaseException:
        devices.close()
        raise
    return devices


def _open_all(devices: Devices, config: Config, *, clock: Clock, simulate: bool, script: Path | None,
              terminal: IO[str]) -> None:
    from companion.devices.keypad import Buttons, Keypad
    from companion.devices.sim import ScriptEntry, SimStrip, SimulatedKeypad, TerminalEntry

    choice = config.devices
    sim = {key: simulate and simulated_choice(config, key) for key in ("scanner", "display", "strip")}
    strip = choice.strip
    if strip == "sim" or (sim["strip"] and strip not in ("pico-sim", "none")):
        strip = "sim"
    if strip == "pico-sim":  # first, so that a keypad on the Pico knows which Pico carries its keys
        devices.pico = _simulated_pico(clock, fall_back=sim["strip"])
        if devices.pico is None:
            strip = "sim"
    keypad_config = config.keypad
    debounce, timeout = keypad_config.debounce_ms / 1000, keypad_config.sequence_timeout_ms / 1000
    pico_keypad = None

    def simulated_keypad(factory: Any = None) -> None:
        keypad = SimulatedKeypad(keypad_config.rows, keypad_config.columns, clock=clock, factory=factory,
                                 debounce=debounce, timeout=timeout)
        devices.keypad = keypad
        devices.entries.append(keypad)

    if choice.keypad == "pico":
        if strip == "sim":  # the recording strip carries no keys: the keypad on mock pins of its own
            simulated_keypad()
        elif strip == "none":  # load_config refuses this too; a Config built by hand might not
            raise DeviceError('devices.keypad = "pico" needs devices.strip = "pico": the keys come over its link')
        else:
            pico_keypad = PicoKeypad(keypad_config.pico_rows, keypad_config.pico_columns, clock=clock,
                                     timeout=timeout)
            devices.entries.append(pico_keypad)
            if devices.pico is not None:
                from companion.devices.picosim import PicoKeys

                devices.keypad = PicoKeys(devices.pico, pico_keypad)
    if choice.keypad == "gpio" or choice.buttons == "gpio":
        # one pin factory for all GPIO devices; mock pins in simulation unless one was chosen explicitly
        mock = choice.pin_factory == "mock" or (simulate and simulated_choice(config, "pin_factory"))

        def factory() -> Any:
            """The pin library, made at the first device's opening (and again at a retry, until it works)."""
            if devices.pin_factory is None:
                devices.pin_factory = pin_factory("mock" if mock else choice.pin_factory)
            return devices.pin_factory

        if choice.keypad == "gpio" and mock:
            simulated_keypad(factory())
        elif choice.keypad == "gpio":
            devices.entries.append(WatchedEntry("keypad", lambda: Keypad(
                keypad_config.rows, keypad_config.columns, clock=clock, pin_factory=factory(), debounce=debounce,
                timeout=timeout), clock))
        if choice.buttons == "gpio":
            pins = {"go": config.buttons.go, "undo": config.buttons.undo, "ok": config.buttons.ok}
            if mock:
                devices.entries.append(Buttons(pins, pin_factory=factory()))
            else:
                devices.entries.append(WatchedEntry("buttons", lambda: Buttons(pins, pin_factory=factory()), clock))
    if simulate:
        lines = ScriptEntry(script, devices.keypad) if script else TerminalEntry(terminal, devices.keypad)
        devices.entries.append(lines)
    if choice.scanner != "none" and not sim["scanner"]:
        if choice.scanner == "terminal":
            devices.entries.append(TerminalEntry(terminal))
        else:
            if choice.scanner == "evdev" and not sys.platform.startswith("linux"):
                raise DeviceError('devices.scanner: evdev scanners need Linux: use "serial" or "terminal"')
            devices.entries.append(WatchedEntry("scanner", lambda: open_scanner(config, clock=clock), clock))
    if config.camera.driver != "none":
        devices.entries.append(open_camera(config, clock=clock))
    if choice.display != "none":
        if sim["display"] or choice.display == "dummy":
            devices.display = _open_display(config, simulated=True)
        else:
            devices.display = WatchedDisplay("OLED", lambda: _open_display(config, simulated=False), clock)
    if strip == "sim":
        devices.strip = SimStrip(_led_count(config))
    elif strip != "none":
        port = None if devices.pico is None else str(devices.pico.port)
        devices.strip = _open_pico_strip(config, _led_count(config), clock, pico_keypad, port=port)
    if config.voice.enabled:
        devices.voice = open_speaker(config, clock=clock, simulate=simulate)


PIN_PACKAGES = {"lgpio": "python3-lgpio", "rpigpio": "python3-rpi.gpio"}
"""The Debian package of each pin library (systemd/install.sh installs the one apt has)."""


def pin_factory(name: str) -> Any:
    """A gpiozero pin factory by its configuration name (gpiozero 1.6, Debian's, or 2.x)."""
    try:
        if name == "mock":
            from gpiozero.pins.mock import MockFactory

            return MockFactory()
        if name == "rpigpio":
            from gpiozero.pins.rpigpio import RPiGPIOFactory

            return RPiGPIOFactory()
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    except Exception as error:  # ImportError, lgpio.error (no /dev/gpiochip*), RPi.GPIO's RuntimeError, OSError
        raise DeviceError(f"cannot use the {name!r} GPIO pin library ({error or type(error).__name__}): on a "
                          f"Raspberry Pi install {PIN_PACKAGES.get(name, 'python3-lgpio')} (systemd/install.sh "
                          "does) and check /dev/gpiochip* or /dev/gpiomem permissions (group 'gpio'); RPi.GPIO "
                          "cannot drive a Pi 5 (use \"lgpio\"); off a Pi, use crib sim or devices.pin_factory = "
                          "\"mock\"") from error


def open_scanner(config: Config, *, clock: Clock) -> EntryDevice:
    """The configured scanner (evdev or serial), opened now: a DeviceError when it is not there."""
    from companion.devices.scanner import EvdevScanner, SerialScanner

    scanner = config.scanner
    window = scanner.duplicate_window_ms / 1000
    if config.devices.scanner == "evdev":
        return EvdevScanner(scanner.device, clock=clock, duplicate_window=window)
    return SerialScanner(scanner.port, baud=scanner.baud, clock=clock, duplicate_window=window)


def open_camera(config: Config, *, clock: Clock) -> WatchedEntry:
    """The board's camera reading plain cards, watched: opened now if it is there, looked for again if not. The
    simulated camera reads its frames on the main loop (tests step it frame by frame), the others on a thread."""
    from companion.devices.camera import (
        DECK,
        CameraEntry,
        CardsInView,
        FrameSource,
        OpenCVCamera,
        PiCamera,
        SimulatedCamera,
        TaughtDeck,
        opencv_problem,
        pictures,
    )
    from companion.vision import Recognizer

    problem = opencv_problem()
    if problem is not None:
        raise DeviceError(f"camera.driver = {config.camera.driver!r}: {problem}")
    camera = config.camera
    size = (camera.width, camera.height)
    deck = TaughtDeck(Recognizer.load, config.state.path / DECK)
    simulated = None
    if camera.driver == "sim":  # each picture held long enough to be entered, then taken away
        simulated = SimulatedCamera(pictures(Path(camera.images)), size=size, hold=camera.frames + 1,
                                    gap=camera.gone_frames)

    def frames() -> FrameSource:
        if simulated is not None:
            return simulated.open()
        if camera.driver == "opencv":
            return OpenCVCamera(int(camera.device) if camera.device.isdigit() else camera.device, size)
        return PiCamera(size)

    return WatchedEntry("camera", lambda: CameraEntry(
        frames(), deck, interval=camera.frame_ms / 1000, in_view=CardsInView(camera.frames, camera.gone_frames),
        thread=simulated is None), clock)


def _open_display(config: Config, *, simulated: bool) -> StatusDisplay:
    """The configured OLED, opened (and so initialised) now; luma's dummy device in simulation."""
    from companion.devices.oled import dummy_oled, open_oled

    display = config.display
    if simulated:
        return dummy_oled(display.rotate)
    return open_oled(config.devices.display, i2c_port=display.i2c_port, address=display.address,
                     rotate=display.rotate)


def _led_count(config: Config) -> int:
    from companion.boards import LayoutError, load_layout

    try:
        return load_layout(config.board.layout).led_count
    except (LayoutError, OSError) as error:
        raise DeviceError(f"board.layout: {error}") from error


def _simulated_pico(clock: Clock, *, fall_back: bool) -> SimulatedPico | None:
    """The simulated Pico; None (the recording strip instead) when `fall_back` and its firmware is not here."""
    from companion.devices.picosim import SimulatedPico

    try:
        return SimulatedPico(clock)
    except (DeviceError, OSError) as error:
        if not fall_back:
            raise DeviceError(f'devices.strip = "pico-sim": {error}') from error
        log.warning("%s; the recording strip stands in", error)
        return None


def _open_pico_strip(config: Config, led_count: int, clock: Clock, keypad: PicoKeypad | None,
                     port: str | None = None) -> PegStrip:
    from companion.devices.pegstrip import PicoPegStrip

    strip = config.strip
    return PicoPegStrip(port or strip.port, led_count, baud=strip.baud, pin=strip.pin, color_order=strip.color_order,
                        max_current_ma=strip.max_current_ma, brightness=round(config.board.brightness * 255 / 100),
                        clock=clock, keypad=keypad)


def open_speaker(config: Config, *, clock: Clock, simulate: bool, thread: bool = True) -> Speaker:
    """The board's voice and its worker. In simulation the voice is simulated (kept, silent) unless [voice] was
    turned on on the command line or in a --config file (`crib sim --speak`, `--speak-to DIR`): then it speaks
    for real, or writes its files. A voice that cannot speak yet is missing, and looked for again."""
    from companion.devices.presence import Watch
    from companion.devices.voice import Engine, SimulatedVoice, Speaker, open_voice

    voice = config.voice
    origin = config.origins.get("voice.enabled", "packaged")
    if simulate and origin.startswith(("packaged", f"{SYSTEM_PATH}:")):
        simulated = SimulatedVoice()
        return Speaker(Watch(Speaker.name, lambda: simulated, clock), thread=thread)
    engine = Engine(voice.engine, voice=voice.voice, rate=voice.rate, volume=voice.volume)
    return Speaker(Watch(Speaker.name, lambda: open_voice(engine, device=voice.device, record_to=voice.record_to),
                         clock), thread=thread)
