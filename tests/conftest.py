"""Every test starts in English with an English system locale, whatever the machine's, and leaves it so."""

from __future__ import annotations

import pytest

from companion import i18n


@pytest.fixture(autouse=True)
def english(monkeypatch):
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    i18n.use("en")
    yield
    i18n.use("en")
