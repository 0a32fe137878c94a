"""`crib hint`: which card to play next in the play (pegging), and why."""

from __future__ import annotations

import argparse
import json
from typing import Any

from companion.advice.pegging import PlayView, hint
from companion.advice.players import Seat, explain_lay_away
from companion.commands import CommandError
from companion.cribbage.cards import DECK, Card, parse_cards
from companion.cribbage.game import MAX_COUNT
from companion.i18n import _, current
from companion.words.advice import hint_words, lay_away_words


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "hint", help=_("which card to play in the play (pegging), or which two to lay away"),
        description=_("Given your cards still in hand, the cards played since the count was last reset and the "
        "cards you have seen, say which card to play and why: it plays out the rest of the play for every card "
        "against hands your opponent could hold. Given the six cards dealt, say which two the pro lays away. "
        "When the pro's choice differs from the expected-value player's, it says why."),
    )
    parser.add_argument("cards", nargs="+", metavar="CARD",
                        help=_("your cards still in hand (up to four), or the six cards dealt (to lay away)"))
    parser.add_argument("--pile", nargs="*", default=[], metavar="CARD",
                        help=_("cards played since the count was last reset, in order"))
    parser.add_argument("--seen", nargs="*", default=[], metavar="CARD",
                        help=_("other cards you have seen: the starter, your discard, earlier plays"))
    parser.add_argument("--opponent-cards", type=int, default=4, metavar="N",
                        help=_("cards your opponent still holds (default 4)"))
    parser.add_argument("--opponent-go", action="store_true", help=_("your opponent has said go at this count"))
    parser.add_argument("--need", type=int, default=999, help=_("points you still need to win"))
    parser.add_argument("--opponent-need", type=int, default=999, help=_("points your opponent still needs"))
    parser.add_argument("--dealer", action="store_true", help=_("you dealt (your opponent counts first)"))
    parser.add_argument("--starter", metavar="CARD", help=_("the starter (with --played, your hand is counted "
                        "exactly when playing to the score)"))
    parser.add_argument("--played", nargs="*", default=[], metavar="CARD",
                        help=_("your cards already played in this deal"))
    parser.add_argument("--target", type=int, default=121, choices=(61, 121), help=_("game to 121 or 61"))
    parser.add_argument("--json", action="store_true", help=_("print the hint and every card's value as JSON"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    hand, pile, seen = parse_cards(args.cards), parse_cards(args.pile), parse_cards(args.seen)
    if len(hand) > 4:
        return _lay_away(args, hand)
    played = parse_cards(args.played)
    starter = parse_cards([args.starter])[0] if args.starter else None
    everything = [*hand, *pile, *seen, *played, *([starter] if starter else [])]
    if len(set(everything)) != len(everything):
        raise CommandError(_("a card is named twice: check your hand, --pile, --seen, --played and --starter"))
    if not 0 <= args.opponent_cards <= 4:
        raise CommandError(_("--opponent-cards is 0 to 4"))
    if not 1 <= args.need <= 999 or not 1 <= args.opponent_need <= 999:
        raise CommandError(_("--need and --opponent-need are the points still needed: 1 or more"))
    if sum(c.value for c in pile) > MAX_COUNT:
        raise CommandError(_("the pile counts more than 31: give only the cards since the count was reset"))
    unseen = tuple(c for c in DECK if c not in everything)
    view = PlayView(hand, pile, unseen, args.opponent_cards, args.opponent_go, min(args.need, args.target),
                    min(args.opponent_need, args.target), args.dealer, starter, (*hand, *played),
                    target=args.target)
    advice = hint(view)
    said = hint_words(advice, current())
    if args.json:
        print(json.dumps({"card": str(advice.card), "points": advice.points, "said": said,
                          "reasons": [r.to_json() for r in advice.reasons],
                          "ev_card": str(advice.ev_card) if advice.ev_card else None,
                          "against": [r.to_json() for r in advice.against],
                          "values": {str(c): round(v, 3) for c, v in advice.values.items()},
                          "racing": advice.racing}, ensure_ascii=False))
    else:
        print(said)
    return 0


def _lay_away(args: argparse.Namespace, cards: tuple[Card, ...]) -> int:
    if len(cards) != 6:
        raise CommandError(_("to lay away give the six cards dealt (for other deals use `crib advise --variant`); "
                             "in the play give the cards still in hand, up to four"))
    if len(set(cards)) != len(cards):
        raise CommandError(_("a card is named twice: check your hand"))
    if args.pile or args.played or args.starter:
        raise CommandError(_("--pile, --played and --starter belong to the play: give them with the cards still "
                             "in hand"))
    if not 1 <= args.need <= 999 or not 1 <= args.opponent_need <= 999:
        raise CommandError(_("--need and --opponent-need are the points still needed: 1 or more"))
    seat = Seat(args.dealer, max(0, args.target - args.need), max(0, args.target - args.opponent_need), args.target)
    explained = explain_lay_away(cards, seat)
    chosen, said = explained.chosen, lay_away_words(explained, current())
    if args.json:
        print(json.dumps({"discard": [str(c) for c in chosen.split.discard],
                          "keep": [str(c) for c in chosen.split.keep],
                          "ev_discard": [str(c) for c in explained.exact.best.discard],
                          "said": said}, ensure_ascii=False))
    else:
        print(said)
    return 0
