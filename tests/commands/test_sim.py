"""`crib sim`: scripted games, snapshots, resuming (SIGKILL during a game: tests/test_crash.py)."""

from __future__ import annotations

import io
import os
import re
import sys
import tempfile
from typing import Any

import pytest
from PIL import Image

from companion.base.clock import ManualClock
from companion.boards import load_layout
from companion.cli import main
from companion.commands import sim
from companion.config import load_config
from companion.cribbage.cards import Card
from companion.cribbage.game import replay
from companion.gamelog import GameLog, current_log
from companion.view.leds import OFF, Color
from companion.view.pegs import dim
from tests.daemon_script import run_script
from tests.facts import by_name
from tests.golden import GOLDEN
from tests.sample_deal import DEAL

SCRIPT = GOLDEN / "deal.txt"
SIM = ["--players", "Ann,Bob", "--dealer", "Ann", "--quiet", "--set", "devices.pin_factory=mock"]


def test_a_scripted_deal_with_snapshots(tmp_path, capsys):
    assert main(["sim", *SIM, "--state-dir", str(tmp_path / "s"), "--script", str(SCRIPT),
                 "--snapshots", str(tmp_path / "png")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out] == ["ok"] * 11 + ["noted"] * 3 + ["ok"]
    assert out[-1] == 'ok 14 {"type": "crib", "cards": ["2C", "3D", "9S", "KH"]}'
    state = replay(GameLog.open(current_log(tmp_path / "s")).inputs)
    assert by_name(state.scores) == {"Ann": 17, "Bob": 21}
    pictures = sorted(p.name for p in (tmp_path / "png").iterdir())
    assert len(pictures) == 3 * len(DEAL) and pictures[:3] == ["0001-board.png", "0001-oled.png", "0001-oled.txt"]
    drawn = [(tmp_path / "png" / name).read_text(encoding="utf-8").splitlines() for name in pictures[2::3]]
    assert all(len(lines) == 6 and all(len(line) <= 21 for line in lines) for lines in drawn)
    assert drawn[0] == ["Ann* 0         ▶Bob 0", "─" * 21, "Count 0    Starter 5♣", "", "", "Bob to play, count 0"]
    assert drawn[-1] == ["Ann 17        Bob* 21", "─" * 21, "Ann's crib: 4", "fifteen two,", "Bob deals. Enter the",
                         "starter"]  # the crib counted, its first page, under the next deal's prompt


def test_running_again_resumes_the_game(tmp_path, capsys):
    first, rest = tmp_path / "first.txt", tmp_path / "rest.txt"
    first.write_text("\n".join(DEAL[:5]) + "\n")
    rest.write_text("\n".join(DEAL[5:]) + "\n")
    state_dir = str(tmp_path / "s")
    assert main(["sim", *SIM, "--state-dir", state_dir, "--script", str(first)]) == 0
    assert main(["sim", *SIM, "--state-dir", state_dir, "--script", str(rest)]) == 0
    assert by_name(replay(GameLog.open(current_log(tmp_path / "s")).inputs).scores) == {"Ann": 17, "Bob": 21}


def test_the_demo_plays_the_sample_deal_in_a_fresh_game(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sim, "DEMO_SECONDS", 0)  # one entry per turn of the loop instead of one a second
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # nobody types during the demo
    seen = []
    monkeypatch.setattr(sim, "_play", lambda *args, run=sim._play, **kw: seen.append(args[3]) or run(*args, **kw))
    assert main(["sim", *SIM, "--demo", "--state-dir", str(tmp_path / "kept")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(sim.DEMO) + 4 and out[-5] == 'ok 14 {"type": "crib", "cards": ["2C", "3D", "9S", "KH"]}'
    assert out[-4:] == [  # and it ends with the deal summed up
        "Deal 1: Ann dealt, the starter 5♣",
        "  The play: Ann 4, Bob 1",
        "  The show: Bob's hand 20, Ann's hand 9, Ann's crib 4",
        "Scores: Ann 17, Bob 21",
    ]
    assert seen[0].name.startswith("crib-demo-") and seen[0].parent == tmp_path
    assert not list(tmp_path.glob("crib-demo-*"))  # the demo's game goes with it
    assert not (tmp_path / "kept").exists()  # the demo never touches the game of --state-dir


def test_other_players_on_the_command_line_are_not_refused_for_the_configured_dealer(tmp_path, capsys):
    args = ["--players", "Cat,Dan", "--set", "game.dealer=Ann", "--quiet", "--set", "devices.pin_factory=mock"]
    script = tmp_path / "script.txt"
    script.write_text("5C\n9D\n")  # Ann is not playing: Cat and Dan cut for deal, and the low card deals
    assert main(["sim", *args, "--state-dir", str(tmp_path / "s"), "--script", str(script)]) == 0
    state = replay(GameLog.open(current_log(tmp_path / "s")).inputs)
    assert state.players == ("Cat", "Dan") and state.cuts == () and state.dealer == "Cat" and state.phase == "deal"


def test_bad_options_say_what_to_do(tmp_path, capsys):
    assert main(["sim", *SIM, "--dealer", "Cat", "--state-dir", str(tmp_path)]) == 2
    assert "--dealer 'Cat' is not one of the players" in capsys.readouterr().err
    assert main(["sim", *SIM, "--script", str(tmp_path / "missing.txt"), "--state-dir", str(tmp_path)]) == 2
    assert "no such file" in capsys.readouterr().err


@pytest.mark.parametrize(("players", "words"), [
    ("Ann", "names 1 player: a game has 2, 3 or 4 players, like --players Ann,Bob"),
    ("Ann,Bob,Cat,Dan,Eve", "names 5 players: a game has 2, 3 or 4 players"),
    ("Ann,,Bob", "has an empty name: give the names separated by commas, like --players Ann,Bob"),
    ("Ann,Ann", "--players names Ann twice: give each player a different name"),
    ("Ann,Bartholomäus-Maximilian", "a name has at most 12 characters, for the screen: shorten 'Bartholomäus-"),
])
def test_bad_players_say_what_to_do_in_words_not_json(tmp_path, capsys, players, words):
    assert main(["sim", "--players", players, "--quiet", "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert words in err and not any(mark in err for mark in '{}[]"')
    assert not tmp_path.exists() or not any(tmp_path.iterdir())  # nothing started


def test_a_variant_or_other_players_start_that_game_directly(tmp_path, capsys):
    state_dir = tmp_path / "s"
    script = tmp_path / "one.txt"
    script.write_text("5C\n")
    assert main(["sim", *SIM, "--state-dir", str(state_dir), "--script", str(script)]) == 0  # an unfinished game
    capsys.readouterr()
    assert main(["sim", "--variant", "five-card", "--quiet", "--set", "devices.pin_factory=mock",
                 "--state-dir", str(state_dir), "--script", str(script)]) == 0
    err = capsys.readouterr().err
    assert "a new game: Ann, Bob, five-card to 61; the unfinished game (Ann, Bob, two to 121) stays in" in err
    state = replay(GameLog.open(current_log(state_dir)).inputs)
    assert (state.variant, state.target, state.hand_size) == ("five-card", 61, 3)
    assert state.cuts == (("Ann", Card.parse("5C")),)  # no dealer named: the players cut for deal
    assert main(["sim", "--players", "Ann,Bob,Cat,Dan", "--quiet", "--set", "devices.pin_factory=mock",
                 "--state-dir", str(state_dir), "--script", str(script)]) == 0
    assert "a new game: Ann, Bob, Cat, Dan, four to 121" in capsys.readouterr().err
    state = replay(GameLog.open(current_log(state_dir)).inputs)
    assert state.variant == "four" and [side.players for side in state.sides] == [("Ann", "Cat"), ("Bob", "Dan")]
    assert main(["sim", "--players", "Ann,Bob,Cat,Dan", "--quiet", "--set", "devices.pin_factory=mock",
                 "--state-dir", str(state_dir), "--script", str(script)]) == 0  # the same game again: resumed
    assert "a new game" not in capsys.readouterr().err
    assert len(list(state_dir.glob("games/*.jsonl"))) == 3
    assert main(["sim", "--variant", "three", "--quiet", "--state-dir", str(state_dir)]) == 2
    assert "--variant three is a game for 3 players but the configured players name 2 (Ann, Bob): give " \
           "--players with 3 names" in capsys.readouterr().err


def test_the_screen_fits_80x24_as_tmux_showed_it(tmp_path, capsys, monkeypatch):
    """tests/golden/sim-80x24.txt is `tmux capture-pane` of `crib sim` in an 80x24 terminal after the sample deal
    was typed in (with the recording strip, whose pegs do not walk); a script draws the same screen at its end."""
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    assert main(["sim", "--players", "Ann,Bob", "--dealer", "Ann", "--set", "devices.pin_factory=mock",
                 "--set", "devices.strip=sim", "--state-dir", str(tmp_path), "--script", str(SCRIPT)]) == 0
    screen = capsys.readouterr().out.splitlines()[-23:]
    golden = (GOLDEN / "sim-80x24.txt").read_text().splitlines()
    assert len(golden) == 24 and not golden[-1].strip()  # the last line is where the player types
    assert [line.rstrip() for line in screen] == [line.rstrip() for line in golden[:23]]


def test_on_a_terminal_the_screen_turns_the_oleds_pages_by_itself(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sim.shutil, "get_terminal_size", lambda: os.terminal_size((80, 24)))
    clock = ManualClock()
    daemon, board, table = run_script(tmp_path, DEAL[:-4], clock)  # the hands are counted: several pages
    screen = sim.Screen(table, board, snapshots=None, quiet=False)
    screen.live, screen.colour = True, False  # as on a terminal
    screen.status = "8H: ok"
    screen.draw(typed=True)
    first = drawn(capsys.readouterr().out)
    assert oled(first) == ["Ann: one for last", "Bob's hand: 20", "", "Enter Ann's crib"]
    assert first[-3] == "8H: ok" and len(first) == 24 and first[-1] == ""  # the line to type on, cleared
    assert table.presenter.page_seconds == 3.0  # [display] page_ms as shipped
    clock.advance(3.0)
    daemon.step(timeout=0)
    screen.refresh(clock.monotonic())
    out = capsys.readouterr().out
    assert out.startswith("\x1b7") and out.endswith("\x1b8")  # what is being typed stays where it is
    second = drawn(out)
    assert oled(second) == ["Bob: fifteen two,", "fifteen four, fifteen", "six,", "Enter Ann's crib"]
    assert second[8:23] == first[8:23]  # the board and the history as they were
    screen.refresh(clock.monotonic())
    assert capsys.readouterr().out == ""  # nothing changed: nothing drawn


def oled(rows: list[str]) -> list[str]:
    """The words in the OLED's frame under its header and rule."""
    return [row[1:22].rstrip() for row in rows[3:7]]


def drawn(out: str) -> list[str]:
    """The rows of the last screen drawn in place: from the cursor's home, colour codes removed."""
    last = out[out.rindex("\x1b[H") + 3 :]
    rows = re.sub(r"\x1b(\[[0-9;]*[A-Za-z]|[78])", "", last).split("\r\n")
    return [row.rstrip() for row in rows]


THREE = ["5S", "JS", "4C", "7C", "5C", "4D", "go", "go", "go", "7D", "5D", "6C", "8C", "5H", "6H", "8H",
         "AH", "3D", "9C", "9H"]  # tests/cribbage/test_sample_games.py: Ann deals, Bob 31, Cat 28, Ann 23


def test_three_players_get_the_three_track_board(tmp_path, capsys):
    script, last = tmp_path / "three.txt", tmp_path / "last.txt"
    script.write_text("\n".join(THREE[:-1]) + "\n")
    last.write_text(THREE[-1] + "\n")
    sim = ["sim", "--players", "Ann,Bob,Cat", "--dealer", "Ann", "--set", "devices.pin_factory=mock"]
    assert main([*sim, "--quiet", "--state-dir", str(tmp_path / "s"), "--script", str(script)]) == 0
    assert main([*sim, "--quiet", "--state-dir", str(tmp_path / "s"), "--script", str(last),
                 "--snapshots", str(tmp_path / "png")]) == 0  # the game resumed: its last entry's picture only
    state = replay(GameLog.open(current_log(tmp_path / "s")).inputs)
    assert by_name(state.scores) == {"Ann": 23, "Bob": 31, "Cat": 28}
    with Image.open(tmp_path / "png" / "0001-board.png") as board:  # a board picture costs 0.1 s of CPU
        assert board.size == (1644, 1064)  # three tracks a street (two tracks: 1644 x 864)
    capsys.readouterr()
    assert main([*sim, "--state-dir", str(tmp_path / "t"), "--script", str(script),
                 "--set", "board.layout=two-track-121"]) == 2
    err = capsys.readouterr().err
    assert "board 'two-track-121' has 2 tracks but the game has 3 players or teams" in err
    assert 'set board.layout = "auto"' in err and not (tmp_path / "t").exists()


def test_a_scripted_deal_ends_with_the_pegs_on_the_simulated_picos_leds(tmp_path, capsys, monkeypatch):
    from companion.devices import picosim

    picos: list[picosim.SimulatedPico] = []

    class Watched(picosim.SimulatedPico):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            picos.append(self)

    monkeypatch.setattr(picosim, "SimulatedPico", Watched)
    loud = [arg for arg in SIM if arg != "--quiet"]  # the screen printed at the end: its pegs settled
    assert main(["sim", *loud, "--state-dir", str(tmp_path / "s"), "--script", str(SCRIPT)]) == 0
    (pico,) = picos  # crib sim's strip by default: the real driver and firmware, down to the LEDs
    state = replay(GameLog.open(current_log(tmp_path / "s")).inputs)
    layout = load_layout("two-track-121")
    level = round(40 * 255 / 100)  # [board] brightness = 40 (percent) of the packaged defaults

    def lit(colour: Color) -> Color:
        r, g, b = (c * level // 255 for c in colour)
        return r, g, b

    expected = {}
    for track, side in enumerate(state.sides):
        colour = load_config(system_path=None).board.colours[track]
        expected[layout.led_for(track, state.back_pegs.get(side, 0))] = lit(dim(colour))
        expected[layout.led_for(track, state.scores[side])] = lit(colour)
    leds = pico.leds()
    assert {led: c for led, c in enumerate(leds) if c != OFF and len(set(c)) > 1} == expected
    assert {led for led, c in enumerate(leds) if c != OFF and len(set(c)) == 1} == {  # the skunk lines, dimly
        layout.led_for(track, hole) for track in (0, 1) for hole in (61, 91)}
    assert {layout.led_for(0, 17), layout.led_for(1, 21)} <= set(expected)  # Ann 17, Bob 21


def test_the_recording_strip_still_works_and_draws_the_same_board(tmp_path, capsys):
    boards = []
    for strip in ("pico-sim", "sim"):
        assert main(["sim", "--players", "Ann,Bob", "--dealer", "Ann", "--set", "devices.pin_factory=mock",
                     "--set", f"devices.strip={strip}", "--state-dir", str(tmp_path / strip),
                     "--script", str(SCRIPT)]) == 0
        out = capsys.readouterr().out
        boards.append(out[out.rindex("┘") :])  # after the last OLED: the board, the players and the prompt
    assert boards[0] == boards[1]
    assert boards[0].count("●") == 4 + 2 and boards[0].count("+") == 4  # four pegs, the legend's two; skunk marks


def test_keys_on_the_simulated_picos_keypad_come_over_its_link_and_are_played(tmp_path, capsys, monkeypatch):
    from companion.devices import picosim, sim

    picos: list[picosim.SimulatedPico] = []

    class Watched(picosim.SimulatedPico):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            picos.append(self)

    def no_mock_keypad(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the Pico's keypad is simulated on the Pico, not on the Pi's mock pins")

    monkeypatch.setattr(picosim, "SimulatedPico", Watched)
    monkeypatch.setattr(sim, "SimulatedKeypad", no_mock_keypad)
    script = tmp_path / "keys.txt"
    script.write_text("5C\nkey:01\nkey:53\n4C\n")  # Bob leads the ten of clubs, Ann the five of hearts: by keys
    assert main(["sim", *SIM, "--set", "devices.keypad=pico", "--state-dir", str(tmp_path / "s"),
                 "--script", str(script)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:] == ['ok 4 {"type": "play", "card": "10C"}', 'ok 5 {"type": "play", "card": "5H"}',
                       'ok 6 {"type": "play", "card": "4C"}']  # in the script's order: the keys before the next line
    state = replay(GameLog.open(current_log(tmp_path / "s")).inputs)
    assert state.count == 19 and by_name(state.scores) == {"Ann": 2, "Bob": 0}  # Ann's five made fifteen
    (pico,) = picos
    assert pico.keypad_pins == ((6, 7, 8, 9), (10, 11, 12, 13))  # told by the host: the packaged keypad.pico_* pins
    assert pico.keys_sent == 8  # four keys pressed and released, each a KEY message from the firmware


def test_bad_bytes_on_standard_input_under_a_strict_utf8_locale_are_refused_and_play_goes_on(tmp_path):
    import os
    import subprocess
    from pathlib import Path
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}
    result = subprocess.run([sys.executable, "-m", "companion.cli", "sim", *SIM, "--state-dir", str(tmp_path / "s"),
                             "--set", "devices.strip=sim"], input=b"5C\n\xff\n10C\n", capture_output=True, check=False,
                            env=env, cwd=Path(__file__).parents[2], timeout=60)
    out = result.stdout.decode().splitlines()
    assert result.returncode == 0, result.stderr.decode()[-600:]
    assert out[-3].startswith('ok 3 {"type": "starter"') and out[-1].startswith('ok 4 {"type": "play"')
    assert out[-2].startswith("rejected '\ufffd': '\ufffd' is not a card or a command")
    script = tmp_path / "script.txt"
    script.write_bytes(b"5C\nJ\xffS\n10C\n")
    result = subprocess.run([sys.executable, "-m", "companion.cli", "sim", *SIM, "--new", "--state-dir",
                             str(tmp_path / "s"), "--set", "devices.strip=sim", "--script", str(script)],
                            capture_output=True, check=False, env=env, cwd=Path(__file__).parents[2], timeout=60)
    assert result.returncode == 0 and "rejected 'J\ufffdS'" in result.stdout.decode()


def test_the_demo_ends_on_the_settled_board(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sim, "DEMO_SECONDS", 0)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    args = [arg for arg in SIM if arg != "--quiet"]
    assert main(["sim", *args, "--demo", "--no-web", "--state-dir", str(tmp_path / "kept")]) == 0
    out = capsys.readouterr().out.splitlines()
    top = max(i for i, line in enumerate(out) if line.startswith("┌"))
    last = out[top:]  # the last screen, drawn once every entry was in
    assert last[1].startswith("│Ann 17        Bob* 21│")
    assert last[8].startswith("· ····· ····· ··●·· ·●··· ")  # Ann's pegs on 13 and 17, none mid-flash
    assert last[9].startswith("· ●···· ····· ····· ····· ●···· ")  # Bob's on 1 and 21
    assert out[-4] == "Deal 1: Ann dealt, the starter 5♣"
