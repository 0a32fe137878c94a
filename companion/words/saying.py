"""One way every typed error is said: its refusal, whichever layer raised it, in the language handed.

Every error raised on purpose carries its reason as a value in `error.refusal` (a code and its facts, never
words): the engine's `Refusal`, the advice's `AdviceRefusal`, the settings' `SettingsRefusal`, a selection of
games' `SelectionRefusal`, the table's `Message` (a command out of place), a device's `DeviceProblem`, a game
log's `Finding`. An edge that tells a person (cli.py's one `except CribbageError` for every command, the daemon,
the terminal game) says any of them here, in that person's language:

    from companion.words.saying import error_words
    error_words(error, language("de"))        # "es werden sechs Karten gegeben (...); erhalten: 4"
"""

from __future__ import annotations

from typing import Protocol

from companion.base.textlines import Unreadable
from companion.base.usage import CommandError
from companion.cribbage.refusals import Refusal
from companion.i18n import Language, _, current

from .advice import AdviceRefusal
from .advice import refusal_words as advice_words
from .devices import DeviceProblem, device_words
from .logbook import Finding, finding_words
from .messages import Message
from .opponents import SettingsRefusal, settings_words
from .phrases import message_words
from .phrases import refusal as engine_words
from .statistics import SelectionRefusal, selection_words


class Raised(Protocol):
    """An error that carries its reason as a value (None: it was raised with words of its own)."""

    @property
    def refusal(self) -> object: ...


def error_words(error: Raised, lang: Language | None = None) -> str:
    """An error as the person who caused it reads it, in `lang`: its refusal said, else its own words."""
    return str(error) if error.refusal is None else refusal_words(error.refusal, lang or current())


def refusal_words(refusal: object, lang: Language) -> str:
    """Any typed refusal in `lang`, by its type: the one dispatcher from a value to its renderer."""
    if isinstance(refusal, Refusal):
        return engine_words(refusal, lang)
    if isinstance(refusal, AdviceRefusal):
        return advice_words(refusal, lang)
    if isinstance(refusal, SettingsRefusal):
        return settings_words(refusal, lang)
    if isinstance(refusal, SelectionRefusal):
        return selection_words(refusal, lang)
    if isinstance(refusal, Message):  # the table's (a CommandMistake's)
        return message_words(refusal, lang)
    if isinstance(refusal, DeviceProblem):  # a DeviceError's
        return device_words(refusal, lang)
    if isinstance(refusal, Finding):  # a GameLogError's
        return finding_words(refusal, lang)
    raise TypeError(f"no words for a {type(refusal).__name__}: add its renderer to words.saying.refusal_words")


def command_words(error: CommandError) -> str:
    """A command's refusal in the current language: its own words, made so where it was raised, or a text that
    cannot be read, said here from its facts (base.textlines, which reads it, has no catalog):
    `crib` says any refusal of a command here, and `crib score --batch` its bad lines."""
    if not isinstance(error, Unreadable):
        return str(error)
    name = _("standard input") if error.name == "-" else error.name
    if error.line == 0:
        return _("cannot read {path}: {strerror}; give a readable file or '-'").format(path=name, strerror=error.error)
    return _("{name}: line {number} is not UTF-8 text (byte {byte} at column {column}): save it as UTF-8, or type "
             "that line again").format(name=name, number=error.line, byte=f"{error.byte:#04x}", column=error.column)
