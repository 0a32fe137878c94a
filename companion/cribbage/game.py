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
from typing import Literal, get_args

from .cards import Card
from .errors import InputError, RuleError
from .scoring import (
    FIRST_DEAL_BONUS,
    GO,
    HIS_HEELS,
    LAST_CARD,
    MANUAL,
    MUGGINS,
    Score,
    ScoreItem,
    number_words,
    score_pegging,
    score_show,
)
from .transcript import (
    DEFAULT_MATCH,
    MATCH_SCORING,
    VARIANTS,
    ClaimInput,
    CribInput,
    CutInput,
    DiscardInput,
    GameInput,
    GoInput,
    HandInput,
    Input,
    MatchScoringName,
    MugginsInput,
    PegInput,
    PlayInput,
    StarterInput,
    UndoInput,
    VariantName,
    input_to_json,
)

Phase = Literal["new", "cut", "deal", "play", "crib", "claim", "game over", "match over"]
PHASES: tuple[Phase, ...] = get_args(Phase)
IMPOSSIBLE_SHOW_TOTALS = frozenset((19, 25, 26, 27))
PEGGING = "pegging"  # the label of points a card pegs in the play
PLAY_LABELS = (PEGGING, GO, LAST_CARD)  # every point pegged in the play
SHOW_LABELS = ("'s hand", "'s crib")  # the ends of the labels of the counts in the show


@dataclass(frozen=True, slots=True)
class ScoreEvent:
    side: str  # who scores: a player, or the partnership "Ann & Cat" in four-player games
    player: str | None  # who made it (None for manual pegs of a side)
    points: int  # points actually pegged (after capping at the target, and the claim in muggins games)
    score: Score  # the itemised reason
    label: str  # as a player says it: "Bob's hand", "Ann's crib", "pegging", "his heels", "go", "last card"
    deal: int  # deal number in the current game, from 1
    claimed: int | None = None  # muggins games: the points claimed for this count
    note: str = ""  # what the points alone do not say: a claim off the count, muggins taken, the game won at the cap

    def say(self) -> str:
        """The score as the table hears it: the count in a player's cadence, then the note."""
        said = self.score.say() if self.score and self.label != MUGGINS else ""
        return "; ".join(part for part in (said, self.note) if part)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"side": self.side, "player": self.player, "points": self.points,
                                  "label": self.label, "deal": self.deal, "score": self.score.to_json()}
        if self.claimed is not None:
            out["claimed"] = self.claimed
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One deal of the game, kept after it is over: the dealer, the starter, and the hands and discards entered."""

    number: int
    dealer: str
    starter: Card | None = None
    hands: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)  # player -> the cards dealt
    discards: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)  # player -> the cards laid away

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
    side: str
    points: int  # the difference between the claim and the count
    label: str
    deal: int  # the deal the count belongs to (a crib's muggins is called after the next deal has begun)
    over: bool = False  # the claim was too high: the claimant pegged only the true points

    def say(self) -> str:
        what = "overcalled by" if self.over else "missed"
        return f"{self.player} {what} {number_words(self.points)}: muggins for {self.points}"


PLAYERS_OF: dict[VariantName, int] = {"two": 2, "three": 3, "four": 4, "five-card": 2}


@dataclass(frozen=True, slots=True)
class Rules:
    """What a game is played as, fixed when it starts: the variant (how many players, five-card), the target,
    muggins and the match. One value passed around (the game state, the controller, the board, the stats)."""

    variant: VariantName = "two"
    target: int = 121
    muggins: bool = False
    match_target: int | None = None  # match points that win the match; None for single games
    match_scoring: MatchScoringName = "standard"

    @classmethod
    def of(cls, inp: GameInput) -> Rules:
        """The rules a game input asks for, checked: InputError says what to write instead."""
        players = len(inp.players)
        if not 2 <= players <= 4:
            raise InputError("a game needs 2, 3 or 4 players, like \"players\":[\"Ann\",\"Bob\"]")
        variant = inp.variant or _VARIANT_OF[players]
        if variant not in VARIANTS or PLAYERS_OF[variant] != players:
            raise InputError(f"the {variant} game is for {number_words(PLAYERS_OF[variant])} players, not {players}")
        target = inp.target if inp.target is not None else 61 if variant == "five-card" else 121
        if not 5 <= target <= 1000:
            raise InputError(f"a game is played to 121 or 61 points, not {target}")
        match = DEFAULT_MATCH if inp.match is True else None if inp.match is False else inp.match
        if match is not None and match < 1:
            raise InputError(f"a match is won with 1 or more match points (usually {DEFAULT_MATCH}), not {match}")
        scoring = inp.match_scoring or "standard"
        if scoring not in MATCH_SCORING:
            raise InputError(f"no match scoring {scoring!r}: use one of {', '.join(MATCH_SCORING)}")
        return cls(variant, target, inp.muggins, match, scoring)

    @property
    def players(self) -> int:
        return PLAYERS_OF[self.variant]

    @property
    def sides(self) -> int:
        """The scores pegged: one a player, or two partnerships in the four-player game."""
        return 2 if self.variant == "four" else self.players

    @property
    def dealt_size(self) -> int:
        return 6 if self.variant == "two" else 5

    @property
    def discard_size(self) -> int:
        return 2 if self.variant in ("two", "five-card") else 1

    @property
    def hand_size(self) -> int:
        """Cards each player keeps for the play and the show."""
        return self.dealt_size - self.discard_size

    @property
    def skunk_lines(self) -> tuple[int, int]:
        return skunk_lines(self.target)

    def match_points(self, skunk: str | None) -> int:
        """What a game won is worth in the match: a plain win, a skunk or a double skunk."""
        return MATCH_SCORING[self.match_scoring][skunk]


_VARIANT_OF: dict[int, VariantName] = {2: "two", 3: "three", 4: "four"}


@dataclass(frozen=True)
class GameState:
    players: tuple[str, ...] = ()
    sides: tuple[str, ...] = ()
    rules: Rules = Rules()
    phase: Phase = "new"
    dealer: str | None = None
    turn: str | None = None  # whose turn to play, to cut, or to claim
    count: int = 0
    pile: tuple[Card, ...] = ()  # cards since the count was last reset
    played: tuple[tuple[str, Card], ...] = ()  # this deal, in order
    starter: Card | None = None
    scores: Mapping[str, int] = field(default_factory=dict)
    back_pegs: Mapping[str, int] = field(default_factory=dict)
    events: tuple[ScoreEvent, ...] = ()
    winner: str | None = None
    skunk: str | None = None
    match_points: Mapping[str, int] = field(default_factory=dict)
    match_winner: str | None = None
    inputs: tuple[Input, ...] = ()
    deal_number: int = 0
    game_number: int = 0
    deals: tuple[DealRecord, ...] = ()  # this game
    side_of: Mapping[str, str] = field(default_factory=dict)  # player -> side
    cuts: tuple[tuple[str, Card], ...] = ()  # this round of cutting for deal
    recut: bool = False  # the last round of cuts tied for lowest
    hands: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)  # dealt cards, from hand inputs
    discards: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    crib: tuple[Card, ...] | None = None
    gone: frozenset[str] = frozenset()  # players who said go since the count was last reset
    last_player: str | None = None  # who played the last card of the current series
    counts: tuple[tuple[str, str], ...] = ()  # muggins: shows still to claim, ("hand", player) or ("crib", dealer)
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

    def losers(self) -> tuple[str, ...]:
        """After a game: the players of the side that lost it (the lowest score), who deal first in the next."""
        assert self.winner is not None
        lowest = min(self.scores[s] for s in self.sides if s != self.winner)
        side = next(s for s in self.sides if s != self.winner and self.scores[s] == lowest)
        return tuple(p for p in self.players if self.side_of[p] == side)

    def left_of(self, player: str) -> str:
        return self.players[(self.players.index(player) + 1) % len(self.players)]

    def show_order(self) -> tuple[str, ...]:
        """Who counts, from the dealer's left round to the dealer."""
        assert self.dealer is not None
        start = self.players.index(self.dealer) + 1
        return tuple(self.players[(start + i) % len(self.players)] for i in range(len(self.players)))

    def prompt(self) -> str:
        """What the table must do next, in words."""
        if self.phase == "new":
            return "Start a new game"
        if self.phase == "cut":
            waiting = [p for p in self.players if p not in dict(self.cuts)]
            again = "Equal cards: cut again. " if self.recut else ""
            return f"{again}Cut for deal: {_and(waiting)} to cut"
        if self.phase == "deal":
            return f"{self.dealer} deals. Scan the starter"
        if self.phase == "play":
            return f"{self.turn} to play, count {self.count}"
        if self.phase == "crib":
            return f"Scan the crib ({self.dealer}'s)"
        if self.phase == "claim":
            kind, player = self.counts[0]
            return f"{player}: claim the points of {_label(kind, player)}"
        if self.phase == "game over":
            assert self.winner is not None
            others = sorted((self.scores[s] for s in self.sides if s != self.winner), reverse=True)
            skunk = f": a {self.skunk}" if self.skunk else ""
            return f"{self.winner} {_wins(self.winner)} {self.target} to {_and([str(o) for o in others])}{skunk}"
        assert self.match_winner is not None
        others = sorted((self.match_points[s] for s in self.sides if s != self.match_winner), reverse=True)
        won = self.match_points[self.match_winner]
        return f"{self.match_winner} {_wins(self.match_winner)} the match {won} to {_and([str(o) for o in others])}"

    def to_json(self) -> dict[str, object]:
        """The `crib replay --json` form: the game so far with every deal's points."""
        deals = []
        for record in self.deals:
            events = [e for e in self.events if e.deal == record.number]
            pegging = dict.fromkeys(self.players, 0)
            for e in events:
                if e.label in PLAY_LABELS and e.player is not None:
                    pegging[e.player] += e.points
            deals.append({
                "deal": record.number, "dealer": record.dealer,
                "starter": str(record.starter) if record.starter else None,
                "hands": {p: [str(c) for c in cards] for p, cards in record.hands.items()},
                "discards": {p: [str(c) for c in cards] for p, cards in record.discards.items()},
                "his_heels": sum(e.points for e in events if e.label == HIS_HEELS),
                "pegging": pegging,
                "show": [_show_json(e, events[i + 1] if i + 1 < len(events) else None)
                         for i, e in enumerate(events) if e.label.endswith(SHOW_LABELS)],
                "other": [e.to_json() for e in events
                          if e.label in (MUGGINS, MANUAL, FIRST_DEAL_BONUS)],
            })
        return {
            "players": list(self.players), "sides": list(self.sides), "variant": self.variant,
            "target": self.target, "muggins": self.muggins, "match": self.match_target,
            "match_scoring": self.match_scoring, "phase": self.phase,
            "prompt": self.prompt(), "dealer": self.dealer, "turn": self.turn, "count": self.count,
            "pile": [str(c) for c in self.pile], "starter": str(self.starter) if self.starter else None,
            "scores": dict(self.scores), "back_pegs": dict(self.back_pegs), "winner": self.winner,
            "skunk": self.skunk, "match_points": dict(self.match_points), "match_winner": self.match_winner,
            "game": self.game_number, "deal_number": self.deal_number, "deals": deals,
            "events": [e.to_json() for e in self.events], "inputs": [input_to_json(i) for i in self.inputs],
        }


def _show_json(event: ScoreEvent, after: ScoreEvent | None) -> dict[str, object]:
    """A count of the show; in muggins games with the points claimed and what muggins took (called at once)."""
    out: dict[str, object] = {"label": event.label, "player": event.player, "side": event.side,
                              "points": event.points, "score": event.score.to_json()}
    if event.claimed is not None:
        out["claimed"] = event.claimed
        out["muggins"] = None
        if after is not None and after.label == MUGGINS:
            out["muggins"] = {"player": after.player, "side": after.side, "points": after.points}
    return out


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _wins(side: str) -> str:
    return "win" if "&" in side else "wins"


def _label(kind: str, player: str) -> str:
    return f"{player}'s {kind}"


def initial_state() -> GameState:
    """Before any game input: phase "new"."""
    return GameState()


def replay(inputs: Iterable[Input]) -> GameState:
    """Fold the inputs from the initial state; each undo drops the previous effective input."""
    states = [initial_state()]
    for inp in inputs:
        if isinstance(inp, UndoInput):
            if len(states) == 1:
                raise RuleError("nothing to undo: no input has been entered")
            states.pop()
        else:
            states.append(apply(states[-1], inp))
    return states[-1]


def apply(state: GameState, inp: Input) -> GameState:
    """The state after one table input. Raises InputError or RuleError, and then nothing has changed."""
    if isinstance(inp, UndoInput):
        if not state.inputs:
            raise RuleError("nothing to undo: no input has been entered")
        return replay(state.inputs[:-1])
    if state.phase in ("game over", "match over") and not isinstance(inp, GameInput):
        raise RuleError(f"the game is over ({state.prompt()}): start a new game, or undo")
    if state.phase == "new" and not isinstance(inp, GameInput):
        raise RuleError('no game yet: start one first, like {"type":"game","players":["Ann","Bob"]}')
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
    raise InputError(f"not a table input: {inp!r}")


# --- scoring -----------------------------------------------------------------------------------------------

def _peg(state: GameState, side: str, player: str | None, score: Score, label: str, *,
         points: int | None = None, claimed: int | None = None, deal: int | None = None,
         extra_note: str = "") -> GameState:
    """Peg points for a side; at the target the game is over at once and the score is capped."""
    have = state.scores[side]
    wanted = score.total if points is None else points
    pegged = max(-have, min(wanted, state.target - have))
    note = ""
    if pegged < wanted and have + pegged == state.target:
        note = (f"{number_words(wanted)} {'held' if label.endswith(SHOW_LABELS) else 'scored'}, "
                f"{number_words(pegged)} pegged: {side} reaches {state.target} and the game is over")
    event = ScoreEvent(side, player, pegged, score, label, deal or state.deal_number, claimed,
                       "; ".join(n for n in (extra_note, note) if n))
    scores = {**state.scores, side: have + pegged}
    back_pegs = {**state.back_pegs, side: have} if pegged else state.back_pegs
    state = replace(state, scores=scores, back_pegs=back_pegs, events=(*state.events, event))
    return _win(state, side) if scores[side] >= state.target else state


def skunk_lines(target: int) -> tuple[int, int]:
    """The scores a loser must reach to escape a skunk and a double skunk: (91, 61) for 121, (31, 16) for 61."""
    if target == 61:
        return 31, 16
    return target - (target - 1) // 4, target - (target - 1) // 2


def _win(state: GameState, side: str) -> GameState:
    best_loser = max(state.scores[s] for s in state.sides if s != side)
    skunk_line, double_line = skunk_lines(state.target)
    skunk = "double skunk" if best_loser < double_line else "skunk" if best_loser < skunk_line else None
    won = state.rules.match_points(skunk)
    match_points = {**state.match_points, side: state.match_points[side] + won}
    match_over = state.match_target is not None and match_points[side] >= state.match_target
    return replace(state, phase="match over" if match_over else "game over", winner=side, skunk=skunk,
                   turn=None, match_points=match_points, match_winner=side if match_over else None)


# --- the game and the cut ----------------------------------------------------------------------------------

def _game(state: GameState, inp: GameInput) -> GameState:
    if state.phase not in ("new", "game over", "match over"):
        raise RuleError(f"a game is in progress ({state.prompt()}): finish it, or undo back to its start")
    players = tuple(inp.players)
    rules = Rules.of(inp)
    if len(set(players)) != len(players):
        raise InputError("two players have the same name: give each player a different name")
    if any("&" in p for p in players):
        raise InputError("a player's name may not contain '&' (it joins partners' names)")
    if inp.dealer is not None and inp.dealer not in players:
        raise InputError(f"the dealer {inp.dealer!r} is not one of the players {_and(list(players))}")
    if len(players) == 4:
        sides: tuple[str, ...] = (f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}")
        side_of = {p: sides[i % 2] for i, p in enumerate(players)}
    else:
        sides, side_of = players, {p: p for p in players}
    next_game = (state.phase == "game over" and state.match_target is not None and rules == state.rules
                 and players == state.players)
    dealer = inp.dealer
    if next_game:
        losing_players = state.losers()
        if dealer is None:
            dealer = losing_players[0]
        elif dealer not in losing_players:
            raise RuleError(f"the loser of the last game deals first: {_and(list(losing_players))}, not {dealer}")
    zero = dict.fromkeys(sides, 0)
    new = GameState(
        players=players, sides=sides, rules=rules, scores=zero, back_pegs=zero,
        match_points=dict(state.match_points) if next_game else zero,
        game_number=state.game_number + 1 if next_game else 1, side_of=side_of, inputs=state.inputs,
    )
    if dealer is None:
        return replace(new, phase="cut")
    return _first_deal(new, dealer)


def _first_deal(state: GameState, dealer: str) -> GameState:
    state = _new_deal(state, dealer)
    if state.variant == "five-card":
        pone = state.left_of(dealer)
        state = _peg(state, pone, pone, Score((ScoreItem(FIRST_DEAL_BONUS, (), 3),)), FIRST_DEAL_BONUS)
    return state


def _new_deal(state: GameState, dealer: str) -> GameState:
    number = state.deal_number + 1
    return replace(state, phase="deal", dealer=dealer, turn=None, count=0, pile=(), played=(), starter=None,
                   hands={}, discards={}, crib=None, gone=frozenset(), last_player=None, counts=(),
                   deal_number=number, deals=(*state.deals, DealRecord(number, dealer)), cuts=(), recut=False)


def _cut(state: GameState, inp: CutInput) -> GameState:
    if state.phase != "cut":
        raise RuleError(f"the cut for deal is over: {state.prompt()}")
    _check_player(state, inp.player)
    cut = dict(state.cuts)
    if inp.player in cut:
        raise RuleError(f"{inp.player} has cut already ({cut[inp.player]}): {state.prompt()}")
    if inp.card in cut.values():
        raise RuleError(f"{inp.card} was cut already: check the card and scan it again")
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
        raise RuleError(f"{player!r} is not playing: the players are {_and(list(state.players))}")


def _check_distinct(cards: tuple[Card, ...], what: str) -> None:
    if len(set(cards)) != len(cards):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise RuleError(f"{twice} appears twice in {what}: scan each card once")


def _where_seen(state: GameState, card: Card, owner: str | None = None) -> str | None:
    """Why a card cannot be new here: it is the starter, was played, or is in someone else's hand or discard."""
    if card == state.starter:
        return f"{card} is the starter"
    for who, played in state.played:
        if played == card:
            return f"{card} was already played this deal" + ("" if who == owner else f" (by {who})")
    for who, discard in state.discards.items():
        if card in discard:
            return f"{card} was laid away to the crib" + ("" if who == owner else f" by {who}")
    for who, hand in state.hands.items():
        if card in hand and who != owner:
            return f"{card} is in {who}'s hand"
    return None


def _hand(state: GameState, inp: HandInput) -> GameState:
    if state.phase != "deal":
        raise RuleError(f"hands are entered before the starter is turned: {state.prompt()}")
    _check_player(state, inp.player)
    size = state.dealt_size
    if len(inp.cards) != size:
        raise RuleError(f"{inp.player} was dealt {number_words(size)} cards: scan all {size}, not {len(inp.cards)}")
    _check_distinct(inp.cards, f"{inp.player}'s hand")
    if inp.player in state.hands:
        raise RuleError(f"{inp.player}'s hand is already in: undo to change it")
    for card in inp.cards:
        if (seen := _where_seen(state, card, inp.player)) is not None:
            raise RuleError(f"{seen}: check {inp.player}'s cards")
    discard = state.discards.get(inp.player, ())
    if missing := [c for c in discard if c not in inp.cards]:
        raise RuleError(f"{inp.player} laid away {missing[0]}, which is not in this hand: check the cards")
    hands = {**state.hands, inp.player: inp.cards}
    return replace(state, hands=hands, deals=(*state.deals[:-1], replace(state.deals[-1], hands=hands)))


def _discard(state: GameState, inp: DiscardInput) -> GameState:
    if state.phase not in ("deal", "play", "claim", "crib") or state.crib is not None:
        raise RuleError(f"discards are entered before the crib is in: {state.prompt()}")
    _check_player(state, inp.player)
    size = state.discard_size
    if len(inp.cards) != size:
        raise RuleError(f"each player lays away {number_words(size)} card{'s' if size > 1 else ''} "
                        f"to the crib, not {len(inp.cards)}")
    _check_distinct(inp.cards, f"{inp.player}'s discard")
    if inp.player in state.discards:
        raise RuleError(f"{inp.player}'s discard is already in: undo to change it")
    hand = state.hands.get(inp.player)
    for card in inp.cards:
        if hand is not None and card not in hand:
            raise RuleError(f"{card} is not in {inp.player}'s hand: lay away cards from {_cards(hand)}")
        if (seen := _where_seen(state, card, inp.player)) is not None:
            raise RuleError(f"{seen}: check the card")
    discards = {**state.discards, inp.player: inp.cards}
    return replace(state, discards=discards, deals=(*state.deals[:-1], replace(state.deals[-1], discards=discards)))


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _starter(state: GameState, inp: StarterInput) -> GameState:
    if state.phase != "deal":
        if state.phase == "cut":
            raise RuleError(f"cut for deal first: {state.prompt()}")
        raise RuleError(f"the starter is already turned ({state.starter}): {state.prompt()}")
    if (seen := _where_seen(state, inp.card)) is not None:
        raise RuleError(f"{seen}: the starter is the top card of the pack's lower half")
    dealer = state.dealer
    assert dealer is not None
    deals = (*state.deals[:-1], replace(state.deals[-1], starter=inp.card))
    state = replace(state, phase="play", starter=inp.card, turn=state.left_of(dealer), deals=deals)
    if inp.card.rank == 11:
        state = _peg(state, state.side_of[dealer], dealer,
                     Score((ScoreItem(HIS_HEELS, (inp.card,), 2),)), HIS_HEELS)
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
        return Legal(None, state.count, (), False, f"No go now: {state.prompt()}")
    player, count = state.turn, state.count
    hand = state.hands.get(player)
    if hand is None:
        go = count + HIGHEST_VALUE > MAX_COUNT
        return Legal(player, count, None, go, "" if go else f"No go at {count}: every card fits. Play a card.")
    candidates = state.held(player)
    if candidates is None:
        candidates = tuple(c for c in hand if c not in state.played_by(player))
    fits = fitting(count, candidates)
    may_be_laid_away = len(candidates) - state.cards_left(player)  # the discard, while it is not entered
    go = len(fits) <= may_be_laid_away
    if go:
        return Legal(player, count, fits, True)
    if may_be_laid_away == 0:
        why = f"{player} holds {_cards(fits)}, which fit{'s' if len(fits) == 1 else ''}"
    else:
        why = f"{player} still holds a card that fits (of {_cards(fits)})"
    return Legal(player, count, fits, False, f"No go at {count}: {why}. Play a card.")


def _check_turn(state: GameState, player: str | None, action: str) -> str:
    if state.phase != "play":
        if state.phase == "deal":
            raise RuleError("scan the starter first: the play starts after the starter is turned")
        if state.phase == "cut":
            raise RuleError(f"cut for deal first: {state.prompt()}")
        raise RuleError(f"the play is over: {state.prompt()}")
    assert state.turn is not None
    if player is not None and player != state.turn:
        _check_player(state, player)
        if state.cards_left(player) == 0:
            raise RuleError(f"{player} has played all {number_words(state.hand_size)} cards: "
                            f"{state.turn} to {action}")
        raise RuleError(f"it is {state.turn}'s turn to {action}, not {player}'s")
    return state.turn


def _play(state: GameState, inp: PlayInput) -> GameState:
    player = _check_turn(state, inp.player, "play")
    if inp.claim is not None:
        if not state.muggins:
            raise RuleError("this game is played without muggins: the play is pegged for you, no claim needed")
        if not 0 <= inp.claim <= MAX_PEG:
            raise RuleError(f"one card pegs 0 to {MAX_PEG} points, not {inp.claim}: claim again")
    card = inp.card
    if (seen := _where_seen(state, card, player)) is not None:
        raise RuleError(f"{seen}: play a card from {player}'s hand")
    hand = state.hands.get(player)
    if hand is not None and card not in hand:
        held = state.held(player) or tuple(c for c in hand if c not in state.played_by(player))
        raise RuleError(f"{card} is not in {player}'s hand: play one of {_cards(held)}")
    if state.count + card.value > MAX_COUNT:
        raise RuleError(f"the count is {state.count}: {card} would make {state.count + card.value}; "
                        "play a lower card or say go")
    pile = (*state.pile, card)
    state = replace(state, pile=pile, count=state.count + card.value, played=(*state.played, (player, card)),
                    last_player=player)
    score = score_pegging(pile)
    if inp.claim is not None:
        return _claimed_play(state, player, score, inp.claim)
    if score:
        state = _peg(state, state.side_of[player], player, score, PEGGING)
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
        missed = MissedPoints(player, side, abs(score.total - claim), PEGGING, state.deal_number,
                              over=claim > score.total)
    note = "" if missed is None else f"claimed {number_words(claim)}; {missed.say()}"
    state = _peg(state, side, player, score, PEGGING, points=min(claim, score.total), claimed=claim,
                 extra_note=note)
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
        kind = LAST_CARD if play_over else GO
        state = _peg(state, state.side_of[last], last, Score((ScoreItem(kind, (state.pile[-1],), 1),)), kind)
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
    state = replace(state, crib=crib)
    if state.muggins:
        counts = (*(("hand", p) for p in state.show_order()), ("crib", dealer))
        return _next_claim(replace(state, counts=counts))
    for player in state.show_order():
        state = _peg(state, state.side_of[player], player, _show_score(state, "hand", player),
                     _label("hand", player))
        if state.winner:
            return state
    if crib is None:
        return replace(state, phase="crib", turn=dealer)
    return _count_crib(state)


def _show_score(state: GameState, kind: str, player: str) -> Score:
    assert state.starter is not None
    if kind == "hand":
        return score_show(state.played_by(player), state.starter)
    assert state.crib is not None
    return score_show(state.crib, state.starter, crib=True)


def _count_crib(state: GameState) -> GameState:
    dealer = state.dealer
    assert dealer is not None
    state = _peg(state, state.side_of[dealer], dealer, _show_score(state, "crib", dealer), _label("crib", dealer))
    return state if state.winner else _new_deal(state, state.left_of(dealer))


def _crib(state: GameState, inp: CribInput) -> GameState:
    if state.phase != "crib":
        if state.phase == "play":
            raise RuleError(f"the crib is counted after the hands: finish the play first ({state.prompt()})")
        raise RuleError(f"no crib to scan now: {state.prompt()}")
    assert state.dealer is not None
    cards = inp.cards
    if len(cards) != 4:
        raise RuleError(f"the crib holds four cards: scan all four, not {len(cards)}")
    _check_distinct(cards, "the crib")
    for card in cards:
        if card == state.starter:
            raise RuleError(f"{card} is the starter, not a crib card: scan the four cards laid away")
        for who, played in state.played:
            if played == card:
                raise RuleError(f"{card} was played by {who} this deal: the crib holds the four cards laid away")
        for who, hand in state.hands.items():
            if card in hand and card not in state.discards.get(who, ()) and who in state.discards:
                raise RuleError(f"{card} is in {who}'s hand: the crib holds the four cards laid away")
    for who, discard in state.discards.items():
        if missing := [c for c in discard if c not in cards]:
            raise RuleError(f"{who} laid away {missing[0]}: the crib must hold it; check the crib cards")
    state = replace(state, crib=cards)
    if state.muggins:
        return _next_claim(state)
    return _count_crib(state)


def _next_claim(state: GameState) -> GameState:
    """Muggins games: wait for the claim of the next count, or for the crib cards, or deal again."""
    assert state.dealer is not None
    if not state.counts:
        return _new_deal(state, state.left_of(state.dealer))
    kind, player = state.counts[0]
    if kind == "crib" and state.crib is None:
        return replace(state, phase="crib", turn=state.dealer)
    return replace(state, phase="claim", turn=player)


def _claim(state: GameState, inp: ClaimInput) -> GameState:
    if not state.muggins:
        raise RuleError("this game is played without muggins: the hands are counted for you")
    if state.phase != "claim":
        raise RuleError(f"no count to claim now: {state.prompt()}")
    if not 0 <= inp.points <= 29:
        raise RuleError(f"a hand scores 0 to 29, not {inp.points}: claim again")
    if inp.points in IMPOSSIBLE_SHOW_TOTALS:
        raise RuleError(f"no hand scores {inp.points} (nor 19, 25, 26 or 27): count again and claim")
    kind, player = state.counts[0]
    score = _show_score(state, kind, player)
    side, label = state.side_of[player], _label(kind, player)
    state = replace(state, counts=state.counts[1:])
    missed = None
    if inp.points != score.total:
        missed = MissedPoints(player, side, abs(score.total - inp.points), label, state.deal_number,
                              over=inp.points > score.total)
    note = ""
    if missed is not None:
        note = (f"claimed {number_words(inp.points)}, {player} pegs {number_words(min(inp.points, score.total))}"
                f"; {missed.say()}")
    state = _peg(state, side, player, score, label, points=min(inp.points, score.total), claimed=inp.points,
                 extra_note=note)
    if state.winner:
        return state
    if missed is not None:
        state = replace(state, missed=missed)
    return _next_claim(state)


def _muggins(state: GameState, inp: MugginsInput) -> GameState:
    if not state.muggins:
        raise RuleError("this game is played without muggins: the hands are counted for you")
    missed = state.missed
    if missed is None:
        raise RuleError("muggins is called right after a claim that was too low or too high, and the last input "
                        "was not one: no points to take")
    caller = inp.player
    if caller is None:
        caller = state.left_of(missed.player)
        while state.side_of[caller] == missed.side:
            caller = state.left_of(caller)
    _check_player(state, caller)
    if state.side_of[caller] == missed.side:
        raise RuleError(f"{caller} cannot call muggins on {missed.label}: an opponent calls it")
    score = Score((ScoreItem(MUGGINS, (), missed.points),))
    what = "overcalled" if missed.over else "missed"
    on = "the play" if missed.label == PEGGING else missed.label
    note = f"{caller} takes {number_words(missed.points)} that {missed.player} {what} on {on}"
    return replace(_peg(state, state.side_of[caller], caller, score, MUGGINS, deal=missed.deal, extra_note=note),
                   missed=None)


# --- manual pegging ----------------------------------------------------------------------------------------

def _manual(state: GameState, inp: PegInput) -> GameState:
    if state.phase == "cut":
        raise RuleError(f"cut for deal first: {state.prompt()}")
    if inp.player in state.side_of:
        side, player = state.side_of[inp.player], inp.player
    elif inp.player in state.sides:
        side, player = inp.player, None
    else:
        raise RuleError(f"{inp.player!r} is not playing: peg for one of {_and(list(state.players))}")
    if inp.points == 0 or abs(inp.points) > state.target:
        raise RuleError(f"peg 1 to {state.target} points (or a negative number to take points back), "
                        f"not {inp.points}")
    if state.scores[side] + inp.points < 0:
        raise RuleError(f"{side} has {state.scores[side]}: cannot take back {-inp.points}")
    return _peg(state, side, player, Score((ScoreItem(MANUAL, (), inp.points),)), MANUAL)

