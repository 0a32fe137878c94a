"""What the pages show: the board SVG from the layout and frame, the snapshot (the computer's cards hidden until
the show), the statistics data, the menu's control token, and the commands that serve the page."""

from __future__ import annotations

import errno
import json
import os
import random
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.boards import load_layout
from companion.cli import main
from companion.config import load_config
from companion.cribbage.facts import ScoreKind
from companion.cribbage.game import replay
from companion.devices.base import Entry
from companion.gamelog import GameLog
from companion.i18n import language
from companion.play.computer import Settings
from companion.view.board import board_svg, frame_colours
from companion.view.pegs import MARKER, render_pegs
from companion.web import archive
from companion.web.snapshot import snapshot
from companion.web.wiring import TOKEN_FILE, board_token
from companion.words.messages import PageAddress
from tests.facts import by_name, name, scores_of
from tests.web.computer_games import Game, play_out

ROOT = Path(__file__).parents[2]
COUNTS = ROOT / "tests" / "data" / "show_counts_by_starter.json"


def test_the_board_svg_has_every_hole_by_led_and_the_pegs_in_their_colours(tmp_path):
    game = Game(tmp_path, Settings("Guest", ("easy",), seed=3))
    play_out(game, 2)
    state, layout = game.table.state, game.table.layout
    frame, _ = render_pegs(state, layout)
    svg = board_svg(layout, frame, state.target)
    holes = re.findall(r'<circle id="led-(\d+)" class="hole( peg)?', svg)
    assert sorted(int(led) for led, _ in holes) == list(range(layout.led_count))
    lit = {int(led): fill for led, fill in re.findall(r'id="led-(\d+)" class="hole peg"[^>]*fill:(#[0-9a-f]{6})', svg)}
    assert len(lit) == 4  # front and back peg of both sides
    for track, side in enumerate(state.sides):
        assert layout.led_for(track, state.scores[side]) in lit
    assert svg.count('class="skunk"') == 2 and "DOUBLE SKUNK" in svg
    assert frame_colours(frame).count(None) == layout.led_count - 4  # the skunk marks are lines, not pegs
    assert MARKER in frame


def test_a_61_point_game_on_the_121_board_shows_its_finish():
    svg = board_svg(load_layout("two-track-121"), (), 61)
    assert "FINISH" in svg and svg.count('class="hole pale"') == 2 * 60


def test_the_snapshot_hides_the_computers_cards_until_they_are_counted(tmp_path):
    game = Game(tmp_path, Settings("Guest", ("standard",), seed=6))
    game.settle()
    state = game.table.state
    shot = snapshot(game.table, game.computer)
    text = json.dumps(shot)
    for card in state.hands["Standard"]:
        assert f'"{card}"' not in text
    assert [c["code"] for c in shot["you"]["dealt"]] == [str(c) for c in state.hands["Guest"]]
    rng = random.Random(1)
    while not shot["state"]["hands_shown"]:
        game.person_moves(rng)
        game.settle()
        shot = snapshot(game.table, game.computer)
        if shot["state"]["deal"] > 1:
            shot = {"state": {"hands_shown": {"Standard": []}}}
            break
    assert "Standard" in shot["state"]["hands_shown"]


def test_the_go_button_is_active_only_when_no_card_fits(tmp_path):
    game = Game(tmp_path, Settings("Guest", ("easy",), seed=12))
    rng = random.Random(5)
    seen_go = seen_play = False
    for _ in range(300):
        game.settle()
        state = game.table.state
        if state.winner:
            break
        you = snapshot(game.table, game.computer)["you"]
        if state.phase == "play" and state.turn == "Guest":
            fits = [c for c in state.held("Guest") if state.count + c.value <= 31]
            assert you["can_go"] == (not fits)
            assert you["playable"] == [str(c) for c in fits]
            seen_go |= you["can_go"]
            seen_play |= bool(fits)
        else:
            assert not you["can_go"] and not you["playable"]
        game.person_moves(rng)
    assert seen_go and seen_play


def test_all_hands_is_the_enumeration_of_every_hand_and_starter():
    by_starter = json.loads(COUNTS.read_text())
    for score in range(30):  # each line is one starter of a rank: four suits each
        assert 4 * sum(line["hand"][score] for line in by_starter.values()) == archive.ALL_HANDS.get(score, 0)


def test_the_statistics_data_from_the_history(tmp_path):
    game = Game(tmp_path, Settings("Guest", ("easy",), seed=3))
    play_out(game, 2)
    state = game.table.state
    data = archive.overview(tmp_path, language("en"))
    assert data["games"] == 1 and set(data["players"]) == {"Guest", "Easy"}
    (race,) = data["games_list"]
    assert race["sides"][race["winner"]]["name"] == name(state.winner)
    assert scores_of(race) == by_name(state.scores)
    guest = next(i for i, side in enumerate(race["sides"]) if side["players"] == ["Guest"])
    assert len(race["race"][guest]) == state.deal_number + 1
    hands = archive.hand_scores(tmp_path, "Guest")
    shown = [e.score.total for e in state.events if e.kind is ScoreKind.HAND and e.player == "Guest"]
    assert hands["hands"] == len(shown) and sum(hands["counts"]) == len(shown)
    assert abs(sum(hands["all"]) - 1) < 1e-9
    log_name = game.table.log.path.name
    replayed = archive.game(tmp_path, log_name, 1, language("en"))
    assert replayed is not None and len(replayed["state"]["deals"]) == state.deal_number
    assert replayed["race"] == race["race"]
    assert all("said" in e for e in replayed["state"]["events"])
    assert archive.game(tmp_path, log_name, 2, language("en")) is None
    assert archive.game(tmp_path, "../games/" + log_name, 1, language("en")) is None


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full, a disk that is always full")
def test_a_full_disk_leaves_no_empty_token_behind(tmp_path, monkeypatch):
    fdopen = os.fdopen

    def onto_a_full_disk(descriptor: int, *args, **kwargs):  # every byte written is refused: ENOSPC
        os.close(descriptor)
        return fdopen(os.open("/dev/full", os.O_WRONLY), *args, **kwargs)

    config = load_config(system_path=None)
    monkeypatch.setattr(os, "fdopen", onto_a_full_disk)
    with pytest.raises(OSError) as refused:
        board_token(config, tmp_path)
    assert refused.value.errno == errno.ENOSPC
    assert list(tmp_path.iterdir()) == []  # neither an empty token, which the next start would take, nor a part
    monkeypatch.undo()
    token = board_token(config, tmp_path)  # space made: the next start makes and keeps one
    assert len(token) == 8 and board_token(config, tmp_path) == token


def test_two_starts_at_once_both_keep_the_one_token_that_was_written(tmp_path, monkeypatch):
    config = load_config(system_path=None)
    both_written = threading.Barrier(2, timeout=30)  # each start has written its token before either keeps it
    fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda descriptor: (fsync(descriptor), both_written.wait()))
    said: list[str | BaseException] = []

    def start() -> None:
        try:
            said.append(board_token(config, tmp_path))
        except OSError as error:  # a start that fails is what this test looks for
            said.append(error)

    starts = [threading.Thread(target=start) for _ in range(2)]
    for thread in starts:
        thread.start()
    for thread in starts:
        thread.join()
    kept = (tmp_path / TOKEN_FILE).read_text().strip()
    assert said == [kept, kept]
    assert [p.name for p in tmp_path.iterdir()] == [TOKEN_FILE]  # neither start's own copy left behind


def test_a_blank_token_file_gets_a_token_and_a_blank_token_opens_nothing(tmp_path):
    from types import SimpleNamespace

    from companion.web.server import Hub

    (tmp_path / TOKEN_FILE).write_text("\n")  # emptied by a person to make a new token, or by an older crash
    token = board_token(load_config(system_path=None), tmp_path)
    assert len(token) == 8 and (tmp_path / TOKEN_FILE).read_text().strip() == token
    assert not Hub(emit=lambda entry: None, token="").allowed(SimpleNamespace(headers={}))  # type: ignore[arg-type]


def test_a_disk_without_hard_links_still_keeps_a_token(tmp_path, monkeypatch):
    def no_links(source, target):  # FAT: link(2) is not permitted
        raise PermissionError(errno.EPERM, os.strerror(errno.EPERM), source)

    monkeypatch.setattr(os, "link", no_links)
    config = load_config(system_path=None)
    token = board_token(config, tmp_path)
    assert board_token(config, tmp_path) == token
    assert [p.name for p in tmp_path.iterdir()] == [TOKEN_FILE]


def test_a_token_that_cannot_be_written_names_the_token_file_not_a_temporary_one(tmp_path, monkeypatch):
    import tempfile

    def read_only(dir, prefix):  # mkstemp's own names
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), f"{dir}/{prefix}x1y2z3")

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    with pytest.raises(OSError) as refused:
        board_token(load_config(system_path=None), tmp_path)
    assert refused.value.filename == str(tmp_path / TOKEN_FILE)


def test_the_menu_shows_the_page_and_its_token_on_a_real_board(tmp_path):
    config = load_config(system_path=None)
    token = board_token(config, tmp_path)
    assert (tmp_path / TOKEN_FILE).read_text().strip() == token == board_token(config, tmp_path)
    assert (tmp_path / TOKEN_FILE).stat().st_mode & 0o077 == 0
    game = Game(tmp_path / "g", Settings("Guest", ("easy",), seed=1))
    game.table.menu_note = PageAddress("127.0.0.1:8121", token)
    game.table.emit(Entry("menu", "keypad"))
    game.step()
    assert token in game.table.message


def test_crib_sim_says_where_the_page_is_and_no_web_turns_it_off(tmp_path, capsys):
    script = tmp_path / "script.txt"
    script.write_text("undo\n")
    sim = ["sim", "--quiet", "--set", "devices.pin_factory=mock", "--script", str(script)]
    assert main([*sim, "--state-dir", str(tmp_path / "a"), "--listen", "127.0.0.1:0"]) == 0
    assert re.search(r"The board in a browser: http://127\.0\.0\.1:\d+/", capsys.readouterr().err)
    assert main([*sim, "--state-dir", str(tmp_path / "b"), "--no-web"]) == 0
    assert "browser" not in capsys.readouterr().err
    assert main([*sim, "--state-dir", str(tmp_path / "c"), "--listen", "nowhere"]) == 2
    assert '--listen must be "HOST:PORT"' in capsys.readouterr().err


@pytest.mark.slow
def test_crib_play_in_the_terminal_deals_and_resumes(tmp_path):
    play = [sys.executable, "-m", "companion.cli", "play", "--terminal", "--state-dir", str(tmp_path),
            "--seed", "5", "--opponents", "pro", "--move-seconds", "0"]
    first = subprocess.run([*play, "--new"], input="", capture_output=True, text=True, cwd=ROOT, timeout=120,
                           check=False)
    assert first.returncode == 0, first.stderr
    assert "your hand:" in first.stdout and "lay away 2" in first.stdout
    log = next((tmp_path / "games").glob("*.jsonl"))
    state = replay(GameLog.open(log).inputs)
    hand = state.hands["Guest"]
    again = subprocess.run(play, input=f"{hand[0]} {hand[1]}\n", capture_output=True, text=True, cwd=ROOT,
                           timeout=120, check=True)
    assert "Resuming the game against Pro in" in again.stderr

    after = replay(GameLog.open(log).inputs)
    assert after.discards["Guest"] == (hand[0], hand[1])
    assert f"your hand: {' '.join(c.pretty for c in sorted(c for c in hand if c not in hand[:2]))}" in again.stdout


def test_every_word_the_pages_scripts_say_has_its_german():
    """Each `_("...")` and `ngettext("...", "...", n)` in the pages' scripts is in the German catalog the page is
    handed, wherever the call stands (inside a template literal the catalog's extractor once missed one: "Ann
    won" on a German replay page)."""
    german = getattr(language("de").catalog, "_catalog", {})
    said: dict[str, str] = {}
    literal = r'"((?:[^"\\]|\\.)*)"'
    for script in sorted((Path(__file__).parents[2] / "companion" / "web" / "static").glob("*.js")):
        text = script.read_text(encoding="utf-8")
        for found in re.finditer(rf"\b_\({literal}\)", text):
            said[json.loads(f'"{found[1]}"')] = script.name
        for found in re.finditer(rf"\bngettext\({literal},\s*{literal}", text):
            said[json.loads(f'"{found[1]}"')] = script.name
    missing = {msgid: where for msgid, where in said.items()
               if not german.get(msgid) and not german.get((msgid, 0))}
    assert len(said) > 100 and missing == {}
