"""What has happened in the game so far, a line an entry, in the words of the table.

`game_history(state)` folds the state's inputs again (since the last game started) and says each: the starter
under the deal's heading, every card played with the count it makes and what it pegged as said, each go, and
each count of the show as said ("Bob's hand 12: fifteen two, fifteen four, and a double run is twelve"). The
terminal simulator shows its last lines beside the board, so nobody has to page the OLED to learn what happened.
"""

from __future__ import annotations

from companion.cribbage import transcript as t
from companion.cribbage.facts import Phase, ScoreEvent, ScoreKind
from companion.cribbage.game import GameState, apply, initial_state
from companion.i18n import _
from companion.words.phrases import event_name, event_words, prompt_words, say, score_parts, side_name


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
    if state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
        lines.append(prompt_words(state.awaited()))
    return lines


def entry_lines(before: GameState, after: GameState, inp: t.Input) -> list[str]:
    """The lines for one input: what was entered, then the points it made as they are said."""
    events = list(after.events[len(before.events):] if after.events[: len(before.events)] == before.events
                  else after.events)
    lines: list[str] = []
    if isinstance(inp, t.GameInput):
        lines.append(_("Game to {target}: {players}").format(target=after.target, players=', '.join(after.players)))
    elif isinstance(inp, t.CutInput):
        lines.append(_("{player} cuts {card}").format(player=inp.player, card=inp.card.pretty))
    elif isinstance(inp, t.StarterInput):
        lines.append(_("Deal {number}, {dealer} deals: starter {card}")
                     .format(number=after.deal_number, dealer=after.dealer, card=inp.card.pretty))
    elif isinstance(inp, t.PlayInput):
        player, card = after.played[-1]
        line = f"{player} {card.pretty} {before.count + card.value}"
        pegged = next((e for e in events if e.kind is ScoreKind.PEGGING), None)
        if pegged is not None and pegged.points == pegged.score.total and not pegged.notes:  # else a line of its own
            events.remove(pegged)
            line += ": " + say(pegged.score)
        lines.append(line)
    elif isinstance(inp, t.GoInput):
        lines.append(_("{turn}: go").format(turn=before.turn))
    elif isinstance(inp, t.CribInput):
        lines.append(_("Crib {cards}").format(cards=' '.join(card.pretty for card in inp.cards)))
    elif isinstance(inp, t.ClaimInput):
        lines.append(_("{player}: claims {points}").format(player=before.turn, points=inp.points) if before.turn
                     else _("claims {points}").format(points=inp.points))
    lines.extend(event_line(event) for event in events)
    return lines


def event_line(event: ScoreEvent) -> str:
    """A score as said, with its note: "Bob's hand 12: fifteen two, ...", or "Ann: one for the go"."""
    heading, counted, notes = score_parts(event)
    said = "; ".join(part for part in (", ".join(counted), *notes) if part)
    if heading is None:
        return said
    if event.kind.in_show:
        return f"{event_name(event)} {event.points}: {said}"
    return f"{side_name(event.side)}, {event_name(event)} {event.points}: {said}"


def deal_summary(state: GameState, number: int) -> list[str]:
    """Deal `number` in a few lines: who dealt and the starter, what each player pegged in the play, each count
    of the show, and the scores now."""
    record = next(deal for deal in state.deals if deal.number == number)
    events = [event for event in state.events if event.deal == number]
    starter = _(", the starter {card}").format(card=record.starter.pretty) if record.starter is not None else ""
    lines = [_("Deal {number}: {dealer} dealt{starter}").format(number=number, dealer=record.dealer, starter=starter)]
    lines.extend(f"  {event_line(event)}" for event in events if event.kind is ScoreKind.HEELS)
    pegged = dict.fromkeys(state.players, 0)
    for event in events:
        if event.kind.in_play and event.player is not None:
            pegged[event.player] += event.points
    play = ", ".join(f"{player} {points}" for player, points in pegged.items())
    lines.append(_("  The play: {pegged}").format(pegged=play))
    shows = [f"{event_name(event)} {event.points}" for event in events if event.kind.in_show]
    if shows:
        lines.append(_("  The show: {counts}").format(counts=", ".join(shows)))
    scores = ", ".join(f"{side_name(side)} {state.scores.get(side, 0)}" for side in state.sides)
    lines.append(_("Scores: {scores}").format(scores=scores))
    return lines


def describe(state: GameState) -> str:
    """The game in words: each deal's points with their reasons, then the scores and what comes next."""
    out: list[str] = []
    for record in state.deals:
        starter = _(", starter {starter}").format(starter=record.starter) if record.starter else ""
        out.append(_("deal {number}: {dealer} deals{starter}")
                   .format(number=record.number, dealer=record.dealer, starter=starter))
        for event in state.events:
            if event.deal == record.number:
                who = event.player or side_name(event.side)
                side = "" if event.side.players == (who,) or event.player is None else _(" for {side}").format(
                    side=side_name(event.side))
                said = event_words(event) or _("nothing")
                out.append(_("  {label}: {who}{side} +{points} ({said})")
                           .format(label=event_name(event), who=who, side=side, points=event.points, said=said))
    scores = ", ".join(f"{side_name(side)} {state.scores[side]}" for side in state.sides)
    if scores:
        out.append(_("scores: {scores}").format(scores=scores))
    if state.match_target is not None:
        points = ", ".join(f"{side_name(s)} {state.match_points[s]}" for s in state.sides)
        out.append(_("match points: {points}").format(points=points))
    out.append(prompt_words(state.awaited()))
    return "\n".join(out)
