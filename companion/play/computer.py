"""A game against the computer: a virtual deck that cuts, deals and turns the starter, and computer players
that lay away, play, say go and claim. Everything they do is an entry on the table's one queue (source
`app.DEALER`, a table input as JSON), so the engine, the log, undo and the statistics are those of any game.

The person's own moves come from the page or the terminal: cards and go as typed entries, the discard as a
`discard` input for the person. `ComputerGame` is an entry device: the main loop polls it, and when the game
on the table is one against the computer it makes the next move of the deck or of a computer player a moment
later (so a person can follow). The settings (who is the person, each computer's level, the seed, discard
feedback) are kept beside the log (`NNNN.computer.json`): a game against the computer resumes after a restart,
and every deal is the same for the same seed (each deal's shuffle is seeded by the seed, game and deal).

An undo by the person takes back the computer's moves since the person's last one, and that one too (the table does,
told as one undo).

After the play and the show the deck waits: the next deal is not dealt until the person has seen the show and
said OK (`ok` from the page's Continue, Enter, the keypad's OK or typed). The wait is the table's fact, not
the log's: after a restart the last show is shown again.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import random
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from companion.config import NAME_CHARS
from companion.cribbage import transcript as t
from companion.cribbage.cards import DECK, Card
from companion.cribbage.errors import InputError
from companion.cribbage.facts import Phase, ScoreKind
from companion.cribbage.game import GameState, legal_moves
from companion.cribbage.rules import VARIANT_FOR_PLAYERS
from companion.cribbage.scoring import score_show
from companion.devices.base import Clock, Emit, Entry, EntryDevice
from companion.entry.commands import Command, decode_entry
from companion.gamelog import settings_path
from companion.i18n import N_, Language, current
from companion.table import DEALER, Outcome, Table
from companion.words.opponents import SettingsRefusal, Unset
from companion.words.phrases import muggins_words
from companion.words.review import review_words

if TYPE_CHECKING:  # the computer players (and numpy) are imported when a game against the computer begins
    from companion.advice.coach import DiscardReview
    from companion.advice.model import OpponentModel
    from companion.advice.players import Player
    from companion.cribbage.facts import ScoreEvent

log = logging.getLogger(__name__)

MOVE_SECONDS = 0.7  # a computer's move comes this long after the table changed, so a person can follow
MAX_MATCH = 7
LEVEL_WORDS = {"easy": N_("easy"), "standard": N_("standard"), "pro": N_("pro")}  # as the page's form names them


class SettingsError(InputError):
    """Settings a person chose that cannot be played: `refusal` says why (`words.opponents.settings_words` says it);
    `str(err)` is its code and facts, for logs."""

    refusal: SettingsRefusal

    def __init__(self, refusal: SettingsRefusal) -> None:
        super().__init__(refusal)


@dataclass(frozen=True, slots=True)
class Settings:
    """One person against one to three computer players."""

    person: str
    levels: tuple[str, ...]  # each computer player's level, in seating order after the person
    target: int = 121
    muggins: bool = False
    match: int = 1  # match points that win the match; 1 is a single game
    seed: int = 0
    feedback: bool | None = None  # discard feedback; None: on at easy (any computer player is easy)
    names: tuple[str, ...] = ()  # the computer players' names in the language the game was started in ("Profi");
    # none: their levels' English names (settings kept before names were)

    def __post_init__(self) -> None:
        from companion.advice.players import LEVELS

        if not self.person.strip() or len(self.person) > NAME_CHARS or self.person in self.computers:
            raise SettingsError(SettingsRefusal(Unset.NAME, self.computers, most=NAME_CHARS))
        if not 1 <= len(self.levels) <= 3 or any(level not in LEVELS for level in self.levels):
            raise SettingsError(SettingsRefusal(Unset.LEVELS, LEVELS))
        if self.names and (len(self.names) != len(self.levels) or not all(
                0 < len(name) <= NAME_CHARS for name in self.names)):
            raise SettingsError(SettingsRefusal(Unset.NAMES, most=NAME_CHARS))
        if self.target not in (61, 121):
            raise SettingsError(SettingsRefusal(Unset.TARGET, count=self.target))
        if not 1 <= self.match <= MAX_MATCH:
            raise SettingsError(SettingsRefusal(Unset.MATCH, count=self.match, most=MAX_MATCH))

    @property
    def computers(self) -> tuple[str, ...]:
        """The computer players' names: their level's, numbered when two share one ("Pro", "Pro 2")."""
        names: list[str] = []
        for base in self.names or tuple(level.capitalize() for level in self.levels):
            name, n = base, 2
            while name in names:
                name, n = f"{base} {n}", n + 1
            names.append(name)
        return tuple(names)

    def named(self, lang: Language) -> Settings:
        """These settings with the computer players named in `lang`, as a new game starts: the names go into the
        game's log, so a game resumes with the names it began with."""
        return replace(self, names=tuple(lang.gettext(LEVEL_WORDS.get(level, level)).capitalize()
                                         for level in self.levels))

    @property
    def players(self) -> tuple[str, ...]:
        return (self.person, *self.computers)

    @property
    def wants_feedback(self) -> bool:
        return self.feedback if self.feedback is not None else "easy" in self.levels

    def level_of(self, player: str) -> str:
        return dict(zip(self.computers, self.levels, strict=True))[player]

    def game_input(self) -> t.GameInput:
        """A new game: the virtual deck cuts for the first deal."""
        return t.GameInput(players=self.players, target=self.target, variant=VARIANT_FOR_PLAYERS[len(self.players)],
                           muggins=self.muggins, match=self.match if self.match > 1 else None)

    def to_json(self) -> dict[str, object]:
        return {"person": self.person, "levels": list(self.levels), "target": self.target, "muggins": self.muggins,
                "match": self.match, "seed": self.seed, "feedback": self.feedback,
                **({"names": list(self.names)} if self.names else {})}

    @classmethod
    def from_json(cls, data: object) -> Settings:
        """Settings from a request or the file beside the log; SettingsError says what is wrong."""
        if not isinstance(data, dict):
            raise SettingsError(SettingsRefusal(Unset.NOT_OBJECT))
        known = {"person", "levels", "target", "muggins", "match", "seed", "feedback", "names"}
        if unknown := sorted(set(data) - known):
            raise SettingsError(SettingsRefusal(Unset.UNKNOWN, tuple(sorted(known)), text=unknown[0]))
        person, levels = data.get("person", "Guest"), data.get("levels", ["standard"])
        target, match, seed = data.get("target", 121), data.get("match", 1), data.get("seed", 0)
        muggins, feedback, names = data.get("muggins", False), data.get("feedback"), data.get("names", [])
        if not isinstance(person, str) or not isinstance(levels, list) or not all(
                isinstance(level, str) for level in levels):
            raise SettingsError(SettingsRefusal(Unset.PERSON_LEVELS))
        if any(not isinstance(v, int) or isinstance(v, bool) for v in (target, match, seed)):
            raise SettingsError(SettingsRefusal(Unset.NUMBERS))
        if not isinstance(muggins, bool) or not (feedback is None or isinstance(feedback, bool)):
            raise SettingsError(SettingsRefusal(Unset.FLAGS))
        if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
            raise SettingsError(SettingsRefusal(Unset.NAMES_LIST))
        return cls(person.strip(), tuple(levels), target, muggins, match, seed, feedback, tuple(names))


def read_settings(log_path: Path) -> Settings | None:
    """The settings kept beside a log, or None for a table game (or a file that cannot be read: said in the
    daemon's log, and the game goes on as a table game)."""
    path = settings_path(log_path)
    try:
        return Settings.from_json(json.loads(path.read_text()))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        log.warning("%s: %s; the game goes on without computer players", path, error)
        return None


def write_settings(log_path: Path, settings: Settings) -> None:
    """Atomically, and durable before the game's first move."""
    path = settings_path(log_path)
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "w") as file:
        json.dump(settings.to_json(), file)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)


def dealer_entry(inp: t.Input) -> Entry:
    """An entry carrying a table input, as the virtual deck and the computer players make them."""
    return Entry(t.input_to_line(inp), DEALER, inp)


def deck_for(settings: Settings, state: GameState) -> list[Card]:
    """This deal's shuffled deck: the same for the same seed, game and deal."""
    deck = list(DECK)
    random.Random(f"{settings.seed}:{state.game_number}:{state.deal_number}").shuffle(deck)
    return deck


def show_points(state: GameState, kind: ScoreKind, player: str) -> int:
    assert state.starter is not None
    if kind is ScoreKind.HAND:
        return score_show(state.played_by(player), state.starter).total
    assert state.crib is not None
    return score_show(state.crib, state.starter, crib=True).total


class ComputerGame(EntryDevice):
    """The deck and the computer players of the game on the table, when it is a game against the computer."""

    name = "computer"

    def __init__(self, table: Table, *, clock: Clock, delay: float = MOVE_SECONDS) -> None:
        self.table = table
        self.clock = clock
        self.delay = delay
        self.settings: Settings | None = None
        self.review: DiscardReview | None = None  # the review of the person's last discard, when asked for
        self.muggins: ScoreEvent | None = None  # what the computer did that a person might miss: muggins taken
        # (both values: each view says them in its language, `feedback` and `said`)
        self._emit: Emit | None = None
        self._log_path: Path | None = None
        self._seen: GameState | None = None
        self._move: Entry | None = None
        self._due = 0.0
        self._before = table.state
        self._model: OpponentModel | None = None
        self._asked: dict[int, Settings] = {}  # new games asked for (by their entries' ids), with their settings
        self._released: tuple[int, int] | None = None  # the (game, deal) the person said OK to deal
        self._lock = threading.Lock()  # the page asks from its own thread
        self._players: dict[str, Player] = {}  # this game's computer players: the pro learns how the person plays

    def new_game(self, settings: Settings) -> Entry:
        """The entry that starts a game against the computer with `settings` (checked by the asker), which are
        kept beside its log once the table has started it."""
        entry = dealer_entry(settings.game_input())
        with self._lock:
            self._asked[id(entry)] = settings
        return entry

    def play_again(self) -> Entry:
        """The entry that starts another game with this game's settings, shuffled anew."""
        assert self.settings is not None
        return self.new_game(replace(self.settings, seed=random.randrange(2**32)))

    def start(self, emit: Emit) -> None:
        self._emit = emit
        self._load()

    def close(self) -> None:
        self._emit = None

    def _load(self) -> None:
        self._log_path = self.table.log.path
        self.settings = read_settings(self._log_path)
        self.table.person = self.settings.person if self.settings is not None else None
        self._seen, self._move, self._released = None, None, None
        self._players = {}
        self._before = self.table.state
        if self.settings is not None:  # a match's next game is dealt from the game that started it
            games = [inp for inp in self.table.log.inputs if isinstance(inp, t.GameInput)]
            if games:
                self.table.setup = games[0]

    # -- what the table did --------------------------------------------------------------------------------
    def outcome(self, outcome: Outcome) -> None:
        """Called by the main loop after each entry (the daemon's `on_outcome`)."""
        before, state = self._before, self.table.state
        self._before = state
        accepted = outcome.accepted
        if isinstance(accepted, t.GameInput) and outcome.entry.source == DEALER:
            with self._lock:
                settings = self._asked.pop(id(outcome.entry), None)
            if settings is not None:
                write_settings(self.table.log.path, settings)
                self._load()
                self.review = self.muggins = None
            return
        settings = self.settings
        if settings is None:
            return
        if accepted is None:
            decoded = decode_entry(outcome.entry) if outcome.entry.source != DEALER else None
            if isinstance(decoded, Command) and decoded.word == "ok" and self.showing(state) is not None:
                self._released = (state.game_number, state.deal_number)
                self._seen = None  # the deck deals at the next poll
            return
        if isinstance(accepted, t.UndoInput):  # the table took back the person's move with the replies to it
            self._released = None  # the show comes round again
            return
        if isinstance(accepted, t.DiscardInput) and accepted.player == settings.person:
            from companion.advice.coach import review_discard

            self.review = review_discard(state, settings.person) if settings.wants_feedback else None
            self.muggins = None  # kept through the next deal's dealing, until the person has seen it
        elif isinstance(accepted, t.MugginsInput) and before.missed is not None:
            self.muggins = state.events[-1]
        elif isinstance(accepted, t.HandInput):
            self.review = None

    def feedback(self, lang: Language | None = None) -> str:
        """The review of the person's last discard, in `lang` (the current language when not given; "": none)."""
        return review_words(self.review, lang or current()) if self.review is not None else ""

    def said(self, lang: Language | None = None) -> str:
        """Muggins the computer took, in `lang` (the current language when not given; "": none)."""
        return muggins_words(self.muggins, lang or current()) if self.muggins is not None else ""

    def showing(self, state: GameState) -> int | None:
        """The deal whose show waits for the person's OK before the next deal is dealt, or None."""
        if state.phase is not Phase.DEAL or state.hands or state.discards or len(state.deals) < 2:
            return None
        if self._released == (state.game_number, state.deal_number) or state.deals[-2].starter is None:
            return None
        return state.deals[-2].number

    # -- the next move ---------------------------------------------------------------------------------
    @property
    def idle(self) -> bool:
        """Waiting for the person (or not a game against the computer)."""
        return self.settings is None or (self._move is None
                                         and self._seen is self.table.state and self.table.queue.empty())

    def poll(self, now: float) -> None:
        if self.table.log.path != self._log_path:
            self._load()
        if self.settings is None or self._emit is None:
            return
        state = self.table.state
        if state is not self._seen:
            self._seen = state
            self._move = self.next_move(state)
            dealing = self._move is not None and isinstance(self._move.table_input, t.HandInput | t.CutInput)
            self._due = now + (0 if dealing else self.delay)
        if self._move is not None and now >= self._due and self.table.queue.empty():
            self._emit(self._move)
            self._move = None

    def next_move(self, state: GameState) -> Entry | None:
        """What the deck or a computer player does next, or None while the person is to move."""
        settings = self.settings
        assert settings is not None
        person = settings.person
        if state.missed is not None and state.missed.player == person:
            return dealer_entry(t.MugginsInput())
        if state.phase is Phase.CUT:
            return self._cut(state)
        if state.phase is Phase.DEAL:
            return None if self.showing(state) is not None else self._deal(state, settings)
        if state.phase is Phase.PLAY and state.turn is not None and state.turn != person:
            return self._play(state, state.turn)
        if state.phase is Phase.CRIB:
            deck = deck_for(settings, state)
            discards = [c for p in state.players for c in state.discards.get(p, ())]
            extra = deck[len(state.players) * state.dealt_size:][: 4 - len(discards)]
            return dealer_entry(t.CribInput((*discards, *extra)))
        if state.phase is Phase.CLAIM and state.counts[0][1] != person:
            kind, player = state.counts[0]
            return dealer_entry(t.ClaimInput(show_points(state, kind, player)))
        return None

    def _cut(self, state: GameState) -> Entry:
        assert self.settings is not None
        taken = {card for _, card in state.cuts}
        rng = random.Random(f"{self.settings.seed}:cut:{len(state.inputs)}")
        card = rng.choice([c for c in DECK if c not in taken])
        player = next(p for p in state.players if p not in dict(state.cuts))
        return dealer_entry(t.CutInput(player, card))

    def _deal(self, state: GameState, settings: Settings) -> Entry | None:
        assert state.dealer is not None
        deck = deck_for(settings, state)
        size = state.dealt_size
        for i, player in enumerate(state.show_order()):  # the dealer deals from his left
            if player not in state.hands:
                return dealer_entry(t.HandInput(player, tuple(deck[i * size:(i + 1) * size])))
        for player in settings.computers:
            if player not in state.discards:
                return dealer_entry(t.DiscardInput(player, self.lay_away(state, player)))
        if settings.person not in state.discards:
            return None
        return dealer_entry(t.StarterInput(deck[-1]))

    def _player(self, state: GameState, name: str) -> Player:
        from companion.advice.model import load
        from companion.advice.players import make

        assert self.settings is not None
        level = self.settings.level_of(name)
        if level == "pro" and self._model is None:
            self._model = load()
        rng = random.Random(f"{self.settings.seed}:{len(state.inputs)}:{name}")
        player = self._players.get(name)
        if player is None or player.level != level:
            player = self._players[name] = make(level, rng, self._model)
        player.rng = rng  # each move's choices are seeded by the game's seed and the move
        return player

    def lay_away(self, state: GameState, player: str) -> tuple[Card, ...]:
        from companion.advice.discard import analyse
        from companion.advice.players import Seat
        from companion.advice.tables import rank_table

        dealt = state.hands[player]
        assert state.dealer is not None
        side = state.side_of[player]
        dealer = side == state.side_of[state.dealer]
        others = [score for s, score in state.scores.items() if s != side]
        seat = Seat(dealer, state.scores[side], max(others), state.target)
        level = self.settings.level_of(player) if self.settings else "standard"
        if state.variant == "two":
            return self._player(state, player).discard(dealt, seat)
        if level == "easy":  # the four cards that count most on their own
            keep = max(itertools.combinations(dealt, state.hand_size),
                       key=lambda k: int(rank_table(len(k))[tuple(c.rank - 1 for c in k)]))
            return tuple(c for c in dealt if c not in keep)
        return analyse(dealt, dealer=dealer, variant=state.variant).best.discard

    def _play(self, state: GameState, player: str) -> Entry:
        from companion.advice.pegging import PlayView, moves_seen

        held = state.held(player) or ()
        if legal_moves(state).must_go:
            return dealer_entry(t.GoInput(player))
        assert state.starter is not None
        following = state.left_of(player)
        seen = set(state.hands[player]) | {state.starter} | {c for who, c in state.played if who != player}
        side = state.side_of[player]
        others = [score for s, score in state.scores.items() if s != side]
        kept = tuple(c for c in state.hands[player] if c not in state.discards.get(player, ()))
        view = PlayView(hand=held, pile=state.pile, unseen=tuple(c for c in DECK if c not in seen),
                        opponent_cards=state.cards_left(following), opponent_go=following in state.gone,
                        need=state.target - state.scores[side], opponent_need=state.target - max(others),
                        dealer=player == state.dealer, starter=state.starter, kept=kept, target=state.target,
                        variant=state.variant,
                        opponent_moves=moves_seen(state.played, following, state.hand_size, state.count,
                                                      following in state.gone))
        return dealer_entry(t.PlayInput(self._player(state, player).play(view), player))


def sort_cards(cards: Sequence[Card], order: str) -> list[Card]:
    """The person's hand as they like it: "asc" (ace first), "desc", or "none" (as dealt)."""
    if order == "none":
        return list(cards)
    return sorted(cards, key=lambda c: c.index, reverse=order == "desc")
