"""Words for people, made from the engine's typed facts in a language: the one renderer of the game.

Every function takes the language to speak (`lang`, a `companion.i18n.Language`); left out, it is the current
language of the edge that renders (`companion.i18n.speaking`). The engine's refusals (`refusal`), a score's
notes (`note`), the prompt (`prompt_words`), the table's messages (`message_words`, from messages.py's kinds and
facts) and the names of scores and sides are said here, the spoken count (`say`, `said`, `lines`) in count.py
beside it (light, for `crib score`); nothing else turns a fact into a sentence, and no code reads one back.

    from companion.i18n import language
    from companion.words.phrases import refusal
    refusal(err.refusal, language("de"))     # a RuleError's refusal, in German

Any error raised on purpose, whichever layer's refusal it carries, is said by `words.saying.error_words`.
"""

from __future__ import annotations

import errno
from collections.abc import Callable, Sequence

from companion.cribbage import transcript as t
from companion.cribbage.cards import Card
from companion.cribbage.facts import Note, NoteKind, Place, Prompt, ScoreEvent, ScoreKind, Seen, Side, Wanted
from companion.cribbage.refusals import Act, Refusal, Why
from companion.cribbage.rules import DEFAULT_MATCH, MATCH_SCORING, VARIANTS
from companion.i18n import N_, Language, current

from .count import said, say
from .devices import device_name
from .messages import Message, PageAddress, Say

# The names of scores other than a player's hand or crib, as the table says them.
KIND_WORDS = {ScoreKind.PEGGING: N_("pegging"), ScoreKind.GO: N_("go"), ScoreKind.LAST_CARD: N_("last card"),
              ScoreKind.HEELS: N_("his heels"), ScoreKind.MUGGINS: N_("muggins"), ScoreKind.PEGGED: N_("pegged"),
              ScoreKind.THREE_FOR_LAST: N_("three for last")}

ACCEPTED_FORMS = N_("a rank A 2-9 10 (or T) J Q K then a suit C D H S (or ♣ ♦ ♥ ♠), for example 5H, 10D, ah, Q♠")

# What each field of a table input holds (transcript.FIELD_KINDS), as a refusal says what it must be.
VALUE_WORDS = {  # formatted with the variants, match scorings and the usual match
    "name": N_("a player's name (text)"), "names": N_("a list of player names"), "card": N_('a card like "5H"'),
    "cards": N_('a list of cards like ["5H","JS"]'), "int": N_("a whole number"), "bool": N_("true or false"),
    "variant": N_("one of {variants}"),
    "match": N_("the match points that win the match (a whole number, or true for {usual})"),
    "match_scoring": N_("one of {scorings}"),
}


def side_name(side: Side) -> str:
    """Partners as the table names them: "Ann & Cat"; a player alone by name (the same in every language)."""
    return " & ".join(side.players)


def listed(words: Sequence[str], lang: Language | None = None) -> str:
    """"Ann, Bob and Cat"."""
    lang = lang or current()
    if len(words) == 1:
        return words[0]
    return lang.gettext("{some} and {last}").format(some=", ".join(words[:-1]), last=words[-1])


def cards_words(cards: Sequence[Card]) -> str:
    """Cards as the table writes them: "5H JS"."""
    return " ".join(str(c) for c in cards)


# --- scores and their notes --------------------------------------------------------------------------------

def score_name(kind: ScoreKind, player: str | None, lang: Language | None = None) -> str:
    """A score's name: "Bob's hand", "Ann's crib", "his heels", "go", "pegging"."""
    lang = lang or current()
    if kind is ScoreKind.HAND:
        return lang.gettext("{player}'s hand").format(player=player)
    if kind is ScoreKind.CRIB:
        return lang.gettext("{player}'s crib").format(player=player)
    return lang.gettext(KIND_WORDS[kind])


def event_name(event: ScoreEvent, lang: Language | None = None) -> str:
    return score_name(event.kind, event.player, lang)


def note(fact: Note, lang: Language | None = None) -> str:
    """What a score's points alone do not say: a claim off the count, muggins taken, the game won at the cap."""
    lang = lang or current()
    _, n = lang.gettext, lang.number
    if fact.kind is NoteKind.CLAIMED:
        assert fact.claimed is not None
        return _("claimed {claim}").format(claim=n(fact.claimed))
    if fact.kind is NoteKind.CLAIMED_PEGS:
        assert fact.claimed is not None
        return _("claimed {points}, {player} pegs {pegged}").format(points=n(fact.claimed), player=fact.player,
                                                                     pegged=n(fact.points))
    if fact.kind is NoteKind.MISSED:
        words = (_("{player} overcalled by {points}: muggins for {n}") if fact.over
                 else _("{player} missed {points}: muggins for {n}"))
        return words.format(player=fact.player, points=n(fact.points), n=fact.points)
    if fact.kind is NoteKind.MUGGINS_TAKEN:
        assert fact.counting is not None
        on = _("the play") if fact.counting is ScoreKind.PEGGING else score_name(fact.counting, fact.player, lang)
        words = (_("{caller} takes {points} that {player} overcalled on {on}") if fact.over
                 else _("{caller} takes {points} that {player} missed on {on}"))
        return words.format(caller=fact.caller, points=n(fact.points), player=fact.player, on=on)
    assert fact.wanted is not None and fact.side is not None
    words = (_("{wanted} held, {pegged} pegged: {side} reaches {target} and the game is over")
             if fact.counting is not None and fact.counting.in_show else
             _("{wanted} scored, {pegged} pegged: {side} reaches {target} and the game is over"))
    return words.format(wanted=n(fact.wanted), pegged=n(fact.points), side=side_name(fact.side), target=fact.target)


def notes(event: ScoreEvent, lang: Language | None = None) -> list[str]:
    return [note(fact, lang) for fact in event.notes]


def muggins_words(event: ScoreEvent, lang: Language | None = None) -> str:
    """Muggins a computer player took, as a person who might miss it is told: "Muggins! Standard takes 2 ..."."""
    lang = lang or current()
    return lang.gettext("Muggins! {note}").format(note="; ".join(notes(event, lang)))


def event_words(event: ScoreEvent, lang: Language | None = None) -> str:
    """The score as the table hears it: the count in a player's cadence, then the note."""
    spoken = say(event.score, lang) if event.score and event.kind is not ScoreKind.MUGGINS else ""
    return "; ".join(part for part in (spoken, *notes(event, lang)) if part)


def score_parts(event: ScoreEvent, lang: Language | None = None) -> tuple[str | None, list[str], list[str]]:
    """What is said for a score: a heading with the points pegged ("Bob's hand: 12"; in the play only when they
    are not the count's, "Ann: pegging 0"), the count phrase by phrase (in the play without a heading, the first
    after whose points they are: "Bob: fifteen two"), and each part of its note (a claim off the count, muggins
    taken, the game won at the cap)."""
    counted = list(said(event.score, lang)) if event.kind is not ScoreKind.MUGGINS else []
    noted = notes(event, lang)
    if event.kind.in_show:
        return f"{event_name(event, lang)}: {event.points}", counted, noted
    if event.points != event.score.total:
        return f"{side_name(event.side)}: {event_name(event, lang)} {event.points}", counted, noted
    if counted:
        counted[0] = f"{side_name(event.side)}: {counted[0]}"
    return None, counted, noted


# --- what the table waits for ------------------------------------------------------------------------------

def prompt_words(prompt: Prompt, lang: Language | None = None) -> str:
    """What the table must do next, in words. Cards are "entered" whatever brings them (a scanner, a camera, the
    keypad, a tap on a page): the prompt is one for every view."""
    lang = lang or current()
    _ = lang.gettext
    wanted, who = prompt.wanted, prompt.players
    if wanted is Wanted.GAME:
        return _("Start a new game")
    if wanted is Wanted.CUT:
        again = _("Equal cards: cut again. ") if prompt.again else ""
        return _("{again}Cut for deal: {waiting} to cut").format(again=again, waiting=listed(who, lang))
    if wanted is Wanted.STARTER:
        return _("{dealer} deals. Enter the starter").format(dealer=prompt.dealer)
    if wanted is Wanted.HAND:
        return _("Enter {hand_for}'s six cards (ok: skip)").format(hand_for=who[0])
    if wanted is Wanted.DISCARD:
        return _("{player}: lay away to {dealer}'s crib").format(player=who[0], dealer=prompt.dealer)
    if wanted is Wanted.PLAY:
        return _("{turn} to play, count {count}").format(turn=who[0], count=prompt.count)
    if wanted is Wanted.GO:
        return _("{turn} says go? count {count}").format(turn=who[0], count=prompt.count)
    if wanted is Wanted.CRIB:
        return _("Enter {dealer}'s crib").format(dealer=prompt.dealer)
    if wanted is Wanted.CLAIM:
        assert prompt.counting is not None
        return (_("{player}: claim the points of {label}")
                .format(player=who[0], label=score_name(prompt.counting, who[0], lang)))
    assert prompt.winner is not None
    winner, partners = side_name(prompt.winner), len(prompt.winner.players)
    others = listed([str(o) for o in prompt.others], lang)
    if wanted is Wanted.NEW_GAME:
        game = (lang.ngettext("{winner} wins {target} to {others}", "{winner} win {target} to {others}", partners)
                .format(winner=winner, target=prompt.won, others=others))
        if prompt.skunk:
            skunk = _("{won}: a double skunk") if prompt.skunk == "double skunk" else _("{won}: a skunk")
            game = skunk.format(won=game)
        return game
    return lang.ngettext("{winner} wins the match {won} to {others}", "{winner} win the match {won} to {others}",
                         partners).format(winner=winner, won=prompt.won, others=others)


def seated_words(prompt: Prompt, person: str, lang: Language | None = None) -> str:
    """The prompt for a person seated at a virtual table (a game against the computer): the person is "you",
    the others are named, and the deck deals, cuts and turns the starter (not a word of scanning)."""
    lang = lang or current()
    _ = lang.gettext
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
            return (lang.ngettext("Lay away one card to your crib", "Lay away {n} cards to your crib", n)
                    .format(n=lang.number(n)))
        return (lang.ngettext("Lay away one card to {dealer}'s crib", "Lay away {n} cards to {dealer}'s crib", n)
                .format(n=lang.number(n), dealer=prompt.dealer))
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
        others = listed([str(o) for o in prompt.others], lang)
        if wanted is Wanted.NEW_MATCH:
            return _("You win the match {won} to {others}").format(won=prompt.won, others=others)
        won = _("You win {won} to {others}").format(won=prompt.won, others=others)
        if prompt.skunk:
            skunk = _("{won}: a double skunk") if prompt.skunk == "double skunk" else _("{won}: a skunk")
            won = skunk.format(won=won)
        return won
    return prompt_words(prompt, lang)


def cut_words(cutter: str, starter: str, person: str, lang: Language | None = None) -> str:
    """Who cut at a virtual table, and the starter it turned: "Pro cuts: the starter is 5♣"."""
    lang = lang or current()
    if cutter == person:
        return lang.gettext("You cut: the starter is {card}").format(card=starter)
    return lang.gettext("{player} cuts: the starter is {card}").format(player=cutter, card=starter)


def seen_words(seen: Seen, lang: Language | None = None) -> str:
    """Where a card already seen this deal is: "7♠ is in the crib", "7♠ was played by Ann", "7♠ is the starter"."""
    _ = (lang or current()).gettext
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


def move_words(player: str, card: Card | None, count: int, lang: Language | None = None) -> str:
    """A card just played with the count it made ("Pro 6♠: 31"), or a go (`card` None: "Pro: go")."""
    lang = lang or current()
    if card is None:
        return lang.gettext("{player}: go").format(player=player)
    return lang.gettext("{player} {card}: {count}").format(player=player, card=card.pretty, count=count)


def undone_line(taken: Sequence[tuple[t.Input, str | None]], lang: Language | None = None) -> str:
    """What one undo took back, in one line, in the order the inputs were made, each with who made it
    ("Undone: Guest's J♦ and Pro's 6♠")."""
    lang = lang or current()
    return lang.gettext("Undone: {what}").format(what=listed([undone_words(inp, player, lang)
                                                                for inp, player in taken], lang))


def undone_words(inp: t.Input, player: str | None, lang: Language | None = None) -> str:
    """What an undo took back, from the input itself ("Bob's 7♠", "the crib's 4 cards"); `player` is who made
    it when the input does not say (the play, the go, a claim)."""
    lang = lang or current()
    _, ngettext = lang.gettext, lang.ngettext
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


# --- refusals ----------------------------------------------------------------------------------------------

def refusal(why: Refusal, lang: Language | None = None) -> str:
    """Why an input was refused, and what to do instead, in `lang`."""
    return REFUSALS[why.why](why, lang or current())


Said = Callable[[Refusal, Language], str]  # a refusal's words in a language, from its facts


def _prompted(message: str) -> Said:
    """A refusal that ends with what the table waits for: `message` has {prompt}."""
    return lambda r, lang: lang.gettext(message).format(prompt=_prompt(r, lang))


def _plain(message: str) -> Said:
    """A refusal whose words need no facts."""
    return lambda r, lang: lang.gettext(message)


def _prompt(r: Refusal, lang: Language) -> str:
    assert r.prompt is not None
    return prompt_words(r.prompt, lang)


def _card_twice(r: Refusal, lang: Language) -> str:
    _ = lang.gettext
    what = (_("the crib") if r.act is Act.CRIB else _("{player}'s hand") if r.act is Act.HAND
            else _("{player}'s discard")).format(player=r.player)
    return _("{twice} appears twice in {what}: enter each card once").format(twice=r.card, what=what)


def _card_seen(r: Refusal, lang: Language) -> str:
    _ = lang.gettext
    assert r.seen is not None
    then = {Act.PLAY: N_("{seen}: play a card from {player}'s hand"), Act.HAND: N_("{seen}: check {player}'s cards"),
            Act.DISCARD: N_("{seen}: check the card"),
            Act.STARTER: N_("{seen}: the starter is the top card of the pack's lower half")}
    return _(then.get(r.act or Act.DISCARD, then[Act.DISCARD])).format(seen=seen_words(r.seen, lang), player=r.player)


def _bad_value(r: Refusal, lang: Language) -> str:
    _ = lang.gettext
    what = _(VALUE_WORDS[t.FIELD_KINDS[r.field]]).format(
        variants=", ".join(f'"{v}"' for v in VARIANTS), usual=DEFAULT_MATCH,
        scorings=", ".join(f'"{m}"' for m in MATCH_SCORING))
    return _("{kind} input: {name!r} must be {what}, not {raw}: like {example}").format(
        kind=r.input, name=r.field, what=what, raw=r.text, example=t.EXAMPLES[r.input or "play"])


def _go_while(r: Refusal, lang: Language) -> str:
    _ = lang.gettext
    if r.why is Why.GO_WHILE_ANY_CARD_FITS:
        return _("No go at {count}: every card fits. Play a card.").format(count=r.count)
    if r.why is Why.GO_WHILE_A_CARD_FITS:
        why = lang.ngettext("{player} holds {fits}, which fits", "{player} holds {fits}, which fit",
                            len(r.cards)).format(player=r.player, fits=cards_words(r.cards))
    else:
        why = _("{player} still holds a card that fits (of {fits})").format(player=r.player,
                                                                            fits=cards_words(r.cards))
    return _("No go at {count}: {why}. Play a card.").format(count=r.count, why=why)


def _turn(r: Refusal, lang: Language) -> str:
    _ = lang.gettext
    if r.why is Why.ALL_PLAYED:
        said = (_("{player} has played all {size} cards: {turn} to say go") if r.act is Act.GO
                else _("{player} has played all {size} cards: {turn} to play"))
        return said.format(player=r.player, size=lang.number(r.size or 0), turn=r.other)
    said = (_("it is {turn}'s turn to say go, not {player}'s") if r.act is Act.GO
            else _("it is {turn}'s turn to play, not {player}'s"))
    return said.format(turn=r.other, player=r.player)


def _not_playing(r: Refusal, lang: Language) -> str:
    _ = lang.gettext
    said = (_("{player!r} is not playing: peg for one of {players}") if r.act is Act.PEG
            else _("{player!r} is not playing: the players are {players}"))
    return said.format(player=r.player, players=listed(r.players, lang))


def _not_in_hand(r: Refusal, lang: Language) -> str:
    _ = lang.gettext
    if r.act is Act.DISCARD:
        return (_("{card} is not in {player}'s hand: lay away cards from {hand}")
                .format(card=r.card, player=r.player, hand=cards_words(r.cards)))
    return (_("{card} is not in {player}'s hand: play one of {held}")
            .format(card=r.card, player=r.player, held=cards_words(r.cards)))


def _no_muggins(r: Refusal, lang: Language) -> str:
    _ = lang.gettext
    if r.act is Act.PLAY:
        return _("this game is played without muggins: the play is pegged for you, no claim needed")
    return _("this game is played without muggins: the hands are counted for you")


def _muggins_by_own_side(r: Refusal, lang: Language) -> str:
    assert r.counting is not None
    return (lang.gettext("{caller} cannot call muggins on {label}: an opponent calls it")
            .format(caller=r.other, label=score_name(r.counting, r.player, lang)))


def _peg_below_zero(r: Refusal, lang: Language) -> str:
    assert r.side is not None
    return (lang.gettext("{side} has {score}: cannot take back {points}")
            .format(side=side_name(r.side), score=r.total, points=r.points))


def _cause(r: Refusal, lang: Language) -> str:
    """The refusal inside (a field's card, a transcript's line)."""
    assert r.cause is not None
    return refusal(r.cause, lang)


def _input_example(r: Refusal) -> str:
    return t.EXAMPLES[r.input or "play"]


REFUSALS: dict[Why, Said] = {  # one entry a code: the words of each refusal, from its facts
    # a game's settings
    Why.PLAYERS: _plain(N_('a game needs 2, 3 or 4 players, like "players":["Ann","Bob"]')),
    Why.VARIANT_PLAYERS: lambda r, lang: lang.gettext("the {variant} game is for {number} players, not {players}")
    .format(variant=r.text, number=lang.number(r.size or 0), players=r.count),
    Why.TARGET: lambda r, lang: lang.gettext("a game is played to 121 or 61 points, not {target}")
    .format(target=r.points),
    Why.MATCH_TARGET: lambda r, lang: lang.gettext("a match is won with 1 or more match points (usually {usual}), "
                                                   "not {match}").format(usual=r.total, match=r.points),
    Why.MATCH_SCORING: lambda r, lang: lang.gettext("no match scoring {scoring!r}: use one of {scorings}")
    .format(scoring=r.text, scorings=", ".join(r.names)),
    Why.SAME_NAMES: _plain(N_("two players have the same name: give each player a different name")),
    Why.DEALER_NOT_PLAYING: lambda r, lang: lang.gettext("the dealer {dealer!r} is not one of the players {players}")
    .format(dealer=r.player, players=listed(r.players, lang)),
    Why.GAME_IN_PROGRESS: _prompted(N_("a game is in progress ({prompt}): finish it, or undo back to its start")),
    Why.LOSER_DEALS: lambda r, lang: lang.gettext("the loser of the last game deals first: {losers}, not {dealer}")
    .format(losers=listed(r.players, lang), dealer=r.player),
    # the flow of the game
    Why.NO_GAME: _plain(N_('no game yet: start one first, like {"type":"game","players":["Ann","Bob"]}')),
    Why.GAME_OVER: _prompted(N_("the game is over ({prompt}): start a new game, or undo")),
    Why.NOTHING_TO_UNDO: _plain(N_("nothing to undo: no input has been entered")),
    Why.NOT_AN_INPUT: lambda r, lang: lang.gettext("not a table input: {inp}").format(inp=r.text),
    Why.NOT_PLAYING: _not_playing,
    Why.CUT_FIRST: _prompted(N_("cut for deal first: {prompt}")),
    # the cut for deal
    Why.CUT_OVER: _prompted(N_("the cut for deal is over: {prompt}")),
    Why.CUT_ALREADY: lambda r, lang: lang.gettext("{player} has cut already ({cut}): {prompt}")
    .format(player=r.player, cut=r.card, prompt=_prompt(r, lang)),
    Why.CARD_CUT_ALREADY: lambda r, lang: lang.gettext("{card} was cut already: check the card and enter it again")
    .format(card=r.card),
    # cards entered
    Why.CARD_TWICE: _card_twice,
    Why.CARD_SEEN: _card_seen,
    Why.HANDS_BEFORE_STARTER: _prompted(N_("hands are entered before the starter is turned: {prompt}")),
    Why.HAND_SIZE: lambda r, lang: lang.gettext("{player} was dealt {size} cards: enter all {n}, not {cards}")
    .format(player=r.player, size=lang.number(r.size or 0), n=r.size, cards=r.count),
    Why.HAND_IN_ALREADY: lambda r, lang: lang.gettext("{player}'s hand is already in: undo to change it")
    .format(player=r.player),
    Why.LAID_AWAY_NOT_IN_HAND: lambda r, lang: lang.gettext("{player} laid away {missing}, which is not in this "
                                                            "hand: check the cards")
    .format(player=r.player, missing=r.card),
    Why.DISCARDS_BEFORE_CRIB: _prompted(N_("discards are entered before the crib is in: {prompt}")),
    Why.DISCARD_SIZE: lambda r, lang: lang.ngettext("each player lays away {size} card to the crib, not {cards}",
                                                    "each player lays away {size} cards to the crib, not {cards}",
                                                    r.size or 0).format(size=lang.number(r.size or 0), cards=r.count),
    Why.DISCARD_IN_ALREADY: lambda r, lang: lang.gettext("{player}'s discard is already in: undo to change it")
    .format(player=r.player),
    Why.NOT_IN_HAND: _not_in_hand,
    Why.STARTER_TURNED: lambda r, lang: lang.gettext("the starter is already turned ({starter}): {prompt}")
    .format(starter=r.card, prompt=_prompt(r, lang)),
    Why.STARTER_FIRST: _plain(N_("enter the starter first: the play starts after the starter is turned")),
    Why.NO_MUGGINS: _no_muggins,
    # the play
    Why.PLAY_OVER: _prompted(N_("the play is over: {prompt}")),
    Why.NO_GO_NOW: _prompted(N_("No go now: {prompt}")),
    Why.GO_WHILE_ANY_CARD_FITS: _go_while,
    Why.GO_WHILE_A_CARD_FITS: _go_while,
    Why.GO_WHILE_A_CARD_MAY_FIT: _go_while,
    Why.ALL_PLAYED: _turn,
    Why.NOT_YOUR_TURN: _turn,
    Why.PLAY_CLAIM_RANGE: lambda r, lang: lang.gettext("one card pegs 0 to {most} points, not {claim}: claim again")
    .format(most=r.total, claim=r.points),
    Why.PAST_31: lambda r, lang: lang.gettext("the count is {count}: {card} would make {total}; play a lower card or "
                                              "say go").format(count=r.count, card=r.card, total=r.total),
    # the show
    Why.CRIB_AFTER_PLAY: _prompted(N_("the crib is counted after the hands: finish the play first ({prompt})")),
    Why.NO_CRIB_NOW: _prompted(N_("no crib to enter now: {prompt}")),
    Why.CRIB_SIZE: lambda r, lang: lang.gettext("the crib holds four cards: enter all four, not {cards}")
    .format(cards=r.count),
    Why.CRIB_CARD_IS_STARTER: lambda r, lang: lang.gettext("{card} is the starter, not a crib card: enter the four "
                                                           "cards laid away").format(card=r.card),
    Why.CRIB_CARD_PLAYED: lambda r, lang: lang.gettext("{card} was played by {who} this deal: the crib holds the four "
                                                       "cards laid away").format(card=r.card, who=r.player),
    Why.CRIB_CARD_IN_HAND: lambda r, lang: lang.gettext("{card} is in {who}'s hand: the crib holds the four cards "
                                                        "laid away").format(card=r.card, who=r.player),
    Why.CRIB_LACKS_DISCARD: lambda r, lang: lang.gettext("{who} laid away {missing}: the crib must hold it; check the "
                                                         "crib cards").format(who=r.player, missing=r.card),
    Why.NO_CLAIM_NOW: _prompted(N_("no count to claim now: {prompt}")),
    Why.CLAIM_RANGE: lambda r, lang: lang.gettext("a hand scores 0 to 29, not {points}: claim again")
    .format(points=r.points),
    Why.CLAIM_IMPOSSIBLE: lambda r, lang: lang.gettext("no hand scores {points} (nor 19, 25, 26 or 27): count again "
                                                       "and claim").format(points=r.points),
    Why.NO_MUGGINS_TO_CALL: _plain(N_("muggins is called right after a claim that was too low or too high, and the "
                                      "last input was not one: no points to take")),
    Why.MUGGINS_BY_OWN_SIDE: _muggins_by_own_side,
    # pegging by hand
    Why.PEG_RANGE: lambda r, lang: lang.gettext("peg 1 to {target} points (or a negative number to take points "
                                                "back), not {points}").format(target=r.total, points=r.points),
    Why.PEG_BELOW_ZERO: _peg_below_zero,
    # scoring tools
    Why.PILE_PAST_31: lambda r, lang: lang.gettext("those cards count {count}: the count may never pass 31")
    .format(count=r.count),
    Why.SHOW_SIZE: lambda r, lang: lang.gettext("a hand shows four cards (three in five-card cribbage); got {cards}")
    .format(cards=r.count),
    Why.SHOW_SAME_CARD: _plain(N_("the same card appears twice: check the hand and the starter")),
    # cards typed
    Why.BAD_RANK: lambda r, lang: lang.gettext("rank {rank} is not a card rank: use 1 (ace) to 13 (king)")
    .format(rank=r.count),
    Why.NOT_A_CARD: lambda r, lang: lang.gettext("{text!r} is not a card: type {forms}")
    .format(text=r.text, forms=lang.gettext(ACCEPTED_FORMS)),
    Why.NO_SUIT: lambda r, lang: lang.gettext("{text!r} has no suit I know: type {forms}")
    .format(text=r.text, forms=lang.gettext(ACCEPTED_FORMS)),
    # inputs as JSON
    Why.NOT_JSON: lambda r, lang: lang.gettext("not JSON ({msg}): write one input a line, like {example}")
    .format(msg=r.text, example=t.EXAMPLES["play"]),
    Why.NOT_AN_OBJECT: lambda r, lang: lang.gettext("an input is a JSON object, like {example}")
    .format(example=t.EXAMPLES["play"]),
    Why.UNKNOWN_TYPE: lambda r, lang: lang.gettext("unknown input type {kind}: use one of {types}, like {example}")
    .format(kind=r.text, types=", ".join(r.names), example=t.EXAMPLES["play"]),
    Why.UNKNOWN_FIELD: lambda r, lang: lang.gettext("{kind} input has no field {name!r} (it takes {allowed}): like "
                                                    "{example}")
    .format(kind=r.input, name=r.field, allowed=", ".join(r.names) or "no fields", example=_input_example(r)),
    Why.MISSING_FIELD: lambda r, lang: lang.gettext("{kind} input needs the field {missing!r}: like {example}")
    .format(kind=r.input, missing=r.field, example=_input_example(r)),
    Why.BAD_VALUE: _bad_value,
    Why.BAD_FIELD: lambda r, lang: lang.gettext("{kind} input, field {name!r}: {error}")
    .format(kind=r.input, name=r.field, error=_cause(r, lang)),
    Why.BAD_LINE: lambda r, lang: lang.gettext("line {number}: {error}").format(number=r.count, error=_cause(r, lang)),
}


# --- the table's messages ----------------------------------------------------------------------------------

def message_words(message: Message, lang: Language | None = None) -> str:
    """What the table says (a message's kind and facts, words/messages.py), in `lang`."""
    return MESSAGES[message.kind](message, lang or current())


Says = Callable[[Message, Language], str]  # a message's words in a language, from its facts


def _words(message: str) -> Says:
    """A message whose words need no facts."""
    return lambda m, lang: lang.gettext(message)


def _with_prompt(message: str) -> Says:
    """A message that ends with what the game waits for: `message` has {prompt}."""
    return lambda m, lang: lang.gettext(message).format(prompt=_prompt_of(m, lang))


def _then(message: str) -> Says:
    """A message with a message inside: `message` has {prompt} (the table's prompt, or the cards' progress)."""
    return lambda m, lang: lang.gettext(message).format(prompt=_inner(m, lang), card=m.card.pretty if m.card else "")


def _prompt_of(m: Message, lang: Language) -> str:
    assert m.prompt is not None
    return prompt_words(m.prompt, lang)


def _inner(m: Message, lang: Language) -> str:
    assert m.then is not None
    return message_words(m.then, lang)


def _pretty(card: Card | None) -> str:
    assert card is not None
    return card.pretty


def _waiting(m: Message, lang: Language) -> str:
    """The table's prompt: the game's, with the table's hint for a claim and the cut."""
    assert m.prompt is not None
    words = prompt_words(m.prompt, lang)
    if m.prompt.wanted is Wanted.CLAIM:
        return lang.gettext("{prompt}: enter claim N").format(prompt=words)
    if m.prompt.wanted is Wanted.CUT:
        return lang.gettext("{prompt} (ok: no cut, {first} deals)").format(prompt=words, first=m.player)
    return words


def _seated(m: Message, lang: Language) -> str:
    """The prompt of a person at a virtual table, after who cut and the starter while the play begins."""
    assert m.prompt is not None and m.player is not None
    words = seated_words(m.prompt, m.player, lang)
    if m.other is not None and m.card is not None:
        return f"{cut_words(m.other, m.card.pretty, m.player, lang)}. {words}"
    return words


def _progress(m: Message, lang: Language) -> str:
    """ "Crib: 2 of 4", "Bob's hand: 3 of 6": how far the cards held are."""
    _ = lang.gettext
    what = _("Crib") if m.player is None else _("{player}'s hand").format(player=m.player)
    return _("{what}: {held} of {wanted}").format(what=what, held=m.count, wanted=m.total)


def _answer_first(m: Message, lang: Language) -> str:
    _ = lang.gettext
    if m.card is None:
        return _("First answer about {asked}: OK, enter the card, or undo").format(asked=_pretty(m.asked))
    return (_("{card} not entered: first answer about {asked} (OK, or enter the card), then show {card} again")
            .format(card=m.card.pretty, asked=_pretty(m.asked)))


def _refused(m: Message, lang: Language) -> str:
    assert m.refusal is not None
    return refusal(m.refusal, lang)


def _card_seen_held(m: Message, lang: Language) -> str:
    assert m.seen is not None
    return lang.gettext("{seen}: enter another card").format(seen=seen_words(m.seen, lang))


def _cannot_save(m: Message, lang: Language) -> str:
    """A write the disk refused: why, in our words when we know the error, else the system's."""
    known = CANNOT_SAVE.get(m.count or 0)
    why = lang.gettext(known) if known else m.text
    return lang.gettext("Cannot save: {why}. Nothing was entered; try again once there is room").format(why=why)


def _devices_gone(m: Message, lang: Language) -> str:
    """Devices gone, and any back at the same time: "Not connected: camera. The game goes on; ... Connected ..."."""
    gone = (lang.gettext("Not connected: {devices}. The game goes on; check the cable")
            .format(devices=", ".join(device_name(name, lang) for name in m.names)))
    return f"{gone}. {_inner(m, lang)}" if m.then is not None else gone


def page_words(page: PageAddress, lang: Language) -> str:
    """Where the board's page is: "Page 0.0.0.0:8121 token 5f3a phones https://cribbage.local:8443/scan cert ..."."""
    _ = lang.gettext
    words = [_("Page {listen}").format(listen=page.listen)]
    if page.token is not None:
        words.append(_("token {token}").format(token=page.token))
    if page.phones is not None:
        words.append(_("phones {phones} cert {fingerprint}").format(phones=page.phones, fingerprint=page.cert))
    return " ".join(words)


def _help(m: Message, lang: Language) -> str:
    """The menu's help: what to enter, the voice's switch, after where the board's page is."""
    _ = lang.gettext
    words = _(SEATED_HELP) if m.kind is Say.SEATED_HELP else _(HELP).format(new_game=m.text)
    if m.voice:
        words = _("{help}. MENU again: voice off or on").format(help=words)
    return f"{page_words(m.page, lang)}. {words}" if m.page is not None else words


def _keypad(m: Message, lang: Language) -> str:
    """A key sequence that is no entry, and why: "keypad 5 GO: 5 needs its suit first: press 1 ♣, ..."."""
    return lang.gettext("keypad {keys}: {problem}").format(keys=" ".join(m.keys), problem=_inner(m, lang))


def _key_help(message: str, helper: str) -> Says:
    """A keypad problem that ends with how to key a suit ({suits}) or a peg ({pegging}); {rank} is `text`."""
    return lambda m, lang: lang.gettext(message).format(rank=m.text, suits=lang.gettext(helper),
                                                        pegging=lang.gettext(helper))


HELP = N_("Scan or type a card (5H, 10D, QS), go, undo, ok; {new_game} twice starts over")  # .format(new_game=)
SEATED_HELP = N_("Play a card of your hand, go, undo; ok after the show deals the next hand")
SUIT_HELP = N_("press 1 ♣, 2 ♦, 3 ♥ or 4 ♠")
CARD_HELP = N_("press a rank (1 = ace, 2-9, 0 = ten, * then 1/2/3 = J/Q/K), then a suit (1 ♣, 2 ♦, 3 ♥, 4 ♠)")
PEG_HELP = N_("to peg: # then the player (1-4, * = whose turn), the points, then OK")

CANNOT_SAVE = {  # why a write failed, by its errno
    errno.ENOSPC: N_("the disk is full"),
    errno.EDQUOT: N_("the disk quota is used up"),
    errno.EFBIG: N_("the log has reached the size limit"),
    errno.EROFS: N_("the disk is read-only"),
    errno.EACCES: N_("no permission to write the game log"),
    errno.EPERM: N_("no permission to write the game log"),
    errno.EIO: N_("the disk reports an error"),
}

MESSAGES: dict[Say, Says] = {  # one entry a kind: the words of each message, from its facts
    # what the table waits for
    Say.WAITING: _waiting,
    Say.SEATED: _seated,
    Say.PROGRESS: _progress,
    Say.QUESTION: lambda m, lang: lang.gettext("{card}? OK, or enter the card").format(card=_pretty(m.card)),
    # the doubtful card
    Say.NOT_ENTERED: lambda m, lang: lang.gettext("Not entered: {card}").format(card=_pretty(m.card)),
    Say.ANSWER_FIRST: _answer_first,
    # refused
    Say.REFUSED: _refused,
    Say.WORDS: lambda m, lang: m.text,
    Say.CANNOT_SAVE: _cannot_save,
    Say.CARD_SEEN: _card_seen_held,
    Say.NO_CARD_WANTED: _with_prompt(N_("no card is wanted now: {prompt}")),
    Say.SCAN_NEW_GAME: lambda m, lang: lang.gettext("{prompt}: scan {new_game} to play again")
    .format(prompt=_prompt_of(m, lang), new_game=m.text),
    Say.PLAY_AGAIN: _then(N_("{prompt}: Play again deals a new game")),
    Say.DECK_DEALS: _then(N_("{card}: the virtual deck deals, cuts and turns the starter here. {prompt}")),
    Say.NO_DECK_INPUT: lambda m, lang: lang.gettext("the virtual deck sent no table input: {text!r}")
    .format(text=m.text),
    Say.NO_GO_NOW: _then(N_("No go now: {prompt}")),
    Say.PLAY_PEGGED: _words(N_("the play is pegged for you: claim the points of your hand and crib at the show")),
    Say.CLAIM_AFTER_CARD: _words(N_("claim the points of a card right after laying it (the go and last card peg "
                                    "themselves)")),
    Say.NOTHING_OF_YOURS: lambda m, lang: lang.ngettext(
        "nothing of yours to take back in this deal: lay away {n} card",
        "nothing of yours to take back in this deal: lay away {n} cards", m.count or 0).format(n=m.count),
    Say.NO_VOICE: _words(N_("this board has no voice: turn it on in [voice] (enabled = true)")),
    Say.PEG_WHOSE: lambda m, lang: lang.gettext("say whose points they are: peg {first} 5 (or peg 1 5) pegs five "
                                                "for {first}").format(first=m.player),
    Say.NO_PLAYER_NAMED: lambda m, lang: lang.gettext("there is no player {name}: peg one of {players} by name (peg "
                                                      "{first} 5) or by seat (peg 1 5)")
    .format(name=m.text, players=", ".join(m.players), first=m.players[0]),
    Say.NO_PLAYER_SEAT: lambda m, lang: lang.gettext("there is no player {number}: the players are 1 to {players}")
    .format(number=m.count, players=m.total),
    Say.NO_STATE_DIRECTORY: _words(N_("a new game needs a state directory")),
    Say.START_OF_GAME: _words(N_("nothing to undo: this is the start of the game")),
    # done, or asked to confirm
    Say.UNDONE: lambda m, lang: undone_line(m.taken, lang),
    Say.UNDONE_HELD: lambda m, lang: lang.gettext("Undone: {card} ({progress})")
    .format(card=_pretty(m.card), progress=_inner(m, lang)),
    Say.UNDO_AGAIN: _with_prompt(N_("{prompt}: undo again to reopen the game")),
    Say.LAST_GAME: _with_prompt(N_("Last game: {prompt}. Undo again to reopen it")),
    Say.REOPENED: _then(N_("The last game is open again: {prompt}")),
    Say.CONFIRM_NEW: lambda m, lang: lang.gettext("scan {new_game} again to abandon this game and start a new one")
    .format(new_game=m.text),
    Say.LOSER_DEALS: lambda m, lang: lang.gettext("{loser} lost the last game: {loser} deals first")
    .format(loser=m.player),
    Say.NO_CUT: lambda m, lang: lang.gettext("No cut: {dealer} deals").format(dealer=m.player),
    Say.NO_HANDS: _words(N_("no hands this deal: enter the starter")),
    Say.HELP: _help,
    Say.SEATED_HELP: _help,
    Say.VOICE_OFF: _words(N_("Voice off: MENU twice turns it on again")),
    Say.VOICE_ON: _words(N_("Voice on: the board says the counts")),
    Say.LOG_CARED: lambda m, lang: lang.gettext("The game log needed care on start: {inputs} inputs kept (the system "
                                                "log says more)").format(inputs=m.count),
    Say.DEVICES_GONE: _devices_gone,
    Say.DEVICES_BACK: lambda m, lang: lang.gettext("Connected again: {devices}").format(
        devices=", ".join(device_name(name, lang) for name in m.names)),
    Say.ADDRESS: lambda m, lang: lang.gettext("IP address {address}").format(address=m.text),
    Say.SEAT: lambda m, lang: lang.gettext("Table {table}: {first} against {second}")
    .format(table=m.count, first=m.players[0], second=m.players[1]),
    Say.SIT_OUT: lambda m, lang: lang.gettext("Round {round}: no game at this table").format(round=m.count),
    Say.WRONG_TOKENS: lambda m, lang: lang.gettext("{wrong} wrong tokens from {address}: next try in {seconds} s")
    .format(wrong=m.count, address=m.text, seconds=m.total),
    Say.STRIP_MISSING: _words(N_("LED strip not connected: check the Pico's USB cable. The game goes on")),
    Say.STRIP_BACK: _words(N_("LED strip connected: the pegs are shown again")),
    # an entry that is none
    Say.NOTHING_SCANNED: _words(N_("nothing was entered: scan again")),
    Say.NOTHING_TYPED: _words(N_("nothing was entered: type a card like 5H, or go")),
    Say.NO_KEYPAD: lambda m, lang: lang.gettext('there is no keypad to press {label} on: set devices.keypad in the '
                                                'configuration (in simulation the keypad is on unless it is "none")')
    .format(label=m.text),
    Say.NOT_A_KEY: lambda m, lang: lang.gettext("{label!r} is not a key: the keys are 0-9, A-D, * and #")
    .format(label=m.text),
    Say.SHOP_CODE: lambda m, lang: lang.gettext("not a Cribbage Companion code (this looks like a shop barcode): scan "
                                                "the sticker on the card, or a command card ({commands})")
    .format(commands=", ".join(m.names)),
    Say.NOT_OURS: lambda m, lang: lang.gettext("not a Cribbage Companion code: scan the sticker on the card, or a "
                                               "command card ({commands})").format(commands=", ".join(m.names)),
    Say.NOT_AN_ENTRY: lambda m, lang: lang.gettext("{text!r} is not a card or a command: type a card like 5H, 10D, QS "
                                                   "or a word: {words} (or peg 12, peg Bob 12 to peg points)")
    .format(text=m.text, words=", ".join(m.names)),
    Say.NO_SEAT: lambda m, lang: lang.gettext("there is no player {player}: number the players 1 to 4 in seating "
                                              "order, or give a name (peg Bob 5)").format(player=m.text),
    Say.PEG_RANGE: lambda m, lang: lang.gettext("{shown} points cannot be pegged: peg from 1 to {most} points")
    .format(shown=m.text or lang.gettext("so many"), most=m.total),
    Say.KEYPAD: _keypad,
    Say.KEY_FACE: _words(N_("after * press 1 (jack), 2 (queen) or 3 (king), then a suit")),
    Say.KEY_SUIT: _key_help(N_("{rank} needs its suit first: {suits}"), SUIT_HELP),
    Say.KEY_PLAYER: _key_help(N_("after # press the player's number (1-4) or * for whose turn it is; {pegging}"),
                              PEG_HELP),
    Say.KEY_POINTS: _key_help(N_("the points are one or two digits and then OK; {pegging}"), PEG_HELP),
    Say.WAIT_FACE: _words(N_("* waits for 1 (jack), 2 (queen) or 3 (king) and a suit")),
    Say.WAIT_SUIT: _key_help(N_("{rank} waits for its suit: {suits}"), SUIT_HELP),
    Say.WAIT_PLAYER: _key_help(N_("# waits for a player; {pegging}"), PEG_HELP),
    Say.WAIT_POINTS: _key_help(N_("pegging waits for the points and OK; {pegging}"), PEG_HELP),
    Say.CARD_HELP: _words(CARD_HELP),
}
