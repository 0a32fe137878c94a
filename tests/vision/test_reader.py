"""The card reader on photographs of a design it was never trained on (tests/vision/data, made by
`python -m companion.vision.train --samples`), and taught a deck drawn here."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision import CardReading, Recognizer, UnreadableImage, learn
from companion.vision.synth import scene
from tests.vision.conftest import DATA, cv2


def codes(readings: list[CardReading]) -> list[str]:
    return [r.code for r in readings]


@pytest.mark.parametrize("photo, code", [("AS.jpg", "AS"), ("10H.jpg", "10H")])
def test_a_card_of_an_unseen_design_is_read_surely(recognizer, photo, code):
    readings = recognizer.read_bytes((DATA / photo).read_bytes())
    assert codes(readings) == [code]
    assert readings[0].sure and readings[0].confidence >= 0.9


@pytest.mark.parametrize("turn", [cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE])
def test_a_card_is_read_whichever_way_the_photo_is_turned(recognizer, turn):
    frame = cv2.rotate(cv2.imread(str(DATA / "AS.jpg")), turn)
    readings = recognizer.read(frame)
    assert codes(readings)[:1] == ["AS"]


def test_the_box_is_where_the_card_lies(recognizer):
    frame = cv2.imread(str(DATA / "AS.jpg"))
    x0, y0, x1, y1 = recognizer.read(frame)[0].box
    card = frame[y0:y1, x0:x1]
    assert 0 <= x0 < x1 <= 640 and 0 <= y0 < y1 <= 480
    assert card.mean() > frame.mean()  # the card is paler than the table around it


def test_a_table_without_a_card_reads_nothing(recognizer):
    assert recognizer.read_bytes((DATA / "table.jpg").read_bytes()) == []


def test_two_cards_are_both_read(recognizer):
    readings = recognizer.read(cv2.imread(str(DATA / "7D+KS.jpg")))
    assert sorted(codes(readings)) == ["7D", "KS"]
    (a, b) = (r.box for r in readings)
    assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1] or a != b


def test_bytes_that_are_no_image_are_refused(recognizer):
    with pytest.raises(UnreadableImage, match="not a JPEG or PNG"):
        recognizer.read_bytes(b"GIF89a not really")
    with pytest.raises(UnreadableImage):
        recognizer.read_bytes(b"")


def _photos(deck, rng, folder, careful=True):
    photos = {}
    for code, card in deck.items():
        frame, _ = scene(rng, [card], careful=careful)
        photos[code] = folder / f"{code}.jpg"
        cv2.imwrite(str(photos[code]), frame)
    return photos


def test_a_taught_deck_is_read_right_and_sure(drawn_deck, tmp_path):
    rng = np.random.default_rng(3)
    steps = []
    learn(_photos(drawn_deck, rng, tmp_path), tmp_path / "deck", progress=lambda done, total: steps.append(done))
    assert steps == list(range(1, 53))
    taught = Recognizer.load(tmp_path / "deck")
    right = sure_wrong = 0
    for code in ("AS", "10H", "QC", "7D", "KS", "3C", "JD", "9S"):
        frame, _ = scene(rng, [drawn_deck[code]])
        readings = taught.read(frame)
        right += codes(readings)[:1] == [code]
        sure_wrong += bool(readings) and readings[0].code != code and readings[0].sure
    assert right >= 7 and sure_wrong == 0


def test_teaching_names_what_is_missing_or_unreadable(drawn_deck, tmp_path):
    photos = _photos({c: drawn_deck[c] for c in ("AS", "2S")}, np.random.default_rng(1), tmp_path)
    with pytest.raises(ValueError, match=r"missing: AC, AD, AH, 2C"):
        learn(photos, tmp_path / "deck")
    assert not (tmp_path / "deck").exists()
    whole = dict.fromkeys(drawn_deck, photos["AS"]) | {"KS": tmp_path / "nothing.jpg"}
    (tmp_path / "nothing.jpg").write_bytes(b"not a photo")
    with pytest.raises(UnreadableImage, match=r"nothing\.jpg"):
        learn(whole, tmp_path / "deck")


def test_a_folder_without_a_taught_deck_is_refused(tmp_path):
    with pytest.raises(FileNotFoundError, match="crib recognize --learn"):
        Recognizer.load(tmp_path)
