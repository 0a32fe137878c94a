"""One projection of a game state to JSON, shared by `crib replay --json`, the page (`/api/state` and its
WebSocket), the club's payloads and the statistics: the same keys with the same kinds of values everywhere.

Sides are listed once (`sides`, each with its players, its score, back peg and match points); everything else
names a side by its index in that list (`winner`, `match_winner`, an event's `side`). Each score event has its
`kind` (facts.ScoreKind), its notes as typed facts (`noted`) and, for people, its `name`, `said` and `notes` in the
language handed (`lang`; the current one when left out); nothing in it is meant to be parsed. The rules' facts a
client needs (skunk lines, cards dealt, the order of the show) are in it, so no client recomputes a rule. Cards a
player still holds face down are not in it: a hand appears once counted, the crib once counted (a finished deal
shows all)."""

from __future__ import annotations

import functools
from dataclasses import fields
from typing import cast

from companion.cribbage.cards import Card
from companion.cribbage.facts import Note, Phase, Prompt, ScoreEvent, ScoreKind, Seen, Side
from companion.cribbage.game import DealRecord, GameState
from companion.cribbage.refusals import Refusal
from companion.cribbage.rules import show_order
from companion.cribbage.scoring import Score, ScoreItem, score_show
from companion.cribbage.transcript import Input, input_to_json
from companion.i18n import Language, current

from .contract import (
    AwaitedJSON,
    CardJSON,
    DealJSON,
    EventJSON,
    InputJSON,
    ItemJSON,
    MessageJSON,
    NoteJSON,
    RefusalJSON,
    ShownJSON,
    SideJSON,
    StateJSON,
)
from .count import lines, said
from .messages import Message
from .phrases import event_name, event_words, notes, prompt_words, score_name, side_name

SCHEMA = 2  # the version of these keys (docs/architecture.md); 1 was three drifting forms


def input_json(inp: Input) -> InputJSON:
    """A table input in the game log's form, as the contract types it (the engine writes it)."""
    return cast(InputJSON, input_to_json(inp))


def refusal_json(refusal: Refusal) -> RefusalJSON:
    """A refusal's code and facts, as the contract types them (the engine writes them)."""
    return cast(RefusalJSON, refusal.to_json())


def message_json(message: Message, sides: tuple[Side, ...]) -> MessageJSON:
    """A table's message as facts: its kind and the facts it fills (the words are made beside it)."""
    out: dict[str, object] = {"kind": message.kind}
    for f in fields(message)[1:]:
        value = getattr(message, f.name)
        if value in (None, (), "", False):
            continue
        if isinstance(value, Card):
            value = str(value)
        elif isinstance(value, Prompt):
            value = prompt_json(value, sides)
        elif isinstance(value, Message):
            value = message_json(value, sides)
        elif isinstance(value, Refusal):
            value = refusal_json(value)
        elif isinstance(value, Seen):
            value = {"card": str(value.card), "place": value.place, "player": value.player}
        elif f.name == "taken":
            value = [{"input": input_json(inp), "player": player} for inp, player in value]
        elif isinstance(value, tuple):
            value = list(value)
        out[f.name] = value
    return cast(MessageJSON, out)


def card_json(card: Card) -> CardJSON:
    return {"code": str(card), "pretty": card.pretty, "suit": card.suit.value}


def cards_json(cards: tuple[Card, ...] | list[Card]) -> list[CardJSON]:
    return [card_json(c) for c in cards]


def prompt_json(prompt: Prompt, sides: tuple[Side, ...]) -> AwaitedJSON:
    """What is awaited and from whom (the words are `prompt` beside it)."""
    return {"wanted": prompt.wanted, "players": list(prompt.players), "count": prompt.count,
            "dealer": prompt.dealer, "counting": prompt.counting,
            "again": prompt.again, "winner": _index(sides, prompt.winner), "won": prompt.won,
            "others": list(prompt.others), "skunk": prompt.skunk}


def item_json(item: ScoreItem) -> ItemJSON:
    return {"kind": item.kind, "cards": [str(c) for c in item.cards], "points": item.points}


def note_json(note: Note) -> NoteJSON:
    """The note's code and facts."""
    return {"kind": note.kind, "player": note.player, "points": note.points, "claimed": note.claimed,
            "over": note.over, "caller": note.caller, "counting": note.counting,
            "wanted": note.wanted, "side": list(note.side.players) if note.side else None, "target": note.target}


@functools.lru_cache(maxsize=4096)
def _counted(score: Score, lang: Language) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A count's phrases and itemised lines in `lang`: worked out once (a game's JSON is made again after every
    input, with every score of the game in it)."""
    return said(score, lang), tuple(lines(score, lang))


@functools.lru_cache(maxsize=4096)
def _event_words(event: ScoreEvent, lang: Language) -> tuple[str, str, tuple[str, ...]]:
    return event_name(event, lang), event_words(event, lang), tuple(notes(event, lang))


def event_json(event: ScoreEvent, sides: tuple[Side, ...], lang: Language | None = None) -> EventJSON:
    lang = lang or current()
    name, spoken, noted = _event_words(event, lang)
    return {"kind": event.kind, "side": _index(sides, event.side), "player": event.player,
            "points": event.points, "deal": event.deal, "claimed": event.claimed, "notes": list(noted),
            "noted": [note_json(n) for n in event.notes],
            "name": name, "said": spoken, "items": [item_json(item) for item in event.score.items],
            "lines": list(_counted(event.score, lang)[1]), "total": event.score.total}


def side_json(state: GameState, side: Side) -> SideJSON:
    """A side as every payload shows it: its players, its name, its score, back peg and match points."""
    return {"players": list(side.players), "name": side_name(side), "score": state.scores[side],
            "back_peg": state.back_pegs[side], "match_points": state.match_points[side]}


def state_json(state: GameState, prompt: Prompt | None = None, lang: Language | None = None) -> StateJSON:
    """The game as every watcher may see it, its words in `lang`; `prompt` is the table's when it says more than
    the engine's."""
    lang = lang or current()
    sides = state.sides
    prompt = prompt or state.awaited()
    counted = {(e.kind, e.player) for e in state.events if e.deal == state.deal_number and e.kind.in_show}
    show_over = state.phase not in (Phase.DEAL, Phase.PLAY)
    return {
        "schema": SCHEMA,
        "players": list(state.players),
        "sides": [side_json(state, s) for s in sides],
        "rules": {"variant": state.variant, "players": state.rules.players, "target": state.target,
                  "muggins": state.muggins, "match_target": state.match_target,
                  "match_scoring": state.match_scoring, "skunk_lines": list(state.rules.skunk_lines),
                  "dealt": state.dealt_size, "laid_away": state.discard_size, "kept": state.hand_size},
        "phase": state.phase,
        "awaited": prompt_json(prompt, sides),
        "prompt": prompt_words(prompt, lang),
        "dealer": state.dealer, "turn": state.turn, "count": state.count,
        "show_order": list(state.show_order()) if state.dealer else [],
        "pile": cards_json(state.pile),
        "played": [{"player": p, "card": card_json(c)} for p, c in state.played],
        "starter": card_json(state.starter) if state.starter else None,
        "crib": cards_json(state.crib) if state.crib is not None and (ScoreKind.CRIB, state.dealer) in counted
        else None,
        "hands_shown": {p: cards_json(state.played_by(p)) for p in state.players if (ScoreKind.HAND, p) in counted},
        "cards_left": {p: state.cards_left(p) for p in state.players} if state.phase is Phase.PLAY else {},
        "winner": _index(sides, state.winner), "skunk": state.skunk,
        "match_winner": _index(sides, state.match_winner),
        "game": state.game_number, "deal": state.deal_number, "inputs": len(state.inputs),
        "deals": [_deal_json(record, state, lang, shown=show_over or record.number < state.deal_number)
                  for record in state.deals],
        "events": [event_json(e, sides, lang) for e in state.events],
    }


def _deal_json(record: DealRecord, state: GameState, lang: Language, *, shown: bool) -> DealJSON:
    """One deal: its dealer and starter, and the hands and discards entered once they are face up."""
    return {"deal": record.number, "dealer": record.dealer,
            "starter": card_json(record.starter) if record.starter else None,
            "hands": {p: cards_json(c) for p, c in record.hands.items()} if shown else {},
            "discards": {p: cards_json(c) for p, c in record.discards.items()} if shown else {},
            "show": _show_json(record, state, lang) if shown else [],
            "pegging": {p: sum(e.points for e in state.events
                               if e.deal == record.number and e.player == p and e.kind.in_play)
                        for p in state.players}}


def _show_json(record: DealRecord, state: GameState, lang: Language) -> list[ShownJSON]:
    """The deal's show in counting order (each hand from the dealer's left, then the crib), each with its cards
    and its full count; `points` what was pegged for it (less at the target), None when the game ended first,
    `event` the index of its score event."""
    if record.starter is None:
        return []
    counted = {(e.kind, e.player): i for i, e in enumerate(state.events) if e.deal == record.number and e.kind.in_show}
    out: list[ShownJSON] = []
    for kind, player in (*((ScoreKind.HAND, p) for p in show_order(state.players, record.dealer)),
                         (ScoreKind.CRIB, record.dealer)):
        cards = _shown_cards(record, state, kind, player)
        if cards is None:
            continue
        index = counted.get((kind, player))
        event = state.events[index] if index is not None else None
        score: Score = event.score if event else score_show(cards, record.starter, crib=kind is ScoreKind.CRIB)
        phrases, items = _counted(score, lang)
        out.append({"kind": "hand" if kind is ScoreKind.HAND else "crib", "player": player,
                    "name": score_name(kind, player, lang),
                    "cards": cards_json(cards), "total": score.total, "points": event.points if event else None,
                    "event": index, "said": list(phrases), "lines": list(items)})
    return out


def _shown_cards(record: DealRecord, state: GameState, kind: ScoreKind, player: str) -> tuple[Card, ...] | None:
    """The four cards of a hand or the crib, when known (a game ended in the play shows what was dealt)."""
    if kind is ScoreKind.CRIB:
        if record.crib is not None:
            return record.crib
        gathered = tuple(c for p in state.players for c in record.discards.get(p, ()))
        return gathered if len(gathered) == 4 else None
    if player in record.kept:
        return record.kept[player]
    dealt, laid = record.hands.get(player), record.discards.get(player)
    if dealt is None or laid is None:
        return None
    return tuple(c for c in dealt if c not in laid)


def _index(sides: tuple[Side, ...], side: Side | None) -> int | None:
    return None if side is None else sides.index(side)
