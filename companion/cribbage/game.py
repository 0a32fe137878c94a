"""The game as a pure fold of table inputs: `apply(state, input) -> state`. The rules: docs/rules.md.

`legal_moves(state)` answers "what may the player to play do now" (the cards that fit, whether go is allowed
and why not); the engine refuses a go by the same answer, and every front end asks it rather than re-deriving
the rules.

The state knows everything the table has seen: the cut, the starter, every card of the play, the crib,
each score with its reason (a `ScoreEvent`), the winner and the match. Illegal inputs raise an `InputError`
or a `RuleError` before anything is built, so bad input never changes the state; each carries why as a code with
its facts (`err.refusal`, refusals.py), and notes on a score are typed facts (`facts.Note`): the engine makes no
words. Undo drops the previous effective input and replays the rest.

The flow of a deal: "deal" (waiting for the starter; `hand` and `discard` inputs are optional), "play"
(plays and go's), then the show: the hands are known from the plays and are counted at once in order from
the dealer's left, the dealer last; "crib" waits for the crib cards unless all discards were in when the
play ended. A discard may also be entered after the starter, until the crib is in (a coach works it out
from the dealt hand and the cards played): it is checked against the hand and, later, against the crib
scanned. Each `DealRecord` keeps the hands and discards entered in its deal. In muggins games each count
waits for a `claim` ("claim" phase); the show events keep what was claimed (`ScoreEvent.claimed`) and
`to_json` says what muggins took from each count. The game ends the instant a side reaches the target, in
any phase; scores are capped at the target.

A game won earns match points by the game's match scoring (`MATCH_SCORING`: "standard" 1, 2 for a skunk,
4 for a double skunk; "acc" 2, 3 for a skunk or a double skunk); the first side to the match target wins
the match.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .cards import Card
from .errors import InputError, RuleError
from .facts import Note, NoteKind, Phase, Place, Prompt, ScoreEvent, ScoreKind, Seen, Side, Wanted
from .refusals import Act, Refusal, Why
from .rules import (
    DEFAULT_MATCH,
    MATCH_SCORING,
    VARIANT,
    VARIANT_FOR_PLAYERS,
    VARIANTS,
    MatchScoringName,
    Rules,
    SkunkName,
    VariantName,
    left_of,
    partnerships,
    show_order,
)
from .scoring import (
    FIRST_DEAL_BONUS,
    GO,
    HIS_HEELS,
    LAST_CARD,
    MANUAL,
    MUGGINS,
    Score,
    ScoreItem,
    score_pegging,
    score_show,
)
from .transcript import (
    PARTNERS,
    ClaimInput,
    CribInput,
    CutInput,
    DiscardInput,
    GameInput,
    GoInput,
    HandInput,
    Input,
    MugginsInput,
    PegInput,
    PlayInput,
    StarterInput,
    UndoInput,
)

IMPOSSIBLE_SHOW_TOTALS = frozenset((19, 25, 26, 27))


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One deal of the game, kept after it is over: the dealer, the starter, and the hands and discards entered."""

    number: int
    dealer: str
    starter: Card | None = None
    hands: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)  # player -> the cards dealt
    discards: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)  # player -> the cards laid away
    kept: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)  # player -> the hand shown (after the play)
    crib: tuple[Card, ...] | None = None  # once known

    def __post_init__(self) -> None:
        _freeze_mappings(self)


def _freeze_mappings(value: object) -> None:
    """Make a frozen dataclass's mappings read-only copies, so no two values share a dictionary a caller can change.
    Hot (each state a move makes): the fields typed `Mapping[...]` are found once a class."""
    names = _MAPPING_FIELDS.get(type(value))
    if names is None:
        names = _MAPPING_FIELDS[type(value)] = tuple(
            f.name for f in fields(value) if str(f.type).startswith("Mapping["))  # type: ignore[arg-type]
    for name in names:
        mapping = getattr(value, name)
        if type(mapping) is not MappingProxyType:
            object.__setattr__(value, name, MappingProxyType(dict(mapping)))


_MAPPING_FIELDS: dict[type, tuple[str, ...]] = {}


@dataclass(frozen=True, slots=True)
class MissedPoints:
    """Muggins: a claim was off the count (short or over); the opponents may call muggins and peg the difference."""

    player: str
    side: Side
    points: int  # the difference between the claim and the count
    kind: ScoreKind  # the count it was on: the play, a hand or a crib
    deal: int  # the deal the count belongs to (a crib's muggins is called after the next deal has begun)
    over: bool = False  # the claim was too high: the claimant pegged only the true points

    def note(self) -> Note:
        return Note(NoteKind.MISSED, self.player, self.points, over=self.over)


def rules_of(inp: GameInput) -> Rules:
    """The rules a game input asks for, checked: InputError says what to write instead."""
    players = len(inp.players)
    if not 2 <= players <= 4:
        raise InputError(Refusal(Why.PLAYERS, count=players))
    variant = inp.variant or VARIANT_FOR_PLAYERS[players]
    if variant not in VARIANTS or VARIANT[variant].players != players:
        raise InputError(Refusal(Why.VARIANT_PLAYERS, text=variant, size=VARIANT[variant].players, count=players))
    target = inp.target if inp.target is not None else VARIANT[variant].target
    if not 5 <= target <= 1000:
        raise InputError(Refusal(Why.TARGET, points=target))
    match = DEFAULT_MATCH if inp.match is True else None if inp.match is False else inp.match
    if match is not None and match < 1:
        raise InputError(Refusal(Why.MATCH_TARGET, points=match, total=DEFAULT_MATCH))
    scoring = inp.match_scoring or "standard"
    if scoring not in MATCH_SCORING:
        raise InputError(Refusal(Why.MATCH_SCORING, text=scoring, names=tuple(MATCH_SCORING)))
    return Rules(variant, target, inp.muggins, match, scoring)


@dataclass(frozen=True)
class GameState:
    players: tuple[str, ...] = ()
    sides: tuple[Side, ...] = ()
    rules: Rules = field(default_factory=Rules)
    phase: Phase = Phase.NEW
    dealer: str | None = None
    turn: str | None = None  # whose turn to play, to cut, or to claim
    count: int = 0
    pile: tuple[Card, ...] = ()  # cards since the count was last reset
    played: tuple[tuple[str, Card], ...] = ()  # this deal, in order
    starter: Card | None = None
    scores: Mapping[Side, int] = field(default_factory=dict)
    back_pegs: Mapping[Side, int] = field(default_factory=dict)
    events: tuple[ScoreEvent, ...] = ()
    winner: Side | None = None
    skunk: SkunkName | None = None
    match_points: Mapping[Side, int] = field(default_factory=dict)
    match_winner: Side | None = None
    inputs: tuple[Input, ...] = ()
    deal_number: int = 0
    game_number: int = 0
    deals: tuple[DealRecord, ...] = ()  # this game
    side_of: Mapping[str, Side] = field(default_factory=dict)  # player -> side
    cuts: tuple[tuple[str, Card], ...] = ()  # this round of cutting for deal
    recut: bool = False  # the last round of cuts tied for lowest
    hands: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)  # dealt cards, from hand inputs
    discards: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    crib: tuple[Card, ...] | None = None
    gone: frozenset[str] = frozenset()  # players who said go since the count was last reset
    last_player: str | None = None  # who played the last card of the current series
    counts: tuple[tuple[ScoreKind, str], ...] = ()  # muggins: shows still to claim, (HAND, player) or (CRIB, dealer)
    missed: MissedPoints | None = None

    def __post_init__(self) -> None:
        _freeze_mappings(self)

    # --- what the table sees -------------------------------------------------------------------------------

    # the rules' values, read where a state is at hand
    @property
    def target(self) -> int:
        return self.rules.target

    @property
    def variant(self) -> VariantName:
        return self.rules.variant

    @property
    def muggins(self) -> bool:
        return self.rules.muggins

    @property
    def match_target(self) -> int | None:
        return self.rules.match_target

    @property
    def match_scoring(self) -> MatchScoringName:
        return self.rules.match_scoring

    @property
    def dealt_size(self) -> int:
        return self.rules.dealt_size

    @property
    def discard_size(self) -> int:
        return self.rules.discard_size

    @property
    def hand_size(self) -> int:
        """Cards each player keeps for the play and the show."""
        return self.rules.hand_size

    def played_by(self, player: str) -> tuple[Card, ...]:
        return tuple(card for who, card in self.played if who == player)

    def cards_left(self, player: str) -> int:
        return self.hand_size - len(self.played_by(player))

    def held(self, player: str) -> tuple[Card, ...] | None:
        """The cards a player still holds in the play, when his hand and discard were both entered."""
        hand, discard = self.hands.get(player), self.discards.get(player)
        if hand is None or discard is None:
            return None
        gone = set(discard) | set(self.played_by(player))
        return tuple(c for c in hand if c not in gone)

    def score(self, who: str | Side) -> int:
        """The score of a side, or of the side a player pegs for."""
        return self.scores[who if isinstance(who, Side) else self.side_of[who]]

    def losers(self) -> tuple[str, ...]:
        """After a game: the players of the side that lost it (the lowest score), who deal first in the next."""
        assert self.winner is not None
        lowest = min(self.scores[s] for s in self.sides if s != self.winner)
        return next(s for s in self.sides if s != self.winner and self.scores[s] == lowest).players

    def left_of(self, player: str) -> str:
        return left_of(self.players, player)

    def show_order(self) -> tuple[str, ...]:
        """Who counts, from the dealer's left round to the dealer."""
        assert self.dealer is not None
        return show_order(self.players, self.dealer)

    def awaited(self) -> Prompt:
        """What the table waits for next, and from whom."""
        phase = self.phase
        if phase is Phase.NEW:
            return Prompt(Wanted.GAME)
        if phase is Phase.CUT:
            waiting = tuple(p for p in self.players if p not in dict(self.cuts))
            return Prompt(Wanted.CUT, waiting, again=self.recut)
        if phase is Phase.DEAL:
            assert self.dealer is not None
            return Prompt(Wanted.STARTER, (self.dealer,), dealer=self.dealer)
        if phase is Phase.PLAY:
            assert self.turn is not None
            return Prompt(Wanted.PLAY, (self.turn,), count=self.count, dealer=self.dealer)
        if phase is Phase.CRIB:
            assert self.dealer is not None
            return Prompt(Wanted.CRIB, (self.dealer,), dealer=self.dealer)
        if phase is Phase.CLAIM:
            kind, player = self.counts[0]
            return Prompt(Wanted.CLAIM, (player,), dealer=self.dealer, counting=kind)
        if phase is Phase.GAME_OVER:
            assert self.winner is not None
            others = sorted((self.scores[s] for s in self.sides if s != self.winner), reverse=True)
            return Prompt(Wanted.NEW_GAME, winner=self.winner, won=self.target, others=tuple(others),
                          skunk=self.skunk)
        assert self.match_winner is not None
        others = sorted((self.match_points[s] for s in self.sides if s != self.match_winner), reverse=True)
        return Prompt(Wanted.NEW_MATCH, winner=self.match_winner, won=self.match_points[self.match_winner],
                      others=tuple(others))


_STATE_FIELDS = frozenset(f.name for f in fields(GameState))

if TYPE_CHECKING:
    from dataclasses import replace  # mypy checks each call's fields and their types against the class
else:
    def replace(obj: Any, /, **changes: Any) -> Any:
        """`dataclasses.replace`, fast for a GameState (each move makes a few): the new state shares the unchanged
        fields instead of passing all thirty through __init__, and its changed mappings are frozen as
        __post_init__ freezes them."""
        if type(obj) is not GameState or not changes.keys() <= _STATE_FIELDS:
            return dataclasses.replace(obj, **changes)
        new = object.__new__(GameState)
        new.__dict__.update(obj.__dict__, **changes)
        _freeze_mappings(new)
        return new


def initial_state() -> GameState:
    """Before any game input: phase "new"."""
    return GameState()


def replay(inputs: Iterable[Input]) -> GameState:
    """Fold the inputs from the initial state; each undo drops the previous effective input."""
    states = [initial_state()]
    for inp in inputs:
        if isinstance(inp, UndoInput):
            if len(states) == 1:
                raise RuleError(Refusal(Why.NOTHING_TO_UNDO))
            states.pop()
        else:
            states.append(apply(states[-1], inp))
    return states[-1]


def apply(state: GameState, inp: Input) -> GameState:
    """The state after one table input. Raises InputError or RuleError, and then nothing has changed."""
    if isinstance(inp, UndoInput):
        if not state.inputs:
            raise RuleError(Refusal(Why.NOTHING_TO_UNDO))
        return replay(state.inputs[:-1])
    if state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER) and not isinstance(inp, GameInput):
        raise RuleError(Refusal(Why.GAME_OVER, prompt=state.awaited()))
    if state.phase is Phase.NEW and not isinstance(inp, GameInput):
        raise RuleError(Refusal(Why.NO_GAME))
    if state.missed is not None and not isinstance(inp, MugginsInput):
        state = replace(state, missed=None)
    return replace(_dispatch(state, inp), inputs=(*state.inputs, inp))


def _dispatch(state: GameState, inp: Input) -> GameState:
    if isinstance(inp, GameInput):
        return _game(state, inp)
    if isinstance(inp, CutInput):
        return _cut(state, inp)
    if isinstance(inp, HandInput):
        return _hand(state, inp)
    if isinstance(inp, DiscardInput):
        return _discard(state, inp)
    if isinstance(inp, StarterInput):
        return _starter(state, inp)
    if isinstance(inp, PlayInput):
        return _play(state, inp)
    if isinstance(inp, GoInput):
        return _go(state, inp)
    if isinstance(inp, CribInput):
        return _crib(state, inp)
    if isinstance(inp, ClaimInput):
        return _claim(state, inp)
    if isinstance(inp, MugginsInput):
        return _muggins(state, inp)
    if isinstance(inp, PegInput):
        return _manual(state, inp)
    raise InputError(Refusal(Why.NOT_AN_INPUT, text=repr(inp)))


# --- scoring -----------------------------------------------------------------------------------------------

def _peg(state: GameState, side: Side, player: str | None, score: Score, kind: ScoreKind, *,
         points: int | None = None, claimed: int | None = None, deal: int | None = None,
         notes: tuple[Note, ...] = ()) -> GameState:
    """Peg points for a side; at the target the game is over at once and the score is capped."""
    have = state.scores[side]
    wanted = score.total if points is None else points
    pegged = max(-have, min(wanted, state.target - have))
    if pegged < wanted and have + pegged == state.target:
        notes = (*notes, Note(NoteKind.WON_AT_CAP, player, pegged, counting=kind, wanted=wanted, side=side,
                              target=state.target))
    event = ScoreEvent(kind, side, player, pegged, score, deal or state.deal_number, claimed, notes)
    scores = {**state.scores, side: have + pegged}
    back_pegs = {**state.back_pegs, side: have} if pegged else state.back_pegs
    state = replace(state, scores=scores, back_pegs=back_pegs, events=(*state.events, event))
    return _win(state, side) if scores[side] >= state.target else state


def _win(state: GameState, side: Side) -> GameState:
    skunk = state.rules.skunk(max(state.scores[s] for s in state.sides if s != side))
    won = state.rules.match_points(skunk)
    match_points = {**state.match_points, side: state.match_points[side] + won}
    match_over = state.match_target is not None and match_points[side] >= state.match_target
    return replace(state, phase=Phase.MATCH_OVER if match_over else Phase.GAME_OVER, winner=side, skunk=skunk,
                   turn=None, match_points=match_points, match_winner=side if match_over else None)


# --- the game and the cut ----------------------------------------------------------------------------------

def _game(state: GameState, inp: GameInput) -> GameState:
    if state.phase not in (Phase.NEW, Phase.GAME_OVER, Phase.MATCH_OVER):
        raise RuleError(Refusal(Why.GAME_IN_PROGRESS, prompt=state.awaited()))
    players = tuple(inp.players)
    rules = rules_of(inp)
    if len(set(players)) != len(players):
        raise InputError(Refusal(Why.SAME_NAMES, players=players))
    if inp.dealer is not None and inp.dealer not in players:
        raise InputError(Refusal(Why.DEALER_NOT_PLAYING, player=inp.dealer, players=players))
    sides = tuple(Side(partners) for partners in partnerships(players))
    side_of = {p: side for side in sides for p in side.players}
    next_game = (state.phase is Phase.GAME_OVER and state.match_target is not None and rules == state.rules
                 and players == state.players)
    dealer = inp.dealer
    if next_game:
        losing_players = state.losers()
        if dealer is None:
            dealer = losing_players[0]
        elif dealer not in losing_players:
            raise RuleError(Refusal(Why.LOSER_DEALS, players=losing_players, player=dealer))
    zero = dict.fromkeys(sides, 0)
    new = GameState(
        players=players, sides=sides, rules=rules, scores=zero, back_pegs=zero,
        match_points=dict(state.match_points) if next_game else zero,
        game_number=state.game_number + 1 if next_game else 1, side_of=side_of, inputs=state.inputs,
    )
    if dealer is None:
        return replace(new, phase=Phase.CUT)
    return _first_deal(new, dealer)


def _first_deal(state: GameState, dealer: str) -> GameState:
    state = _new_deal(state, dealer)
    if state.variant == "five-card":
        pone = state.left_of(dealer)
        state = _peg(state, state.side_of[pone], pone, Score((ScoreItem(FIRST_DEAL_BONUS, (), 3),)),
                     ScoreKind.THREE_FOR_LAST)
    return state


def _new_deal(state: GameState, dealer: str) -> GameState:
    number = state.deal_number + 1
    return replace(state, phase=Phase.DEAL, dealer=dealer, turn=None, count=0, pile=(), played=(), starter=None,
                   hands={}, discards={}, crib=None, gone=frozenset(), last_player=None, counts=(),
                   deal_number=number, deals=(*state.deals, DealRecord(number, dealer)), cuts=(), recut=False)


def _cut(state: GameState, inp: CutInput) -> GameState:
    if state.phase is not Phase.CUT:
        raise RuleError(Refusal(Why.CUT_OVER, prompt=state.awaited()))
    _check_player(state, inp.player)
    cut = dict(state.cuts)
    if inp.player in cut:
        raise RuleError(Refusal(Why.CUT_ALREADY, player=inp.player, card=cut[inp.player], prompt=state.awaited()))
    if inp.card in cut.values():
        raise RuleError(Refusal(Why.CARD_CUT_ALREADY, card=inp.card))
    cuts = (*state.cuts, (inp.player, inp.card))
    if len(cuts) < len(state.players):
        return replace(state, cuts=cuts, recut=False)
    lowest = min(card.rank for _, card in cuts)
    low = [p for p, card in cuts if card.rank == lowest]
    if len(low) > 1:
        return replace(state, cuts=(), recut=True)
    return _first_deal(state, low[0])


# --- the deal before the play ------------------------------------------------------------------------------

def _check_player(state: GameState, player: str) -> None:
    if player not in state.players:
        raise RuleError(Refusal(Why.NOT_PLAYING, player=player, players=state.players))


def _check_distinct(cards: tuple[Card, ...], act: Act, player: str | None = None) -> None:
    if len(set(cards)) != len(cards):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise RuleError(Refusal(Why.CARD_TWICE, card=twice, act=act, player=player))


class CardSeen(RuleError):
    """A card already seen this deal: `seen` (also `refusal.seen`) says where it is."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal)
        assert refusal.seen is not None
        self.seen = refusal.seen


def where_seen(state: GameState, card: Card, owner: str | None = None) -> Seen | None:
    """Why a card cannot be new here: it is the starter, was played, or is in the crib or someone else's hand
    (`owner` is the player entering it)."""
    if card == state.starter:
        return Seen(card, Place.STARTER)
    for who, played in state.played:
        if played == card:
            return Seen(card, Place.PLAYED, who)
    for who, discard in state.discards.items():
        if card in discard:
            return Seen(card, Place.CRIB, who)
    for who, hand in state.hands.items():
        if card in hand and who != owner:
            return Seen(card, Place.HAND, who)
    return None


def _refuse_seen(state: GameState, card: Card, owner: str | None, act: Act) -> None:
    """Raise CardSeen when `card` is seen already: where it is, and what was being entered (`act`, by `owner`)."""
    if (seen := where_seen(state, card, owner)) is not None:
        raise CardSeen(Refusal(Why.CARD_SEEN, card=card, seen=seen, act=act, player=owner))


def _hand(state: GameState, inp: HandInput) -> GameState:
    if state.phase is not Phase.DEAL:
        raise RuleError(Refusal(Why.HANDS_BEFORE_STARTER, prompt=state.awaited()))
    _check_player(state, inp.player)
    size = state.dealt_size
    if len(inp.cards) != size:
        raise RuleError(Refusal(Why.HAND_SIZE, player=inp.player, size=size, count=len(inp.cards)))
    _check_distinct(inp.cards, Act.HAND, inp.player)
    if inp.player in state.hands:
        raise RuleError(Refusal(Why.HAND_IN_ALREADY, player=inp.player))
    for card in inp.cards:
        _refuse_seen(state, card, inp.player, Act.HAND)
    discard = state.discards.get(inp.player, ())
    if missing := [c for c in discard if c not in inp.cards]:
        raise RuleError(Refusal(Why.LAID_AWAY_NOT_IN_HAND, player=inp.player, card=missing[0]))
    hands = {**state.hands, inp.player: inp.cards}
    return replace(state, hands=hands, deals=(*state.deals[:-1], replace(state.deals[-1], hands=hands)))


def _discard(state: GameState, inp: DiscardInput) -> GameState:
    if state.phase not in (Phase.DEAL, Phase.PLAY, Phase.CLAIM, Phase.CRIB) or state.crib is not None:
        raise RuleError(Refusal(Why.DISCARDS_BEFORE_CRIB, prompt=state.awaited()))
    _check_player(state, inp.player)
    size = state.discard_size
    if len(inp.cards) != size:
        raise RuleError(Refusal(Why.DISCARD_SIZE, size=size, count=len(inp.cards)))
    _check_distinct(inp.cards, Act.DISCARD, inp.player)
    if inp.player in state.discards:
        raise RuleError(Refusal(Why.DISCARD_IN_ALREADY, player=inp.player))
    hand = state.hands.get(inp.player)
    for card in inp.cards:
        if hand is not None and card not in hand:
            raise RuleError(Refusal(Why.NOT_IN_HAND, card=card, player=inp.player, cards=hand, act=Act.DISCARD))
        _refuse_seen(state, card, inp.player, Act.DISCARD)
    discards = {**state.discards, inp.player: inp.cards}
    return replace(state, discards=discards, deals=(*state.deals[:-1], replace(state.deals[-1], discards=discards)))


def _starter(state: GameState, inp: StarterInput) -> GameState:
    if state.phase is not Phase.DEAL:
        if state.phase is Phase.CUT:
            raise RuleError(Refusal(Why.CUT_FIRST, prompt=state.awaited()))
        raise RuleError(Refusal(Why.STARTER_TURNED, card=state.starter, prompt=state.awaited()))
    _refuse_seen(state, inp.card, None, Act.STARTER)
    dealer = state.dealer
    assert dealer is not None
    deals = (*state.deals[:-1], replace(state.deals[-1], starter=inp.card))
    state = replace(state, phase=Phase.PLAY, starter=inp.card, turn=state.left_of(dealer), deals=deals)
    if inp.card.rank == 11:
        state = _peg(state, state.side_of[dealer], dealer,
                     Score((ScoreItem(HIS_HEELS, (inp.card,), 2),)), ScoreKind.HEELS)
    return state


# --- the play ----------------------------------------------------------------------------------------------

MAX_COUNT = 31
MAX_PEG = 14  # the most one card pegs: the fourth seven after a three, 31 (2) and a double pair royal (12)
HIGHEST_VALUE = 10  # a ten, jack, queen or king: with hidden hands a go is possible only once one cannot fit


@dataclass(frozen=True, slots=True)
class Legal:
    """What the player to play may do now (docs/rules.md, "The play"): the answer of `legal_moves`."""

    player: str | None  # whose turn it is to play; None outside the play
    count: int
    plays: tuple[Card, ...] | None  # the cards that fit, of those the player may hold; None when they are hidden
    go: bool  # whether saying go is allowed now
    no_go: Refusal | None = None  # when go is not allowed: why (companion.words says what to do instead)

    @property
    def must_go(self) -> bool:
        """The player's cards are known and none of them fits: go is the only move."""
        return self.go and self.plays == ()


def fitting(count: int, cards: Iterable[Card]) -> tuple[Card, ...]:
    """The cards that can be played at this count without passing 31."""
    return tuple(card for card in cards if count + card.value <= MAX_COUNT)


def legal_moves(state: GameState) -> Legal:
    """The engine's answer to "what may this player do now" in the play.

    With hidden hands every card is possible, so a go is allowed only when a ten-card could not fit (a count of
    22 or more). When the player's cards are known (the hand and discard entered: coaching mode, a computer
    player) a go is allowed only when none of them fits; with the hand known but not yet the discard, only
    when the cards that fit could all be the ones laid away. A player who has played all their cards is never
    asked: the play passes them by without a go.
    """
    if state.phase is not Phase.PLAY or state.turn is None:
        return Legal(None, state.count, (), False, Refusal(Why.NO_GO_NOW, prompt=state.awaited()))
    player, count = state.turn, state.count
    hand = state.hands.get(player)
    if hand is None:
        go = count + HIGHEST_VALUE > MAX_COUNT
        return Legal(player, count, None, go, None if go else Refusal(Why.GO_WHILE_ANY_CARD_FITS, count=count,
                                                                      player=player))
    candidates = state.held(player)
    if candidates is None:
        candidates = tuple(c for c in hand if c not in state.played_by(player))
    fits = fitting(count, candidates)
    may_be_laid_away = len(candidates) - state.cards_left(player)  # the discard, while it is not entered
    go = len(fits) <= may_be_laid_away
    if go:
        return Legal(player, count, fits, True)
    why = Why.GO_WHILE_A_CARD_FITS if may_be_laid_away == 0 else Why.GO_WHILE_A_CARD_MAY_FIT
    return Legal(player, count, fits, False, Refusal(why, count=count, player=player, cards=fits))


def _check_turn(state: GameState, player: str | None, act: Act) -> str:
    if state.phase is not Phase.PLAY:
        if state.phase is Phase.DEAL:
            raise RuleError(Refusal(Why.STARTER_FIRST, act=act))
        if state.phase is Phase.CUT:
            raise RuleError(Refusal(Why.CUT_FIRST, prompt=state.awaited()))
        raise RuleError(Refusal(Why.PLAY_OVER, prompt=state.awaited()))
    assert state.turn is not None
    if player is not None and player != state.turn:
        _check_player(state, player)
        if state.cards_left(player) == 0:
            raise RuleError(Refusal(Why.ALL_PLAYED, player=player, size=state.hand_size, other=state.turn, act=act))
        raise RuleError(Refusal(Why.NOT_YOUR_TURN, player=player, other=state.turn, act=act))
    return state.turn


def _play(state: GameState, inp: PlayInput) -> GameState:
    player = _check_turn(state, inp.player, Act.PLAY)
    if inp.claim is not None:
        if not state.muggins:
            raise RuleError(Refusal(Why.NO_MUGGINS, act=Act.PLAY))
        if not 0 <= inp.claim <= MAX_PEG:
            raise RuleError(Refusal(Why.PLAY_CLAIM_RANGE, points=inp.claim, total=MAX_PEG))
    card = inp.card
    _refuse_seen(state, card, player, Act.PLAY)
    hand = state.hands.get(player)
    if hand is not None and card not in hand:
        held = state.held(player) or tuple(c for c in hand if c not in state.played_by(player))
        raise RuleError(Refusal(Why.NOT_IN_HAND, card=card, player=player, cards=held, act=Act.PLAY))
    if state.count + card.value > MAX_COUNT:
        raise RuleError(Refusal(Why.PAST_31, count=state.count, card=card, total=state.count + card.value,
                                player=player))
    pile = (*state.pile, card)
    state = replace(state, pile=pile, count=state.count + card.value, played=(*state.played, (player, card)),
                    last_player=player)
    score = score_pegging(pile)
    if inp.claim is not None:
        return _claimed_play(state, player, score, inp.claim)
    if score:
        state = _peg(state, state.side_of[player], player, score, ScoreKind.PEGGING)
        if state.winner:
            return state
    return _advance(state)


def _claimed_play(state: GameState, player: str, score: Score, claim: int) -> GameState:
    """Muggins games: the player pegs what they claim for the card, never more than it made; a claim off the
    count leaves muggins open to the opponents. The go and last card points are not claimed: they peg themselves."""
    side = state.side_of[player]
    if claim == 0 and not score:
        return _advance(state)
    missed = None
    if claim != score.total:
        missed = MissedPoints(player, side, abs(score.total - claim), ScoreKind.PEGGING, state.deal_number,
                              over=claim > score.total)
    notes = () if missed is None else (Note(NoteKind.CLAIMED, player, score.total, claimed=claim), missed.note())
    state = _peg(state, side, player, score, ScoreKind.PEGGING, points=min(claim, score.total), claimed=claim,
                 notes=notes)
    if state.winner:
        return state
    state = _advance(state)
    return state if state.winner else replace(state, missed=missed)  # the game over, nothing more is taken


def _go(state: GameState, inp: GoInput) -> GameState:
    _check_turn(state, inp.player, Act.PLAY)
    now = legal_moves(state)
    if not now.go:
        assert now.no_go is not None
        raise RuleError(now.no_go)
    assert now.player is not None
    return _advance(replace(state, gone=state.gone | {now.player}))


def _advance(state: GameState) -> GameState:
    """After a play or a go: the next player able to play, or the end of the series (go, 31) or of the play."""
    assert state.turn is not None and state.last_player is not None
    if state.count < 31:
        start = state.players.index(state.turn)
        for i in range(1, len(state.players) + 1):
            player = state.players[(start + i) % len(state.players)]
            if player not in state.gone and state.cards_left(player) > 0:
                return replace(state, turn=player)
    last = state.last_player
    play_over = all(state.cards_left(p) == 0 for p in state.players)
    if state.count < 31:
        item, kind = (LAST_CARD, ScoreKind.LAST_CARD) if play_over else (GO, ScoreKind.GO)
        state = _peg(state, state.side_of[last], last, Score((ScoreItem(item, (state.pile[-1],), 1),)), kind)
        if state.winner:
            return state
    state = replace(state, count=0, pile=(), gone=frozenset())
    if play_over:
        return _show(state)
    player = last
    while True:  # the player after the last to play, skipping those with no cards left
        player = state.left_of(player)
        if state.cards_left(player) > 0:
            return replace(state, turn=player)


# --- the show ----------------------------------------------------------------------------------------------

def _show(state: GameState) -> GameState:
    dealer = state.dealer
    assert dealer is not None
    discarded = tuple(c for p in state.players for c in state.discards.get(p, ()))
    crib = discarded if len(discarded) == 4 else None
    kept = {p: state.played_by(p) for p in state.players}
    state = replace(state, crib=crib, deals=(*state.deals[:-1], replace(state.deals[-1], kept=kept, crib=crib)))
    if state.muggins:
        counts = (*((ScoreKind.HAND, p) for p in state.show_order()), (ScoreKind.CRIB, dealer))
        return _next_claim(replace(state, counts=counts))
    for player in state.show_order():
        state = _peg(state, state.side_of[player], player, _show_score(state, ScoreKind.HAND, player),
                     ScoreKind.HAND)
        if state.winner:
            return state
    if crib is None:
        return replace(state, phase=Phase.CRIB, turn=dealer)
    return _count_crib(state)


def _show_score(state: GameState, kind: ScoreKind, player: str) -> Score:
    assert state.starter is not None
    if kind is ScoreKind.HAND:
        return score_show(state.played_by(player), state.starter)
    assert state.crib is not None
    return score_show(state.crib, state.starter, crib=True)


def _count_crib(state: GameState) -> GameState:
    dealer = state.dealer
    assert dealer is not None
    state = _peg(state, state.side_of[dealer], dealer, _show_score(state, ScoreKind.CRIB, dealer), ScoreKind.CRIB)
    return state if state.winner else _new_deal(state, state.left_of(dealer))


def _crib(state: GameState, inp: CribInput) -> GameState:
    if state.phase is not Phase.CRIB:
        if state.phase is Phase.PLAY:
            raise RuleError(Refusal(Why.CRIB_AFTER_PLAY, prompt=state.awaited()))
        raise RuleError(Refusal(Why.NO_CRIB_NOW, prompt=state.awaited()))
    assert state.dealer is not None
    cards = inp.cards
    if len(cards) != 4:
        raise RuleError(Refusal(Why.CRIB_SIZE, count=len(cards)))
    _check_distinct(cards, Act.CRIB, state.dealer)
    for card in cards:
        if card == state.starter:
            raise RuleError(Refusal(Why.CRIB_CARD_IS_STARTER, card=card))
        for who, played in state.played:
            if played == card:
                raise RuleError(Refusal(Why.CRIB_CARD_PLAYED, card=card, player=who))
        for who, hand in state.hands.items():
            if card in hand and card not in state.discards.get(who, ()) and who in state.discards:
                raise RuleError(Refusal(Why.CRIB_CARD_IN_HAND, card=card, player=who))
    for who, discard in state.discards.items():
        if missing := [c for c in discard if c not in cards]:
            raise RuleError(Refusal(Why.CRIB_LACKS_DISCARD, player=who, card=missing[0]))
    state = replace(state, crib=cards, deals=(*state.deals[:-1], replace(state.deals[-1], crib=cards)))
    if state.muggins:
        return _next_claim(state)
    return _count_crib(state)


def _next_claim(state: GameState) -> GameState:
    """Muggins games: wait for the claim of the next count, or for the crib cards, or deal again."""
    assert state.dealer is not None
    if not state.counts:
        return _new_deal(state, state.left_of(state.dealer))
    kind, player = state.counts[0]
    if kind is ScoreKind.CRIB and state.crib is None:
        return replace(state, phase=Phase.CRIB, turn=state.dealer)
    return replace(state, phase=Phase.CLAIM, turn=player)


def _claim(state: GameState, inp: ClaimInput) -> GameState:
    if not state.muggins:
        raise RuleError(Refusal(Why.NO_MUGGINS, act=Act.CLAIM))
    if state.phase is not Phase.CLAIM:
        raise RuleError(Refusal(Why.NO_CLAIM_NOW, prompt=state.awaited()))
    if not 0 <= inp.points <= 29:
        raise RuleError(Refusal(Why.CLAIM_RANGE, points=inp.points))
    if inp.points in IMPOSSIBLE_SHOW_TOTALS:
        raise RuleError(Refusal(Why.CLAIM_IMPOSSIBLE, points=inp.points))
    kind, player = state.counts[0]
    score = _show_score(state, kind, player)
    side = state.side_of[player]
    state = replace(state, counts=state.counts[1:])
    missed = None
    if inp.points != score.total:
        missed = MissedPoints(player, side, abs(score.total - inp.points), kind, state.deal_number,
                              over=inp.points > score.total)
    notes: tuple[Note, ...] = ()
    if missed is not None:
        notes = (Note(NoteKind.CLAIMED_PEGS, player, min(inp.points, score.total), claimed=inp.points),
                 missed.note())
    state = _peg(state, side, player, score, kind, points=min(inp.points, score.total), claimed=inp.points,
                 notes=notes)
    if state.winner:
        return state
    if missed is not None:
        state = replace(state, missed=missed)
    return _next_claim(state)


def _muggins(state: GameState, inp: MugginsInput) -> GameState:
    if not state.muggins:
        raise RuleError(Refusal(Why.NO_MUGGINS, act=Act.CLAIM))
    missed = state.missed
    if missed is None:
        raise RuleError(Refusal(Why.NO_MUGGINS_TO_CALL))
    caller = inp.player
    if caller is None:
        caller = state.left_of(missed.player)
        while state.side_of[caller] == missed.side:
            caller = state.left_of(caller)
    _check_player(state, caller)
    if state.side_of[caller] == missed.side:
        raise RuleError(Refusal(Why.MUGGINS_BY_OWN_SIDE, other=caller, counting=missed.kind, player=missed.player))
    score = Score((ScoreItem(MUGGINS, (), missed.points),))
    taken = Note(NoteKind.MUGGINS_TAKEN, missed.player, missed.points, over=missed.over, caller=caller,
                 counting=missed.kind)
    state = _peg(state, state.side_of[caller], caller, score, ScoreKind.MUGGINS, deal=missed.deal, notes=(taken,))
    return replace(state, missed=None)


# --- manual pegging ----------------------------------------------------------------------------------------

def _manual(state: GameState, inp: PegInput) -> GameState:
    if state.phase is Phase.CUT:
        raise RuleError(Refusal(Why.CUT_FIRST, prompt=state.awaited()))
    if inp.player in state.side_of:
        side, player = state.side_of[inp.player], inp.player
    elif (named := next((s for s in state.sides if PARTNERS.join(s.players) == inp.player), None)) is not None:
        side, player = named, None
    else:
        raise RuleError(Refusal(Why.NOT_PLAYING, player=inp.player, players=state.players, act=Act.PEG))
    if inp.points == 0 or abs(inp.points) > state.target:
        raise RuleError(Refusal(Why.PEG_RANGE, points=inp.points, total=state.target))
    if state.scores[side] + inp.points < 0:
        raise RuleError(Refusal(Why.PEG_BELOW_ZERO, side=side, total=state.scores[side], points=-inp.points))
    return _peg(state, side, player, Score((ScoreItem(MANUAL, (), inp.points),)), ScoreKind.PEGGED)

