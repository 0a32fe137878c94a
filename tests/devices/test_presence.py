"""Devices that are missing at start, go, and come back (companion/devices/presence.py), each on the real
driver over the lowest layer that can be faked: luma's ssd1306 on an smbus2 bus, pyserial on a pseudo-terminal,
evdev devices, gpiozero's mock pins. Each change is logged once, however often the retries fail."""

from __future__ import annotations

import itertools
import logging
import os
import queue
from pathlib import Path

import pytest
import smbus2
from PIL import Image, ImageDraw

from companion.devices.base import DeviceError, DeviceProblem, Entry, Fault, ManualClock
from companion.devices.keypad import STUCK_S, Keypad
from companion.devices.oled import open_oled
from companion.devices.picokeys import PicoKeypad
from companion.devices.presence import RETRY_MAX_S, Watch, WatchedDisplay, WatchedEntry, read_status, write_status
from companion.devices.scanner import EvdevScanner, SerialScanner, find_input_device
from companion.devices.sim import SimulatedKeypad
from tests.devices.fakes import FakeI2C, FakeInput, PtyScanner, keyboard_keys, plug_inputs, typed
from tests.devices.keypads import COLUMNS, ROWS, run, texts
from tests.devices.said import said


def picture(text: str) -> Image.Image:
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).text((4, 4), text, fill=1)
    return image


def warnings(caplog: pytest.LogCaptureFixture, what: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING and r.getMessage().startswith(what)]


@pytest.fixture
def i2c(monkeypatch: pytest.MonkeyPatch) -> FakeI2C:
    wire = FakeI2C()
    monkeypatch.setattr(smbus2, "SMBus", wire.SMBus)
    return wire


def oled(clock: ManualClock) -> WatchedDisplay:
    return WatchedDisplay("OLED", lambda: open_oled("ssd1306"), clock)


def test_retries_back_off_and_a_failure_that_repeats_is_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    clock = ManualClock()
    tries: list[float] = []

    def opener() -> SimulatedKeypad:
        tries.append(clock.now)
        raise OSError(19, "No such device")

    watch = Watch("keypad", opener, clock)
    for _ in range(6000):  # a minute of main-loop polls
        watch.open(clock.now)
        clock.advance(0.01)
    gaps = [round(b - a) for a, b in itertools.pairwise(tries)]
    assert gaps[:6] == [1, 2, 4, 8, 16, 16] and max(gaps) == RETRY_MAX_S
    assert warnings(caplog, "keypad") == ["keypad: missing ([Errno 19] No such device); the game goes on, and it is "
                                          "looked for again in the background"]


@pytest.mark.parametrize(("system", "lines"), [
    ("de_DE.UTF-8", ["Kamera: fehlt (Kamera: die Webcam liefert kein Bild (ausgesteckt?)); das Spiel geht weiter, "
                     "und im Hintergrund wird weiter danach gesucht", "Kamera: verbunden"]),
    ("C.UTF-8", ["camera: missing (camera: the webcam gives no picture (unplugged?)); the game goes on, and it is "
                 "looked for again in the background", "camera: connected"])])
def test_the_journal_says_a_device_going_and_coming_back_in_the_systems_language_whole(
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch, system: str, lines: list[str]) -> None:
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANG", system)
    clock = ManualClock()
    plugged = False

    def opener() -> SimulatedKeypad:
        if not plugged:
            raise DeviceError(Fault.WEBCAM_NO_PICTURE)
        return SimulatedKeypad(ROWS, COLUMNS, clock=clock)

    watch = Watch("camera", opener, clock)
    with caplog.at_level(logging.INFO, logger="companion.devices.presence"):
        watch.open(clock.now)
        plugged = True
        clock.advance(RETRY_MAX_S)
        watch.open(clock.now)
    assert watch.device is not None
    assert [r.getMessage() for r in caplog.records if r.name == "companion.devices.presence"] == lines


def test_an_oled_absent_at_start_comes_up_showing_the_latest_screen(i2c: FakeI2C,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    clock = ManualClock()
    i2c.bus = False  # I2C not enabled yet, or the display not wired
    display = oled(clock)
    assert display.device is None and "enable I2C" in said(display.watch.problem)
    display.show(picture("Ann 12"))
    display.show(picture("Ann 14"))  # the screen moved on meanwhile
    i2c.bus = True
    display.poll(clock.now + 1)
    assert display.device is not None and i2c.on
    assert i2c.shown().tobytes() == picture("Ann 14").tobytes()
    assert len(warnings(caplog, "OLED")) == 1
    display.close()


def test_an_oled_whose_bus_fails_for_a_while_is_initialised_again_and_shown_the_latest(
        i2c: FakeI2C, caplog: pytest.LogCaptureFixture) -> None:
    clock = ManualClock()
    display = oled(clock)
    display.show(picture("Ann 12"))
    assert i2c.on and i2c.shown().tobytes() == picture("Ann 12").tobytes()
    i2c.unplug()  # a loose wire: every transfer fails
    for score in range(13, 40):  # the game goes on, with no screen, for a while
        display.show(picture(f"Ann {score}"))
        display.poll(clock.now)
        clock.advance(0.5)
    assert display.device is None
    i2c.plug()  # power came back: the display is off until initialised
    assert not i2c.on
    for _ in range(2000):
        display.poll(clock.now)
        clock.advance(0.01)
        if display.device is not None:
            break
    assert i2c.on and i2c.shown().tobytes() == picture("Ann 39").tobytes()
    assert len(warnings(caplog, "OLED")) == 1  # one "missing", however many transfers and retries failed
    assert display.watch.problem is None
    i2c.unplug()
    display.close()  # switching off a display that is gone does not raise


def test_a_serial_scanner_absent_then_plugged_then_pulled_mid_code_then_back(tmp_path: Path,
                                                                             caplog: pytest.LogCaptureFixture) -> None:
    clock = ManualClock()
    port = PtyScanner(tmp_path / "ttyUSB0", plugged=False)
    scanner = WatchedEntry("scanner", lambda: SerialScanner(str(port.path), clock=clock), clock)
    got: queue.Queue[Entry] = queue.Queue()
    scanner.start(got.put)
    assert scanner.device is None and "cannot open the scanner's serial port" in said(scanner.watch.problem)
    port.plug()
    clock.advance(1)
    scanner.poll(clock.now)
    assert scanner.device is not None and scanner.watch.problem is None
    port.send(b"C5")
    port.send(b"H\r\n")  # a code in two pieces
    assert got.get(timeout=5).text == "C5H"
    port.send(b"C7")  # pulled out in the middle of a code
    reader = scanner.device
    port.unplug()
    assert isinstance(reader, SerialScanner) and reader._thread is not None
    reader._thread.join(5)  # its reading fails, and its thread ends saying why
    assert said(reader.problem).endswith("; is it still plugged in?")
    scanner.poll(clock.now)
    assert scanner.device is None
    port.plug()
    port.send(b"C9S\r\n")  # typed into the port before the driver opened it again: not replayed
    clock.advance(2)
    scanner.poll(clock.now)
    assert scanner.device is not None
    port.send(b"CXG\r\n")
    assert got.get(timeout=5).text == "CXG"  # not "C7CXG", and no 9S
    assert got.empty()
    assert len(warnings(caplog, "scanner")) == 2  # missing at start, and pulled out
    scanner.close()
    port.unplug()


def test_the_scanner_is_the_one_device_that_types_letters_and_digits_or_the_configured_usb_id(
        monkeypatch: pytest.MonkeyPatch) -> None:
    mouse = FakeInput("/dev/input/event0", "Logitech USB Optical Mouse", 0x046D, 0xC077)
    imager = FakeInput("/dev/input/event1", "USBKey Chip USBKey Module", 0x1EAB, 0x1A03, keyboard_keys())
    plug_inputs(monkeypatch, [mouse, imager])
    found = find_input_device("")  # its name says nothing of barcodes: its keys do
    assert found.path == imager.path
    found.close()
    keyboard = FakeInput("/dev/input/event2", "Dell KB216 Wired Keyboard", 0x413C, 0x2113, keyboard_keys())
    plug_inputs(monkeypatch, [mouse, imager, keyboard])
    with pytest.raises(Exception, match=r"several input devices could be the scanner .*1eab:1a03.*413c:2113.*"
                                        r"set scanner.device to the scanner's vendor:product"):
        find_input_device("")
    found = find_input_device("1eab:1a03")
    assert found.path == imager.path
    found.close()
    with pytest.raises(Exception, match="no input device with USB id 0c2e:0b61"):
        find_input_device("0c2e:0b61")


def test_an_evdev_scanner_pulled_and_plugged_back_is_grabbed_again(monkeypatch: pytest.MonkeyPatch,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    clock = ManualClock()
    imager = FakeInput("/dev/input/event1", "USBKey Chip USBKey Module", 0x1EAB, 0x1A03, keyboard_keys())
    imager.plugged = False
    plug_inputs(monkeypatch, [imager])
    scanner = WatchedEntry("scanner", lambda: EvdevScanner("1eab:1a03", clock=clock), clock)
    got: queue.Queue[Entry] = queue.Queue()
    scanner.start(got.put)
    assert scanner.device is None and "no input device with USB id 1eab:1a03" in said(scanner.watch.problem)
    imager.plugged = True
    clock.advance(1)
    scanner.poll(clock.now)
    assert isinstance(scanner.device, EvdevScanner) and imager.handles[0].grabbed
    events = typed("C5H")
    imager.type(events[:5])  # a code that arrives in pieces
    imager.type(events[5:])
    assert got.get(timeout=5).text == "C5H"
    reader = scanner.device
    imager.unplug()
    assert reader._thread is not None
    reader._thread.join(5)
    scanner.poll(clock.now)
    assert scanner.device is None and not imager.handles
    imager.plugged = True
    clock.advance(2)
    scanner.poll(clock.now)
    assert isinstance(scanner.device, EvdevScanner) and imager.handles[0].grabbed
    imager.type(typed("XG"))
    assert got.get(timeout=5).text == "XG"
    assert len(warnings(caplog, "scanner")) == 2
    scanner.close()


def test_a_keypad_whose_pins_are_busy_at_start_comes_up_when_they_are_free(clock: ManualClock,
                                                                           caplog: pytest.LogCaptureFixture) -> None:
    from gpiozero import DigitalInputDevice
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    hand = SimulatedKeypad(ROWS, COLUMNS, clock=clock, factory=factory)  # the switches, on the same pins
    hand.keypad.close()
    other = DigitalInputDevice(ROWS[2], pin_factory=factory)  # another program holds a row pin
    keypad = WatchedEntry("keypad", lambda: Keypad(ROWS, COLUMNS, clock=clock, pin_factory=factory,
                                                   scan_every=None), clock)
    got: list[Entry] = []
    keypad.start(got.append)
    assert keypad.device is None and "cannot use the GPIO pins of the keypad" in said(keypad.watch.problem)
    other.close()
    keypad.poll(clock.now + 1)
    device = keypad.device
    assert isinstance(device, Keypad)
    for label in "53":
        hand.press(label)
        for _ in range(5):
            device.scan(clock.now)
            clock.advance(0.01)
        hand.release()
        for _ in range(5):
            device.scan(clock.now)
            clock.advance(0.01)
    keypad.poll(clock.now)
    assert texts(got) == ["5H"]
    assert len(warnings(caplog, "keypad")) == 1
    keypad.close()


def test_a_stuck_key_counts_once_is_reported_once_and_the_other_keys_still_work(
        keypad: SimulatedKeypad, clock: ManualClock, caplog: pytest.LogCaptureFixture) -> None:
    got: list[Entry] = []
    keypad.start(got.append)
    keypad.press("A")  # GO, stuck down
    run(keypad, clock, STUCK_S + 5)
    stuck = warnings(caplog, "keypad: the key GO has been down")
    assert texts(got) == ["go"] and len(stuck) == 1 and "stuck?" in stuck[0]
    keypad.release()
    run(keypad, clock, 0.1)
    keypad.tap("53")
    run(keypad, clock, 1.0)
    assert texts(got) == ["go", "5H"]


def test_a_stuck_key_is_said_in_the_systems_language(keypad: SimulatedKeypad, clock: ManualClock,
                                                     caplog: pytest.LogCaptureFixture,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")  # the journal's reader's
    keypad.start(lambda entry: None)
    keypad.press("A")
    run(keypad, clock, STUCK_S + 5)
    assert warnings(caplog, "Tastenfeld: die Taste GO ist seit ")[0].endswith(
        " s gedrückt: klemmt sie? Sie zählte einmal, und die anderen Tasten gehen weiter; prüfe das Flachbandkabel "
        "des Tastenfelds")
    keypad.release()


def test_a_stuck_key_on_the_pico_keypad_leaves_the_other_keys_working(clock: ManualClock,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    keypad = PicoKeypad((6, 7, 8, 9), (10, 11, 12, 13), clock=clock)
    got: list[Entry] = []
    keypad.start(got.append)
    keypad.key_event(bytes((3, 1)))  # GO goes down and stays
    for _ in range(round(STUCK_S * 3)):
        keypad.poll(clock.now)
        clock.advance(1)
    for key in (5, 2):  # 5 then 3 (the five of hearts) while GO is still down
        keypad.key_event(bytes((key, 1)))
        keypad.key_event(bytes((key, 0)))
    keypad.poll(clock.now)
    assert texts(got) == ["go", "5H"]
    assert len(warnings(caplog, "keypad: the key GO has been down")) == 1


def test_the_status_file_is_what_crib_state_reads_while_the_daemon_runs(tmp_path: Path) -> None:
    path = tmp_path / "devices.json"
    silent = DeviceProblem(Fault.OLED_SILENT, {"address": 0x3C, "bus": 1, "error": "[Errno 121] Remote I/O error"})
    lost = DeviceProblem(Fault.PICO_LOST, {"port": "/dev/ttyACM0"}, DeviceProblem(Fault.PICO_SILENT))
    write_status(path, {"scanner": None, "OLED": silent, "LED strip": lost})
    read = read_status(tmp_path)
    assert read == {"scanner": None, "OLED": silent, "LED strip": lost}  # the codes and facts, not words
    assert said(read["OLED"]).startswith("no OLED answers at address 0x3C on /dev/i2c-1 ([Errno 121]")
    path.write_text('{"pid": 999999999, "devices": {"scanner": null}}')  # left by a daemon that was killed
    assert read_status(tmp_path) is None
    path.write_text(f'{{"pid": {os.getpid()}, "devices": {{"OLED": "no OLED at address 0x3C"}}}}')  # words: older
    assert read_status(tmp_path) is None
    path.write_text("not json")
    assert read_status(tmp_path) is None


def test_a_keypad_whose_pins_fail_mid_game_is_opened_again(clock: ManualClock,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    # lgpio raises when its chip goes away under it: the keypad's scanning thread stops, saying why, and the
    # watch opens the keypad again; presses then come as before
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    hand = SimulatedKeypad(ROWS, COLUMNS, clock=clock, factory=factory)
    hand.keypad.close()
    keypad = WatchedEntry("keypad", lambda: Keypad(ROWS, COLUMNS, clock=clock, pin_factory=factory,
                                                   scan_every=0.001), clock)
    got: list[Entry] = []
    keypad.start(got.append)
    failing = keypad.device
    assert isinstance(failing, Keypad) and failing._thread is not None
    column = factory.pin(COLUMNS[0])

    def gone() -> bool:
        raise OSError(5, "Input/output error")

    column._get_state = gone  # the next reading fails
    failing._thread.join(5)
    assert "cannot use the GPIO pins of the keypad ([Errno 5] Input/output error)" in said(failing.problem)
    keypad.poll(clock.now)
    assert keypad.device is None
    del column._get_state
    keypad.poll(clock.now + 1)
    device = keypad.device
    assert isinstance(device, Keypad) and device is not failing
    device._stop.set()  # scanned by hand from here, on the manual clock
    assert device._thread is not None
    device._thread.join(5)
    hand.press("A")
    for _ in range(5):
        device.scan(clock.now)
        clock.advance(0.01)
    hand.release()
    device.scan(clock.now)
    keypad.poll(clock.now)
    assert texts(got) == ["go"]
    assert len(warnings(caplog, "keypad")) == 1
    keypad.close()
