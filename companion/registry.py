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

The drivers are a table, `DRIVERS`: (kind, the name `devices.KIND` gives it) -> the factory that opens it; a new
driver (a camera) is a row of its own, and a test keeps the table and the configuration's choices the same. The
pin libraries are another (`PIN_FACTORIES`). Settings only a driver can judge (the scanner's name, the Pico's
pins) are in `CHECKS`: `check_config` asks the drivers, so the configuration imports none of them.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from companion.base.clock import Clock
from companion.config import SYSTEM_PATH, Config, ConfigError
from companion.devices.base import (
    DeviceError,
    DeviceMissing,
    DeviceProblem,
    EntryDevice,
    Fault,
    PegStrip,
    StatusDisplay,
    error_text,
    problem_of,
)
from companion.devices.keypad import Buttons, Keypad
from companion.devices.picokeys import PicoKeypad, pico_pins_problem
from companion.devices.presence import Status, WatchedDisplay, WatchedEntry
from companion.devices.scanner import scanner_spec_problem
from companion.devices.sim import ScriptEntry, SimStrip, SimulatedKeypad, TerminalEntry
from companion.words.devices import STRIP, journal_words
from companion.words.settings import From, Invalid, Problem

if TYPE_CHECKING:
    from companion.devices.picosim import SimulatedPico
    from companion.devices.sim import KeyHand
    from companion.devices.voice import Speaker

log = logging.getLogger(__name__)


@dataclass
class Devices:
    """The board's open devices; `with open_devices(...) as devices:` closes them all at the end."""

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

    def status(self) -> Status:
        """Each device that can go missing: what is wrong with it, or None while it works."""
        found: Status = {device.name: device.watch.problem for device in (*self.entries, self.display)
                         if isinstance(device, (WatchedEntry, WatchedDisplay))}
        if self.strip is not None:
            found[STRIP] = None if self.strip.connected else self.strip.problem or DeviceProblem(Fault.STRIP_ABSENT)
        if self.voice is not None:
            found[self.voice.name] = self.voice.problem
        return found

    def __enter__(self) -> Devices:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Close every device; one that fails to close (it is gone) does not keep the others open."""
        for device in (*self.entries, self.strip, self.display, self.pico, self.voice):
            if device is not None:
                try:
                    device.close()
                except Exception as error:  # each device on its own
                    log.warning(journal_words("not_closed", device=getattr(device, "name", type(
                        device).__name__), problem=problem_of(error)))


def simulated_choice(config: Config, key: str) -> bool:
    """Whether `crib sim` simulates this device: yes, unless chosen on the command line or in a --config file."""
    return not _chosen(config, f"devices.{key}")


def _chosen(config: Config, key: str) -> bool:
    """Whether `key` is set on the command line or in a --config file (not by the packaged defaults or the
    system's file)."""
    origin = config.origins.get(key)
    return origin is not None and origin.source is not From.PACKAGED and origin.text != str(SYSTEM_PATH)


def open_devices(config: Config, *, clock: Clock, simulate: bool, script: Path | None = None,
                 terminal: IO[str] | None = None) -> Devices:
    """Open the configured devices (closing those already open if one fails). `script` feeds entries from a
    file instead of the terminal, in simulation. The configuration is first checked against the drivers
    (`check_config`)."""
    check_config(config)
    devices = Devices(speak=config.voice.speak)
    opening = Opening(config, clock, simulate, devices, script, terminal or sys.stdin)
    try:
        for kind in KINDS:
            DRIVERS[kind, opening.chosen(kind)](opening)
    except BaseException:
        devices.close()
        raise
    return devices


@dataclass
class Opening:
    """What each driver's factory is given: the configuration, the clock, whether `crib sim` runs, and the
    devices opened so far (which it adds to)."""

    config: Config
    clock: Clock
    simulate: bool
    devices: Devices
    script: Path | None
    terminal: IO[str]
    pico_keypad: PicoKeypad | None = None
    """A keypad on the Pico, for the strip whose link carries its keys."""
    no_pico: bool = False
    """The simulated Pico could not be made (its firmware is not here): the recording strip stands in."""

    def chosen(self, kind: str) -> str:
        """The driver for `kind`: the configured one, or its simulated stand-in under `crib sim`."""
        if kind == "lines":
            return "none" if not self.simulate else "script" if self.script else "terminal"
        if kind == "voice":
            return "on" if self.config.voice.enabled else "none"
        if kind == "camera":
            return self.config.camera.driver
        choice: str = getattr(self.config.devices, kind)
        simulated = self.simulate and kind in ("scanner", "display", "strip") and simulated_choice(self.config, kind)
        if kind == "strip" and (choice == "sim" or (simulated and choice not in ("pico-sim", "none"))):
            return "sim"
        if kind == "display" and simulated and choice != "none":
            return "dummy"
        if kind == "scanner" and simulated:
            return "none"  # the terminal's (or the script's) lines stand in for it
        return choice

    @property
    def timeout(self) -> float:
        return self.config.keypad.sequence_timeout_ms / 1000

    def pins(self) -> Any:
        """The gpiozero pin factory of every GPIO device, made at the first one's opening (and again at a retry,
        until it works): mock pins in simulation unless a library was chosen explicitly."""
        devices = self.devices
        if devices.pin_factory is None:
            devices.pin_factory = pin_factory("mock" if self.mock_pins else self.config.devices.pin_factory)
        return devices.pin_factory

    @property
    def mock_pins(self) -> bool:
        name = self.config.devices.pin_factory
        return name == "mock" or (self.simulate and simulated_choice(self.config, "pin_factory"))

    def simulated_keypad(self, factory: Any = None) -> None:
        keypad = self.config.keypad
        simulated = SimulatedKeypad(keypad.rows, keypad.columns, clock=self.clock, factory=factory,
                                    debounce=keypad.debounce_ms / 1000, timeout=self.timeout)
        self.devices.keypad = simulated
        self.devices.entries.append(simulated)


Factory = Callable[[Opening], None]
"""A driver's opening: it adds its device to `opening.devices` (a watched one when it may be missing)."""


def _nothing(opening: Opening) -> None:
    """devices.KIND = "none"."""


def _gpio_keypad(opening: Opening) -> None:
    if opening.mock_pins:
        opening.simulated_keypad(opening.pins())
        return
    keypad, clock = opening.config.keypad, opening.clock
    opening.devices.entries.append(WatchedEntry("keypad", lambda: Keypad(
        keypad.rows, keypad.columns, clock=clock, pin_factory=opening.pins(), debounce=keypad.debounce_ms / 1000,
        timeout=opening.timeout), clock))


def _pico_keypad(opening: Opening) -> None:
    strip = opening.chosen("strip")
    if strip == "sim":  # the recording strip carries no keys: the keypad on mock pins of its own
        opening.simulated_keypad()
        return
    if strip == "none":  # load_config refuses this too; a Config built by hand might not
        raise DeviceError(Fault.PICO_KEYPAD_STRIP)
    keypad, devices = opening.config.keypad, opening.devices
    opening.pico_keypad = PicoKeypad(keypad.pico_rows, keypad.pico_columns, clock=opening.clock,
                                     timeout=opening.timeout)
    devices.entries.append(opening.pico_keypad)
    if strip == "pico-sim":
        from companion.devices.picosim import PicoKeys

        pico = _simulated_pico(opening)
        if pico is None:  # the recording strip stands in: it carries no keys
            devices.entries.remove(opening.pico_keypad)
            opening.pico_keypad = None
            opening.simulated_keypad()
        else:
            devices.keypad = PicoKeys(pico, opening.pico_keypad)


def _gpio_buttons(opening: Opening) -> None:
    buttons = opening.config.buttons
    pins = {"go": buttons.go, "undo": buttons.undo, "ok": buttons.ok}
    if opening.mock_pins:
        opening.devices.entries.append(Buttons(pins, pin_factory=opening.pins()))
    else:
        opening.devices.entries.append(WatchedEntry("buttons", lambda: Buttons(pins, pin_factory=opening.pins()),
                                                    opening.clock))


def _lines(opening: Opening) -> None:
    """What is typed in the terminal, or the lines of a script, under `crib sim`."""
    devices = opening.devices
    lines = ScriptEntry(opening.script, devices.keypad) if opening.script else TerminalEntry(opening.terminal,
                                                                                            devices.keypad)
    devices.entries.append(lines)


def _terminal_scanner(opening: Opening) -> None:
    opening.devices.entries.append(TerminalEntry(opening.terminal))


def _scanner(opening: Opening) -> None:
    if opening.config.devices.scanner == "evdev" and not sys.platform.startswith("linux"):
        raise DeviceError(Fault.EVDEV_LINUX)
    config, clock = opening.config, opening.clock
    opening.devices.entries.append(WatchedEntry("scanner", lambda: open_scanner(config, clock=clock), clock))


def _camera(opening: Opening) -> None:
    opening.devices.entries.append(open_camera(opening.config, clock=opening.clock))


def open_camera(config: Config, *, clock: Clock) -> WatchedEntry:
    """The board's camera reading plain cards, watched: opened now if it is there, looked for again if not. The
    simulated camera reads its frames on the main loop (tests step it frame by frame), the others on a thread."""
    from companion.devices.camera import (
        CameraEntry,
        CardsInView,
        FrameSource,
        OpenCVCamera,
        PiCamera,
        SimulatedCamera,
        TaughtDeck,
        opencv_problem,
        pictures,
        taught_folder,
    )
    from companion.vision import Recognizer

    problem = opencv_problem()
    if problem is not None:
        raise DeviceMissing(Fault.CAMERA_DRIVER, cause=problem, value=config.camera.driver)
    camera = config.camera
    size = (camera.width, camera.height)
    deck = TaughtDeck(Recognizer.load, taught_folder(camera.deck, config.state.path))
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


def _oled(opening: Opening) -> None:
    config = opening.config
    opening.devices.display = WatchedDisplay("OLED", lambda: _open_display(config, simulated=False), opening.clock)


def _dummy_oled(opening: Opening) -> None:
    opening.devices.display = _open_display(opening.config, simulated=True)


def _recording_strip(opening: Opening) -> None:
    opening.devices.strip = SimStrip(_led_count(opening.config))


def _pico_strip(opening: Opening) -> None:
    opening.devices.strip = _open_pico_strip(opening.config, _led_count(opening.config), opening.clock,
                                             opening.pico_keypad)


def _pico_sim_strip(opening: Opening) -> None:
    """The simulated Pico, firmware and all, driven by the real Pico driver."""
    pico = _simulated_pico(opening)
    if pico is None:
        _recording_strip(opening)
        return
    opening.devices.strip = _open_pico_strip(opening.config, _led_count(opening.config), opening.clock,
                                             opening.pico_keypad, port=str(pico.port))


def _simulated_pico(opening: Opening) -> SimulatedPico | None:
    """The simulated Pico at the far end of the strip's link, made once (a keypad on it needs it first); None
    when its firmware is not here and the recording strip may stand in (`crib sim`, "pico-sim" not chosen)."""
    devices = opening.devices
    if devices.pico is None and not opening.no_pico:
        from companion.devices.picosim import SimulatedPico

        try:
            devices.pico = SimulatedPico(opening.clock)
        except (DeviceError, OSError) as error:
            if not (opening.simulate and simulated_choice(opening.config, "strip")):
                raise DeviceMissing(Fault.PICO_SIM, cause=problem_of(error)) from error
            log.warning(journal_words("stands_in", problem=problem_of(error)))
            opening.no_pico = True
    return devices.pico


def _voice(opening: Opening) -> None:
    if opening.config.voice.enabled:
        opening.devices.voice = open_speaker(opening.config, clock=opening.clock, simulate=opening.simulate)


DRIVERS: dict[tuple[str, str], Factory] = {
    ("keypad", "gpio"): _gpio_keypad, ("keypad", "pico"): _pico_keypad, ("keypad", "none"): _nothing,
    ("buttons", "gpio"): _gpio_buttons, ("buttons", "none"): _nothing,
    ("lines", "terminal"): _lines, ("lines", "script"): _lines, ("lines", "none"): _nothing,
    ("scanner", "evdev"): _scanner, ("scanner", "serial"): _scanner, ("scanner", "terminal"): _terminal_scanner,
    ("scanner", "none"): _nothing,
    ("camera", "picamera2"): _camera, ("camera", "opencv"): _camera, ("camera", "sim"): _camera,
    ("camera", "none"): _nothing,
    ("display", "ssd1306"): _oled, ("display", "sh1106"): _oled, ("display", "dummy"): _dummy_oled,
    ("display", "none"): _nothing,
    ("strip", "pico"): _pico_strip, ("strip", "pico-sim"): _pico_sim_strip, ("strip", "sim"): _recording_strip,
    ("strip", "none"): _nothing,
    ("voice", "on"): _voice, ("voice", "none"): _nothing,
}
"""Each driver by (kind, its devices.KIND name in the configuration): the factory that opens it. Kinds open in
the order they first appear here (the keypad before the strip whose link carries its keys); "lines" is what
`crib sim` types or reads from a script, "voice" the [voice] section's speaker."""
KINDS = tuple(dict.fromkeys(kind for kind, _name in DRIVERS))


PIN_PACKAGES = {"lgpio": "python3-lgpio", "rpigpio": "python3-rpi.gpio"}
"""The Debian package of each pin library (systemd/install.sh installs the one apt has)."""


def _mock_pins() -> Any:
    from gpiozero.pins.mock import MockFactory

    return MockFactory()


def _rpigpio_pins() -> Any:
    from gpiozero.pins.rpigpio import RPiGPIOFactory

    return RPiGPIOFactory()


def _lgpio_pins() -> Any:
    from gpiozero.pins.lgpio import LGPIOFactory

    return LGPIOFactory()


PIN_FACTORIES: dict[str, Callable[[], Any]] = {"mock": _mock_pins, "rpigpio": _rpigpio_pins, "lgpio": _lgpio_pins}
"""gpiozero's pin factories by their devices.pin_factory name (gpiozero 1.6, Debian's, or 2.x)."""


def pin_factory(name: str) -> Any:
    """A gpiozero pin factory by its configuration name."""
    try:
        return PIN_FACTORIES[name]()
    except Exception as error:  # ImportError, lgpio.error (no /dev/gpiochip*), RPi.GPIO's RuntimeError, OSError
        raise DeviceMissing(Fault.PIN_LIBRARY, name=name, package=PIN_PACKAGES.get(name, "python3-lgpio"),
                            error=error_text(error)) from error


CHECKS: dict[str, Callable[[Any], Invalid | None]] = {
    "scanner.device": scanner_spec_problem,
    "keypad.pico_rows": pico_pins_problem,
    "keypad.pico_columns": pico_pins_problem,
}
"""The settings only a driver can judge (the configuration checks their form): what is wrong, or None."""


def check_config(config: Config) -> None:
    """A ConfigError naming the file, line and key of each setting its driver cannot use (`crib check-config`
    and the board's start call this)."""
    problems = []
    for key, check in CHECKS.items():
        section, name = key.split(".")
        problem = check(getattr(getattr(config, section), name))
        if problem is not None:
            problems.append(Problem(problem.kind, config.origins.get(key), key, problem.facts))
    if problems:
        raise ConfigError(problems)


def open_scanner(config: Config, *, clock: Clock) -> EntryDevice:
    """The configured scanner (evdev or serial), opened now: a DeviceError when it is not there."""
    from companion.devices.scanner import EvdevScanner, SerialScanner

    scanner = config.scanner
    window = scanner.duplicate_window_ms / 1000
    if config.devices.scanner == "evdev":
        return EvdevScanner(scanner.device, clock=clock, duplicate_window=window)
    return SerialScanner(scanner.port, baud=scanner.baud, clock=clock, duplicate_window=window)


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
        raise DeviceError(Fault.LAYOUT, error=str(error)) from error


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
    if simulate and not _chosen(config, "voice.enabled"):
        simulated = SimulatedVoice()
        return Speaker(Watch(Speaker.name, lambda: simulated, clock), thread=thread)
    engine = Engine(voice.engine, voice=voice.voice, rate=voice.rate, volume=voice.volume)
    return Speaker(Watch(Speaker.name, lambda: open_voice(engine, device=voice.device, record_to=voice.record_to),
                         clock), thread=thread)
