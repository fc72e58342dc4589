"""The engine's front door (issue 12): the public names, ``str(move)``, the position's
one-line text form and ``repr``, the checked ``apply``/``is_legal``."""

from __future__ import annotations

import doctest
import importlib
import subprocess
import sys

import pytest
from engine_helpers import EXAMPLE, TEXT_EXAMPLE, random_positions

import keezbord.engine
from keezbord.engine import (
    RANKS,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Position,
    apply,
    is_legal,
    legal_moves,
    successors,
)
from keezbord.engine.profiles import PROFILES

# -- public names -----------------------------------------------------------------------


def test_every_public_name_imports_and_is_what_its_module_defines() -> None:
    assert len(keezbord.engine.__all__) == len(set(keezbord.engine.__all__)) > 30
    for name in keezbord.engine.__all__:
        value = getattr(keezbord.engine, name)
        assert getattr(value, "__module__", "keezbord.engine").startswith("keezbord.engine")
    assert callable(keezbord.engine.explain)  # the function, not the module of that name
    with pytest.raises(AttributeError):
        keezbord.engine.no_such_name  # noqa: B018


def test_star_import_in_a_fresh_interpreter_gives_the_functions() -> None:
    code = (
        "import keezbord.engine.explain; from keezbord.engine import *; "
        "import inspect; assert inspect.isfunction(explain), explain; "
        "assert inspect.isfunction(apply) and inspect.isclass(Position); print('ok')"
    )
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert r.stdout.strip() == "ok", r.stderr


def test_importing_one_name_does_not_load_the_whole_engine() -> None:
    code = (
        "import sys; from keezbord.engine import Position; "
        "print(sorted(m for m in sys.modules if m.startswith('keezbord.engine.')))"
    )
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    loaded = r.stdout
    assert "keezbord.engine.position" in loaded
    for heavy in ("game", "board", "bots", "explain", "movegen"):
        assert f"keezbord.engine.{heavy}'" not in loaded, loaded


def test_docstring_examples_of_the_engine_run() -> None:
    for name in ("position", "notation", "movegen"):
        result = doctest.testmod(importlib.import_module(f"keezbord.engine.{name}"))
        assert result.failed == 0


# -- str(move) --------------------------------------------------------------------------


def test_str_of_a_move_is_its_notation_and_text_still_takes_the_old_argument() -> None:
    pos = Position.from_text("NNNT5/NNNT30/NNNN/NNNN 0 standard")
    [move] = [m for m in legal_moves(pos, "J") if str(m) == "J 0:T5<>1:T30"]
    assert move.text() == move.text(pos.topology) == "J 0:T5<>1:T30"
    assert str(move.parts[0]) == "0:T5<>1:T30"
    assert [str(m) for m in legal_moves(pos, "5")] == ["5 0:T5-T10"]


# -- the text form ----------------------------------------------------------------------


def test_text_form_example_of_docs() -> None:
    pos = Position.from_dict(EXAMPLE)
    assert pos.to_text() == TEXT_EXAMPLE
    assert repr(pos) == "Position('NNST20/NNNT33/NT60H3H4/NNNN 0 standard')"
    assert Position.from_text(pos.to_text()) == pos


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_text_form_round_trips_exactly_with_the_json(seed: int) -> None:
    for pos in random_positions(300, seed):
        text = pos.to_text()
        back = Position.from_text(text)
        assert back == pos and back.to_text() == text
        assert back.to_dict() == pos.to_dict()
        assert "\n" not in text and repr(pos) == f"Position({text!r})"


def test_text_form_writes_segment_and_teams_only_when_not_the_default() -> None:
    for profile in PROFILES:
        for seats in range(2, 9):
            for segment in (7, 12, 16):
                teams_choices = ["none", "pairs"] if seats in (4, 6, 8) else ["none"]
                for teams in teams_choices:
                    pos = Position.start(
                        seats,
                        profile,
                        segment=segment,
                        teams=teams,  # type: ignore[arg-type]
                        turn=seats - 1,
                    )
                    text = pos.to_text()
                    assert ("segment=" in text) == (segment != 16)
                    assert ("teams=" in text) == ("teams" in pos.to_dict())
                    assert Position.from_text(text) == pos


def test_text_form_takes_pawns_in_any_order_within_a_seat() -> None:
    assert (
        Position.from_text("T20SNN/T33NNN/H4H3T60N/NNNN 0 standard").to_text()
        == "NNST20/NNNT33/NT60H3H4/NNNN 0 standard"
    )


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "a position text is"),
        ("NNNN/NNNN", "a position text is"),
        ("NNNN/NNNN 0", "a position text is"),
        ("NNNN/NNN 0 standard", "exactly 4 pawns"),
        ("NNNNN/NNNN 0 standard", "exactly 4 pawns"),
        ("NNNX/NNNN 0 standard", "not four pawn locations"),
        ("NNNT01/NNNN 0 standard", "not four pawn locations"),
        ("NNNH5/NNNN 0 standard", "not four pawn locations"),
        ("NNNT99/NNNN 0 standard", "off the board"),
        ("NNNN 0 standard", "2 to 8 seats"),
        ("NNNN/NNNN 2 standard", "'turn'"),
        ("NNNN/NNNN x standard", "turn must be a seat"),
        ("NNNN/NNNN 0 chess", "unknown profile"),
        ("NNNN/NNNN 0 standard segment=3", "segment"),
        ("NNNN/NNNN 0 standard segment=x", "segment"),
        ("NNNN/NNNN 0 standard teams=pairs", "4, 6 or 8"),
        ("NNNN/NNNN 0 standard teams=trios", "teams"),
        ("NNNN/NNNN 0 standard colour=red", "unknown position text field"),
        ("NNNN/NNNN 0 standard segment=12 segment=12", "given twice"),
        ("NNNT0/NNNT0 0 standard", "two pawns on hole T0"),
        ("NNNN/NNNN\n0 standard", "one line"),
    ],
)
def test_text_form_refuses_with_one_line_naming_the_problem(text: str, needle: str) -> None:
    with pytest.raises(InvalidPositionError) as e:
        Position.from_text(text)
    assert needle in str(e.value) and "\n" not in str(e.value)


# -- apply / is_legal -------------------------------------------------------------------


def test_apply_gives_the_successor_of_every_legal_move_and_refuses_the_rest() -> None:
    checked = 0
    for pos in random_positions(60, 7):
        for card in RANKS:
            pairs = list(successors(pos, card))
            for move, after in pairs:
                assert apply(pos, card, move) == after
                assert apply(pos, card, str(move)) == after
                assert is_legal(pos, card, move)
                checked += 1
            legal = {m for m, _ in pairs}
            other = next((c for c in RANKS if c != card), card)
            for move, _ in successors(pos, other):
                if move.card == card or move in legal:
                    continue
                assert not is_legal(pos, card, move)
                with pytest.raises(IllegalMoveError):
                    apply(pos, card, move)
    assert checked > 500


def test_apply_names_what_is_wrong() -> None:
    pos = Position.from_text("NNST20/NNNT33/NT60H3H4/NNNN 0 standard")
    with pytest.raises(IllegalMoveError, match="written for a 6, not a 5"):
        apply(pos, "5", "6 0:T20-T26")
    with pytest.raises(IllegalMoveError, match="not legal here"):
        apply(pos, "5", "5 0:T20-T24")
    with pytest.raises(IllegalMoveError, match="not legal here"):
        apply(pos, "5", "5 1:T33-T38")  # not seat 1's turn
    with pytest.raises(InvalidMoveError):
        apply(pos, "5", "5 0:T20")
    assert not is_legal(pos, "5", "5 0:T20")
    assert apply(pos, "5", "5 0:T20-T25").to_text() == "NNST25/NNNT33/NT60H3H4/NNNN 1 standard"
