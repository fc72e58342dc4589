"""The refusal of a page's request (requests.py, setups.py): the text the player sees."""

from __future__ import annotations

from typing import Any

from keezbord.engine.text import Text


class HubError(ValueError):
    """A page's request that cannot be done; ``text`` is shown to the player; ``extra``:
    fields the error message carries besides (``confirm``: web/ending.py)."""

    def __init__(self, text: Text, extra: dict[str, Any] | None = None) -> None:
        super().__init__(text.en)
        self.text = text
        self.extra = extra or {}
