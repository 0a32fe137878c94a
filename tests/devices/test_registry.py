from __future__ import annotations

import dataclasses
import io
import os
import queue
import re
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.base.clock import ManualClock
from companion.config import load_config
from companion.devices.base import DeviceError
from companion.devices.keypad import Buttons, Keypad
from companion.devices.oled import Oled
from companion.devices.pegstrip import PicoPegStrip
from companion.devices.picokeys import PicoKeypad
from companion.devices.picosim import PicoKeys, SimulatedPico
from companion.devices.presence import WatchedEntry
from companion.devices.scanner import SerialScanner
from companion.devices.sim import ScriptEntry, SimStrip, SimulatedKeypad, TerminalEntry
from companion.entry import Entry
from companion.registry import open_devices
from tests.devices.picoboard import PICO_COLUMNS, PICO_ROWS, MainLoop, tap, wait_for
from tests.devices.said import said


def test_simulation_picks_mock_pins_the_dummy_oled_and_the_sim_strip() -> None:
    devices = open_devices(load_config(system_path=None), clock=ManualClock(), simulate=True,
                           terminal=io.StringIO(""))
    try:
        assert [type(e) for e in devices.entries] == [SimulatedKeypad, Buttons, TerminalEntry]
        assert isinstance(devices.pin_factory, MockFactory)
        assert devices.keypad is devices.entries[0]
        assert isinstance(devices.keypad.keypad, Keypad)  # the real driver, on mock pins
        assert isinstance(devices.strip, SimStrip) and devices.strip.led_count == 244
        assert isinstance(devices.display, Oled) and devices.display.name == "simulated OLED"
    finally:
        devices.close()


def test_a_script_replaces_the_terminal_and_none_means_none(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("5H\n", encoding="utf-8")
    config = load_config(overrides=["devices.keypad=none", "devices.buttons=none", "devices.display=none",
                                    "devices.strip=none"], system_path=None)
    devices = open_devices(config, clock=ManualClock(), simulate=True, script=script)
    assert [type(e) for e in devices.entries] == [ScriptEntry]
    assert (devices.strip, devices.display, devices.keypad, devices.pin_factory) == (None, None, None, None)
    devices.close()


def test_each_device_is_chosen_separately_a_real_serial_scanner_in_simulation() -> None:
    controller, scanner_end = os.openpty()
    config = load_config(overrides=["devices.scanner=serial", f"scanner.port={os.ttyname(scanner_end)}"],
                         system_path=None)
    devices = open_devices(config, clock=ManualClock(), simulate=True, terminal=io.StringIO(""))
    try:
        assert [type(e) for e in devices.entries] == [SimulatedKeypad, Buttons, TerminalEntry, WatchedEntry]
        assert isinstance(devices.entries[-1].device, SerialScanner)  # opened at once: it is there
        assert isinstance(devices.strip, SimStrip)
    finally:
        devices.close()
        os.close(controller)
        os.close(scanner_end)


def test_running_with_mock_pins_and_dummy_parts_opens_no_hardware() -> None:
    config = load_config(overrides=["devices.pin_factory=mock", "devices.display=dummy", "devices.strip=sim",
                                    "devices.scanner=terminal"], system_path=None)
    devices = open_devices(config, clock=ManualClock(), simulate=False, terminal=io.StringIO(""))
    assert [type(e) for e in devices.entries] == [SimulatedKeypad, Buttons, TerminalEntry]
    assert isinstance(devices.display, Oled) and isinstance(devices.strip, SimStrip)
    devices.close()


def test_real_hardware_that_is_absent_is_missing_with_what_to_check_and_starts_nothing_less(tmp_path: Path) -> None:
    # the packaged configuration on a machine with no GPIO, no I2C bus, no scanner and no Pico: the board opens
    config = load_config(overrides=[f"strip.port={tmp_path / 'ttyACM-none'}"], system_path=None)
    devices = open_devices(config, clock=ManualClock(), simulate=False)
    try:
        for device in devices.entries:
            device.start(lambda entry: None)
        status = devices.status()
        assert set(status) == {"keypad", "buttons", "scanner", "OLED", "LED strip"}
        assert "GPIO pin library" in said(status["keypad"]) and "GPIO pin library" in said(status["buttons"])
        assert "enable I2C" in said(status["OLED"])
        assert "can be read: is the scanner plugged in" in said(status["scanner"]) or "input" in said(status["scanner"])
    finally:
        devices.close()
    config = load_config(overrides=["devices.keypad=none", "devices.buttons=none", "devices.scanner=serial",
                                    "scanner.port=/dev/ttyUSB-none", "devices.display=none", "devices.strip=none"],
                         system_path=None)
    devices = open_devices(config, clock=ManualClock(), simulate=False)
    devices.entries[0].start(lambda entry: None)
    assert devices.status() == {"scanner": devices.status()["scanner"]}
    assert "scanner's serial port /dev/ttyUSB-none" in said(devices.status()["scanner"])
    devices.close()


def test_a_keypad_on_the_pico_is_opened_with_the_strip_that_carries_its_keys(tmp_path: Path) -> None:
    clock = ManualClock()
    board = SimulatedPico(clock, tmp_path / "ttyACM0")
    config = load_config(overrides=["devices.keypad=pico", "devices.buttons=none", "devices.scanner=none",
                                    "devices.display=none", f"strip.port={board.port}"], system_path=None)
    devices = open_devices(config, clock=clock, simulate=False)
    try:
        assert [type(e) for e in devices.entries] == [PicoKeypad]
        assert devices.pin_factory is None  # the Pi's GPIO pins are not needed for it
        strip = devices.strip
        assert isinstance(strip, PicoPegStrip)
        assert wait_for(strip.changed, lambda: strip.connected)
        assert board.controller.keypad is not None
        assert board.keypad_pins == (PICO_ROWS, PICO_COLUMNS)
        keypad = devices.entries[0]
        assert isinstance(keypad, PicoKeypad)
        entries = MainLoop(keypad, clock)
        tap(board, clock, "C")
        assert entries.get(timeout=10) == Entry("ok", "keypad")
    finally:
        devices.close()
        board.close()


def test_in_simulation_a_keypad_on_the_pico_is_pressed_on_the_simulated_picos_pins() -> None:
    clock = ManualClock()
    packaged = load_config(overrides=["devices.keypad=pico"], system_path=None)
    config = dataclasses.replace(packaged, devices=dataclasses.replace(packaged.devices, strip="pico-sim"))
    devices = open_devices(config, clock=clock, simulate=True, terminal=io.StringIO(""))  # crib sim's way
    try:
        assert [type(e) for e in devices.entries] == [PicoKeypad, Buttons, TerminalEntry]
        hand, strip, pico = devices.keypad, devices.strip, devices.pico
        assert isinstance(hand, PicoKeys) and isinstance(strip, PicoPegStrip) and pico is not None
        entries: queue.Queue[Entry] = queue.Queue()
        devices.entries[0].start(entries.put)
        assert wait_for(strip.changed, lambda: strip.connected)  # KEYPAD sent: the Pico scans its pins
        hand.tap("C")
        for _ in range(100):  # the Pico's clock moves 10 ms a turn of its loop; the firmware debounces in 20 ms
            if not hand.busy:
                break
            clock.advance(0.01)
            assert pico.turn()
        assert not hand.busy  # heard (and queued) before the hand lets go; the main loop's poll takes it
        devices.entries[0].poll(clock.now)
        assert entries.get_nowait() == Entry("ok", "keypad")
        assert pico.keys_sent == 2  # pressed and released, each a KEY message over the strip's link
    finally:
        devices.close()


def test_in_simulation_a_keypad_on_the_pico_with_the_recording_strip_is_on_mock_pins() -> None:
    config = load_config(overrides=["devices.keypad=pico"], system_path=None)
    devices = open_devices(config, clock=ManualClock(), simulate=True, terminal=io.StringIO(""))
    try:
        assert [type(e) for e in devices.entries] == [SimulatedKeypad, Buttons, TerminalEntry]
        assert isinstance(devices.strip, SimStrip)
    finally:
        devices.close()
    # load_config refuses a Pico keypad without the Pico strip; a Config built by hand is refused here
    config = load_config(overrides=["devices.keypad=pico", "devices.buttons=none"], system_path=None)
    alone = dataclasses.replace(config, devices=dataclasses.replace(config.devices, strip="none"))
    with pytest.raises(DeviceError, match=r'needs devices\.strip = "pico"'):
        open_devices(alone, clock=ManualClock(), simulate=False)


def test_the_simulated_pico_is_the_real_driver_talking_to_the_firmware(monkeypatch: pytest.MonkeyPatch,
                                                                       tmp_path: Path) -> None:
    from companion.devices import picosim

    config = load_config(overrides=["devices.strip=pico-sim", "devices.keypad=none", "devices.buttons=none",
                                    "devices.scanner=none", "devices.display=none"], system_path=None)
    devices = open_devices(config, clock=ManualClock(), simulate=False)
    try:
        strip, pico = devices.strip, devices.pico
        assert isinstance(strip, PicoPegStrip) and isinstance(pico, picosim.SimulatedPico)
        assert wait_for(strip.changed, lambda: strip.connected)
        assert pico.strip is not None and len(pico.strip) == 244  # configured by the driver over the link
    finally:
        devices.close()
    assert not pico.plugged and not pico.port.exists()

    monkeypatch.setattr(picosim, "FIRMWARE", tmp_path)  # no firmware sources here
    with pytest.raises(DeviceError, match=r'devices\.strip = "pico-sim": the simulated Pico needs the firmware'):
        open_devices(config, clock=ManualClock(), simulate=True)
    packaged = load_config(overrides=["devices.keypad=none", "devices.buttons=none"], system_path=None)
    chosen = dataclasses.replace(packaged, devices=dataclasses.replace(packaged.devices, strip="pico-sim"))
    devices = open_devices(chosen, clock=ManualClock(), simulate=True, terminal=io.StringIO(""))  # crib sim's way
    try:
        assert isinstance(devices.strip, SimStrip) and devices.pico is None  # the recording strip stands in
    finally:
        devices.close()


def test_the_pin_library_is_lgpio_or_rpigpio_each_simulated_on_mock_pins() -> None:
    from companion.config import ConfigError

    with pytest.raises(ConfigError, match=r'devices.pin_factory must be one of "lgpio", "rpigpio", "mock" '
                                          r'\(got "gpiod"\)'):
        load_config(overrides=["devices.pin_factory=gpiod"], system_path=None)
    packaged = load_config(system_path=None)
    assert packaged.devices.pin_factory == "lgpio"
    for name in ("lgpio", "rpigpio"):  # as systemd/install.sh writes it into the system's configuration
        config = dataclasses.replace(packaged, devices=dataclasses.replace(packaged.devices, pin_factory=name))
        devices = open_devices(config, clock=ManualClock(), simulate=True, terminal=io.StringIO(""))
        try:
            assert isinstance(devices.pin_factory, MockFactory)
        finally:
            devices.close()


def test_rpigpio_off_a_pi_says_which_package_and_that_a_pi_5_needs_lgpio() -> None:
    config = load_config(overrides=["devices.pin_factory=rpigpio", "devices.buttons=none"], system_path=None)
    devices = open_devices(config, clock=ManualClock(), simulate=True, terminal=io.StringIO(""))
    try:
        problem = said(devices.status()["keypad"])  # missing, tried again later: the daemon runs on without it
        assert "cannot use the 'rpigpio' GPIO pin library" in problem and "install python3-rpi.gpio" in problem
        assert 'RPi.GPIO cannot drive a Pi 5 (use "lgpio")' in problem
    finally:
        devices.close()


def test_every_driver_the_configuration_names_is_in_the_table_and_no_other() -> None:
    from companion.config import ConfigError
    from companion.registry import DRIVERS, KINDS

    for kind in ("keypad", "buttons", "scanner", "display", "strip"):
        with pytest.raises(ConfigError) as refused:
            load_config(overrides=[f"devices.{kind}=nonsense"], system_path=None)
        allowed = re.findall(r'"([^"]+)"', str(refused.value).split("must be one of ", 1)[1].split(" (got")[0])
        assert sorted(allowed) == sorted(name for k, name in DRIVERS if k == kind), kind
    assert KINDS.index("keypad") < KINDS.index("strip")  # the keys on the Pico's link come before the link


def test_the_devices_close_at_the_end_of_a_with_block() -> None:
    with open_devices(load_config(system_path=None), clock=ManualClock(), simulate=True,
                      terminal=io.StringIO("")) as devices:
        keypad = devices.entries[0]
        assert isinstance(keypad, SimulatedKeypad) and keypad.keypad._rows  # its pins held
    assert not keypad.keypad._rows  # let go
    with SimStrip(10) as strip:
        assert strip.connected
    assert not strip.connected


def test_the_drivers_judge_the_scanners_name_and_the_picos_pins_for_check_config(tmp_path: Path) -> None:
    from companion.config import ConfigError
    from companion.registry import check_config

    path = tmp_path / "c.toml"
    path.write_text('[scanner]\ndevice = "the one on the left"\n\n[keypad]\npico_rows = [6, 7, 8, 25]\n')
    config = load_config(path, system_path=None)  # the form is right: strings and numbers
    with pytest.raises(ConfigError) as refused:
        check_config(config)
    assert str(refused.value).splitlines() == [
        f"{path}:2: scanner.device must be the scanner's /dev/input/by-id/... path, its USB vendor:product as lsusb "
        "shows it (e.g. \"0c2e:0b61\"), or \"\" for the one input device that types letters and digits (got 'the "
        "one on the left')",
        f"{path}:5: keypad.pico_rows must be a list of 4 Pico GP numbers, 0 to 22 or 26 to 28 (got [6, 7, 8, 25])"]
    with pytest.raises(ConfigError, match=r"scanner\.device must be"):
        open_devices(config, clock=ManualClock(), simulate=True, terminal=io.StringIO(""))  # nothing opened
    check_config(load_config(overrides=['scanner.device="0c2e:0b61"'], system_path=None))


def test_a_device_that_will_not_close_is_said_in_the_systems_language_and_the_others_close(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from companion.registry import Devices

    class Gone:
        name = "scanner"
        closed = False

        def close(self) -> None:
            raise OSError(19, "No such device")

    class Kept(Gone):
        name = "keypad"

        def close(self) -> None:
            self.closed = True

    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    kept = Kept()
    Devices(entries=[Gone(), kept]).close()  # type: ignore[list-item]
    assert kept.closed
    assert [r.getMessage() for r in caplog.records] == [
        "Scanner: ließ sich nicht schließen ([Errno 19] No such device)"]
