"""Words for people, made from the engine's typed facts in a language: the one renderer of the game.

Every function takes the language to speak (`lang`, a `companion.i18n.Language`); left out, it is the current
language of the edge that renders (`companion.i18n.speaking`). The engine's refusals (`refusal`), a score's
notes (`note`), the prompt (`prompt_words`) and the names of scores and sides are said here, the spoken count
(`say`, `said`, `lines`) in count.py beside it (light, for `crib score`); nothing else turns a fact into a
sentence, and no code reads one back.

    from companion.i18n import language
    from companion.words.phrases import refusal, error_words
    refusal(err.refusal, language("de"))     # a RuleError's refusal, in German
    error_words(err, language("en"))          # any engine error, in English
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.cribbage import transcript as t
from companion.cribbage.cards import Card
from companion.cribbage.errors import CribbageError
from companion.cribbage.facts import Note, NoteKind, Place, Prompt, ScoreEvent, ScoreKind, Seen, Side, Wanted
from companion.cribbage.refusals import Act, Refusal, Why
from companion.cribbage.rules import DEFAULT_MATCH, MATCH_SCORING, VARIANTS
from companion.i18n import N_, Language, current

from .count import said, say

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

def error_words(error: CribbageError, lang: Language | None = None) -> str:
    """An engine error as the person who made the input reads it: its refusal in `lang` (an error raised above
    the engine with words of its own says those)."""
    return str(error) if error.refusal is None else refusal(error.refusal, lang)


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
