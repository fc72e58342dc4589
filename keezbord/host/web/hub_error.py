"""The refusal of a page's request (requests.py, setups.py): the text the player sees."""

from __future__ import annotations

from keezbord.engine.text import Text


class HubError(ValueError):
    """A page's request that cannot be done; ``text`` is shown to the player."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.en)
        self.text = text
