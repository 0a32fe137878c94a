"""The board's own camera (`[camera] driver = "sim"`, the registry's simulated camera, read by the real card
recognizer): a whole deal entered by holding the cards up, a card held in view entered once, a doubtful card asked
about on the OLED and confirmed with OK, a camera pulled out mid-game named once and picked up again. The daemon's
loop is stepped on a manual clock: a frame every 250 ms, nothing sleeps."""

from __future__ import annotations

import contextlib
import logging
import queue
from pathlib import Path

import pytest

from companion.base.clock import ManualClock
from companion.config import load_config
from companion.cribbage.cards import Card
from companion.cribbage.game import replay
from companion.cribbage.transcript import PlayInput, StarterInput
from companion.daemon import Daemon, Notifier, open_game
from companion.devices.base import DeviceError
from companion.devices.camera import CameraEntry, CardsInView, OpenCVCamera, SimulatedCamera, TaughtDeck
from companion.devices.presence import WatchedEntry
from companion.entry import Entry
from companion.registry import Devices
from companion.table import Table
from companion.vision import Recognizer
from tests.devices.card_photos import frame, needs_cards, photo
from tests.devices.said import said
from tests.facts import by_name
from tests.sample_deal import DEAL, GAME, deal

pytestmark = needs_cards
DEVICES = ["devices.display=dummy", "devices.strip=sim", "devices.keypad=none", "devices.buttons=none",
           "devices.scanner=none"]
FRAME_S = 0.25


class Board:
    """The daemon with the simulated camera, stepped by hand."""

    def __init__(self, tmp_path: Path, *more: str) -> None:
        images = tmp_path / "images"
        images.mkdir(exist_ok=True)
        config = load_config(overrides=[*DEVICES, "camera.driver=sim", f"camera.images={images}",
                                        f"state.dir={tmp_path / 'state'}", *more], system_path=None)
        self.clock = ManualClock(100.0)
        self.devices: Devices
        self.table: Table
        self.devices, self.table = open_game(config, state_dir=tmp_path / "state", clock=self.clock, simulate=False,
                                             setup=GAME, new=True)
        self.watch = next(e for e in self.devices.entries if isinstance(e, WatchedEntry) and e.name == "camera")
        entry = self.watch.device
        assert isinstance(entry, CameraEntry) and isinstance(entry.frames, SimulatedCamera)
        self.camera: SimulatedCamera = entry.frames
        self.reader = entry.reader
        self.said: list[str] = []
        self.daemon = Daemon(self.table, self.devices, clock=self.clock, notifier=Notifier({}),
                             on_outcome=lambda outcome: self.said.append(outcome.words()))
        self.daemon.start()

    def frames(self, count: int) -> None:
        """`count` frames' time of the main loop."""
        for _ in range(count):
            self.clock.advance(FRAME_S)
            self.daemon.step(0)
        self.daemon.step(0)

    def show(self, code: str, seed: int = 0, *, held: int = 3, gap: int = 4, blur: float = 0.0) -> None:
        """A card held up for `held` frames, then taken away."""
        self.camera.play(frame(photo(code, seed, blur=blur)), times=held, gap=gap)
        self.frames(held + gap)

    def hold_up(self, code: str, seed: int = 0) -> str:
        """A player holds up a card. When the board asks about it they press OK if its guess is right, or type the
        card on the keypad if not. How it went: "entered", "confirmed" (OK), "corrected" (typed)."""
        before = len(self.said)
        self.show(code, seed)
        assert len(self.said) > before, f"the camera entered nothing for {code}"
        asked = self.table.doubt.card
        if asked is None:
            return "entered"
        self.table.emit(Entry("ok", "buttons") if str(asked) == code else Entry(code, "keypad"))
        self.frames(1)
        return "confirmed" if str(asked) == code else "corrected"

    def close(self) -> None:
        self.devices.close()


@pytest.fixture
def board(tmp_path: Path):
    made = Board(tmp_path)
    yield made
    made.close()


def test_a_whole_deal_entered_by_holding_the_cards_up(board: Board) -> None:
    went: dict[str, list[str]] = {"entered": [], "confirmed": [], "corrected": []}
    for index, text in enumerate(DEAL):
        if text == "go":
            board.table.emit(Entry("go", "keypad"))  # a go is said on the keypad; the camera reads cards
            board.frames(1)
        else:
            went[board.hold_up(text, seed=index)].append(text)
    print("the board's camera:", {how: " ".join(cards) for how, cards in went.items()})
    assert board.table.log.inputs == list(replay(deal("")).inputs)  # never a wrong card
    assert by_name(board.table.state.scores) == {"Ann": 17, "Bob": 21}
    assert board.table.prompt() == "Bob deals. Enter the starter"


def test_the_camera_reads_with_the_deck_taught_to_the_board_where_camera_deck_says(tmp_path: Path) -> None:
    made = Board(tmp_path)
    assert isinstance(made.reader, TaughtDeck) and made.reader.deck == tmp_path / "state" / "deck"
    made.close()
    made = Board(tmp_path, "state.dir=/var/lib/elsewhere")  # the game's state directory wins, as for /scan
    assert isinstance(made.reader, TaughtDeck) and made.reader.deck == tmp_path / "state" / "deck"
    made.close()
    made = Board(tmp_path, f"camera.deck={tmp_path}/our-deck")
    assert isinstance(made.reader, TaughtDeck) and made.reader.deck == tmp_path / "our-deck"
    made.close()


def test_a_card_held_in_view_is_entered_once(board: Board) -> None:
    board.show("10S", seed=2, held=40)  # ten seconds in view
    assert len(board.said) == 1  # one entry (or one question)
    asked = board.table.doubt.card
    if asked is not None:  # the player answers it
        board.table.emit(Entry("ok", "buttons") if str(asked) == "10S" else Entry("10S", "keypad"))
        board.frames(1)
    assert board.table.log.inputs[1:] == [StarterInput(Card.parse("10S"))]
    board.hold_up("10S", seed=2)  # taken away and shown again: entered again, and the table refuses it
    assert len(board.table.log.inputs) == 2 and board.table.message_is_error
    assert "10♠ is the starter" in board.said[-1]


def test_a_doubtful_card_is_asked_about_and_not_entered_until_answered(board: Board) -> None:
    board.show("8C", blur=5.5)  # well out of focus: the recognizer is not sure (its pips still count eight)
    asked = board.table.doubt.card
    assert asked is not None
    question = f"{asked.pretty}? OK, or enter the card"
    assert board.said[-1] == question and board.table.prompt() == question
    board.frames(20)  # nothing is entered while it waits
    assert len(board.table.log.inputs) == 1 and board.table.prompt() == question
    board.table.emit(Entry("ok", "buttons") if str(asked) == "8C" else Entry("8C", "keypad"))
    board.frames(1)
    assert board.table.log.inputs[1:] == [StarterInput(Card.parse("8C"))]


def test_a_camera_pulled_out_mid_game_is_named_once_and_picked_up_again(board: Board,
                                                                         caplog: pytest.LogCaptureFixture) -> None:
    board.hold_up("5C")
    board.camera.unplug()
    board.frames(2)
    assert board.table.message == "Not connected: camera. The game goes on; check the cable"
    assert said(board.devices.status()["camera"]) == "simulated camera: unplugged"
    board.frames(40)  # ten seconds without it: looked for again and again, said once
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == [
        "camera: missing (simulated camera: unplugged); the game goes on, and it is looked for again in the "
        "background"]
    board.table.emit(Entry("10C", "keypad"))  # the game goes on with the keypad
    board.frames(1)
    board.camera.plug()
    board.frames(70)  # the next retry finds it
    assert board.devices.status()["camera"] is None
    board.hold_up("4C", seed=3)
    assert board.table.log.inputs[2:] == [PlayInput(Card.parse("10C")), PlayInput(Card.parse("4C"))]


def test_a_real_camera_reads_on_its_own_thread_and_a_camera_gone_is_its_problem(tmp_path: Path) -> None:
    camera = SimulatedCamera()
    shown = frame(photo("10S", 2))
    camera.play(shown, times=1000)
    entered: queue.Queue[Entry] = queue.Queue()
    entry = CameraEntry(camera, TaughtDeck(Recognizer.load, tmp_path / "deck"), interval=FRAME_S,
                        in_view=CardsInView(), thread=True)
    entry.start(entered.put)
    got = None
    for step in range(400):  # the main loop's polls: a frame asked for when due, read on the camera's thread
        entry.poll(step * FRAME_S)
        with contextlib.suppress(queue.Empty):
            got = entered.get(timeout=0.05)
            break
    assert got is not None and got.source == "camera"
    assert got.text == Recognizer.load().read(shown)[0].code
    camera.unplug()
    for step in range(400, 800):
        entry.poll(step * FRAME_S)
        if entry.problem:
            break
        with contextlib.suppress(queue.Empty):
            entered.get(timeout=0.05)
    assert said(entry.problem) == "simulated camera: unplugged"  # the registry's watch closes it and looks again
    entry.close()


def test_the_opencv_driver_reads_a_webcams_frames_and_a_webcam_gone_is_missing(tmp_path: Path) -> None:
    import cv2

    video = tmp_path / "webcam.avi"  # what OpenCV's VideoCapture opens like a webcam
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 5, (640, 480))
    shown = frame(photo("10S", 2))
    for _ in range(6):
        writer.write(shown)
    writer.release()
    clock = ManualClock()
    entered: list[Entry] = []
    watched = WatchedEntry("camera", lambda: CameraEntry(
        OpenCVCamera(str(video), (640, 480)), TaughtDeck(Recognizer.load, tmp_path / "deck"), interval=FRAME_S,
        in_view=CardsInView(), thread=False), clock)
    watched.start(entered.append)
    for _ in range(8):  # six frames, then the webcam gives none: pulled out
        clock.advance(FRAME_S)
        watched.poll(clock.now)
    assert [entry.text for entry in entered] == [Recognizer.load().read(shown)[0].code]
    assert said(watched.watch.problem) == "camera: the webcam gives no picture (unplugged?)"
    watched.close()
    with pytest.raises(DeviceError, match="camera: no webcam at /dev/video9: plug it in"):
        OpenCVCamera(9, (640, 480))
