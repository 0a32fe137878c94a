"""The devices' problems as values, and their words made at the edge in the language handed.

A driver (companion/devices), the registry and the page's server say what is wrong with a device as a
`DeviceProblem`: a kind (`Fault`, its value the code a client reads) and the facts its words need (a path, a
port, an address, a setting's value, the system's or a library's error text as it was given), and, when one
problem is told inside another (the Pico lost because it refused a message), the `cause`. Every `DeviceError`
carries one as `error.refusal`; a device that is missing keeps its own as `problem`. `crib run`, `sim`, `play`,
`scan-test`, `crib state`, the daemon and the page say them, each in its reader's language:

    from companion.i18n import language
    device_words(error.refusal, language("de"))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from companion import ledlink
from companion.i18n import N_, Language, choose, language

if TYPE_CHECKING:  # the contract's types import more than a driver needs at start
    from .contract import DeviceProblemJSON

Fact = str | int | tuple[str, ...]


class Fault(StrEnum):
    """What is wrong with a device (the value is its code); the facts each kind fills are listed."""

    FAILED = "failed"  # error: a library's or the system's words, as given (a device failing in its own way)
    # the camera
    PICTURE_UNREADABLE = "picture_unreadable"  # path, error
    IMAGES_UNREADABLE = "images_unreadable"  # path: camera.images, error
    SIMULATED_CAMERA_ABSENT = "simulated_camera_absent"  # opened while unplugged
    SIMULATED_CAMERA_UNPLUGGED = "simulated_camera_unplugged"  # unplugged while in use
    NEEDS_OPENCV = "needs_opencv"  # camera.driver = "opencv" without OpenCV
    CARDS_NEED_OPENCV = "cards_need_opencv"  # plain cards are read with OpenCV, which is not installed
    CAMERA_DRIVER = "camera_driver"  # value: camera.driver, cause: why it cannot be used
    NO_WEBCAM = "no_webcam"  # path: the webcam's device
    WEBCAM_NO_PICTURE = "webcam_no_picture"
    NEEDS_PICAMERA2 = "needs_picamera2"
    NO_PI_CAMERA = "no_pi_camera"  # error
    # the Pico's peg strip (and the simulated Pico)
    BRIGHTNESS = "brightness"  # value: the brightness asked for
    PORT_MISSING = "port_missing"  # port
    PORT_PERMISSION = "port_permission"  # port
    PORT_BUSY = "port_busy"  # port
    PORT_FAILED = "port_failed"  # port, error
    PICO_LOST = "pico_lost"  # port, error or cause: what went wrong on the link
    PICO_PROTOCOL = "pico_protocol"  # theirs: the protocol the Pico speaks, ours
    PICO_LEDS = "pico_leds"  # most: the LEDs the firmware drives, count: the board's
    PICO_OLD = "pico_old"  # ours: the protocol this program speaks
    PICO_REFUSED = "pico_refused"  # code: the Pico's NAK code (companion/ledlink)
    PICO_UNACKNOWLEDGED = "pico_unacknowledged"  # code: the Pico's NAK code for its last refusal
    PICO_SILENT = "pico_silent"  # no answer to a message, however often sent
    PICO_NO_KEYPAD = "pico_no_keypad"  # firmware: the Pico's firmware
    STRIP_ABSENT = "strip_absent"  # the strip is not connected (no reason known yet)
    PICO_SOURCES = "pico_sources"  # error: the simulated Pico's firmware sources cannot be read
    PICO_SIM = "pico_sim"  # cause: why devices.strip = "pico-sim" cannot be had
    PICO_KEYPAD_STRIP = "pico_keypad_strip"  # devices.keypad = "pico" with another strip
    # the voice
    NO_ENGINE = "no_engine"  # program: "espeak-ng" or "piper", not installed
    PIPER_VOICE = "piper_voice"  # value: [voice] voice
    VOICE_RATE = "voice_rate"  # path: the voice's .onnx, error
    ENGINE_FAILED = "engine_failed"  # program, error (the program's words) or status (its exit status)
    APLAY_FAILED = "aplay_failed"  # device, error or status
    NO_APLAY = "no_aplay"
    SOUND_DEVICE = "sound_device"  # device, error: aplay's words ("" when it said none)
    RECORD_FOLDER = "record_folder"  # path: [voice] record_to, error
    RECORD_WRITE = "record_write"  # path: the file, error
    # the scanner
    SCANNER_GONE = "scanner_gone"  # error or cause: how reading failed
    SCANNER_HELD = "scanner_held"  # path, error
    NO_EVDEV = "no_evdev"
    EVDEV_LINUX = "evdev_linux"  # evdev scanners off Linux
    SCANNERS_SEVERAL = "scanners_several"  # found: each as "PATH 'NAME' (VENDOR:PRODUCT)"
    NO_SCANNER_ID = "no_scanner_id"  # spec: the USB vendor:product looked for
    NO_SCANNER = "no_scanner"  # no input device types letters and digits
    INPUT_PERMISSION = "input_permission"  # path
    INPUT_OPEN = "input_open"  # path, error
    SERIAL_PORT = "serial_port"  # port, error
    # the OLED
    ROTATE = "rotate"  # value: display.rotate
    CONTROLLER = "controller"  # value: devices.display
    I2C_PERMISSION = "i2c_permission"  # bus, error
    NO_I2C_BUS = "no_i2c_bus"  # bus, error
    OLED_SILENT = "oled_silent"  # address, bus, error
    # GPIO
    KEYPAD_PINS = "keypad_pins"  # error
    BUTTON_PINS = "button_pins"  # error
    PIN_LIBRARY = "pin_library"  # name: devices.pin_factory, package: what to install, error
    # the board and the page
    LAYOUT = "layout"  # error: the layout reader's words
    LISTEN_BUSY = "listen_busy"  # address: HOST:PORT, secure: the https HOST:PORT or "", error


SAID: dict[str, str] = {  # a kind (with a variant after "/") -> its words
    Fault.FAILED: N_("{error}"),
    Fault.PICTURE_UNREADABLE: N_("camera: cannot read the picture {path} ({error})"),
    Fault.IMAGES_UNREADABLE: N_("camera.images: cannot read the folder {path} ({error})"),
    Fault.SIMULATED_CAMERA_ABSENT: N_("simulated camera: not connected (unplugged)"),
    Fault.SIMULATED_CAMERA_UNPLUGGED: N_("simulated camera: unplugged"),
    Fault.NEEDS_OPENCV: N_('camera.driver = "opencv" needs OpenCV: apt install python3-opencv (or pip install '
                           "opencv-python-headless)"),
    Fault.CARDS_NEED_OPENCV: N_("reading plain cards needs OpenCV: apt install python3-opencv, or pip install "
                                "'cribbage-companion[vision]'"),
    Fault.CAMERA_DRIVER: N_("camera.driver = {value!r}: {error}"),
    Fault.NO_WEBCAM: N_("camera: no webcam at {path}: plug it in, check camera.device (v4l2-ctl --list-devices) and "
                        "that the service's user is in the group 'video'"),
    Fault.WEBCAM_NO_PICTURE: N_("camera: the webcam gives no picture (unplugged?)"),
    Fault.NEEDS_PICAMERA2: N_('camera.driver = "picamera2" needs picamera2: apt install python3-picamera2 (Raspberry '
                              "Pi OS)"),
    Fault.NO_PI_CAMERA: N_("camera: no Raspberry Pi camera found ({error}): check its ribbon cable and `rpicam-hello "
                           "--list-cameras`"),
    Fault.BRIGHTNESS: N_("strip brightness {value} is out of range: use 0 (off) to 255 (full)"),
    Fault.PORT_MISSING: N_("{port} is missing: is the Pico plugged in? Check its USB cable, and that strip.port names "
                           "it (ls /dev/ttyACM*)"),
    Fault.PORT_PERMISSION: N_("no permission to open {port}: add the daemon's user to the 'dialout' group (the "
                              "install script does), then restart it"),
    Fault.PORT_BUSY: N_("{port} is in use by another program (mpremote, a serial console?): close it"),
    Fault.PORT_FAILED: N_("cannot open {port}: {error}; check the Pico's USB cable"),
    Fault.PICO_LOST: N_("lost the Pico on {port}: {error}; check its USB cable"),
    Fault.PICO_PROTOCOL: N_("the Pico speaks protocol {theirs}, this program {ours}: reflash it"),
    Fault.PICO_LEDS: N_("the firmware drives at most {most} LEDs, the board has {count}"),
    Fault.PICO_OLD: N_("the Pico's firmware does not speak protocol {ours}: reflash it (firmware/README.md)"),
    Fault.PICO_REFUSED: N_("the Pico refused a message: {reason}"),
    Fault.PICO_UNACKNOWLEDGED: N_("the Pico did not acknowledge a message ({reason})"),
    Fault.PICO_SILENT: N_("the Pico did not acknowledge a message (no answer)"),
    Fault.PICO_NO_KEYPAD: N_("the Pico's firmware ({firmware}) does not scan a keypad: reflash it"),
    Fault.STRIP_ABSENT: N_("not connected"),
    Fault.PICO_SOURCES: N_('the simulated Pico needs the firmware sources ({error}): reinstall the package, or use '
                           'devices.strip = "sim"'),
    Fault.PICO_SIM: N_('devices.strip = "pico-sim": {error}'),
    Fault.PICO_KEYPAD_STRIP: N_('devices.keypad = "pico" needs devices.strip = "pico": the keys come over its link'),
    "no_engine/espeak-ng": N_("espeak-ng is not installed: sudo apt install espeak-ng (systemd/install.sh does when "
                              "[voice] is on)"),
    "no_engine/piper": N_("piper is not installed: install Piper (pip install piper-tts) and a voice, and name its "
                          ".onnx file in [voice] voice"),
    Fault.PIPER_VOICE: N_("[voice] voice = {value!r}: Piper needs the path of an installed voice (its .onnx file, with "
                          "the .onnx.json beside it); it never downloads one"),
    Fault.VOICE_RATE: N_("{path}.json: cannot read the voice's sample rate ({error})"),
    Fault.ENGINE_FAILED: N_("{program} failed ({error})"),
    "engine_failed/status": N_("{program} failed (exit status {status})"),
    Fault.APLAY_FAILED: N_("aplay on {device!r} failed ({error})"),
    "aplay_failed/status": N_("aplay on {device!r} failed (exit status {status})"),
    Fault.NO_APLAY: N_("aplay is not installed: sudo apt install alsa-utils"),
    Fault.SOUND_DEVICE: N_("sound device {device!r}: {error}: check the speaker's cable or card, or [voice] device "
                           "(aplay -L lists the devices)"),
    "sound_device/status": N_("sound device {device!r}: cannot be opened: check the speaker's cable or card, or "
                              "[voice] device (aplay -L lists the devices)"),
    Fault.RECORD_FOLDER: N_("[voice] record_to: cannot make {path} ({error})"),
    Fault.RECORD_WRITE: N_("cannot write {path} ({error})"),
    Fault.SCANNER_GONE: N_("{error}; is it still plugged in?"),
    Fault.SCANNER_HELD: N_("cannot grab {path} ({error}): another program holds the scanner; stop it (or another "
                           "cribbage-companion) and start again"),
    Fault.NO_EVDEV: N_("the evdev library for keyboard-wedge scanners is not installed: apt install python3-evdev "
                       "(systemd/install.sh does), or pip install 'cribbage-companion[scanner]'"),
    Fault.EVDEV_LINUX: N_('devices.scanner: evdev scanners need Linux: use "serial" or "terminal"'),
    Fault.SCANNERS_SEVERAL: N_("several input devices could be the scanner ({found}): set scanner.device to the "
                               "scanner's vendor:product or its /dev/input/by-id path"),
    Fault.NO_SCANNER_ID: N_("no input device with USB id {spec} can be read: is the scanner plugged in, and is the "
                            "user in the 'input' group? (ls -l /dev/input/by-id)"),
    Fault.NO_SCANNER: N_("no input device that types letters and digits can be read: is the scanner plugged in, and "
                         "is the user in the 'input' group? (ls -l /dev/input/by-id)"),
    Fault.INPUT_PERMISSION: N_("no permission to read {path}: add the user to the 'input' group (sudo adduser $USER "
                               "input) and log in again"),
    Fault.INPUT_OPEN: N_("cannot open {path} ({error}): is the scanner plugged in? check scanner.device"),
    Fault.SERIAL_PORT: N_("cannot open the scanner's serial port {port} ({error}): check the cable and scanner.port, "
                          "that the scanner is in serial (USB-CDC) mode, and that the user is in the 'dialout' group"),
    Fault.ROTATE: N_("display.rotate is {value}: the screens are drawn landscape, so use 0 or 2 (upside down)"),
    Fault.CONTROLLER: N_("no OLED controller {value!r}: set devices.display to ssd1306 or sh1106"),
    Fault.I2C_PERMISSION: N_("no permission to use /dev/i2c-{bus} ({error}): add the user to the 'i2c' group and start "
                             "again"),
    Fault.NO_I2C_BUS: N_("no I2C bus /dev/i2c-{bus} for the OLED ({error}): enable I2C (raspi-config, Interface "
                         "Options, or dtparam=i2c_arm=on in /boot/firmware/config.txt) and reboot; display.i2c_port "
                         "names the bus"),
    Fault.OLED_SILENT: N_("no OLED answers at address 0x{address:02X} on /dev/i2c-{bus} ({error}): check the wiring "
                          "(SDA GPIO 2, SCL GPIO 3, 3.3 V) and find the address with 'i2cdetect -y {bus}' "
                          "(display.address)"),
    Fault.KEYPAD_PINS: N_("cannot use the GPIO pins of the keypad ({error}): check that no other program uses them, "
                          "that the user is in the 'gpio' group, and devices.pin_factory (\"lgpio\" or \"rpigpio\" on "
                          "a Raspberry Pi, \"mock\" off one)"),
    Fault.BUTTON_PINS: N_("cannot use the GPIO pins of the buttons ({error}): check that no other program uses them, "
                          "that the user is in the 'gpio' group, and devices.pin_factory (\"lgpio\" or \"rpigpio\" on "
                          "a Raspberry Pi, \"mock\" off one)"),
    Fault.PIN_LIBRARY: N_("cannot use the {name!r} GPIO pin library ({error}): on a Raspberry Pi install {package} "
                          "(systemd/install.sh does) and check /dev/gpiochip* or /dev/gpiomem permissions (group "
                          "'gpio'); RPi.GPIO cannot drive a Pi 5 (use \"lgpio\"); off a Pi, use crib sim or "
                          "devices.pin_factory = \"mock\""),
    Fault.LAYOUT: N_("board.layout: {error}"),
    Fault.LISTEN_BUSY: N_("the web page cannot listen on {address} ({error}): another program has it, or set [web] "
                          "listen (and https) to another address"),
    "listen_busy/secure": N_("the web page cannot listen on {address} or {secure} ({error}): another program has it, "
                             "or set [web] listen (and https) to another address"),
}
NAK_REASONS = {  # the Pico's NAK code (firmware/PROTOCOL.md) -> why it refused
    ledlink.BAD_CRC: N_("CRC mismatch"),
    ledlink.BAD_LENGTH: N_("length field does not match the body"),
    ledlink.BAD_FRAMING: N_("bad COBS framing or frame too long"),
    ledlink.UNKNOWN_TYPE: N_("unknown message type"),
    ledlink.BAD_BODY: N_("bad body for this message type"),
    ledlink.NOT_CONFIGURED: N_("not configured: send CONFIG first"),
    ledlink.BAD_VERSION: N_("unsupported protocol version"),
}
OTHER_NAK = N_("reason {code}")
STRIP = "LED strip"  # the peg strip's name as the board watches it
NAMES = {"keypad": N_("keypad"), "buttons": N_("buttons"), "scanner": N_("scanner"), "camera": N_("camera"),
         "OLED": N_("OLED"), "loudspeaker": N_("loudspeaker"), STRIP: N_("LED strip")}
"""The devices the board watches, by the name it gives them (their key in devices.json), in words."""
JOURNAL = {  # what the daemon's journal says of a device coming and going: one line, in the system's language
    "missing": N_("{device}: missing ({problem}); the game goes on, and it is looked for again in the background"),
    "connected": N_("{device}: connected"),
    "connected_to": N_("{device}: connected to {firmware} on {port}"),
    "connected_to_pico": N_("{device}: connected to the Pico on {port}"),
    "not_connected": N_("{device}: not connected: {problem}"),
    "refused": N_("{device}: {problem}"),
    "stands_in": N_("{problem}; the recording strip stands in"),
    "failed": N_("{device}: {problem}; the game goes on"),
    "not_closed": N_("{device}: could not be closed ({problem})"),
    "stuck": N_("{device}: the key {key} has been down for {seconds} s: stuck? It counted once, and the other keys "
                "still work; check the keypad's ribbon"),
    "status_unwritten": N_("cannot write {path} ({error}): the game goes on, but `crib state` cannot say which "
                           "devices are missing; free space on the disk"),
}


@dataclass(frozen=True, slots=True)
class DeviceProblem:
    """What is wrong with a device: its kind, the facts its words need (which, `Fault` says) and the problem told
    inside it (a link lost because the Pico refused a message), if any."""

    kind: Fault
    facts: Mapping[str, Fact] = field(default_factory=dict)
    cause: DeviceProblem | None = None

    def __str__(self) -> str:
        """The code and its facts, for logs and tracebacks (people read `device_words`)."""
        facts = "".join(f" {name}={value!r}" for name, value in self.facts.items())
        return f"{self.kind}{facts}" + ("" if self.cause is None else f" ({self.cause})")

    def to_json(self) -> DeviceProblemJSON:
        data: DeviceProblemJSON = {
            "kind": self.kind.value,
            "facts": {name: list(value) if isinstance(value, tuple) else value for name, value in self.facts.items()}}
        if self.cause is not None:
            data["cause"] = self.cause.to_json()
        return data

    @classmethod
    def from_json(cls, data: object) -> DeviceProblem:
        """The problem `to_json` wrote; ValueError for anything else."""
        if not isinstance(data, dict) or not isinstance(data.get("facts"), dict):
            raise ValueError(f"not a device problem: {data!r}")
        facts: dict[str, Fact] = {}
        for name, value in data["facts"].items():
            if isinstance(value, list) and all(isinstance(item, str) for item in value):
                facts[str(name)] = tuple(value)
            elif isinstance(value, str | int) and not isinstance(value, bool):
                facts[str(name)] = value
            else:
                raise ValueError(f"not a device problem's fact: {name}={value!r}")
        cause = data.get("cause")
        problem = cls(Fault(str(data.get("kind"))), facts, None if cause is None else cls.from_json(cause))
        try:  # the facts its words need (a file of another version, or edited by hand, may lack them)
            device_words(problem, language("en"))
        except (KeyError, IndexError, TypeError, ValueError) as error:
            raise ValueError(f"not a device problem's facts: {problem} ({error!r})") from None
        return problem


def device_words(problem: DeviceProblem, lang: Language) -> str:
    """What is wrong with a device and what to do, in `lang`."""
    facts: dict[str, object] = dict(problem.facts)
    if problem.cause is not None:
        facts["error"] = device_words(problem.cause, lang)
    key: str = problem.kind
    if problem.kind in (Fault.ENGINE_FAILED, Fault.APLAY_FAILED, Fault.SOUND_DEVICE) and not facts.get("error"):
        key = f"{problem.kind}/status"
    elif problem.kind is Fault.NO_ENGINE:
        key = f"{problem.kind}/{facts['program']}"
    elif problem.kind is Fault.LISTEN_BUSY and facts.get("secure"):
        key = f"{problem.kind}/secure"
    elif problem.kind in (Fault.PICO_REFUSED, Fault.PICO_UNACKNOWLEDGED):
        code = problem.facts["code"]
        facts["reason"] = lang.gettext(NAK_REASONS[code]) if code in NAK_REASONS else lang.gettext(
            OTHER_NAK).format(code=code)
    elif problem.kind is Fault.SCANNERS_SEVERAL:
        facts["found"] = "; ".join(problem.facts["found"])  # type: ignore[arg-type]
    return lang.gettext(SAID[key]).format(**facts)


def device_name(what: str, lang: Language) -> str:
    """A device the board watches in `lang` ("Kamera"); another by the name it has."""
    return lang.gettext(NAMES[what]) if what in NAMES else what


def journal_words(line: str, *, device: str = "", problem: DeviceProblem | None = None, **facts: object) -> str:
    """One of the journal's `JOURNAL` lines about `device` in the system's language (the journal's reader's), its
    name and its `problem` said in it too."""
    lang = choose(None)
    said = "" if problem is None else device_words(problem, lang)
    return lang.gettext(JOURNAL[line]).format(device=device_name(device, lang), problem=said, **facts)
