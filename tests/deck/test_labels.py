"""Print the deck, rasterise it with pdftoppm, and read every barcode back with zxing-cpp."""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest
import zxingcpp

from companion.commands import CommandError
from companion.deck.labels import DeckOptions, card_sheet, deck_codes, write_deck
from companion.deck.sheets import PRESETS, custom_sheet
from companion.deck.symbols import Symbology
from companion.entry.barcodes import all_payloads

from .pages import blur, rasterise, read_codes

EVERY_CODE = Counter(list(all_payloads()))


def printed(tmp_path: Path, options: DeckOptions) -> Path:
    path = tmp_path / "deck.pdf"
    write_deck(path, options)
    return path


@pytest.mark.parametrize("sheet", ["L7651", "5160"])
@pytest.mark.parametrize("symbology", list(Symbology))
def test_every_card_and_command_reads_back_exactly_once(tmp_path: Path, sheet: str, symbology: Symbology) -> None:
    pdf = printed(tmp_path, DeckOptions(PRESETS[sheet], symbology))
    assert read_codes(rasterise(pdf, 150), symbology) == EVERY_CODE


@pytest.mark.parametrize(("sheet", "symbology", "dpi", "blur_mm"), [
    ("L7651", Symbology.DATAMATRIX, 60, 0.3),  # the default: survives a 60 dpi camera and a soft focus
    ("5167", Symbology.DATAMATRIX, 100, 0.3),  # the smallest labels
    ("L7651", Symbology.QR, 100, 0.2),
    ("5160", Symbology.CODE128, 100, 0.3),  # 1D needs the wide labels: 0.40 mm bars on L7651 do not survive
])
def test_the_codes_survive_blur_and_low_resolution(tmp_path: Path, sheet: str, symbology: Symbology, dpi: int,
                                                   blur_mm: float) -> None:
    pdf = printed(tmp_path, DeckOptions(PRESETS[sheet], symbology))
    pages = [blur(page, dpi, blur_mm) for page in rasterise(pdf, dpi)]
    assert read_codes(pages, symbology) == EVERY_CODE


@pytest.mark.parametrize(("paper", "symbology", "blur_mm"), [
    ("a4", Symbology.DATAMATRIX, 0.3),
    ("letter", Symbology.CODE128, 0.2),
])
def test_whole_card_faces_read_back_blurred_at_100_dpi(tmp_path: Path, paper: str, symbology: Symbology,
                                                       blur_mm: float) -> None:
    pdf = printed(tmp_path, DeckOptions(card_sheet(paper), symbology, cards=True))
    pages = [blur(page, 100, blur_mm) for page in rasterise(pdf, 100)]
    assert len(pages) == 7  # nine cards a page
    assert read_codes(pages, symbology) == EVERY_CODE


def test_each_barcode_is_on_its_own_label(tmp_path: Path) -> None:
    sheet = PRESETS["L7651"]
    pdf = printed(tmp_path, DeckOptions(sheet))
    [page] = rasterise(pdf, 100)
    px = 100 / 25.4
    where = {}
    for barcode in zxingcpp.read_barcodes(page, formats=zxingcpp.BarcodeFormat.DataMatrix):
        corners = (barcode.position.top_left, barcode.position.bottom_right)
        where[barcode.text] = [((c.x + 0.5) / px, (c.y + 0.5) / px) for c in corners]
    for code, (left, top) in zip(deck_codes(), sheet.positions(), strict=False):
        for x, y in where[code.payload]:
            assert left <= x <= left + sheet.label[0] and top <= y <= top + sheet.label[1], code


def test_labels_carry_the_card_and_the_payload_in_print(tmp_path: Path) -> None:
    pdf = printed(tmp_path, DeckOptions(PRESETS["L7160"]))
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    words = Counter(text.split())
    for code in deck_codes():
        for word in code.face.split():
            assert words[word] >= 1, code.face
        assert words[code.payload] == 1


def red_pixels(pdf: Path) -> int:
    return sum(1 for page in rasterise(pdf, 30, color=True)
               for r, g, b in page.convert("RGB").get_flattened_data() if r > 150 and g < 90 and b < 90)


def test_hearts_and_diamonds_are_red_unless_mono(tmp_path: Path) -> None:
    assert red_pixels(printed(tmp_path, DeckOptions(PRESETS["L7651"]))) > 100
    assert red_pixels(printed(tmp_path, DeckOptions(PRESETS["L7651"], mono=True))) == 0


def test_barcodes_are_vectors_not_pictures(tmp_path: Path) -> None:
    pdf = printed(tmp_path, DeckOptions(PRESETS["L7651"]))
    assert re.search(rb"/Subtype\s*/Image", pdf.read_bytes()) is None


def test_labels_too_small_for_the_symbology_are_refused_before_writing(tmp_path: Path) -> None:
    tiny = custom_sheet("a4", "10x20", "18x8", None, None)
    with pytest.raises(CommandError, match=r"too small for code128: .* 0\.1\d mm .* --symbology datamatrix"):
        write_deck(tmp_path / "deck.pdf", DeckOptions(tiny, Symbology.CODE128))
    assert not (tmp_path / "deck.pdf").exists()
    write_deck(tmp_path / "deck.pdf", DeckOptions(tiny, Symbology.DATAMATRIX))
