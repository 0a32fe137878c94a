"""`crib recognize`: a line per photograph (or JSON), teaching a deck, and clear refusals."""

from __future__ import annotations

import json

import numpy as np
import pytest

from companion.cli import main
from companion.vision.synth import scene
from tests.vision.drawn import DATA, cv2


def test_one_line_per_photo_with_the_code_and_confidence(capsys):
    assert main(["recognize", str(DATA / "AS.jpg"), str(DATA / "table.jpg")]) == 0
    lines = capsys.readouterr().out.splitlines()
    photo, code, confidence = lines[0].split()
    assert (photo, code) == (str(DATA / "AS.jpg"), "AS") and 0.5 < float(confidence) <= 1
    assert lines[1] == f"{DATA / 'table.jpg'} -"


def test_json_gives_every_card_with_its_box_and_whether_it_is_sure(capsys):
    assert main(["recognize", "--json", str(DATA / "7D+KS.jpg"), str(DATA / "table.jpg")]) == 0
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["photo"] == str(DATA / "7D+KS.jpg")
    assert sorted(card["code"] for card in first["cards"]) == ["7D", "KS"]
    for card in first["cards"]:
        assert set(card) == {"code", "confidence", "sure", "box"} and len(card["box"]) == 4
    assert second == {"photo": str(DATA / "table.jpg"), "cards": []}


def test_a_missing_or_unreadable_photo_is_named_and_exits_2(tmp_path, capsys):
    (tmp_path / "notes.jpg").write_text("not a photo")
    assert main(["recognize", str(tmp_path / "gone.jpg"), str(tmp_path / "notes.jpg"), str(DATA / "AS.jpg")]) == 2
    captured = capsys.readouterr()
    assert "cannot read" in captured.err and "gone.jpg" in captured.err
    assert "notes.jpg is not a JPEG or PNG image" in captured.err
    assert captured.out.split()[1] == "AS"  # the good photo is still read


@pytest.mark.slow
def test_learn_keeps_a_deck_that_deck_then_reads(drawn_deck, teaching_photos, tmp_path, capsys):
    photos = tmp_path / "photos"
    photos.mkdir()
    for code, photo in teaching_photos[0].items():
        (photos / f"{code.lower()}.png").symlink_to(photo)  # named as people type cards
    rng = np.random.default_rng(5)
    assert main(["recognize", "--learn", str(photos), "--out", str(tmp_path / "deck")]) == 0
    captured = capsys.readouterr()
    assert "52/52" in captured.err and str(tmp_path / "deck") in captured.out
    shown = ("QH", "4C", "9S")
    for code in shown:
        frame, _ = scene(rng, [drawn_deck[code]])
        cv2.imwrite(str(tmp_path / f"{code}.jpg"), frame)
    assert main(["recognize", "--deck", str(tmp_path / "deck"), *(str(tmp_path / f"{c}.jpg") for c in shown)]) == 0
    read = [line.split()[1] for line in capsys.readouterr().out.splitlines()]
    assert sum(r == c for r, c in zip(read, shown, strict=True)) >= 2


@pytest.mark.slow
def test_learn_names_the_photos_that_read_as_another_card_and_teaches_the_deck(teaching_photos, tmp_path, capsys):
    photos = tmp_path / "photos"
    photos.mkdir()
    taken = teaching_photos[0] | {"AS": teaching_photos[0]["2D"]}  # 2♦ photographed for A♠
    for code, photo in taken.items():
        (photos / f"{code}.png").symlink_to(photo)
    assert main(["recognize", "--learn", str(photos), "--out", str(tmp_path / "deck")]) == 0
    captured = capsys.readouterr()
    assert ("AS.png: looks like 2D to the board; taught as AS all the same (take it again, the card whole and alone, "
            "if AS is then misread)") in captured.err.splitlines()
    assert not any(line.startswith("2D.png") for line in captured.err.splitlines())
    assert str(tmp_path / "deck") in captured.out and (tmp_path / "deck" / "deck.npz").is_file()


def test_learning_from_badly_named_photos_is_refused(tmp_path, capsys):
    (tmp_path / "holiday.jpg").write_bytes((DATA / "AS.jpg").read_bytes())
    assert main(["recognize", "--learn", str(tmp_path), "--out", str(tmp_path / "deck")]) == 2
    assert "holiday.jpg" in capsys.readouterr().err
    assert not (tmp_path / "deck").exists()
    assert main(["recognize", "--learn", str(tmp_path / "nowhere")]) == 2
    assert "is not a folder" in capsys.readouterr().err


def test_no_photo_says_what_to_give(capsys):
    assert main(["recognize"]) == 2
    assert "photograph" in capsys.readouterr().err


def test_a_deck_taught_by_an_older_reader_asks_to_be_taught_again(tmp_path, capsys):
    from companion.vision.index import CODES

    np.savez_compressed(tmp_path / "deck.npz", codes=np.array(CODES), features=np.zeros((52, 4, 8), np.float16))
    assert main(["recognize", "--deck", str(tmp_path), str(DATA / "AS.jpg")]) == 2
    err = capsys.readouterr().err
    assert "cannot use" in err and "crib recognize --learn" in err and "Traceback" not in err
