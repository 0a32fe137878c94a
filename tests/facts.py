"""The engine's typed facts read back as the tests state them: sides by their names, scores by their names."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from companion.cribbage.errors import CribbageError
from companion.cribbage.facts import ScoreEvent, Side
from companion.i18n import ENGLISH
from companion.words.phrases import event_name, event_words, side_name
from companion.words.saying import error_words


def by_name(table: Mapping[Side, int]) -> dict[str, int]:
    """{"Ann": 12, "Bob": 7}, or {"Ann & Cat": ...} for partners."""
    return {side_name(side): value for side, value in table.items()}


def name(side: Side | None) -> str | None:
    return None if side is None else side_name(side)


def label(event: ScoreEvent) -> str:
    """The score's name as the table says it: "Bob's hand", "go"."""
    return event_name(event)


def said(event: ScoreEvent) -> str:
    """The score as the table hears it: the count, then its notes."""
    return event_words(event)


def scores_of(state: Mapping[str, Any]) -> dict[str, int]:
    """The sides' scores of a state's JSON projection, by the sides' names: {"Ann": 121, "Bob": 104}."""
    return {side["name"]: side["score"] for side in state["sides"]}


def winner_of(state: Mapping[str, Any]) -> str | None:
    """The name of the side a state's JSON projection says won, or None."""
    return None if state["winner"] is None else state["sides"][state["winner"]]["name"]


def refused_words(error: BaseException) -> str:
    """An engine error as an English player reads it."""
    assert isinstance(error, CribbageError)
    return error_words(error, ENGLISH)


@contextlib.contextmanager
def refused(kind: type[CribbageError], match: str) -> Iterator[pytest.ExceptionInfo[CribbageError]]:
    """Like pytest.raises(kind, match=...), the words matched being the refusal's as an English player reads it."""
    with pytest.raises(kind) as caught:
        yield caught
    words = refused_words(caught.value)
    assert re.search(match, words), f"{match!r} not in {words!r}"
