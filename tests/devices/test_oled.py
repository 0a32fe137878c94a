from __future__ import annotations

from unittest import mock

import pytest
from PIL import Image, ImageDraw

from companion.devices.oled import dummy_oled, open_oled


def picture() -> Image.Image:
    image = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 3, 1), fill=1)  # top-left 4x2 block
    draw.point((127, 63), fill=1)  # bottom-right pixel
    return image


def page_bytes(image: Image.Image) -> list[int]:
    """SSD1306 horizontal addressing: 8 pages of 128 columns, one byte a column, bit 0 the top row."""
    pixels = image.load()
    return [sum(1 << bit for bit in range(8) if pixels[x, page * 8 + bit]) for page in range(8) for x in range(128)]


def test_the_dummy_device_holds_the_shown_image() -> None:
    display = dummy_oled()
    display.show(picture())
    assert display.size == (128, 64)
    assert display.device.image.getbbox() == (0, 0, 128, 64)
    assert display.device.image.getpixel((2, 1)) and not display.device.image.getpixel((2, 2))
    assert display.image is not None and display.image.tobytes() == picture().tobytes()


def test_one_frame_on_the_wire_is_1024_bytes_of_pages() -> None:
    serial = mock.Mock(unsafe=True)
    display = open_oled("ssd1306", serial_interface=serial)
    serial.reset_mock()
    display.show(picture())
    serial.command.assert_called_once_with(0x21, 0, 127, 0x22, 0, 7)  # column and page address windows
    sent = serial.data.call_args.args[0]
    assert len(sent) == 1024
    assert sent == page_bytes(picture())
    assert sent[:5] == [0b11, 0b11, 0b11, 0b11, 0]
    assert sent[-1] == 0b10000000


def test_the_wrong_image_size_is_refused() -> None:
    with pytest.raises(ValueError, match="shows 128x64 images"):
        dummy_oled().show(Image.new("1", (64, 32)))


def test_a_missing_i2c_bus_or_a_display_that_does_not_answer_says_what_to_check(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import smbus2

    from companion.devices.base import DeviceMissing, DeviceMiswired
    from tests.devices.fakes import FakeI2C

    with pytest.raises(DeviceMissing, match=r"no I2C bus /dev/i2c-19 .*enable I2C .*dtparam=i2c_arm=on"):
        open_oled("ssd1306", i2c_port=19)
    monkeypatch.setattr(smbus2, "SMBus", FakeI2C(display=False).SMBus)  # the bus is there, the display is not
    with pytest.raises(DeviceMiswired, match=r"no OLED answers at address 0x3C .*check the wiring \(SDA GPIO 2, "
                                             r"SCL GPIO 3, 3.3 V\).*'i2cdetect -y 1'"):
        open_oled("ssd1306")
    wire = FakeI2C()
    monkeypatch.setattr(smbus2, "SMBus", wire.SMBus)
    with open_oled("ssd1306") as display:  # closed at the end of the block, as gpiozero's devices are
        assert wire.on
        sent = len(wire.commands)
    assert 0xAE in wire.commands[sent:] and display.name == "ssd1306 OLED"  # "display off" as it closed


def test_closing_a_display_whose_bus_is_gone_does_not_raise(monkeypatch: pytest.MonkeyPatch) -> None:
    import smbus2

    from tests.devices.fakes import FakeI2C

    wire = FakeI2C()
    monkeypatch.setattr(smbus2, "SMBus", wire.SMBus)
    display = open_oled("ssd1306")
    wire.unplug()
    display.close()  # switching off a display that is not there: nothing to do, and nothing raised


@pytest.mark.parametrize("rotate", [1, 3])
def test_portrait_rotations_are_refused_at_start_naming_the_key(rotate: int) -> None:
    from companion.config import ConfigError, load_config
    from companion.devices.base import DeviceError

    with pytest.raises(ConfigError, match=rf"display.rotate must be 0 or 2 \(got {rotate}\)"):
        load_config(overrides=[f"display.rotate={rotate}"], system_path=None)
    with pytest.raises(DeviceError, match=r"display.rotate is .*: the screens are drawn landscape"):
        open_oled("ssd1306", rotate=rotate, serial_interface=object())
