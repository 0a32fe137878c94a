"""Finding cards in a frame: the white-ish quadrilaterals of a playing card's shape, and each one rectified.

A card is found as a bright, unsaturated region against the table (or, on a pale table, by its edges), its
outline reduced to four corners (the perspective of a hand-held phone keeps four), its long side made upright.
Rectified, it is a `CARD_W` x `CARD_H` picture whose top left corner holds an index (or whose bottom right
does: the card may lie either way round, so the reader reads both).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

CARD_W, CARD_H = 160, 224
"""A rectified card's size in pixels: a poker card's 63 x 88 mm."""
WORK_SIDE = 480
"""Frames are searched at most this wide (and high): a phone's 12 megapixels are no better for finding a card."""
MIN_AREA, MAX_AREA = 0.006, 0.7
"""A card covers this share of the frame at least and at most."""
ASPECT = (1.15, 1.8)
"""Long side over short side, allowing for perspective: 88/63 = 1.40 seen square on."""


def find_cards(frame: NDArray[np.uint8]) -> list[NDArray[np.float32]]:
    """The cards in a BGR frame, biggest first: each as its four corners (x, y in the frame's pixels), in the
    order top left, top right, bottom right, bottom left of the card held upright (its long side vertical)."""
    import cv2

    scale = min(1.0, WORK_SIDE / max(frame.shape[:2]))
    small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else frame
    area = small.shape[0] * small.shape[1]
    candidates: list[tuple[float, NDArray[np.float32]]] = []
    for mask in _masks(small):
        contours, _ = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            if MIN_AREA * area <= cv2.contourArea(contour) <= MAX_AREA * area:
                quad = _quadrilateral(contour)
                if quad is not None:
                    candidates.append((float(cv2.contourArea(quad)), quad))
    candidates.sort(key=lambda item: -item[0])
    quads: list[NDArray[np.float32]] = []
    for _, quad in candidates:  # the biggest of overlapping ones: a card, not the frame around its picture
        if all(_overlap(quad, other) < 0.5 for other in quads):
            quads.append(quad)
    return [(quad / scale).astype(np.float32) for quad in quads]


def _masks(small: NDArray[np.uint8]) -> list[NDArray[np.uint8]]:
    """Masks of what may be cards: bright unsaturated pixels at a few thresholds (a card on a darker or coloured
    table, under uneven light), and the regions that strong edges close (a card on a pale table, or on another)."""
    import cv2

    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    white = cv2.GaussianBlur(cv2.subtract(hsv[:, :, 2], hsv[:, :, 1] // 2), (5, 5), 0)
    otsu, _ = cv2.threshold(white, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5))  # rectangles: OpenCV's quick morphology
    side = 2 * round(0.012 * max(small.shape[:2])) + 1
    wide = cv2.getStructuringElement(cv2.MORPH_RECT, (side, side))  # cuts a card loose from a glare or a pale patch
    masks = []
    for level in (otsu, otsu + 25, otsu + 50):
        if level < 250:
            _, bright = cv2.threshold(white, level, 255, cv2.THRESH_BINARY)
            opened = cv2.morphologyEx(bright, cv2.MORPH_OPEN, kernel)
            # a face card's picture may reach its edge: closing mends the white border around it
            masks += [opened, cv2.morphologyEx(bright, cv2.MORPH_OPEN, wide),
                      cv2.morphologyEx(cv2.morphologyEx(opened, cv2.MORPH_CLOSE, wide), cv2.MORPH_OPEN, wide)]
    gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    edges = cv2.dilate(cv2.Canny(gray, 40, 120), cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3)))
    masks.append(cv2.bitwise_not(edges))
    return masks


def _quadrilateral(contour: NDArray[np.int32]) -> NDArray[np.float32] | None:
    """The card's four corners from its outline, or None when the outline is not card-shaped."""
    import cv2

    hull = cv2.convexHull(contour)
    hull_area = cv2.contourArea(hull)
    if hull_area <= 0 or cv2.contourArea(contour) / hull_area < 0.85:
        return None
    for epsilon in (0.02, 0.035, 0.05, 0.075):  # four corners outlining the hull closely: a card, maybe in perspective
        approx = cv2.approxPolyDP(hull, epsilon * cv2.arcLength(hull, True), True)
        if len(approx) == 4 and 0.9 <= cv2.contourArea(approx) / hull_area <= 1.05:
            return _upright(approx.reshape(4, 2).astype(np.float32))
    (_, _), (rw, rh), _ = cv2.minAreaRect(hull)  # else a rectangle the hull fills (a corner hidden by a finger)
    if hull_area / max(rw * rh, 1) < 0.88:
        return None
    return _upright(cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32))


def _upright(quad: NDArray[np.float32]) -> NDArray[np.float32] | None:
    """The corners in order (clockwise from a corner of a short side), or None when the shape is no card's."""
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]  # clockwise in image coordinates (y down)
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    first, second = sides[0] + sides[2], sides[1] + sides[3]
    if min(first, second) <= 0 or not ASPECT[0] <= max(first, second) / min(first, second) <= ASPECT[1]:
        return None
    if first > second:  # the side from corner 0 to 1 is long: start one corner on, at a short side
        quad = np.roll(quad, -1, axis=0)
    return quad.astype(np.float32)


def _overlap(a: NDArray[np.float32], b: NDArray[np.float32]) -> float:
    """How much of the bigger quadrilateral the two share (a card and the frame round its picture: much; a card
    and a neighbour that overlaps it: little)."""
    import cv2

    inter, _ = cv2.intersectConvexConvex(a, b)
    bigger = max(cv2.contourArea(a), cv2.contourArea(b))
    return float(inter / bigger) if bigger > 0 else 0.0


def rectify(frame: NDArray[np.uint8], quad: NDArray[np.float32]) -> NDArray[np.uint8]:
    """The card inside `quad`, seen square on: CARD_W x CARD_H, BGR."""
    import cv2

    target = np.array([[0, 0], [CARD_W - 1, 0], [CARD_W - 1, CARD_H - 1], [0, CARD_H - 1]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(quad, target)
    card: NDArray[np.uint8] = cv2.warpPerspective(frame, matrix, (CARD_W, CARD_H), flags=cv2.INTER_AREA,
                                                   borderMode=cv2.BORDER_REPLICATE)
    return card
