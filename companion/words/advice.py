"""The advice's reasons as values, and their words: the card to play and the pro's lay-away (a lay-away on its own
and the discard review are said by `review`).

The advice (`companion.advice`) says why in typed facts: a `Reason` is a kind (`Because`) with the facts its
words need (cards, a count, points, a share of games won), like the table's `Message`. The words are made here,
at the edge, in the language handed (`lang`), so one process can give the same hint in English and in German:

    from companion.words.advice import hint_words
    hint_words(hint(view), language("de"))     # "Die beste Karte ist die Neun (9): sie bringt jetzt 3; ..."

Cards the advice cannot work with are refused the same way: an `AdviceError` carries an `AdviceRefusal` (a kind,
`Unadvised`, and its facts), said by `refusal_words`; so does an `AdviceDataError`, for a data file of the advice
(an opponent model, a table of keeps, an endgame table) that cannot be used. The advice's types are named for the
type checker only (the advice stands above the words).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import TYPE_CHECKING

from companion.cribbage.cards import RANK_NAMES, Card
from companion.cribbage.errors import InputError, RuleError
from companion.cribbage.refusals import coded
from companion.i18n import N_, Language

from .review import analysis_words, ranks_text

if TYPE_CHECKING:  # annotations only: the advice stands above the words

    from companion.advice.pegging import Hint
    from companion.advice.players import Explained


class Because(StrEnum):
    """Why the advice says what it says (the value is its code). The fields each one fills are listed."""

    # the card to play (advice.pegging.hint): "card" is the card named, "count" the count after the card played
    WINS_NOW = "wins_now"  # count, points: it pegs, need: the points the player needs
    ALSO_WINS = "also_wins"  # card: another card that pegs out at once
    LEAVES_GAME = "leaves_game"  # card: another card, points: it pegs (0: nothing), share: it wins the game
    PEGS = "pegs"  # count, points
    LOW_LEAD = "low_lead"  # a lead under five
    LEAVES_COUNT = "leaves_count"  # count
    AS_WELL = "as_well"  # card: another card worth as much
    WINS = "wins"  # share: the card wins the game
    RISK = "risk"  # card: kept back, count: the count now (0: a lead), share: what he pegs on it, on average
    OUTPEGS = "outpegs"  # card: kept back, played: the card played, count: now, points, other: the kept one's
    KEEPS = "keeps"  # card: kept back
    WINS_OVER = "wins_over"  # share: the card wins the game, card: the next best, other_share: it wins
    WORTH_MORE = "worth_more"  # share: points more over the rest of the play, card: the next best
    THEY_NEED = "they_need"  # need: the opponent's, dealer: the player dealt (the opponent counts first)
    # why the expected-value rules play another card (advice.pegging), and what the search finds of it
    EV_PEGS = "ev_pegs"  # points: it pegs now
    EV_NO_PAIR = "ev_no_pair"  # it does not pair a lead
    EV_OFF_COUNT = "ev_off_count"  # count: the count the advised card leaves, 5 or 21
    EV_LOWEST_LEAD = "ev_lowest_lead"
    EV_LOWEST_CARD = "ev_lowest_card"
    EV_WINS = "ev_wins"  # share: the ev card wins the game, other_share: the advised one
    EV_WORTH_LESS = "ev_worth_less"  # share: points less over the rest of the play
    # why the pro lays away other cards than the expected-value count (advice.players)
    NEAR_END = "near_end"  # share: the pro's keep wins the game, cards: the ev keep, other_share: it wins
    CRIB_FOR = "crib_for"  # dealer, cards: the pro's discard, others: the ev discard, share/other_share: the crib
    # each makes with the cards the opponent likely lays away, exact/other_exact: by the exact count
    CRIB_AGAINST = "crib_against"  # dealer, cards, others: as CRIB_FOR, share: how much less (dealer) or more
    # the pro's discard makes the crib, exact: by the exact count
    PLAY_PEGS = "play_pegs"  # cards: the pro's keep, others: the ev keep, share: points more in the play


@dataclass(frozen=True, slots=True)
class Reason:
    """A reason of the advice: what it says (`kind`) and the facts its words need (which fields, `Because` says)."""

    kind: Because
    card: Card | None = None
    played: Card | None = None
    cards: tuple[Card, ...] = ()  # a hand or a discard, named by its ranks
    others: tuple[Card, ...] = ()
    count: int | None = None
    points: int | None = None
    other: int | None = None  # points another card pegs
    need: int | None = None
    share: float | None = None  # a chance (0..1) or points on average
    other_share: float | None = None
    exact: float | None = None
    other_exact: float | None = None
    dealer: bool = False

    def facts(self) -> dict[str, object]:
        """The facts given (a count or points of 0 among them; a fact left out is None, empty or False)."""
        return {f.name: value for f in fields(self)[1:]
                if (value := getattr(self, f.name)) is not None and value is not False and value != ()}

    def __repr__(self) -> str:
        return f"Reason(Because.{self.kind.name}{''.join(f', {k}={v!r}' for k, v in self.facts().items())})"

    def to_json(self) -> dict[str, object]:
        """The code and its facts, for clients (cards as codes, shares to 4 places): `{"kind": "pegs", "count": 15,
        "points": 2}`."""
        out: dict[str, object] = {"kind": self.kind.value}
        for name, value in self.facts().items():
            out[name] = ([str(c) for c in value] if isinstance(value, tuple) else
                         str(value) if isinstance(value, Card) else
                         round(value, 4) if isinstance(value, float) else value)
        return out


# Each rank as the hint names a card, with its article where the language needs one ("the nine", "der Bube").
THE_RANK = ("", N_("the ace"), N_("the two"), N_("the three"), N_("the four"), N_("the five"), N_("the six"),
            N_("the seven"), N_("the eight"), N_("the nine"), N_("the ten"), N_("the jack"), N_("the queen"),
            N_("the king"))


def the_card(card: Card | None, lang: Language) -> str:
    """A card as the hint names it: "the nine"."""
    assert card is not None
    return lang.gettext(THE_RANK[card.rank])


def percent(share: float | None, lang: Language) -> str:
    """A share in whole percent as the language writes it: 62%, in German 62 %."""
    assert share is not None
    return lang.gettext("{percent}%").format(percent=round(100 * share))


def _decimal(value: float | None, lang: Language, places: int = 1) -> str:
    assert value is not None
    return lang.decimal(value, places)


# --- the card to play ------------------------------------------------------------------------------------------

def hint_words(hint: Hint, lang: Language) -> str:
    """The card to play and why: "Play the nine (9): it pegs 3 now; ...", and when the expected-value rules play
    another card, why not that one."""
    said = lang.gettext("Play {card} ({rank}): {reasons}.").format(
        card=the_card(hint.card, lang), rank=RANK_NAMES[hint.card.rank],
        reasons="; ".join(reason_words(reason, lang) for reason in hint.reasons))
    if hint.ev_card is None or not hint.against:
        return said
    rule, found = hint.against
    return said + " " + lang.gettext("The expected-value rules would play {card} ({rank}), {rule}: {found}.").format(
        card=the_card(hint.ev_card, lang), rank=RANK_NAMES[hint.ev_card.rank], rule=reason_words(rule, lang),
        found=reason_words(found, lang))


def _pegs_now(r: Reason, lang: Language) -> str:
    """"it makes fifteen and pegs 2 now", or "it pegs 2 now"."""
    if r.count in (15, 31):
        return lang.gettext("it makes {count} and pegs {points} now").format(count=lang.number(r.count),
                                                                             points=r.points)
    return lang.gettext("it pegs {points} now").format(points=r.points)


def _keeps_back(r: Reason, lang: Language) -> str:
    _ = lang.gettext
    words = {"held": the_card(r.card, lang), "count": r.count}
    if r.kind is Because.RISK:
        return (_("it keeps {held} back: the count is {count}, and on {held} your opponent would peg {risk} on "
                  "average") if r.count else
                _("it keeps {held} back: on {held} led your opponent would peg {risk} on average")
                ).format(**words, risk=_decimal(r.share, lang))
    if r.kind is Because.OUTPEGS:
        return (_("it keeps {held} back: the count is {count}, {played} pegs {points} on it and {held} {instead}")
                if r.other else
                _("it keeps {held} back: the count is {count}, {played} pegs {points} on it and {held} nothing")
                ).format(**words, played=the_card(r.played, lang), points=r.points, instead=r.other)
    return _("it keeps {held} back").format(**words)


def _crib(r: Reason, lang: Language) -> str:
    _ = lang.gettext
    cribs = {"mine": ranks_text(r.cards), "rival": ranks_text(r.others)}
    if r.kind is Because.CRIB_FOR:  # the crib speaks for the pro's choice
        said = (_("the crib is yours: with the cards he likely lays away, {mine} makes it {crib} and {rival} "
                  "{other} (by the exact count {exact} and {exact_other})") if r.dealer else
                _("the crib is your opponent's: with the cards he likely lays away, {mine} makes it {crib} and "
                  "{rival} {other} (by the exact count {exact} and {exact_other})"))
        return said.format(**cribs, crib=_decimal(r.share, lang), other=_decimal(r.other_share, lang),
                           exact=_decimal(r.exact, lang), exact_other=_decimal(r.other_exact, lang))
    said = (_("the crib is yours: with the cards he likely lays away, {mine} makes it only {less} less than {rival} "
              "({exact} by the exact count)") if r.dealer else
            _("the crib is your opponent's: with the cards he likely lays away, {mine} makes it only {less} more "
              "than {rival} ({exact} by the exact count)"))
    return said.format(**cribs, less=_decimal(r.share, lang), exact=_decimal(r.exact, lang))


def reason_words(r: Reason, lang: Language) -> str:
    """One reason in words, as the hint joins them: "it pegs 2 now", "the ten does as well"."""
    _ = lang.gettext
    kind = r.kind
    if kind is Because.WINS_NOW:
        return _("{pegs}: you need {need}, so it wins the game at once").format(pegs=_pegs_now(r, lang), need=r.need)
    if kind is Because.ALSO_WINS:
        return _("{card} would win at once too").format(card=the_card(r.card, lang))
    if kind is Because.LEAVES_GAME:
        return (_("{card} pegs {points} and leaves the game to the rest of the play (it wins {percent} of the time)")
                if r.points else
                _("{card} pegs nothing and leaves the game to the rest of the play (it wins {percent} of the time)")
                ).format(card=the_card(r.card, lang), points=r.points, percent=percent(r.share, lang))
    if kind is Because.PEGS:
        return _pegs_now(r, lang)
    if kind is Because.LOW_LEAD:
        return _("a low lead: no card makes fifteen on it")
    if kind is Because.LEAVES_COUNT:
        return _("it leaves the count at {count}").format(count=r.count)
    if kind is Because.AS_WELL:
        return _("{card} does as well").format(card=the_card(r.card, lang))
    if kind is Because.WINS:
        return _("it wins the game {percent} of the time").format(percent=percent(r.share, lang))
    if kind in (Because.RISK, Because.OUTPEGS, Because.KEEPS):
        return _keeps_back(r, lang)
    if kind is Because.WINS_OVER:
        return _("it wins the game {percent} of the time, {card} {other}").format(
            percent=percent(r.share, lang), card=the_card(r.card, lang), other=percent(r.other_share, lang))
    if kind is Because.WORTH_MORE:
        return _("over the rest of the play it is worth {margin} more than {card}").format(
            margin=_decimal(r.share, lang), card=the_card(r.card, lang))
    if kind is Because.THEY_NEED:
        return (_("your opponent needs {need} and counts first: the play decides what he can still peg")
                if r.dealer else
                _("your opponent needs {need} and you count first: the play decides what he can still peg")
                ).format(need=r.need)
    if kind is Because.EV_PEGS:
        return _("it pegs {points} now").format(points=r.points)
    if kind is Because.EV_NO_PAIR:
        return _("it does not pair the lead, which he may answer with a third")
    if kind is Because.EV_OFF_COUNT:
        return _("it keeps the count off {count}").format(count=r.count)
    if kind is Because.EV_LOWEST_LEAD:
        return _("the lowest lead")
    if kind is Because.EV_LOWEST_CARD:
        return _("the lowest card")
    if kind is Because.EV_WINS:
        return _("it wins the game {percent} of the time against {other}").format(
            percent=percent(r.share, lang), other=percent(r.other_share, lang))
    if kind is Because.EV_WORTH_LESS:
        return _("over the rest of the play it is worth {less} less").format(less=_decimal(r.share, lang))
    if kind is Because.NEAR_END:
        return _("near the end it wins the game {percent} of the time, {keep} {other}").format(
            percent=percent(r.share, lang), keep=ranks_text(r.cards), other=percent(r.other_share, lang))
    if kind in (Because.CRIB_FOR, Because.CRIB_AGAINST):
        return _crib(r, lang)
    assert kind is Because.PLAY_PEGS
    return _("in the play {keep} pegs {more} more than {other} against the hands he likely kept").format(
        keep=ranks_text(r.cards), more=_decimal(r.share, lang), other=ranks_text(r.others))


# --- laying away ---------------------------------------------------------------------------------------------

def lay_away_words(explained: Explained, lang: Language) -> str:
    """The pro's lay-away from six cards and, when the expected-value count lays away others, why: "Lay away
    2-2 and keep 5-7-9-10. The pro keeps 5-7-9-10 over 2-2-7-9, the expected-value choice (0.50 more in hand and
    crib by the exact count): ..."."""
    _ = lang.gettext
    mine, rival = explained.chosen.split, explained.exact.best
    if explained.agree:
        return " ".join((analysis_words(explained.exact, None, lang),
                         _("The pro and the expected-value count agree.")))
    return _("Lay away {discard} and keep {keep}. The pro keeps {keep} over {other}, the expected-value choice ({less} "
             "more in hand and crib by the exact count): {reasons}.").format(
        discard=ranks_text(mine.discard), keep=ranks_text(mine.keep), other=ranks_text(rival.keep),
        less=lang.decimal(explained.given_up, 2),
        reasons="; ".join(reason_words(r, lang) for r in explained.reasons) or _("the two are close"))


# --- cards the advice cannot work with -------------------------------------------------------------------------

class Unadvised(StrEnum):
    """Why the advice refuses the cards given (the value is its code). The fields each one fills are listed."""

    NO_VARIANT = "no_variant"  # text: the variant given, names: the variants there are
    DEAL_SIZE = "deal_size"  # text: the variant, count: the cards it deals, total: the cards given
    FIVE_CARDS = "five_cards"  # five cards given without the variant
    DEAL = "deal"  # total: the cards given, neither six nor five
    CARD_TWICE = "card_twice"  # a card given twice in the hand
    NOT_A_DISCARD = "not_a_discard"  # cards: the discard given, others: the cards dealt
    SAY_GO = "say_go"  # in the play no card of the hand fits under 31
    # a data file of the advice
    UNREADABLE = "unreadable"  # data: which, text: its path, error: the system's words
    NOT_JSON = "not_json"  # data, error: the JSON reader's words
    NOT_IN_FORM = "not_in_form"  # data, error: what is missing or wrong


class Data(StrEnum):
    """A data file of the advice, shipped or built by a command."""

    MODEL = "model"  # the opponent model (`crib model`)
    KEEPS = "keeps"  # the table of keeps (`crib model --keeps`)
    ENDGAME = "endgame"  # the endgame table (`crib selfplay --endgame`)


@dataclass(frozen=True, slots=True)
class AdviceRefusal:
    why: Unadvised
    text: str = ""  # as given (a variant's name, a file's path)
    names: tuple[str, ...] = ()
    count: int | None = None
    total: int | None = None
    cards: tuple[Card, ...] = ()
    others: tuple[Card, ...] = ()
    data: Data | None = None
    error: str = ""  # the system's or a reader's words, as they were

    def __str__(self) -> str:
        return coded(self)


class AdviceError(RuleError):
    """Cards the advice cannot work with: `refusal` says why (`refusal_words` says it); `str(err)` is its code
    and facts, for logs."""

    refusal: AdviceRefusal

    def __init__(self, refusal: AdviceRefusal) -> None:
        super().__init__(refusal)


class AdviceDataError(InputError):
    """A data file of the advice that cannot be used: `refusal` says which and why (`refusal_words` says it)."""

    refusal: AdviceRefusal

    def __init__(self, refusal: AdviceRefusal) -> None:
        super().__init__(refusal)


DATA_WORDS = {Data.MODEL: N_("the opponent model"), Data.KEEPS: N_("the table of keeps"),
              Data.ENDGAME: N_("the endgame table")}
BUILT_BY = {Data.MODEL: "crib model", Data.KEEPS: "crib model --keeps", Data.ENDGAME: "crib selfplay --endgame"}


def refusal_words(refusal: AdviceRefusal, lang: Language) -> str:
    """Why the advice refuses the cards (or a data file), and what to give instead."""
    _ = lang.gettext
    why = refusal.why
    if refusal.data is not None:
        what, command = _(DATA_WORDS[refusal.data]), BUILT_BY[refusal.data]
        if why is Unadvised.UNREADABLE:
            return _("cannot read {what} {path}: {error}").format(what=what, path=refusal.text, error=refusal.error)
        if why is Unadvised.NOT_JSON:
            return _("{what} is not JSON ({error}): build it again with `{command}`").format(
                what=what, error=refusal.error, command=command)
        return _("{what} is not in the form `{command}` writes ({error}): build it again").format(
            what=what, command=command, error=refusal.error)
    if why is Unadvised.NO_VARIANT:
        return _("no variant {variant!r}: say one of {variants}").format(variant=refusal.text,
                                                                         variants=", ".join(refusal.names))
    if why is Unadvised.DEAL_SIZE:
        return _("a {variant} deal gives {dealt} cards; got {cards}").format(variant=refusal.text, dealt=refusal.count,
                                                                            cards=refusal.total)
    if why is Unadvised.FIVE_CARDS:
        return _("five cards: say the variant, five-card (two to the crib) or three (one to the crib)")
    if why is Unadvised.DEAL:
        return _("a deal gives six cards (five in five-card or three-player games); got {cards}").format(
            cards=refusal.total)
    if why is Unadvised.CARD_TWICE:
        return _("the same card appears twice: check the hand")
    if why is Unadvised.NOT_A_DISCARD:
        return _("{discard} is not a discard from {cards}").format(discard=" ".join(map(str, refusal.cards)),
                                                                   cards=" ".join(map(str, refusal.others)))
    return _("no card fits under 31: say go")
