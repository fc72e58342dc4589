"""How the page tells the players to put a flagged board right (issue 13, defects 1, 14;
issue 25 item 8).

The guidance names holes only as the drawn board shows them: track and finish holes by
the labels the board draws next to every hole a flag names (board.js), nest holes in
words ("in its nest"). It offers both ways out: put the pawn back, or (when one pawn
stands one hole off a legal move of the tapped card, its colour the move's) finish the
move, never the same words twice. A pawn picked up again is in a hand: "put red's pawn
(in your hand) back on T2", "or finish the move: put it on T10". After an undo on a real
board the flag says that the move was taken back. Pure functions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from keezbord.engine.movegen import apply, legal_moves
from keezbord.engine.position import NEST
from keezbord.engine.text import Text
from keezbord.engine.topology import SEAT_COLOURS
from keezbord.host.referee import RefereeState, board_of, board_sig, colours, nest_seat

UNDONE = Text("Teruggenomen", "Taken back")
MAX_FINISH = 2  # ways to finish the move offered at most (a 7 can have many)


def guidance(frm: str | None, to: str | None, seat: int | None = None) -> Text:
    """How to put one pawn of a flagged board right; ``seat``: the pawn's owner, when
    the page knows it."""
    nl_pawn, en_pawn = "de pion", "the pawn"
    if seat is not None:
        c = SEAT_COLOURS[seat]
        nl_pawn, en_pawn = f"de pion van {c.nl}", f"{c.en}'s pawn"
    if frm is not None and to is not None:
        nl_frm, en_frm = _from_words(frm, seat)  # a nest in words, not N1.4 (issue 40)
        if nest_seat(to) is not None:
            nl_to, en_to = _nest_words(to, seat)
            return Text(
                f"zet {nl_pawn} {nl_frm} terug {nl_to}", f"put {en_pawn} {en_frm} back {en_to}"
            )
        return Text(f"zet {nl_pawn} {nl_frm} terug op {to}", f"put {en_pawn} {en_frm} back on {to}")
    if to is not None:
        if nest_seat(to) is not None:
            nl_to, en_to = _nest_words(to, None)
            return Text(f"zet een pion terug {nl_to}", f"put a pawn back {en_to}")
        return Text(f"zet een pion op {to}", f"put a pawn on {to}")
    assert frm is not None
    if nest_seat(frm) is not None:
        s = nest_seat(frm)
        assert s is not None
        c = SEAT_COLOURS[s]
        return Text(f"haal een pion uit het nest van {c.nl}", f"take a pawn out of {c.en}'s nest")
    return Text(f"haal {nl_pawn} van {frm} weg", f"take {en_pawn} off {frm}")


def in_hand(to: str, seat: int | None) -> Text:
    """How to put right a pawn that was picked up again: it is in a hand."""
    nl_pawn, en_pawn = "de pion", "the pawn"
    if seat is not None:
        c = SEAT_COLOURS[seat]
        nl_pawn, en_pawn = f"de pion van {c.nl}", f"{c.en}'s pawn"
    if nest_seat(to) is not None:
        nl_to, en_to = _nest_words(to, seat)
        return Text(
            f"zet {nl_pawn} (in je hand) terug {nl_to}",
            f"put {en_pawn} (in your hand) back {en_to}",
        )
    return Text(
        f"zet {nl_pawn} (in je hand) terug op {to}", f"put {en_pawn} (in your hand) back on {to}"
    )


def _from_words(hole: str, seat: int | None) -> tuple[str, str]:
    """ "van T12" / "from T12"; a nest hole as the nest: "uit zijn nest", "from blue's nest"."""
    owner = nest_seat(hole)
    if owner is None:
        return f"van {hole}", f"from {hole}"
    if seat is not None and owner == seat:
        return "uit zijn nest", "from its nest"
    c = SEAT_COLOURS[owner]
    return f"uit het nest van {c.nl}", f"from {c.en}'s nest"


def _nest_words(hole: str, seat: int | None) -> tuple[str, str]:
    owner = nest_seat(hole)
    assert owner is not None
    if seat is not None and owner == seat:
        return "in zijn nest", "in its nest"
    c = SEAT_COLOURS[owner]
    return f"in het nest van {c.nl}", f"in {c.en}'s nest"


def finish_moves(
    st: RefereeState,
    pawn_seat: Mapping[str, int | None] | None = None,
    held: Sequence[int | None] = (),
) -> list[tuple[str | None, str]]:
    """(from, to): one pawn that stands on ``from`` where a legal move of the tapped card
    would have it on ``to`` (the board matches otherwise, colours too where the page knows
    them: moving an opponent's pawn is no move to finish); ``from`` None: that pawn is in
    a hand (picked up again), the board lacking only it."""
    if st.card is None or st.seat is None:
        return []
    seats = st.pos.seats
    sensed_th, sensed_nests = board_sig(st.sensed, seats)
    known = pawn_seat or {}
    out: list[tuple[str | None, str]] = []
    try:
        moves = list(legal_moves(st.pos, st.card, st.seat))
    except (KeyError, ValueError):
        return []
    for m in moves:
        after_pos = apply(st.pos, st.card, m)
        after = colours(after_pos)
        after_th, after_nests = board_sig(board_of(after_pos), seats)
        if after_nests != sensed_nests:
            continue
        extra, missing = sensed_th - after_th, after_th - sensed_th
        pair: tuple[str | None, str] | None = None
        if len(extra) == 1 and len(missing) == 1:
            frm, to = next(iter(extra)), next(iter(missing))
            if _colour_fits(known.get(frm), after[to]):
                pair = (frm, to)
        elif not extra and len(missing) == 1 and len(held) == 1:
            to = next(iter(missing))
            if _colour_fits(held[0], after[to]):
                pair = (None, to)
        # The rest of the board must be as the move leaves it, colours and all.
        if (
            pair is not None
            and pair not in out
            and all(_colour_fits(known.get(h), s) for h, s in after.items() if h in sensed_th)
        ):
            out.append(pair)
        if len(out) >= MAX_FINISH:
            break
    return out


def _colour_fits(seen: int | None, want: int) -> bool:
    """A pawn of unknown colour (None) fits any."""
    return seen is None or seen == want


def flag_view(
    flag: Mapping[str, Any],
    st: RefereeState,
    pawn_seat: Mapping[str, int | None],
    decisions: Sequence[Mapping[str, Any]],
    held: Sequence[int | None] = (),
) -> dict[str, Any]:
    """The page's flag: the referee's reason (or, after an undo, "Taken back"), the
    guidance in words, the ways to finish the move, and the holes the words name (the
    board labels them)."""
    assert st.flag is not None
    undone = _after_undo(decisions)
    pairs = st.flag.pairs
    if undone and not pairs:
        # A board a legal move explains (the move taken back, on a board with no card
        # reader) gets no repair from the referee: say what differs from the position.
        pairs = differences(st, pawn_seat)
    lines: list[Text] = []
    for a, b in pairs:
        if a is not None and a not in st.sensed:  # picked up again: in a hand
            if b is not None and b not in st.sensed:
                lines.append(in_hand(b, held[0] if len(held) == 1 else None))
        else:
            lines.append(guidance(a, b, pawn_seat.get(a) if a is not None else None))
    # A way to finish the move that is the same as putting it back is said once.
    finish = [f for f in finish_moves(st, pawn_seat, held) if f not in pairs]
    for frm, to in finish:
        if frm is None:
            lines.append(
                Text(f"of maak de zet af: zet hem op {to}", f"or finish the move: put it on {to}")
            )
        else:
            lines.append(
                Text(
                    f"of maak de zet af: zet de pion van {frm} op {to}",
                    f"or finish the move: put the pawn from {frm} on {to}",
                )
            )
    named = sorted(
        {h for a, b in pairs for h in (a, b) if h is not None and nest_seat(h) is None}
        | {h for h in st.flag.error if nest_seat(h) is None}
        | {h for pair in finish for h in pair if h is not None}
    )
    reason: Mapping[str, str] = flag["reason"]
    if undone and lines:
        first = lines[0]
        reason = Text(f"{UNDONE.nl}: {first.nl}", f"{UNDONE.en}: {first.en}").as_dict()
    return {
        **flag,
        "reason": dict(reason),
        "guidance": [g.as_dict() for g in lines],
        "finish": [list(p) for p in finish],
        "labels": named,
    }


def differences(
    st: RefereeState, pawn_seat: Mapping[str, int | None]
) -> tuple[tuple[str | None, str | None], ...]:
    """(from, to) pairs that put the sensed board back to the position: a pawn that
    stands where the position has none goes to a hole of its colour that lacks one."""
    expected = colours(st.pos)
    extra = sorted(h for h in st.sensed if nest_seat(h) is None and h not in expected)
    missing: list[tuple[str, int]] = [(h, s) for h, s in expected.items() if h not in st.sensed]
    for seat, locs in enumerate(st.pos.pawns):
        holes = [f"N{seat}.{k}" for k in range(1, 5)]
        lack = sum(1 for loc in locs if loc == NEST) - sum(1 for h in holes if h in st.sensed)
        missing += [(h, seat) for h in holes if h not in st.sensed][: max(0, lack)]
    pairs: list[tuple[str | None, str | None]] = []
    for frm in extra:
        owner = pawn_seat.get(frm)
        match = next((m for m in missing if m[1] == owner), missing[0] if missing else None)
        if match is not None:
            missing.remove(match)
        pairs.append((frm, match[0] if match else None))
    pairs += [(None, h) for h, _ in missing]
    return tuple(pairs)


def _after_undo(decisions: Sequence[Mapping[str, Any]]) -> bool:
    """The board is flagged because a move was taken back (no move since)."""
    for d in reversed(decisions):
        if d.get("type") == "move" or d.get("type") == "resolved":
            return False
        if d.get("type") == "undo":
            return bool(d.get("ok")) and "move" in d
    return False


def drawn_way(
    flag: Mapping[str, Any] | None, mismatch: Mapping[str, Any], leds: Mapping[str, str]
) -> tuple[dict[str, Any], dict[str, str]]:
    """The simulator's drawing and the referee differ (web/drawing.py): the page's flag
    and LEDs. A referee's flag whose guidance would not restore the drawn board (which
    pawn went where was unknown to it) gets the way back as the drawing knows it; the
    lights are that way's (``lit``), not the referee's pairs nor its move's targets."""
    own = dict(mismatch)
    lit = own.pop("lit", None) or {}
    lights = {**{h: r for h, r in leds.items() if r == "turn"}, **lit}
    if flag is None:
        return own, lights
    labels = sorted(set(flag.get("labels") or ()) | set(own["labels"]))
    holes = sorted(set(flag.get("holes") or ()) | set(own["holes"]))
    way = {**flag, "guidance": own["guidance"], "finish": [], "labels": labels, "holes": holes}
    return way, lights


_READER = Text("leg eerst een kaart op de lezer", "tap a card on the reader first")
_TAP_HAND = Text("Tik eerst een kaart in je hand aan", "Tap a card in your hand first")


def no_reader(flag: dict[str, Any] | None) -> dict[str, Any] | None:
    """The simulator has no card reader: its flag says where the cards are instead."""
    if flag is None or flag["reason"].get("en") != _READER.en:
        return flag
    return {**flag, "reason": _TAP_HAND.as_dict()}
