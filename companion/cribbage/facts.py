"""The engine's typed facts: who scores (a `Side`), what for (`ScoreKind`), the phase of the deal (`Phase`) and
what the table waits for and from whom (`Prompt`). Words for people are made from these at the edge
(companion/words: phrases.py and the catalogs), in a language handed; JSON by one projection
(companion/words/projection.py). A refusal is a code with its facts (refusals.py). Nothing reads a sentence back."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import Card
from .rules import SkunkName
from .scoring import Score


class Phase(StrEnum):
    NEW = "new"
    CUT = "cut"
    DEAL = "deal"
    PLAY = "play"
    CRIB = "crib"
    CLAIM = "claim"
    GAME_OVER = "game over"
    MATCH_OVER = "match over"


@dataclass(frozen=True, slots=True, order=True)
class Side:
    """Who pegs together: one player, or two partners in the four-player game."""

    players: tuple[str, ...]

    def __contains__(self, player: object) -> bool:
        return player in self.players


class ScoreKind(StrEnum):
    """What points were pegged for."""

    HAND = "hand"
    CRIB = "crib"
    PEGGING = "pegging"  # 15, 31, pairs and runs of a card laid in the play
    GO = "go"
    LAST_CARD = "last_card"
    HEELS = "heels"  # a jack turned as the starter: the dealer's
    MUGGINS = "muggins"  # points a claim missed (or overcalled), taken by an opponent
    PEGGED = "pegged"  # pegged by hand, without cards
    THREE_FOR_LAST = "three_for_last"  # five-card cribbage: the pone of the first deal

    @property
    def in_play(self) -> bool:
        return self in PLAY_KINDS

    @property
    def in_show(self) -> bool:
        return self in SHOW_KINDS


PLAY_KINDS = frozenset((ScoreKind.PEGGING, ScoreKind.GO, ScoreKind.LAST_CARD))
SHOW_KINDS = frozenset((ScoreKind.HAND, ScoreKind.CRIB))


@dataclass(frozen=True, slots=True)
class ScoreEvent:
    kind: ScoreKind
    side: Side
    player: str | None  # who made it (None for manual pegs of a side)
    points: int  # points actually pegged (after capping at the target, and the claim in muggins games)
    score: Score  # the itemised reason
    deal: int  # deal number in the current game, from 1
    claimed: int | None = None  # muggins games: the points claimed for this count
    notes: tuple[Note, ...] = ()  # what the points alone do not say: a claim off the count, muggins taken, the
    # game won at the cap


class NoteKind(StrEnum):
    """What a score's points alone do not say (the value is the code clients read)."""

    CLAIMED = "claimed"  # a card's points claimed in the play: `claimed`
    CLAIMED_PEGS = "claimed_pegs"  # a count claimed: `claimed`, and `player` pegs `points`
    MISSED = "missed"  # `player`'s claim was off by `points`: short, or `over`; muggins is open for that many
    MUGGINS_TAKEN = "muggins_taken"  # `caller` takes the `points` that `player` missed (or `over`called) on
    # `counting` (PEGGING: the play; HAND or CRIB: that player's count)
    WON_AT_CAP = "won_at_cap"  # `wanted` held (`counting` in the show) or scored, `points` pegged: `side` reaches
    # `target` and the game is over


@dataclass(frozen=True, slots=True)
class Note:
    """A typed fact about a score, said at the edge (companion.words.phrases.note)."""

    kind: NoteKind
    player: str | None = None
    points: int = 0
    claimed: int | None = None
    over: bool = False  # a claim too high (else too low)
    caller: str | None = None
    counting: ScoreKind | None = None
    wanted: int | None = None
    side: Side | None = None
    target: int | None = None

    def to_json(self) -> dict[str, object]:
        """The note's code and facts, for clients."""
        return {"kind": self.kind.value, "player": self.player, "points": self.points, "claimed": self.claimed,
                "over": self.over, "caller": self.caller,
                "counting": self.counting.value if self.counting else None, "wanted": self.wanted,
                "side": list(self.side.players) if self.side else None, "target": self.target}


class Wanted(StrEnum):
    """What the table waits for."""

    GAME = "game"  # no game yet
    CUT = "cut"  # the players named to cut for deal
    STARTER = "starter"  # the dealer turns the starter
    DISCARD = "discard"  # a person at a virtual table lays away `count` cards (the deck turns the starter after)
    HAND = "hand"  # coaching: the cards dealt to the player named
    PLAY = "play"  # the player named lays a card or says go
    GO = "go"  # the player named holds no card that fits: go
    CRIB = "crib"  # the dealer's four crib cards
    CLAIM = "claim"  # muggins: the player named claims the points of a count
    NEW_GAME = "new_game"  # the game is over
    NEW_MATCH = "new_match"  # the match is over


@dataclass(frozen=True, slots=True)
class Prompt:
    """What is awaited, from whom, with what words need: companion.words.phrases.prompt_words says it."""

    wanted: Wanted
    players: tuple[str, ...] = ()  # from whom
    count: int | None = None  # the count of the play (the cards to lay away, for DISCARD)
    dealer: str | None = None
    counting: ScoreKind | None = None  # a claim's count: the hand or the crib
    again: bool = False  # the cut tied for lowest: cut again
    winner: Side | None = None  # the game or the match won
    won: int = 0  # the winner's score (or match points)
    others: tuple[int, ...] = ()  # the other sides' scores (or match points), highest first
    skunk: SkunkName | None = None


class Place(StrEnum):
    """Where a card already seen this deal is."""

    STARTER = "starter"
    PLAYED = "played"  # laid in the play, by `Seen.player`
    CRIB = "crib"  # laid away to the crib, by `Seen.player`
    HAND = "hand"  # in `Seen.player`'s hand


@dataclass(frozen=True, slots=True)
class Seen:
    """A card that cannot be new here, and where it is: companion.words.phrases.seen_words says it."""

    card: Card
    place: Place
    player: str | None = None
