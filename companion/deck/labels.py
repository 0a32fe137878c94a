"""Drawing the deck: sticker labels (barcode, payload and the card in big print) and whole card faces.

Everything is drawn as vectors with fpdf2, in millimetres. The font is the package's DejaVu Sans Mono (the
OLED's): the PDF core fonts have no suit symbols.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from fpdf import FPDF

from companion.base.usage import CommandError
from companion.cribbage.cards import DECK, RANK_NAMES
from companion.entry.barcodes import COMMAND_LABELS, COMMAND_PAYLOADS
from companion.fonts import MONO
from companion.i18n import _

from .sheets import Sheet, custom_sheet
from .symbols import Symbology, make_symbol, rectangles

CAP_HEIGHT = 0.73  # of the font size, for DejaVu capitals and digits; suit symbols share their middle
PT_PER_MM = 72 / 25.4
RED = (200, 0, 0)
BLACK = (0, 0, 0)
CUT_LINE = (170, 170, 170)
CARD_SIZE = (63.0, 88.0)  # poker size
Box = tuple[float, float, float, float]
"""x, y of the top-left corner, width, height."""


@dataclass(frozen=True, slots=True)
class Code:
    """One thing to print: its barcode payload, the big print ("10♥", "GO") and whether that is red."""

    payload: str
    face: str
    red: bool = False
    rank: str = ""
    suit: str = ""


def deck_codes() -> list[Code]:
    """The 52 cards suit by suit (clubs, diamonds, hearts, spades; ace to king), then the commands."""
    cards = sorted(DECK, key=lambda card: (card.suit.index, card.rank))
    return [Code(c.payload, c.pretty, c.suit.is_red, RANK_NAMES[c.rank], c.suit.symbol) for c in cards] + [
        Code(payload, COMMAND_LABELS[word]) for payload, word in COMMAND_PAYLOADS.items()
    ]


@dataclass(frozen=True, slots=True)
class DeckOptions:
    sheet: Sheet
    symbology: Symbology = Symbology.DATAMATRIX
    cards: bool = False
    mono: bool = False
    outline: bool = False


def card_sheet(paper: str) -> Sheet:
    """Nine poker-size card faces per page, edge to edge so one cut separates two cards."""
    return custom_sheet(paper, "3x3", f"{CARD_SIZE[0]:g}x{CARD_SIZE[1]:g}", None, None)


def write_deck(path: Path, options: DeckOptions) -> int:
    """Write the whole deck to `path` as a PDF; returns the number of pages."""
    pdf = FPDF(unit="mm", format=options.sheet.page)
    pdf.set_auto_page_break(False)
    pdf.set_margin(0)
    pdf.add_font("deck", "", str(MONO))
    pdf.set_font("deck")
    pdf.set_title("Cribbage Companion deck")
    pdf.set_creator("crib print-deck")
    draw = _CardFace(pdf, options) if options.cards else _Label(pdf, options)
    codes = deck_codes()
    per_page = options.sheet.per_page
    for start in range(0, len(codes), per_page):
        pdf.add_page()
        for code, (x, y) in zip(codes[start:start + per_page], options.sheet.positions(), strict=False):
            draw(code, x, y)
    try:
        pdf.output(str(path))
    except OSError as error:
        raise CommandError(_("cannot write {path}: {error}; choose a folder you can write to").format(
            path=path, error=error.strerror)) from error
    return pdf.pages_count


class _Drawing:
    def __init__(self, pdf: FPDF, options: DeckOptions) -> None:
        self.pdf = pdf
        self.options = options
        self.size = options.sheet.label

    def symbol(self, code: Code, box: Box) -> None:
        """The barcode centred in the box, quiet zone included; refuses modules too small to scan."""
        x, y, width, height = box
        symbol = make_symbol(code.payload, self.options.symbology)
        quiet = self.options.symbology.quiet_zone
        if symbol.symbology.linear:
            module = width / symbol.span
            bar_height = height
        else:
            module = min(width, height) / (symbol.height + 2 * quiet)
            bar_height = module * symbol.height
        self.check_module(module)
        left = x + (width - module * symbol.width) / 2
        top = y + (height - bar_height) / 2
        self.pdf.set_fill_color(*BLACK)
        for mx, my, mw, mh in rectangles(symbol):
            if symbol.symbology.linear:
                self.pdf.rect(left + mx * module, top, mw * module, bar_height, style="F")
            else:
                self.pdf.rect(left + mx * module, top + my * module, mw * module, mh * module, style="F")

    def check_module(self, module: float) -> None:
        symbology = self.options.symbology
        if module < symbology.min_module_mm:
            w, h = self.size
            said = (_("labels of {label} mm are too small for {symbology}: its modules would be {module} mm and "
                      "need at least {least} mm to scan; use a bigger label") if symbology is Symbology.DATAMATRIX
                    else _("labels of {label} mm are too small for {symbology}: its modules would be {module} mm "
                           "and need at least {least} mm to scan; use a bigger label or --symbology datamatrix (the "
                           "smallest)"))
            raise CommandError(said.format(label=f"{w:g}x{h:g}", symbology=symbology.value, module=f"{module:.2f}",
                                           least=symbology.min_module_mm))

    def text(self, text: str, box: Box, color: tuple[int, int, int], align: str = "center") -> None:
        """`text` as big as fits the box (capitals as tall as the box at most), centred vertically."""
        x, y, width, height = box
        size = height / CAP_HEIGHT
        self.pdf.set_font_size(size * PT_PER_MM)
        text_width = self.pdf.get_string_width(text)
        if text_width > width:
            size *= width / text_width
            self.pdf.set_font_size(size * PT_PER_MM)
            text_width = width
        left = {"left": x, "center": x + (width - text_width) / 2, "right": x + width - text_width}[align]
        self.pdf.set_text_color(*color)
        self.pdf.text(left, y + (height + size * CAP_HEIGHT) / 2, text)

    def color(self, code: Code) -> tuple[int, int, int]:
        return RED if code.red and not self.options.mono else BLACK


class _Label(_Drawing):
    """A sticker: a 2D code on the left, the card and the payload beside it; or, for Code 128,
    the card and payload above a full-width row of bars."""

    def __call__(self, code: Code, x: float, y: float) -> None:
        w, h = self.size
        pad = min(max(min(w, h) * 0.07, 0.8), 3.0)
        caption = min(max(h * 0.09, 1.4), 2.5)
        if self.options.outline:
            self.pdf.set_draw_color(*CUT_LINE)
            self.pdf.set_line_width(0.1)
            self.pdf.rect(x, y, w, h, round_corners=True, corner_radius=min(2.0, h / 8))
        inner_w, inner_h = w - 2 * pad, h - 2 * pad
        if self.options.symbology.linear:
            bars = inner_h * 0.55
            self.symbol(code, (x + pad, y + h - pad - bars, inner_w, bars))
            top_h = inner_h - bars - pad / 2
            self.text(code.face, (x + pad, y + pad, inner_w * 0.65, top_h * 0.9), self.color(code), "left")
            self.text(code.payload, (x + pad + inner_w * 0.7, y + pad, inner_w * 0.3, caption), BLACK, "right")
            return
        side = min(inner_h, inner_w * 0.5)
        self.symbol(code, (x + pad, y + pad + (inner_h - side) / 2, side, side))
        text_x = x + pad + side + pad
        text_w = x + w - pad - text_x
        self.text(code.face, (text_x, y + pad, text_w, inner_h * 0.55), self.color(code))
        self.text(code.payload, (text_x, y + pad + inner_h * 0.75, text_w, caption), BLACK)


class _CardFace(_Drawing):
    """A whole poker-size card: corner indices, a big suit (or command word) in the middle, the barcode in
    the bottom-left corner with its payload. Code 128 takes the whole bottom edge instead (wider bars scan
    better) and the second index goes."""

    def __call__(self, code: Code, x: float, y: float) -> None:
        w, h = self.size
        color = self.color(code)
        linear = self.options.symbology.linear
        self.pdf.set_draw_color(*CUT_LINE)
        self.pdf.set_line_width(0.2)
        self.pdf.rect(x, y, w, h, round_corners=True, corner_radius=3.0)
        if code.rank:
            for angle in (0,) if linear else (0, 180):
                with self.pdf.rotation(angle, x + w / 2, y + h / 2):
                    self.text(code.rank, (x + 3, y + 4, 9, 7), color)
                    self.text(code.suit, (x + 3, y + 13, 9, 6), color)
            self.text(code.suit, (x + 12, y + 27, w - 24, 30), color)
        else:
            self.text(code.face, (x + 5, y + 37, w - 10, 14), color)
        if linear:
            self.symbol(code, (x + 2, y + h - 18, w - 4, 11))
            self.text(code.payload, (x + 3, y + h - 6, w - 6, 2.5), BLACK)
        else:
            self.symbol(code, (x + 3, y + h - 22, 17, 17))
            self.text(code.payload, (x + 3, y + h - 5.5, 17, 2.5), BLACK)
