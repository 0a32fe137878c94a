"""Settings for a game against the computer are refused with a kind and its facts; the page and `crib play` say
it in their reader's language, both at once in one process."""

from __future__ import annotations

import pytest

from companion.i18n import language
from companion.play.computer import Settings, SettingsError
from companion.words.opponents import SettingsRefusal, Unset, settings_words
from tests.words.bilingual import assert_said_apart

EN, DE = language("en"), language("de")
SAMPLES = [  # one refusal of each kind, with the facts its words need
    SettingsRefusal(Unset.NAME, ("Pro",), most=12), SettingsRefusal(Unset.LEVELS, ("easy", "standard", "pro")),
    SettingsRefusal(Unset.NAMES, most=12), SettingsRefusal(Unset.TARGET, count=99),
    SettingsRefusal(Unset.MATCH, count=9, most=7), SettingsRefusal(Unset.NOT_OBJECT),
    SettingsRefusal(Unset.UNKNOWN, ("levels", "person"), text="colour"), SettingsRefusal(Unset.PERSON_LEVELS),
    SettingsRefusal(Unset.NUMBERS), SettingsRefusal(Unset.FLAGS), SettingsRefusal(Unset.NAMES_LIST),
]


def test_every_kind_has_a_sample_here():
    assert {r.why for r in SAMPLES} == set(Unset)


@pytest.mark.parametrize("refusal", SAMPLES, ids=str)
def test_each_refusal_has_words_in_english_and_its_own_in_german(refusal):
    english, german = settings_words(refusal, EN), settings_words(refusal, DE)
    assert_said_apart(english, german)


@pytest.mark.parametrize(("data", "refusal"), [
    ({"person": "Pro", "levels": ["pro"]}, SettingsRefusal(Unset.NAME, ("Pro",), most=12)),
    ({"levels": ["wizard"]}, SettingsRefusal(Unset.LEVELS, ("easy", "standard", "pro"))),
    ({"levels": ["pro"], "names": ["Profi", "Leicht"]}, SettingsRefusal(Unset.NAMES, most=12)),
    ({"target": 99}, SettingsRefusal(Unset.TARGET, count=99)),
    ({"match": 9}, SettingsRefusal(Unset.MATCH, count=9, most=7)),
    ([], SettingsRefusal(Unset.NOT_OBJECT)),
    ({"colour": "red"}, SettingsRefusal(Unset.UNKNOWN, ("feedback", "levels", "match", "muggins", "names", "person",
                                                       "seed", "target"), text="colour")),
    ({"levels": "pro"}, SettingsRefusal(Unset.PERSON_LEVELS)),
    ({"seed": 1.5}, SettingsRefusal(Unset.NUMBERS)),
    ({"muggins": 1}, SettingsRefusal(Unset.FLAGS)),
    ({"names": "Profi"}, SettingsRefusal(Unset.NAMES_LIST)),
])
def test_settings_refuse_with_facts_not_words(data, refusal):
    with pytest.raises(SettingsError) as raised:
        Settings.from_json(data)
    assert raised.value.refusal == refusal and str(raised.value) == str(refusal)  # for logs: the code


def test_one_refusal_in_english_and_german_in_one_process():
    with pytest.raises(SettingsError) as raised:
        Settings("Guest", ("pro",), target=99)
    assert (settings_words(raised.value.refusal, EN), settings_words(raised.value.refusal, DE)) == (
        "a game is to 121 or 61 points, not 99", "ein Spiel geht bis 121 oder 61 Punkte, nicht 99")


@pytest.mark.parametrize(("data", "english"), [
    ([], 'the settings are a JSON object like {"person": "Guest", "levels": ["easy"], "target": 121}'),
    ({"colour": "red"}, "unknown setting 'colour': the settings are feedback, levels, match, muggins, names, person, "
                        "seed, target"),
    ({"levels": "pro"}, 'person is a name and levels a list like ["easy", "pro"]'),
    ({"seed": 1.5}, "target, match and seed are whole numbers"),
    ({"muggins": 1}, "muggins and feedback are true or false"),
    ({"names": "Profi"}, "names is a list of the computer players' names"),
])
def test_the_settings_json_shape_is_refused_in_the_words_it_had_and_in_german(data, english):
    with pytest.raises(SettingsError) as raised:
        Settings.from_json(data)
    assert settings_words(raised.value.refusal, EN) == english
    assert settings_words(raised.value.refusal, DE) != english
