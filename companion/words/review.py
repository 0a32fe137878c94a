"""A lay-away and the coach's review of a discard in a player's words, in the language handed: on the OLED after
the play (coaching), beside the table of a game against the computer, and in `crib advise`.

    review_words(review_discard(state, "Ann"), language("de"))   # "Das ist nicht der beste Abwurf: ..."
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.cribbage.cards import RANK_NAMES, Card
from companion.i18n import Language

if TYPE_CHECKING:  # annotations only: the advice stands above the words
    from collections.abc import Sequence

    from companion.advice.coach import DiscardReview
    from companion.advice.discard import Analysis, Split


def ranks_text(cards: Sequence[Card]) -> str:
    """Cards as players name a hand, by rank: 5-5-6-J (the same in every language)."""
    return "-".join(RANK_NAMES[c.rank] for c in sorted(cards))



def analysis_words(analysis: Analysis, split: Split | None, lang: Language) -> str:
    """A lay-away in a player's words (the best when `split` is None): "Keep 5-5-6-J: it averages 9.4 in hand
    (6 to 16); 4-Q in your crib adds 4.1; net +13.5.", and how far it is from the best."""
    _ = lang.gettext
    best = analysis.best
    split = split or best
    said = (_("Keep {keep}: it averages {hand} in hand ({hand_min} to {hand_max}); {discard} in your crib adds {crib}")
            if analysis.dealer else
            _("Keep {keep}: it averages {hand} in hand ({hand_min} to {hand_max}); {discard} in your opponent's crib "
              "gives away {crib}"))
    text = said.format(keep=ranks_text(split.keep), hand=lang.decimal(split.hand), hand_min=split.hand_min,
                       hand_max=split.hand_max, discard=ranks_text(split.discard), crib=lang.decimal(split.crib))
    text += _("; net {net}.").format(net=lang.decimal(split.net, sign=True))
    if split is not best:
        text += _(" Best is {keep}, net {net} ({more} more).").format(
            keep=ranks_text(best.keep), net=lang.decimal(best.net, sign=True), more=lang.decimal(best.net - split.net))
    return text


def review_words(review: DiscardReview, lang: Language) -> str:
    """How far a player's discard was from the best: "Best discard: Keep ...", or "That is not the optimal
    discard: your discard averages 7.2 points; keeping 4-5-5-6 and laying away J-Q averages 8.4 (1.2 more)."."""
    if review.optimal:
        return lang.gettext("Best discard: {advice}").format(advice=analysis_words(review.analysis, review.chosen,
                                                                                   lang))
    best = review.best
    return lang.gettext("That is not the optimal discard: your discard averages {net} points; keeping {keep} and "
                        "laying away {discard} averages {best} ({loss} more).").format(
        net=lang.decimal(review.chosen.net), keep=ranks_text(best.keep), discard=ranks_text(best.discard),
        best=lang.decimal(best.net), loss=lang.decimal(review.loss))
