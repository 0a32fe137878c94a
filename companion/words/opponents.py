"""Why settings for a game against the computer are refused, as values, and their words in the language handed.

`companion.play.computer.Settings` refuses a person's name, the computer players' levels or names, the target or
the match with a `SettingsRefusal` (a kind and its facts, in `SettingsError`); the page and `crib play` say it in
their reader's language:

    settings_words(error.refusal, language("de"))   # "ein Spiel geht bis 121 oder 61 Punkte, nicht 99"
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from companion.cribbage.refusals import coded
from companion.i18n import N_, Language


class Unset(StrEnum):
    """What is wrong with the settings (the value is its code). The fields each one fills are listed."""

    NAME = "name"  # most: the longest name, names: the computer players' names
    LEVELS = "levels"  # names: the levels there are
    NAMES = "names"  # most: the longest name
    TARGET = "target"  # count: the target given
    MATCH = "match"  # count: the match given, most: the longest match
    # the settings' shape, as JSON
    NOT_OBJECT = "not_object"
    UNKNOWN = "unknown"  # text: the setting given, names: the settings there are
    PERSON_LEVELS = "person_levels"  # person is no name, or levels no list of names
    NUMBERS = "numbers"  # target, match or seed is no whole number
    FLAGS = "flags"  # muggins or feedback is not true or false
    NAMES_LIST = "names_list"  # names is no list of names


@dataclass(frozen=True, slots=True)
class SettingsRefusal:
    why: Unset
    names: tuple[str, ...] = ()
    count: int | None = None
    most: int | None = None
    text: str = ""

    def __str__(self) -> str:
        return coded(self)


def settings_words(refusal: SettingsRefusal, lang: Language) -> str:
    """What is wrong with the settings, and what they may be."""
    _ = lang.gettext
    if refusal.why is Unset.NAME:
        return _("your name is 1 to {most} characters and not a computer player's name ({computers})").format(
            most=refusal.most, computers=", ".join(refusal.names))
    if refusal.why is Unset.LEVELS:
        return _("play against one to three computer players, each {levels}").format(levels=", ".join(refusal.names))
    if refusal.why is Unset.NAMES:
        return _("names are one for each computer player, of 1 to {most} characters").format(most=refusal.most)
    if refusal.why is Unset.TARGET:
        return _("a game is to 121 or 61 points, not {target}").format(target=refusal.count)
    if refusal.why is Unset.MATCH:
        return _("a match is to 1 to {most} games, not {match}").format(most=refusal.most, match=refusal.count)
    if refusal.why is Unset.UNKNOWN:
        return _("unknown setting {name!r}: the settings are {known}").format(name=refusal.text,
                                                                              known=", ".join(refusal.names))
    return _(SHAPES[refusal.why])


SHAPES = {  # what the settings' JSON must be
    Unset.NOT_OBJECT: N_('the settings are a JSON object like {"person": "Guest", "levels": ["easy"], "target": 121}'),
    Unset.PERSON_LEVELS: N_('person is a name and levels a list like ["easy", "pro"]'),
    Unset.NUMBERS: N_("target, match and seed are whole numbers"),
    Unset.FLAGS: N_("muggins and feedback are true or false"),
    Unset.NAMES_LIST: N_("names is a list of the computer players' names"),
}
