"""Finding cards where the first finder lost them: a court picture that cuts a card's pale margin in two, a finger
as pale as the card holding it, a side against a table nearly as pale as the card."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator

import numpy as np
import pytest

from companion.vision import find
from companion.vision.find import find_cards
from tests.vision.drawn import DATA, cv2

CARD = np.array([[0, 0], [250, 0], [250, 350], [0, 350]], np.float32)


def _photo(card: np.ndarray, table: np.ndarray, corners: np.ndarray, seed: int,
           more: tuple[tuple[np.ndarray, np.ndarray], ...] = ()) -> np.ndarray:
    """The card (BGRA, 250 x 350) laid on the table (BGR) with its corners where given, and `more` cards with
    theirs, as a camera sees them."""
    frame = table.astype(np.float32)
    size = (table.shape[1], table.shape[0])
    for each, where in ((card, corners), *more):
        matrix = cv2.getPerspectiveTransform(CARD, where.astype(np.float32))
        paper = cv2.warpPerspective(each[:, :, :3], matrix, size, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        alpha = cv2.warpPerspective(each[:, :, 3], matrix, size)[:, :, None] / 255  # no dark fringe: no shadow
        frame = frame * (1 - alpha) + paper * alpha
    frame = cv2.GaussianBlur(frame, (0, 0), 0.8) + np.random.default_rng(seed).normal(0, 2, frame.shape)
    return np.clip(frame, 0, 255).astype(np.uint8)


def _found(quads: list[np.ndarray], corners: np.ndarray) -> bool:
    """Whether one of the quadrilaterals found is the card: each corner within 5 % of its height."""
    height = float(np.linalg.norm(corners[0] - corners[3]))
    return any(min(np.abs(np.roll(quad, turn, axis=0) - corners).max() for turn in range(4)) < 0.05 * height
               for quad in quads)


def test_a_court_card_whose_picture_cuts_its_margin_in_two_is_found_whole(drawn_deck):
    card = drawn_deck["KH"].copy()
    cv2.rectangle(card, (14, 70), (235, 280), (40, 60, 170, 255), -1)  # the picture, within a thin margin
    cv2.rectangle(card, (0, 160), (249, 190), (120, 40, 30, 255), -1)  # reaching both sides across its middle
    table = np.full((480, 640, 3), (40, 70, 30), np.uint8)
    corners = np.array([[230, 80], [400, 100], [380, 340], [205, 315]], np.float32)
    quads = find_cards(_photo(card, table, corners, seed=1))
    assert _found(quads, corners)
    assert len(quads) == 1  # not a half of it as well


def test_a_court_card_whose_picture_is_cut_in_two_by_a_line_is_found_whole_though_a_finger_holds_it(drawn_deck):
    card = drawn_deck["KH"].copy()
    cv2.rectangle(card, (10, 40), (239, 309), (40, 60, 170, 255), -1)  # the picture, within a thin margin
    cv2.line(card, (0, 110), (249, 240), (30, 20, 20, 255), 5)  # a line across it, through both long sides' margin
    for seed, (colour, corners) in enumerate([
            ((40, 70, 30), np.array([[230, 80], [400, 100], [380, 340], [205, 315]], np.float32)),
            ((30, 50, 90), np.array([[260, 60], [420, 130], [330, 360], [170, 290]], np.float32))]):
        frame = _photo(card, np.full((480, 640, 3), colour, np.uint8), corners, seed=10 + seed)
        held = corners[:2].mean(axis=0) * 0.7 + corners[2:].mean(axis=0) * 0.3  # in the top part, out of the frame
        cv2.line(frame, (int(held[0]), int(held[1])), (int(corners[0][0]) + 200, -50), (200, 215, 235), 30)
        quads = find_cards(frame)
        assert _found(quads, corners)
        assert len(quads) == 1  # not the part below the line as well


def test_a_card_held_by_a_finger_as_pale_as_it_is_found(drawn_deck):
    table = np.full((480, 640, 3), (30, 50, 90), np.uint8)
    corners = np.array([[220, 100], [390, 120], [370, 360], [195, 335]], np.float32)
    frame = _photo(drawn_deck["9D"], table, corners, seed=2)
    cv2.line(frame, (290, 220), (40, 20), (200, 215, 235), 34)  # from the card's middle out beyond its top left side
    assert _found(find_cards(frame), corners)


def test_a_card_with_one_side_against_a_table_nearly_as_pale_as_it_is_found(drawn_deck):
    x = np.arange(640, dtype=np.float32)
    grey = np.clip(110 + (x - 330) * 4, 110, 230)  # a table lit from the right: beside the card's right side, 230
    table = np.repeat(np.repeat(grey[None, :, None], 480, axis=0), 3, axis=2).astype(np.uint8)
    corners = np.array([[200, 90], [370, 95], [368, 335], [196, 330]], np.float32)
    frame = _photo(drawn_deck["4C"], table, corners, seed=3)
    assert _found(find_cards(frame), corners)


def test_two_cards_side_by_side_are_two_cards(drawn_deck):
    table = np.full((480, 640, 3), (40, 70, 30), np.uint8)
    left = np.array([[150, 100], [320, 100], [320, 338], [150, 338]], np.float32)
    right = left + np.float32([180, 0])  # a little apart, in line: together they are card-shaped too
    frame = _photo(drawn_deck["5S"], table, left, seed=4)
    matrix = cv2.getPerspectiveTransform(CARD, right)
    warped = cv2.warpPerspective(drawn_deck["8H"], matrix, (640, 480))
    frame = np.where(warped[:, :, 3:] > 0, warped[:, :, :3], frame)
    quads = find_cards(frame)
    assert _found(quads, left) and _found(quads, right) and len(quads) == 2



def test_a_card_joined_to_a_neighbour_and_a_finger_as_pale_as_it_is_found(drawn_deck):
    table = np.full((480, 640, 3), (60, 40, 110), np.uint8)
    corners = np.array([[230, 90], [400, 110], [380, 350], [205, 325]], np.float32)
    frame = _photo(drawn_deck["5D"], table, corners, seed=6)
    over = np.array([[280, 335], [450, 335], [450, 573], [280, 573]], np.float32)  # over its bottom right corner
    warped = cv2.warpPerspective(drawn_deck["KS"], cv2.getPerspectiveTransform(CARD, over), (640, 480))
    frame = np.where(warped[:, :, 3:] > 0, warped[:, :, :3], frame)
    cv2.line(frame, (273, 104), (-17, -172), (158, 192, 226), 20)  # from inside its top side out of the frame
    assert _found(find_cards(frame), corners)


def test_a_card_on_a_table_nearly_as_pale_as_it_on_every_side_is_found(drawn_deck):
    table = np.full((480, 640, 3), 215, np.uint8)  # no shadow either: only the paper's paleness tells its sides
    corners = np.array([[230, 90], [400, 110], [380, 350], [205, 325]], np.float32)
    assert _found(find_cards(_photo(drawn_deck["7C"], table, corners, seed=7)), corners)


@pytest.mark.parametrize("code", ["5S", "JH"])
def test_a_card_with_a_printed_border_line_on_a_table_nearly_as_pale_as_it_is_found_at_its_edge(drawn_deck, code):
    card = drawn_deck[code].copy()
    cv2.rectangle(card, (16, 16), (233, 333), (40, 40, 160, 255), 3)  # the line, a darker edge than the card's own
    table = np.full((480, 640, 3), 215, np.uint8)
    corners = np.array([[230, 90], [400, 110], [380, 350], [205, 325]], np.float32)
    assert _found(find_cards(_photo(card, table, corners, seed=10)), corners)


def test_a_card_with_a_printed_border_line_is_not_grown_onto_its_neighbours_on_a_pale_table(drawn_deck):
    # (on a table as pale as the paper every side looks like a band: the centre card grew onto the others' lines)
    cards = []
    for (across, down), code in zip(((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)), ("7C", "5S", "JH", "3D", "9H"),
                                    strict=True):
        left, top = 260 + across * 134, 156 + down * 182
        card = drawn_deck[code].copy()
        cv2.rectangle(card, (16, 16), (233, 333), (40, 40, 160, 255), 3)
        cards.append((card, np.array([[left, top], [left + 120, top], [left + 120, top + 168], [left, top + 168]],
                                     np.float32)))
    frame = _photo(cards[0][0], np.full((480, 640, 3), 200, np.uint8), cards[0][1], seed=1, more=tuple(cards[1:]))
    found = find_cards(frame)
    assert _found(found, cards[0][1])  # the centre card, as it lies
    assert not any(not _found([quad], cards[0][1]) and cv2.pointPolygonTest(quad, (320.0, 240.0), False) >= 0
                   for quad in found)  # and nothing else found over it


def test_a_floor_of_pale_tiles_is_no_card():
    floor = np.full((480, 640, 3), 150, np.uint8)  # grout
    for y in range(4, 480, 106):
        for x in range(4, 640, 106):
            cv2.rectangle(floor, (x, y), (x + 99, y + 99), (232, 236, 238), -1)  # two side by side: a card's shape
    frame = cv2.GaussianBlur(floor, (0, 0), 1.0)
    frame = np.clip(frame + np.random.default_rng(8).normal(0, 2, frame.shape), 0, 255).astype(np.uint8)
    assert find_cards(frame) == []


def test_a_neighbour_cut_off_by_the_frame_leaves_the_other_masks_unmade(drawn_deck, monkeypatch):
    # (the board's finding took twice the time on such frames: every mask was made for the neighbour)
    table = np.full((480, 640, 3), (40, 70, 30), np.uint8)
    corners = np.array([[200, 90], [370, 95], [368, 335], [196, 330]], np.float32)
    frame = _photo(drawn_deck["6S"], table, corners, seed=9)
    over = np.array([[480, 300], [650, 300], [650, 538], [480, 538]], np.float32)  # beyond the bottom right corner
    warped = cv2.warpPerspective(drawn_deck["JD"], cv2.getPerspectiveTransform(CARD, over), (640, 480))
    frame = np.where(warped[:, :, 3:] > 0, warped[:, :, :3], frame)
    made = []
    masks = find._masks

    def counted(small: np.ndarray, none_yet: Callable[[], bool]) -> Iterator[tuple[np.ndarray, bool]]:
        for mask in masks(small, none_yet):
            made.append(mask)
            yield mask

    monkeypatch.setattr(find, "_masks", counted)
    quads = find_cards(frame)
    assert _found(quads, corners) and len(quads) == 1
    assert len(made) == 1


def test_finding_leaves_nothing_for_the_garbage_collector():
    # a cycle would keep each frame's masks until a collection: the board's memory grew by 28 MB over 12 reads
    frame = cv2.imread(str(DATA / "7D+KS.jpg"))
    find_cards(frame)  # (the first finding imports what it needs, numpy's own cycles among it)
    gc.collect()
    gc.disable()
    try:
        assert len(find_cards(frame)) == 2
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_a_card_near_the_frames_edge_held_by_a_finger_reaching_in_from_beyond_it_is_found(drawn_deck):
    # the card and the finger (as pale as it) make one region reaching the frame's edge, nearly convex: its hull's
    # quadrilateral reaches out to the frame, and the finger is cut off only where it meets the frame's edge
    table = np.full((480, 640, 3), (40, 70, 30), np.uint8)
    corners = np.array([[340, 300], [355, 120], [595, 150], [580, 330]], np.float32)
    frame = _photo(drawn_deck["4S"], table, corners, seed=12)
    cv2.line(frame, (555, 240), (700, 250), (215, 225, 240), 30)  # from over its right side out of the frame
    quads = find_cards(frame)
    assert _found(quads, corners) and len(quads) == 1


def test_a_card_on_a_table_nearly_as_pale_as_it_with_a_finger_across_its_side_is_found(drawn_deck):
    # a soft photograph: the faint edges round the finger and the card leave a gap a pixel wide, through which the
    # card's region ran out into the table's
    table = np.full((480, 640, 3), 205, np.uint8)
    corners = np.array([[230, 90], [400, 110], [380, 350], [205, 325]], np.float32)
    frame = _photo(drawn_deck["7C"], table, corners, seed=1)
    cv2.line(frame, (300, 300), (80, 440), (70, 120, 130), 24)  # from the card's middle out over its bottom left side
    assert _found(find_cards(cv2.GaussianBlur(frame, (0, 0), 1.2)), corners)


def _court(card: np.ndarray, across: bool = False) -> np.ndarray:
    """The card with a court's picture inside its margin; `across`: reaching both long sides across its middle."""
    court = card.copy()
    cv2.rectangle(court, (40, 60), (209, 289), (60, 40, 120, 255), -1)
    if across:
        cv2.rectangle(court, (0, 160), (249, 190), (120, 40, 30, 255), -1)
    return court


def test_a_court_card_touched_by_a_neighbour_that_the_frame_cuts_off_is_found(drawn_deck):
    # (the card and the part of the neighbour in view made one region that the frame cuts off: a neighbour, it seemed)
    table = np.full((480, 640, 3), (50, 40, 90), np.uint8)
    corners = np.array([[233, 85], [471, 91], [481, 448], [240, 454]], np.float32)
    neighbour = np.array([[204, -40], [419, -90], [452, 51], [235, 100]], np.float32)  # its corner on the card's top
    other = np.array([[20, 200], [170, 200], [170, 410], [20, 410]], np.float32)  # a card found at once beside them
    frame = _photo(_court(drawn_deck["JH"]), table, corners, seed=11,
                   more=((drawn_deck["3H"], neighbour), (drawn_deck["9D"], other)))
    quads = find_cards(frame)
    assert _found(quads, corners) and _found(quads, other)


def test_two_court_cards_side_by_side_are_two_cards_not_one_round_both(drawn_deck):
    # (one's margin in two parts, the parts and the other card together made a card's shape, lying on edges of both)
    table = np.full((480, 640, 3), (40, 80, 120), np.uint8)
    corners = np.array([[110, 244], [251, 216], [308, 436], [155, 450]], np.float32)
    neighbour = np.array([[214, 173], [470, 23], [594, 233], [341, 393]], np.float32)  # its corner at the other's
    frame = _photo(_court(drawn_deck["QC"], across=True), table, corners, seed=12,
                   more=((_court(drawn_deck["JD"]), neighbour),))
    quads = find_cards(frame)
    assert _found(quads, corners) and _found(quads, neighbour) and len(quads) == 2


def test_a_court_card_with_a_glare_on_its_corner_on_a_pale_table_is_found_beside_another(drawn_deck):
    # (the pictures dark, the table as pale as the paper: the first mask joined the card's paper to the table's where
    # its shadow was lost in the glare, the other card was found there, and the search stopped)
    table = np.full((480, 640, 3), 225, np.uint8)
    other = np.array([[400, 220], [570, 230], [560, 468], [390, 458]], np.float32)
    corners = np.array([[180, 20], [350, 40], [330, 280], [160, 260]], np.float32)
    frame = _photo(_court(drawn_deck["KC"]), table, corners, seed=13, more=((_court(drawn_deck["KH"]), other),))
    cv2.polylines(frame, [np.rint(other).astype(np.int32)], True, (90, 90, 90), 3)  # a shadow all round each
    lit = [0.6 * corners[0] + 0.4 * corners[1], *corners[1:], 0.4 * corners[3] + 0.6 * corners[0]]
    cv2.polylines(frame, [np.rint(lit).astype(np.int32)], False, (90, 90, 90), 3)  # but round the lit corner
    quads = find_cards(frame)
    assert _found(quads, corners) and _found(quads, other)


def test_a_court_card_found_as_a_part_is_completed_though_the_picture_is_pale_in_places_along_the_cut(drawn_deck):
    # (a face or a collar reaching the cut: the cut showed the card's paper along a third of it or more)
    card = drawn_deck["KD"].copy()
    cv2.rectangle(card, (0, 60), (249, 209), (40, 30, 120, 255), -1)  # the picture's band, across the card
    for left in (20, 100, 180):  # its darker parts reaching below it, the paper between them
        cv2.rectangle(card, (left, 210), (left + 45, 242), (110, 110, 110, 255), -1)
    table = np.full((480, 640, 3), (40, 70, 30), np.uint8)
    corners = np.array([[230, 80], [400, 84], [398, 322], [228, 318]], np.float32)
    quads = find_cards(_photo(card, table, corners, seed=14))
    assert _found(quads, corners) and len(quads) == 1
    frame = _photo(card, np.full((480, 640, 3), 150, np.uint8), corners, seed=14)
    cv2.line(frame, (100, 60), (540, 62), (20, 20, 20), 3)  # a line of the table just beyond its top: not its side
    assert _found(find_cards(frame), corners)


def _glared(frame: np.ndarray, centre: tuple[float, float], spread: tuple[float, float], strength: float) -> np.ndarray:
    """The frame under a glare: light added round `centre`, fading over `spread` (x, y), white where it is strong."""
    y, x = np.mgrid[0:frame.shape[0], 0:frame.shape[1]].astype(np.float32)
    light = strength * np.exp(-((x - centre[0]) / spread[0]) ** 2 - ((y - centre[1]) / spread[1]) ** 2)
    return np.clip(frame + light[:, :, None], 0, 255).astype(np.uint8)


def test_a_card_with_a_glare_washing_out_one_side_is_found(drawn_deck):
    # the paper and the table beyond its right side both white: no edge along it at all; placed from the three others
    # and a card's shape
    table = np.full((480, 640, 3), (40, 70, 30), np.uint8)
    corners = np.array([[200, 90], [370, 95], [368, 335], [196, 330]], np.float32)
    frame = _glared(_photo(drawn_deck["4C"], table, corners, seed=3), (400, 215), (40, 100), 765)
    quads = find_cards(frame)
    assert _found(quads, corners) and len(quads) == 1


def test_a_card_on_a_pale_table_with_a_glare_over_a_corner_is_found(drawn_deck):
    # no mask closes a region round it: its edges' outline is open at the glared corner, and the quadrilateral of its
    # hull cuts that corner off; the least rectangle round the outline reaches it
    table = np.full((480, 640, 3), (210, 210, 190), np.uint8)
    corners = np.array([[230, 90], [400, 110], [380, 350], [205, 325]], np.float32)
    frame = _glared(_photo(drawn_deck["7C"], table, corners, seed=4), (230, 90), (60, 60), 250)
    quads = find_cards(frame)
    assert _found(quads, corners) and len(quads) == 1


def test_a_region_two_overlapping_cards_cover_together_is_explained():
    # (filled in one call, the part two quadrilaterals share counted for neither: the region seemed unexplained and
    # every mask was made)
    region = np.array([[[100, 100]], [[300, 100]], [[300, 300]], [[100, 300]]], np.int32)
    left = np.array([[95, 95], [260, 95], [260, 305], [95, 305]], np.float32)
    right = np.array([[150, 95], [305, 95], [305, 305], [150, 305]], np.float32)
    assert find._uncovered([region], [left, right]) == []
    assert len(find._uncovered([region], [left])) == 1


def test_the_paper_brightness_a_margin_is_judged_by_is_numpys_95th_percentile():
    rng = np.random.default_rng(3)
    for size in (1, 2, 10, 192):
        seen = rng.integers(0, 256, size).astype(np.float32)
        assert find._palest(seen) == float(np.percentile(seen, 95))


@pytest.mark.parametrize("shape", [(10, 10000, 3), (10000, 10, 3), (0, 0, 3), (31, 640, 3), (1, 1, 3)])
def test_a_frame_too_small_or_too_thin_for_a_card_holds_none(shape):
    assert find_cards(np.full(shape, 200, np.uint8)) == []


def test_a_court_card_cut_in_two_is_found_at_its_own_edge_not_at_a_line_of_the_table_beyond_it(drawn_deck):
    # (of the cards a court card's part is completed as, the one on most edges is kept: one reaching the line won)
    table = np.full((480, 640, 3), 205, np.uint8)  # pale: inside a completion reaching the line, a "margin" too
    corners = np.array([[230, 120], [400, 124], [398, 362], [228, 358]], np.float32)
    frame = _photo(_court(drawn_deck["KH"], across=True), table, corners, seed=1)
    cv2.line(frame, (100, 60), (540, 62), (20, 20, 20), 3)  # a quarter of the card's height beyond its top
    quads = find_cards(frame)
    assert _found(quads, corners) and len(quads) == 1


def test_a_court_card_whose_picture_a_dark_band_crosses_is_one_card_not_its_two_halves(drawn_deck):
    # (two cards side by side, not a card's halves, show a margin where they meet: here the picture reaches the band)
    card = drawn_deck["KH"].copy()
    cv2.rectangle(card, (40, 40), (209, 309), (110, 110, 130, 255), -1)  # the picture, paler than the band
    cv2.rectangle(card, (0, 140), (249, 210), (120, 40, 30, 255), -1)  # a band darker than the table, side to side
    table = np.full((480, 640, 3), (40, 70, 30), np.uint8)
    corners = np.array([[230, 80], [400, 84], [398, 322], [228, 318]], np.float32)
    quads = find_cards(_photo(card, table, corners, seed=1))
    assert _found(quads, corners) and len(quads) == 1


def test_a_card_with_a_peg_lying_across_its_corner_on_a_pale_table_is_found(drawn_deck):
    # (when no mask explains the frame, a convex region of edges in view is opened too: else the card ends at the peg)
    table = np.full((480, 640, 3), 205, np.uint8)
    corners = np.array([[230, 90], [400, 110], [380, 350], [205, 325]], np.float32)
    frame = _photo(drawn_deck["7C"], table, corners, seed=1)
    cv2.line(frame, (215, 265), (212, 365), (40, 40, 180), 14)  # along its left side, out past its corner
    quads = find_cards(frame)
    assert _found(quads, corners) and len(quads) == 1


def test_a_card_with_a_corner_out_of_view_and_a_glare_over_another_is_found_at_its_sides_not_cut_across(drawn_deck):
    # (a region's core reaching the frame's edge is no card in view: fitted as one, it cut this card across)
    table = np.full((480, 640, 3), (40, 80, 120), np.uint8)
    corners = np.array([[189, 75], [332, 248], [133, 413], [-27, 279]], np.float32)  # its left corner out of view
    frame = _glared(_photo(drawn_deck["JS"], table, corners, seed=1), (189, 75), (62, 80), 290)  # over its top one
    quads = find_cards(frame)
    assert _found(quads, corners) and len(quads) == 1


def test_a_pale_part_of_a_court_cards_picture_is_no_card_when_the_frame_cuts_the_card_off(drawn_deck):
    # (a card guessed from a region's core lies on edges along 0.8 of its outline: this part passed the nearer test)
    card = drawn_deck["JC"].copy()
    cv2.rectangle(card, (39, 39), (210, 310), (60, 40, 120, 255), -1)  # the picture
    cv2.rectangle(card, (161, 202), (249, 318), (245, 245, 240, 255), -1)  # its pale parts, reaching the card's side
    cv2.rectangle(card, (132, 246), (221, 307), (245, 245, 240, 255), -1)
    cv2.line(card, (197, 245), (77, 228), (20, 20, 20, 255), 3)
    corners = np.array([[736, 215], [625, 473], [287, 294], [406, 77]], np.float32)  # two corners out of view
    assert find_cards(_photo(card, np.full((480, 640, 3), 90, np.uint8), corners, seed=1)) == []


def test_two_cards_running_out_of_the_frame_with_a_finger_across_them_are_no_card(drawn_deck):
    # (a finger from beyond the frame meets its edge along a short stretch: these cards meet it along their sides)
    table = np.full((480, 640, 3), (30, 50, 90), np.uint8)
    first = np.array([[496, 93], [640, 186], [493, 407], [353, 298]], np.float32)  # its right corner at the edge
    second = np.array([[715, 388], [531, 424], [461, 169], [640, 115]], np.float32)  # under it, half out of view
    frame = _photo(drawn_deck["5D"], table, first, seed=1, more=((_court(drawn_deck["KS"], across=True), second),))
    cv2.line(frame, (422, 225), (720, 306), (158, 192, 226), 20)  # from over the first out of the frame
    assert find_cards(frame) == []


def test_a_court_card_running_out_of_the_frame_with_a_pale_stripe_beside_its_margin_is_no_card(drawn_deck):
    # (a finger cut off where it meets the frame crosses the card's side: a strip along it is a margin running on)
    card = drawn_deck["QH"].copy()
    cv2.rectangle(card, (18, 18), (231, 331), (40, 40, 160, 255), -1)  # the picture, within a thin margin
    cv2.rectangle(card, (192, 230), (228, 349), (245, 245, 240, 255), -1)  # a pale stripe of it, to the card's end
    cv2.line(card, (95, 51), (270, 257), (20, 20, 20, 255), 3)
    corners = np.array([[785, 19], [663, 250], [405, 102], [519, -87]], np.float32)  # one corner in view
    assert find_cards(_photo(card, np.full((480, 640, 3), 90, np.uint8), corners, seed=1)) == []


def test_a_card_near_the_frames_edge_lying_on_a_court_card_held_from_beyond_it_is_found_not_one_round_both(drawn_deck):
    # (what is left when a finger is cut off lies wholly in view: here it reached the frame's edge, round both cards)
    table = np.full((480, 640, 3), (40, 80, 120), np.uint8)
    court = np.array([[631, 342], [482, 405], [396, 194], [556, 122]], np.float32)
    corners = np.array([[354, 133], [505, 255], [337, 472], [161, 346]], np.float32)  # on it, 8 pixels from the edge
    frame = _photo(_court(drawn_deck["KS"], across=True), table, court, seed=1, more=((drawn_deck["QH"], corners),))
    cv2.line(frame, (498, 335), (779, -306), (215, 225, 240), 25)  # a finger from beyond the frame onto the court
    assert _found(find_cards(frame), corners)
