"""Words for people, made from the engine's typed facts in the chosen language (the catalogs translate each
message): a side's name, a score's name, the prompt. The only place that turns a fact into a sentence; no
code reads one back."""

from __future__ import annotations

from collections.abc import Sequence

from .facts import Prompt, ScoreEvent, ScoreKind, Side, Wanted
from .words import N_, _, ngettext

# The names of scores other than a player's hand or crib, as the table says them.
KIND_WORDS = {ScoreKind.PEGGING: N_("pegging"), ScoreKind.GO: N_("go"), ScoreKind.LAST_CARD: N_("last card"),
              ScoreKind.HEELS: N_("his heels"), ScoreKind.MUGGINS: N_("muggins"), ScoreKind.PEGGED: N_("pegged"),
              ScoreKind.THREE_FOR_LAST: N_("three for last")}


def side_name(side: Side) -> str:
    """Partners as the table names them: "Ann & Cat"; a player alone by name."""
    return " & ".join(side.players)


def listed(words: Sequence[str]) -> str:
    """"Ann, Bob and Cat"."""
    if len(words) == 1:
        return words[0]
    return _("{some} and {last}").format(some=", ".join(words[:-1]), last=words[-1])


def score_name(kind: ScoreKind, player: str | None) -> str:
    """A score's name: "Bob's hand", "Ann's crib", "his heels", "go", "pegging"."""
    if kind is ScoreKind.HAND:
        return _("{player}'s hand").format(player=player)
    if kind is ScoreKind.CRIB:
        return _("{player}'s crib").format(player=player)
    return _(KIND_WORDS[kind])


def event_name(event: ScoreEvent) -> str:
    return score_name(event.kind, event.player)


def event_words(event: ScoreEvent) -> str:
    """The score as the table hears it: the count in a player's cadence, then the note."""
    said = event.score.say() if event.score and event.kind is not ScoreKind.MUGGINS else ""
    return "; ".join(part for part in (said, *event.notes) if part)


def prompt_words(prompt: Prompt) -> str:
    """What the table must do next, in words."""
    wanted, who = prompt.wanted, prompt.players
    if wanted is Wanted.GAME:
        return _("Start a new game")
    if wanted is Wanted.CUT:
        again = _("Equal cards: cut again. ") if prompt.again else ""
        return _("{again}Cut for deal: {waiting} to cut").format(again=again, waiting=listed(who))
    if wanted is Wanted.STARTER:
        return _("{dealer} deals. Scan the starter").format(dealer=prompt.dealer)
    if wanted is Wanted.HAND:
        return _("Scan {hand_for}'s six cards (ok: skip)").format(hand_for=who[0])
    if wanted is Wanted.PLAY:
        return _("{turn} to play, count {count}").format(turn=who[0], count=prompt.count)
    if wanted is Wanted.GO:
        return _("{turn} says go? count {count}").format(turn=who[0], count=prompt.count)
    if wanted is Wanted.CRIB:
        return _("Scan the crib ({dealer}'s)").format(dealer=prompt.dealer)
    if wanted is Wanted.CLAIM:
        assert prompt.counting is not None
        return (_("{player}: claim the points of {label}")
                .format(player=who[0], label=score_name(prompt.counting, who[0])))
    assert prompt.winner is not None
    winner, partners = side_name(prompt.winner), len(prompt.winner.players)
    others = listed([str(o) for o in prompt.others])
    if wanted is Wanted.NEW_GAME:
        game = (ngettext("{winner} wins {target} to {others}", "{winner} win {target} to {others}", partners)
                .format(winner=winner, target=prompt.won, others=others))
        if prompt.skunk:
            skunk = _("{won}: a double skunk") if prompt.skunk == "double skunk" else _("{won}: a skunk")
            game = skunk.format(won=game)
        return game
    return ngettext("{winner} wins the match {won} to {others}", "{winner} win the match {won} to {others}",
                    partners).format(winner=winner, won=prompt.won, others=others)


def score_parts(event: ScoreEvent) -> tuple[str | None, list[str], list[str]]:
    """What is said for a score: a heading with the points pegged ("Bob's hand: 12"; in the play only when they
    are not the count's, "Ann: pegging 0"), the count phrase by phrase (in the play without a heading, the first
    after whose points they are: "Bob: fifteen two"), and each part of its note (a claim off the count, muggins
    taken, the game won at the cap)."""
    counted = list(event.score.said()) if event.kind is not ScoreKind.MUGGINS else []
    notes = list(event.notes)
    if event.kind.in_show:
        return f"{event_name(event)}: {event.points}", counted, notes
    if event.points != event.score.total:
        return f"{side_name(event.side)}: {event_name(event)} {event.points}", counted, notes
    if counted:
        counted[0] = f"{side_name(event.side)}: {counted[0]}"
    return None, counted, notes
