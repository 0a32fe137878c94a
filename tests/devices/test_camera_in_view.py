"""Which cards the camera enters, frame by frame (companion/devices/camera.py `CardsInView`): a card held in view
is entered once, after a few frames in a row; again only after it has left the view; a flicker is nothing; a card
doubted in any of its frames is entered as doubtful."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

import pytest

from companion.base.clock import ManualClock
from companion.config import load_config
from companion.devices.base import DeviceError
from companion.devices.camera import CardsInView, Sighting
from companion.registry import open_camera


@dataclass(frozen=True)
class Seen:
    """What the recognizer says of one card in a frame (the fields of companion.vision.CardReading read here)."""

    code: str
    confidence: float = 0.99
    sure: bool = True
    box: tuple[int, int, int, int] = (100, 50, 300, 330)


def play(view: CardsInView, frames: list[list[Seen]], *, every: float = 0.25) -> list[list[Sighting]]:
    return [view.see(frame, index * every) for index, frame in enumerate(frames)]


def test_a_card_held_in_view_is_entered_once_and_again_only_after_it_left() -> None:
    view = CardsInView(frames=2, gone_frames=4)
    held = [[Seen("7H")]] * 12
    away = [[]] * 4
    out = play(view, [[], *held, *away, *held[:3]])
    entered = [(index, sighting) for index, sightings in enumerate(out) for sighting in sightings]
    assert entered == [(2, Sighting("7H", True)), (18, Sighting("7H", True))]


def test_a_card_missing_from_a_frame_or_two_is_still_the_same_card_in_view() -> None:
    view = CardsInView(frames=2, gone_frames=4)
    out = play(view, [[Seen("7H")], [Seen("7H")], [], [], [], [Seen("7H")], [Seen("7H")]])
    assert sum(len(s) for s in out) == 1  # a hand passing in front of it for three frames


def test_a_flicker_is_not_a_card_and_each_card_in_view_counts_on_its_own() -> None:
    view = CardsInView(frames=3, gone_frames=2)
    out = play(view, [[Seen("7H")], [Seen("7C")], [Seen("7H")], [Seen("7H"), Seen("KS")], [Seen("7H"), Seen("KS")],
                      [Seen("KS"), Seen("7H")], [Seen("KS")]])
    assert [[s.code for s in frame] for frame in out] == [[], [], [], [], ["7H"], ["KS"], []]


def test_a_card_doubted_in_any_frame_is_entered_as_doubtful() -> None:
    view = CardsInView(frames=2)
    out = play(view, [[Seen("8D", 0.9)], [Seen("8D", 0.55, sure=False)]])
    assert out[1] == [Sighting("8D", False)]


def test_a_camera_away_for_a_while_forgets_what_was_in_view() -> None:
    view = CardsInView(frames=2, gone_frames=4, stale=3.0)
    assert [view.see([Seen("QS")], t) for t in (0.0, 0.25)] == [[], [Sighting("QS", True)]]
    assert view.see([Seen("QS")], 0.5) == []
    assert [view.see([Seen("QS")], t) for t in (10.0, 10.25)] == [[], [Sighting("QS", True)]]


def test_a_board_camera_without_opencv_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    found = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "cv2" else found(name, *a))
    config = load_config(overrides=["camera.driver=opencv"], system_path=None)
    with pytest.raises(DeviceError, match=r"camera.driver = 'opencv': reading plain cards needs OpenCV: apt install "
                                          r"python3-opencv"):
        open_camera(config, clock=ManualClock())


def test_a_part_of_a_card_read_as_a_card_is_not_a_second_card() -> None:
    view = CardsInView(frames=2)
    card, pip = Seen("6D", 0.8, sure=False), Seen("2H", 0.6, sure=False, box=(140, 90, 190, 160))
    beside = Seen("KS", box=(320, 40, 520, 320))  # a card beside it, overlapping its edge
    out = play(view, [[card, pip, beside], [pip, card, beside]])
    assert out[1] == [Sighting("6D", False), Sighting("KS", True)]
