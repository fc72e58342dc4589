"""Hints that teach: the search's suggestion in words, with the reason a player
understands, and the coach's remark after a clearly worse move (Dutch and English).

``advise`` runs the search (search.py) and explains its first choice: what the move does
(wins the game, brings a pawn home, captures a pawn N holes from its home, brings a pawn
out, frees the start, takes a pawn out of reach of an opponent's cards), what it keeps
(the 4 to go home backwards, an ace or king to come out), what the playouts saw (how often
the team lost a pawn after it and after the next choice) and by how much it beats the
next choice (win chances in the games played out). ``coach`` judges a move played
against the best by the same search and speaks only when it was clearly worse.

Over 400 lines: every reason a hint can give, each a pair of Dutch and English sentences
next to the test that decides it; split apart, the sentence and its condition drift.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .board import Board, FastMove, from_move, to_move
from .calibration import calibrated_analysis
from .cards import FORWARD_STEPS, KING_STEPS, RANKS, SEVEN_STEPS
from .describe import describe_move
from .judge import ANALYSIS_PLAYOUTS, LABEL_WORDS, coach_playouts, judge, label_of, loss_text
from .judge import COACH_THRESHOLD as COACH_THRESHOLD
from .movegen import apply_part
from .notation import Move, Step, Swap
from .position import EMPTY, FRESH, HOME, NEST, Position, location_hole
from .search import DEFAULT_PLAYOUTS, Analysis, Candidate, Known, analyse, position_key
from .text import Text, card_name
from .topology import SEAT_COLOURS


@dataclass(frozen=True, slots=True)
class Advice:
    """The suggested move of a seat, and why."""

    seat: int
    card: str
    move: Move
    text: str  # notation
    words: Text  # the move in words
    reasons: tuple[Text, ...]
    win: float  # estimated win chance after it, in the games played out
    next_text: str | None  # the next choice, for comparison
    next_words: Text | None
    next_win: float | None
    holes: tuple[str, ...]  # pawns to move and their targets (the LED role "hint")
    playouts: int

    def sentence(self, lang: str) -> str:
        """The whole hint as one paragraph."""
        words = self.words.get(lang)
        parts = [words] + [r.get(lang) for r in self.reasons if not _said(r.get(lang), words)]
        return " ".join(_dot(p) for p in parts)

    def to_dict(self, lang: str) -> dict[str, object]:
        return {
            "seat": self.seat,
            "card": self.card,
            "move": self.text,
            "words": self.words.get(lang),
            "reasons": [r.get(lang) for r in self.reasons],
            "win": round(self.win, 3),
            "next": None
            if self.next_text is None
            else {
                "move": self.next_text,
                "words": self.next_words.get(lang) if self.next_words else None,
                "win": None if self.next_win is None else round(self.next_win, 3),
            },
            "holes": list(self.holes),
            "playouts": self.playouts,
            "text": self.sentence(lang),
        }

    def record(self) -> dict[str, object]:
        """Both languages (journal, page)."""
        return {
            "seat": self.seat,
            "card": self.card,
            "move": self.text,
            "holes": list(self.holes),
            "win": round(self.win, 3),
            "next_win": None if self.next_win is None else round(self.next_win, 3),
            "text": {"nl": self.sentence("nl"), "en": self.sentence("en")},
        }


@dataclass(frozen=True, slots=True)
class Remark:
    """The coach after a move: it was clearly worse than ``better``."""

    seat: int
    played: str
    played_win: float
    better: Advice
    text: Text

    def to_dict(self, lang: str) -> dict[str, object]:
        return {
            "seat": self.seat,
            "played": self.played,
            "played_win": round(self.played_win, 3),
            "better": self.better.text,
            "better_win": round(self.better.win, 3),
            "holes": list(self.better.holes),
            "text": self.text.get(lang),
        }

    def record(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "played": self.played,
            "better": self.better.text,
            "holes": list(self.better.holes),
            "played_win": round(self.played_win, 3),
            "better_win": round(self.better.win, 3),
            "text": self.text.as_dict(),
        }


# A reason the move's words already say ("red brings a pawn out. Brings a new pawn
# out."): reason -> what the words say then.
_SAID = {"brings a new pawn out": "brings a pawn out", "zet een nieuwe pion op het bord": "pion op"}


def _said(reason: str, words: str) -> bool:
    said = _SAID.get(reason)
    return said is not None and said in words


# What the win chance a player reads is (leaf.py): said with every hint's chances.
ESTIMATE = Text(
    "uit partijen een paar beurten vooruitgespeeld, de onafgemaakte naar de stand beoordeeld",
    "from games played a few turns ahead, the unfinished ones judged by the position",
)


def _dot(s: str) -> str:
    s = s[:1].upper() + s[1:]
    return s if s.endswith((".", "!", "?")) else s + "."


def _pct(x: float) -> str:
    return f"{round(100 * x)}%"


# -- the hint --------------------------------------------------------------------------


def advise(
    pos: Position,
    hand: Sequence[str],
    known: Known | None = None,
    *,
    playouts: int = DEFAULT_PLAYOUTS,
    seed: int = 0,
) -> Advice | None:
    """The search's suggestion for the seat to play (``pos.turn``) with ``hand``, or
    None when no card of it has a legal move. Deterministic for the seed and budget."""
    board = Board(pos)
    a = analyse(board, pos.turn, hand, known, playouts=playouts, rng=random.Random(seed))
    return explain_choice(pos, hand, calibrated_analysis(board, a))


def explain_choice(pos: Position, hand: Sequence[str], a: Analysis) -> Advice | None:
    best = a.best
    if best is None:
        return None
    nxt = a.runner_up
    move = best.as_move()
    reasons = list(move_reasons(pos, move, hand))
    if nxt is not None and nxt.playouts and best.playouts:
        if nxt.lost_rate - best.lost_rate >= 0.1:
            reasons.append(
                Text(
                    f"in de uitgespeelde partijen verloor je team daarna in {_pct(best.lost_rate)} "
                    f"een pion, na de volgende keus in {_pct(nxt.lost_rate)}",
                    f"in the games played out your team lost a pawn in {_pct(best.lost_rate)} "
                    f"after it, and in {_pct(nxt.lost_rate)} after the next choice",
                )
            )
        nmove = nxt.as_move()
        reasons.append(
            Text(
                f"geschatte winkans van je team {_pct(best.win)} na deze zet, {_pct(nxt.win)} "
                f"na de volgende keus ({_short(pos, nmove).nl}): {ESTIMATE.nl}",
                f"your team's estimated win chance {_pct(best.win)} after it, {_pct(nxt.win)} "
                f"after the next choice ({_short(pos, nmove).en}): {ESTIMATE.en}",
            )
        )
    elif best.playouts:
        reasons.append(
            Text(
                f"de enige keus; geschatte winkans van je team {_pct(best.win)}: {ESTIMATE.nl}",
                f"the only choice; your team's estimated win chance {_pct(best.win)}: "
                f"{ESTIMATE.en}",
            )
        )
    nm = nxt.as_move() if nxt is not None else None
    return Advice(
        pos.turn,
        best.card,
        move,
        move.text(pos.topology),
        describe_move(pos, move),
        tuple(reasons),
        best.win,
        nm.text(pos.topology) if nm else None,
        describe_move(pos, nm) if nm else None,
        nxt.win if nxt is not None and nxt.playouts else None,
        move_holes(pos, move),
        a.playouts,
    )


def _short(pos: Position, move: Move) -> Text:
    w = describe_move(pos, move)
    return Text(w.nl[:1].lower() + w.nl[1:], w.en[:1].lower() + w.en[1:])


def move_holes(pos: Position, move: Move) -> tuple[str, ...]:
    """The holes of the pawns a move lifts and where they go, as on the board."""
    topo = pos.topology
    out: list[str] = []
    for part in move.parts:
        if isinstance(part, Swap):
            out += [f"T{part.a}", f"T{part.b}"]
            continue
        if part.frm == NEST:
            n = sum(1 for loc in pos.pawns[part.seat] if loc == NEST)
            out.append(location_hole(topo, part.seat, NEST, max(1, n)).name)
        else:
            out.append(location_hole(topo, part.seat, part.frm).name)
        out.append(location_hole(topo, part.seat, part.to).name)
    return tuple(dict.fromkeys(out))


def threats(pos: Position, seat: int, hole: int) -> dict[int, list[str]]:
    """Opponents that can reach track hole ``hole`` with one card, and with which
    cards: from 1 to 13 holes behind it (A, 2, 3, 5, ..., Q, K under king_13, the 7 up to
    7) or 4 holes in front (the 4 backwards). Blockades and home turns aside."""
    ring = pos.topology.ring
    team = pos.team_of(seat)
    out: dict[int, list[str]] = {}
    steps = {v: c for c, v in FORWARD_STEPS.items()}
    steps[1] = "A"
    if pos.profile.king_13:
        steps[KING_STEPS] = "K"
    track = pos.track
    for d in range(1, KING_STEPS + 1):
        occ = track[(hole - d) % ring]
        if occ == EMPTY or occ % 16 in team:
            continue
        cards = []
        if d in steps:
            cards.append(steps[d])
        if d <= SEVEN_STEPS:
            cards.append("7")
        if cards:
            out.setdefault(occ % 16, []).extend(cards)
    occ = track[(hole + 4) % ring]
    if occ != EMPTY and occ % 16 not in team and occ < 16:
        out.setdefault(occ, []).append("4")
    return out


def _threat_text(found: dict[int, list[str]]) -> Text:
    nl, en = [], []
    for s, cards in sorted(found.items()):
        c = SEAT_COLOURS[s]
        names = [card_name(r) for r in sorted(set(cards), key=RANKS.index)]
        nl.append(f"{' en '.join(n.nl for n in names)} van {c.nl}")
        en.append(f"{c.en}'s {' and '.join(n.en.removeprefix('the ') for n in names)}")
    return Text(" en ".join(nl), " and ".join(en))


def gains_and_risks(
    pos: Position, move: Move, hand: Sequence[str]
) -> tuple[list[Text], list[Text]]:
    """``move_reasons`` apart: what the move does and keeps, and what it risks."""
    return _reasons(pos, move, hand)


def move_reasons(pos: Position, move: Move, hand: Sequence[str]) -> list[Text]:
    """What the move does and keeps, in words (most important first), then what it
    risks."""
    gains, risks = _reasons(pos, move, hand)
    return gains + risks


def _reasons(pos: Position, move: Move, hand: Sequence[str]) -> tuple[list[Text], list[Text]]:
    me = pos.turn
    topo = pos.topology
    ring = topo.ring
    out: list[Text] = []
    warn: list[Text] = []  # what the move risks, said after what it gains
    cur = pos
    for part in move.parts:
        if isinstance(part, Swap):
            own, other = (part.a, part.b) if part.seat_a in pos.team_of(me) else (part.b, part.a)
            before = threats(cur, part.seat_a if own == part.a else part.seat_b, own)
            if before:
                out.append(
                    Text(
                        f"je pion op T{own} stond binnen bereik van "
                        f"{_threat_text(before).nl}: de boer ruilt hem weg",
                        f"your pawn on T{own} was in reach of {_threat_text(before).en}: "
                        "the jack swaps it out of danger",
                    )
                )
            else:
                out.append(
                    Text(
                        f"de boer ruilt je pion naar T{other}, verder op weg naar huis",
                        f"the jack swaps your pawn to T{other}, further on its way home",
                    )
                )
            cur = apply_part(cur, part)
            continue
        assert isinstance(part, Step)
        seat = part.seat
        if part.to > HOME:
            out.append(Text("brengt een pion thuis", "brings a pawn home"))
        elif part.frm == NEST:
            out.append(Text("zet een nieuwe pion op het bord", "brings a new pawn out"))
        dest = topo.start(seat) if part.to == FRESH else part.to
        if 0 <= dest < HOME:
            occ = cur.track[dest]
            dep = topo.start(seat) if part.frm == FRESH else part.frm
            if occ != EMPTY and dest != dep:
                v = occ % 16
                c = SEAT_COLOURS[v]
                if v in pos.team_of(me):
                    out.append(
                        Text(
                            f"slaat wel de pion van je partner ({c.nl}) eraf",
                            f"it does send your partner's ({c.en}) pawn back",
                        )
                    )
                else:
                    left = (topo.start(v) - dest) % ring
                    out.append(
                        Text(
                            f"slaat de {c.nl_adj} pion eraf, die nog {left} gaten van huis was",
                            f"captures {c.en}'s pawn, which was {left} holes from its home",
                        )
                    )
        after_threat = threats(apply_part(cur, part), seat, dest) if dest < HOME else {}
        before = (
            threats(cur, seat, part.frm)
            if part.frm not in (NEST, FRESH) and part.frm < HOME
            else {}
        )
        if before and len(after_threat) < len(before):
            out.append(
                Text(
                    f"de pion op T{part.frm} stond binnen bereik van {_threat_text(before).nl}",
                    f"this pawn on T{part.frm} was in reach of {_threat_text(before).en}",
                )
            )
        elif after_threat and part.to != FRESH:
            warn.append(
                Text(
                    f"let op: op T{dest} staat hij binnen bereik van "
                    f"{_threat_text(after_threat).nl}",
                    f"mind: on T{dest} it is in reach of {_threat_text(after_threat).en}",
                )
            )
        if part.frm == FRESH and NEST in cur.pawns[seat]:
            out.append(
                Text(
                    "maakt je startvak vrij voor de volgende pion",
                    "leaves your start free for your next pawn",
                )
            )
        partner = pos.partner(me)
        if (
            partner is not None
            and part.frm not in (NEST, FRESH)
            and part.frm < HOME
            and part.frm == topo.start(partner)
            and NEST in cur.pawns[partner]
        ):
            out.append(
                Text("maakt het startvak van je partner vrij", "leaves your partner's start free")
            )
        cur = apply_part(cur, part)
    if cur.team_home(me):
        out.insert(0, Text("wint het spel", "wins the game"))
    rest = list(hand)
    if move.card in rest:
        rest.remove(move.card)
    out += _kept(pos, cur, move.card, rest)
    return out, warn


def _kept(before: Position, after: Position, card: str, rest: list[str]) -> list[Text]:
    """Cards the move keeps for later, when they have a clear use."""
    me = before.turn
    seat = after.controlled_seat(me)
    topo = after.topology
    out: list[Text] = []
    if "4" in rest and card != "4":
        start = topo.start(seat)
        for loc in after.pawns[seat]:
            if loc == FRESH or (0 <= loc < HOME and (loc - start) % topo.ring < 4):
                out.append(
                    Text(
                        "houdt je 4 achter de hand om deze pion achteruit naar huis te brengen",
                        "keeps your 4 to go home backwards",
                    )
                )
                break
    if NEST in after.pawns[seat] and any(c in rest for c in ("A", "K")) and card not in "AK":
        out.append(
            Text(
                "houdt je aas of heer om een pion op te zetten",
                "keeps your ace or king to bring a pawn out",
            )
        )
    return out


# -- the coach --------------------------------------------------------------------------


def coach(
    pos: Position,
    hand: Sequence[str],
    played_card: str,
    played: Move,
    known: Known | None = None,
    *,
    playouts: int = ANALYSIS_PLAYOUTS,
    total: int | None = None,
    seed: int = 0,
    hand_known: bool = True,
    threshold: float = COACH_THRESHOLD,
) -> Remark | None:
    """After the seat to play played ``played`` (from ``hand``, the hand before the
    move; ``hand_known`` False: only the card is known, the rest sampled): the judge's
    verdict (judge.py, the analysis's own: the same numbers on the same scale) as a
    remark when the best move's win chance is at least ``threshold`` above it, else
    None. ``seed``: judge.judge_seed(game seed, turn index), as the analysis seeds it.
    ``total``: the budget of a time (the web coach's), the analysis's or less."""
    v = judge(
        pos,
        hand,
        known,
        played_card,
        played,
        hand_known=hand_known,
        playouts=coach_playouts(total, playouts),
        seed=seed,
    )
    if v.loss < threshold:
        return None
    return remark_of(pos, hand, v.judged.to_analysis(), played_card, from_move(played), 0.0)


def regret(a: Analysis, card: str, move: FastMove, board: Board) -> tuple[float, Candidate | None]:
    """How much lower the played move's win chance is than the best's (0 when it was
    the best, or reached the same position with the same card)."""
    best = a.best
    if best is None:
        return 0.0, None
    mine = a.of_move(card, move)
    if mine is None:
        key = position_key(board, move)
        mine = next(
            (c for c in a.ranked if c.card == card and position_key(board, c.move) == key), None
        )
    if mine is None or mine is best:
        return 0.0, mine
    return max(0.0, best.win - mine.win), mine


def remark_of(
    pos: Position, hand: Sequence[str], a: Analysis, card: str, move: FastMove, threshold: float
) -> Remark | None:
    gap, mine = regret(a, card, move, Board(pos))
    if mine is None or mine is a.best or gap < threshold:
        return None
    adv = explain_choice(pos, hand, a)
    assert adv is not None
    played = to_move(move)
    gains = _reasons(pos, adv.move, hand)[0]
    why = gains[0] if gains else None
    cn = card_name(adv.card)
    label = label_of(gap)
    said = Text("", "") if label is None else LABEL_WORDS[label]
    # The loss cut as the label compares it (judge.shown_loss): a mistake's 4.6 is no 5.
    lnl = f" ({said.nl}, -{loss_text(gap, 'nl')}%)" if label else ""
    len_ = f" ({said.en}, -{loss_text(gap, 'en')}%)" if label else ""
    nl = (
        f"Dat kon beter{lnl}: {_short(pos, adv.move).nl} geeft je team een geschatte "
        f"winkans van {_pct(adv.win)}, jouw zet {_pct(mine.win)}"
    )
    en = (
        f"There was a better move{len_}: {_short(pos, adv.move).en} gives your team an "
        f"estimated win chance of {_pct(adv.win)}, yours {_pct(mine.win)}"
    )
    if why is not None:
        nl += f" ({cn.nl}: {why.nl})"
        en += f" ({cn.en}: {why.en})"
    return Remark(pos.turn, played.text(pos.topology), mine.win, adv, Text(nl + ".", en + "."))
