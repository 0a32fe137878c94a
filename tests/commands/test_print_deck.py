"""`crib print-deck`: the PDF a player prints, and clear refusals that write nothing."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

from companion.cli import main
from companion.deck.symbols import Symbology
from companion.entry.barcodes import all_payloads
from tests.deck.pages import rasterise, read_codes


def test_the_default_is_one_a4_l7651_sheet_of_datamatrix_stickers(tmp_path: Path, capsys) -> None:
    out = tmp_path / "deck.pdf"
    assert main(["print-deck", str(out)]) == 0
    said = capsys.readouterr().out
    assert "1 page, L7651: A4, 5x13 labels of 38.1x21.2 mm, datamatrix" in said
    assert "Print at actual size (100%)" in said
    [page] = rasterise(out, 100)
    assert page.size == (827, 1170)  # A4 at 100 dpi
    assert read_codes([page], Symbology.DATAMATRIX) == Counter(list(all_payloads()))


def test_us_letter_cards_in_code128(tmp_path: Path, capsys) -> None:
    out = tmp_path / "cards.pdf"
    assert main(["print-deck", str(out), "--paper", "letter", "--cards", "--symbology", "code128"]) == 0
    assert "7 pages, card faces, code128" in capsys.readouterr().out
    pages = rasterise(out, 72)
    assert [page.size for page in pages] == [(612, 792)] * 7


def test_a_custom_grid(tmp_path: Path, capsys) -> None:
    out = tmp_path / "grid.pdf"
    args = ["print-deck", str(out), "--grid", "4x10", "--label", "48x25", "--margins", "10,5", "--symbology", "qr"]
    assert main(args) == 0
    assert "2 pages, custom: A4, 4x10 labels of 48.0x25.0 mm, qr" in capsys.readouterr().out
    assert read_codes(rasterise(out, 150), Symbology.QR) == Counter(list(all_payloads()))


@pytest.mark.parametrize(("args", "message"), [
    (["--sheet", "L9999"], "no label sheet called 'L9999': choose one of L7651"),
    (["--sheet", "5160", "--paper", "a4"], "the 5160 sheet is US Letter, not A4"),
    (["--grid", "5x13"], "a custom sheet needs both --grid COLSxROWS and --label WxH"),
    (["--sheet", "L7651", "--grid", "5x13", "--label", "38x21"], "give either --sheet or your own --grid"),
    (["--cards", "--sheet", "L7651"], "--cards prints whole card faces on plain paper"),
    (["--grid", "5x14", "--label", "38.1x21.2", "--margins", "10.7,4.7"], "but A4 is 210.0x297.0 mm"),
    (["--sheet", "5167", "--grid", "9x30", "--label", "20x8"], "give either --sheet"),
    (["--grid", "8x30", "--label", "16x9", "--symbology", "code128"], "too small for code128"),
])
def test_bad_options_say_what_to_do_and_write_nothing(tmp_path: Path, capsys, args: list[str],
                                                      message: str) -> None:
    out = tmp_path / "deck.pdf"
    assert main(["print-deck", str(out), *args]) == 2
    error = capsys.readouterr().err
    assert error.startswith("crib print-deck: ") and message in error
    assert not out.exists()


def test_a_missing_folder_is_named(tmp_path: Path, capsys) -> None:
    assert main(["print-deck", str(tmp_path / "nowhere" / "deck.pdf")]) == 2
    assert f"the folder {tmp_path / 'nowhere'} does not exist" in capsys.readouterr().err


def test_help_says_100_percent_with_one_percent_sign(capsys):
    with pytest.raises(SystemExit):
        main(["print-deck", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "Print at actual size (100%, not 'fit to page')" in out and "%%" not in out


def test_without_the_printing_libraries_it_says_which_extra_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "fpdf", None)
    assert main(["print-deck", str(tmp_path / "deck.pdf")]) == 2
    assert capsys.readouterr().err == (
        "crib print-deck: this needs the printing libraries fpdf2 and zxing-cpp, not installed here: "
        "pip install 'cribbage-companion[print]' (in a checkout, `python3 dev.py` installs every extra)\n")
    assert not (tmp_path / "deck.pdf").exists()
