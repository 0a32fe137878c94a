"""The table controller: entries in, log, pegs and screen out; bad input changes nothing."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from companion.advice.coach import review_discard
from companion.base.clock import ManualClock
from companion.cribbage.cards import Card
from companion.cribbage.game import replay
from companion.cribbage.transcript import (
    CribInput,
    DiscardInput,
    GameInput,
    PegInput,
    PlayInput,
    StarterInput,
    UndoInput,
    input_to_line,
)
from companion.devices.sim import SimStrip
from companion.gamelog import CannotSave, GameLog
from companion.i18n import language
from companion.table import Table
from companion.view.pegs import DEFAULT_COLOURS
from companion.words.review import review_words
from tests.facts import by_name
from tests.golden import assert_golden
from tests.sample_deal import DEAL, GAME
from tests.table.tables import LAYOUT, enter, new_table

RED = DEFAULT_COLOURS[0]


def test_a_whole_deal_by_scanner_codes_and_typed_words(tmp_path):
    table = new_table(tmp_path)
    assert table.prompt() == "Ann deals. Enter the starter"
    scanned = {"5C": "C5C", "10C": "CTC", "JH": "CJH"}  # some cards scanned, some typed
    outcomes = enter(table, *(scanned.get(text, text) for text in DEAL[:-4]))
    assert all(o.accepted is not None for o in outcomes), [o.words() for o in outcomes if o.error]
    assert table.prompt() == "Enter Ann's crib"
    assert by_name(table.state.scores) == {"Ann": 13, "Bob": 21}
    assert_golden(table.picture.image, "app-after-the-play")
    held = enter(table, *DEAL[-4:-1])
    assert [o.accepted for o in held] == [None, None, None]
    assert table.prompt() == "Crib: 3 of 4"
    assert len(table.log.inputs) == 12  # the crib is not logged until all four cards are in
    (last,) = enter(table, DEAL[-1])
    assert isinstance(last.accepted, CribInput)
    assert by_name(table.state.scores) == {"Ann": 17, "Bob": 21}
    assert table.prompt() == "Bob deals. Enter the starter"
    assert table.picture.frame[LAYOUT.led_for(0, 17)] == RED
    assert GameLog.open(table.log.path).inputs == list(replay(table.log.inputs).inputs)
    assert_golden(table.picture.image, "app-crib-counted")


def test_an_illegal_play_is_explained_for_a_few_seconds_and_changes_nothing(tmp_path):
    clock = ManualClock()
    table = new_table(tmp_path, clock, message_seconds=4.0)
    enter(table, "5C", "10C", "KH", "5H")  # count 25
    state, logged = table.state, list(table.log.inputs)
    (outcome,) = enter(table, "9S")
    assert outcome.error and "count is 25" in outcome.words()
    assert table.state is state and table.log.inputs == logged
    assert GameLog.open(table.log.path).inputs == logged
    assert_golden(table.picture.image, "app-error-over-31")
    clock.advance(3.9)
    table.tick(clock.monotonic())
    assert table.message is not None
    clock.advance(0.2)
    table.tick(clock.monotonic())
    assert table.message is None
    assert_golden(table.picture.image, "app-back-to-the-prompt")


def test_a_shop_barcode_and_nonsense_are_rejected_without_changing_anything(tmp_path):
    table = new_table(tmp_path)
    enter(table, "5C")
    state = table.state
    (shop, word) = enter(table, "5012345678900", "banana")
    assert shop.error and "not a Cribbage Companion code" in shop.words()
    assert word.error and "not a card or a command" in word.words()
    assert table.state is state and len(table.log.inputs) == 2


def test_undo_is_repeatable_and_the_pegs_follow(tmp_path):
    table = new_table(tmp_path)
    enter(table, *DEAL[:4])  # starter, 10C, 4C, 5H
    enter(table, "6D")  # Ann's run of three: 3 points
    assert table.state.score("Ann") == 3 and table.picture.frame[LAYOUT.led_for(0, 3)] == RED
    enter(table, "undo", "undo")
    assert table.state.count == 14 and table.state.score("Ann") == 0
    assert table.picture.frame[LAYOUT.led_for(0, 0)] == RED and table.picture.frame[LAYOUT.led_for(0, 3)] != RED
    assert [type(i) for i in table.log.inputs[-2:]] == [UndoInput, UndoInput]
    enter(table, "undo", "undo", "undo")  # back to the game input: nothing more to take back
    (nothing,) = enter(table, "undo")
    assert nothing.error and "nothing to undo" in nothing.words()
    assert replay(table.log.inputs).phase == "deal"


def test_undo_while_collecting_the_crib_takes_back_one_card(tmp_path):
    table = new_table(tmp_path)
    enter(table, *DEAL[:-4], "2C", "3D")
    (undone,) = enter(table, "undo")
    assert undone.words() == "Undone: 3♦ (Crib: 1 of 4)" and table.prompt() == "Crib: 1 of 4"
    (again,) = enter(table, "2C")
    assert again.error and again.words() == "2♣ is in the crib already: enter another card"
    (played,) = enter(table, "JH")
    assert played.error and played.words() == "J♥ was played by Bob: enter another card"


def test_ok_is_accepted_but_never_required_and_manual_pegging_works(tmp_path):
    table = new_table(tmp_path)
    (ok,) = enter(table, "ok")
    assert not ok.error and ok.accepted is None
    (peg,) = enter(table, "peg 2 5")
    assert peg.accepted == PegInput("Bob", 5) and table.state.score("Bob") == 5


def test_a_new_game_needs_a_second_new_and_starts_a_new_log(tmp_path):
    clock = ManualClock()
    table = new_table(tmp_path, clock)
    enter(table, "5C", "10C")
    (first,) = enter(table, "new")
    assert "again" in first.words() and table.state.count == 10
    (second,) = enter(table, "XN")
    assert second.accepted == GAME and table.log.path.name == "0002.jsonl"
    assert table.state.phase == "deal" and table.state.count == 0


def test_the_table_resumes_from_its_log(tmp_path):
    table = new_table(tmp_path)
    enter(table, *DEAL[:6])
    again = new_table(tmp_path)
    assert again.state == table.state
    assert again.log.inputs[0] == GAME and len(again.log.inputs) == 7


def test_coaching_mode_takes_both_hands_before_the_starter(tmp_path):
    table = new_table(tmp_path, coaching=True)
    assert table.prompt() == "Enter Bob's six cards (ok: skip)"
    enter(table, "10C", "5H", "5D", "JH", "AS", "2S")
    assert table.prompt() == "Enter Ann's six cards (ok: skip)"
    enter(table, "4C", "6D", "7S", "8H", "AH", "2H")
    assert table.state.hands == {"Bob": table.state.hands["Bob"], "Ann": table.state.hands["Ann"]}
    assert len(table.state.hands["Bob"]) == 6
    (starter,) = enter(table, "5C")
    assert starter.accepted == StarterInput(starter.accepted.card)


def test_an_absent_strip_does_not_stop_the_game_and_gets_the_whole_picture_back(tmp_path):
    strip = SimStrip(LAYOUT.led_count)
    table = new_table(tmp_path, strip=strip)
    strip.unplug()
    (outcome,) = enter(table, "5C")
    enter(table, "10C", "4C", "5H", "6D")  # Ann pegs a run of three while the strip is away
    assert isinstance(outcome.accepted, StarterInput) and table.state.score("Ann") == 3
    strip.plug()
    assert strip.frame == table.picture.frame and strip.frame[LAYOUT.led_for(0, 3)] == RED


def test_the_screen_says_when_the_strip_goes_missing_and_when_it_is_back(tmp_path):
    clock = ManualClock()
    strip = SimStrip(LAYOUT.led_count)
    table = new_table(tmp_path, clock, strip=strip)
    strip.unplug()
    table.tick(clock.monotonic())
    assert table.message == "LED strip not connected: check the Pico's USB cable. The game goes on"
    assert table.message_is_error
    clock.advance(5)
    table.tick(clock.monotonic())  # said once, then back to the prompt while the game goes on
    assert table.message is None and table.prompt() == "Ann deals. Enter the starter"
    strip.plug()
    table.tick(clock.monotonic())
    assert table.message == "LED strip connected: the pegs are shown again" and not table.message_is_error


def test_without_a_dealer_the_players_cut_and_the_lower_card_deals(tmp_path):
    table = Table(GameLog.open(tmp_path / "g.jsonl"), setup=GameInput(("Ann", "Bob")), layout=LAYOUT,
                  clock=ManualClock())
    assert table.prompt() == "Cut for deal: Ann and Bob to cut (ok: no cut, Ann deals)"
    enter(table, "KH", "3C")
    assert table.state.dealer == "Bob" and table.prompt() == "Bob deals. Enter the starter"


def test_crib_cards_held_survive_a_power_cut_between_the_second_and_fourth(tmp_path):
    table = new_table(tmp_path)
    enter(table, *DEAL[:-4], "2C", "3D")
    assert table.prompt() == "Crib: 2 of 4" and len(table.log.inputs) == 12
    again = new_table(tmp_path)  # the first table is gone with the power; the log and the held cards remain
    assert again.prompt() == "Crib: 2 of 4"
    (repeat,) = enter(again, "3D")
    assert repeat.error and repeat.words() == "3♦ is in the crib already: enter another card"
    enter(again, "9S", "KH")
    assert again.log.inputs[-1] == CribInput(tuple(Card.parse(c) for c in ("2C", "3D", "9S", "KH")))
    assert by_name(again.state.scores) == {"Ann": 17, "Bob": 21}
    assert not again.log.pending_path.exists()


def test_held_cards_left_from_before_the_crib_was_logged_are_stale_and_ignored(tmp_path):
    table = new_table(tmp_path)
    enter(table, *DEAL[:-1])
    kept = table.log.pending_path.read_bytes()
    enter(table, DEAL[-1])
    table.log.pending_path.write_bytes(kept)  # a crash after the crib was logged, before the file went
    again = new_table(tmp_path)
    assert again.prompt() == "Bob deals. Enter the starter" and not again.cards
    assert not again.log.pending_path.exists()


def test_taking_back_every_held_card_leaves_nothing_to_restore(tmp_path):
    table = new_table(tmp_path)
    enter(table, *DEAL[:-4], "2C", "undo")
    assert not table.log.pending_path.exists()
    enter(table, "2C", "peg 1 2")  # a manual peg while a crib card is held: the held card goes on
    assert new_table(tmp_path).prompt() == "Crib: 1 of 4"


def test_a_coached_hand_half_scanned_survives_a_restart(tmp_path):
    table = new_table(tmp_path, coaching=True)
    enter(table, "10C", "5H", "5D")
    again = new_table(tmp_path, coaching=True)
    assert again.prompt() == "Bob's hand: 3 of 6"
    enter(again, "JH", "AS", "2S")
    assert again.state.hands["Bob"] == tuple(Card.parse(c) for c in ("10C", "5H", "5D", "JH", "AS", "2S"))


def test_with_the_hands_known_the_screen_asks_for_the_go(tmp_path):
    table = new_table(tmp_path, coaching=True)
    enter(table, "10C", "5H", "5D", "JH", "2C", "3D")  # Bob's six (he lays away 2C 3D)
    enter(table, "4C", "6D", "7S", "8H", "9S", "KH")  # Ann's six (9S KH)
    enter(table, *DEAL[:6])  # the starter, then the play to 30
    assert table.state.count == 30 and table.prompt() == "Ann says go? count 30"
    assert_golden(table.picture.image, "app-says-go")
    enter(table, "go")
    assert table.prompt() == "Bob says go? count 30"  # JH, and 2C 3D if he had kept them: none fits
    enter(table, "go")
    assert table.prompt() == "Ann to play, count 0"


BOB_DEALT = ("10C", "5H", "5D", "JH", "2C", "3D")  # Bob plays 10C 5H 5D JH in the sample deal: 2C 3D laid away
ANN_DEALT = ("4C", "6D", "7S", "8H", "9S", "KH")  # Ann plays 4C 6D 7S 8H: 9S KH laid away


def coached_play(tmp_path: Path, clock: ManualClock) -> Table:
    """Both hands scanned, then the sample deal's starter and play; the crib is still to scan."""
    table = new_table(tmp_path, clock, coaching=True, page_seconds=2.5)
    enter(table, *BOB_DEALT, *ANN_DEALT)
    outcomes = enter(table, *DEAL[:-4])
    assert all(o.accepted is not None for o in outcomes), [o.words() for o in outcomes if o.error]
    return table


def coach_text(table: Table) -> list[str]:
    return [" ".join(view.body) + " | " + view.prompt for view in table.coach]


def test_coaching_logs_each_discard_when_the_play_ends_and_pages_its_review(tmp_path):
    clock = ManualClock()
    table = coached_play(tmp_path, clock)
    cards = lambda text: tuple(Card.parse(c) for c in text.split())  # noqa: E731
    assert table.log.inputs[-3:] == [PlayInput(Card.parse("8H")), DiscardInput("Bob", cards("2C 3D")),
                                     DiscardInput("Ann", cards("9S KH"))]
    assert table.state.deals[0].discards == {"Bob": cards("2C 3D"), "Ann": cards("9S KH")}
    # what the coach says, pone first: Bob kept the best four; Ann did not (the log gives the same review again)
    for player in ("Bob", "Ann"):
        review = review_discard(replay(table.log.inputs), player)
        assert review is not None
        said = review_words(review, language("en"))
        shown = " ".join(line for view in table.coach if view.prompt.startswith(f"Coach: {player} ")
                         for line in view.body)
        assert shown == said
    # each page ends where a phrase ends
    assert coach_text(table)[0] == "Best discard: Keep 5-5-10-J: it averages 12.7 in hand | Coach: Bob 1/3"
    assert coach_text(table)[3] == "That is not the optimal discard: | Coach: Ann 1/4"
    assert coach_text(table)[4] == "your discard averages 11.1 points; | Coach: Ann 2/4"
    assert " ".join(table.coach[5].body + table.coach[6].body).endswith(
        "keeping 6-7-8-9 and laying away 4-K averages 14.8 (3.7 more).")
    assert all(len(line) <= 21 for view in table.coach for line in (*view.body, view.prompt))
    assert_golden(table.picture.image, "app-coach-review")
    clock.advance(2.5 * 3)  # Bob's three pages shown: Ann's first
    table.tick(clock.monotonic())
    assert_golden(table.picture.image, "app-coach-review-ann")
    enter(table, "ok")  # ok turns to the next page at once
    assert table.coach_page == 4
    clock.advance(2.5 * 3)  # all seven pages shown: back to the counts of the hands, from their first page
    table.tick(clock.monotonic())
    assert not table.coach and table.picture.page == 0
    assert_golden(table.picture.image, "app-after-the-play")


def test_the_scanned_crib_is_checked_against_the_discards_worked_out(tmp_path):
    table = coached_play(tmp_path, ManualClock())
    *_, wrong = enter(table, "2C", "3D", "9S", "QH")
    assert wrong.error and "Ann laid away KH: the crib must hold it" in wrong.words()
    assert table.state.phase == "crib" and not table.coach
    assert table.prompt() == "Crib: 3 of 4"  # the rejected card changed nothing: the three good ones are held
    enter(table, "KH")
    assert by_name(table.state.scores) == {"Ann": 17, "Bob": 21}
    assert table.prompt() == "Enter Ann's six cards (ok: skip)"


def test_an_undo_after_the_play_takes_back_the_discards_with_the_last_card(tmp_path):
    table = coached_play(tmp_path, ManualClock())
    (undone,) = enter(table, "undo")
    assert isinstance(undone.accepted, UndoInput)
    assert [type(i) for i in table.log.inputs[-3:]] == [UndoInput, UndoInput, UndoInput]
    assert table.state.phase == "play" and table.state.discards == {} and table.prompt() == "Ann to play, count 17"
    enter(table, "8H")  # the same last card again: the discards are worked out again
    assert set(table.state.discards) == {"Bob", "Ann"} and table.coach
    enter(table, "2C", "3D", "9S", "KH", "undo")  # the crib undone: the discards stay, the crib is scanned again
    assert table.state.phase == "crib" and set(table.state.discards) == {"Bob", "Ann"}


def test_discards_missed_by_a_power_cut_after_the_last_card_are_logged_on_restart(tmp_path):
    table = coached_play(tmp_path, ManualClock())
    lines = table.log.path.read_text().splitlines()
    table.log.path.write_text("\n".join(lines[:-2]) + "\n")  # the power went before the discards were written
    again = new_table(tmp_path, coaching=True)
    assert again.log.inputs == table.log.inputs and again.state == table.state
    assert [view.prompt for view in again.coach] == [view.prompt for view in table.coach]


def test_new_game_after_a_game_of_an_acc_match_plays_on_in_the_match(tmp_path):
    setup = GameInput(("Ann", "Bob"), dealer="Ann", match=True, match_scoring="acc")
    table = Table(GameLog.open(tmp_path / "g.jsonl"), setup=setup, layout=LAYOUT, clock=ManualClock())
    enter(table, "peg 1 121")  # Ann wins, Bob on 0: a double skunk, 3 game points in ACC scoring
    assert table.state.phase == "game over" and by_name(table.state.match_points) == {"Ann": 3, "Bob": 0}
    (new,) = enter(table, "new")
    assert new.accepted is not None and table.state.game_number == 2 and table.state.dealer == "Bob"
    assert by_name(table.state.match_points) == {"Ann": 3, "Bob": 0} and table.state.match_scoring == "acc"


class FullDisk:
    """Every write to the state directory fails as a full disk does (after taking part of the line), until freed."""

    def __init__(self, monkeypatch, code: int = 28) -> None:  # ENOSPC
        import os
        self.full, self.code, self.real = True, code, os.pwrite
        monkeypatch.setattr("companion.gamelog.os.pwrite", self.pwrite)
        real_replace = os.replace
        monkeypatch.setattr("companion.gamelog.os.replace",
                            lambda a, b: self.fail() if self.full else real_replace(a, b))

    def fail(self):
        import os
        raise OSError(self.code, os.strerror(self.code))

    def pwrite(self, fd, data, offset):
        if self.full:
            self.real(fd, data[: len(data) // 2], offset)
            self.fail()
        return self.real(fd, data, offset)


def test_a_full_disk_refuses_the_entry_on_the_screen_and_takes_it_once_there_is_room(tmp_path, monkeypatch):
    table = new_table(tmp_path)
    enter(table, *DEAL[:3])
    state, logged, on_disk = table.state, list(table.log.inputs), table.log.path.read_bytes()
    disk = FullDisk(monkeypatch)
    (outcome,) = enter(table, DEAL[3])
    assert outcome.error and outcome.accepted is None
    assert table.message == "Cannot save: the disk is full. Nothing was entered; try again once there is room"
    assert table.message_is_error and table.state is state and table.log.inputs == logged
    assert table.log.path.read_bytes() == on_disk  # the half-written line is gone: the log stays valid
    (card,) = enter(table, DEAL[-1])  # no crib card can be held either: "Crib 1 of 4" would be a promise
    assert card.error and "Cannot save" in card.words()
    disk.full = False
    outcomes = enter(table, *DEAL[3:])  # room again: the same entries simply work, nothing to restart
    assert all(not o.error for o in outcomes) and by_name(table.state.scores) == {"Ann": 17, "Bob": 21}
    assert GameLog.open(table.log.path).inputs == list(table.log.inputs)


def test_a_crib_card_that_cannot_be_kept_is_refused_and_the_held_ones_stay(tmp_path, monkeypatch):
    table = new_table(tmp_path)
    enter(table, *DEAL[:-4], DEAL[-4])
    assert table.prompt() == "Crib: 1 of 4"
    disk = FullDisk(monkeypatch)
    (outcome,) = enter(table, DEAL[-3])
    assert outcome.error and "Cannot save: the disk is full" in outcome.words()
    assert table.prompt() == "Crib: 1 of 4" and new_table(tmp_path).cards == [Card.parse(DEAL[-4])]
    disk.full = False
    enter(table, *DEAL[-3:])
    assert by_name(table.state.scores) == {"Ann": 17, "Bob": 21}


def test_a_logged_crib_whose_held_cards_file_cannot_be_kept_is_journalled_as_logged(tmp_path, monkeypatch, caplog):
    table = new_table(tmp_path)
    enter(table, *DEAL[:-4], *DEAL[-4:-1])
    assert table.prompt() == "Crib: 3 of 4"

    def full(log: GameLog, data: object) -> None:  # only the held cards' file: the log itself is written
        raise CannotSave(log.pending_path, OSError(28, os.strerror(28)))

    monkeypatch.setattr(GameLog, "write_pending", full)
    monkeypatch.setenv("LANG", "C.UTF-8")
    caplog.set_level(logging.WARNING)
    (outcome,) = enter(table, DEAL[-1])
    assert not outcome.error and by_name(table.state.scores) == {"Ann": 17, "Bob": 21}
    assert caplog.messages == [f"{table.log.pending_path}: cannot keep the held cards (No space left on device); "
                               "the entry is logged"]


def test_a_board_started_on_a_read_only_disk_comes_up_and_says_so(tmp_path, monkeypatch):
    disk = FullDisk(monkeypatch, code=30)  # EROFS
    table = new_table(tmp_path)
    assert table.state.phase == "new" and table.message.startswith("Cannot save: the disk is read-only")
    (outcome,) = enter(table, "5C")
    assert outcome.error and "read-only" in outcome.words() and table.state.phase == "new"
    disk.full = False
    (outcome,) = enter(table, "5C")  # the game starts, then the starter
    assert outcome.accepted == StarterInput(Card.parse("5C")) and table.state.players == ("Ann", "Bob")


def test_new_game_on_a_full_disk_keeps_the_game_on_the_board(tmp_path, monkeypatch):
    table = new_table(tmp_path)
    enter(table, *DEAL[:3])
    state, path = table.state, table.log.path
    disk = FullDisk(monkeypatch)
    enter(table, "new")
    (outcome,) = enter(table, "new")
    assert outcome.error and "Cannot save" in outcome.words() and table.state is state and table.log.path == path
    disk.full = False
    enter(table, "new", "new")
    assert table.log.path.name == "0002.jsonl" and len(table.log.inputs) == 1


def test_ok_n_names_the_log_line_that_holds_the_input_even_when_discards_follow_it(tmp_path):
    table = new_table(tmp_path, coaching=True)
    enter(table, *BOB_DEALT, *ANN_DEALT)
    outcomes = enter(table, *DEAL[:-4])
    last = outcomes[-1]  # the play that ends the play: the two discards are logged after it
    assert isinstance(last.accepted, PlayInput) and isinstance(table.log.inputs[-1], DiscardInput)
    lines = table.log.path.read_text(encoding="utf-8").splitlines()
    for outcome in outcomes:
        assert lines[outcome.line - 1] == input_to_line(outcome.accepted)
    assert last.line == len(lines) - 2


def test_what_the_table_shows_is_the_same_in_plain_values(tmp_path):
    strip = SimStrip(LAYOUT.led_count)
    table = new_table(tmp_path, strip=strip)
    enter(table, *DEAL[:5])  # Ann's run of three
    shown = table.shown().to_json()
    assert shown["screen"]["prompt"] == table.prompt() == "Bob to play, count 25"
    assert shown["screen"]["scores"] == [["Ann", 3], ["Bob", 0]] and shown["message"] is None
    assert shown["leds"] == [list(colour) for colour in strip.frame]
    (bad,) = enter(table, "9S")
    shown = table.shown().to_json()
    assert shown["error"] is True and shown["message"] == bad.words() == shown["screen"]["error"]


def test_undo_says_what_it_took_back_from_the_input_undone(tmp_path):
    table = new_table(tmp_path)
    enter(table, *DEAL[:3])  # the starter 5C, Bob 10C, Ann 4C
    (undone,) = enter(table, "undo")
    assert undone.accepted is not None and undone.words() == "Undone: Ann's 4♣"
    assert table.presenter.words() == "Undone: Ann's 4♣" and not table.presenter.message_is_error
    (undone,) = enter(table, "undo")
    assert undone.words() == "Undone: Bob's 10♣"
    (undone,) = enter(table, "undo")
    assert undone.words() == "Undone: the starter 5♣"
    enter(table, *DEAL[:-4], *DEAL[-4:])  # the whole deal again, the crib's four cards last
    (undone,) = enter(table, "undo")
    assert undone.words() == "Undone: the crib's 4 cards" and table.prompt() == "Enter Ann's crib"
    (undone,) = enter(table, "undo")
    assert undone.words() == "Undone: Ann's 8♥"  # the last card of the play
    enter(table, "8H", "go")
    assert table.state.phase == "crib"


def test_undo_names_a_go_and_a_manual_peg(tmp_path):
    table = new_table(tmp_path)
    enter(table, *DEAL[:7])  # ... Bob 5D makes 30: Ann says go
    (undone,) = enter(table, "undo")
    assert undone.words() == "Undone: Ann's go"
    enter(table, "peg Bob 5")
    (undone,) = enter(table, "undo")
    assert undone.words() == "Undone: 5 points pegged for Bob"


def test_partners_winning_peg_with_long_names_ends_the_game_on_the_screen(tmp_path):
    """"Bartholomäus & Konstantinus: pegging 4" takes three lines of a two-line room: the screen pages it on."""
    setup = GameInput(("Bartholomäus", "Maximilianus", "Konstantinus", "Philippineke"), dealer="Bartholomäus")
    table = Table(GameLog.open(tmp_path / "g.jsonl"), setup=setup, layout=LAYOUT, clock=ManualClock())
    enter(table, "peg Bartholomäus 117")
    (won,) = enter(table, "peg Bartholomäus 10")  # capped at 121: the winning peg
    assert won.accepted is not None and table.state.phase == "game over"
