"""Settings for a game against the computer are refused with a kind and its facts; the page and `crib play` say
it in their reader's language, both at once in one process."""

from __future__ import annotations

import pytest

from companion.i18n import language
from companion.play.computer import Settings, SettingsError
from companion.words.opponents import SettingsRefusal, Unset, settings_words

EN, DE = language("en"), language("de")
SAMPLES = [  # one refusal of each kind, with the facts its words need
    SettingsRefusal(Unset.NAME, ("Pro",), most=12), SettingsRefusal(Unset.LEVELS, ("easy", "standard", "pro")),
    SettingsRefusal(Unset.NAMES, most=12), SettingsRefusal(Unset.TARGET, count=99),
    SettingsRefusal(Unset.MATCH, count=9, most=7),
]


def test_every_kind_has_a_sample_here():
    assert {r.why for r in SAMPLES} == set(Unset)


@pytest.mark.parametrize("refusal", SAMPLES, ids=str)
def test_each_refusal_has_words_in_english_and_its_own_in_german(refusal):
    english, german = settings_words(refusal, EN), settings_words(refusal, DE)
    assert english and german and "{" not in english + german and english != german


@pytest.mark.parametrize(("data", "refusal"), [
    ({"person": "Pro", "levels": ["pro"]}, SettingsRefusal(Unset.NAME, ("Pro",), most=12)),
    ({"levels": ["wizard"]}, SettingsRefusal(Unset.LEVELS, ("easy", "standard", "pro"))),
    ({"levels": ["pro"], "names": ["Profi", "Leicht"]}, SettingsRefusal(Unset.NAMES, most=12)),
    ({"target": 99}, SettingsRefusal(Unset.TARGET, count=99)),
    ({"match": 9}, SettingsRefusal(Unset.MATCH, count=9, most=7)),
])
def test_settings_refuse_with_facts_not_words(data, refusal):
    with pytest.raises(SettingsError) as raised:
        Settings.from_json(data)
    assert raised.value.settings_refusal == refusal and str(raised.value) == str(refusal)  # for logs: the code


def test_one_refusal_in_english_and_german_in_one_process():
    with pytest.raises(SettingsError) as raised:
        Settings("Guest", ("pro",), target=99)
    assert (settings_words(raised.value.settings_refusal, EN), settings_words(raised.value.settings_refusal, DE)) == (
        "a game is to 121 or 61 points, not 99", "ein Spiel geht bis 121 oder 61 Punkte, nicht 99")
