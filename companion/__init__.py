"""Cribbage Companion: an electronic cribbage board that scores real cards."""

__version__ = "0.1.0"
