"""The game's log of every action, for the page's move list and "Export moves" (issue 13):
who played which card with whose pawn, hands shown (with their cards), the partner
exchange, undo, penalties, the referee's decisions, flagged moves, and every deal (round,
dealer) as a separator.

``ActionLog`` is fed the referee's decision records as the hub gets them (and, once, the
journal's when a game is opened). Entries are small dicts, append-only, each with its
words in both languages (``text``); an entry never changes once made, so a page is sent
only the entries it does not have yet (page.HistoryFeed).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from keezbord.engine.describe import colour
from keezbord.engine.text import Text, card_label, card_name
from keezbord.host.referee import MoveRecord, RefereeState
from keezbord.host.session import GameSession
from keezbord.host.sim.table import SimTable

Entry = dict[str, Any]

# The decisions the simulator's table follows (sim.sync), and what it reads of them.
_SIM_TYPES = frozenset({"move", "discard", "penalty", "undo"})
_SIM_KEYS = ("type", "move", "ok", "seat")


def for_sim(records: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """What the hub keeps of the referee's decision records for the simulator's table:
    the four kinds it follows, each with the fields it reads (not a move's position), so
    a long game's list stays small."""
    return [{k: r[k] for k in _SIM_KEYS if k in r} for r in records if r.get("type") in _SIM_TYPES]


def _names(seats: Iterable[int]) -> Text:
    cs = [colour(s) for s in seats]
    return Text(" en ".join(c.nl for c in cs), " and ".join(c.en for c in cs))


class ActionLog:
    def __init__(self, state: RefereeState) -> None:
        self.entries: list[Entry] = []
        self._exchanged: set[str] = set()
        self._n = 0  # moves in the history so far (an undo takes one back)
        self.cards: dict[int, dict[str, Any]] = {}  # exchange entry -> its card
        self.undone: list[int] = []  # the entries of moves taken back (struck on the page)
        first = state.history[0].table_before if state.history else state.table
        self._deal(first.shuffle_no, first.round_no, first.dealer, first.round_size)

    # -- feeding -----------------------------------------------------------------------

    def add(
        self,
        record: Mapping[str, Any],
        state: RefereeState,
        discard_cards: Sequence[str] | None = None,
        pawn_seat: Mapping[str, int | None] | None = None,
    ) -> None:
        """One decision record, just made (``state``: the referee's state after it;
        ``pawn_seat``: whose pawn stands where, kept with a flagged move for its review)."""
        kind = record.get("type")
        seat = record.get("seat")
        if kind == "move":
            self._move(record, state.history)
        elif kind == "turn" and record.get("deal"):
            deal = record["deal"]
            t = state.table
            self._deal(t.shuffle_no, t.round_no, deal.get("dealer", t.dealer), deal.get("cards"))
        elif kind == "discard" and record.get("ok") and isinstance(seat, int):
            who = colour(seat)
            cards = list(discard_cards or [])
            if cards:  # as a deck prints them: H, V, B in Dutch
                nl = ", ".join(card_label(c).nl for c in cards)
                en = ", ".join(cards)
                text = Text(
                    f"{who.nl} laat de hand zien ({nl}): geen kaart speelbaar, past",
                    f"{who.en} shows the hand ({en}): no card playable, passes",
                )
            else:
                text = Text(
                    f"{who.nl} laat de hand zien: geen kaart speelbaar, past",
                    f"{who.en} shows the hand: no card playable, passes",
                )
            self._add({"kind": "discard", "seat": seat, "cards": cards}, text, state)
        elif kind == "undo" and record.get("ok"):
            who = colour(seat) if isinstance(seat, int) else Text("?", "?")
            what = record.get("move") or record.get("card") or ""
            # A move in its own entry's words (notation names cards by English letters);
            # a card alone (a second card taken back) as a deck prints it.
            struck = self._undone(what) if record.get("move") else None
            if struck is not None:
                gone = Text(f"teruggenomen: {struck['nl']}", f"taken back: {struck['en']}")
            else:
                nl_what = what if record.get("move") else card_label(what).nl
                gone = Text(
                    f"teruggenomen: {nl_what} van {who.nl}", f"taken back: {who.en}'s {what}"
                )
            self._add({"kind": "undo", "seat": seat, "move": what}, gone, state)
        elif kind == "penalty" and record.get("ok") and isinstance(seat, int):
            why = record.get("reason") or {}
            self._add(
                {"kind": "penalty", "seat": seat, "pawn": record.get("pawn")},
                Text(
                    f"strafzet voor {colour(seat).nl}: {why.get('nl', '')}".rstrip(": "),
                    f"penalty for {colour(seat).en}: {why.get('en', '')}".rstrip(": "),
                ),
                state,
            )
        elif kind == "illegal" and isinstance(seat, int):
            why = record.get("reason") or {}
            who = colour(seat)
            self._add(
                {
                    "kind": "illegal",
                    "seat": seat,
                    "card": state.card,
                    "holes": list(record.get("holes") or []),
                    "reason": dict(why),
                    "board": [
                        {"hole": h, "seat": (pawn_seat or {}).get(h)} for h in sorted(state.sensed)
                    ],
                },
                _with_reason(f"ongeldige zet van {who.nl}", f"illegal move by {who.en}", record),
                state,
            )
        elif kind == "second_card" and isinstance(seat, int):
            who = colour(seat)
            self._add(
                {"kind": "second_card", "seat": seat, "cards": list(record.get("cards") or [])},
                _with_reason(f"tweede kaart van {who.nl}", f"second card by {who.en}", record),
                state,
            )
        elif kind == "lit" and isinstance(seat, int):
            # A move chosen far away, lit for the table (docs/remote.md).
            self._add(
                {"kind": "lit", "seat": seat, "move": record.get("move")},
                _with_reason("aan tafel uit te voeren", "to carry out at the table", record),
                state,
            )
        elif kind == "overrule" and record.get("ok"):
            self._add(
                {"kind": "overrule"},
                _with_reason("de scheidsrechter beslist", "the referee decides", record),
                state,
            )
        elif kind == "time_limit" and record.get("ok"):
            self._add(
                {"kind": "time_limit"},
                Text("gestopt op de tijdslimiet", "stopped at the time limit"),
                state,
            )
        elif kind == "win":
            seats = list(record.get("seats") or [])
            names = _names(seats)
            many = len(seats) > 1
            self._add(
                {"kind": "win", "seats": seats},
                Text(
                    f"{'team ' if many else ''}{names.nl} {'winnen' if many else 'wint'}",
                    f"{'team ' if many else ''}{names.en} {'win' if many else 'wins'}",
                ),
                state,
            )

    def exchanges(self, sim: SimTable | None, state: RefereeState) -> None:
        """The partner exchanges the simulator made since the last call (reiseditie):
        who gave whom which card (the card is for the receiver: for_role hides it)."""
        if sim is None or sim.waiting:
            return
        for key, given in sim.info.exchanges.items():
            if key in self._exchanged or not any(given):
                continue
            self._exchanged.add(key)
            for seat, card in enumerate(given):
                to = sim.partner(seat)
                if not card or to is None:
                    continue
                a, b, c = colour(seat), colour(to), card_name(card)
                entry = {"kind": "exchange", "seat": seat, "to": to}
                # The card is not in the entry (every page gets the entries): it is kept
                # apart, for the pages that may see hands (page.for_role).
                self.cards[len(self.entries)] = {
                    "card": card,
                    "text": Text(
                        f"{a.nl} geeft {b.nl} {c.nl}", f"{a.en} gives {b.en} {c.en}"
                    ).as_dict(),
                }
                self._add(
                    entry,
                    Text(f"{a.nl} geeft {b.nl} een kaart", f"{a.en} gives {b.en} a card"),
                    state,
                )

    def _undone(self, move: str) -> dict[str, str] | None:
        """The move just taken back: its entry (the last one of that number still
        standing) is struck, so no move number shows twice. Its words, when found."""
        for e in reversed(self.entries):
            if e["kind"] == "move" and e["n"] == self._n and e["i"] not in self.undone:
                if e["move"] == move or not move:
                    self.undone.append(e["i"])
                    return dict(e["text"])
                return None
        return None

    def seen_exchanges(self, sim: SimTable | None) -> None:
        """At opening: exchanges already made are not news."""
        if sim is not None:
            self._exchanged |= {k for k, g in sim.info.exchanges.items() if any(g)}

    # -- entries -------------------------------------------------------------------------

    def _add(self, entry: Entry, text: Text, state: RefereeState) -> None:
        if entry["kind"] == "undo":
            self._n = max(0, self._n - 1)
        entry["i"] = len(self.entries)
        entry["n"] = self._n  # moves made so far: the move number it follows
        entry["text"] = text.as_dict()
        self.entries.append(entry)

    def _deal(self, shuffle: int, round_no: int, dealer: int, cards: int | None) -> None:
        who = colour(dealer)
        many = f" {cards}" if cards else ""
        text = Text(
            f"ronde {round_no + 1} (schudbeurt {shuffle + 1}): {who.nl} deelt{many} kaarten",
            f"round {round_no + 1} (shuffle {shuffle + 1}): {who.en} deals{many} cards",
        )
        entry: Entry = {
            "kind": "deal",
            "deal": shuffle,
            "round": round_no,
            "dealer": dealer,
            "cards": cards,
            "i": len(self.entries),
            "n": self._n,
            "text": text.as_dict(),
        }
        self.entries.append(entry)

    def _move(self, record: Mapping[str, Any], history: Sequence[MoveRecord]) -> None:
        from .page import played_in_words

        rec = history[-1] if history else None
        seat = record.get("seat")
        text = record.get("move", "")
        t = record.get("t")
        if rec is not None and rec.text == text:
            # The referee's own string and int: the record's copies (a resumed game's,
            # parsed from the journal) are not kept for the rest of the game.
            text, t = rec.text, rec.t
            words = played_in_words(rec)
            card = rec.card
        else:  # not the last accepted move (replayed from the journal): its notation
            who = colour(seat) if isinstance(seat, int) else Text("?", "?")
            words = Text(f"{who.nl}: {text}", f"{who.en}: {text}")
            card = text.split(" ", 1)[0]
        entry: Entry = {
            "kind": "move",
            "seat": seat,
            "card": card,
            "move": text,
            "t": t,
        }
        if record.get("overruled"):
            entry["overruled"] = record["overruled"]
        self._n += 1
        entry["i"] = len(self.entries)
        entry["n"] = self._n
        entry["text"] = words.as_dict()
        self.entries.append(entry)

    def lines(self, cards: bool = True) -> list[str]:
        """The log as text lines, for "Export moves": moves numbered as in the move list
        (notation, Dutch, English), every other action indented with its words; the cards
        of partner exchanges only with ``cards`` (not for spectators, as on the page)."""
        out = []
        for e in self.entries:
            text = (self.cards.get(e["i"], e) if cards else e)["text"]
            if e["kind"] == "move":
                note = f"\t(overruled: {e['overruled']})" if e.get("overruled") else ""
                out.append(f"{e['n']}. {e['move']}\t{text['nl']}\t{text['en']}{note}")
            elif e["kind"] == "deal":
                out.append(f"-- {text['nl']}\t{text['en']}")
            else:
                out.append(f"   {text['nl']}\t{text['en']}")
        return out


def opened(session: GameSession) -> tuple[list[dict[str, Any]], ActionLog]:
    """A game just opened: the decision records the simulator's table follows, and the
    log of its actions so far (from the journal)."""
    log = ActionLog(session.state)
    kept: list[dict[str, Any]] = []

    def records() -> Iterator[dict[str, Any]]:
        # Streamed from the journal: what is kept of each is the log's entry and the
        # simulator's few fields, not the record (a move's carries its position).
        for rec in session.journal.iter_decisions(session.game):
            kept.extend(for_sim((rec,)))
            yield rec

    replay(log, records(), session.state)
    return kept, log


def replay(log: ActionLog, records: Iterable[Mapping[str, Any]], state: RefereeState) -> None:
    """A game opened from the journal: its decisions into ``log``. The moves still in the
    history get their words; moves taken back since keep their notation."""
    by_t: dict[tuple[Any, Any], int] = {(r.t, r.text): i for i, r in enumerate(state.history)}
    for rec in records:
        if rec.get("type") == "move":
            i = by_t.get((rec.get("t"), rec.get("move")))
            log._move(rec, state.history[: i + 1] if i is not None else ())
        elif rec.get("type") == "turn" and rec.get("deal"):
            # The journal's deal says the dealer and the cards; a deal of at least as
            # many cards as the last one starts a new shuffle.
            deal = rec["deal"]
            prev = next(e for e in reversed(log.entries) if e["kind"] == "deal")
            cards = deal.get("cards") or 0
            new_shuffle = cards >= (prev.get("cards") or 0)
            shuffle = prev["deal"] + 1 if new_shuffle else prev["deal"]
            round_no = 0 if new_shuffle else prev["round"] + 1
            log._deal(shuffle, round_no, deal.get("dealer", 0), deal.get("cards"))
        else:
            log.add(rec, state)


def review(entry: Mapping[str, Any], state: RefereeState) -> dict[str, Any] | None:
    """What the review of one log entry shows (a move, or a flagged move): the positions
    before and after as pawns on holes, the holes a move left and reached, the card, who
    played it and its words; for a flagged move the rule broken. None for a move taken
    back since (it is no longer in the history)."""
    history = state.history
    kind = entry.get("kind")
    out: dict[str, Any] = {
        "i": entry.get("i"),
        "n": entry.get("n"),
        "kind": kind,
        "seat": entry.get("seat"),
        "text": entry.get("text"),
    }
    if kind == "move":
        rec = next(
            (r for r in history if r.t == entry.get("t") and r.text == entry.get("move")), None
        )
        if rec is None:
            return None
        before, after = pawns_of(rec.before), pawns_of(rec.after)
        b = {p["hole"]: p["seat"] for p in before}
        a = {p["hole"]: p["seat"] for p in after}
        out.update(
            card=rec.card,
            move=rec.text,
            before=before,
            after=after,
            left=sorted(h for h in b if a.get(h) != b[h]),
            reached=sorted(h for h in a if b.get(h) != a[h]),
            overruled=rec.overruled,
        )
        return out
    if kind == "illegal":
        n = int(entry.get("n") or 0)
        pos = (
            history[n - 1].after
            if 0 < n <= len(history)
            else (history[0].before if history else state.pos)
        )
        pawns = pawns_of(pos)
        out.update(
            card=entry.get("card"),
            before=pawns,
            after=entry.get("board") or pawns,  # the board as it was sensed
            left=[],
            reached=list(entry.get("holes") or []),
            reason=entry.get("reason"),
        )
        return out
    return None


def pawns_of(pos: Any) -> list[dict[str, Any]]:
    """A position as the page draws it: every pawn on its hole, with its seat."""
    return sorted(
        ({"hole": h.name, "seat": s} for h, s in pos.occupancy().items()),
        key=lambda p: str(p["hole"]),
    )


def _with_reason(nl: str, en: str, record: Mapping[str, Any]) -> Text:
    """``nl``/``en`` followed by the record's reason in that language."""
    why = record.get("reason") or {}
    return Text(f"{nl}: {why.get('nl', '')}", f"{en}: {why.get('en', '')}")
