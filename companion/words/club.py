"""The club's words: why the night (or the scoreboard for it) refuses, what a card entered by hand did and what
the director decided, made from their codes and facts in the language handed, at the edge (the scoreboard's
API and pages, `crib club`).

The club refuses with a code (`Why`) and its facts (club/refused.py's `Refused`); a card's outcome is a status
and the cards; a decision is approved or not. A client decides from the code, never from these words:

    from companion.i18n import language
    refusal_words(refused.why, refused.facts, language("de"))
    entry_words(entry.status, entry.round, entry.card, entry.theirs, lang)
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from companion.i18n import N_, Language

from .joined import either


class Why(StrEnum):
    """Why the night or the scoreboard refuses (the value is the code a client reads); the facts each fills."""

    RULES = "rules"  # rule: the night's setting (best_of, scoring, ...), kept: the night's value, given: the other
    SELF = "self"  # player: who named themselves as the opponent
    SCORE = "score"  # score, against, target: a card's scores that are no finished game
    NO_ROUND = "no_round"  # round, rounds: the rounds drawn
    CLOSED = "closed"  # round
    NOT_IN_FIELD = "not_in_field"  # player, field: tonight's players
    NOT_SEATED = "not_seated"  # round, player, opponent, where ("unseated", "bye" or "played": other, table)
    ON_BOARD = "on_board"  # board, player, opponent, round
    NOT_WAITING = "not_waiting"  # item: the game's id asked about
    UNFOLLOWED = "unfollowed"  # item
    WHICH_CARD = "which_card"  # cards: the players whose cards differ
    DRAWN = "drawn"  # the playoffs are drawn already
    TOO_FEW = "too_few"  # fewer than two players in the standings
    # a round drawn, the night's rules, a name (`crib club round`, `pair`, `playoffs`, `credentials`)
    MOVE = "move"  # move: tables the moving side moves, most: the most it may
    ROUND_RANGE = "round_range"  # movement: "acc" (tables, move) or "round-robin", players, rounds: how many
    FEW_PLAYERS = "few_players"  # a round needs two players
    SAME_NAME = "same_name"  # two players of a round have one name
    NAME_LENGTH = "name_length"  # most: the characters a player's name may have
    FEW_BOARDS = "few_boards"  # games: of the round, boards: named
    BOARD_TWICE = "board_twice"  # a board named twice
    SCORING = "scoring"  # name: the scoring asked for, choices
    BEST_OF = "best_of"  # best_of: the games asked for
    BAD_ID = "bad_id"  # what: "club" or "board", value: the id given
    TAKEN_NAME = "taken_name"  # board: named as the scoreboard or Home Assistant sign in
    # the scoreboard's API
    NO_DIRECTOR = "no_director"  # a scoreboard started without the director's token
    TOKEN = "token"  # the director's token is wrong or missing
    BODY = "body"  # asked: "object" (the body is not one), "card" or "decision" (its fields are not)
    NO_PLAYER = "no_player"  # player: a scorecard asked for that nobody of the night has
    NO_BOARD = "no_board"  # board: a drawing asked for that is no builtin board, boards: the builtin ones
    OTHER_PAGE = "other_page"  # live updates asked for by another site's page


REFUSED: dict[str, str] = {  # a code (with not_seated's where, body's asked, round_range's movement) -> its words
    Why.RULES: N_("this night keeps {rule} {kept}, set when it began: {given} is not this night's (leave the option "
                  "out)"),
    Why.SELF: N_("a player cannot play themselves: name the opponent"),
    Why.SCORE: N_("a finished game is {target} to less: the scores {score} and {against} are not"),
    Why.NO_ROUND: N_("there is no round {round}: the rounds drawn are {rounds}"),
    Why.CLOSED: N_("round {round} is closed: the director takes no more cards for it"),
    Why.NOT_IN_FIELD: N_("{player} is not in tonight's field ({field})"),
    "not_seated/played": N_("{player} and {opponent} were not seated together in round {round}: {player} played "
                            "{other} at table {table}"),
    "not_seated/bye": N_("{player} and {opponent} were not seated together in round {round}: {player} had a bye"),
    "not_seated/unseated": N_("{player} and {opponent} were not seated together in round {round}: {player} was not "
                              "seated"),
    Why.ON_BOARD: N_("board {board} has reported the game of {player} and {opponent} in round {round}: it needs no "
                     "card"),
    Why.NOT_WAITING: N_("no game {item!r} waits for a decision"),
    Why.UNFOLLOWED: N_("a result that does not follow the rules cannot be approved: the board must replay the game"),
    Why.WHICH_CARD: N_("say whose card counts: {cards}"),
    Why.DRAWN: N_("the playoffs are drawn already"),
    Why.TOO_FEW: N_("the playoffs need at least two players in the standings"),
    Why.MOVE: N_("--move {move}: the moving side moves 1 to {most} tables a round"),
    "round_range/acc": N_("{players} players at {tables} tables moving {move} a round meet again after {rounds} "
                          "rounds: choose a round from 1 to {rounds}"),
    "round_range/round-robin": N_("{players} players play {rounds} rounds: choose a round from 1 to {rounds}"),
    Why.FEW_PLAYERS: N_("a round needs at least two players"),
    Why.SAME_NAME: N_("two players have the same name: give each a different name"),
    Why.NAME_LENGTH: N_("a player's name must be 1 to {most} characters"),
    Why.FEW_BOARDS: N_("{games} games need {games} boards, but {boards} are named: name more boards with --boards"),
    Why.BOARD_TWICE: N_("a board is named twice in --boards"),
    Why.SCORING: N_("scoring {name!r}: choose {choices}"),
    Why.BEST_OF: N_("best of {best_of}: a match is best of 1, 3, 5 or 7 games"),
    Why.BAD_ID: N_("{what} {value!r} is not a usable id: use 1 to 40 letters, digits, '-', '_' or '.', starting "
                   "with a letter or digit"),
    Why.TAKEN_NAME: N_("board {board!r}: that name is the scoreboard's or Home Assistant's; name the board otherwise "
                       "(like t1)"),
    Why.NO_DIRECTOR: N_("this scoreboard takes no cards or decisions: start it with --credentials (or "
                        "--director-token-file)"),
    Why.TOKEN: N_("the director's token is needed (director.token from `crib club credentials`)"),
    "body/object": N_("send a JSON object"),
    "body/card": N_("a card needs round, player, opponent (names), score and against (whole numbers)"),
    "body/decision": N_("a decision needs the game's id and approve: true or false"),
    Why.NO_PLAYER: N_("no player {player!r} tonight: ask for one of the standings' players"),
    Why.NO_BOARD: N_("no board {board!r}: the boards are {boards}"),
    Why.OTHER_PAGE: N_("this scoreboard's live updates are for its own page"),
}
IDS = {"club": N_("club"), "board": N_("board")}  # what an id names
RULES = {"scoring": N_("scoring"), "skunks_before_spread": N_("skunks before spread"), "movement": N_("movement"),
         "move": N_("move"), "best_of": N_("best of")}

ENTERED = {  # a card's status -> its words
    "first": N_("{player}'s card for round {round} is in; it counts when {opponent} enters the same game"),
    "counts": N_("round {round}: {player} {score}, {opponent} {against}, entered by both: it counts"),
    "late": N_("round {round}: {player} {score}, {opponent} {against}: entered after the playoffs were drawn, it "
               "waits for the director (it never moves the bracket)"),
    "disagreement": N_("{player} says {player} {score}, {opponent} {against}; {opponent} says {opponent} "
                       "{their_score}, {named} {their_against}: the cards differ, so the game does not count. It "
                       "waits for the director, or for both cards to agree"),
}


def _value(value: object, lang: Language) -> str:
    """A setting's value as the night says it: yes or no, else as it is."""
    if isinstance(value, bool):
        return lang.gettext("yes") if value else lang.gettext("no")
    return str(value)


def refusal_words(why: str, facts: Mapping[str, Any], lang: Language) -> str:
    """Why the night or the scoreboard refuses, in `lang`. KeyError for a code or a fact it does not know (a
    client's fallback: the words the scoreboard sent)."""
    _ = lang.gettext
    key = (f"{why}/{facts.get('where') or facts.get('asked') or facts.get('movement')}"
           if why in (Why.NOT_SEATED, Why.BODY, Why.ROUND_RANGE) else why)
    said: dict[str, Any] = dict(facts)
    if why == Why.RULES:
        rule = str(facts["rule"])
        said |= {"rule": _(RULES[rule]) if rule in RULES else rule.replace("_", " "),
                 "kept": _value(facts["kept"], lang), "given": _value(facts["given"], lang)}
    elif why == Why.NO_ROUND:
        said["rounds"] = ", ".join(map(str, facts["rounds"])) or _("none")
    elif why == Why.NO_BOARD:
        said["boards"] = ", ".join(facts["boards"])
    elif why == Why.NOT_IN_FIELD:
        said["field"] = ", ".join(facts["field"])
    elif why == Why.WHICH_CARD:
        said["cards"] = either(facts["cards"], lang)
    elif why == Why.SCORING:
        said["choices"] = either(facts["choices"], lang)
    elif why == Why.BAD_ID:
        said["what"] = _(IDS[facts["what"]]) if facts["what"] in IDS else facts["what"]
    return _(REFUSED[key]).format(**said)


def entry_words(status: str, number: int, card: Mapping[str, Any], theirs: Mapping[str, Any] | None,
                lang: Language) -> str:
    """What a card entered by hand did in round `number` (`card`: {"player", "opponent", "score", "against"};
    `theirs`: the opponent's card when they differ), in `lang`; KeyError for a status it does not know."""
    other = theirs or {}
    return lang.gettext(ENTERED[status]).format(
        round=number, player=card["player"], opponent=card["opponent"], score=card["score"],
        against=card["against"], their_score=other.get("score"), named=other.get("opponent"),
        their_against=other.get("against"))


def decision_words(approved: bool, item: str, card: str | None, lang: Language) -> str:
    """The director's decision on a waiting game, in `lang`."""
    if not approved:
        return lang.gettext("rejected: the game {item} does not count").format(item=item)
    if card is not None:
        return lang.gettext("approved: {player}'s card counts").format(player=card)
    return lang.gettext("approved: the game {item} counts").format(item=item)
