"""What every kind's words must be: said whole in English and in German, the German its own."""

from __future__ import annotations

import re

PLACEHOLDER = re.compile(r"\{\w*(![rs])?(:[^{}]*)?\}")  # one left unfilled


def assert_said_apart(english: str, german: str) -> None:
    assert english and german and not PLACEHOLDER.search(english + german) and english != german, (english, german)
