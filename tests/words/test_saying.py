"""Every typed error is said one way: `error_words` says any layer's refusal in the language handed (one process,
English and German at once), and `crib`'s one catch says it for every command."""

from __future__ import annotations

import pytest

from companion.advice.discard import analyse
from companion.cli import main
from companion.cribbage.cards import Card, parse_cards
from companion.cribbage.errors import CribbageError, InputError
from companion.cribbage.game import apply, initial_state
from companion.cribbage.transcript import GoInput
from companion.devices.base import DeviceError
from companion.devices.oled import open_oled
from companion.i18n import language
from companion.play.computer import Settings
from companion.stats import Selection, history
from companion.table import CommandMistake
from companion.words.advice import refusal_words as advice_words
from companion.words.devices import device_words
from companion.words.messages import Message, Say
from companion.words.opponents import settings_words
from companion.words.phrases import message_words, refusal
from companion.words.saying import error_words, refusal_words
from companion.words.statistics import selection_words
from tests.game_logs import copy_sample
from tests.words.bilingual import assert_said_apart

EN, DE = language("en"), language("de")


def raised(make) -> CribbageError:
    with pytest.raises(CribbageError) as caught:
        make()
    return caught.value


def test_every_layers_error_is_said_by_its_own_renderer_in_the_language_handed(tmp_path):
    errors = [
        (raised(lambda: Card.parse("5X")), refusal),
        (raised(lambda: apply(initial_state(), GoInput("Ann"))), refusal),
        (raised(lambda: analyse(parse_cards("5H 5D 6C JS"), dealer=True)), advice_words),
        (raised(lambda: Settings("Guest", ("pro",), target=99)), settings_words),
        (raised(lambda: history(tmp_path, Selection(game=3))), selection_words),
        (CommandMistake(Message(Say.NO_PLAYER_SEAT, count=5, total=2)), message_words),
    ]
    with pytest.raises(DeviceError) as device:  # not a CribbageError: a device's problem, said the same way
        open_oled("ssd1306", rotate=1)
    errors.append((device.value, device_words))
    for error, own in errors:
        english, german = error_words(error, EN), error_words(error, DE)
        assert (english, german) == (own(error.refusal, EN), own(error.refusal, DE))
        assert_said_apart(english, german)
        assert english != str(error.refusal)  # words, not the code the logs get


def test_an_error_raised_with_words_of_its_own_says_those():
    assert error_words(InputError("words of its own"), DE) == "words of its own"


def test_a_refusal_without_a_renderer_is_a_mistake_that_names_where_to_add_one():
    with pytest.raises(TypeError, match=r"words\.saying\.refusal_words"):
        refusal_words(object(), EN)


@pytest.mark.parametrize(("args", "english", "german"), [
    (["advise", "5H", "5D", "6C", "JS", "--dealer"], "crib advise: a deal gives six cards",
     "crib advise: es werden sechs Karten gegeben"),
    (["hint", "5H", "6H", "--pile", "KS", "QS", "JS"], "crib hint: no card fits under 31: say go",
     "crib hint: keine Karte passt unter 31"),
    (["stats", "--game", "3"], "crib stats: no game 3: there is 1 game", "crib stats: kein Spiel 3"),
])
def test_crib_says_every_commands_typed_error_in_its_one_catch(args, english, german, tmp_path, capsys):
    if args[0] == "stats":
        copy_sample(tmp_path, 1)
        args = [*args, "--state-dir", str(tmp_path)]
    assert main([*args, "--lang", "en"]) == 2
    said = capsys.readouterr().err
    assert said.startswith(english), said
    assert main([*args, "--lang", "de"]) == 2
    gesagt = capsys.readouterr().err
    assert gesagt.startswith(german) and gesagt != said, gesagt

