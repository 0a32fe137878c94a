"""The statistics as people read them: a game's line, a selection no game fits, and the picture, in the language
handed.

`companion.stats` keeps facts (who played, their scores and levels, when, how it ended; a refusal of a selection
as a kind with its facts); the words are made here, at the edge, so `crib stats`, its picture and the statistics
page each say them in their reader's language:

    from companion.words.statistics import game_line, selection_words
    game_line(game, language("de"))            # "Spiel 1: 14.03.2026 12:00, Ann 121 gegen Bob 104: Ann gewann"
    selection_words(error.refusal, language("en"))  # "no game 3: there are 2 games, numbered from 1 (...)"
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, get_args

from companion.cribbage.cards import Card
from companion.cribbage.facts import Place, Prompt, ScoreKind, Seen, Side, Wanted
from companion.cribbage.refusals import Act, Refusal, Why, coded
from companion.cribbage.rules import SkunkName, skunk_lines
from companion.cribbage.transcript import InputKind
from companion.i18n import N_, Language

from .logbook import Finding, Found, finding_words

if TYPE_CHECKING:  # annotations only: the statistics stand above the words
    from pathlib import Path

    from matplotlib.axes import Axes

    from companion.stats import Game, PlayerStats, Race, Report


class Unfit(StrEnum):
    """Why no game fits a selection (the value is its code). The fields each one fills are listed."""

    NO_PLAYER = "no_player"  # player: the name given, players: those of the games
    NO_GAME = "no_game"  # game: the number given, count: the games there are
    NOT_IN_GAME = "not_in_game"  # player, game
    LAST = "last"  # count: the number of latest games given (below 1)


@dataclass(frozen=True, slots=True)
class SelectionRefusal:
    """A selection of games no game fits: why (`why`) and its facts."""

    why: Unfit
    player: str | None = None
    players: tuple[str, ...] = ()
    game: int | None = None
    count: int | None = None

    def __str__(self) -> str:
        return coded(self)


def selection_words(refusal: SelectionRefusal, lang: Language) -> str:
    """Why no game fits, and what there is: "no game 3: there are 2 games, numbered from 1 (`crib stats` lists
    them)"."""
    _ = lang.gettext
    if refusal.why is Unfit.NO_PLAYER:
        return _("no player {player!r} in these games: the players are {players}").format(
            player=refusal.player, players=", ".join(refusal.players) or _("none yet"))
    if refusal.why is Unfit.NO_GAME:
        count = refusal.count or 0
        return lang.ngettext("no game {game}: there is {count} game, numbered from 1 (`crib stats` lists them)",
                             "no game {game}: there are {count} games, numbered from 1 (`crib stats` lists them)",
                             count).format(game=refusal.game, count=count)
    if refusal.why is Unfit.NOT_IN_GAME:
        return _("{player} did not play in game {game}").format(player=refusal.player, game=refusal.game)
    return _("--last {last}: give how many of the latest games, 1 or more").format(last=refusal.count)


class Trouble(StrEnum):
    """What went wrong reading a log (the value is its code): what the log's reader found (`companion.gamelog`,
    naming the file), which also refuses a line the engine refuses, so the statistics replay only what it took."""

    UNREADABLE = "unreadable"  # the log cannot be read: its games are left out
    NOTED = "noted"  # the log's reader dropped a part (a torn last line): the rest counts


@dataclass(frozen=True, slots=True)
class LogProblem:
    """A log left out of the statistics, or read in part: what went wrong (`kind`) and what the log's reader found."""

    kind: Trouble
    finding: Finding

    def to_json(self) -> dict[str, object]:
        """The problem whole, as the statistics' database keeps it (`from_json` reads it back equal): its kind and
        every fact."""
        return {"kind": self.kind.value, "finding": _finding_json(self.finding)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LogProblem:
        return cls(Trouble(data["kind"]), _finding(data["finding"]))


def _finding_json(finding: Finding) -> dict[str, object]:
    return {"kind": finding.kind.value, "path": finding.path, "line": finding.line,
            "facts": {name: _fact_json(value) for name, value in finding.facts.items()}}


def _fact_json(value: object) -> object:
    """A finding's fact: the system's words and counts as they are, an engine's refusal or a finding inside whole."""
    if isinstance(value, Refusal):
        return {"refusal": _refusal_json(value)}
    if isinstance(value, Finding):
        return {"finding": _finding_json(value)}
    if isinstance(value, str | int):
        return value
    raise TypeError(f"a log's reader found {value!r}, which the statistics do not keep")  # a screen's message


def _finding(data: Mapping[str, Any]) -> Finding:
    return Finding(Found(data["kind"]), data["path"], data["line"],
                   {name: _fact(value) for name, value in data["facts"].items()})


def _fact(value: Any) -> Any:
    if isinstance(value, dict):
        return _refusal(value["refusal"]) if "refusal" in value else _finding(value["finding"])
    return value


def _refusal_json(refusal: Refusal) -> dict[str, object]:
    """A refusal whole: the clients' form (`Refusal.to_json`), with every fact of the prompt, not only what it
    waits for."""
    out = refusal.to_json()
    if refusal.prompt is not None:
        out["prompt"] = _prompt_json(refusal.prompt)
    if refusal.cause is not None:
        out["cause"] = _refusal_json(refusal.cause)
    return out


def _prompt_json(prompt: Prompt) -> dict[str, object]:
    return {"wanted": prompt.wanted.value, "players": list(prompt.players), "count": prompt.count,
            "dealer": prompt.dealer, "counting": None if prompt.counting is None else prompt.counting.value,
            "again": prompt.again, "winner": None if prompt.winner is None else list(prompt.winner.players),
            "won": prompt.won, "others": list(prompt.others), "skunk": prompt.skunk}


def _refusal(data: Mapping[str, Any]) -> Refusal:
    card, seen, side, prompt, cause = (data.get(name) for name in ("card", "seen", "side", "prompt", "cause"))
    act, counting, kind = data.get("act"), data.get("counting"), data.get("input")
    return Refusal(
        Why(data["why"]), card=None if card is None else Card.parse(card),
        cards=tuple(Card.parse(c) for c in data.get("cards", ())), player=data.get("player"),
        other=data.get("other"), players=tuple(data.get("players", ())), count=data.get("count"),
        total=data.get("total"), points=data.get("points"), size=data.get("size"),
        prompt=None if prompt is None else _prompt(prompt),
        seen=None if seen is None else Seen(Card.parse(seen["card"]), Place(seen["place"]), seen["player"]),
        act=None if act is None else Act(act), counting=None if counting is None else ScoreKind(counting),
        side=None if side is None else Side(tuple(side)), text=data.get("text", ""),
        input=_one_of(kind, get_args(InputKind)), field=data.get("field", ""), names=tuple(data.get("names", ())),
        cause=None if cause is None else _refusal(cause))


def _prompt(data: Mapping[str, Any]) -> Prompt:
    counting, winner = data["counting"], data["winner"]
    return Prompt(Wanted(data["wanted"]), tuple(data["players"]), data["count"], data["dealer"],
                  None if counting is None else ScoreKind(counting), data["again"],
                  None if winner is None else Side(tuple(winner)), data["won"], tuple(data["others"]),
                  _one_of(data["skunk"], get_args(SkunkName)))


def _one_of(value: Any, names: tuple[str, ...]) -> Any:
    """A name of a closed set (an input's type, a skunk) as written, or None."""
    if value is not None and value not in names:
        raise ValueError(f"{value!r} is none of {names}")
    return value


def problem_words(problem: LogProblem, lang: Language) -> str:
    """What went wrong reading a log, and what it means for the statistics."""
    found = finding_words(problem.finding, lang)
    if problem.kind is Trouble.UNREADABLE:
        return lang.gettext("{problem}; its games are left out of the statistics").format(problem=found)
    return found


# --- a game --------------------------------------------------------------------------------------------------

def when_words(played: str, lang: Language) -> str:
    """A moment (YYYY-MM-DDTHH:MM) as the language writes it: "2026-11-26 21:40", in German "26.11.2026 21:40"."""
    day, _at, time = played.partition("T")
    year, month, date = [*day.split("-"), "", ""][:3]
    return lang.gettext("{year}-{month}-{day} {time}").format(year=year, month=month, day=date, time=time).strip()


def game_name(game: Game | Race, lang: Language) -> str:
    """A game as a player tells it from the others: when, who played (at what level) with their final scores, and
    how it ended ("2026-11-26 21:40, Guest 121 v Pro (pro) 87", "... (a skunk)", "... (under way)")."""
    _ = lang.gettext
    levels = dict(game.levels)
    sides = _(" v ").join(_("{side} ({level}) {score}").format(side=s["name"], level=_(levels[s["name"]]),
                                                               score=s["score"])
                          if s["name"] in levels else f"{s['name']} {s['score']}" for s in game.sides)
    named = _("{when}, {sides}").format(when=when_words(game.played, lang), sides=sides) if game.played else sides
    if not game.finished:
        return _("{game} (under way)").format(game=named)
    if game.skunk:
        return (_("{game} (a double skunk)") if game.skunk == "double skunk" else _("{game} (a skunk)")
                ).format(game=named)
    return named


def game_line(game: Game, lang: Language) -> str:
    """A game as `crib stats` lists it: "game 2: 2026-03-14 12:00, Cat 121 v Bob 80 (a skunk): Cat won"."""
    if game.winner is None:
        return lang.gettext("game {number}: {name}").format(number=game.number, name=game_name(game, lang))
    return lang.gettext("game {number}: {name}: {winner} won").format(
        number=game.number, name=game_name(game, lang), winner=game.sides[game.winner]["name"])


# --- the picture -----------------------------------------------------------------------------------------------

# RULES.md, "Facts to test against": how many of the 12,994,800 hands (four cards and a starter) score each
# total under hand rules; every other total has none. What a player's hands are drawn against.
ALL_HANDS = {0: 1_009_008, 1: 99_792, 2: 2_813_796, 3: 505_008, 4: 2_855_676, 5: 697_508, 6: 1_800_268,
             7: 751_324, 8: 1_137_236, 9: 361_224, 10: 388_740, 11: 51_680, 12: 317_340, 13: 19_656, 14: 90_100,
             15: 9_168, 16: 58_248, 17: 11_196, 18: 2_708, 20: 8_068, 21: 2_496, 22: 444, 23: 356, 24: 3_680,
             28: 76, 29: 4}
COLOURS = ((200, 40, 40), (30, 90, 200), (30, 150, 60), (200, 130, 0))
WIDTH, HEIGHT, DPI = 1200, 900, 100


def _colour(rgb: tuple[int, int, int]) -> tuple[float, float, float]:
    return (rgb[0] / 255, rgb[1] / 255, rgb[2] / 255)


def draw(report: Report, path: Path, lang: Language) -> None:
    """Write a PNG of the chosen games, its words in `lang`: the latest one's score race with its skunk lines, the
    averages per player, and each player's hand scores against all hands. Needs matplotlib (the [plots] extra)."""
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH / DPI, HEIGHT / DPI), dpi=DPI, layout="constrained")
    grid = figure.add_gridspec(2, 2)
    chosen = (lang.ngettext("{count} game finished, {unfinished} under way",
                            "{count} games finished, {unfinished} under way", report.games)
              .format(count=report.games, unfinished=report.unfinished))
    figure.suptitle(lang.gettext("Cribbage statistics: {chosen}").format(chosen=chosen), fontsize=15)
    _race(figure.add_subplot(grid[0, :]), report.latest, lang)
    _averages(figure.add_subplot(grid[1, 0]), report.players, lang)
    _hands(figure.add_subplot(grid[1, 1]), report.hand_counts, lang)
    figure.savefig(path, format="png")


def _race(axes: Axes, race: Race | None, lang: Language) -> None:
    _ = lang.gettext
    if race is None:
        axes.set_title(_("Score race"))
        axes.text(0.5, 0.5, _("No game has a deal yet."), ha="center", va="center", transform=axes.transAxes)
        return
    axes.set_title((_("Latest game ({name}): score after each deal") if race.winner is None else
                    _("Latest game ({name}): score after each deal - {winner} won"))
                   .format(name=game_name(race, lang),
                           winner=None if race.winner is None else race.sides[race.winner]["name"]))
    deals = range(len(race.scores))
    skunk, double = skunk_lines(race.target)
    for line, words, style in ((race.target, _("game {target}").format(target=race.target), "-"),
                               (skunk - 0.5, _("skunk line {hole}").format(hole=skunk - 1), "--"),
                               (double - 0.5, _("double skunk {hole}").format(hole=double - 1), ":")):
        axes.axhline(line, color="0.45", linestyle=style, linewidth=1.2)
        axes.annotate(words, (1, line), xycoords=("axes fraction", "data"), xytext=(4, 0),
                      textcoords="offset points", va="center", fontsize=9)
    for index, side in enumerate(race.sides):
        scores = [deal[index] for deal in race.scores]
        label = (_("{side} {score} - winner") if index == race.winner else "{side} {score}").format(
            side=side["name"], score=scores[-1])
        axes.plot(deals, scores, marker="o", linewidth=2.5, color=_colour(COLOURS[index % len(COLOURS)]), label=label)
    axes.set(xlabel=_("deal"), ylabel=_("points"), ylim=(0, race.target + 4),
             xlim=(-0.2, max(1, len(race.scores) - 1) + 0.2))
    axes.set_xticks(list(deals))
    axes.grid(axis="y", color="0.9")
    axes.legend(loc="upper left")


_MEASURES = (("pegging", N_("pegging a deal"), (90, 90, 90)), ("hand", N_("hand"), (30, 90, 200)),
             ("crib", N_("crib"), (30, 150, 60)), ("discard_loss", N_("lost to the best discard"), (200, 40, 40)))


def _averages(axes: Axes, players: Sequence[PlayerStats], lang: Language) -> None:
    _ = lang.gettext
    axes.set_title(_("Averages per player"))
    if not players:
        axes.text(0.5, 0.5, _("No deal has been played yet."), ha="center", va="center", transform=axes.transAxes)
        return
    width = 0.8 / len(_MEASURES)
    for m, (name, words, rgb) in enumerate(_MEASURES):
        xs = [g + (m - (len(_MEASURES) - 1) / 2) * width for g in range(len(players))]
        values = [getattr(p, name) for p in players]
        bars = axes.bar(xs, [v or 0 for v in values], width, color=_colour(rgb), label=_(words))
        axes.bar_label(bars, labels=["-" if v is None else lang.decimal(v) for v in values], fontsize=8, padding=2)
    axes.set_xticks(range(len(players)), [
        lang.ngettext("{player}\n{wins} of {games} game won", "{player}\n{wins} of {games} games won", p.games)
        .format(player=p.player, wins=p.wins, games=p.games) for p in players])
    axes.set_ylabel(_("points"))
    highest = max([v for p in players for v in (getattr(p, name) for name, *_rest in _MEASURES) if v] + [1.0])
    axes.set_ylim(0, highest * 1.35)  # room for the legend above the bars
    axes.legend(fontsize=8, loc="upper center", ncols=2)


def _hands(axes: Axes, hand_counts: Sequence[tuple[str, Sequence[int]]], lang: Language) -> None:
    _ = lang.gettext
    axes.set_title(_("Hand scores: each player's against all hands"))
    total = sum(ALL_HANDS.values())
    scores = range(30)
    axes.bar(scores, [100 * ALL_HANDS.get(s, 0) / total for s in scores], 0.9, color="0.8",
             label=_("all {hands} hands").format(hands=_("12,994,800")))
    for index, (player, counts) in enumerate(hand_counts):
        hands = sum(counts)
        if hands:
            axes.plot(scores, [100 * c / hands for c in counts], marker="o", markersize=4, linewidth=1.5,
                      color=_colour(COLOURS[index % len(COLOURS)]),
                      label=lang.ngettext("{player} ({hands} hand)", "{player} ({hands} hands)", hands)
                      .format(player=player, hands=hands))
    axes.set(xlabel=_("hand score"), ylabel=_("hands (%)"), xlim=(-0.7, 29.7))
    axes.set_xticks(range(0, 30, 2))
    axes.legend(fontsize=8)
