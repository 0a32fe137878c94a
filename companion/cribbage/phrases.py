"""Words for people, made from the engine's typed facts in the chosen language (the catalogs translate each
message): a side's name, a score's name, the prompt. The only place that turns a fact into a sentence; no
code reads one back."""

from __future__ import annotations

from collections.abc import Sequence

from . import transcript as t
from .facts import Place, Prompt, ScoreEvent, ScoreKind, Seen, Side, Wanted
from .words import N_, _, ngettext, spell

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
    if wanted is Wanted.DISCARD:
        return _("{player}: lay away to {dealer}'s crib").format(player=who[0], dealer=prompt.dealer)
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


def seated_words(prompt: Prompt, person: str) -> str:
    """The prompt for a person seated at a virtual table (a game against the computer): the person is "you",
    the others are named, and the deck deals, cuts and turns the starter (not a word of scanning)."""
    wanted, who = prompt.wanted, prompt.players
    mine = person in who
    yours = prompt.dealer == person
    if wanted is Wanted.CUT:
        return _("Cutting for deal")
    if wanted is Wanted.STARTER:
        return _("You deal") if yours else _("{dealer} deals").format(dealer=prompt.dealer)
    if wanted is Wanted.DISCARD:
        n = prompt.count or 0
        if yours:
            return ngettext("Lay away one card to your crib", "Lay away {n} cards to your crib", n).format(n=spell(n))
        return (ngettext("Lay away one card to {dealer}'s crib", "Lay away {n} cards to {dealer}'s crib", n)
                .format(n=spell(n), dealer=prompt.dealer))
    if wanted is Wanted.PLAY:
        if mine:
            return _("Your turn: the count is {count}").format(count=prompt.count)
        return _("{turn} to play: the count is {count}").format(turn=who[0], count=prompt.count)
    if wanted is Wanted.GO:
        if mine:
            return _("Your turn: no card fits under 31, say go (the count is {count})").format(count=prompt.count)
        return _("{turn} says go: the count is {count}").format(turn=who[0], count=prompt.count)
    if wanted is Wanted.CRIB:
        return _("Your crib") if yours else _("{dealer}'s crib").format(dealer=prompt.dealer)
    if wanted is Wanted.CLAIM and mine:
        assert prompt.counting is not None
        return (_("Count your crib and claim it") if prompt.counting is ScoreKind.CRIB
                else _("Count your hand and claim it"))
    if wanted in (Wanted.NEW_GAME, Wanted.NEW_MATCH) and prompt.winner is not None and person in prompt.winner:
        others = listed([str(o) for o in prompt.others])
        if wanted is Wanted.NEW_MATCH:
            return _("You win the match {won} to {others}").format(won=prompt.won, others=others)
        won = _("You win {won} to {others}").format(won=prompt.won, others=others)
        if prompt.skunk:
            skunk = _("{won}: a double skunk") if prompt.skunk == "double skunk" else _("{won}: a skunk")
            won = skunk.format(won=won)
        return won
    return prompt_words(prompt)


def cut_words(cutter: str, starter: str, person: str) -> str:
    """Who cut at a virtual table, and the starter it turned: "Pro cuts: the starter is 5♣"."""
    if cutter == person:
        return _("You cut: the starter is {card}").format(card=starter)
    return _("{player} cuts: the starter is {card}").format(player=cutter, card=starter)


def seen_words(seen: Seen) -> str:
    """Where a card already seen this deal is: "7♠ is in the crib", "7♠ was played by Ann", "7♠ is the starter"."""
    card, who = seen.card.pretty, seen.player
    if seen.place is Place.STARTER:
        return _("{card} is the starter").format(card=card)
    if seen.place is Place.PLAYED:
        return _("{card} was played by {who}").format(card=card, who=who)
    if seen.place is Place.CRIB:
        if who is None:
            return _("{card} is in the crib already").format(card=card)
        return _("{card} is in the crib (laid away by {who})").format(card=card, who=who)
    return _("{card} is in {who}'s hand").format(card=card, who=who)


def undone_words(inp: t.Input, player: str | None) -> str:
    """What an undo took back, from the input itself ("Bob's 7♠", "the crib's 4 cards"); `player` is who made
    it when the input does not say (the play, the go, a claim)."""
    who = getattr(inp, "player", None) or player
    if isinstance(inp, t.PlayInput):
        return _("{player}'s {card}").format(player=who, card=inp.card.pretty)
    if isinstance(inp, t.GoInput):
        return _("{player}'s go").format(player=who)
    if isinstance(inp, t.StarterInput):
        return _("the starter {card}").format(card=inp.card.pretty)
    if isinstance(inp, t.CribInput):
        return ngettext("the crib's {n} card", "the crib's {n} cards", len(inp.cards)).format(n=len(inp.cards))
    if isinstance(inp, t.CutInput):
        return _("{player}'s cut {card}").format(player=who, card=inp.card.pretty)
    if isinstance(inp, t.HandInput):
        return ngettext("{player}'s hand of {n} card", "{player}'s hand of {n} cards",
                        len(inp.cards)).format(player=who, n=len(inp.cards))
    if isinstance(inp, t.DiscardInput):
        return _("{player}'s discard {cards}").format(player=who, cards=" ".join(c.pretty for c in inp.cards))
    if isinstance(inp, t.ClaimInput):
        return _("{player}'s claim of {points}").format(player=who, points=inp.points)
    if isinstance(inp, t.MugginsInput):
        return _("the muggins call")
    if isinstance(inp, t.PegInput):
        return ngettext("{points} point pegged for {player}", "{points} points pegged for {player}",
                        abs(inp.points)).format(points=inp.points, player=who)
    return _("the start of the game")


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
