"""Finding cards in a frame: the quadrilaterals of a playing card's shape whose four sides are edges, and each one
rectified.

Regions that may be cards come from a few masks (bright, unsaturated pixels against the table; the regions that
strong edges close, for a card on a pale table or on another; when none of those holds a card, the regions faint
edges close). Each region's convex hull gives four sides (its longest: a rounded corner, or one hidden by a finger
or a neighbour, is left out), and each side is then moved onto the edge the frame shows along it (looked for farther
off when none lies near: a finger, a glare or a neighbour joined to the region pulls its hull off the card), fitted
as a straight line. A region is a card when most of its outline lies on such edges; the corners are where the fitted
sides meet (the card's own corners, not a rounded corner's arc). A card-shaped part of a court card (a line across
its picture for a side) is completed beyond that line; of two candidates one inside the other, the one round gives
way when a side of it lies beyond the card (no margin inside it). The masks are made one after another until every
bright region is a card or a card's shape the frame cuts off; when none explains the frame, the regions that edges
close around a card and a neighbour or a finger are opened (what is narrower than the card cut off). Two solid pale
pieces each with a margin where they meet (tiles) are not joined as one card. A card found at its printed border
line (on a table nearly as pale as it, the line is the stronger edge) is grown to the edge that lies round it an
even band off. A side a glare washes out (no edge at all) is placed from the three others and a card's proportions;
an outline the edges leave open at a glared corner is tried as the rectangle round it. A region reaching the frame's
edge is looked into for a card wholly in view: with a finger or a glare's beam from beyond the frame cut off where
it meets the frame, or as its core (a card touching a neighbour that the frame cuts off). A region bigger than a
card (a table as pale as the cards) sends the search through every mask; a quadrilateral round two cards side by
side gives way to them. Rectified, a card is a `CARD_W` x `CARD_H` picture whose top left corner holds an index (or
whose bottom right does: the card may lie either way round, so the reader reads both).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

CARD_W, CARD_H = 160, 224
"""A rectified card's size in pixels: a poker card's 63 x 88 mm."""
MASK_SIDE, FIT_SIDE = 480, 640
"""Regions that may be cards are looked for in the frame made at most MASK_SIDE wide (and high), their sides fitted
at most FIT_SIDE wide: a phone's 12 megapixels are no better for finding a card."""
SMALLEST = 32
"""A frame's shorter side, in the masks' pixels, under which it holds no card whose index could be read."""
MIN_AREA, MAX_AREA = 0.02, 0.7
"""A card covers this share of the frame at least and at most."""
PIECE = 0.008
"""A bright region this share of the frame or more may be part of a card that a court picture cuts in two."""
ASPECT = (1.05, 2.1)
"""Long side over short side, allowing for perspective: 88/63 = 1.40 seen square on."""
EDGE, FAINT = 6.0, 3.0
"""The least change of brightness across a card's side, in grey levels a pixel, for it to count as an edge; and
across one of its sides, when the other three are edges."""
SUPPORTED = 0.6
"""A card's outline lies on edges for at least this share of its length (a finger or a neighbour hides a little)."""
SIDE = 0.4
"""And each of its sides for at least this share."""
REACH, WIDE = 0.04, 0.09
"""How far from a rough side its edge is looked for, as a share of the card's size (the square root of its area);
and, when that finds no card, how far once more (a rough side pulled off the card's by a finger, a glare or a
neighbour joined to its region), the card found so then fitted again as near as before."""
BETTER = 0.1
"""A card lies on edges for this share of its outline more than a quadrilateral round it with a side beyond it."""
AFAR_SUPPORTED = 0.8
"""A card found from afar lies on edges for at least this share of its outline, and wholly in the frame: a stretch
of a neighbour, or of one cut off by the frame, with a picture's or a border's line for a side, would pass the
nearer test."""


def find_cards(frame: NDArray[np.uint8]) -> list[NDArray[np.float32]]:
    """The cards in a BGR frame, biggest first: each as its four corners (x, y in the frame's pixels), in the
    order top left, top right, bottom right, bottom left of the card held upright (its long side vertical)."""
    import cv2

    shorter, longer = sorted(frame.shape[:2])
    if shorter * MASK_SIDE < SMALLEST * max(longer, MASK_SIDE):
        return []  # too small or too thin a frame for a card in it to be read
    fit_scale = min(1.0, FIT_SIDE / max(frame.shape[:2]))
    scale = min(1.0, MASK_SIDE / max(frame.shape[:2]))
    gray = cv2.cvtColor(_shrink(frame, fit_scale), cv2.COLOR_BGR2GRAY)
    small = _shrink(frame, scale)
    edges = _Edges(gray)
    area = small.shape[0] * small.shape[1]
    candidates: list[tuple[float, NDArray[np.float32]]] = []
    afar: list[bool] = []  # each candidate's: fitted only from afar (WIDE)
    failed: list[NDArray[np.float32]] = []
    fitted: list[NDArray[np.float32]] = []  # the candidates in the masks' pixels

    def _fit(rough: NDArray[np.float32], afar_too: bool = True, completed: bool = False,
             guessed: bool = False) -> NDArray[np.float32] | None:
        """The candidate (in the masks' pixels) a rough quadrilateral (in view) fits onto edges as, or None;
        tried once (in another mask, the same one, or one a fitted candidate lies on, is not fitted again). One
        fitted only from afar (not tried for pieces joined: they are many, and seldom so near a card) is kept, but
        None is returned: the region is not explained yet. One `guessed` (not a region's hull) is held to what one
        found from afar is."""
        for number, other in enumerate(fitted):
            if _same(rough, other, REACH):  # fitting would bring it onto that one
                afar[number] = False
                return other
        if _cut_off(rough, small.shape) or any(_same(rough, other) for other in failed):
            return None
        fit, wide = edges.fit(rough * np.float32(fit_scale / scale), WIDE if completed else REACH), None
        if completed:  # a card completed from its part: its far side's place is rough, so looked for farther
            fit = edges.fit(fit[0]) if fit is not None else None
            if fit is not None and _beyond(fit[0], gray.shape):
                fit = None
        if fit is None and afar_too and not any(far and _same(rough, other, WIDE) for other, far in zip(
                fitted, afar, strict=True)):  # (not again where one was fitted from afar)
            wide = edges.fit(rough * np.float32(fit_scale / scale), WIDE)
            fit = edges.fit(wide[0]) if wide is not None else None
        if fit is not None and (wide is not None or guessed) and (
                fit[1] < AFAR_SUPPORTED or _beyond(fit[0], gray.shape)):
            fit = None  # found from afar, a card shows more of its outline, all in view (else: a neighbour's part)
        upright = _upright(fit[0]) if fit is not None else None
        if completed and upright is not None and (  # the cut gone: no side shows none (a side beyond the card;
                _margins(upright * np.float32(scale / fit_scale), small_gray, _NEAR) < UNMARGINED).any():
            upright = None  # looked for near the side only: deeper, a side on a line of the table reaches the card's)
        if fit is None or upright is None or _cut_off(upright, gray.shape, margin=-0.01):
            failed.append(rough)
            return None
        fitted.append(upright * np.float32(scale / fit_scale))
        afar.append(wide is not None)
        candidates.append((fit[1] * float(cv2.contourArea(upright)), upright))
        if wide is not None:
            return None
        return fitted[-1]

    def _try(rough: NDArray[np.float32], afar_too: bool = True, guessed: bool = False) -> NDArray[np.float32] | None:
        """_fit, and a card newly fitted completed if it may be a court card's part (_completed), of the cards it is
        completed as only the one on most edges kept (the others failed: not fitted again). (Not calling itself: a
        function that does is a cycle, which would keep the frame's masks until a collection.)"""
        known = len(fitted)
        found = _fit(rough, afar_too, guessed=guessed)
        if found is not None and len(fitted) > known:
            for card in _completed(found, small_gray):
                _fit(card, afar_too=False, completed=True)
            for number in _worse_completions(candidates, known + 1):
                failed.append(fitted[number])
                del candidates[number], fitted[number], afar[number]
        return found

    unexplained: list[NDArray[np.int32]] = []  # the first mask's regions no card was fitted to, yet
    joined: list[NDArray[np.int32]] = []  # the edge masks' regions that are no card: far from convex, or wholly in view
    beside: list[tuple[int, ...]] = []  # the boxes of the regions _beside_cut_off looked into
    small_gray = cv2.resize(gray, small.shape[1::-1])  # where joined pieces are looked at for a margin
    for number, (mask, bright) in enumerate(_masks(small, lambda: not candidates)):
        contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
        pieces: list[tuple[NDArray[np.int32], float, NDArray[np.float32] | None]] = []  # and each one's card
        # not a hole (the picture inside a face card's border, the table between cards)
        outer = np.flatnonzero(hierarchy[0][:, 3] < 0).tolist() if hierarchy is not None else []
        for contour in (contours[index] for index in outer):
            _, _, width, height = cv2.boundingRect(contour)
            if width * height < PIECE * area:
                continue  # a speck
            hull = cv2.convexHull(contour)
            hull_area = cv2.contourArea(hull)
            if not PIECE * area <= hull_area <= MAX_AREA * area:
                if number == 0 and hull_area > MAX_AREA * area:  # the table as pale as the cards: they may join it
                    unexplained.append(contour)
                continue
            whole = _four_sides(hull) if hull_area >= MIN_AREA * area else None
            alone = _try(whole) if whole is not None else None
            if bright:
                pieces.append((contour, hull_area, alone))
            if alone is not None or hull_area < MIN_AREA * area:
                continue
            convex = cv2.contourArea(contour) >= 0.9 * hull_area
            if number == 0 and not (convex and whole is not None and _cut_off(whole, small.shape)):
                unexplained.append(contour)  # (a card's shape that the frame cuts off is no card in view)
            for rough in _beside_cut_off(contour, small.shape, MIN_AREA * area, tried=beside):
                _try(rough, guessed=True)
            if bright and any(_try(rough) is not None for rough in _unreached(contour, small.shape)):
                continue  # (a pale finger or a glare's beam reaching in from beyond the frame: cut off; not a line)
            if not bright and not (convex and _reaches_edge(contour, small.shape)):  # opened when all else fails:
                joined.append(contour)  # a card and a neighbour or a finger that edges close as one (convex too: a
                continue  # finger's end over its corner bulges the hull; not a neighbour that the frame cuts off)
            if convex or not bright:
                continue
            depths = _depths(contour // 2)  # cards that overlap, or a finger (at half the size: a quarter the work)
            halves = _parted(*depths, MIN_AREA * area / 4)
            if all(fit is None for fit in [_try(half * np.float32(2)) for half in halves]):
                opened = _opened(*depths)  # (not parted: a finger on a card)
                if opened is not None:
                    _try(opened * np.float32(2))
        for rough in _joined(pieces, MIN_AREA * area, MAX_AREA * area, small_gray):
            _try(rough, afar_too=False)
        unexplained = _uncovered(unexplained, [quad for quad, wide in zip(fitted, afar, strict=True) if not wide])
        if candidates and not unexplained:
            break  # each bright region is a card (or cards): the other masks are for harder frames
    else:  # no mask explained every bright region: cut what edges join to a card off it (a neighbour, a finger), or
        # take the rectangle round an outline they leave open (a glare over a corner)
        for contour in joined:
            opened, boxed = _opened(*_depths(contour)), _boxed(contour)
            if opened is not None:
                _try(opened)
            if boxed is not None:
                _fit(boxed, guessed=True)
    # the best first; one fitted only from afar after the others (it may join a card to its neighbour); none round
    # a card at least half its size that it lies on fewer edges than, and showing no margin along a side (one side
    # beyond the card: a line of the table's, a neighbour's side; not a card round a part of its picture)
    areas = [max(float(cv2.contourArea(quad)), 1.0) for _, quad in candidates]
    support = [score / area for (score, _), area in zip(candidates, areas, strict=True)]
    order = sorted((number for number, (_, quad) in enumerate(candidates) if (not any(
        support[other] >= support[number] + BETTER and areas[other] >= 0.5 * areas[number]
        and _inside(inner, quad) >= 0.9 for other, (_, inner) in enumerate(candidates))
        or (_margins(fitted[number], small_gray) >= UNMARGINED).all()) and not _holds_two(
            fitted[number], [fitted[other] for other in range(len(candidates))
                             if support[other] >= support[number] + BETTER], small_gray)),
        key=lambda number: (afar[number], -candidates[number][0]))
    quads: list[NDArray[np.float32]] = []
    for quad in (candidates[number][1] for number in order):  # of overlapping ones: a card, not its index's frame
        centre = tuple(float(v) for v in quad.mean(axis=0))
        if all(_overlap(quad, other) < 0.5 and _inside(quad, other) < 0.5 and _inside(other, quad) < 0.5
               and cv2.pointPolygonTest(other, centre, False) < 0 for other in quads):
            quads.append(quad)
    for number, quad in enumerate(quads):  # a card found at a line printed inside it, grown to its edge
        grown = _grown(quad, gray, edges)  # but never onto a neighbour found (on a pale table every side is a band)
        if all(_shared(grown, other) <= _shared(quad, other) for other in quads if other is not quad):
            quads[number] = grown
    quads.sort(key=lambda quad: -float(cv2.contourArea(quad)))
    return [(quad / fit_scale).astype(np.float32) for quad in quads]


def _grown(card: NDArray[np.float32], gray: NDArray[np.uint8], edges: _Edges) -> NDArray[np.float32]:
    """The card round a quadrilateral found at its printed border line (against a pale table the line is the
    strongest edge): just outside every side, paper as pale as just inside it (the band between the line and the
    edge), and beyond it an edge all round, the same distance off each side in the card's own measure (EVEN times
    at most), BAND of its width at most. A card found at its edge shows no such band (the table darker than the
    paper, a shadow or a neighbour lies beyond some side), and nothing more is done."""
    import cv2

    from_card = cv2.getPerspectiveTransform(_UNIT, card)
    sides = np.linalg.norm(card[_NEXT] - card, axis=1)
    wide = float((sides[0] + sides[2]) / max(float(sides[1] + sides[3]), 1.0))  # its width over its height
    outward = np.array([[-1, -wide], [1, -wide], [1, wide], [-1, wide]], np.float32)

    def out(*shares: float) -> NDArray[np.float32]:
        """For each share, the card's quadrilateral with each side that share of its width farther out (in its own
        measure), all in one transform."""
        grown = _UNIT[None] + np.array(shares, np.float32)[:, None, None] * outward[None]
        quads: NDArray[np.float32] = cv2.perspectiveTransform(grown.reshape(1, -1, 2), from_card).reshape(-1, 4, 2)
        return quads

    depths = out(-0.045, -0.03, -0.015, 0.015, 0.03, 0.045)  # in and out, past the line
    points = depths[:, None] + _ALONG[None, :, None, None] * (depths[:, _NEXT] - depths)[:, None]
    x = np.clip(np.rint(points[..., 0]).astype(np.int32), 0, gray.shape[1] - 1)
    y = np.clip(np.rint(points[..., 1]).astype(np.int32), 0, gray.shape[0] - 1)
    seen = gray[y, x].astype(np.float32)  # depth x along x side
    inside, outside = seen[:3].max(axis=0), seen[3:].max(axis=0)  # (a pip, the line itself: darker)
    alike = (outside >= PALE * inside) & (inside >= PALE * outside)
    if (alike.mean(axis=0) < MARGINED).any():
        return card  # one side against the table, a neighbour or a shadow: the card's edge
    for share in BANDS:
        fit = edges.fit(out(share)[0], 0.4 * share)  # (from about half as far out to half as far again)
        if fit is None or fit[1] < AFAR_SUPPORTED or _beyond(fit[0], gray.shape):
            continue
        into = cv2.perspectiveTransform(fit[0][None], np.linalg.inv(from_card))[0]
        nearest = np.abs(into[:, None] - _UNIT[None]).sum(axis=2).argmin(axis=1)
        if len(set(nearest.tolist())) < 4:
            continue
        into = into[np.argsort(nearest)]
        bands = np.array([-(into[0, 1] + into[1, 1]) / 2 / wide, (into[1, 0] + into[2, 0]) / 2 - 1,
                          ((into[2, 1] + into[3, 1]) / 2 - 1) / wide, -(into[0, 0] + into[3, 0]) / 2], np.float32)
        grown = _upright(fit[0])
        if grown is not None and bands.min() > 0.01 and bands.max() <= EVEN * bands.min() and bands.max() <= BAND:
            return grown
    return card


BAND, EVEN = 0.3, 1.6
"""A printed border line lies at most BAND of a card's width inside its edge, the same distance off each side
within EVEN times."""
BANDS = (0.03, 0.06, 0.12, 0.24)
"""Where the edge round a card found at its border line is looked for (from about half as far to half as far again
each), as shares of its width."""
_UNIT = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
"""A card's corners in its own measure (the upright order): a distance across its long sides is a share of its
width, across its short ones of its height."""


def _uncovered(regions: list[NDArray[np.int32]], quads: list[NDArray[np.float32]]) -> list[NDArray[np.int32]]:
    """The regions (outlines) that the quadrilaterals do not cover, nine tenths at least."""
    import cv2

    if not regions:
        return []
    corners = [np.rint(quad).astype(np.int32) for quad in quads]  # (fillConvexPoly takes no offset)
    left = []
    for region in regions:  # in the box round it (a region is a fraction of the frame)
        x, y, width, height = cv2.boundingRect(region)
        inside, covered = np.zeros((2, height, width), np.uint8)
        cv2.fillPoly(inside, [region.reshape(-1, 2)], 1, offset=(-x, -y))
        for quad in corners:  # each alone (in one call, where two overlap neither would count)
            cv2.fillConvexPoly(covered, quad - np.array([x, y], np.int32), 1)
        if cv2.countNonZero(cv2.bitwise_and(inside, covered)) < 0.9 * cv2.countNonZero(inside):
            left.append(region)
    return left


def _shrink(frame: NDArray[np.uint8], scale: float) -> NDArray[np.uint8]:
    import cv2

    if scale >= 1:
        return frame
    # by less than half, linear is as good here (the masks are blurred) and four times quicker than area
    out: NDArray[np.uint8] = cv2.resize(frame, None, fx=scale, fy=scale,
                                        interpolation=cv2.INTER_LINEAR if scale > 0.5 else cv2.INTER_AREA)
    return out


def _masks(small: NDArray[np.uint8], none_yet: Callable[[], bool]) -> Iterator[tuple[NDArray[np.uint8], bool]]:
    """Masks of what may be cards, each made when asked for, and whether it is of bright pixels: bright unsaturated
    pixels at a few thresholds (a card on a darker or coloured table, under uneven light), opened wide too (which
    cuts a card loose from a glare or a pale patch beside it), and the regions that strong edges close (a card on a
    pale table, or on another), then, when `none_yet()` (no card found in the others), faint ones, and those
    thickened."""
    import cv2

    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    saturation, value = cv2.extractChannel(hsv, 1), cv2.extractChannel(hsv, 2)  # (numpy's strided views: slower)
    white = cv2.GaussianBlur(cv2.subtract(value, saturation >> 1), (5, 5), 0)
    otsu, _ = cv2.threshold(white, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    side = 2 * round(0.012 * max(small.shape[:2])) + 1
    wide = cv2.getStructuringElement(cv2.MORPH_RECT, (side, side))
    edges: list[NDArray[np.uint8]] = []  # made when first needed: the edges, what lies between them, the grey

    def canny(blurred: NDArray[np.uint8], low: int, high: int) -> NDArray[np.uint8]:
        """cv2.Canny(blurred, low, high), given its own Sobel (its border replicated): a quarter quicker."""
        dx, dy = cv2.spatialGradient(blurred, borderType=cv2.BORDER_REPLICATE)
        found: NDArray[np.uint8] = cv2.Canny(dx, dy, low, high)
        return found

    def edged() -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
        if not edges:
            gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
            edges.append(cv2.dilate(canny(cv2.GaussianBlur(gray, (3, 3), 0), 40, 120),
                                    cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))))
            edges.extend((cv2.bitwise_not(edges[0]), gray))
        return edges[0], edges[1]

    for level in (otsu, otsu + 30):
        if level < 250:
            _, bright = cv2.threshold(white, level, 255, cv2.THRESH_BINARY)
            yield bright, True
            yield cv2.bitwise_and(bright, edged()[1]), True  # cards that touch, parted by the edge of the one on top
            yield cv2.morphologyEx(bright, cv2.MORPH_OPEN, wide), True
    # the regions between edges; and the edges themselves, whose outline is a card's whose picture reaches its edge
    yield edged()[1], False
    yield edged()[0], False
    if not none_yet():
        return
    # those that faint edges close, smoothed more (a card on a table nearly as pale as it, its shadow faint)
    faint = canny(cv2.GaussianBlur(edges[2], (5, 5), 0), 10, 30)
    yield cv2.bitwise_not(cv2.dilate(faint, cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3)))), False
    if none_yet():  # and thickened, closing a gap a pixel or two wide (where a finger crosses a card's side)
        yield cv2.bitwise_not(cv2.dilate(faint, cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5)))), False


def _joined(pieces: list[tuple[NDArray[np.int32], float, NDArray[np.float32] | None]], least: float, most: float,
            gray: NDArray[np.uint8]) -> Iterator[NDArray[np.float32]]:
    """The rough quadrilaterals of bright regions near each other taken as one card: the pale margin of a card
    whose picture reaches across it (a court card's) is cut in two or four, each part a region (maybe card-shaped
    itself). Each two near each other are tried, and all that are near each other (and all but one or two); never two
    cards (two regions each card-shaped, one with a pale margin along the side where they meet, or more than
    two)."""
    import cv2

    boxes = [cv2.boundingRect(piece) for piece, _, _ in pieces]
    near = [[j for j, (bx, by, bw, bh) in enumerate(boxes) if j != i and max(bx - ax - aw, ax - bx - bw, by - ay - ah,
                                                                           ay - by - bh) <= NEAR * np.sqrt(max(
                 pieces[i][1], pieces[j][1]))] for i, (ax, ay, aw, ah) in enumerate(boxes)]
    groups: list[list[int]] = [[i, j] for i in range(len(pieces)) for j in near[i] if j > i]
    group = list(range(len(pieces)))  # each piece's group: all that are near it, or near one near it
    for i, js in enumerate(near):
        for j in js:
            old, new = group[j], group[i]
            group = [new if g == old else g for g in group]
    for g in sorted(set(group)):
        members = [i for i in range(len(pieces)) if group[i] == g]
        if len(members) > 2:  # all of them, and all but one or two (a neighbour's, a stretch of pale table, a glare)
            sizes = [len(members) - out for out, most in ((1, GROUP), (2, GROUP_TWO)) if len(members) <= most]
            groups += [members] + [list(kept) for size in sizes if size > 2
                                   for kept in itertools.combinations(members, size)]
    for members in groups:
        cards = [card for i in members if (card := pieces[i][2]) is not None]
        if len(cards) > 2 or (len(cards) == 2 and (_margined(cards[0], cards[1], gray)
                                                   or _margined(cards[1], cards[0], gray))):
            continue
        if len(members) == 2 and all(cv2.contourArea(pieces[i][0]) >= 0.9 * pieces[i][1] for i in members):
            first, second = (cv2.boxPoints(cv2.minAreaRect(pieces[i][0])).astype(np.float32) for i in members)
            if _margined(first, second, gray) and _margined(second, first, gray):
                continue  # two solid pale pieces, each with a margin where they meet (a floor's tiles), are no card
        hull = cv2.convexHull(np.vstack([pieces[i][0] for i in members]))
        if least <= cv2.contourArea(hull) <= most:
            whole = _four_sides(hull)
            if whole is not None:
                yield whole


NEAR, GROUP, GROUP_TWO = 0.7, 6, 5
"""Bright regions are near each other when the boxes round them are this much of the bigger one's size apart or
less; of a group of GROUP or fewer near each other, all but one are tried too, and of GROUP_TWO or fewer all but two
(more would be many hulls to fit on a frame of many pieces)."""


def _holds_two(quad: NDArray[np.float32], better: list[NDArray[np.float32]], gray: NDArray[np.uint8]) -> bool:
    """Whether a quadrilateral is two cards lying side by side (touching, or a corner over the other's; together
    card-shaped): two candidates that lie on more edges lie in it (nine tenths of each), overlap little, cover half
    of it together, and one shows a pale margin along the side where they meet (where a court picture cuts a card
    in two, the picture reaches the cut)."""
    import cv2

    area = float(cv2.contourArea(quad))
    inner = [other for other in better if _inside(other, quad) >= 0.9 and cv2.contourArea(other) < 0.9 * area]
    return any(_overlap(a, b) < 0.1 and cv2.contourArea(a) + cv2.contourArea(b) >= 0.5 * area
               and (_margined(a, b, gray) or _margined(b, a, gray)) for a, b in itertools.combinations(inner, 2))


def _margined(card: NDArray[np.float32], other: NDArray[np.float32], gray: NDArray[np.uint8]) -> bool:
    """Whether a card-shaped quadrilateral shows a pale margin just inside its side nearest the other one: a card's
    own side does; where a court picture cuts a card in two, the picture reaches the cut."""
    side = int(np.argmin(np.linalg.norm((card + card[_NEXT]) / 2 - other.mean(axis=0), axis=1)))
    return bool(_margins(card, gray)[side] >= MARGINED)


def _margins(card: NDArray[np.float32], gray: NDArray[np.uint8],
             depths: NDArray[np.float32] | None = None) -> NDArray[np.float32]:
    """Along how much of each side a card-shaped quadrilateral shows a pale margin just inside it (side s from
    corner s to the next), looked for at `depths` inside it (by default _DEPTHS)."""
    ends = card[_NEXT]
    along = card[:, None, :] + _ALONG[None, :, None] * (ends - card)[:, None, :]  # side x along x 2
    opposite = along[_ACROSS, ::-1]  # the points across from them on the opposite side
    depths = _DEPTHS if depths is None else depths
    inside = along[:, None] + depths[None, :, None, None] * (opposite - along)[:, None]  # side x depth x along x 2
    x = np.clip(np.rint(inside[..., 0]).astype(np.int32), 0, gray.shape[1] - 1)
    y = np.clip(np.rint(inside[..., 1]).astype(np.int32), 0, gray.shape[0] - 1)
    seen = gray[y, x].astype(np.float32)
    pale = seen >= PALE * _palest(seen)  # the card's paper: its palest margins
    margins: NDArray[np.float32] = pale.any(axis=1).mean(axis=1).astype(np.float32)
    return margins


def _palest(seen: NDArray[np.float32]) -> float:
    """The 95th percentile of grey levels seen (np.percentile's, linear between the two nearest), by a partial
    sort: a tenth of np.percentile's time."""
    flat = seen.ravel()
    at = 0.95 * (flat.size - 1)
    low = int(at)
    high = min(low + 1, flat.size - 1)
    part = np.partition(flat, (low, high))
    a, b, t = part[low], part[high], at - low
    return float(a + (b - a) * t if t < 0.5 else b - (b - a) * (1 - t))


def _completed(part: NDArray[np.float32], gray: NDArray[np.uint8]) -> Iterator[NDArray[np.float32]]:
    """The rough cards of which a card-shaped quadrilateral may be a part: a court card whose picture is cut in
    two (across its middle or corner to corner, by a line or a band as pale as the margin) is found as one part,
    three of its sides the card's (one a short side) and the fourth the cut. Such a part shows a pale margin along
    three sides and none along the cut, or only in places (a face, a collar as pale as the paper reaching it: along
    less than MARGINED of it); the card reaches beyond the cut, its long sides on from those beside the
    cut, TALL times as long as the side across from it. A card with a margin shows it along all four sides, a card
    without one along none."""
    margins = _margins(part, gray)
    for cut in range(4):
        if margins[cut] >= MARGINED or (np.delete(margins, cut) < PART_MARGINED).any():
            continue
        a, b = cut, (cut + 1) % 4  # the cut's corners, each moved along its other side from the corner across
        across_a, across_b = part[(cut + 3) % 4], part[(cut + 2) % 4]
        width = float(np.linalg.norm(across_a - across_b))
        for length in width * np.array(TALL, np.float32):
            card = part.copy()
            for corner, across in ((a, across_a), (b, across_b)):
                side = part[corner] - across
                card[corner] = across + side * np.float32(length / max(float(np.linalg.norm(side)), 1e-6))
            yield card


def _worse_completions(candidates: list[tuple[float, NDArray[np.float32]]], first: int) -> list[int]:
    """Of the cards a part was completed as (the candidates from `first` on: its cut's far side found at each length
    tried), all but the one lying on edges for most of its outline, last first: a longer one reaches a neighbour's
    side or a line of the table beyond the card, on fewer edges, and would outrank the card by its size."""
    import cv2

    support = [score / max(float(cv2.contourArea(quad)), 1.0) for score, quad in candidates[first:]]
    best = int(np.argmax(support)) if support else 0
    return [first + number for number in reversed(range(len(support))) if number != best]


TALL = (1.3, 1.5, 1.7)
"""A card's long side over its short side, a few shapes (a poker card's 1.4, a French one's 1.6) each tried: fitted
from afar (WIDE), one of these is near enough."""


PALE, MARGINED, PART_MARGINED, UNMARGINED = 0.8, 0.7, 0.6, 0.3
"""A card's margin is at least PALE of its paper's brightness along MARGINED of a side, at one depth or another (a
part's three sides, along PART_MARGINED: a finger or a glare may hide a little of one, the card completed is
fitted onto edges after); along less than UNMARGINED of a side, the side shows none (a court picture reaches it)."""
_ALONG = np.linspace(0.15, 0.85, 16, dtype=np.float32)
_DEPTHS = np.array([0.02, 0.04, 0.07], np.float32)
"""Where a side's margin is looked for: along it, and inside it (shares of the way to the opposite side)."""
_NEAR = np.array([0.01, 0.02, 0.04], np.float32)
"""And, for a card completed from its part, only near its sides: a side placed on a line of the table just beyond
the card would show the card's margin deeper in."""


def _depths(contour: NDArray[np.int32]) -> tuple[NDArray[np.float32], NDArray[np.int32]]:
    """How far each pixel of a region's box lies inside its outline (0 outside it), and where that box starts in the
    frame."""
    import cv2

    x, y, w, h = cv2.boundingRect(contour)
    region = np.zeros((h + 2, w + 2), np.uint8)
    origin = np.array([x - 1, y - 1], np.int32)
    cv2.drawContours(region, [contour - origin], -1, 255, -1)
    return cv2.distanceTransform(region, cv2.DIST_L2, 3), origin


def _opened(distance: NDArray[np.float32], origin: NDArray[np.int32]) -> NDArray[np.float32] | None:
    """The rough quadrilateral of a region (`_depths`'s) with what is much narrower than it cut off (a finger, or a
    pale strip of table, beside a card): the region opened by a disc a fraction as wide as the region is deep."""
    import cv2

    disc = _disc(distance)
    if disc is None:
        return None
    opened = cv2.compare(disc[1], disc[0], cv2.CMP_LE)
    parts, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not parts:
        return None
    biggest = max(parts, key=cv2.contourArea) + origin
    return _four_sides(cv2.convexHull(biggest))


def _disc(distance: NDArray[np.float32]) -> tuple[int, NDArray[np.float32]] | None:
    """The disc a region (`_depths`'s distance) is opened by: its radius (OPEN of the region's depth; None when under
    2 pixels) and how far each pixel lies from what the disc cannot reach the middle of (within the radius: what the
    opened region keeps; a distance transform, not a slow dilation)."""
    import cv2

    radius = int(OPEN * float(distance.max()))
    if radius < 2:
        return None
    outside = cv2.compare(distance, radius, cv2.CMP_LE)
    return radius, cv2.distanceTransform(outside, cv2.DIST_L2, 3)


def _boxed(contour: NDArray[np.int32]) -> NDArray[np.float32] | None:
    """The rough quadrilateral of a card whose outline the edges show open (a glare or a finger over a stretch of a
    side and a corner): the least rectangle round it. Its hull cuts the open corner off, and its longest sides are
    then not the card's; the rectangle runs on along the sides it does show, to the corner's place."""
    import cv2

    return _upright(cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float32))


def _unreached(contour: NDArray[np.int32], shape: tuple[int, ...]) -> list[NDArray[np.float32]]:
    """The rough quadrilateral (a list of one, or none) of a card with a finger or a glare's beam reaching onto it from
    beyond the frame: the hull of the region the two make reaches out to the frame, so it is not fitted (cut off),
    and the region is often nearly convex, so it was not opened. Cut off here: what is narrower than the card
    (`_opened`'s disc) where it meets the frame's edge, and only there (a pip or a glare may narrow the card's
    margin too). The finger meets the frame along a short stretch, and it alone does (a card cut off by the frame
    meets it along its width, or by its margin's strips and tips); the card lies wholly in view, and the finger
    crosses its side (a strip along a side is a margin's, running on to a card the frame cuts off)."""
    import cv2

    outline = contour.reshape(-1, 2)
    contact = 0
    for axis, end in ((0, 0), (0, shape[1] - 1), (1, 0), (1, shape[0] - 1)):  # how far along each edge it reaches
        along = outline[outline[:, axis] == end, 1 - axis]
        contact += int(along.max() - along.min()) + 1 if len(along) else 0
    if not 0 < contact < NARROW * np.sqrt(cv2.contourArea(contour)):
        return []
    distance, origin = _depths(contour)
    disc = _disc(distance)
    if disc is None:
        return []
    region = cv2.compare(distance, 0, cv2.CMP_GT)
    narrow = cv2.bitwise_and(region, cv2.compare(disc[1], disc[0], cv2.CMP_GT))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(narrow, connectivity=4)
    left, top = stats[:, 0] + origin[0], stats[:, 1] + origin[1]
    reaching = [label for label in range(1, count) if left[label] <= 0 or top[label] <= 0
                or left[label] + stats[label, 2] >= shape[1] or top[label] + stats[label, 3] >= shape[0]]
    if len(reaching) != 1:
        return []
    finger = labels == reaching[0]
    region[finger] = 0
    parts, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    quad = _four_sides(cv2.convexHull(max(parts, key=cv2.contourArea) + origin)) if parts else None
    if quad is None or not _clear(quad, shape, IN_VIEW):
        return []
    ends = quad[_NEXT] - quad
    normals = ends[:, ::-1] * np.array([1, -1], np.float32) / np.linalg.norm(ends, axis=1, keepdims=True)
    pixels = np.argwhere(finger)[:, ::-1].astype(np.float32) + origin.astype(np.float32)
    beside = np.abs(((pixels[:, None] - quad[None]) * normals[None]).sum(axis=2)) <= 0.5 * contact + 2
    return [quad] if beside.mean(axis=0).max() < ALONG else []


IN_VIEW, NARROW, ALONG = 0.03, 0.25, 0.7
"""A card that a finger reaches from beyond the frame lies this share of the frame's size inside its edge; the
finger meets the frame's edge along less than NARROW of the size of the card and it together, and less than ALONG of
it lies beside a side's line (within half its width)."""


OPEN = 0.45
"""A region is opened by a disc whose radius is this share of its depth (the most any of its pixels lies from its
outline: half a card's width): what is narrower than the disc goes (a finger is about a third of the depth wide)."""


def _parted(distance: NDArray[np.float32], origin: NDArray[np.int32], least: float,
            alone: bool = False) -> list[NDArray[np.float32]]:
    """The quadrilaterals of cards that overlap a little and make one region (`_depths`'s; no edge between them):
    the region's cores (what lies far from its outline: each card's middle, a smaller rectangle), each widened back
    by as much as it was shrunk. With `alone`, a single core too: a card joined to a strip of a neighbour (cut off by
    the frame, or touching it) makes one region whose only core is the card's."""
    import cv2

    depth = 0.5 * float(distance.max())
    if depth < 3:
        return []
    cores, _ = cv2.findContours(cv2.compare(distance, depth, cv2.CMP_GT), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    quads = []
    for core in cores if len(cores) > 1 or alone else []:
        (cx, cy), (cw, ch), angle = cv2.minAreaRect(core)
        if (cw + 2 * depth) * (ch + 2 * depth) >= least:
            box = cv2.boxPoints(((cx + int(origin[0]), cy + int(origin[1])), (cw + 2 * depth, ch + 2 * depth), angle))
            quad = _upright(box.astype(np.float32))
            if quad is not None:
                quads.append(quad)
    return quads


def _four_sides(hull: NDArray[np.int32]) -> NDArray[np.float32] | None:
    """A quadrilateral from a region's convex hull: the lines through its four longest sides (in their order round
    the hull), met; None when they make no card-shaped quadrilateral the hull fills."""
    import cv2

    approx = cv2.approxPolyDP(hull, 0.015 * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(np.float32)
    if len(approx) < 4:
        return None
    ends = np.concatenate((approx[1:], approx[:1]))
    step = ends - approx
    longest = np.sort(np.argsort(-np.sqrt((step * step).sum(axis=1)))[:4])
    lines = [(approx[i], ends[i]) for i in longest]
    corners = [_meet(lines[i - 1], lines[i]) for i in range(4)]
    if any(corner is None for corner in corners):
        return None
    quad = np.array(corners, dtype=np.float32)
    quad_area, hull_area = cv2.contourArea(quad), cv2.contourArea(hull)
    if not 0.75 * quad_area <= hull_area <= 1.15 * quad_area or not cv2.isContourConvex(quad.astype(np.int32)):
        return None
    return quad if _upright(quad) is not None else None


def _meet(a: tuple[NDArray[np.float32], NDArray[np.float32]],
          b: tuple[NDArray[np.float32], NDArray[np.float32]]) -> NDArray[np.float32] | None:
    """Where the line through the points a meets the line through the points b (None: nearly parallel)."""
    da, db = a[1] - a[0], b[1] - b[0]
    cross = float(da[0] * db[1] - da[1] * db[0])
    if abs(cross) < 0.2 * float(np.sqrt(da.dot(da)) * np.sqrt(db.dot(db))):  # under about 12 degrees apart
        return None
    t = float((b[0][0] - a[0][0]) * db[1] - (b[0][1] - a[0][1]) * db[0]) / cross
    point: NDArray[np.float32] = (a[0] + t * da).astype(np.float32)
    return point


class _Edges:
    """The frame's brightness gradients, and the fitting of a rough quadrilateral's sides onto them."""

    SAMPLES = 24
    """Points along each side (its middle, away from a rounded corner) where the edge is looked for."""
    _SHARES = np.linspace(0.12, 0.88, SAMPLES, dtype=np.float32)
    """Where along a side they lie, as shares of it."""

    def __init__(self, gray: NDArray[np.uint8]) -> None:
        import cv2

        # Sobel's 3 x 3 (eight times the change a pixel), read only where a side is looked for
        gx, gy = cv2.spatialGradient(cv2.GaussianBlur(gray, (3, 3), 0))
        self.gx, self.gy = gx.ravel(), gy.ravel()  # read by each pixel's place in the row-major frame
        self.height, self.width = gray.shape
        self.gray = gray

    def fit(self, rough: NDArray[np.float32], reach_share: float = REACH) -> tuple[NDArray[np.float32], float] | None:
        """The quadrilateral whose sides lie on the edges near `rough`'s (within `reach_share` of its size), and the
        share of its outline that does; None when less than SUPPORTED of it does."""
        import cv2

        reach = max(3.0, reach_share * float(np.sqrt(abs(_area(rough)))))
        offsets = np.arange(-reach, reach + 0.5, 1.0, dtype=np.float32)
        ends = rough[_NEXT]
        along = ends - rough  # side x 2
        normal = along[:, ::-1] * np.array([1, -1], np.float32) / np.maximum(
            np.sqrt((along * along).sum(axis=1, keepdims=True)), 1e-6)  # (np.linalg.norm's sum, without its checks)
        normal *= np.where((normal * ((rough + ends) / 2 - rough.mean(axis=0))).sum(axis=1) < 0, -1, 1)[:, None]  # out
        points = rough[:, None, :] + self._SHARES[None, :, None] * along[:, None, :]  # side x samples x 2
        # where the edge is looked for: side x samples x offsets, each coordinate apart (quicker than together)
        x = np.rint(points[:, :, None, 0] + offsets[None, None, :] * normal[:, None, None, 0]).astype(np.int32)
        y = np.rint(points[:, :, None, 1] + offsets[None, None, :] * normal[:, None, None, 1]).astype(np.int32)
        beyond = (x < 0) | (x >= self.width) | (y < 0) | (y >= self.height)  # no edge of the card's lies there
        place = np.clip(y, 0, self.height - 1) * self.width + np.clip(x, 0, self.width - 1)
        # a card is paler than what lies beyond its edge (on a pale table: its shadow; with a printed border: the
        # border, inside which the card is found); a pip, an index, a face's picture are darker
        darkening = -(self.gx[place] * normal[:, None, None, 0] + self.gy[place] * normal[:, None, None, 1]) / 8
        darkening[beyond] = 0
        best = darkening.argmax(axis=2)  # side x samples
        change = darkening.max(axis=2)
        on_edge = points + offsets[best][:, :, None] * normal[:, None, :]
        # one side may show a fainter edge (against a pale table, under a glare): the lines at either least change
        strong = change[None] >= np.array([EDGE, FAINT], np.float32)[:, None, None]  # least x side x samples
        if self._hopeless(strong[1], points):
            return None
        kept, found = _robust_lines(on_edge, strong)
        lines: list[tuple[NDArray[np.float32], NDArray[np.float32]]] = []
        supported, faint, lost = 0, 0, -1
        for side in range(4):
            for level in range(2):
                if found[level, side]:
                    point, direction = _line(on_edge[side][kept[level, side]])
                    distance = np.abs((on_edge[side] - point) @ np.array([direction[1], -direction[0]], np.float32))
                    count = int(np.count_nonzero(strong[level, side] & (distance <= 1.5)))
                    if count >= SIDE * self.SAMPLES:
                        break
                if level or faint:
                    if lost >= 0 or faint or self._dim(points[side]):
                        return None
                    lost = side  # lost in a glare: placed from the others (counting for none, so they lie on edges
                    # along 0.8 of them)
                    break
            if lost == side:
                lines.append(lines[-1] if lines else (rough[0], rough[1]))  # (a stand-in until it is placed)
                continue
            faint += level
            supported += count
            lines.append((point, point + direction))
        support = supported / (4 * self.SAMPLES)
        if support < SUPPORTED:
            return None
        if lost >= 0:
            placed = None if faint else self._glared(rough, lines, lost, on_edge, strong[0])
            if placed is None:
                return None
            lines[lost] = placed
        corners = [_meet(lines[i - 1], lines[i]) for i in range(4)]
        if any(corner is None for corner in corners):
            return None
        quad = np.array(corners, dtype=np.float32)
        # (a side lost in a glare: the rough corners at its ends may lie anywhere, where the glared region ended)
        moved = quad - rough if lost < 0 else (quad - rough)[[lost - 1, (lost + 2) % 4]]
        if np.abs(moved).max() > 2 * reach or not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
            return None
        return quad, support

    def _hopeless(self, faint: NDArray[np.bool_], points: NDArray[np.float32]) -> bool:
        """Whether a rough quadrilateral cannot fit, whatever lines its edge points make (`faint`: side x samples,
        the points that change at least FAINT): a side with fewer such points than SIDE asks for is lost at best,
        and one side at most may be, in a glare (not `_dim`), with the others on edges along SUPPORTED of the
        outline. Most rough quadrilaterals that are no card end here, before their lines are fitted."""
        counts = faint.sum(axis=1)
        weak = counts < SIDE * self.SAMPLES
        if not weak.any():
            return bool(counts.sum() < SUPPORTED * 4 * self.SAMPLES)
        side = int(weak.argmax())
        return bool(weak.sum() > 1 or counts.sum() - counts[side] < SUPPORTED * 4 * self.SAMPLES
                    or self._dim(points[side]))

    def _dim(self, points: NDArray[np.float32]) -> bool:
        """Whether no glare lies along a rough side (its points): less than UNGLARED of them white (quicker than
        placing the side, which most rough sides without an edge would be)."""
        x = np.clip(np.rint(points[:, 0]).astype(np.int32), 0, self.width - 1)
        y = np.clip(np.rint(points[:, 1]).astype(np.int32), 0, self.height - 1)
        return bool(np.count_nonzero(self.gray[y, x] >= GLARE) < UNGLARED * len(points))

    def _glared(self, rough: NDArray[np.float32], lines: list[tuple[NDArray[np.float32], NDArray[np.float32]]],
                lost: int, on_edge: NDArray[np.float32],
                strong: NDArray[np.bool_]) -> tuple[NDArray[np.float32], NDArray[np.float32]] | None:
        """The side of a card that a glare washes out (no edge along it: the paper and the table beyond it both
        white), placed from the three others (`lines`, each two points on it) and a card's shape: its ends as far
        from the side across from it as a card's proportions make (POKER; the sides beside it long when the rough
        quadrilateral's are). None unless the glare lies there (GLARE) and not where the other proportion would
        place it (a glare over a card's end, which may be either: the card's long side or its short one), nor when
        an edge of a side beside it (`on_edge` where `strong`: each side's points) runs on beyond it (the card is
        longer: the rough quadrilateral's proportions were a finger's or a glare's)."""
        across = (lost + 2) % 4
        start, stop = _meet(lines[lost - 1], lines[across]), _meet(lines[across], lines[(lost + 1) % 4])
        if start is None or stop is None:
            return None
        ends = (start, stop)
        sides = np.linalg.norm(rough[_NEXT] - rough, axis=1)
        width = float(np.linalg.norm(ends[1] - ends[0]))
        long = sides[lost] + sides[across] < sides[lost - 1] + sides[(lost + 1) % 4]
        directions, edged = [], 0.0  # how far from the side across the sides beside it show an edge
        for end, side, toward in ((ends[0], (lost + 3) % 4, rough[lost]),
                                  (ends[1], (lost + 1) % 4, rough[(lost + 1) % 4])):
            step = lines[side][1] - lines[side][0]
            direction = step / max(float(np.linalg.norm(step)), 1e-6)
            direction *= 1 if float(direction @ (toward - end)) > 0 else -1
            directions.append(direction)
            from_end = on_edge[side] - end
            lying = np.abs(from_end @ np.array([direction[1], -direction[0]], np.float32)) <= 1.5
            edged = max(edged, float((from_end @ direction)[strong[side] & lying].max(initial=0.0)))

        def glare(reach: float) -> tuple[NDArray[np.float32], NDArray[np.float32], float]:
            """The side placed `reach` from the one across, and along how much of it a glare lies on both sides of it
            (none beyond the frame)."""
            first, second = ((end + reach * direction).astype(np.float32) for end, direction in zip(
                ends, directions, strict=True))
            along = second - first
            normal = along[::-1] * np.array([1, -1], np.float32) / max(float(np.linalg.norm(along)), 1e-6)
            points = first + self._SHARES[:, None] * along
            seen = []
            for offset in (-GLARE_DEPTH, GLARE_DEPTH):  # both sides of it
                x, y = np.rint(points + offset * width * normal).astype(np.int32).T
                if (x < 0).any() or (x >= self.width).any() or (y < 0).any() or (y >= self.height).any():
                    return first, second, 0.0
                seen.append(self.gray[y, x])
            return first, second, np.count_nonzero((seen[0] >= GLARE) & (seen[1] >= GLARE)) / self.SAMPLES

        reach, other = (width * POKER, width / POKER) if long else (width / POKER, width * POKER)
        if reach < edged - 1.5 or glare(other)[2] >= UNGLARED:
            return None
        first, second, white = glare(reach)
        return (first, second) if white >= GLARED else None


POKER, GLARE, GLARE_DEPTH, GLARED, UNGLARED = 1.4, 240, 0.03, 0.8, 0.5
"""A card's side lost in a glare is placed as far from the one across from it as a poker card's 88 / 63 make; the
glare lies there when the frame is at least GLARE grey on either side of it (GLARE_DEPTH of the card's width off)
along GLARED of it (a card's white paper with pips on it is not: the pips are darker), and not where the other
proportion would place the side when along UNGLARED of that."""


def _robust_lines(points: NDArray[np.float32],
                  chosen: NDArray[np.bool_]) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """Of each side's points (side x n x 2) and each choice of them (choice x side x n): those within a pixel and a
    half of the line through the pair of chosen points that most chosen points lie that near (the others are where
    a finger or a neighbour's edge was found instead of the card's) (choice x side x n); and whether six do at
    least (choice x side). The pairs are tried in _PAIRS' order, the first of the best kept."""
    first, second = _PAIRS
    x, y = points[:, :, 0], points[:, :, 1]
    x0, y0 = x[:, first], y[:, first]
    nx, ny = y[:, second] - y0, x0 - x[:, second]  # each pair's line's normal
    length = np.maximum(np.sqrt(nx * nx + ny * ny), 1e-6)
    normal = np.stack([nx / length, ny / length], axis=2)
    distance = normal @ points.transpose(0, 2, 1)
    distance -= (normal[..., 0] * x0 + normal[..., 1] * y0)[..., None]
    near = np.abs(distance, out=distance) <= 1.5  # side x pair x point
    lying = (near.astype(np.float32) @ chosen[..., None].astype(np.float32))[..., 0]  # choice x side x pair
    lying[~(chosen[..., first] & chosen[..., second])] = -1  # (a pair not both chosen: none)
    keep = near[_SIDES, lying.argmax(axis=2)] & chosen
    found = (chosen.sum(axis=2) >= 6) & (keep.sum(axis=2) >= 6)
    return keep, found


def _line(kept: NDArray[np.float32]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """The line (a point on it, its unit direction) fitted to points: through their centre, along their greatest
    spread."""
    centre = kept.sum(axis=0) / len(kept)  # (np.mean's, without its checks)
    dx, dy = (kept - centre).T
    angle = 0.5 * np.arctan2(2 * float(dx @ dy), float(dx @ dx - dy @ dy))
    return centre.astype(np.float32), np.array([np.cos(angle), np.sin(angle)], np.float32)


_PAIRS = np.stack(np.triu_indices(_Edges.SAMPLES, 1))
_PAIRS = _PAIRS[:, np.argsort(_PAIRS[1], kind="stable")]
"""Each pair of points along a side, those of the first n points first: of pairs as good, the first is kept."""
_NEXT, _ACROSS, _SIDES = np.array([1, 2, 3, 0]), np.array([2, 3, 0, 1]), np.arange(4)
"""Each corner's next and the one across from it (quicker than np.roll), and the sides, for indexing."""


def _area(quad: NDArray[np.float32]) -> float:
    """A quadrilateral's area (signed: positive clockwise in the frame), half the cross product of its diagonals."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = quad.tolist()
    return float(0.5 * ((x2 - x0) * (y3 - y1) - (y2 - y0) * (x3 - x1)))


def _same(a: NDArray[np.float32], b: NDArray[np.float32], share: float = 0.02) -> bool:
    """Whether two rough quadrilaterals are the same one (found in another mask): each corner within a pixel or two
    (a few in a big one)."""
    near = max(2.0, share * float(np.sqrt(abs(_area(b)))))
    if float(np.abs(a.mean(axis=0) - b.mean(axis=0)).max()) > near:
        return False
    distance = float(np.abs(a[:, None] - b[None]).max(axis=2).min(axis=1).max())  # each corner's nearest in b
    return distance <= near


def _upright(quad: NDArray[np.float32]) -> NDArray[np.float32] | None:
    """The corners in order (clockwise from a corner of a short side), or None when the shape is no card's."""
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]  # clockwise in image coordinates (y down)
    step = quad[_NEXT] - quad
    sides = np.sqrt((step * step).sum(axis=1))
    first, second = sides[0] + sides[2], sides[1] + sides[3]
    if min(first, second) <= 0 or not ASPECT[0] <= max(first, second) / min(first, second) <= ASPECT[1]:
        return None
    if first > second:  # the side from corner 0 to 1 is long: start one corner on, at a short side
        quad = quad[_NEXT]
    return quad.astype(np.float32)


def _inside(small: NDArray[np.float32], big: NDArray[np.float32]) -> float:
    """How much of the quadrilateral `small` lies inside `big`."""
    import cv2

    inter, _ = cv2.intersectConvexConvex(small, big)
    area = cv2.contourArea(small)
    return float(inter / area) if area > 0 else 1.0


def _cut_off(quad: NDArray[np.float32], shape: tuple[int, ...], margin: float = 0.01) -> bool:
    """Whether two corners or more lie within `margin` (a share of the frame's size) of the frame's edge, or
    beyond it: a card cut off by the frame (its outline there is the frame's, not the card's), or a stretch of the
    table. A fitted card's sides lie on edges the frame shows, so only its corners beyond the frame tell that it
    is cut off (a negative margin): a whole card's corners may come within a few pixels of the frame's edge."""
    height, width = shape[:2]
    margin = margin * max(height, width)
    on_edge = (quad[:, 0] <= margin) | (quad[:, 0] >= width - 1 - margin) | (quad[:, 1] <= margin) | (
        quad[:, 1] >= height - 1 - margin)
    return int(on_edge.sum()) >= 2


def _beside_cut_off(region: NDArray[np.int32], shape: tuple[int, ...], least: float, *,
                    tried: list[tuple[int, ...]]) -> list[NDArray[np.float32]]:
    """The rough card in a region that reaches the frame's edge when a card wholly in view lies in it: a neighbour
    running out of the frame that touches the card makes one region with it (taken for the neighbour alone when
    card-shaped). The card is the region's core widened back (`_parted`), clear of the frame's edge (the
    neighbour's own core reaches it); a guess, so fitted as one (on edges for AFAR_SUPPORTED of its outline: a
    glare joined to a card makes a core reaching over the glare). A region whose box is within two pixels of one in
    `tried` (the same region in another mask) is not looked into again, and its box is added."""
    import cv2

    if not _reaches_edge(region, shape):
        return []
    box = cv2.boundingRect(region)
    if any(max(abs(a - b) for a, b in zip(box, other, strict=True)) <= 2 for other in tried):
        return []
    tried.append(box)
    cores = (half * np.float32(2) for half in _parted(*_depths(region // 2), least / 4, alone=True))  # (at half
    return [rough for rough in cores if _clear(rough, shape)]  # the size: a quarter of the work)


def _reaches_edge(region: NDArray[np.int32], shape: tuple[int, ...]) -> bool:
    """Whether a region (an outline) reaches the frame's edge."""
    import cv2

    x, y, width, height = cv2.boundingRect(region)
    return bool(x <= 0 or y <= 0 or x + width >= shape[1] or y + height >= shape[0])


def _clear(quad: NDArray[np.float32], shape: tuple[int, ...], margin: float = 0.02) -> bool:
    """Whether every corner lies farther than `margin` (a share of the frame's size) inside the frame's edge: a card
    wholly in view, not the part in view of one that the frame cuts off (its outline there is the frame's)."""
    height, width = shape[:2]
    margin = margin * max(height, width)
    return bool((quad[:, 0] > margin).all() and (quad[:, 0] < width - 1 - margin).all()
                and (quad[:, 1] > margin).all() and (quad[:, 1] < height - 1 - margin).all())


def _beyond(quad: NDArray[np.float32], shape: tuple[int, ...]) -> bool:
    """Whether a corner lies beyond the frame's edge."""
    return bool((quad < 0).any() or (quad[:, 0] > shape[1] - 1).any() or (quad[:, 1] > shape[0] - 1).any())


def _overlap(a: NDArray[np.float32], b: NDArray[np.float32]) -> float:
    """How much of the bigger quadrilateral the two share (a card and the frame round its picture: much; a card
    and a neighbour that overlaps it: little)."""
    import cv2

    bigger = max(cv2.contourArea(a), cv2.contourArea(b))
    return _shared(a, b) / bigger if bigger > 0 else 0.0


def _shared(a: NDArray[np.float32], b: NDArray[np.float32]) -> float:
    """The area two convex quadrilaterals share."""
    import cv2

    inter, _ = cv2.intersectConvexConvex(a, b)
    return float(inter)


def rectify(frame: NDArray[np.uint8], quad: NDArray[np.float32]) -> NDArray[np.uint8]:
    """The card inside `quad`, seen square on: CARD_W x CARD_H, BGR."""
    import cv2

    target = np.array([[0, 0], [CARD_W - 1, 0], [CARD_W - 1, CARD_H - 1], [0, CARD_H - 1]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(quad, target)
    card: NDArray[np.uint8] = cv2.warpPerspective(frame, matrix, (CARD_W, CARD_H), flags=cv2.INTER_AREA,
                                                   borderMode=cv2.BORDER_REPLICATE)
    return card
