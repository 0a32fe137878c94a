"""What has happened in the game so far, a line an entry, in the words of the table.

`game_history(state)` folds the state's inputs again (since the last game started) and says each: the starter
under the deal's heading, every card played with the count it makes and what it pegged as said, each go, and
each count of the show as said ("Bob's hand 12: fifteen two, fifteen four, and a double run is twelve"). The
terminal simulator shows its last lines beside the board, so nobody has to page the OLED to learn what happened.
"""

from __future__ import annotations

from companion.cribbage import transcript as t
from companion.cribbage.game import PEGGING, PLAY_LABELS, SHOW_LABELS, GameState, ScoreEvent, apply, initial_state
from companion.cribbage.scoring import HIS_HEELS
from companion.view.screen import event_words


def game_history(state: GameState) -> list[str]:
    """The lines of the current game, oldest first."""
    lines: list[str] = []
    before = initial_state()
    for inp in state.inputs:
        after = apply(before, inp)
        if isinstance(inp, t.GameInput):
            lines = []
        lines.extend(entry_lines(before, after, inp))
        before = after
    if state.phase in ("game over", "match over"):
        lines.append(state.prompt())
    return lines


def entry_lines(before: GameState, after: GameState, inp: t.Input) -> list[str]:
    """The lines for one input: what was entered, then the points it made as they are said."""
    events = list(after.events[len(before.events):] if after.events[: len(before.events)] == before.events
                  else after.events)
    lines: list[str] = []
    if isinstance(inp, t.GameInput):
        lines.append(f"Game to {after.target}: {', '.join(after.players)}")
    elif isinstance(inp, t.CutInput):
        lines.append(f"{inp.player} cuts {inp.card.pretty}")
    elif isinstance(inp, t.StarterInput):
        lines.append(f"Deal {after.deal_number}, {after.dealer} deals: starter {inp.card.pretty}")
    elif isinstance(inp, t.PlayInput):
        player, card = after.played[-1]
        line = f"{player} {card.pretty} {before.count + card.value}"
        pegged = next((e for e in events if e.label == PEGGING), None)
        if pegged is not None and pegged.points == pegged.score.total and not pegged.note:  # else a line of its own
            events.remove(pegged)
            line += ": " + pegged.score.say()
        lines.append(line)
    elif isinstance(inp, t.GoInput):
        lines.append(f"{before.turn}: go")
    elif isinstance(inp, t.CribInput):
        lines.append(f"Crib {' '.join(card.pretty for card in inp.cards)}")
    elif isinstance(inp, t.ClaimInput):
        lines.append(f"{before.turn or 'claim'}: claims {inp.points}")
    lines.extend(event_line(event) for event in events)
    return lines


def event_line(event: ScoreEvent) -> str:
    """A score as said, with its note: "Bob's hand 12: fifteen two, ...", or "Ann: one for the go"."""
    heading, counted, notes = event_words(event)
    said = "; ".join(part for part in (", ".join(counted), *notes) if part)
    if heading is None:
        return said
    if event.label.endswith(SHOW_LABELS):
        return f"{event.label} {event.points}: {said}"
    return f"{event.side}, {event.label} {event.points}: {said}"


def deal_summary(state: GameState, number: int) -> list[str]:
    """Deal `number` in a few lines: who dealt and the starter, what each player pegged in the play, each count
    of the show, and the scores now."""
    record = next(deal for deal in state.deals if deal.number == number)
    events = [event for event in state.events if event.deal == number]
    starter = f", the starter {record.starter.pretty}" if record.starter is not None else ""
    lines = [f"Deal {number}: {record.dealer} dealt{starter}"]
    lines.extend(f"  {event_line(event)}" for event in events if event.label == HIS_HEELS)
    pegged = dict.fromkeys(state.players, 0)
    for event in events:
        if event.label in PLAY_LABELS and event.player is not None:
            pegged[event.player] += event.points
    lines.append("  The play: " + ", ".join(f"{player} {points}" for player, points in pegged.items()))
    shows = [f"{event.label} {event.points}" for event in events if "'s " in event.label]
    if shows:
        lines.append("  The show: " + ", ".join(shows))
    lines.append("Scores: " + ", ".join(f"{side} {state.scores.get(side, 0)}" for side in state.sides))
    return lines
