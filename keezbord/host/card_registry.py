"""The card registry: which RFID tag sits on which card, and enrolling a deck.

Stored as JSON beside the board configuration::

    {"version": 1, "tags": {"04A1B2C3D4E5F6": "K", "0F00A1B2C3": "7"}}

The ``tags`` object has the same shape as a sensor trace's ``"tags"`` (FORMATS.md).
Enrollment is a pure state machine: the deck to enroll, in a shown order, and the
registry so far; every tap gives a new state and an outcome to show. It resumes from
whatever the saved registry already holds.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from keezbord.engine.cards import RANKS, deck
from keezbord.engine.text import Text, card_name
from keezbord.host.jsontext import JsonTextError, loads

REGISTRY_VERSION: Final = 1
# PN532 UIDs of 4, 7 or 10 bytes; RDM6300 tags of 5 bytes: as upper-case hex.
TAG_LENGTHS: Final = (8, 10, 14, 20)
_TAG_RE = re.compile(r"[0-9A-F]+")


class RegistryError(ValueError):
    """A registry file that cannot be used."""


class UnknownTagError(LookupError):
    def __init__(self, tag: str) -> None:
        self.tag = tag
        self.text = unknown_tag_text(tag)
        super().__init__(self.text.en)


def unknown_tag_text(tag: str) -> Text:
    return Text(
        nl=f"onbekende kaart (tag {tag}): deze kaart is niet ingelezen; "
        "lees het spel in met 'keezbord cards enroll'",
        en=f"unknown card (tag {tag}): this card was never enrolled; "
        "enroll the deck with 'keezbord cards enroll'",
    )


def normalise_tag(text: str) -> str | None:
    """The tag in canonical form (upper-case hex of a known length), or None if garbled."""
    if not isinstance(text, str):
        return None
    t = text.strip().upper()
    return t if len(t) in TAG_LENGTHS and _TAG_RE.fullmatch(t) else None


@dataclass(frozen=True)
class CardRegistry:
    tags: Mapping[str, str] = field(default_factory=dict)

    def card_for(self, tag: str) -> str | None:
        t = normalise_tag(tag)
        return None if t is None else self.tags.get(t)

    def lookup(self, tag: str) -> str:
        card = self.card_for(tag)
        if card is None:
            raise UnknownTagError(tag)
        return card

    def with_tag(self, tag: str, card: str) -> CardRegistry:
        return CardRegistry({**self.tags, tag: card})

    def counts(self) -> Counter[str]:
        return Counter(self.tags.values())

    def to_json(self) -> dict[str, Any]:
        order = {r: i for i, r in enumerate(RANKS)}
        items = sorted(self.tags.items(), key=lambda kv: (order[kv[1]], kv[0]))
        return {"version": REGISTRY_VERSION, "tags": dict(items)}

    @classmethod
    def from_json(cls, data: Any, source: str = "registry") -> CardRegistry:
        if not isinstance(data, dict) or not isinstance(data.get("tags"), dict):
            raise RegistryError(f"{source}: expected an object with a 'tags' object")
        if data.get("version", REGISTRY_VERSION) != REGISTRY_VERSION:
            raise RegistryError(f"{source}: unsupported version {data.get('version')!r}")
        tags: dict[str, str] = {}
        for tag, card in data["tags"].items():
            t = normalise_tag(tag)
            if t is None:
                raise RegistryError(f"{source}: tags: {tag!r} is not a tag (hex UID)")
            if card not in RANKS:
                raise RegistryError(f"{source}: tags.{tag}: {card!r} is not a card")
            tags[t] = card
        return cls(tags)


def load_registry(path: Path, missing_ok: bool = True) -> CardRegistry:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        if missing_ok:
            return CardRegistry()
        raise
    try:
        data = loads(text)
    except JsonTextError as e:
        raise RegistryError(f"{path}: {e}") from None
    return CardRegistry.from_json(data, str(path))


def save_registry(reg: CardRegistry, path: Path) -> None:
    """Write atomically: a temporary file in the same folder, synced, then renamed over."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(reg.to_json(), f, indent=1)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# --- enrollment ------------------------------------------------------------------------------

Outcome = Literal["enrolled", "duplicate", "garbled"]


@dataclass(frozen=True, slots=True)
class TapResult:
    outcome: Outcome
    card: str | None  # the card enrolled, or the card the duplicate tag already is
    text: Text


@dataclass(frozen=True)
class Enrollment:
    """Enrolling the deck for ``seats`` seats (13 cards a seat) into ``registry``."""

    seats: int
    registry: CardRegistry

    @property
    def deck(self) -> tuple[str, ...]:
        return tuple(deck(self.seats))

    def remaining(self) -> list[str]:
        """Cards still to tap, in deck order (what the registry holds counts as done)."""
        have = self.registry.counts()
        out = []
        for card in self.deck:
            if have[card] > 0:
                have[card] -= 1
            else:
                out.append(card)
        return out

    def next_card(self) -> str | None:
        rest = self.remaining()
        return rest[0] if rest else None

    def progress(self) -> tuple[int, int]:
        total = len(self.deck)
        return total - len(self.remaining()), total

    def prompt(self) -> Text:
        card = self.next_card()
        done, total = self.progress()
        if card is None:
            return Text(
                nl=f"klaar: alle {total} kaarten zijn ingelezen",
                en=f"done: all {total} cards are enrolled",
            )
        of_rank = self.deck.count(card)
        k = of_rank - self.remaining().count(card) + 1
        n = card_name(card)
        return Text(
            nl=f"[{done + 1}/{total}] leg {n.nl} ({k} van {of_rank}) op de lezer",
            en=f"[{done + 1}/{total}] put {n.en} ({k} of {of_rank}) on the reader",
        )

    def tap(self, raw_tag: str) -> tuple[Enrollment, TapResult]:
        tag = normalise_tag(raw_tag)
        if tag is None:
            return self, TapResult(
                "garbled",
                None,
                Text(
                    nl=f"onleesbare tag {raw_tag!r}: leg de kaart nog eens op de lezer",
                    en=f"unreadable tag {raw_tag!r}: put the card on the reader again",
                ),
            )
        known = self.registry.tags.get(tag)
        if known is not None:
            n = card_name(known)
            return self, TapResult(
                "duplicate",
                known,
                Text(
                    nl=f"deze kaart is al ingelezen als {n.nl} (tag {tag}): neem de volgende",
                    en=f"this card is already enrolled as {n.en} (tag {tag}): take the next",
                ),
            )
        card = self.next_card()
        if card is None:
            return self, TapResult(
                "duplicate",
                None,
                Text(nl="alle kaarten zijn al ingelezen", en="every card is already enrolled"),
            )
        n = card_name(card)
        nxt = Enrollment(self.seats, self.registry.with_tag(tag, card))
        return nxt, TapResult(
            "enrolled",
            card,
            Text(nl=f"{n.nl} ingelezen (tag {tag})", en=f"{n.en} enrolled (tag {tag})"),
        )
