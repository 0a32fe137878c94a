"""Counting a number card's pips on the rectified card: evidence on its rank that does not depend on how its
index is drawn (an upright 9's index seen upside down is a 6; a narrow 8 at the card's edge reads Q).

The pips are the blobs of ink (what differs from the paper around it) of like size, away from the corners that
show an index, and those in such a corner that stand in a column of pips or mirror one (an index's rank and
suit do neither). Only a clear count is given: 2 to 10 pips, their layout mirrored across the card's long axis
and the same turned half round (but a 7's or a 9's odd pip in the middle column), reaching down the card, and
nothing else pip-sized among them (a court's picture, a finger, a glare or a neighbour that hides or cuts a pip
make the count unclear, not wrong). Pips that touch each other or an index are parted by eroding the ink once.
An ace's one pip is no count: a deck may draw one big pip on every card.

Where the pips cannot be counted, `pips_seen` says whether the card's middle shows a picture instead: colours no
pip is printed in, mirrored as a double-headed court's picture is and spread over the middle.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from companion.vision.find import CARD_H, CARD_W
from companion.vision.index import percentiles

if TYPE_CHECKING:
    from numpy.typing import NDArray

SHOWN = 0.2
"""A corner whose index the network reads at least this likely is an index corner (its glyphs are no pips)."""
INDEX_BOX = (0.25, 0.36)
"""A corner that shows an index: its blobs within this share of the card's width and height from the corner are
the index's, unless they stand in a column of pips or mirror one outside the index corners (pips reaching into
the corner)."""
EDGE = 0.03
"""Blobs that reach within this share of the card's width of its edge are a border, the table, a finger or a
neighbour: not pips (one that hides a pip leaves its mirror image alone)."""
FINGER = 0.05
"""But one that covers more than this share of the card, or is as solid as a pip and bigger, may hide pips in
pairs: no count."""
LEAST = 0.0015
"""A pip covers at least this share of the card (specks, ornaments and glyphs' serifs are smaller)."""
LIKE = 1.4
"""The pips of one card differ in area by at most this factor."""
SMALLER = 5.0
"""A blob more than this many times smaller than the biggest pip is no pip (an index's small suit, a speck); one
between is neither, and the count unclear."""
COLUMN = 0.04
"""The pips of one column lie within this share of the card's width of each other."""
MIRROR = (0.06, 0.035)
"""A pip's mirror image lies within this share of the card's width and height of where it should be."""
TURNED = 0.07
"""And its image with the card turned half round within this share of its height (some decks set their middle
row a little high)."""
SPREAD = 0.3
"""The pips reach down at least this share of the card's height."""
PIP_SIZE = (0.3, 0.22)
"""A pip is at most this share of the card's width and height (a court's picture is bigger)."""
BORDER = 0.85
"""Lines around this share of the card's width and height or more are its border."""
LINES = 0.25
"""A blob bigger than a pip that covers less than this share of its box is a line, an ornament: no pip (unless it
surrounds the card's middle: a court picture's frame)."""


def count_pips(card: NDArray[np.uint8], index_corners: Sequence[bool] | NDArray[np.bool_]) -> int | None:
    """How many pips a rectified card (CARD_W x CARD_H, BGR) shows, 2 to 10, or None when that is not clear.
    `index_corners`: whether its top left, top right, bottom right and bottom left corners show an index (as
    index.card_features orders the four corners: top left and right as it lies, then those of the card turned)."""
    import cv2

    ink = _ink(card)
    count, lines = _count(ink, index_corners)
    if count is None and not lines:  # pips that touch each other or an index's suit, parted (a line would part too)
        count, _ = _count(cv2.erode(ink, np.ones((3, 3), np.uint8)), index_corners)
    return count


def _count(ink: NDArray[np.uint8], index_corners: Sequence[bool] | NDArray[np.bool_]) -> tuple[int | None, bool]:
    """count_pips on a mask of the card's ink, and whether it shows lines (a border, a frame, an ornament)."""
    import cv2

    _, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8, ltype=cv2.CV_16U)  # (twice as quick)
    edge = round(EDGE * CARD_W)  # _ink's margin: what reaches it reaches the card's edge
    inside, cornered = [], []  # blobs away from the index corners, and in them
    lines = False
    for x, y, w, h, size in stats[1:][stats[1:, 4] >= LEAST * CARD_W * CARD_H].tolist():  # (specks: no pip, no finger)
        big = w > PIP_SIZE[0] * CARD_W or h > PIP_SIZE[1] * CARD_H
        if min(x, y) <= edge or x + w >= CARD_W - edge or y + h >= CARD_H - edge:
            if size > FINGER * CARD_W * CARD_H or (big and size >= LINES * w * h):
                return None, lines  # a picture, a neighbour or shade reaching in from the edge may hide pips
            continue
        blob = (x + w / 2, y + h / 2, float(size))  # the box's centre: a pip upside down has the same
        corner = _corner(*blob[:2])
        if big and size < LINES * w * h:
            lines = True
            around = x < CARD_W / 2 < x + w and y < CARD_H / 2 < y + h
            if (w > BORDER * CARD_W and h > BORDER * CARD_H) or not around:
                continue  # a border, a line, an ornament (but a frame around the card's middle is a picture's)
        if corner is not None and index_corners[corner]:
            cornered.append(blob)  # an index's glyph, or a pip reaching into the corner
        elif big:
            return None, lines  # a picture, a finger, a glare's shadow: no count
        else:
            inside.append(blob)
    if not inside:
        return None, lines
    typical = max(size for _, _, size in inside)
    smaller = [size for _, _, size in inside if not _alike(size, typical)]
    if any(size * SMALLER > typical for size in smaller) or sum(smaller) * 2 > typical:
        return None, lines  # something neither a pip nor a speck lies among the pips, or a pip in pieces
    inside = [blob for blob in inside if _alike(blob[2], typical)]
    # a pip reaching into an index corner lies in a column of pips or mirrors one; an index's glyph does neither
    joined = [(x, y, size) for x, y, size in cornered if _alike(size, typical) and any(
        abs(x - px) <= COLUMN * CARD_W
        or (abs(CARD_W - 1 - x - px) <= MIRROR[0] * CARD_W and abs(y - py) <= MIRROR[1] * CARD_H)
        for px, py, _ in inside)]
    pips = inside + joined
    if not 2 <= len(pips) <= 10 or not all(_mirrored(pip, pips) for pip in pips):
        return None, lines
    # and turned half round, the pips lie where pips lie (but a 7's or a 9's odd one, in the middle column)
    unturned = [pip for pip in pips if not _mirrored(pip, pips, turned=True)]
    if len(unturned) > (len(pips) in (7, 9)) or any(abs(x - CARD_W / 2) > COLUMN * CARD_W for x, _, _ in unturned):
        return None, lines
    # an index's glyph in a column of pips: a pip joined to it, not counted
    if any(blob not in joined and any(abs(blob[0] - x) <= COLUMN * CARD_W for x, _, _ in pips) for blob in cornered):
        return None, lines
    ys = [y for _, y, _ in pips]
    if max(ys) - min(ys) < SPREAD * CARD_H:
        return None, lines
    # pips in side columns reach as high and as low as those in the middle (else pips reaching into the index
    # corners were left out on both sides)
    middle = [y for x, y, _ in pips if abs(x - CARD_W / 2) <= COLUMN * CARD_W]
    sides = [y for x, y, _ in pips if abs(x - CARD_W / 2) > COLUMN * CARD_W]
    reach = MIRROR[1] * CARD_H
    if middle and sides and (min(sides) > min(middle) + reach or max(sides) < max(middle) - reach):
        return None, lines
    return len(pips), lines


def _alike(size: float, other: float) -> bool:
    return max(size, other) <= LIKE * min(size, other)


def _ink(card: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """What differs from the card's paper (its colour nearby, as the light falls), as a 0/255 mask: dark or
    coloured pips on pale paper, pale ones on a dark card. The card's margin is left out (a border, the table)."""
    import cv2

    margin = round(EDGE * CARD_W)
    inner = card[margin:CARD_H - margin, margin:CARD_W - margin]
    height, width = inner.shape[:2]
    small = cv2.resize(inner, (width // 4, height // 4), interpolation=cv2.INTER_AREA)
    paper = cv2.resize(cv2.medianBlur(small, 21), (width, height), interpolation=cv2.INTER_LINEAR)
    difference = cv2.absdiff(inner, paper)
    b, g, r = (cv2.extractChannel(difference, channel) for channel in range(3))  # (quicker than cv2.split)
    distance = cv2.max(cv2.max(b, g), r)  # (numpy's max over the channels takes twenty times as long)
    level = max(40.0, 0.4 * float(percentiles(distance.ravel(), (99.5,))[0]))
    _, inked = cv2.threshold(distance, math.ceil(level) - 1, 255, cv2.THRESH_BINARY)  # distance >= level
    mask: NDArray[np.uint8] = cv2.copyMakeBorder(inked, margin, margin, margin, margin, cv2.BORDER_CONSTANT, value=0)
    return mask


def _corner(x: float, y: float) -> int | None:
    """Which corner's index box a point lies in (0 top left, 1 top right, 2 bottom right, 3 bottom left), if any."""
    left, right = x < INDEX_BOX[0] * CARD_W, x > (1 - INDEX_BOX[0]) * CARD_W
    top, bottom = y < INDEX_BOX[1] * CARD_H, y > (1 - INDEX_BOX[1]) * CARD_H
    if top and (left or right):
        return 0 if left else 1
    if bottom and (left or right):
        return 3 if left else 2
    return None


def _mirrored(pip: tuple[float, float, float], pips: list[tuple[float, float, float]], turned: bool = False) -> bool:
    """Whether a pip lies where this pip's mirror image across the card's long axis does (itself on the axis), or,
    `turned`, where it lies with the card turned half round (itself in the card's middle)."""
    x, y, size = pip
    mirror_y, reach_y = (CARD_H - 1 - y, TURNED) if turned else (y, MIRROR[1])
    return any(abs(CARD_W - 1 - x - mx) / CARD_W <= MIRROR[0] and abs(mirror_y - my) / CARD_H <= reach_y
               and _alike(size, msize) for mx, my, msize in pips)


PICTURE = 0
"""What pips_seen says of a card that shows a picture, not pips: an ace or a court, no number card."""
MIDDLE = (0.6, 0.6)
"""A card's middle: this share of its width and height about its centre (where a court's picture is, and a number
card's pips)."""
HUES = (25, 165)
"""The hues in which no pip is printed, in OpenCV's half degrees: beyond red, orange and skin, short of red again."""
COLOURED = (80, 60)
"""A pixel is coloured from this saturation and value (0..255) on: not the paper, not black ink."""
PICTURE_SHARE = 0.03
"""A card shows a picture when this share of its middle is coloured so (in 140 photographs of the kept-out design,
letele, a number card's middle 0.017 at most, a court's 0.041 at least)."""
MIRRORED = (0.85, 7)
"""A double-headed court's picture is mirrored: at least this share of its coloured middle is coloured in the card
turned half round too, within this many pixels (a token on a card, a table seen through it, a shadow over half of
it are not; in three designs' courts, 0.93 at least)."""
PICTURE_SPREAD = 0.3
"""A court's picture fills the middle: at least this share of its coloured middle lies beyond the middle's central
half across and down (a token at the centre, mirrored too, does not; in three designs' courts, 0.46 at least)."""


def pips_seen(card: NDArray[np.uint8], index_corners: NDArray[np.bool_]) -> int | None:
    """What a rectified card's middle says of its rank: its pips' count (2 to 10: count_pips, given the corners
    that show an index), PICTURE when it shows a picture rather than pips, None when it is unclear."""
    count = count_pips(card, index_corners)
    return count if count is not None or not _picture(card) else PICTURE


def _picture(card: NDArray[np.uint8]) -> bool:
    """Whether a card's middle shows colours in which no pip is printed (yellow, green, blue, purple: neither red
    nor black, nor a finger's skin), as seen against its paper (a light's tint taken off), mirrored as a
    double-headed court's picture is."""
    import cv2

    paper = percentiles(card[::4, ::4].reshape(-1, 3).T, (90,))[0].clip(32, None)
    left, top = round((1 - MIDDLE[0]) / 2 * CARD_W), round((1 - MIDDLE[1]) / 2 * CARD_H)
    middle = card[top:CARD_H - top, left:CARD_W - left]
    # each channel's 256 values balanced once, looked up for the middle's pixels
    balance = np.clip(np.arange(256)[:, None] * (255 / paper), 0, 255).astype(np.uint8)
    hsv = cv2.cvtColor(cv2.LUT(middle, balance[None]), cv2.COLOR_BGR2HSV)
    coloured = cv2.inRange(hsv, (HUES[0], COLOURED[0] + 1, COLOURED[1] + 1), (HUES[1], 255, 255))
    total = cv2.countNonZero(coloured)
    if total / coloured.size < PICTURE_SHARE:
        return False
    near = cv2.dilate(cv2.flip(coloured, -1), np.ones((2 * MIRRORED[1] + 1,) * 2, np.uint8))
    height, width = coloured.shape
    central = cv2.countNonZero(coloured[height // 4:height - height // 4, width // 4:width - width // 4])
    mirrored = cv2.countNonZero(cv2.bitwise_and(coloured, near)) >= MIRRORED[0] * total
    return mirrored and total - central >= PICTURE_SPREAD * total
