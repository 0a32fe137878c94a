"""No language for the whole process: one process renders the same state in English and in German at once, by a
language handed to the renderer or by the current language of each context (a task, a thread, a request)."""

from __future__ import annotations

import asyncio
import threading

from companion import i18n
from companion.cribbage.game import replay
from companion.i18n import _, accepted, language, speaking
from companion.view.screen import screen_text, screen_view
from companion.words.phrases import prompt_words
from companion.words.projection import state_json
from tests.sample_deal import deal

WORDS = ("prompt", "name", "said", "lines", "notes")  # the keys of the projection that people read


def facts_only(value: object) -> object:
    """The projection without its words: what a client reads to decide."""
    if isinstance(value, dict):
        return {k: facts_only(v) for k, v in value.items() if k not in WORDS}
    if isinstance(value, list):
        return [facts_only(v) for v in value]
    return value


def test_one_state_in_english_and_german_in_one_process():
    state = replay(deal("nothing"))  # a deal counted: hands, crib, the next dealer
    english, german = state_json(state, lang=language("en")), state_json(state, lang=language("de"))
    assert (english["prompt"], german["prompt"]) == ("Bob deals. Enter the starter", "Bob gibt. Startkarte eingeben")
    bob = [(e["name"], e["said"]) for s in (english, german) for e in s["events"]
           if e["kind"] == "hand" and e["player"] == "Bob"]
    assert bob == [("Bob's hand", "fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen "
                                  "twelve, fifteen fourteen, and a pair royal is twenty"),
                   ("Hand Bob", "fünfzehn zwei, fünfzehn vier, fünfzehn sechs, fünfzehn acht, fünfzehn zehn, "
                                "fünfzehn zwölf, fünfzehn vierzehn, und ein Drilling macht zwanzig")]
    assert facts_only(english) == facts_only(german)  # the facts are one; only the words differ
    assert i18n.current() is language("en")  # rendering German switched nothing


def screen_words(state_inputs: list[object]) -> list[str]:
    """The OLED's lines for a state, in the current language (the views' `_()` calls)."""
    state = replay(state_inputs)  # type: ignore[arg-type]
    return screen_text(screen_view(state, recent=state.events[-2:]))


def test_two_asyncio_tasks_speak_their_own_language_at_the_same_time():
    inputs = deal("nothing")

    async def render(code: str, rounds: int) -> list[tuple[str, str, list[str]]]:
        with speaking(code):
            said = []
            for _round in range(rounds):
                await asyncio.sleep(0)  # the other task runs between each rendering
                said.append((_("Count {count}").format(count=15), prompt_words(replay(inputs).awaited()),
                             screen_words(inputs)))
            return said

    async def both() -> tuple[list[tuple[str, str, list[str]]], list[tuple[str, str, list[str]]]]:
        return await asyncio.gather(render("en", 5), render("de", 5))

    english, german = asyncio.run(both())
    assert {said[:2] for said in english} == {("Count 15", "Bob deals. Enter the starter")}
    assert {said[:2] for said in german} == {("Stand 15", "Bob gibt. Startkarte eingeben")}
    assert len({tuple(said[2]) for said in english}) == len({tuple(said[2]) for said in german}) == 1
    assert english[0][2] != german[0][2] and any("Bob" in line for line in german[0][2])
    assert i18n.current() is language("en")


def test_two_threads_speak_their_own_language():
    said: dict[str, list[str]] = {}
    barrier = threading.Barrier(2)

    def render(code: str) -> None:
        with speaking(code):
            barrier.wait()  # both are speaking now
            said[code] = [prompt_words(replay(deal("nothing")).awaited()) for _round in range(3)]

    threads = [threading.Thread(target=render, args=(code,)) for code in ("de", "en")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert said == {"en": ["Bob deals. Enter the starter"] * 3, "de": ["Bob gibt. Startkarte eingeben"] * 3}


def test_a_language_is_a_value_with_its_numbers():
    english, german = language("en"), language("de")
    assert language("de") is german and i18n.choose("de") is german  # cached: one value a language
    assert (english.number(29), german.number(29)) == ("twenty-nine", "neunundzwanzig")
    assert (english.decimal(10.25, 2), german.decimal(10.3)) == ("10.25", "10,3")
    assert (english.name, german.name) == ("English", "Deutsch")


def test_a_browser_asks_for_its_language():
    assert accepted("de-DE,de;q=0.9,en;q=0.8") is language("de")
    assert accepted("fr-FR,fr;q=0.9,en-GB;q=0.8,de;q=0.7") is language("en")
    assert accepted("en;q=0.5, de") is language("de")
    assert accepted("fr, es", language("de")) is language("de")
    assert accepted(None) is accepted("") is accepted("de;q=0") is language("en")
