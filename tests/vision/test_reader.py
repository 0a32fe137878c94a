"""The card reader on photographs of a design it was never trained on (tests/vision/data, made by
`python -m companion.vision.train --samples`), and taught a deck drawn here."""

from __future__ import annotations

import resource

import numpy as np
import pytest

from companion.vision import CardReading, DeckError, Recognizer, UnreadableImage, learn
from companion.vision.find import find_cards
from companion.vision.index import CODES, MODEL, IndexNet
from companion.vision.reader import DECK_FILE, glibc_mallopt
from companion.vision.synth import scene
from companion.vision.taught import TaughtDeck
from tests.vision.drawn import DATA, careful_photos, cv2, nine_with_a_sixs_index


def codes(readings: list[CardReading]) -> list[str]:
    return [r.code for r in readings]


@pytest.mark.parametrize("photo, code", [("AS.jpg", "AS"), ("10H.jpg", "10H"), ("QC+4S.jpg", "QC")])
def test_a_card_of_an_unseen_design_is_read_and_sure_only_from_the_calibrated_confidence(recognizer, photo, code):
    readings = [r for r in recognizer.read_bytes((DATA / photo).read_bytes()) if r.code == code]
    assert readings and readings[0].confidence > 0.5  # (beside a neighbour, which is read too)
    assert readings[0].sure <= (readings[0].confidence >= recognizer.net.sure)  # below it, the board asks


def test_a_card_whose_corners_read_different_cards_is_asked_about_however_confident(recognizer, drawn_deck):
    lenient = Recognizer(recognizer.net.with_thresholds(0.0, 1.0))  # any confidence is enough
    top, bottom = drawn_deck["AS"], drawn_deck["3C"]
    mixed = np.concatenate([top[:len(top) // 2], bottom[len(bottom) // 2:]])  # AS top left, 3C bottom right
    rng = np.random.default_rng(4)
    for card, sure in ((top, True), (mixed, False)):
        frame, _ = scene(rng, [card], careful=True)
        readings = lenient.read(frame)
        assert readings and readings[0].code in ("AS", "3C")
        assert readings[0].sure == sure


@pytest.mark.parametrize("turn", [cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE])
def test_a_card_is_read_whichever_way_the_photo_is_turned(recognizer, turn):
    frame = cv2.rotate(cv2.imread(str(DATA / "10H.jpg")), turn)  # (the shipped model is unsure of AS's suit)
    readings = recognizer.read(frame)
    assert codes(readings)[:1] == ["10H"]


def test_the_box_is_where_the_card_lies(recognizer):
    frame = cv2.imread(str(DATA / "AS.jpg"))
    x0, y0, x1, y1 = recognizer.read(frame)[0].box
    card = frame[y0:y1, x0:x1]
    assert 0 <= x0 < x1 <= 640 and 0 <= y0 < y1 <= 480
    assert card.mean() > frame.mean()  # the card is paler than the table around it


def test_cards_are_found_where_they_lie_beside_their_neighbours(drawn_deck):
    def error(quad, card):
        return min(np.abs(np.roll(quad, turn, axis=0) - card).max() for turn in range(4))

    rng = np.random.default_rng(8)
    found = []
    for code in ("AS", "KH", "QC", "10D", "JS", "7H", "2C", "9D", "3S", "8H", "4D", "6C"):
        frame, placed = scene(rng, [drawn_deck[code], drawn_deck["5S"]])
        quads = find_cards(frame)
        height = np.linalg.norm(placed[0][0] - placed[0][3])
        found.append(any(error(quad, placed[0]) < 0.05 * height for quad in quads))  # good enough for its index
        for quad in quads:  # and no pip, no picture, no stretch of the table is a card
            assert min(error(quad, card) for card in placed) < 0.05 * height, code
    assert sum(found) >= 9  # this deck's cards have no border: two that touch may look like one


def test_a_card_whose_corners_come_near_the_frames_edge_is_read(recognizer):
    frame = cv2.imread(str(DATA / "AS.jpg"))  # its corners at x 138 (left) and y 456 (bottom)
    for gap in (3, 5):  # pixels from the frame's edge: the card is whole in view
        assert codes(recognizer.read(np.ascontiguousarray(frame[:456 + gap, 138 - gap:]))) == ["AS"]


def test_a_table_without_a_card_reads_nothing(recognizer):
    assert recognizer.read_bytes((DATA / "table.jpg").read_bytes()) == []


def test_two_cards_are_both_found_and_read(recognizer):
    readings = recognizer.read(cv2.imread(str(DATA / "7D+KS.jpg")))
    assert sorted(codes(readings)) == ["7D", "KS"]
    for photo in ("7D+KS.jpg", "QC+4S.jpg"):
        a, b = (r.box for r in recognizer.read(cv2.imread(str(DATA / photo))))
        assert min(a[2], b[2]) - max(a[0], b[0]) < 0.5 * min(a[2] - a[0], b[2] - b[0])  # side by side


def test_a_number_card_is_read_by_its_pips_where_its_index_misleads_and_the_board_asks(recognizer):
    card = nine_with_a_sixs_index()
    rng = np.random.default_rng(1)
    readings = [recognizer.read(scene(rng, [card], careful=True)[0])[0] for _ in range(4)]
    assert sum(r.code == "9S" for r in readings) >= 3  # the network alone reads each 6S
    assert not any(r.sure for r in readings)


def test_a_card_whose_pips_count_another_rank_than_its_sure_index_is_asked_about(recognizer, monkeypatch):
    photo = cv2.imread(str(DATA / "10H.jpg"))
    alone = recognizer.read(photo)[0]
    assert alone.code == "10H" and alone.sure
    # a glare over a 10's two middle pips leaves an 8's layout: the index outweighs the count, but the board asks
    monkeypatch.setattr("companion.vision.pips.count_pips", lambda card, corners: 8)
    glared = recognizer.read(photo)[0]
    assert glared.code == "10H" and not glared.sure


def test_a_card_whose_middle_shows_a_picture_is_read_as_no_number_card(recognizer):
    # a court read by its index as a number card whose pips cannot be counted (a queen's index read as a 10)
    from companion.vision.find import rectify
    from companion.vision.pips import _picture

    photo = cv2.imread(str(DATA / "10H.jpg"))
    card = rectify(photo, find_cards(photo)[0])
    assert recognizer._read_card(card)[:1] == ("10H",)
    robed = card.copy()
    robed[60:165, 45:115] = (190, 110, 40)  # a blue robe over the middle of the card, both ways round
    robed[80:145, 60:100] = (40, 200, 230)  # and a yellow one
    assert _picture(robed)
    code, _, sure = recognizer._read_card(robed) or ("", 0.0, False)
    assert code[:-1] not in [str(n) for n in range(2, 11)] or not sure  # a court, or the board asks


def test_colour_that_is_not_a_double_headed_picture_is_no_picture():
    from companion.vision.find import rectify
    from companion.vision.pips import _picture

    photo = cv2.imread(str(DATA / "10H.jpg"))
    card = rectify(photo, find_cards(photo)[0])
    assert not _picture(np.clip(card * np.array([1.3, 1.0, 0.7]), 0, 255).astype(np.uint8))  # a bluish light
    pegged = card.copy()
    cv2.ellipse(pegged, (60, 80), (14, 26), 0, 0, 360, (200, 120, 30), -1)  # a blue token on one side
    centred = card.copy()
    cv2.ellipse(centred, (80, 112), (14, 26), 0, 0, 360, (60, 170, 40), -1)  # a green one at the very middle
    shaded = card.astype(np.float32)
    shaded[:, :80] *= np.array([0.8, 0.45, 0.3])  # a bluish shadow over half the card
    tabled = card.copy()
    tabled[:, :70] = (40, 110, 30)  # green felt seen beside the card (a finding too wide)
    for coloured in (pegged, centred, np.clip(shaded, 0, 255).astype(np.uint8), tabled):
        assert not _picture(coloured)


def test_bytes_that_are_no_image_are_refused(recognizer):
    with pytest.raises(UnreadableImage, match="not a JPEG or PNG"):
        recognizer.read_bytes(b"GIF89a not really")
    with pytest.raises(UnreadableImage):
        recognizer.read_bytes(b"")


@pytest.fixture(scope="module")
def taught_deck(teaching_photos, tmp_path_factory):
    """The drawn deck taught from a careful photograph of each card (two tests read with it), the teaching's steps,
    and the random generator as the photographs left it (its state)."""
    photos, state = teaching_photos
    folder = tmp_path_factory.mktemp("taught")
    steps = []
    learn(photos, folder / "deck", progress=lambda done, total: steps.append(done))
    return folder / "deck", steps, state


def _after_teaching(state):
    rng = np.random.default_rng()
    rng.bit_generator.state = state
    return rng


@pytest.mark.slow
def test_a_taught_deck_is_read_and_never_wrong_and_sure(drawn_deck, taught_deck):
    deck, steps, state = taught_deck
    assert steps == list(range(1, 53))
    rng = _after_teaching(state)
    taught = Recognizer.load(deck)
    right = sure_wrong = 0
    for code in ("AS", "10H", "QC", "7D", "KS", "3C", "JD", "9S"):
        frame, _ = scene(rng, [drawn_deck[code]])
        readings = taught.read(frame)
        right += codes(readings)[:1] == [code]
        sure_wrong += bool(readings) and readings[0].code != code and readings[0].sure
    assert right >= 6 and sure_wrong == 0


@pytest.mark.slow
def test_a_taught_deck_tells_apart_cards_that_differ_only_in_their_corners(drawn_deck, taught_deck):
    # every card of the drawn deck has the same big pip: the whole card alone took a 5 for an 8, clubs for spades
    deck, _, state = taught_deck
    rng = _after_teaching(state)
    taught = Recognizer.load(deck)
    read = []
    for code in ("5C", "8C", "4S", "6S", "QC", "QS", "KC", "KS", "5H", "8H", "4D", "AD") * 2:
        frame, _ = scene(rng, [drawn_deck[code]])
        readings = taught.read(frame)
        read.append(codes(readings)[:1] == [code])
        assert not (readings and readings[0].code != code and readings[0].sure), code
    assert sum(read) >= 22


@pytest.mark.slow
def _taught_instead(taught_deck, code, photographed, tmp_path):
    """The taught deck with the card `code` as `photographed` (a function of the card as taught) made it, read by a
    recognizer; and the random state that draws the photographs after teaching."""
    deck, _, state = taught_deck
    with np.load(deck / DECK_FILE) as data:
        cards = data["cards"].copy()
    cards[CODES.index(code)] = photographed(cards[CODES.index(code)])
    (tmp_path / "deck").mkdir()
    TaughtDeck.save(cards, tmp_path / "deck" / DECK_FILE, IndexNet.load(MODEL))
    return Recognizer.load(tmp_path / "deck"), _after_teaching(state)


def test_a_card_taught_from_a_bad_finding_reads_as_well_as_untaught(recognizer, drawn_deck, taught_deck, tmp_path):
    # the finder once took half a court card for the card, and every photograph of it then matched another card
    taught, rng = _taught_instead(taught_deck, "AS", lambda card: cv2.resize(
        card[56:168], card.shape[1::-1], interpolation=cv2.INTER_LINEAR), tmp_path)
    for _ in range(3):
        frame, _ = scene(rng, [drawn_deck["AS"]])
        untaught = recognizer.read(frame)
        assert codes(untaught)[:1] == ["AS"]
        assert taught.read(frame)[:1] == untaught[:1]  # the index's reading, sure as the board is without a deck


@pytest.mark.slow
def test_a_card_taught_from_a_photo_that_took_the_table_around_it_is_still_read(drawn_deck, taught_deck, tmp_path):
    # the finder once took a court card with a margin of the table around it: its photographs read as another card
    def framed(card):
        height, width = card.shape[:2]
        inner = cv2.resize(card, (round(width / 1.06), round(height / 1.06)), interpolation=cv2.INTER_AREA)
        out = np.full_like(card, (40, 70, 110))  # a wooden table
        top, left = (height - inner.shape[0]) // 2, (width - inner.shape[1]) // 2
        out[top:top + inner.shape[0], left:left + inner.shape[1]] = inner
        return out

    taught, rng = _taught_instead(taught_deck, "QH", framed, tmp_path)
    for _ in range(3):
        frame, _ = scene(rng, [drawn_deck["QH"]])
        assert codes(taught.read(frame))[:1] == ["QH"]  # (read 8H, the card's margin unlike the photograph's)


def test_teaching_names_what_is_missing_or_unreadable(drawn_deck, tmp_path):
    photos = careful_photos({c: drawn_deck[c] for c in ("AS", "2S")}, np.random.default_rng(1), tmp_path)
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


def test_a_deck_taught_by_the_first_reader_asks_to_be_taught_again(tmp_path):
    np.savez_compressed(tmp_path / DECK_FILE, codes=np.array(CODES), features=np.zeros((52, 4, 8), np.float16))
    with pytest.raises(DeckError, match=r"older version of the reader: teach the deck again"):
        Recognizer.load(tmp_path)


@pytest.mark.parametrize("content", [b"", b"PK\x03\x04 cut short", b"not a deck at all"])
def test_a_damaged_deck_file_says_so(tmp_path, content):
    (tmp_path / DECK_FILE).write_bytes(content)
    with pytest.raises(DeckError, match=r"damaged .*teach the deck again"):
        Recognizer.load(tmp_path)


def _card_of(drawn_deck, code, rng):
    """A photograph of the drawn deck's card, found and rectified."""
    from companion.vision.find import rectify

    frame, _ = scene(rng, [drawn_deck[code]])
    return rectify(frame, find_cards(frame)[0])


@pytest.mark.slow
def test_a_deck_taught_by_the_reader_before_reads_as_one_taught_now(drawn_deck, taught_deck, tmp_path):
    # the reader before kept only the rectified cards (format 2), and described them at each loading
    deck, _, _ = taught_deck
    with np.load(deck / DECK_FILE) as data:
        cards = data["cards"].copy()
    np.savez_compressed(tmp_path / DECK_FILE, version=np.int32(2), codes=np.array(CODES), cards=cards)
    before, now = Recognizer.load(tmp_path), Recognizer.load(deck)
    rng = np.random.default_rng(5)
    for code in ("7D", "QS"):
        card = _card_of(drawn_deck, code, rng)
        assert before._read_card(card) == now._read_card(card)


def test_a_deck_described_by_another_network_is_described_again_by_this_one(drawn_deck, taught_deck):
    deck, _, _ = taught_deck
    net = IndexNet.load(MODEL)
    other = IndexNet(net.mean, net.scale, net.convs, net.w1[:, ::-1].copy(), net.b1[::-1].copy(), net.w2[::-1].copy(),
                     net.b2, net.sure, net.sure_taught)  # another network (its hidden units in another order)
    kept, again = TaughtDeck.load(deck / DECK_FILE, net), TaughtDeck.load(deck / DECK_FILE, other)
    assert np.allclose(again.corners, kept.corners[:, :, ::-1], atol=1e-4)
    assert np.array_equal(again.tiles, kept.tiles)


def test_the_page_and_the_camera_share_a_loaded_deck_until_it_is_taught_anew(taught_deck, tmp_path):
    deck, _, _ = taught_deck
    page, camera = Recognizer.load(deck), Recognizer.load(deck)
    assert page.taught is camera.taught and page.taught is not None
    (tmp_path / "deck").mkdir()
    (tmp_path / "deck" / DECK_FILE).write_bytes((deck / DECK_FILE).read_bytes())
    before = Recognizer.load(tmp_path / "deck").taught
    assert before is not None and before is not page.taught
    with np.load(deck / DECK_FILE) as data:
        kept = dict(data)
    pips = kept["pips"].copy()
    pips[0] = 7 if pips[0] != 7 else 8
    np.savez_compressed(tmp_path / "deck" / DECK_FILE, **kept | {"pips": pips})  # taught anew, the first held on
    after = Recognizer.load(tmp_path / "deck").taught
    assert after is not before and after is not None and after.pips[0] == pips[0] != before.pips[0]
    np.savez_compressed(tmp_path / "deck" / DECK_FILE, **kept | {"pips": kept["pips"][:10]})  # taught anew: damaged
    with pytest.raises(DeckError, match=r"damaged .*teach the deck again"):
        Recognizer.load(tmp_path / "deck")


HUGE = {"tiles": ("|i1", (28, 260, 704 * 2000)), "codes": ("<U100000000", (52,))}
"""Members whose header claims gigabytes (10 GB of tiles; 52 codes of 19 GB, the right shape in too wide a type)."""


def _huge(path, name):
    """Add to a deck's file the member `name` whose header claims gigabytes (and which holds a few bytes)."""
    import io
    import zipfile

    header = io.BytesIO()
    descr, shape = HUGE[name]
    np.lib.format.write_array_header_1_0(header, {"descr": descr, "fortran_order": False, "shape": shape})
    with zipfile.ZipFile(path, "a") as archive:
        archive.writestr(f"{name}.npy", header.getvalue() + bytes(64))


HOSTILE = {
    "a version of two numbers": {"version": np.array([3, 3])},
    "a version in words": {"version": np.array("three")},
    "a single code": {"codes": np.array("AS")},
    "two networks": {"network": np.array(["a", "b"])},
    "pips not a number": {"pips": np.full(52, np.nan)},
    "pips in words": {"pips": np.array(["x"] * 52)},
    "pips no card has": {"pips": np.full(52, 99, np.int64)},
    "corners in words": {"corners": np.full((260, 4, 128), "a")},
    "corners not a number": {"corners": np.full((260, 4, 128), np.nan, np.float32)},
    "ranks not a number": {"ranks": np.full((52, 4, 14), np.nan, np.float32)},
    "shown in bytes": {"shown": np.zeros((260, 4), "S3")},
    "tiles of 10 GB": {"tiles": None},
    "codes of 19 GB": {"codes": None},
    "format 2's cards in words": {"version": np.int32(2), "cards": np.full((52, 224, 160, 3), "a")},
    "format 2's cards complex": {"version": np.int32(2), "cards": np.zeros((52, 224, 160, 3), np.complex64)},
}


@pytest.mark.parametrize("hostile", HOSTILE)
def test_a_hostile_deck_file_is_refused_before_it_is_read_whole(taught_deck, tmp_path, hostile):
    deck, _, _ = taught_deck
    with np.load(deck / DECK_FILE) as data:
        kept = dict(data) | HOSTILE[hostile]
    np.savez_compressed(tmp_path / DECK_FILE, **{name: value for name, value in kept.items() if value is not None})
    for name in (name for name, value in kept.items() if value is None):
        _huge(tmp_path / DECK_FILE, name)
    import tracemalloc

    tracemalloc.start()
    try:
        with pytest.raises(DeckError, match=r"(damaged|52 cards).*teach the deck again") as refused:
            Recognizer.load(tmp_path)
        assert tracemalloc.get_traced_memory()[1] < 64 * 2**20  # nothing a header claims was made to read it into
    finally:
        tracemalloc.stop()
    assert kept["tiles"] is not None or "tiles has the shape (28, 260, 1408000)" in str(refused.value)  # unread


def test_a_deck_file_without_all_the_cards_is_refused(tmp_path):
    np.savez_compressed(tmp_path / DECK_FILE, version=np.int32(2), codes=np.array(CODES[:10]),
                        cards=np.zeros((10, 224, 160, 3), np.uint8))
    with pytest.raises(DeckError, match="52 cards"):
        Recognizer.load(tmp_path)


def test_importing_the_reader_loads_no_opencv():
    import subprocess
    import sys

    code = "import sys, companion.vision, companion.commands.recognize; print('cv2' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"


def test_a_picture_that_makes_a_court_of_a_number_cards_index_is_never_sure(taught_deck):
    # a green mat seen through a 7 of diamonds (its pips unclear), its index read unsurely, a court's match close
    from companion.vision.pips import PICTURE
    from companion.vision.reader import _with_pips

    reader = Recognizer.load(taught_deck[0])
    assert reader.taught is not None
    hidden, shown = np.zeros((4, len(reader.net.b1)), np.float32), np.zeros(4, np.float32)
    alone = np.full(len(CODES), 0.55 / (len(CODES) - 1))
    alone[CODES.index("7D")] = 0.45
    probs, _ = _with_pips(alone, PICTURE)
    for seven, sure in ((1.0, False), (0.9, True)):  # the match says the 7, or the king too
        likeness = np.full(len(CODES), 0.5, np.float32)
        likeness[CODES.index("KD")], likeness[CODES.index("7D")] = 0.95, seven
        reading = reader._fused(reader.taught, (likeness, np.arange(len(CODES))), hidden, shown, probs, alone=alone,
                                count=PICTURE)
        assert reading[0] == "KD" and reading[2] == sure


def test_a_deck_of_a_format_this_reader_does_not_read_names_the_formats_it_reads(tmp_path):
    np.savez_compressed(tmp_path / DECK_FILE, version=np.int32(9), codes=np.array(CODES))
    with pytest.raises(DeckError, match=r"of format 9, this reader reads 2 and 3: teach the deck again"):
        Recognizer.load(tmp_path)


@pytest.mark.skipif(glibc_mallopt() is None, reason="the allocator is kept only under glibc")
def test_frame_after_frame_the_reader_faults_no_fresh_memory_in():
    # (glibc handed a frame's few MB back and the next frame faulted them in again: 860 pages a read of this frame)
    recognizer = Recognizer.load()
    frame = cv2.imread(str(DATA / "7D+KS.jpg"))
    for _ in range(3):
        recognizer.read(frame)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(3):
        recognizer.read(frame)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before < 100
