"""`crib play --terminal` as a person reads it: every card the computer plays (checked against the game log),
each go, 31 and last card, who scored what with the running total, the cut for deal; undo says what it took back
(one of the person's moves with the computer's replies; at the lay-away, why not); claim only in muggins games;
one card at the lay-away says how many; every line within 80 columns, in English and in German."""

from __future__ import annotations

import io

import pytest

from companion.commands.play import WIDTH, TerminalPlay, help_line
from companion.cribbage import transcript as t
from companion.cribbage.game import replay
from companion.gamelog import GameLog
from companion.play.computer import Settings
from tests.web.computer_games import Game


class Terminal:
    """A game against the pro typed in the terminal: the daemon's loop on a manual clock, the lines printed."""

    def __init__(self, tmp_path, settings: Settings) -> None:
        self.game = Game(tmp_path, settings)
        self.out = io.StringIO()
        self.terminal = TerminalPlay(self.game.computer, stream=io.StringIO(), out=self.out)
        self.terminal.start(self.game.table.emit)
        self.settle()

    def settle(self) -> None:
        game = self.game
        for _ in range(400):
            for outcome in game.table.drain(0):
                game.computer.outcome(outcome)
                self.terminal.outcome(outcome)
            game.computer.poll(game.clock.now)
            self.terminal.poll(game.clock.now)
            game.clock.advance(0.25)
            if game.table.queue.empty() and game.computer.idle:
                return
        raise AssertionError("the computer never stopped")

    def type(self, text: str) -> str:
        """What the terminal prints for one typed line."""
        start = len(self.out.getvalue())
        self.terminal.line(text + "\n")
        self.settle()
        return self.out.getvalue()[start:]

    def move(self) -> str:
        """The person's next move, as a person types it: the first two cards, the lowest card that fits, go, or
        Enter at the show."""
        state, you = self.game.table.state, self.game.settings.person
        if self.game.computer.showing(state) is not None:
            return self.type("")
        if state.phase == "deal" and you in state.hands:
            return self.type(" ".join(str(c) for c in state.hands[you][:state.discard_size]))
        fits = sorted((c for c in state.held(you) or () if state.count + c.value <= 31), key=lambda c: c.value)
        return self.type(str(fits[0]) if fits else "go")


def played_deals(tmp_path, deals: int, seed: int) -> Terminal:
    board = Terminal(tmp_path, Settings("Guest", ("pro",), seed=seed))
    while board.game.table.state.deal_number <= deals and board.game.table.state.winner is None:
        board.move()
    return board


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_terminal_names_every_card_the_computer_played_each_go_and_score_in_80_columns(tmp_path, language, speak):
    speak(language)
    board = played_deals(tmp_path, 3, seed=26)  # the pro makes 31 once and says go three times
    printed = board.out.getvalue()
    inputs = GameLog.open(board.game.table.log.path).inputs
    plays = [inp for inp in inputs if isinstance(inp, t.PlayInput) and inp.player == "Pro"]
    goes = [inp for inp in inputs if isinstance(inp, t.GoInput) and inp.player == "Pro"]
    assert len(plays) >= 10 and goes
    assert any(f"Pro {'spielt' if language == 'de' else 'plays'} {inp.card.pretty}: 31" in printed for inp in plays)
    plays_word = "spielt" if language == "de" else "plays"
    lines = printed.splitlines()
    computer_cards = [line.split()[2].rstrip(":") for line in lines if line.startswith(f"Pro {plays_word} ")]
    assert computer_cards == [inp.card.pretty for inp in plays]  # every card, in the log's order
    assert sum(line in {"Pro: Go", "Pro: go"} for line in lines) == len(goes)
    state = replay(inputs)
    cuts = [inp for inp in inputs if isinstance(inp, t.CutInput)]
    cut_word = "hebt" if language == "de" else "cuts"
    assert all(f"{inp.player} {cut_word} {inp.card.pretty}" in printed for inp in cuts)
    now = "jetzt" if language == "de" else "now"
    scores = [line for line in lines if f", {now} " in line]
    assert len(scores) == sum(1 for e in state.events if not e.kind.in_show)  # each score of the play, said
    assert [line.split(":")[0] for line in scores] == [e.player for e in state.events if not e.kind.in_show]
    assert all(len(line) <= WIDTH for line in lines), max(lines, key=len)
    english = ("your hand", "lay away", "starter", "count", "(to 121)")
    if language == "de":
        assert not any(word in printed for word in english) and "deine Hand:" in printed and "(bis 121)" in printed
    else:
        assert all(word in printed for word in english)


def test_the_next_deal_is_said_after_the_show_of_the_deal_before(tmp_path):
    board = played_deals(tmp_path, 2, seed=26)
    lines = board.out.getvalue().splitlines()
    show = next(i for i, line in enumerate(lines) if "The show of deal 1" in line)
    begun = next(i for i, line in enumerate(lines) if line.startswith("Deal 2: "))
    assert begun > show  # the table reads in order: the show of deal 1, OK, then the new deal


def test_undo_takes_back_the_persons_card_with_the_computers_reply_and_says_so(tmp_path):
    board = Terminal(tmp_path, Settings("Guest", ("pro",), seed=21))
    said = board.type("undo")  # at the lay-away: nothing of the person's yet
    assert said.strip() == "! nothing of yours to take back in this deal: lay away 2 cards"
    dealt = board.game.table.state
    board.move()  # laid away; the starter is turned
    said = board.type("undo")
    state = board.game.table.state
    assert state.phase == "deal" and "Guest" not in state.discards and state.hands == dealt.hands
    assert said.splitlines()[0] == "Undone: Guest's discard 10♣ 7♦, the starter 5♠ and Pro's 8♣"  # one line
    board.move()
    while board.game.table.state.turn != "Guest" or not board.game.table.state.played:
        board.move()
    before = board.game.table.state
    board.move()  # the person's card, and the computer's reply
    made = board.game.table.state.inputs[len(before.inputs):]
    assert len(made) > 1
    said = board.type("undo")
    assert board.game.table.state.inputs == before.inputs
    taken = [line for line in said.splitlines() if line.startswith("Undone: ")]
    assert len(taken) == 1 and " and Pro's " in taken[0]  # the person's card and the replies, in one line
    assert taken[0].startswith(f"Undone: Guest's {made[0].card.pretty}")


def test_claim_only_in_muggins_games_and_the_lay_away_says_how_many(tmp_path):
    board = Terminal(tmp_path, Settings("Guest", ("pro",), seed=5))
    state = board.game.table.state
    assert board.type("claim 7").strip() == ("! this game is played without muggins: your points are pegged for "
                                             "you, no claim\n  needed")
    card = board.game.table.state.hands["Guest"][0]
    assert board.type(str(card)).startswith("! lay away 2 cards, not 1: type them, like ")
    assert board.type("go").startswith("! No go now: Lay away two cards to ")
    assert board.game.table.state is state  # nothing changed
    assert "claim" not in help_line(False) and "claim 7" in help_line(True)


def test_in_muggins_games_each_count_is_told_as_claimed_and_the_person_sees_what_to_count(tmp_path):
    board = Terminal(tmp_path, Settings("Guest", ("standard",), muggins=True, seed=3))
    assert "claim 7" in help_line(board.game.table.state.muggins)
    board.move()
    while board.game.table.state.phase == "play":
        if board.game.table.state.played and board.game.table.state.turn == "Guest":
            state = board.game.table.state
            said = board.type("claim 2")  # the virtual table pegs the play for everyone
            assert said.startswith("! the play is pegged for you: claim the points of your hand and crib at the show")
            assert board.game.table.state is state
        board.move()
    state = board.game.table.state
    assert state.phase == "claim"
    picture = board.terminal.picture()
    _kind, player = state.counts[0]
    if player == "Guest":
        hand = " ".join(c.pretty for c in state.played_by("Guest"))
        assert f"to count: {hand} + {state.starter.pretty}" in picture
    counted = [e for e in state.events if e.kind.in_show]
    for event in counted:  # the computer's claims, told as they come
        assert f"{event.player}'s hand: {event.points}, now " in board.out.getvalue()
