"""Cribbage Companion: an electronic cribbage board that scores real cards.

The version is the installed package's (pyproject.toml; `crib --version`, `companion.cli.version()`).
"""
