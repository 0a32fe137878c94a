"""The interfaces between the table controller and the hardware.

What crosses them is the table's: an `Entry` (companion/entry) in, a `Frame` of colours and its `Effect`s
(companion/view/leds.py) and an image out; time is a `Clock` (companion/base/clock.py).

Drivers import their hardware library lazily, inside the driver, so nothing above the registry needs
gpiozero, luma, evdev or pyserial to import. Device callbacks may arrive on other threads: they only ever
call the `emit` function they were given, which puts an `Entry` on the controller's one queue.
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from typing import TYPE_CHECKING, Self

from companion.base.clock import Clock, ManualClock, SystemClock
from companion.entry import Entry
from companion.i18n import current
from companion.view.leds import OFF, Celebrate, Color, Effect, Flash, Frame, Walk
from companion.view.speech import Utterance
from companion.words.devices import DeviceProblem, Fact, Fault, device_words

if TYPE_CHECKING:
    from PIL import Image

# The types that cross these interfaces live where they belong (above); a driver may import them from here.
__all__ = [
    "OFF", "Celebrate", "Clock", "Closing", "Color", "DeviceError", "DeviceMissing", "DeviceMiswired",
    "DeviceProblem", "DeviceUnplugged", "Effect", "Emit", "Entry", "EntryDevice", "Fault", "Flash", "Frame",
    "ManualClock", "PegStrip", "StatusDisplay", "SystemClock", "Utterance", "Voice", "Walk", "problem_of",
]

Emit = Callable[[Entry], None]


class Closing:
    """`with device:` closes it at the end, as gpiozero's devices do (every device has `close`)."""

    def close(self) -> None:
        """Release the device."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class EntryDevice(abc.ABC, Closing):
    """A scanner, keypad or terminal that produces entries.

    `start(emit)` begins delivering entries (from a thread of the driver's own, or from `poll`);
    `poll(now)` is called by the main loop about every 10 ms for devices scanned in our code (the matrix
    keypad); `close()` releases the device. A driver whose own thread finds the device gone sets `problem`:
    the registry's watch (companion/devices/presence.py) then closes it and opens it again when it is back."""

    name = "entry device"
    problem: DeviceProblem | None = None

    @abc.abstractmethod
    def start(self, emit: Emit) -> None: ...

    def poll(self, now: float) -> None:
        """Scan the device once; the default does nothing."""

    @abc.abstractmethod
    def close(self) -> None: ...


class PegStrip(abc.ABC, Closing):
    """The LED strip that shows the pegs. `show` never blocks the controller: a driver whose strip is
    absent keeps the latest frame and sends the whole picture again when the strip comes back."""

    name = "peg strip"
    problem: DeviceProblem | None = None
    """Why the strip is not connected (or what is wrong while it is), for the status screen and `crib state`."""

    @property
    @abc.abstractmethod
    def led_count(self) -> int: ...

    @property
    def connected(self) -> bool:
        return True

    @abc.abstractmethod
    def show(self, frame: Frame, effects: tuple[Effect, ...] = ()) -> None:
        """Play `effects` (if any) and then show `frame`, which has exactly `led_count` colours."""

    def poll(self, now: float) -> None:
        """Called from the main loop; drivers that talk to hardware reconnect or resend from here."""

    @abc.abstractmethod
    def close(self) -> None: ...


class StatusDisplay(abc.ABC, Closing):
    """The small OLED. Images are mode "1", exactly `size` pixels."""

    name = "status display"
    size: tuple[int, int] = (128, 64)

    @abc.abstractmethod
    def show(self, image: Image.Image) -> None: ...

    def poll(self, now: float) -> None:
        """Called from the main loop; the default does nothing."""

    @abc.abstractmethod
    def close(self) -> None: ...


class Voice(abc.ABC, Closing):
    """The board's voice (companion/devices/voice.py): `speak` says an utterance and returns when it is said, cut
    short by `cut` (from another thread), or failed with a DeviceError; the speaker's worker thread calls it, never
    the table."""

    name = "loudspeaker"
    realtime = True
    """False for a voice that writes files: nothing is stale there, nothing is cut."""

    @abc.abstractmethod
    def speak(self, utterance: Utterance) -> None: ...

    def cut(self) -> None:
        """Stop the utterance being said."""

    def close(self) -> None:
        """Release the voice."""


class DeviceError(Exception):
    """A device that cannot be opened or used. `refusal` says what is wrong as a value (a `Fault` and its facts,
    companion/words/devices.py), and `device_words(error.refusal, lang)` says it, with what to check, in the reader's
    language. The kinds a person can tell apart are its subclasses (as gpiozero's errors are): `DeviceMissing`,
    `DeviceUnplugged`, `DeviceMiswired`; a permission or a setting is a plain DeviceError."""

    def __init__(self, kind: Fault | DeviceProblem, *, cause: DeviceProblem | None = None, **facts: Fact) -> None:
        self.refusal = kind if isinstance(kind, DeviceProblem) else DeviceProblem(kind, facts, cause)
        super().__init__(self.refusal)

    def __str__(self) -> str:
        """Its words in the language current (for a log or a traceback; an edge says `refusal` in its reader's)."""
        return device_words(self.refusal, current())


class DeviceMissing(DeviceError):
    """Nothing there to open: no such port, input device, I2C bus or library; its words say where it was looked
    for and what to plug in, enable or install."""


class DeviceUnplugged(DeviceError):
    """It was there and went away while in use (a cable pulled, power lost): the registry's watch opens it again
    when it is back; its words say what to check."""


class DeviceMiswired(DeviceError):
    """Something is there but does not answer as the device should: nothing at the I2C address, pins another
    program holds, several devices that could be the scanner. Its words say which wires or settings to check."""


def problem_of(error: BaseException) -> DeviceProblem:
    """What an error from a device says is wrong: a DeviceError's own problem, else the library's or the system's
    words as given (a bare lgpio.error or OSError may have none: then its type's name)."""
    if isinstance(error, DeviceError):
        return error.refusal
    return DeviceProblem(Fault.FAILED, {"error": error_text(error)})


def error_text(error: BaseException) -> str:
    """A library's or the system's error as it says itself, or its type's name when it says nothing."""
    return str(error).strip() or type(error).__name__
