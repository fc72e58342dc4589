"""The refusal of a page's request: ``HubError`` carries the text the player sees, in
both languages (requests.py and remote.py raise it, app.py answers with it)."""

from __future__ import annotations

from keezbord.engine.text import Text


class HubError(ValueError):
    """A page's request that cannot be done; ``text`` is shown to the player."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.en)
        self.text = text
