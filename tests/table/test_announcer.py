"""What the board says aloud at the table: each score as the screen shows it, in English and German; the count
and whose turn it is when asked for; the winner; a new deal or an undo cuts what is still being said; MENU twice
mutes. The speaker's worker is driven on this thread, its voice simulated."""

from __future__ import annotations

from pathlib import Path

from companion.base.clock import ManualClock
from companion.boards import load_layout
from companion.cribbage.transcript import GameInput
from companion.devices.presence import Watch
from companion.devices.voice import SimulatedVoice, Speaker
from companion.entry import Entry
from companion.gamelog import GameLog
from companion.table import Table
from companion.table.announcer import Announcer
from companion.view.screen import ROWS, spoken_pages
from tests.golden import GOLDEN

DEAL = [line for line in (GOLDEN / "deal.txt").read_text().splitlines() if line and not line.startswith("#")]
SHOW = ["Bob's hand: 20; fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
        "fifteen fourteen, and a pair royal is twenty",
        "Ann's hand: 9; fifteen two, fifteen four, and a run of five is nine",
        "Ann's crib: 4; fifteen two, fifteen four"]


class Board:
    def __init__(self, tmp_path: Path, speak: tuple[str, ...] = ("scores", "winner"), target: int = 121) -> None:
        self.clock = ManualClock()
        self.table = Table(GameLog.open(tmp_path / "0001.jsonl"), setup=GameInput(("Ann", "Bob"), dealer="Ann",
                                                                                  target=target),
                           layout=load_layout("two-track-121"), clock=self.clock,
                           new_log=lambda: GameLog.open(tmp_path / "0002.jsonl"))
        self.voice = SimulatedVoice()
        self.speaker = Speaker(Watch("loudspeaker", lambda: self.voice, self.clock), thread=False)
        self.announcer = self.table.announcer = Announcer(self.speaker, speak)

    def enter(self, *texts: str) -> list[str]:
        """What the board says for these entries."""
        before = len(self.voice.said)
        for text in texts:
            self.table.emit(Entry(text, "terminal"))
            list(self.table.drain())
        self.speaker.run_pending()
        return [u.text for u in self.voice.said[before:]]


def test_the_show_is_counted_aloud_as_the_screen_shows_it(tmp_path):
    board = Board(tmp_path)
    said = board.enter(*DEAL[:-4])  # the play, then the hands are counted
    assert said == ["Ann: a run of three is three", "Bob: one for the go", "Ann: one for last", *SHOW[:2]]
    assert board.enter(*DEAL[-4:]) == SHOW[2:]  # the crib
    shown = spoken_pages([e for e in board.table.state.events if e.kind.in_show], ROWS)  # the OLED's pages
    assert all(line.removeprefix("Ann: ").removeprefix("Bob: ") in " ".join(SHOW) for page in shown for line in page)
    assert {u.language for u in board.voice.said} == {"en"}


def test_in_german_the_count_is_said_in_german(speak, tmp_path):
    speak("de")
    board = Board(tmp_path)
    said = board.enter(*DEAL)
    assert said[-3:] == ["Hand Bob: 20; fünfzehn zwei, fünfzehn vier, fünfzehn sechs, fünfzehn acht, fünfzehn zehn, "
                         "fünfzehn zwölf, fünfzehn vierzehn, und ein Drilling macht zwanzig",
                         "Hand Ann: 9; fünfzehn zwei, fünfzehn vier, und eine Folge von fünf macht neun",
                         "Krippe Ann: 4; fünfzehn zwei, fünfzehn vier"]
    assert {u.language for u in board.voice.said} == {"de"}


def test_the_count_after_each_card_and_whose_turn_it_is_when_asked_for(tmp_path):
    board = Board(tmp_path, speak=("count", "turn"))
    assert board.enter(DEAL[0]) == ["Bob to play, count 0"]
    assert board.enter(DEAL[1]) == ["Count 10", "Ann to play, count 10"]
    assert board.enter("go") == []  # refused (Ann can play): nothing changed, nothing said


def test_nothing_is_said_for_what_is_not_chosen(tmp_path):
    board = Board(tmp_path, speak=("winner",))
    assert board.enter(*DEAL) == []


def test_the_winner_is_said(tmp_path):
    board = Board(tmp_path, target=61)
    board.enter("peg Ann 58")
    assert board.enter("peg Ann 3") == ["Ann: three pegged", "Ann wins 61 to 0: a double skunk"]


def test_a_new_deal_cuts_what_is_still_being_said_and_an_undo_too(tmp_path):
    board = Board(tmp_path)
    board.enter(*DEAL)
    cuts = board.voice.cuts
    board.speaker.say(board.voice.said[-1])  # the crib's count, still queued when the next deal begins
    assert board.enter("4D") == []  # the next starter
    assert board.voice.cuts == cuts + 1
    assert board.enter("undo") == ["Undone: the starter 4♦"]  # what it took back, in one line
    assert board.voice.cuts == cuts + 2


def test_menu_twice_mutes_the_voice_and_twice_again_unmutes_it(tmp_path):
    board = Board(tmp_path)
    board.enter("menu")
    assert "MENU again: voice off or on" in (board.table.message or "")
    board.enter("menu")
    assert board.table.message == "Voice off: MENU twice turns it on again"
    assert board.enter(*DEAL) == []
    board.clock.advance(10)
    board.enter("menu", "menu")
    assert board.table.message == "Voice on: the board says the counts"
    assert board.enter("peg Bob 2") == ["Bob: two pegged"]


def test_mute_and_unmute_as_words_and_a_board_without_a_voice_says_how_to_get_one(tmp_path):
    board = Board(tmp_path)
    board.enter("mute")
    assert board.speaker.muted and board.table.spoken.muted
    board.enter("unmute")
    assert not board.speaker.muted
    silent = Table(GameLog.open(tmp_path / "silent.jsonl"), setup=GameInput(("Ann", "Bob"), dealer="Ann"),
                   layout=load_layout("two-track-121"), clock=ManualClock())
    silent.announcer = Announcer(None, ("scores",))
    silent.emit(Entry("mute", "terminal"))
    outcome = next(silent.drain())
    assert outcome.error and outcome.words() == "this board has no voice: turn it on in [voice] (enabled = true)"


def test_the_page_is_given_each_utterance_numbered_and_where_the_latest_cut_was(tmp_path):
    board = Board(tmp_path)
    board.enter(*DEAL)
    spoken = board.table.spoken
    assert spoken.count == 6 and spoken.said[-1] == (6, SHOW[-1]) and spoken.board_voice
    board.enter("4D")  # the next deal: a cut, nothing said
    assert board.table.spoken.cut == 6 and board.table.spoken.count == 6
