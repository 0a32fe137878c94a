"""Photographs made from renders: a card (or several) on a table under a room's light, as a phone or the board's
camera would take it. Tables are drawn here (wood grain, cloth, laminate), never taken from photographs.

`scene` makes a whole frame (what the reader is measured on); `card_view` only the rectified card a found card
would become, with the same photographic faults and the small errors of finding its corners (what training
learns from: a hundred times quicker than whole frames).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from companion.vision.find import CARD_H, CARD_W

if TYPE_CHECKING:
    from numpy.typing import NDArray

Image = "NDArray[np.uint8]"
FRAME = (480, 640)


def table(rng: np.random.Generator, height: int, width: int) -> NDArray[np.uint8]:
    """A table top, BGR: wood grain, cloth (felt or a tablecloth's weave), or laminate."""
    import cv2

    kind = rng.choice(["wood", "cloth", "laminate", "dark"], p=[0.4, 0.3, 0.2, 0.1])
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, np.pi)
    u = x * np.cos(angle) + y * np.sin(angle)
    v = -x * np.sin(angle) + y * np.cos(angle)
    noise = cv2.resize(rng.normal(0, 1, (height // 16 + 2, width // 16 + 2)).astype(np.float32), (width, height),
                       interpolation=cv2.INTER_CUBIC)
    if kind == "wood":  # grain along the boards: rings stretched long, waving a little, fine streaks, seams
        slow = cv2.resize(rng.normal(0, 1, (6, 6)).astype(np.float32), (width, height), interpolation=cv2.INTER_CUBIC)
        rings = np.sin(2 * np.pi * (v / rng.uniform(8, 25) + 0.6 * slow + 0.002 * u))
        streaks = cv2.GaussianBlur(rng.normal(0, 1, (height, width)).astype(np.float32), (0, 0), 0.7)
        board = rng.uniform(60, 160)
        seams = (np.abs((v % board) - board / 2) > board / 2 - 1.2).astype(np.float32)
        base = np.array([rng.uniform(20, 90), rng.uniform(50, 130), rng.uniform(90, 200)], dtype=np.float32)
        light = (0.82 + 0.12 * rings + 0.05 * streaks - 0.35 * seams)[..., None]
    elif kind == "cloth":
        base = rng.uniform(20, 200, 3).astype(np.float32)
        period = rng.uniform(2, 5)
        weave = 0.08 * np.sin(u * np.pi / period) * np.sin(v * np.pi / period)
        light = 0.9 + weave[..., None] + 0.06 * noise[..., None] + 0.06 * rng.normal(0, 1, (height, width, 1))
    elif kind == "laminate":
        grey = rng.uniform(130, 235)
        base = np.array([grey * rng.uniform(0.85, 1), grey * rng.uniform(0.9, 1), grey], dtype=np.float32)
        light = 0.97 + 0.02 * noise[..., None] + 0.02 * rng.normal(0, 1, (height, width, 1))
    else:
        base = rng.uniform(10, 60, 3).astype(np.float32)
        light = 1 + 0.1 * noise[..., None] + 0.08 * rng.normal(0, 1, (height, width, 1))
    top: NDArray[np.uint8] = np.clip(base * light, 0, 255).astype(np.uint8)
    return top


def _over(back: NDArray[np.float32], rgba: NDArray[np.uint8], matrix: NDArray[np.float64]) -> None:
    """Paint a BGRA picture onto `back` (float BGR) through a perspective matrix."""
    import cv2

    height, width = back.shape[:2]
    warped = cv2.warpPerspective(rgba, matrix, (width, height), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0)).astype(np.float32)
    alpha = warped[:, :, 3:4] / 255.0
    back *= 1 - alpha
    back += warped[:, :, :3] * alpha


def _finger(rng: np.random.Generator, back: NDArray[np.float32], at: NDArray[np.float64],
            outward: NDArray[np.float64], width: float) -> None:
    """A finger (a skin-coloured, shaded, round-tipped band) reaching over a card's edge at `at`, from the
    direction `outward` (away from the card)."""
    import cv2

    skin = np.array([rng.uniform(60, 150), rng.uniform(90, 180), rng.uniform(140, 235)], dtype=np.float32)
    direction = outward / max(float(np.linalg.norm(outward)), 1e-6)
    tip = at - direction * width * rng.uniform(0.2, 0.8)
    end = tip + direction * width * 8
    mask = np.zeros(back.shape[:2], np.float32)
    cv2.line(mask, (int(tip[0]), int(tip[1])), (int(end[0]), int(end[1])), 1.0, max(2, int(width)))
    cv2.circle(mask, (int(tip[0]), int(tip[1])), max(1, int(width / 2)), 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), 1.5)
    shadow = cv2.GaussianBlur(np.roll(mask, (4, 3), axis=(0, 1)), (0, 0), 4)
    mask = mask[..., None]
    back *= 1 - 0.35 * shadow[..., None]
    back *= 1 - mask
    back += skin * rng.uniform(0.75, 1.0) * mask


def _light(rng: np.random.Generator, image: NDArray[np.float32]) -> NDArray[np.float32]:
    """Room light: brightness, a gradient across the frame, white balance, sometimes a glare spot."""
    import cv2

    height, width = image.shape[:2]
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    gx, gy = rng.normal(0, 0.35, 2)
    gradient = 1 + (gx * (x / width - 0.5) + gy * (y / height - 0.5))
    balance = np.array([rng.uniform(0.75, 1.1), rng.uniform(0.9, 1.05), rng.uniform(0.9, 1.2)], np.float32)
    image = image * (rng.uniform(0.55, 1.15) * gradient)[..., None] * balance
    if rng.random() < 0.25:  # glare from a lamp
        spot = np.zeros((height, width), np.float32)
        cv2.circle(spot, (int(rng.uniform(0, width)), int(rng.uniform(0, height))),
                   int(rng.uniform(0.05, 0.2) * width), 1.0, -1)
        spot = cv2.GaussianBlur(spot, (0, 0), width * 0.04)
        image = image + rng.uniform(60, 160) * spot[..., None]
    return image


def _camera(rng: np.random.Generator, image: NDArray[np.float32]) -> NDArray[np.uint8]:
    """The camera's faults: blur (focus or a shaking hand), sensor noise, JPEG."""
    import cv2

    if rng.random() < 0.6:
        sigma = rng.uniform(0.3, 1.6)
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    if rng.random() < 0.2:  # motion
        length = int(rng.integers(3, 7))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
        image = cv2.filter2D(image, -1, cv2.warpAffine(kernel, rot, (length, length)))
    image = image + rng.normal(0, rng.uniform(1, 7), image.shape).astype(np.float32)
    out: NDArray[np.uint8] = np.clip(image, 0, 255).astype(np.uint8)
    _, jpeg = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(45, 95))])
    return np.asarray(cv2.imdecode(jpeg, cv2.IMREAD_COLOR), dtype=np.uint8)


def to_bgra(rgba: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """A render (RGBA) in OpenCV's channel order."""
    return np.ascontiguousarray(rgba[:, :, [2, 1, 0, 3]])


def _placement(rng: np.random.Generator, card: NDArray[np.uint8], centre: tuple[float, float], height: float,
               tilt: float) -> tuple[NDArray[np.float64], NDArray[np.float32]]:
    """A perspective matrix putting the card at `centre`, `height` pixels tall, turned any way and tilted as a
    hand-held camera sees it; and the card's corners where they land."""
    import cv2

    h, w = card.shape[:2]
    source = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    scale = height / h
    angle = rng.uniform(0, 2 * np.pi)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    corners = (source - [w / 2, h / 2]) * scale @ rot.T
    corners += rng.normal(0, tilt * height, corners.shape)  # the perspective of a camera not square on
    target = (corners + centre).astype(np.float32)
    return cv2.getPerspectiveTransform(source, target).astype(np.float64), target


def _covered(under: NDArray[np.float32], over: NDArray[np.float32]) -> float:
    """How much of the card `under` the card `over` covers."""
    import cv2

    inter, _ = cv2.intersectConvexConvex(cv2.convexHull(under), cv2.convexHull(over))
    return float(inter) / max(float(cv2.contourArea(under)), 1.0)


def scene(rng: np.random.Generator, cards: list[NDArray[np.uint8]],
          careful: bool = False) -> tuple[NDArray[np.uint8], list[NDArray[np.float32]]]:
    """A 640x480 photograph of the cards (BGRA renders) on a table: the first whole and in view, the others
    (neighbouring cards) anywhere, maybe overlapping it a little at the far side from its index. Returns the
    frame (BGR) and each card's corners in it."""
    height, width = FRAME
    back = table(rng, height, width).astype(np.float32)
    placed: list[NDArray[np.float32]] = []
    for n, card in enumerate(cards):
        size = rng.uniform(0.35, 0.8) * height if n == 0 else rng.uniform(0.3, 0.8) * height
        margin = size * 0.5
        for _ in range(20):  # a neighbour may touch the first card but not cover its index
            if n == 0:
                centre = (rng.uniform(margin, width - margin), rng.uniform(margin, height - margin))
            else:
                centre = (rng.uniform(0, width), rng.uniform(0, height))
            matrix, corners = _placement(rng, card, centre, size, rng.uniform(0, 0.06))
            inside = bool((corners >= 2).all() and (corners < [width - 2, height - 2]).all())
            if (n == 0 and inside) or (n > 0 and _covered(placed[0], corners) < 0.04):
                break
        else:
            continue
        shadow = card.copy()
        shadow[:, :, :3] = 0
        shadow[:, :, 3] = (shadow[:, :, 3] * rng.uniform(0.1, 0.35)).astype(np.uint8)
        offset = np.eye(3)
        offset[:2, 2] = rng.normal(0, 3, 2)
        _over(back, shadow, offset @ matrix)
        _over(back, card, matrix)
        placed.append(corners)
        if n == 0 and not careful and rng.random() < 0.3:  # held by a finger on an edge, away from the corners
            edge = int(rng.integers(4))
            share = rng.uniform(0.35, 0.65)
            at = corners[edge] * share + corners[(edge + 1) % 4] * (1 - share)
            _finger(rng, back, at.astype(np.float64), (at - corners.mean(axis=0)).astype(np.float64), size * 0.12)
    return _camera(rng, _light(rng, back)), placed


def card_view(rng: np.random.Generator, card: NDArray[np.uint8], turned: bool = False) -> NDArray[np.uint8]:
    """The rectified card (CARD_W x CARD_H, BGR) that finding this card in a photograph would give: the card
    seen at a random size, with its corners found a little off, in a room's light, through a camera."""
    import cv2

    h, w = card.shape[:2]
    seen_height = rng.uniform(90, 330)  # its height in the frame, pixels
    pad = 12
    source = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    error = rng.normal(0, rng.uniform(0.005, 0.025), (4, 2)) * [w, h]  # corners found a little off
    target = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)
    small = seen_height / CARD_H
    frame_target = (target * small + pad).astype(np.float32)
    matrix = cv2.getPerspectiveTransform(source + error.astype(np.float32), frame_target)
    fw, fh = int(CARD_W * small) + 2 * pad, int(CARD_H * small) + 2 * pad
    back = table(rng, fh, fw).astype(np.float32)
    _over(back, card, matrix.astype(np.float64))
    if rng.random() < 0.15:  # a finger near a corner
        corner = frame_target[int(rng.integers(4))].astype(np.float64)
        centre = frame_target.mean(axis=0).astype(np.float64)
        at = corner + (centre - corner) * rng.uniform(0.1, 0.3) * [1, 0] if rng.random() < 0.5 else (
            corner + (centre - corner) * rng.uniform(0.1, 0.3) * [0, 1])
        _finger(rng, back, at, at - centre, seen_height * 0.1)
    photo = _camera(rng, _light(rng, back))
    unwarp = cv2.getPerspectiveTransform(frame_target, target)
    view: NDArray[np.uint8] = cv2.warpPerspective(photo, unwarp, (CARD_W, CARD_H), flags=cv2.INTER_LINEAR,
                                                  borderMode=cv2.BORDER_REPLICATE)
    return view[::-1, ::-1].copy() if turned else view
