"""A labelled decision in words (issue 40, item 14): the loss shown beside a label never
crosses into the next label's numbers (cut as the label compares, whatever the
thresholds are), and a mistake's reason says what the better move does or what the move
made risked, in both languages, always something in words."""

from __future__ import annotations

import math
from itertools import pairwise

import pytest

from keezbord.engine import judge as judge_mod
from keezbord.engine.advice import move_reasons
from keezbord.engine.analysis import analyse_game
from keezbord.engine.cards import RANKS
from keezbord.engine.hand_record import bots_for, record_selfplay
from keezbord.engine.judge import LABEL_WORDS, label_of, loss_text, shown_loss
from keezbord.engine.mistake_reason import mistake_reason
from keezbord.engine.notation import parse_move
from keezbord.engine.position import Position
from keezbord.engine.text import card_name

H4 = ["H1", "H2", "H3", "H4"]
ORDER = [None, "inaccuracy", "mistake", "blunder"]


def losses() -> list[float]:
    return [k / 10_000 for k in range(0, 1500)]


def check_consistent() -> None:
    """Every shown loss keeps its label; a worse label never shows less or as much."""
    top: dict[str | None, float] = {}
    low: dict[str | None, float] = {}
    for loss in losses():
        v, lab = shown_loss(loss), label_of(loss)
        assert v <= 100 * loss + 1e-9  # never rounded up
        assert label_of(v / 100) == lab, (loss, v, lab)
        top[lab] = max(top.get(lab, v), v)
        low[lab] = min(low.get(lab, v), v)
    for a, b in pairwise(ORDER):
        assert top[a] < low[b], (a, b, top, low)


def test_the_loss_shown_keeps_its_label() -> None:
    check_consistent()
    # The newcomer's pair: a mistake 0.4 points short of a blunder (4.6 beside 5 when
    # they were found) shows the whole point below the blunder's.
    blunder = dict(judge_mod.THRESHOLDS)["blunder"]
    near = blunder - 0.004
    assert label_of(near) == "mistake" and loss_text(near, "en") == str(math.floor(100 * near))
    assert label_of(blunder) == "blunder" and loss_text(blunder, "en") == f"{100 * blunder:g}"


@pytest.mark.parametrize(
    "thresholds",
    [
        (("blunder", 0.055), ("mistake", 0.025), ("inaccuracy", 0.015)),
        (("blunder", 0.0625), ("mistake", 0.0375), ("inaccuracy", 0.0125)),
    ],
)
def test_thresholds_between_whole_points_show_a_decimal(
    monkeypatch: pytest.MonkeyPatch, thresholds: tuple[tuple[str, float], ...]
) -> None:
    monkeypatch.setattr(judge_mod, "THRESHOLDS", thresholds)
    check_consistent()
    blunder = thresholds[0][1]
    assert shown_loss(blunder) == pytest.approx(100 * blunder)
    # A decimal comma in Dutch, a point in English.
    en, nl = loss_text(blunder, "en"), loss_text(blunder, "nl")
    assert "." in en and nl == en.replace(".", ",")


def test_the_coachs_remark_and_the_rows_words_follow_the_label() -> None:
    rec = record_selfplay(4, "standard", 3, bots_for(["random"] * 4, 3), max_turns=40)
    rows = [r for r in analyse_game(rec, playouts=2).decisions if r.label]
    assert rows, "random players make mistakes"
    for r in rows:
        assert r.label is not None
        said = LABEL_WORDS[r.label]
        assert r.comment is not None and r.why is not None and r.best_words is not None
        # The remark's loss is cut as the label compares, as the page shows it.
        assert f"({said.en}, -{loss_text(r.loss, 'en')}%)" in r.comment.en
        assert f"({said.nl}, -{loss_text(r.loss, 'nl')}%)" in r.comment.nl
        assert r.to_json()["loss_shown"] == shown_loss(r.loss)
        assert r.best_words.en.split(":")[0] in {card_name(c).en.capitalize() for c in RANKS}


def test_a_missed_capture_is_the_reason() -> None:
    # Red's 5 captures blue on T35 from T30; red played the 5 with the other pawn.
    pos = Position.from_dict(
        {"seats": 4, "turn": 0, "pawns": [["T9", "T30", "N", "N"], ["T35", "N", "N", "N"], H4, H4]}
    )
    best = parse_move("5 0:T30-T35", pos.topology)
    played = parse_move("5 0:T9-T14", pos.topology)
    why = mistake_reason(pos, ["5", "2"], played, best, 0.0, 0.0)
    assert why.en.startswith("The better move, the 5: captures blue's pawn")
    assert why.nl.startswith("De betere zet, de 5: slaat de blauwe pion eraf")
    # What the hint says of the better move, word for word (one source of wording).
    assert move_reasons(pos, best, ["5", "2"])[0].en in why.en


def test_a_risk_and_the_pawns_lost_are_reasons_and_something_is_always_said() -> None:
    # Red's pawn on T20 lands 5 in front of blue's pawn on T15 with the 5 played.
    pos = Position.from_dict(
        {"seats": 4, "turn": 0, "pawns": [["T20", "N", "N", "N"], ["T10", "N", "N", "N"], H4, H4]}
    )
    played = parse_move("2 0:T20-T22", pos.topology)
    best = parse_move("A 0:N-S", pos.topology)
    why = mistake_reason(pos, ["2", "A"], played, best, 0.6, 0.2)
    assert "Your move, the 2: mind: on T22 it is in reach of blue's" in why.en
    assert "Jouw zet, de 2: let op: op T22" in why.nl
    assert "lost a pawn in 60% after your move, in 20% after the better one" in why.en
    # Two moves the board does not tell apart: said so, in words.
    same = parse_move("2 0:T20-T22", pos.topology)
    why = mistake_reason(pos, ["2"], same, same, 0.3, 0.3)
    assert why.en.startswith("The board shows no difference at once")
    assert why.nl.startswith("Op het bord is het verschil niet meteen te zien")
