"""The rules' facts, defined once: the variants (players, cards dealt and laid away, the target), the skunk
lines, match scoring and the order of the deal. Every layer above reads them here; nothing re-derives them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

VariantName = Literal["two", "three", "four", "five-card"]
VARIANTS: tuple[VariantName, ...] = get_args(VariantName)
MatchScoringName = Literal["standard", "acc"]
SkunkName = Literal["skunk", "double skunk"]
# Match points for a win, a skunk and a double skunk; ACC: https://www.cribbage.org/newsite/about/scoring.asp
MATCH_SCORING: dict[MatchScoringName, dict[SkunkName | None, int]] = {
    "standard": {None: 1, "skunk": 2, "double skunk": 4},
    "acc": {None: 2, "skunk": 3, "double skunk": 3},
}
DEFAULT_MATCH = 7  # match points that win a match given as "match": true


@dataclass(frozen=True, slots=True)
class Variant:
    """How a variant is dealt: the players at the table, the cards each is dealt and lays away, the usual target."""

    players: int
    dealt: int
    laid_away: int
    target: int

    @property
    def kept(self) -> int:
        """Cards each player keeps for the play and the show."""
        return self.dealt - self.laid_away

    @property
    def sides(self) -> int:
        """The scores pegged: one a player, or two partnerships in the four-player game."""
        return 2 if self.players == 4 else self.players


VARIANT: dict[VariantName, Variant] = {
    "two": Variant(2, 6, 2, 121),
    "three": Variant(3, 5, 1, 121),
    "four": Variant(4, 5, 1, 121),
    "five-card": Variant(2, 5, 2, 61),
}
VARIANT_FOR_PLAYERS: dict[int, VariantName] = {2: "two", 3: "three", 4: "four"}  # when a game names no variant


def skunk_lines(target: int) -> tuple[int, int]:
    """The scores a loser must reach to escape a skunk and a double skunk: (91, 61) for 121, (31, 16) for 61."""
    if target == 61:
        return 31, 16
    return target - (target - 1) // 4, target - (target - 1) // 2


def partnerships(players: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Who pegs together: partners sit across the table (first and third, second and fourth) in the four-player
    game; everyone else pegs alone."""
    if len(players) == 4:
        return (players[0], players[2]), (players[1], players[3])
    return tuple((p,) for p in players)


def left_of(players: tuple[str, ...], player: str) -> str:
    """The next player in the order of the deal (clockwise: the player's left)."""
    return players[(players.index(player) + 1) % len(players)]


def show_order(players: tuple[str, ...], dealer: str) -> tuple[str, ...]:
    """Who counts, from the dealer's left round to the dealer (the crib follows)."""
    start = players.index(dealer) + 1
    return tuple(players[(start + i) % len(players)] for i in range(len(players)))


@dataclass(frozen=True, slots=True)
class Rules:
    """What a game is played as, fixed when it starts: the variant (how many players, five-card), the target,
    muggins and the match. One value passed around (the game state, the controller, the board, the stats)."""

    variant: VariantName = "two"
    target: int = 121
    muggins: bool = False
    match_target: int | None = None  # match points that win the match; None for single games
    match_scoring: MatchScoringName = "standard"

    @property
    def deal(self) -> Variant:
        return VARIANT[self.variant]

    @property
    def players(self) -> int:
        return self.deal.players

    @property
    def sides(self) -> int:
        return self.deal.sides

    @property
    def dealt_size(self) -> int:
        return self.deal.dealt

    @property
    def discard_size(self) -> int:
        return self.deal.laid_away

    @property
    def hand_size(self) -> int:
        """Cards each player keeps for the play and the show."""
        return self.deal.kept

    @property
    def skunk_lines(self) -> tuple[int, int]:
        return skunk_lines(self.target)

    def skunk(self, loser_score: int) -> SkunkName | None:
        """What a game won is, by the best loser's score: a skunk, a double skunk, or a plain win (None)."""
        skunk_line, double_line = self.skunk_lines
        return "double skunk" if loser_score < double_line else "skunk" if loser_score < skunk_line else None

    def match_points(self, skunk: SkunkName | None) -> int:
        """What a game won is worth in the match: a plain win, a skunk or a double skunk."""
        return MATCH_SCORING[self.match_scoring][skunk]
