"""The game as a pure fold of table inputs: `apply(state, input) -> state`. The rules: docs/rules.md.

`legal_moves(state)` answers "what may the player to play do now" (the cards that fit, whether go is allowed
and why not); the engine refuses a go by the same answer, and every front end asks it rather than re-deriving
the rules.

The state knows everything the table has seen: the cut, the starter, every card of the play, the crib,
each score with its reason (a `ScoreEvent`), the winner and the match. Illegal inputs raise an `InputError`
or a `RuleError` before anything is built, so bad input never changes the state. Undo drops the previous
effective input and replays the rest.

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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType

from .cards import Card
from .errors import InputError, RuleError
from .facts import Phase, Place, Prompt, ScoreEvent, ScoreKind, Seen, Side, Wanted
from .phrases import listed, prompt_words, score_name, seen_words, side_name
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
from .words import _, ngettext, spell

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
    """Make a frozen dataclass's mappings read-only copies, so no two values share a dictionary a caller can change."""
    for f in fields(value):  # type: ignore[arg-type]
        mapping = getattr(value, f.name)
        if isinstance(mapping, Mapping) and not isinstance(mapping, MappingProxyType):
            object.__setattr__(value, f.name, MappingProxyType(dict(mapping)))


@dataclass(frozen=True, slots=True)
class MissedPoints:
    """Muggins: a claim was off the count (short or over); the opponents may call muggins and peg the difference."""

    player: str
    side: Side
    points: int  # the difference between the claim and the count
    kind: ScoreKind  # the count it was on: the play, a hand or a crib
    deal: int  # the deal the count belongs to (a crib's muggins is called after the next deal has begun)
    over: bool = False  # the claim was too high: the claimant pegged only the true points

    def say(self) -> str:
        said = (_("{player} overcalled by {points}: muggins for {n}") if self.over
                else _("{player} missed {points}: muggins for {n}"))
        return said.format(player=self.player, points=spell(self.points), n=self.points)


def rules_of(inp: GameInput) -> Rules:
    """The rules a game input asks for, checked: InputError says what to write instead."""
    players = len(inp.players)
    if not 2 <= players <= 4:
        raise InputError(_('a game needs 2, 3 or 4 players, like "players":["Ann","Bob"]'))
    variant = inp.variant or VARIANT_FOR_PLAYERS[players]
    if variant not in VARIANTS or VARIANT[variant].players != players:
        raise InputError(_("the {variant} game is for {number} players, not {players}")
                         .format(variant=variant, number=spell(VARIANT[variant].players), players=players))
    target = inp.target if inp.target is not None else VARIANT[variant].target
    if not 5 <= target <= 1000:
        raise InputError(_("a game is played to 121 or 61 points, not {target}").format(target=target))
    match = DEFAULT_MATCH if inp.match is True else None if inp.match is False else inp.match
    if match is not None and match < 1:
        raise InputError(_("a match is won with 1 or more match points (usually {usual}), not {match}")
                         .format(usual=DEFAULT_MATCH, match=match))
    scoring = inp.match_scoring or "standard"
    if scoring not in MATCH_SCORING:
        raise InputError(_("no match scoring {scoring!r}: use one of {scorings}")
                         .format(scoring=scoring, scorings=', '.join(MATCH_SCORING)))
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

    def prompt(self) -> str:
        """What the table must do next, in words."""
        return prompt_words(self.awaited())


def initial_state() -> GameState:
    """Before any game input: phase "new"."""
    return GameState()


def replay(inputs: Iterable[Input]) -> GameState:
    """Fold the inputs from the initial state; each undo drops the previous effective input."""
    states = [initial_state()]
    for inp in inputs:
        if isinstance(inp, UndoInput):
            if len(states) == 1:
                raise RuleError(_("nothing to undo: no input has been entered"))
            states.pop()
        else:
            states.append(apply(states[-1], inp))
    return states[-1]


def apply(state: GameState, inp: Input) -> GameState:
    """The state after one table input. Raises InputError or RuleError, and then nothing has changed."""
    if isinstance(inp, UndoInput):
        if not state.inputs:
            raise RuleError(_("nothing to undo: no input has been entered"))
        return replay(state.inputs[:-1])
    if state.phase in ("game over", "match over") and not isinstance(inp, GameInput):
        raise RuleError(_("the game is over ({prompt}): start a new game, or undo").format(prompt=state.prompt()))
    if state.phase == "new" and not isinstance(inp, GameInput):
        raise RuleError(_('no game yet: start one first, like {"type":"game","players":["Ann","Bob"]}'))
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
    raise InputError(_("not a table input: {inp!r}").format(inp=inp))


# --- scoring -----------------------------------------------------------------------------------------------

def _peg(state: GameState, side: Side, player: str | None, score: Score, kind: ScoreKind, *,
         points: int | None = None, claimed: int | None = None, deal: int | None = None,
         notes: tuple[str, ...] = ()) -> GameState:
    """Peg points for a side; at the target the game is over at once and the score is capped."""
    have = state.scores[side]
    wanted = score.total if points is None else points
    pegged = max(-have, min(wanted, state.target - have))
    note = ""
    if pegged < wanted and have + pegged == state.target:
        note = (_("{wanted} held, {pegged} pegged: {side} reaches {target} and the game is over")
                if kind.in_show else
                _("{wanted} scored, {pegged} pegged: {side} reaches {target} and the game is over")
                ).format(wanted=spell(wanted), pegged=spell(pegged), side=side_name(side), target=state.target)
    event = ScoreEvent(kind, side, player, pegged, score, deal or state.deal_number, claimed,
                       (*notes, note) if note else notes)
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
    if state.phase not in ("new", "game over", "match over"):
        raise RuleError(_("a game is in progress ({prompt}): finish it, or undo back to its start")
                        .format(prompt=state.prompt()))
    players = tuple(inp.players)
    rules = rules_of(inp)
    if len(set(players)) != len(players):
        raise InputError(_("two players have the same name: give each player a different name"))
    if inp.dealer is not None and inp.dealer not in players:
        raise InputError(_("the dealer {dealer!r} is not one of the players {players}")
                         .format(dealer=inp.dealer, players=listed(players)))
    sides = tuple(Side(partners) for partners in partnerships(players))
    side_of = {p: side for side in sides for p in side.players}
    next_game = (state.phase == "game over" and state.match_target is not None and rules == state.rules
                 and players == state.players)
    dealer = inp.dealer
    if next_game:
        losing_players = state.losers()
        if dealer is None:
            dealer = losing_players[0]
        elif dealer not in losing_players:
            raise RuleError(_("the loser of the last game deals first: {losers}, not {dealer}")
                            .format(losers=listed(losing_players), dealer=dealer))
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
    if state.phase != "cut":
        raise RuleError(_("the cut for deal is over: {prompt}").format(prompt=state.prompt()))
    _check_player(state, inp.player)
    cut = dict(state.cuts)
    if inp.player in cut:
        raise RuleError(_("{player} has cut already ({cut}): {prompt}")
                        .format(player=inp.player, cut=cut[inp.player], prompt=state.prompt()))
    if inp.card in cut.values():
        raise RuleError(_("{card} was cut already: check the card and scan it again").format(card=inp.card))
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
        raise RuleError(_("{player!r} is not playing: the players are {players}")
                        .format(player=player, players=listed(state.players)))


def _check_distinct(cards: tuple[Card, ...], what: str) -> None:
    if len(set(cards)) != len(cards):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise RuleError(_("{twice} appears twice in {what}: scan each card once").format(twice=twice, what=what))


class CardSeen(RuleError):
    """A card already seen this deal: `seen` says where it is, the message says so in the chosen words."""

    def __init__(self, message: str, seen: Seen) -> None:
        super().__init__(message)
        self.seen = seen


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


def _refuse_seen(state: GameState, card: Card, owner: str | None, then: str, **names: str) -> None:
    """Raise CardSeen when `card` is seen already: where it is, then what to do (`then`, a format with {seen}
    and `names`)."""
    if (seen := where_seen(state, card, owner)) is not None:
        raise CardSeen(then.format(seen=seen_words(seen), **names), seen)


def _hand(state: GameState, inp: HandInput) -> GameState:
    if state.phase != "deal":
        raise RuleError(_("hands are entered before the starter is turned: {prompt}").format(prompt=state.prompt()))
    _check_player(state, inp.player)
    size = state.dealt_size
    if len(inp.cards) != size:
        raise RuleError(_("{player} was dealt {size} cards: scan all {n}, not {cards}")
                        .format(player=inp.player, size=spell(size), n=size, cards=len(inp.cards)))
    _check_distinct(inp.cards, _("{player}'s hand").format(player=inp.player))
    if inp.player in state.hands:
        raise RuleError(_("{player}'s hand is already in: undo to change it").format(player=inp.player))
    for card in inp.cards:
        _refuse_seen(state, card, inp.player, _("{seen}: check {player}'s cards"), player=inp.player)
    discard = state.discards.get(inp.player, ())
    if missing := [c for c in discard if c not in inp.cards]:
        raise RuleError(_("{player} laid away {missing}, which is not in this hand: check the cards")
                        .format(player=inp.player, missing=missing[0]))
    hands = {**state.hands, inp.player: inp.cards}
    return replace(state, hands=hands, deals=(*state.deals[:-1], replace(state.deals[-1], hands=hands)))


def _discard(state: GameState, inp: DiscardInput) -> GameState:
    if state.phase not in ("deal", "play", "claim", "crib") or state.crib is not None:
        raise RuleError(_("discards are entered before the crib is in: {prompt}").format(prompt=state.prompt()))
    _check_player(state, inp.player)
    size = state.discard_size
    if len(inp.cards) != size:
        raise RuleError(ngettext("each player lays away {size} card to the crib, not {cards}",
                                 "each player lays away {size} cards to the crib, not {cards}", size)
                        .format(size=spell(size), cards=len(inp.cards)))
    _check_distinct(inp.cards, _("{player}'s discard").format(player=inp.player))
    if inp.player in state.discards:
        raise RuleError(_("{player}'s discard is already in: undo to change it").format(player=inp.player))
    hand = state.hands.get(inp.player)
    for card in inp.cards:
        if hand is not None and card not in hand:
            raise RuleError(_("{card} is not in {player}'s hand: lay away cards from {hand}")
                            .format(card=card, player=inp.player, hand=_cards(hand)))
        _refuse_seen(state, card, inp.player, _("{seen}: check the card"))
    discards = {**state.discards, inp.player: inp.cards}
    return replace(state, discards=discards, deals=(*state.deals[:-1], replace(state.deals[-1], discards=discards)))


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _starter(state: GameState, inp: StarterInput) -> GameState:
    if state.phase != "deal":
        if state.phase == "cut":
            raise RuleError(_("cut for deal first: {prompt}").format(prompt=state.prompt()))
        raise RuleError(_("the starter is already turned ({starter}): {prompt}")
                        .format(starter=state.starter, prompt=state.prompt()))
    _refuse_seen(state, inp.card, None, _("{seen}: the starter is the top card of the pack's lower half"))
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
    no_go: str = ""  # when go is not allowed: why, and what to do instead

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
    if state.phase != "play" or state.turn is None:
        return Legal(None, state.count, (), False, _("No go now: {prompt}").format(prompt=state.prompt()))
    player, count = state.turn, state.count
    hand = state.hands.get(player)
    if hand is None:
        go = count + HIGHEST_VALUE > MAX_COUNT
        return Legal(player, count, None, go, "" if go else _("No go at {count}: every card fits. Play a card.")
                                                            .format(count=count))
    candidates = state.held(player)
    if candidates is None:
        candidates = tuple(c for c in hand if c not in state.played_by(player))
    fits = fitting(count, candidates)
    may_be_laid_away = len(candidates) - state.cards_left(player)  # the discard, while it is not entered
    go = len(fits) <= may_be_laid_away
    if go:
        return Legal(player, count, fits, True)
    if may_be_laid_away == 0:
        why = ngettext("{player} holds {fits}, which fits", "{player} holds {fits}, which fit",
                       len(fits)).format(player=player, fits=_cards(fits))
    else:
        why = _("{player} still holds a card that fits (of {fits})").format(player=player, fits=_cards(fits))
    return Legal(player, count, fits, False, _("No go at {count}: {why}. Play a card.").format(count=count, why=why))


def _check_turn(state: GameState, player: str | None, action: str) -> str:
    if state.phase != "play":
        if state.phase == "deal":
            raise RuleError(_("scan the starter first: the play starts after the starter is turned"))
        if state.phase == "cut":
            raise RuleError(_("cut for deal first: {prompt}").format(prompt=state.prompt()))
        raise RuleError(_("the play is over: {prompt}").format(prompt=state.prompt()))
    assert state.turn is not None
    if player is not None and player != state.turn:
        _check_player(state, player)
        if state.cards_left(player) == 0:
            said = (_("{player} has played all {size} cards: {turn} to play") if action == "play"
                    else _("{player} has played all {size} cards: {turn} to say go"))
            raise RuleError(said.format(player=player, size=spell(state.hand_size), turn=state.turn))
        said = (_("it is {turn}'s turn to play, not {player}'s") if action == "play"
                else _("it is {turn}'s turn to say go, not {player}'s"))
        raise RuleError(said.format(turn=state.turn, player=player))
    return state.turn


def _play(state: GameState, inp: PlayInput) -> GameState:
    player = _check_turn(state, inp.player, "play")
    if inp.claim is not None:
        if not state.muggins:
            raise RuleError(_("this game is played without muggins: the play is pegged for you, no claim needed"))
        if not 0 <= inp.claim <= MAX_PEG:
            raise RuleError(_("one card pegs 0 to {most} points, not {claim}: claim again")
                            .format(most=MAX_PEG, claim=inp.claim))
    card = inp.card
    _refuse_seen(state, card, player, _("{seen}: play a card from {player}'s hand"), player=player)
    hand = state.hands.get(player)
    if hand is not None and card not in hand:
        held = state.held(player) or tuple(c for c in hand if c not in state.played_by(player))
        raise RuleError(_("{card} is not in {player}'s hand: play one of {held}")
                        .format(card=card, player=player, held=_cards(held)))
    if state.count + card.value > MAX_COUNT:
        raise RuleError(_("the count is {count}: {card} would make {total}; play a lower card or say go")
                        .format(count=state.count, card=card, total=state.count + card.value))
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
    notes: tuple[str, ...] = () if missed is None else (_("claimed {claim}").format(claim=spell(claim)), missed.say())
    state = _peg(state, side, player, score, ScoreKind.PEGGING, points=min(claim, score.total), claimed=claim,
                 notes=notes)
    if state.winner:
        return state
    state = _advance(state)
    return state if state.winner else replace(state, missed=missed)  # the game over, nothing more is taken


def _go(state: GameState, inp: GoInput) -> GameState:
    _check_turn(state, inp.player, "play")
    now = legal_moves(state)
    if not now.go:
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
    if state.phase != "crib":
        if state.phase == "play":
            raise RuleError(_("the crib is counted after the hands: finish the play first ({prompt})")
                            .format(prompt=state.prompt()))
        raise RuleError(_("no crib to scan now: {prompt}").format(prompt=state.prompt()))
    assert state.dealer is not None
    cards = inp.cards
    if len(cards) != 4:
        raise RuleError(_("the crib holds four cards: scan all four, not {cards}").format(cards=len(cards)))
    _check_distinct(cards, _("the crib"))
    for card in cards:
        if card == state.starter:
            raise RuleError(_("{card} is the starter, not a crib card: scan the four cards laid away")
                            .format(card=card))
        for who, played in state.played:
            if played == card:
                raise RuleError(_("{card} was played by {who} this deal: the crib holds the four cards laid away")
                                .format(card=card, who=who))
        for who, hand in state.hands.items():
            if card in hand and card not in state.discards.get(who, ()) and who in state.discards:
                raise RuleError(_("{card} is in {who}'s hand: the crib holds the four cards laid away")
                                .format(card=card, who=who))
    for who, discard in state.discards.items():
        if missing := [c for c in discard if c not in cards]:
            raise RuleError(_("{who} laid away {missing}: the crib must hold it; check the crib cards")
                            .format(who=who, missing=missing[0]))
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
        raise RuleError(_("this game is played without muggins: the hands are counted for you"))
    if state.phase != "claim":
        raise RuleError(_("no count to claim now: {prompt}").format(prompt=state.prompt()))
    if not 0 <= inp.points <= 29:
        raise RuleError(_("a hand scores 0 to 29, not {points}: claim again").format(points=inp.points))
    if inp.points in IMPOSSIBLE_SHOW_TOTALS:
        raise RuleError(_("no hand scores {points} (nor 19, 25, 26 or 27): count again and claim")
                        .format(points=inp.points))
    kind, player = state.counts[0]
    score = _show_score(state, kind, player)
    side = state.side_of[player]
    state = replace(state, counts=state.counts[1:])
    missed = None
    if inp.points != score.total:
        missed = MissedPoints(player, side, abs(score.total - inp.points), kind, state.deal_number,
                              over=inp.points > score.total)
    notes: tuple[str, ...] = ()
    if missed is not None:
        notes = (_("claimed {points}, {player} pegs {pegged}")
                 .format(points=spell(inp.points), player=player, pegged=spell(min(inp.points, score.total))),
                 missed.say())
    state = _peg(state, side, player, score, kind, points=min(inp.points, score.total), claimed=inp.points,
                 notes=notes)
    if state.winner:
        return state
    if missed is not None:
        state = replace(state, missed=missed)
    return _next_claim(state)


def _muggins(state: GameState, inp: MugginsInput) -> GameState:
    if not state.muggins:
        raise RuleError(_("this game is played without muggins: the hands are counted for you"))
    missed = state.missed
    if missed is None:
        raise RuleError(_("muggins is called right after a claim that was too low or too high, and the last input was "
                          "not one: no points to take"))
    caller = inp.player
    if caller is None:
        caller = state.left_of(missed.player)
        while state.side_of[caller] == missed.side:
            caller = state.left_of(caller)
    _check_player(state, caller)
    if state.side_of[caller] == missed.side:
        raise RuleError(_("{caller} cannot call muggins on {label}: an opponent calls it")
                        .format(caller=caller, label=score_name(missed.kind, missed.player)))
    score = Score((ScoreItem(MUGGINS, (), missed.points),))
    on = _("the play") if missed.kind is ScoreKind.PEGGING else score_name(missed.kind, missed.player)
    taken = (_("{caller} takes {points} that {player} overcalled on {on}") if missed.over
            else _("{caller} takes {points} that {player} missed on {on}")
            ).format(caller=caller, points=spell(missed.points), player=missed.player, on=on)
    state = _peg(state, state.side_of[caller], caller, score, ScoreKind.MUGGINS, deal=missed.deal, notes=(taken,))
    return replace(state, missed=None)


# --- manual pegging ----------------------------------------------------------------------------------------

def _manual(state: GameState, inp: PegInput) -> GameState:
    if state.phase == "cut":
        raise RuleError(_("cut for deal first: {prompt}").format(prompt=state.prompt()))
    if inp.player in state.side_of:
        side, player = state.side_of[inp.player], inp.player
    elif inp.player in (named := {side_name(s): s for s in state.sides}):  # partners' names, as a person types them
        side, player = named[inp.player], None
    else:
        raise RuleError(_("{player!r} is not playing: peg for one of {players}")
                        .format(player=inp.player, players=listed(state.players)))
    if inp.points == 0 or abs(inp.points) > state.target:
        raise RuleError(_("peg 1 to {target} points (or a negative number to take points back), not {points}")
                        .format(target=state.target, points=inp.points))
    if state.scores[side] + inp.points < 0:
        raise RuleError(_("{side} has {score}: cannot take back {points}")
                        .format(side=side_name(side), score=state.scores[side], points=-inp.points))
    return _peg(state, side, player, Score((ScoreItem(MANUAL, (), inp.points),)), ScoreKind.PEGGED)

