"""Devices that may be missing at start and may come and go: the board runs with whatever is plugged in.

`Watch` holds one device the registry knows how to open. Any error from the device, at open or in use
(DeviceError; OSError from I2C, serial or evdev; lgpio.error and gpiozero's errors), makes it missing: it is
closed, the reason kept, and the main loop's `poll` opens it again after 1 s, then 2 s, 4 s ... at most
RETRY_MAX_S apart, until it opens. Each change is logged once (not each failed retry). `WatchedEntry` and
`WatchedDisplay` put a watch behind the entry-device and display interfaces, so the table never knows.

The daemon reports the changes (`Devices.status()`): on the OLED, in the journal, and in the state directory's
status file (`write_status`), which `crib state` prints (`read_status`).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from companion.devices.base import (
    Clock,
    DeviceProblem,
    DeviceUnplugged,
    Emit,
    EntryDevice,
    StatusDisplay,
    Voice,
    problem_of,
)
from companion.words.devices import journal_words

if TYPE_CHECKING:
    from PIL import Image

    from companion.words.contract import DeviceProblemJSON

log = logging.getLogger(__name__)

RETRY_FIRST_S = 1.0
RETRY_MAX_S = 16.0
STATUS_FILE = "devices.json"
"""Beside the game logs: what the running daemon has and misses, for `crib state`."""

Device = TypeVar("Device", EntryDevice, StatusDisplay, Voice)
Status = dict[str, DeviceProblem | None]
"""Each device that can go missing and why it is missing (None when it is there)."""


class Watch(Generic[Device]):
    """One device: open, or missing with the reason, retried with a backoff."""

    def __init__(self, what: str, opener: Callable[[], Device], clock: Clock) -> None:
        self.what = what
        self.opener: Callable[[], Device] = opener
        self.clock = clock
        self.device: Device | None = None
        self.problem: DeviceProblem | None = None
        """Why the device is missing; None while it works."""
        self._delay = RETRY_FIRST_S
        self._next_try = float("-inf")

    def open(self, now: float) -> Device | None:
        """The device: opened now if it is missing and its retry is due; None while it stays missing."""
        if self.device is not None or now < self._next_try:
            return self.device
        try:
            device = self.opener()
        except Exception as error:  # whatever the library raises means "not there (yet)"
            self.lost(error, now)
            return None
        self.device, self._delay = device, RETRY_FIRST_S
        self._set_problem(None)
        return device

    def lost(self, error: BaseException, now: float) -> None:
        """The device failed: let go of it and try again later."""
        self._release()
        self._next_try = now + self._delay
        self._delay = min(2 * self._delay, RETRY_MAX_S)
        self._set_problem(problem_of(error))

    def close(self) -> None:
        self._release()

    def _release(self) -> None:
        device, self.device = self.device, None
        if device is not None:
            try:
                device.close()
            except Exception as error:  # a device that is gone may fail to close; it is closed
                log.debug("%s: closing: %s", self.what, problem_of(error))

    def _set_problem(self, problem: DeviceProblem | None) -> None:
        """Log a change between working and missing once (in the system's language, the journal's reader's);
        retries that fail (in whatever way) are not news."""
        if problem and self.problem:
            log.debug("%s: still missing (%s)", self.what, problem)
        elif problem:
            log.warning(journal_words("missing", device=self.what, problem=problem))
        elif self.problem:
            log.info(journal_words("connected", device=self.what))
        self.problem = problem


class WatchedEntry(EntryDevice):
    """A scanner, keypad or buttons that may be missing: entries flow whenever the device is there."""

    def __init__(self, what: str, opener: Callable[[], EntryDevice], clock: Clock) -> None:
        self.name = what
        self.watch: Watch[EntryDevice] = Watch(what, opener, clock)
        self._clock = clock
        self._emit: Emit | None = None
        self._started: EntryDevice | None = None
        self.watch.open(clock.monotonic())

    @property
    def device(self) -> EntryDevice | None:
        return self.watch.device

    def start(self, emit: Emit) -> None:
        self._emit = emit
        self._attach(self._clock.monotonic())

    def poll(self, now: float) -> None:
        device = self._attach(now)
        if device is None:
            return
        try:
            if device.problem:  # its own thread found it gone
                raise DeviceUnplugged(device.problem)
            device.poll(now)
        except Exception as error:  # the device boundary: no error of a device ends the daemon
            self.watch.lost(error, now)

    def _attach(self, now: float) -> EntryDevice | None:
        """The device, opened if due and started once it is open."""
        device = self.watch.open(now)
        if device is None or device is self._started or self._emit is None:
            return device
        try:
            device.start(self._emit)
        except Exception as error:
            self.watch.lost(error, now)
            return None
        self._started = device
        return device

    def close(self) -> None:
        self.watch.close()


class WatchedDisplay(StatusDisplay):
    """The OLED that may be missing or whose bus may fail for a while: the latest image is kept, and a display
    that comes back is opened afresh (initialised again: a display that lost power is off) and shown it."""

    def __init__(self, what: str, opener: Callable[[], StatusDisplay], clock: Clock) -> None:
        self.name = what
        self.watch: Watch[StatusDisplay] = Watch(what, opener, clock)
        self._clock = clock
        self.image: Image.Image | None = None
        """The latest image the table asked for (shown or not)."""
        self.watch.open(clock.monotonic())

    @property
    def device(self) -> StatusDisplay | None:
        return self.watch.device

    def show(self, image: Image.Image) -> None:
        if image.size != self.size:
            raise ValueError(f"the display shows {self.size[0]}x{self.size[1]} images, not {image.size}")
        self.image = image
        self._show(self._clock.monotonic())

    def poll(self, now: float) -> None:
        if self.watch.device is None and self.watch.open(now) is not None:
            self._show(now)

    def _show(self, now: float) -> None:
        device = self.watch.device
        if device is None or self.image is None:
            return
        try:
            device.show(self.image)
        except Exception as error:  # an I2C error while showing: missing until it opens again
            self.watch.lost(error, now)

    def close(self) -> None:
        self.watch.close()


def status_json(status: Status) -> dict[str, DeviceProblemJSON | None]:
    """The devices' status as JSON: each one's problem (`DeviceProblem.to_json`), null when present."""
    return {what: None if problem is None else problem.to_json() for what, problem in status.items()}


def write_status(path: Path, status: Status) -> None:
    """The devices' status (what: its problem as JSON, null when present) for `crib state`, replaced whole; a disk
    that refuses it costs only this report."""
    temporary = path.with_name(path.name + ".tmp")
    try:
        temporary.write_text(json.dumps({"pid": os.getpid(), "devices": status_json(status)}, ensure_ascii=False)
                             + "\n",
                             encoding="utf-8")
        temporary.replace(path)
    except OSError as error:
        log.warning(journal_words("status_unwritten", path=path, error=error.strerror or error))


def remove_status(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()


def read_status(state_dir: Path) -> Status | None:
    """The device status the running daemon wrote in `state_dir`; None when no daemon runs (or never wrote)."""
    try:
        data = json.loads((state_dir / STATUS_FILE).read_text(encoding="utf-8"))
        pid, devices = int(data["pid"]), data["devices"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None  # left by a daemon that was killed
    except PermissionError:
        pass  # the service's user runs it
    if not isinstance(devices, dict):
        return None
    try:
        return {str(what): None if problem is None else DeviceProblem.from_json(problem)
                for what, problem in devices.items()}
    except ValueError:  # not what a daemon of this version writes
        return None
