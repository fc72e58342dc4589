"""The error of a malformed or impossible position, below both modules that raise it:
``position.py`` (the JSON form, validation) and ``position_text.py`` (the text form)."""

from __future__ import annotations


class InvalidPositionError(ValueError):
    """A position that is malformed or impossible; the message names the problem."""
