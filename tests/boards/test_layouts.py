from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest

from companion.boards import (
    BUILTIN_LAYOUTS,
    LAYOUT_DIR,
    PITCH_30_PER_M,
    BoardLayout,
    Hole,
    LayoutError,
    Misfit,
    Short,
    builtin_for,
    builtin_specs,
    load_layout,
    misfit,
)


@pytest.mark.parametrize("name", BUILTIN_LAYOUTS)
def test_committed_builtin_matches_its_parameters(name: str) -> None:
    assert load_layout(name) == builtin_specs()[name]


@pytest.mark.parametrize(
    ("name", "tracks", "target", "leds"),
    [("two-track-121", 2, 121, 244), ("three-track-121", 3, 121, 366), ("two-track-61", 2, 61, 124),
     ("three-track-61", 3, 61, 186)],
)
def test_every_hole_has_its_own_led(name: str, tracks: int, target: int, leds: int) -> None:
    layout = load_layout(name)
    assert (layout.tracks, layout.target, layout.led_count, layout.street_length) == (tracks, target, leds, 30)
    every = [layout.led_for(track, score) for track in range(tracks) for score in range(target + 1)]
    assert sorted(every) == list(range(leds))


def _distance(a: Hole, b: Hole) -> float:
    return math.dist((a.x_mm, a.y_mm), (b.x_mm, b.y_mm))


@pytest.mark.parametrize("name", BUILTIN_LAYOUTS)
def test_strip_is_serpentine_with_straight_streets(name: str) -> None:
    layout = load_layout(name)
    by_led = sorted(layout.holes, key=lambda h: h.led)
    joins = 0
    for before, after in itertools.pairwise(by_led):
        if before.x_mm == after.x_mm:  # along one straight segment: neighbouring holes one pitch apart
            assert _distance(before, after) == pytest.approx(layout.pitch_mm, abs=0.01)
        else:  # a jumper to the next column, joined at the same end of the board
            joins += 1
            assert abs(before.y_mm - after.y_mm) <= layout.pitch_mm + 0.01
    assert joins == layout.tracks * layout.streets - 1


def test_a_peg_moves_one_pitch_per_point_along_the_street() -> None:
    layout = load_layout("two-track-121")
    holes = {(h.track, h.score): h for h in layout.holes}
    for track in range(2):
        for score in range(1, 121):
            a, b = holes[track, score], holes[track, score + 1]
            if score % 30:  # same street, next hole
                assert _distance(a, b) == pytest.approx(layout.pitch_mm, abs=0.01)
    # start hole below the first hole, game hole beyond the last street; tracks side by side
    assert holes[0, 0].y_mm < holes[0, 1].y_mm
    assert holes[0, 121].y_mm < holes[0, 120].y_mm
    assert holes[1, 5].x_mm - holes[0, 5].x_mm == pytest.approx(layout.pitch_mm, abs=0.01)


def test_layout_for_a_coarser_strip_scales_every_distance() -> None:
    layout = load_layout("two-track-61").at_pitch(PITCH_30_PER_M)
    assert layout.pitch_mm == pytest.approx(33.333)
    assert layout.size_mm[1] == pytest.approx(30 * 33.333, abs=0.01)
    assert layout.led_for(1, 61) == load_layout("two-track-61").led_for(1, 61)


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data))
    return path


def _small() -> dict[str, object]:
    return json.loads((LAYOUT_DIR / "two-track-61.json").read_text())


def test_a_layout_file_loads_by_path(tmp_path: Path) -> None:
    data = _small()
    data["name"] = "my board"
    layout = load_layout(_write(tmp_path, data))
    assert isinstance(layout, BoardLayout)
    assert layout.name == "my board"
    assert layout.led_for(0, 61) == load_layout("two-track-61").led_for(0, 61)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.update(colour="red"), "unknown key 'colour'"),
        (lambda d: d["holes"][3].update(peg=1), "hole #3: unknown key 'peg'"),
        (lambda d: d["holes"][4].update(led=d["holes"][3]["led"]), "two holes on one LED"),
        (lambda d: d["holes"].pop(7), "track 0 has no hole for score 7"),
        (lambda d: d.update(led_count=d["led_count"] + 2), "under no hole"),
        (lambda d: d["holes"][2].update(led=999), "past the end of the strip"),
        (lambda d: d["holes"][2].update(track=5), "off the board"),
        (lambda d: d["holes"][2].update(x_mm="wide"), "'x_mm' must be a number"),
        (lambda d: d.update(schema=7), "schema 7 is not supported"),
        (lambda d: d.pop("pitch_mm"), "missing key 'pitch_mm'"),
    ],
)
def test_bad_layouts_are_clear_errors_naming_the_file(tmp_path: Path, change, words: str) -> None:  # type: ignore[no-untyped-def]
    data = _small()
    change(data)
    path = _write(tmp_path, data)
    with pytest.raises(LayoutError) as error:
        load_layout(path)
    assert str(path) in str(error.value)
    assert words in str(error.value)


def test_broken_json_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "board.json"
    path.write_text('{"schema": 1,\n "name": }')
    with pytest.raises(LayoutError, match=r"board\.json: not valid JSON at line 2"):
        load_layout(path)


def test_unknown_name_lists_the_builtins() -> None:
    with pytest.raises(LayoutError, match="two-track-121, three-track-121, two-track-61"):
        load_layout("four-track-121")
    with pytest.raises(LayoutError, match="no hole for track 2, score 5"):
        load_layout("two-track-121").led_for(2, 5)


@pytest.mark.parametrize(
    ("sides", "target", "name"),
    [(2, 121, "two-track-121"), (2, 61, "two-track-61"), (3, 121, "three-track-121"), (3, 61, "three-track-61"),
     (1, 61, "two-track-61"), (2, 91, "two-track-121")],  # no exact fit: the smallest board that hosts it
)
def test_the_builtin_board_for_a_game(sides: int, target: int, name: str) -> None:
    assert builtin_for(sides, target) == name
    assert misfit(load_layout(name), sides, target) is None


def test_a_game_no_builtin_board_hosts_says_to_give_a_layout_file() -> None:
    with pytest.raises(LayoutError, match="no builtin board hosts 4 players or teams to 121: give the path"):
        builtin_for(4, 121)


def test_what_a_board_cannot_host() -> None:
    assert misfit(load_layout("two-track-121"), 2, 61) is None  # a 61-point game goes once round
    assert misfit(load_layout("two-track-121"), 3, 121) == Misfit("two-track-121", Short.TRACKS, 2, 3)
    assert misfit(load_layout("three-track-61"), 2, 121) == Misfit("three-track-61", Short.HOLES, 61, 121)
    assert misfit(load_layout("two-track-61"), 3, 121) == Misfit("two-track-61", Short.TRACKS, 2, 3)  # tracks first
