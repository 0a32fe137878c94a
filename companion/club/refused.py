"""What the club does not take: a `Refused` names why (a code of words/club.py's `Why`) and its facts, never
words; the edge that shows it (the scoreboard's API, `crib club`) says it in its reader's language."""

from __future__ import annotations

from companion.words.club import Why


class Refused(ValueError):
    """A card, a decision, a round or a name the club does not take: `why` says why (its code), `facts` what its
    words need (words/club.py says them at the edge)."""

    def __init__(self, why: Why, **facts: object) -> None:
        super().__init__(why.value, facts)
        self.why, self.facts = why, facts
