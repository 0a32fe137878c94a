"""CPython stand-in for the `micropython` module."""

from __future__ import annotations


def kbd_intr(char: int) -> None:
    """Nothing to switch off under CPython."""
