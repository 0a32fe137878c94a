"""Why the engine refused an input: a code (`Why`) with its facts, like python-chess's IllegalMoveError family.

A `Refusal` is a frozen value: `why` names the rule broken, the other fields are the facts a sentence needs
(the card, the player, the count, the prompt of what is awaited, ...). The engine makes no words; every error
it raises (`errors.RuleError`, `InputError`, `CardSyntaxError`) carries one as `err.refusal`, and the words
are made at the edge, in the language of the person who reads them:

    from companion.words.phrases import refusal
    refusal(err.refusal, language("de"))      # "Die Zählung ist 25: ..."

A client decides what to do from `why` (a stable string code, also in JSON) and never from the words.
Standard library only; the types named in the fields are the engine's own (imported for the type checker).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only: this module stands below the facts it names
    from .cards import Card
    from .facts import Prompt, ScoreKind, Seen, Side
    from .transcript import InputKind


class Why(StrEnum):
    """The rule an input broke (the value is the code clients read). The fields each one fills are listed."""

    # a game's settings (game input)
    PLAYERS = "players"  # count: the players named
    VARIANT_PLAYERS = "variant_players"  # text: the variant, size: its players, count: the players named
    TARGET = "target"  # points: the target asked for
    MATCH_TARGET = "match_target"  # points: the match target asked for, total: the usual one
    MATCH_SCORING = "match_scoring"  # text: the scoring asked for, names: those there are
    SAME_NAMES = "same_names"  # two players share a name
    DEALER_NOT_PLAYING = "dealer_not_playing"  # player: the dealer named, players
    GAME_IN_PROGRESS = "game_in_progress"  # prompt
    LOSER_DEALS = "loser_deals"  # players: the losers of the last game, player: the dealer named
    # the flow of the game
    NO_GAME = "no_game"  # no game started yet
    GAME_OVER = "game_over"  # prompt: the winner
    NOTHING_TO_UNDO = "nothing_to_undo"
    NOT_AN_INPUT = "not_an_input"  # text: what was given
    NOT_PLAYING = "not_playing"  # player: the name given, players, act: PEG when pegging by hand
    CUT_FIRST = "cut_first"  # prompt: the cut for deal is on
    # the cut for deal
    CUT_OVER = "cut_over"  # prompt
    CUT_ALREADY = "cut_already"  # player, card: what they cut, prompt
    CARD_CUT_ALREADY = "card_cut_already"  # card
    # cards entered
    CARD_TWICE = "card_twice"  # card, act: HAND, DISCARD or CRIB, player: whose cards
    CARD_SEEN = "card_seen"  # seen: where the card is, act: PLAY, HAND, DISCARD or STARTER, player: whose cards
    HANDS_BEFORE_STARTER = "hands_before_starter"  # prompt
    HAND_SIZE = "hand_size"  # player, size: the cards dealt, count: the cards given
    HAND_IN_ALREADY = "hand_in_already"  # player
    LAID_AWAY_NOT_IN_HAND = "laid_away_not_in_hand"  # player, card: laid away but not in the hand given
    DISCARDS_BEFORE_CRIB = "discards_before_crib"  # prompt
    DISCARD_SIZE = "discard_size"  # size: the cards each lays away, count: the cards given
    DISCARD_IN_ALREADY = "discard_in_already"  # player
    NOT_IN_HAND = "not_in_hand"  # card, player, cards: those the player may still use, act: PLAY or DISCARD
    STARTER_TURNED = "starter_turned"  # card: the starter, prompt
    # the play
    STARTER_FIRST = "starter_first"  # the play starts after the starter is turned
    PLAY_OVER = "play_over"  # prompt
    ALL_PLAYED = "all_played"  # player, size: the cards each plays, other: whose turn it is, act: PLAY or GO
    NOT_YOUR_TURN = "not_your_turn"  # player, other: whose turn it is, act: PLAY or GO
    NO_MUGGINS = "no_muggins"  # a claim in a game without muggins: act PLAY (a card's points) or CLAIM (a count)
    PLAY_CLAIM_RANGE = "play_claim_range"  # points: the claim, total: the most one card pegs
    PAST_31 = "past_31"  # count, card, total: what the count would be
    NO_GO_NOW = "no_go_now"  # prompt: not the play
    GO_WHILE_ANY_CARD_FITS = "go_while_any_card_fits"  # count: hidden hands, and every card fits
    GO_WHILE_A_CARD_FITS = "go_while_a_card_fits"  # count, player, cards: those of the hand that fit
    GO_WHILE_A_CARD_MAY_FIT = "go_while_a_card_may_fit"  # count, player, cards: fit, not all can be laid away
    # the crib and the show
    CRIB_AFTER_PLAY = "crib_after_play"  # prompt
    NO_CRIB_NOW = "no_crib_now"  # prompt
    CRIB_SIZE = "crib_size"  # count: the cards given
    CRIB_CARD_IS_STARTER = "crib_card_is_starter"  # card
    CRIB_CARD_PLAYED = "crib_card_played"  # card, player: who played it
    CRIB_CARD_IN_HAND = "crib_card_in_hand"  # card, player: whose hand holds it
    CRIB_LACKS_DISCARD = "crib_lacks_discard"  # player, card: laid away by the player, not in the crib given
    NO_CLAIM_NOW = "no_claim_now"  # prompt
    CLAIM_RANGE = "claim_range"  # points: the claim
    CLAIM_IMPOSSIBLE = "claim_impossible"  # points: 19, 25, 26 or 27
    NO_MUGGINS_TO_CALL = "no_muggins_to_call"
    MUGGINS_BY_OWN_SIDE = "muggins_by_own_side"  # other: the caller, counting, player: whose count it was
    # pegging by hand
    PEG_RANGE = "peg_range"  # points, total: the target
    PEG_BELOW_ZERO = "peg_below_zero"  # side, total: its score, points: those to take back
    # counting cards given (scoring)
    PILE_PAST_31 = "pile_past_31"  # count
    SHOW_SIZE = "show_size"  # count: the cards given
    SHOW_SAME_CARD = "show_same_card"
    # text that is not a card (cards)
    BAD_RANK = "bad_rank"  # count: the rank
    NOT_A_CARD = "not_a_card"  # text
    NO_SUIT = "no_suit"  # text
    # a table input as JSON (transcript)
    NOT_JSON = "not_json"  # text: the parser's message
    NOT_AN_OBJECT = "not_an_object"
    UNKNOWN_TYPE = "unknown_type"  # text: the type given (as JSON)
    UNKNOWN_FIELD = "unknown_field"  # input: the input type, field, names: the fields it takes
    MISSING_FIELD = "missing_field"  # input, field
    BAD_VALUE = "bad_value"  # input, field, text: the value given (as JSON)
    BAD_FIELD = "bad_field"  # input, field, cause: what was wrong with its value (a card's refusal)
    BAD_LINE = "bad_line"  # count: the line's number, cause: the line's refusal


class Act(StrEnum):
    """What the refused input was doing, where the same rule reads differently for each."""

    PLAY = "play"
    GO = "go"
    HAND = "hand"
    DISCARD = "discard"
    STARTER = "starter"
    CRIB = "crib"
    CLAIM = "claim"
    PEG = "peg"


@dataclass(frozen=True, slots=True, repr=False)
class Refusal:
    """An input refused: the rule (`why`) and the facts its words need (which fields, `Why` says)."""

    why: Why
    card: Card | None = None
    cards: tuple[Card, ...] = ()
    player: str | None = None
    other: str | None = None  # a second person: whose turn it is, the caller of muggins
    players: tuple[str, ...] = ()
    count: int | None = None
    total: int | None = None
    points: int | None = None
    size: int | None = None
    prompt: Prompt | None = None  # what the table waits for instead
    seen: Seen | None = None
    act: Act | None = None
    counting: ScoreKind | None = None
    side: Side | None = None
    text: str = ""  # text given as it was (not a word of ours)
    input: InputKind | None = None  # a table input's type
    field: str = ""  # a table input's field
    names: tuple[str, ...] = ()  # the choices there are
    cause: Refusal | None = None  # the refusal inside (a field's card, a transcript's line)

    def __str__(self) -> str:
        """The code and its facts, for logs (people read `companion.words.phrases.refusal`)."""
        facts = ", ".join(f"{f.name}={getattr(self, f.name)}" for f in fields(self)[1:]
                          if getattr(self, f.name) not in (None, (), ""))
        return f"{self.why.value}({facts})"

    def __repr__(self) -> str:
        facts = "".join(f", {f.name}={getattr(self, f.name)!r}" for f in fields(self)[1:]
                        if getattr(self, f.name) not in (None, (), ""))
        return f"Refusal(Why.{self.why.name}{facts})"

    def to_json(self) -> dict[str, object]:
        """The code and its plain facts, for clients (cards as codes, the prompt by what it waits for)."""
        out: dict[str, object] = {"why": self.why.value}
        for f in fields(self)[1:]:
            value = getattr(self, f.name)
            if value in (None, (), ""):
                continue
            if f.name == "cards":
                value = [str(c) for c in value]
            elif f.name == "prompt":
                value = value.wanted.value
            elif f.name == "seen":
                value = {"card": str(value.card), "place": value.place.value, "player": value.player}
            elif f.name == "side":
                value = list(value.players)
            elif f.name == "cause":
                value = value.to_json()
            elif f.name in ("card", "act", "counting"):
                value = str(value)
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out


def coded(value: Any) -> str:
    """A typed refusal for logs, its code and then its facts: "players: count=3, names=('Ann',)" (the empty facts
    left out)."""
    facts = ", ".join(f"{f.name}={getattr(value, f.name)!r}" for f in fields(value)[1:]
                      if getattr(value, f.name) not in (None, (), ""))
    return f"{value.why}: {facts}" if facts else str(value.why)
