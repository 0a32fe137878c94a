"""Nothing the board says is lost on the OLED: every score the engine makes (each kind, with its notes: a claim
off the count, muggins, the game over at the cap), under every prompt, every refusal, in English and German,
with names of 12 letters, drawn page by page as `layout` draws them: every line within the 128 px and every
word of the message on a page, in order."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

import pytest

from companion import i18n
from companion.cribbage.cards import parse_cards
from companion.cribbage.facts import NoteKind, Place, Prompt, ScoreEvent, ScoreKind, Seen, Side, Wanted
from companion.cribbage.game import GameState, apply, initial_state
from companion.cribbage.refusals import Act, Refusal, Why
from companion.cribbage.transcript import (
    ClaimInput,
    CribInput,
    GameInput,
    GoInput,
    Input,
    MugginsInput,
    PegInput,
    PlayInput,
    StarterInput,
)
from companion.view.screen import (
    COLUMNS,
    ROWS,
    SIZE,
    _font,
    body_room,
    coach_pages,
    layout,
    page_count,
    pages,
    render_screen,
    screen_text,
    screen_view,
    spoken_pages,
    word_pages,
)
from companion.words.phrases import prompt_words, refusal, score_parts, seated_words, side_name
from tests.golden import assert_golden
from tests.view.oled_texts import NAMES, filled, longest, oled_messages

MAX, BART = "Maximilianus", "Bartholomäus"  # 12 letters each, the most a name may have


def card(text: str):
    return parse_cards(text)[0]


def plays(text: str) -> list[Input]:
    return [GoInput() if word == "go" else PlayInput(card(word)) for word in text.split()]


# Bartholomäus's hand 29 (28 of it claimed), Maximilianus's 24, the crib AH 3D 8C 8H with 5S: 2 (3 claimed)
DEAL = [StarterInput(card("5S")), *plays("JS 4C 5C 6C 5D go go 4D 5H 6H")]
GAMES: dict[str, list[Input]] = {
    "muggins": [GameInput((MAX, BART), dealer=MAX, muggins=True), *DEAL, ClaimInput(28), ClaimInput(24),
                CribInput(parse_cards("AH 3D 8C 8H")), ClaimInput(3), MugginsInput()],
    "play claims": [GameInput((MAX, BART), dealer=MAX, muggins=True), StarterInput(card("KS")),
                    PlayInput(card("7C")), PlayInput(card("8C"), claim=11), MugginsInput(),
                    PlayInput(card("7H"), claim=0)],
    "heels at the cap": [GameInput((MAX, BART), dealer=MAX), PegInput(BART, 110), PegInput(MAX, 120),
                         StarterInput(card("JH"))],  # two for his heels, one pegged: the game is over
    "five-card": [GameInput((MAX, BART), dealer=MAX, variant="five-card")],
}


def moments() -> Iterator[tuple[GameState, tuple[ScoreEvent, ...]]]:
    """Each game's state after every input, with the score events that input made."""
    for inputs in GAMES.values():
        state = initial_state()
        for inp in inputs:
            after = apply(state, inp)
            yield after, after.events[len(state.events):]
            state = after


def prompts(state: GameState) -> list[str]:
    """Every kind of prompt with the longest names, as the board and a seat at a virtual table say them."""
    three = NAMES[:3]
    winner = Side((BART,))
    kinds = [Prompt(Wanted.GAME), Prompt(Wanted.CUT, three, again=True), Prompt(Wanted.STARTER, dealer=MAX),
             Prompt(Wanted.HAND, (BART,)), Prompt(Wanted.DISCARD, (BART,), count=2, dealer=MAX),
             Prompt(Wanted.PLAY, (BART,), count=31), Prompt(Wanted.GO, (BART,), count=31),
             Prompt(Wanted.CRIB, dealer=MAX), Prompt(Wanted.CLAIM, (MAX,), counting=ScoreKind.CRIB),
             Prompt(Wanted.NEW_GAME, winner=winner, won=121, others=(60,), skunk="double skunk"),
             Prompt(Wanted.NEW_MATCH, winner=winner, won=7, others=(5,))]
    said = [prompt_words(prompt) for prompt in kinds] + [seated_words(prompt, person)
                                                         for prompt in kinds for person in (MAX, BART)]
    return sorted({prompt_words(state.awaited()), *said}, key=len)


def width_px(line: str) -> float:
    return _font().getlength("".join("H" if char in "♣♦♥♠▶" else char for char in line))


def fits(lines: Sequence[str]) -> bool:
    return all(len(line) <= COLUMNS and width_px(line) <= SIZE[0] for line in lines)


def spoken(events: Sequence[ScoreEvent]) -> list[str]:
    """Every word said for the scores, heading, count and notes, as `plain` leaves them."""
    words = []
    for event in events:
        heading, counted, notes = score_parts(event)
        words += " ".join(([heading] if heading else []) + counted + notes).split()
    return plain(words)


def plain(words: Sequence[str]) -> list[str]:
    """Words without the pauses after them, without the names that say whose score a page is ("Bartholomäus:")
    and the mark of a phrase going on ("…overcalled")."""
    return [word.removeprefix("…").rstrip(",;") for word in words if word not in [f"{name}:" for name in NAMES]]


def whose(events: Sequence[ScoreEvent]) -> set[str]:
    return {event.player or side_name(event.side) for event in events}


@pytest.fixture(params=list(i18n.LANGUAGES))
def language(speak, request: pytest.FixtureRequest) -> str:
    speak(request.param)
    return str(request.param)


def test_every_score_the_engine_makes_is_shown_whole_under_every_prompt(language):
    kinds: set[ScoreKind] = set()
    noted = 0
    for state, recent in moments():
        kinds |= {event.kind for event in recent}
        noted += sum(len(event.notes) for event in recent)
        for prompt in prompts(state):
            room = body_room(prompt)
            shown: list[str] = []
            for page in range(page_count(recent, room)):
                view = screen_view(state, recent=recent, page=page, prompt=prompt, words_page=0)
                lines = layout(view)
                assert lines.body == view.body and len(lines.body) + len(lines.prompt) <= ROWS, (prompt, view)
                assert fits(lines.body) and fits(lines.prompt), lines
                assert not recent or any(name in lines.body[0] for name in whose(recent)), lines  # every page
                shown += lines.body
            if recent:
                assert plain(" ".join(shown).split()) == spoken(recent), (prompt, shown)
            prompt_shown = [line for page in range(len(word_pages(view)))
                            for line in layout(replace(view, page=page)).prompt]
            assert " ".join(prompt_shown).split() == prompt.split()
    assert kinds == set(ScoreKind) and noted >= 7  # every kind of score
    notes = {note.kind for state, recent in moments() for event in recent for note in event.notes}
    assert notes == set(NoteKind)  # a claim in the play and of a count, missed, muggins taken, won at the cap


def test_a_phrase_longer_than_the_room_goes_on_to_the_next_page(language):
    """The cases of issue 30: "claimed eleven, Maximilianus pegs nine" lost "nine" under a prompt of two lines."""
    state, recent = list(moments())[len(GAMES["muggins"]) + 3]  # Bartholomäus's 8C claimed eleven (nine made)
    (event,) = recent
    assert event.notes and event.claimed == 11
    prompt = prompt_words(Prompt(Wanted.PLAY, (MAX,), count=15))
    assert body_room(prompt) == 2
    views = [screen_view(state, recent=recent, page=page, prompt=prompt) for page in range(page_count(recent, 2))]
    shown = " ".join(line for view in views for line in layout(view).body)
    assert plain(shown.split()) == spoken(recent)
    last = " ".join(score_parts(event)[2]).split()[-3:]  # "muggins for 2", "Muggins für 2"
    assert " ".join(last) in " ".join(shown.split())
    assert_golden(render_screen(views[-1]), f"claimed-eleven-{language}-last-page")


# The refusals that read differently for what the input was doing (refusals.Why names them), and those acts.
ACTS: dict[Why, tuple[Act | None, ...]] = {
    Why.CARD_TWICE: (Act.HAND, Act.DISCARD, Act.CRIB), Why.CARD_SEEN: (Act.PLAY, Act.HAND, Act.DISCARD, Act.STARTER),
    Why.NOT_IN_HAND: (Act.PLAY, Act.DISCARD), Why.ALL_PLAYED: (Act.PLAY, Act.GO), Why.NOT_YOUR_TURN: (Act.PLAY, Act.GO),
    Why.NO_MUGGINS: (Act.PLAY, Act.CLAIM), Why.NOT_PLAYING: (None, Act.PEG)}


# Said by `crib replay` of a bad file (a game's log or a transcript as JSON), never at the table (which always
# has a game of 2 to 4 players, and reads what is typed or scanned, not JSON).
NOT_ON_THE_OLED = {Why.NO_GAME, Why.PLAYERS, Why.NOT_JSON, Why.NOT_AN_OBJECT, Why.UNKNOWN_TYPE, Why.UNKNOWN_FIELD,
                   Why.MISSING_FIELD, Why.BAD_VALUE, Why.BAD_FIELD, Why.BAD_LINE}


def refusals() -> Iterator[Refusal]:
    """Every kind of refusal the engine raises, once as each act reads it, with the longest facts it names."""
    tens = tuple(card(f"10{suit}") for suit in "HDCS")
    cause = Refusal(Why.NOT_A_CARD, text="'xyzzy'")
    for why in set(Why) - NOT_ON_THE_OLED:
        for act in ACTS.get(why, (None,)):
            yield Refusal(why, card=tens[0], cards=tens, player=MAX, other=BART, players=NAMES[:3], count=31,
                          total=121, points=121, size=6, prompt=Prompt(Wanted.CUT, NAMES[:3], again=True),
                          seen=Seen(tens[0], Place.CRIB, MAX), act=act, counting=ScoreKind.CRIB,
                          side=Side((MAX, BART)), text="'xyzzy'", input="discard", field="cards",
                          names=("two", "three", "four", "five-card"), cause=cause)


def test_every_refusal_and_message_is_shown_whole_as_an_error_and_as_a_message(language):
    state = next(state for state, _ in moments() if state.phase == "play")
    values = longest(language)
    said = {refusal(why) for why in refusals()}
    assert len(said) > len(Why) - len(NOT_ON_THE_OLED)  # every kind in words, some as each act reads them
    texts = [*said, *(filled(i18n._(message), values) for message in oled_messages())]
    assert len(texts) > 300
    for text in texts:
        for view in (screen_view(state, error=text), screen_view(state, prompt=text)):
            pages = word_pages(view)
            shown = [layout(replace(view, page=page)) for page in range(len(pages))]
            assert all(fits(lines.body) and fits(lines.prompt) and len(lines.rows) == ROWS for lines in shown)
            assert all(lines.body == view.body for lines in shown if not view.error)
            words = [line for lines in shown for line in (lines.body if view.error else lines.prompt)]
            assert " ".join(words).split() == text.split(), (text, words)


def test_the_coachs_review_keeps_its_lines_above_a_long_name(language):
    state = next(state for state, _ in moments() if state.phase == "play")
    said = " ".join(["Laying away 10♥ 10♦ gave away about 1.5 points against keeping the run; the best:"] * 3)
    views = coach_pages(state, MAX, said)
    shown = [line for view in views for line in layout(view).body]
    assert " ".join(shown).split() == said.split()
    assert all(len(layout(view).body) == len(view.body) for view in views)
    assert all(screen_text(view)[-1].strip() for view in views)  # the page number, on the bottom line


def test_a_long_pile_under_a_long_prompt_keeps_the_count_and_the_latest_cards(language):
    """Nine low cards of three players make two lines of pile; under a prompt of two lines the count stays and the
    pile shows its latest cards after "…"."""
    state = initial_state()
    for inp in [GameInput((MAX, BART, NAMES[2]), dealer=MAX), StarterInput(card("KS")),
                *plays("AC AD AH 2C 2D 2H 3C 3D 3H")]:
        state = apply(state, inp)
    assert state.count == 18 and len(state.pile) == 9 and state.phase == "play"
    long_prompt = prompt_words(Prompt(Wanted.PLAY, (BART,), count=18))
    body = layout(screen_view(state, prompt=long_prompt)).body
    assert len(body) == 2 and body[0].split()[-2:] == i18n._("Starter {card}").format(card="K♠").split()
    assert body[0].startswith(i18n._("Count {count}").format(count=18))
    assert body[1] == "… 2♣ 2♦ 2♥ 3♣ 3♦ 3♥" and fits(body)
    whole = layout(screen_view(state, prompt="Go")).body  # a prompt of one line: the whole pile
    assert whole[1:] == ("A♣ A♦ A♥ 2♣ 2♦ 2♥ 3♣", "3♦ 3♥")


def test_a_score_turns_its_pages_where_its_phrases_end_and_an_address_at_its_seams(language):
    _state, recent = list(moments())[len(GAMES["muggins"]) + 3]  # Bartholomäus's 8C claimed eleven (nine made)
    paged = spoken_pages(recent, 2)
    assert all(page[-1].endswith((";", ":", ",")) for page in paged[:-1]), paged
    assert all(len(page) <= 2 and fits(page) and page[0].startswith(MAX) for page in paged)
    if language == "en":
        assert paged == [("Maximilianus: fifteen", "two; claimed eleven;"), ("Maximilianus", "overcalled by nine:"),
                         ("Maximilianus: muggins", "for 9")]  # "Maximilianus overcalled" says whose it is itself
    address = pages("phones https://cribbage.local:8443/scan cert 5F:3A", 3)
    assert address[0] == ("phones", "https://cribbage.", "local:8443/scan cert")  # cut at its seams
