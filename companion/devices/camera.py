"""The board's own camera: plain playing cards held in its view are entered as a scanned card is.

A `FrameSource` gives the latest picture (BGR, as OpenCV has it): a Raspberry Pi camera through picamera2, a USB
webcam through OpenCV, or the `SimulatedCamera`, which plays pictures from a list or a folder and can be
unplugged and plugged in like gpiozero's mock pins. `CameraEntry` reads a frame every `interval` seconds (the main
loop's clock decides when; the reading itself runs on a thread of its own, so the keypad is never kept waiting),
hands it to the card recognizer (companion/vision) and `CardsInView` decides what to enter: a card seen in a few
frames in a row, once, and again only after it has left the view. A card the recognizer is not sure of is entered
as doubtful (`Entry.sure` False): the table asks about it (companion/entry/doubt.py).
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from companion.devices.base import DeviceError, DeviceProblem, Emit, Entry, EntryDevice, Fault, error_text, problem_of

if TYPE_CHECKING:  # numpy is loaded with the first frame: a board without a camera never needs it
    import numpy as np
    from numpy.typing import NDArray

    Frame = NDArray[np.uint8]
    """A camera picture, height x width x 3, in OpenCV's BGR order."""
PICTURES = (".jpg", ".jpeg", ".png")
SOURCE = "camera"
DECK = "deck"
"""The folder in the state directory that holds the deck taught to the board (/scan's "Teach the board your
deck") unless `camera.deck` names another; replaced whole when it is taught anew."""


def taught_folder(setting: str, state_dir: Path) -> Path:
    """Where the taught deck is kept: `camera.deck` (`setting`), else the state directory's deck/."""
    return Path(setting) if setting else state_dir / DECK


def opencv_problem() -> DeviceProblem | None:
    """Why cards cannot be read here (the recognizer finds cards with OpenCV), or None."""
    import importlib.util

    if importlib.util.find_spec("cv2") is not None:
        return None
    return DeviceProblem(Fault.CARDS_NEED_OPENCV)


class Reading(Protocol):
    """One card the recognizer found (companion.vision.CardReading)."""

    @property
    def code(self) -> str: ...

    @property
    def confidence(self) -> float: ...

    @property
    def sure(self) -> bool: ...

    @property
    def box(self) -> tuple[int, int, int, int]: ...


class Reader(Protocol):
    def read(self, frame: Frame) -> Sequence[Reading]: ...


INSIDE = 0.8
"""A reading whose box lies this much inside another's is a part of that card (a pip, its index), not a card."""


def one_a_card(readings: Iterable[Reading]) -> list[Reading]:
    """The readings less those that lie inside another reading's card: one reading a card in view."""
    readings = list(readings)

    def area(box: tuple[int, int, int, int]) -> int:
        return max(0, box[2] - box[0]) * max(0, box[3] - box[1])

    def inside(small: Reading, big: Reading) -> bool:
        (a0, a1, a2, a3), (b0, b1, b2, b3) = small.box, big.box
        common = area((max(a0, b0), max(a1, b1), min(a2, b2), min(a3, b3)))
        return area(big.box) > area(small.box) and common >= INSIDE * area(small.box)

    return [r for r in readings if not any(inside(r, other) for other in readings if other is not r)]


@dataclass(frozen=True, slots=True)
class Sighting:
    """A card to enter: its code ("10H") and whether every frame that showed it was sure of it."""

    code: str
    sure: bool


@dataclass
class _Track:
    seen: int = 0  # frames in a row with the card
    missed: int = 0  # frames in a row without it
    sure: bool = True
    entered: bool = False


@dataclass
class CardsInView:
    """What to enter from the readings of successive frames: a card seen in `frames` frames in a row is entered
    once; it must be missing from `gone_frames` frames in a row (or no frame come for `stale` seconds: the camera
    was away) before it counts again. Each card is followed on its own, so cards lying in view stay entered."""

    frames: int = 2
    gone_frames: int = 4
    stale: float = 3.0
    _tracks: dict[str, _Track] = field(default_factory=dict)
    _last: float = float("-inf")

    def see(self, readings: Iterable[Reading], now: float) -> list[Sighting]:
        """The cards to enter now, from one frame's readings (best first)."""
        if now - self._last > self.stale:
            self._tracks.clear()
        self._last = now
        found: dict[str, bool] = {}
        for reading in one_a_card(readings):
            found.setdefault(reading.code, reading.sure)
        for code, track in list(self._tracks.items()):
            if code in found:
                continue
            track.missed += 1
            if not track.entered or track.missed >= self.gone_frames:  # not seen in a row, or gone
                del self._tracks[code]
        out = []
        for code, sure in found.items():
            track = self._tracks.setdefault(code, _Track())
            track.missed = 0
            track.seen += 1
            track.sure = track.sure and sure
            if not track.entered and track.seen >= self.frames:
                track.entered = True
                out.append(Sighting(code, track.sure))
        return out

    def forget(self) -> None:
        """Nothing is in view (the camera went away)."""
        self._tracks.clear()


class FrameSource(Protocol):
    name: str

    def grab(self) -> Frame | None:
        """The latest picture (None when there is none yet); a DeviceError or OSError when the camera is gone."""

    def close(self) -> None: ...


class CameraEntry(EntryDevice):
    """The camera as an entry device: a frame read every `interval` seconds, its cards entered once."""

    name = "camera"

    def __init__(self, frames: FrameSource, reader: Reader, *, interval: float, in_view: CardsInView,
                 thread: bool = True) -> None:
        self.frames = frames
        self.reader = reader
        self.interval = interval
        self.in_view = in_view
        self._emit: Emit | None = None
        self._due = float("-inf")
        self._asked: queue.Queue[float | None] = queue.Queue(maxsize=1)
        self._idle = threading.Event()  # the camera's thread is not reading a frame
        self._idle.set()
        self._thread: threading.Thread | None = None
        if thread:
            self._thread = threading.Thread(target=self._run, name="camera", daemon=True)

    def start(self, emit: Emit) -> None:
        self._emit = emit
        if self._thread is not None and not self._thread.is_alive():
            self._thread.start()

    def poll(self, now: float) -> None:
        """Ask for a frame when one is due: read at once without a thread of its own; skipped while the thread is
        still reading the last one, so a slow board reads at most one frame an interval and rests between."""
        if now < self._due or self._emit is None:
            return
        self._due = now + self.interval
        if self._thread is None:
            self.look(now)
        elif self._idle.is_set():
            self._idle.clear()
            self._asked.put_nowait(now)

    def look(self, now: float) -> None:
        """Read one frame and enter the cards it brings into view."""
        frame = self.frames.grab()
        if frame is None or self._emit is None:
            return
        for sighting in self.in_view.see(self.reader.read(frame), now):
            self._emit(Entry(sighting.code, SOURCE, sure=sighting.sure))

    def _run(self) -> None:
        while (now := self._asked.get()) is not None:
            try:
                self.look(now)
            except Exception as error:  # the camera gone, the library failing: the watch opens it again
                self.problem = problem_of(error)
                return
            finally:
                self._idle.set()

    def close(self) -> None:
        self._emit = None
        if self._thread is not None and self._thread.is_alive():
            with contextlib.suppress(queue.Empty):
                self._asked.get_nowait()
            self._asked.put(None)
            self._thread.join(5)
        self.in_view.forget()
        self.frames.close()


def picture(path: Path) -> Frame:
    """A picture file as a frame (BGR)."""
    import numpy as np
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as image:
            rgb = np.asarray(image.convert("RGB"), dtype=np.uint8)
    except (OSError, UnidentifiedImageError) as error:
        raise DeviceError(Fault.PICTURE_UNREADABLE, path=str(path), error=str(error)) from error
    return np.ascontiguousarray(rgb[:, :, ::-1])


def pictures(folder: Path) -> list[Path]:
    """The pictures in a folder, in name order."""
    try:
        return sorted(p for p in folder.iterdir() if p.suffix.lower() in PICTURES)
    except OSError as error:
        raise DeviceError(Fault.IMAGES_UNREADABLE, path=str(folder), error=str(error.strerror)) from error


class SimulatedCamera:
    """A camera that plays pictures, one a frame: `play` queues them (arrays or picture files), each held for
    `times` frames and followed by `gap` frames of the empty table, which it shows when nothing is queued.
    `unplug` and `plug` take it away and bring it back; `grabbed` counts the frames read."""

    name = "simulated camera"

    def __init__(self, shown: Iterable[Frame | Path] = (), *, size: tuple[int, int] = (640, 480), hold: int = 1,
                 gap: int = 0) -> None:
        self.size = size
        self.plugged = True
        self.grabbed = 0
        self._queue: list[Frame | Path | None] = []
        width, height = size
        import numpy as np

        self.empty: Frame = np.full((height, width, 3), (60, 90, 120), dtype=np.uint8)  # a wooden table
        self.play(*shown, times=hold, gap=gap)

    def play(self, *shown: Frame | Path, times: int = 1, gap: int = 0) -> None:
        for item in shown:
            self._queue += [item] * times + [None] * gap

    @property
    def waiting(self) -> int:
        """Frames queued and not yet read."""
        return len(self._queue)

    def open(self) -> SimulatedCamera:
        """The camera, as the registry's watch opens it: a DeviceError while it is unplugged."""
        if not self.plugged:
            raise DeviceError(Fault.SIMULATED_CAMERA_ABSENT)
        return self

    def grab(self) -> Frame | None:
        if not self.plugged:
            raise DeviceError(Fault.SIMULATED_CAMERA_UNPLUGGED)
        self.grabbed += 1
        item = self._queue.pop(0) if self._queue else None
        if item is None:
            return self.empty
        return picture(item) if isinstance(item, Path) else item

    def unplug(self) -> None:
        self.plugged = False

    def plug(self) -> None:
        self.plugged = True

    def close(self) -> None:
        """The pictures not yet shown stay queued for when it is opened again."""


class OpenCVCamera:
    """A USB webcam through OpenCV's VideoCapture (Debian's python3-opencv)."""

    name = "USB camera"

    def __init__(self, device: int | str, size: tuple[int, int]) -> None:
        try:
            import cv2
        except ImportError as error:
            raise DeviceError(Fault.NEEDS_OPENCV) from error
        said = getattr(getattr(cv2, "utils", None), "logging", None)
        if said is not None:  # OpenCV's own warnings at each retry: the DeviceError below says it once, in words
            said.setLogLevel(said.LOG_LEVEL_ERROR)
        self._capture: Any = cv2.VideoCapture(device)
        if not self._capture.isOpened():
            self._capture.release()
            where = f"/dev/video{device}" if isinstance(device, int) else device
            raise DeviceError(Fault.NO_WEBCAM, path=where)
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self._capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the latest picture, not one queued long ago

    def grab(self) -> Frame | None:
        ok, frame = self._capture.read()
        if not ok:
            raise DeviceError(Fault.WEBCAM_NO_PICTURE)
        return frame  # type: ignore[no-any-return]

    def close(self) -> None:
        self._capture.release()


class PiCamera:
    """A Raspberry Pi camera module through picamera2 (Debian's python3-picamera2 on Raspberry Pi OS)."""

    name = "Pi camera"

    def __init__(self, size: tuple[int, int]) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as error:
            raise DeviceError(Fault.NEEDS_PICAMERA2) from error
        try:
            self._camera: Any = Picamera2()
            # "RGB888" is laid out B, G, R in memory: OpenCV's order
            self._camera.configure(self._camera.create_video_configuration(main={"size": size, "format": "RGB888"}))
            self._camera.start()
        except (IndexError, RuntimeError, OSError) as error:  # no camera attached: IndexError from its list
            raise DeviceError(Fault.NO_PI_CAMERA, error=error_text(error)) from error

    def grab(self) -> Frame | None:
        return self._camera.capture_array("main")  # type: ignore[no-any-return]

    def close(self) -> None:
        with contextlib.suppress(Exception):  # a camera that is gone may fail to stop; it is stopped
            self._camera.stop()
        self._camera.close()


class TaughtDeck:
    """The recognizer with the deck taught to this board (a folder, which /scan's teaching replaces whole): loaded
    at the first frame, and again when the deck is taught anew."""

    def __init__(self, load: Callable[[Path | None], Reader], deck: Path) -> None:
        self.load = load
        self.deck = deck
        self._reader: Reader | None = None
        self._stamp: tuple[int, ...] | None = None

    def current(self) -> Reader:
        try:  # the folder, and what it holds (`crib recognize --learn` writes into the folder it finds)
            with os.scandir(self.deck) as found:
                stamp: tuple[int, ...] | None = (os.stat(self.deck).st_ino,
                                                 *sorted(entry.stat().st_mtime_ns for entry in found))
        except OSError:
            stamp = None
        if self._reader is None or stamp != self._stamp:
            self._reader = self.load(self.deck if stamp is not None else None)
            self._stamp = stamp
        return self._reader

    def read(self, frame: Frame) -> Sequence[Reading]:
        return self.current().read(frame)
