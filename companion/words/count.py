"""The spoken count in a language: a `Phrasebook` words each phrase of a score (`scoring.Phrase`) from small
named parts, so that a translation replaces them one by one. `book(lang)` is the count in `lang`: English as
players say it (`ENGLISH`), every other language its catalog's translation of the same templates."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from companion.cribbage.scoring import (
    DOUBLE_DOUBLE_RUN,
    DOUBLE_PAIR_ROYAL,
    DOUBLE_RUN,
    DOUBLE_RUN_OF_FOUR,
    FIFTEEN,
    FIRST_DEAL_BONUS,
    FLUSH,
    GO,
    HIS_HEELS,
    LAST_CARD,
    MANUAL,
    MUGGINS,
    NOBS,
    PAIR,
    PAIR_ROYAL,
    RUN,
    THIRTY_ONE,
    TRIPLE_RUN,
    Phrase,
)
from companion.i18n import ENGLISH as ENGLISH_LANGUAGE
from companion.i18n import Language, number_words


@dataclass(frozen=True, slots=True, eq=False)  # one book a language: known by itself (a cache key)
class Phrasebook:
    """The words of a count in one language, each part named so that a translation replaces it alone.

    `templates` holds a phrase for each kind, with {size} (the cards in it, in words), {points} and {running}
    (the count so far, in words); `named` is the phrase for kinds it lacks, `names` the plain name of a kind
    (for itemised lines: {size} only). The last of several phrases goes into `last` ('and ...').
    """

    number: Callable[[int], str]
    templates: Mapping[str, str]
    names: Mapping[str, str]
    named: str
    last: str
    joiner: str
    nothing: str

    def phrase(self, phrase: Phrase) -> str:
        template = self.templates.get(phrase.kind, self.named)
        return template.format(kind=phrase.kind, size=self.number(phrase.size), points=self.number(phrase.points),
                               running=self.number(phrase.running))

    def said(self, phrases: Sequence[Phrase]) -> tuple[str, ...]:
        words = [self.phrase(p) for p in phrases]
        if len(words) > 1 and phrases[-1].kind != FIFTEEN:  # fifteens are counted on: "fifteen two, fifteen four"
            words[-1] = self.last.format(phrase=words[-1])
        return tuple(words) or (self.nothing,)

    def say(self, phrases: Sequence[Phrase]) -> str:
        return self.joiner.join(self.said(phrases))

    def name(self, kind: str, size: int) -> str:
        return self.names.get(kind, kind).format(size=self.number(size))


ENGLISH = Phrasebook(
    number=number_words,
    templates={
        FIFTEEN: "fifteen {running}",
        THIRTY_ONE: "thirty-one for {running}",
        PAIR: "a pair is {running}",
        PAIR_ROYAL: "a pair royal is {running}",
        DOUBLE_PAIR_ROYAL: "a double pair royal is {running}",
        RUN: "a run of {size} is {running}",
        DOUBLE_RUN: "a double run is {running}",
        DOUBLE_RUN_OF_FOUR: "a double run of four is {running}",
        TRIPLE_RUN: "a triple run is {running}",
        DOUBLE_DOUBLE_RUN: "a double double run is {running}",
        FLUSH: "a {size}-card flush is {running}",
        NOBS: "his nobs is {running}",
        HIS_HEELS: "{points} for his heels",
        GO: "{points} for the go",
        LAST_CARD: "{points} for last",
        MUGGINS: "{points} by muggins",
        MANUAL: "{points} pegged",
        FIRST_DEAL_BONUS: "{points} for last",
    },
    names={
        FIFTEEN: "fifteen", PAIR: "a pair", PAIR_ROYAL: "a pair royal", DOUBLE_PAIR_ROYAL: "a double pair royal",
        RUN: "a run of {size}", FLUSH: "a {size}-card flush", NOBS: "his nobs",
    },
    named="{kind} is {running}",
    last="and {phrase}",
    joiner=", ",
    nothing="nineteen: nothing to count",  # a hand of nothing is "nineteen" at the table
)
"""The count as English players say it."""


@functools.cache
def book(lang: Language) -> Phrasebook:
    """The spoken count in `lang`: each of the English templates as its catalog translates it."""
    if lang is ENGLISH_LANGUAGE:
        return ENGLISH
    _ = lang.gettext
    return Phrasebook(
        number=lang.number,
        templates={kind: _(template) for kind, template in ENGLISH.templates.items()},
        names={kind: _(name) for kind, name in ENGLISH.names.items()},
        named=_(ENGLISH.named), last=_(ENGLISH.last), joiner=ENGLISH.joiner, nothing=_(ENGLISH.nothing),
    )


def engine_messages() -> list[str]:
    """The count's words that the catalog translates: the phrasebook's templates and names."""
    words = [*ENGLISH.templates.values(), *ENGLISH.names.values(), ENGLISH.named, ENGLISH.last, ENGLISH.nothing]
    return list(dict.fromkeys(words))
