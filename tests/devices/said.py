"""A device's problem as an English reader is told it (what the status screen, `crib state` and the journal say)."""

from __future__ import annotations

from companion.i18n import ENGLISH
from companion.words.devices import DeviceProblem, device_words


def said(problem: DeviceProblem | None) -> str:
    """Its English words; "" for a device that works."""
    return "" if problem is None else device_words(problem, ENGLISH)
