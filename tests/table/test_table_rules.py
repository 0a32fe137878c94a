"""The table's rules as players meet them (docs/rules.md): entries in, the words on the screen out.

Each test is a script of entries as typed or scanned at the table, and checks what a player would notice: the
prompt and the message on the screen, the scores said, the dealer, and what the log and statistics keep.
"""

from __future__ import annotations

from pathlib import Path

from companion import stats
from companion.base.clock import ManualClock
from companion.boards import load_layout
from companion.cribbage.facts import ScoreKind
from companion.cribbage.game import replay
from companion.cribbage.transcript import GameInput, PlayInput, UndoInput
from companion.entry import Entry
from companion.gamelog import GameLog
from companion.i18n import ENGLISH
from companion.table import Table
from companion.view.speech import score_words
from companion.words.phrases import notes
from tests.facts import by_name, label, name
from tests.sample_deal import DEAL

LAYOUT = load_layout("two-track-121")


def table_for(tmp_path: Path, setup: GameInput, clock: ManualClock | None = None) -> Table:
    games = tmp_path / "games"
    return Table(GameLog.open(games / "0001.jsonl"), setup=setup, layout=LAYOUT, clock=clock or ManualClock(),
                 new_log=lambda: GameLog.open(games / f"{len(list(games.glob('*.jsonl'))) + 1:04d}.jsonl"))


def enter(table: Table, *texts: str):
    for text in texts:
        table.emit(Entry(text, "terminal"))
    return list(table.drain())


def said(table: Table) -> str:
    """The scores of the last entry as the board says them (the screen pages the same words)."""
    return " ".join(score_words(event) for event in table.picture.recent)


ANN_DEALS = GameInput(("Ann", "Bob"), dealer="Ann")


# --- go ----------------------------------------------------------------------------------------------------

def test_a_go_at_five_is_refused_with_why_and_what_to_do_and_nothing_changes(tmp_path):
    table = table_for(tmp_path, ANN_DEALS)
    enter(table, "5C", "10C", "4C")  # starter, Bob 10C, Ann 4C: count 14
    state, logged = table.state, list(table.log.inputs)
    (go,) = enter(table, "go")
    assert go.error and go.words() == "No go at 14: every card fits. Play a card."
    assert table.message == go.words() and table.state is state and table.log.inputs == logged
    assert table.prompt() == "Bob to play, count 14"
    enter(table, "5H", "6D", "5D")  # 30: now a go is a player's word
    (go,) = enter(table, "go")
    assert not go.error and table.prompt() == "Bob to play, count 30"


def test_a_player_out_of_cards_is_passed_by_without_a_go(tmp_path):
    table = table_for(tmp_path, ANN_DEALS)
    enter(table, "2S", "KC", "KD", "9C", "go", "AC", "go", "5H", "5C")  # Bob's fourth and last card is 5C
    assert table.prompt() == "Ann to play, count 10"
    (go,) = enter(table, "go")
    assert go.error and go.words() == "No go at 10: every card fits. Play a card."
    enter(table, "2H")
    assert table.prompt() == "Ann to play, count 12"  # Ann plays on: nobody says go for Bob
    assert [label(e) for e in table.state.events if e.player == "Bob"] == ["go", "pegging"]


# --- the cut for deal, and who deals next ------------------------------------------------------------------

def test_the_cut_is_entered_like_any_card_and_equal_cards_cut_again(tmp_path):
    table = table_for(tmp_path, GameInput(("Ann", "Bob")))
    assert table.prompt() == "Cut for deal: Ann and Bob to cut (ok: no cut, Ann deals)"
    enter(table, "4H")
    assert table.prompt() == "Cut for deal: Bob to cut (ok: no cut, Ann deals)"
    enter(table, "4S")
    assert table.prompt() == "Equal cards: cut again. Cut for deal: Ann and Bob to cut (ok: no cut, Ann deals)"
    enter(table, "9C", "2D")
    assert table.state.dealer == "Bob" and table.prompt() == "Bob deals. Enter the starter"


def test_ok_skips_the_cut_and_the_first_player_deals(tmp_path):
    table = table_for(tmp_path, GameInput(("Ann", "Bob")))
    enter(table, "KH")  # Ann has cut; the table decides to skip it
    (ok,) = enter(table, "ok")
    assert ok.words() == "No cut: Ann deals" and table.message == "No cut: Ann deals"
    assert table.state.dealer == "Ann" and table.state.phase == "deal" and table.state.cuts == ()
    assert replay(GameLog.open(table.log.path).inputs) == table.state  # the log says the same after a restart
    assert table.log.inputs[-1] == GameInput(("Ann", "Bob"), dealer="Ann")


def test_naming_the_dealer_skips_the_cut(tmp_path):
    table = table_for(tmp_path, GameInput(("Ann", "Bob"), dealer="Bob"))
    assert table.state.phase == "deal" and table.prompt() == "Bob deals. Enter the starter"


def test_after_a_game_the_loser_deals_first_in_the_next_and_the_screen_says_so(tmp_path):
    table = table_for(tmp_path, ANN_DEALS)
    enter(table, "peg 2 100", "peg 1 121")  # Ann wins 121 to 100
    assert table.state.phase == "game over" and table.prompt() == "Ann wins 121 to 100"
    (new,) = enter(table, "new")
    assert new.words() == "Bob lost the last game: Bob deals first" and table.message == new.words()
    assert table.log.path.name == "0002.jsonl" and table.state.dealer == "Bob"
    assert table.prompt() == "Bob deals. Enter the starter"


def test_in_a_match_the_loser_deals_the_next_game_and_the_screen_says_so(tmp_path):
    table = table_for(tmp_path, GameInput(("Ann", "Bob"), dealer="Ann", match=True))
    enter(table, "peg 1 100", "peg 2 121")  # Bob wins: Ann deals the next game of the match
    (new,) = enter(table, "new")
    assert new.words() == "Ann lost the last game: Ann deals first"
    assert table.state.game_number == 2 and table.state.dealer == "Ann"


# --- scores capped at the target ---------------------------------------------------------------------------

def test_a_hand_past_121_pegs_to_121_and_the_screen_says_what_it_held_and_that_the_game_is_over(tmp_path):
    table = table_for(tmp_path, ANN_DEALS)
    enter(table, "peg 2 110", *DEAL[:-4])  # Bob's hand, counted first, holds 20
    assert table.state.score("Bob") == 121 and table.state.phase == "game over"
    assert "Bob's hand: 10" in said(table)
    assert "and a pair royal is twenty; twenty held, ten pegged: Bob reaches 121 and the game is over" in said(table)
    hand = next(e for e in table.state.events if e.kind is ScoreKind.HAND and e.player == "Bob")
    assert notes(hand, ENGLISH) == ["twenty held, ten pegged: Bob reaches 121 and the game is over"]


# --- muggins -----------------------------------------------------------------------------------------------

MUGGINS = GameInput(("Ann", "Bob"), dealer="Ann", muggins=True)


def test_muggins_in_the_play_a_missed_fifteen_is_taken_and_said(tmp_path):
    table = table_for(tmp_path, MUGGINS)
    enter(table, "KS", "7C", "8C")  # starter; Bob 7C, Ann 8C: fifteen two, pegged as counted
    assert by_name(table.state.scores) == {"Ann": 2, "Bob": 0}
    (claim,) = enter(table, "claim 0")  # Ann says nothing for it: the play is entered again with her claim
    assert not claim.error and by_name(table.state.scores) == {"Ann": 0, "Bob": 0}
    assert table.log.inputs[-2:] == [UndoInput(), PlayInput(table.state.played[-1][1], claim=0)]
    assert said(table) == "Ann: pegging 0; fifteen two; claimed zero; Ann missed two: muggins for 2"
    (muggins,) = enter(table, "muggins")
    assert not muggins.error and by_name(table.state.scores) == {"Ann": 0, "Bob": 2}
    assert said(table) == "Bob takes two that Ann missed on the play"
    (late,) = enter(table, "9C", "claim 4", "claim 3")[-1:]  # a claim only right after the card
    assert late.error and "right after laying it" in late.words()


def test_muggins_in_the_show_an_overcall_pegs_the_true_points_and_the_opponent_takes_the_difference(tmp_path):
    table = table_for(tmp_path, MUGGINS)
    enter(table, *DEAL[:-4])
    assert table.prompt() == "Bob: claim the points of Bob's hand: enter claim N"
    before = table.state.score("Bob")
    enter(table, "claim 22")  # Bob's hand holds 20
    assert table.state.score("Bob") == before + 20
    assert said(table).endswith("and a pair royal is twenty; claimed twenty-two, Bob pegs twenty; "
                                "Bob overcalled by two: muggins for 2")
    ann = table.state.score("Ann")
    enter(table, "muggins")
    assert table.state.score("Ann") == ann + 2
    assert said(table) == "Ann takes two that Bob overcalled on Bob's hand"


# --- undo past the end of a game ---------------------------------------------------------------------------

def test_undo_past_the_end_of_a_game_asks_first_then_reopens_it_and_the_statistics_follow(tmp_path):
    clock = ManualClock()
    table = table_for(tmp_path, ANN_DEALS, clock)
    enter(table, "peg 2 100", "peg 1 121")
    assert stats.history(tmp_path).games == 1
    over = table.state
    (first,) = enter(table, "undo")
    assert first.words() == "Ann wins 121 to 100: undo again to reopen the game" and not first.error
    assert table.state is over and first.accepted is None
    clock.advance(10)  # too late: the next undo asks again
    (again,) = enter(table, "undo")
    assert again.accepted is None and table.state is over
    (second,) = enter(table, "undo")
    assert second.accepted == UndoInput() and table.state.winner is None
    assert by_name(table.state.scores) == {"Ann": 0, "Bob": 100} and table.prompt() == "Ann deals. Enter the starter"
    report = stats.history(tmp_path)
    assert (report.games, report.unfinished) == (0, 1)


def test_undo_at_the_start_of_the_next_game_reopens_the_last_one_after_asking(tmp_path):
    table = table_for(tmp_path, ANN_DEALS)
    enter(table, "peg 2 100", "peg 1 121", "new")
    assert table.log.path.name == "0002.jsonl" and stats.history(tmp_path).games == 1
    (first,) = enter(table, "undo")
    assert first.words() == "Last game: Ann wins 121 to 100. Undo again to reopen it"
    assert table.log.path.name == "0002.jsonl"
    (second,) = enter(table, "undo")
    assert second.words() == "The last game is open again: Ann deals. Enter the starter"
    assert table.log.path.name == "0001.jsonl" and not (tmp_path / "games" / "0002.jsonl").exists()
    assert table.state.winner is None and by_name(table.state.scores) == {"Ann": 0, "Bob": 100}
    report = stats.history(tmp_path)
    assert (report.logs, report.games, report.unfinished) == (1, 0, 1)
    enter(table, "peg 1 121")  # and the game goes on to its end again
    assert name(table.state.winner) == "Ann" and stats.history(tmp_path).games == 1


def test_undo_at_the_start_of_a_first_game_has_nothing_to_reopen(tmp_path):
    table = table_for(tmp_path, ANN_DEALS)
    (undo,) = enter(table, "undo")
    assert undo.error and undo.words() == "nothing to undo: this is the start of the game"
