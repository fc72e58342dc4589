"""A damaged journal record never throws a game away in silence (journal_damage.py): the
game resumes after its last good input and says what it set aside (kept in the table
``set_aside``), or, for a setup row that does not read, refuses until the referee sets
the game aside. Each damage is made on a real bot game's journal, as a disk would: a
byte lost, garbage over a record, a record edited to another valid value."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from keezbord.host.cli import main
from keezbord.host.events import Tick
from keezbord.host.journal import Journal
from keezbord.host.journal_damage import DamagedGame, reports
from keezbord.host.session import GameSession
from keezbord.host.sim.games import simulate


def _journal(tmp_path: Path, events: int = 80) -> tuple[Path, int, GameSession]:
    """A run game of ``events`` journalled inputs, still open."""
    game = simulate(4, "standard", 11)
    db = tmp_path / "j.sqlite"
    s = GameSession.start(db, {**game.setup, "mode": "run"})
    for ev in game.events[:events]:
        s.feed(ev)
    return db, s.game, s


def _rows(db: Path, game: int) -> list[tuple[int, str]]:
    with sqlite3.connect(db) as c:
        return c.execute(
            "SELECT seq, data FROM inputs WHERE game = ? ORDER BY seq", (game,)
        ).fetchall()


def _write(db: Path, game: int, seq: int, data: str) -> None:
    with sqlite3.connect(db) as c:
        c.execute("UPDATE inputs SET data = ? WHERE game = ? AND seq = ?", (data, game, seq))


def _moves(s: GameSession) -> list[str]:
    return [m.text for m in s.state.history]


def test_the_first_byte_of_the_last_input_lost_resumes_before_it_and_says_so(
    tmp_path: Path,
) -> None:
    db, gid, s = _journal(tmp_path)
    last, text = _rows(db, gid)[-1]
    s.close()
    _write(db, gid, last, text[1:])
    r = GameSession.resume(db)
    assert r.game == gid  # the same game, not a new one
    d = r.damage
    assert d is not None and (d.kept, d.dropped, d.kind) == (last, 1, "unreadable")
    assert f"input {last + 1}" in d.text().en and f"invoer {last + 1}" in d.text().nl
    assert "set aside" in d.line() and "does not read" in d.line()
    # Kept in the journal as it was, out of the game's own inputs.
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT seq, data FROM set_aside").fetchall() == [(last, text[1:])]
    # The game goes on from there: new inputs take the freed numbers; a resume is clean.
    r.feed(Tick(r.state.now + 10))
    moves = _moves(r)
    r.close()
    again = GameSession.resume(db)
    assert again.damage is None and _moves(again) == moves and again.seq == last + 1
    again.close()


def test_a_damaged_middle_input_resumes_after_the_last_good_one(tmp_path: Path) -> None:
    db, gid, s = _journal(tmp_path)
    rows = _rows(db, gid)
    whole = _moves(s)
    s.close()
    mid = len(rows) // 2
    _write(db, gid, mid, '{"t": 12\x00\x00garbage')
    r = GameSession.resume(db)
    d = r.damage
    assert d is not None and (d.kept, d.dropped) == (mid, len(rows) - mid)
    assert r.seq == mid and len(_moves(r)) < len(whole)
    assert _moves(r) == whole[: len(_moves(r))]  # the game as it was at that input
    r.close()
    with Journal(db, readonly=True) as j:
        assert [x.kept for x in reports(j.db, gid)] == [mid]  # what doctor reads


def test_a_damaged_setup_row_refuses_and_never_falls_back_to_an_older_game(
    tmp_path: Path,
) -> None:
    db, first, s = _journal(tmp_path, 10)
    s.close()
    s = GameSession.start(db, {**simulate(4, "standard", 12).setup, "mode": "run"})
    second = s.game
    s.close()
    with sqlite3.connect(db) as c:
        (setup,) = c.execute("SELECT setup FROM games WHERE id = ?", (second,)).fetchone()
        c.execute("UPDATE games SET setup = ? WHERE id = ?", (setup[1:], second))
    with Journal(db, readonly=True) as j:
        assert j.latest_game("run") == second  # not game 1, resumed over it in silence
    with pytest.raises(DamagedGame, match=f"game {second} cannot be resumed"):
        GameSession.resume(db, second)
    # The referee's word sets it aside (kept); the next start goes on without it.
    assert main(["journal", "set-aside", "--db", str(db), "--game", str(second)]) == 0
    with Journal(db, readonly=True) as j:
        assert j.latest_game("run") == first and second in j.game_ids()


def test_a_place_edited_to_another_hole_is_found_where_the_decisions_differ(
    tmp_path: Path,
) -> None:
    db, gid, s = _journal(tmp_path)
    s.close()
    rows = _rows(db, gid)
    with sqlite3.connect(db) as c:
        moved = [
            seq
            for (seq,) in c.execute(
                'SELECT seq FROM decisions WHERE game = ? AND data LIKE \'%"type": "move"%\'',
                (gid,),
            )
        ]
    # The last place before the second move: a valid record, the hole another one.
    seq, text = next(
        (q, t) for q, t in reversed(rows) if q < moved[1] and json.loads(t)["type"] == "place"
    )
    edited = {**json.loads(text), "hole": "T40"}
    _write(db, gid, seq, json.dumps(edited))
    r = GameSession.resume(db)
    d = r.damage
    assert d is not None and d.kind == "differs" and seq <= d.kept <= moved[1]
    assert "the journal has move" in d.why and "the replay gives" in d.why
    assert "differ" in d.text().en and "wijken" in d.text().nl
    assert len(r.state.history) == 1  # only the first move, which replays as journalled
    r.close()
