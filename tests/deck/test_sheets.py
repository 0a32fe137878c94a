from __future__ import annotations

import pytest

from companion.commands import CommandError
from companion.deck.sheets import PAPERS, PRESETS, custom_sheet, preset


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_fits_its_page_and_holds_what_the_packet_says(name: str) -> None:
    sheet = PRESETS[name]
    sheet.check_fits()
    per_page = {"L7651": 65, "L7160": 21, "L7163": 14, "5160": 30, "5167": 80}
    assert sheet.per_page == len(list(sheet.positions())) == per_page[name]


def test_l7651_labels_sit_where_avery_prints_them() -> None:
    sheet = preset("avery l7651")
    positions = list(sheet.positions())
    assert positions[0] == (4.7, 10.7)
    assert positions[6] == pytest.approx((4.7 + 40.6, 10.7 + 21.2))
    last_x, last_y = positions[-1]
    assert last_x + sheet.label[0] == pytest.approx(210 - 4.7 - 0.1, abs=0.2)
    assert last_y + sheet.label[1] == pytest.approx(297 - 10.7)


def test_5160_is_in_inches_on_us_letter() -> None:
    sheet = preset("5160")
    assert sheet.page == PAPERS["letter"] == pytest.approx((215.9, 279.4))
    assert sheet.label == pytest.approx((66.675, 25.4))
    assert list(sheet.positions())[1] == pytest.approx((4.7625 + 69.85, 12.7))


def test_a_custom_grid_with_margins_spreads_the_gaps_evenly() -> None:
    sheet = custom_sheet("a4", "5x13", "38.1x21.2", "10.7,4.7", None)
    assert sheet.pitch == pytest.approx((40.625, 21.2))
    assert sheet.left == 4.7 and sheet.top == 10.7


def test_a_custom_grid_without_margins_is_centred() -> None:
    sheet = custom_sheet("letter", "2x2", "50x40", None, "10,5")
    assert (sheet.left, sheet.top) == pytest.approx(((215.9 - 110) / 2, (279.4 - 85) / 2))


@pytest.mark.parametrize(("grid", "label", "margins", "gaps", "message"), [
    ("5by13", "38x21", None, None, "--grid '5by13' is not understood: give COLUMNSxROWS"),
    ("0x13", "38x21", None, None, "--grid '0x13'"),
    ("5x13", "38", None, None, "--label '38' is not understood: give WIDTHxHEIGHT in mm"),
    ("5x13", "38x21", "ten", None, "--margins 'ten' is not understood: give TOP,LEFT"),
    ("5x14", "38x21.2", "10.7,4.7", None, "need 205.3x307.5 mm but A4 is 210.0x297.0 mm"),
    ("10x30", "30x30", None, None, "need 300.0x900.0 mm but A4"),
    ("3x3", "63x88", None, "-1,0", "--gaps '-1,0' is not understood"),
])
def test_bad_grids_say_what_to_give(grid: str, label: str, margins: str | None, gaps: str | None,
                                    message: str) -> None:
    with pytest.raises(CommandError, match=message):
        custom_sheet("a4", grid, label, margins, gaps)


def test_an_unknown_preset_lists_the_known_ones() -> None:
    with pytest.raises(CommandError, match="choose one of L7651, L7160, L7163, 5160, 5167"):
        preset("L9999")
