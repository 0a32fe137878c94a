"""The 128x64 OLED through luma.oled (SSD1306 or SH1106 on I2C), or luma.core's `dummy` device in simulation.

luma is imported here, when a display is opened. `Oled.image` is the last image shown, for snapshots.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from companion.devices.base import DeviceError, DeviceMissing, DeviceMiswired, Fault, StatusDisplay

if TYPE_CHECKING:
    from PIL import Image

log = logging.getLogger(__name__)

CONTROLLERS = ("ssd1306", "sh1106")


class Oled(StatusDisplay):
    def __init__(self, device: Any, name: str = "OLED") -> None:
        self.device = device
        self.name = name
        self.size = (device.width, device.height)
        self.image: Image.Image | None = None

    def show(self, image: Image.Image) -> None:
        if image.size != self.size:
            raise ValueError(f"the display shows {self.size[0]}x{self.size[1]} images, not {image.size}")
        image = image.convert(self.device.mode)
        self.device.display(image)
        self.image = image

    def close(self) -> None:
        """Switch the display off and let go of the bus; a display or bus already gone is closed as it is."""
        try:
            self.device.cleanup()
        except Exception as error:  # luma's DeviceNotFoundError, OSError: never out of a `finally`
            log.debug("%s: closing: %s", self.name, error)


def open_oled(controller: str, *, i2c_port: int = 1, address: int = 0x3C, rotate: int = 0,
              serial_interface: Any = None) -> Oled:
    """The real screen on /dev/i2c-`i2c_port` (or on `serial_interface`, which tests give)."""
    from luma.core.error import DeviceNotFoundError, DevicePermissionError

    if rotate not in (0, 2):
        raise DeviceError(Fault.ROTATE, value=rotate)
    from luma.core.interface.serial import i2c
    from luma.oled.device import sh1106, ssd1306

    if controller not in CONTROLLERS:
        raise DeviceError(Fault.CONTROLLER, value=controller)
    try:
        serial = serial_interface or i2c(port=i2c_port, address=address)
        device = (ssd1306 if controller == "ssd1306" else sh1106)(serial, width=128, height=64, rotate=rotate)
    except DevicePermissionError as error:
        raise DeviceError(Fault.I2C_PERMISSION, bus=i2c_port, error=str(error)) from error
    except DeviceNotFoundError as error:
        if not isinstance(error.__context__, FileNotFoundError):  # the bus is there: nothing acknowledged
            raise _no_answer(address, i2c_port, error) from error
        raise DeviceMissing(Fault.NO_I2C_BUS, bus=i2c_port, error=str(error)) from error
    except OSError as error:
        raise _no_answer(address, i2c_port, error) from error
    return Oled(device, f"{controller} OLED")


def _no_answer(address: int, i2c_port: int, error: Exception) -> DeviceMiswired:
    """The bus is there but nothing answers at the address: unplugged, unpowered or wired to other pins."""
    return DeviceMiswired(Fault.OLED_SILENT, address=address, bus=i2c_port, error=str(error))


def dummy_oled(rotate: int = 0) -> Oled:
    """luma.core's dummy device: keeps the image in memory (device.image), shows nothing."""
    from luma.core.device import dummy

    return Oled(dummy(width=128, height=64, rotate=rotate, mode="1"), "simulated OLED")
