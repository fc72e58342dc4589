"""The search bot, its hints and the coach on hand-built positions where a Keezen player
knows the right advice (issue 15). Seeded: the same seed and budget give the same answer."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter

import pytest

from keezbord.engine.advice import advise, coach
from keezbord.engine.board import Board, from_move
from keezbord.engine.bot_kinds import make_bot
from keezbord.engine.bots import GreedyBot
from keezbord.engine.cards import deck
from keezbord.engine.game import play_game
from keezbord.engine.notation import parse_move
from keezbord.engine.position import Position
from keezbord.engine.search import Known, SearchBot, sample_hands

N4 = ["N", "N", "N", "N"]
H4 = ["H1", "H2", "H3", "H4"]
PLAYOUTS = 120


def P(pawns: list[list[str]], turn: int = 0, **kw: object) -> Position:
    return Position.from_dict({"seats": 4, "turn": turn, "pawns": pawns, **kw})


# name: (position, hand, the move a Keezen player would play, words the reason must hold)
CASES: dict[str, tuple[Position, list[str], str, str]] = {
    "the move that wins the game": (
        P([["T62", "H2", "H3", "H4"], ["T10", "N", "N", "N"], H4, ["T40", "N", "N", "N"]]),
        ["3", "8"],
        "3 0:T62-H1",
        "wins the game",
    ),
    "the last pawn home wins, rather than a capture": (
        P([["T63", "H2", "H3", "H4"], ["T4", "N", "N", "N"], H4, ["T40", "N", "N", "N"]]),
        ["2", "5"],
        "2 0:T63-H1",
        "wins the game",
    ),
    "capture a pawn two holes from its home": (
        P([["T9", "T40", "N", "N"], ["T14", "N", "N", "N"], N4, N4]),
        ["5"],
        "5 0:T9-T14",
        "2 holes from its home",
    ),
    "capture green close to home rather than walk": (
        P([["T41", "T20", "N", "N"], N4, N4, ["T46", "N", "N", "N"]]),
        ["5"],
        "5 0:T41-T46",
        "captures green's pawn",
    ),
    "never capture the partner": (
        P([["T9", "T40", "N", "N"], N4, ["T14", "N", "N", "N"], N4]),
        ["5"],
        "5 0:T40-T45",
        "",
    ),
    "bring a pawn home": (
        P([["T61", "T20", "N", "N"], N4, N4, N4]),
        ["5"],
        "5 0:T61-H2",
        "brings a pawn home",
    ),
    "a 7 brings a pawn home": (
        P([["T61", "T20", "N", "N"], N4, N4, N4]),
        ["7"],
        "",
        "brings a pawn home",
    ),
    "bring a pawn out with the ace": (
        P([["T20", "N", "N", "N"], N4, N4, N4]),
        ["A", "2"],
        "A 0:N-S",
        "brings a pawn out",
    ),
    "the jack swaps a threatened pawn away": (
        P([["T30", "N", "N", "N"], ["T40", "N", "N", "N"], N4, ["T27", "N", "N", "N"]]),
        ["J", "2"],
        "",
        "in reach of green's 3",
    ),
    "move off the own start, freeing it": (
        P([["S", "N", "N", "N"], ["T30", "N", "N", "N"], N4, N4]),
        ["5"],
        "5 0:S-T5",
        "leaves your start free",
    ),
    # A fresh pawn on the start: the 3 moves it on and keeps the 4 (4 back from T3 lands
    # at T63, one hole from home). The 4 at once (to T60) was this case's answer until
    # play to the end said otherwise: the 3 wins more by 0.029 +- 0.014 over 1,500 deals
    # (bench/results/truth-advice.jsonl; docs/analysis.md "The judge's leaf"). The judge
    # sees less of it (0.006 at 400 playouts a candidate): at this budget and seed the 3.
    "from the start the 3 first, keeping the 4": (
        P([["S", "T20", "N", "N"], N4, N4, N4]),
        ["4", "3"],
        "3 0:S-T3",
        "keeps your 4",
    ),
    "the 4 takes the pawn just past the start almost home": (
        P([["T1", "T30", "N", "N"], ["T12", "N", "N", "N"], N4, N4]),
        ["4", "2", "9"],
        "4 0:T1-T61",
        "",
    ),
    "the only move still gets its chance": (
        P([["T20", "N", "N", "N"], N4, N4, N4]),
        ["6"],
        "6 0:T20-T26",
        "only choice",
    ),
    "capture the pawn that threatens": (
        P([["T20", "T33", "N", "N"], ["T28", "N", "N", "N"], N4, N4]),
        ["8", "2"],
        "8 0:T20-T28",
        "captures blue's pawn",
    ),
    "blue's turn: capture red": (
        P([["T22", "N", "N", "N"], ["T17", "N", "N", "N"], N4, N4], turn=1),
        ["5"],
        "5 1:T17-T22",
        "captures red's pawn",
    ),
    "yellow comes home": (
        P([N4, N4, ["T29", "T5", "N", "N"], N4], turn=2),
        ["5", "3"],
        "5 2:T29-H2",
        "brings a pawn home",
    ),
    "a king brings a pawn out": (
        P([["T40", "N", "N", "N"], N4, N4, N4]),
        ["K"],
        "K 0:N-S",
        "brings a pawn out",
    ),
    "home with the partner's pawns once all own are home": (
        P([H4, N4, ["T30", "N", "N", "N"], N4]),
        ["3"],
        "3 2:T30-H1",
        "brings a pawn home",
    ),
    "six seats: capture near home": (
        Position.from_dict(
            {
                "seats": 6,
                "turn": 0,
                "pawns": [["T9", "T60", "N", "N"], ["T14", "N", "N", "N"], N4, N4, N4, N4],
            }
        ),
        ["5"],
        "5 0:T9-T14",
        "2 holes from its home",
    ),
    "two seats: bring the last pawn home and win": (
        Position.from_dict(
            {"seats": 2, "turn": 0, "pawns": [["T30", "H2", "H3", "H4"], ["T5", "N", "N", "N"]]}
        ),
        ["3", "2"],
        "3 0:T30-H1",
        "wins the game",
    ),
    # The three the issue names (issue 15, "Done when"):
    "a capture that wins the game: blue's last pawn two holes from home": (
        # Blue has three pawns home and its partner (green) all home: left alone, blue's
        # 2 wins the game; red's 5 sends that pawn back to the nest.
        P([["T9", "T40", "N", "N"], ["T14", "H2", "H3", "H4"], N4, H4]),
        ["5"],
        "5 0:T9-T14",
        "2 holes from its home",
    ),
    "a pawn that must flee: three holes in front of blue": (
        # Red on T30 is in reach of blue's 3 and 7 (blue on T27); the 10 takes it 13
        # holes ahead, out of reach of every card, rather than moving the pawn on T5.
        P([["T30", "T5", "N", "N"], ["T27", "N", "N", "N"], N4, N4]),
        ["10"],
        "10 0:T30-T40",
        "was in reach of blue's 3",
    ),
    "keeping the 4: the ace brings a pawn out and the 4 waits": (
        # The 4 now only walks T30 back to T26; the ace brings a pawn onto the start,
        # from where the kept 4 goes backwards almost home.
        P([["T30", "N", "N", "N"], N4, N4, N4]),
        ["4", "A"],
        "A 0:N-S",
        "keeps your 4",
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_advice_on_hand_built_positions(name: str) -> None:
    pos, hand, want, words = CASES[name]
    adv = advise(pos, hand, playouts=PLAYOUTS, seed=1)
    assert adv is not None
    if want:
        assert adv.text == want, adv.sentence("en")
    if words:
        assert words.lower() in adv.sentence("en").lower(), adv.sentence("en")
    nl = adv.sentence("nl")
    assert nl and nl != adv.sentence("en")
    assert adv.holes and all(h in pos.topology.hole_names for h in adv.holes)
    assert 0.0 <= adv.win <= 1.0


def test_at_least_twenty_positions() -> None:
    assert len(CASES) >= 23


def test_hint_names_threats_by_colour_and_card() -> None:
    pos, hand, _, _ = CASES["the jack swaps a threatened pawn away"]
    adv = advise(pos, hand, playouts=PLAYOUTS, seed=1)
    assert adv is not None and adv.card == "J"
    assert "groen" in adv.sentence("nl")


def test_win_rates_compare_with_the_next_choice() -> None:
    pos, hand, _, _ = CASES["capture a pawn two holes from its home"]
    adv = advise(pos, hand, playouts=PLAYOUTS, seed=1)
    assert adv is not None and adv.next_win is not None and adv.next_text == "5 0:T40-T45"
    assert adv.win > adv.next_win
    assert f"{round(100 * adv.win)}%" in adv.sentence("en")


def test_same_seed_and_budget_same_analysis() -> None:
    pos, hand, _, _ = CASES["capture green close to home rather than walk"]
    a = advise(pos, hand, playouts=80, seed=7)
    b = advise(pos, hand, playouts=80, seed=7)
    assert a == b


def test_coach_speaks_after_a_clearly_worse_move_only() -> None:
    pos, hand, _, _ = CASES["capture a pawn two holes from its home"]
    worse = parse_move("5 0:T40-T45", pos.topology)
    best = parse_move("5 0:T9-T14", pos.topology)
    remark = coach(pos, hand, "5", worse, playouts=PLAYOUTS, seed=1, threshold=0.03)
    assert remark is not None and remark.better.text == "5 0:T9-T14"
    assert "T14" in remark.text.en and "beter" in remark.text.nl
    assert remark.played_win < remark.better.win
    assert coach(pos, hand, "5", best, playouts=PLAYOUTS, seed=1, threshold=0.03) is None
    # A high threshold keeps it quiet (it must not nag).
    assert coach(pos, hand, "5", worse, playouts=PLAYOUTS, seed=1, threshold=0.5) is None


def test_coach_after_throwing_away_the_win() -> None:
    pos, _, _, _ = CASES["the move that wins the game"]
    # The 2 stops red's last pawn on its own start: only the 3 wins.
    played = parse_move("2 0:T62-T0", pos.topology)
    # The team is far ahead either way (the 2 is still shown to win about 99%: the
    # judge's leaf sees the lead), so the gap is small: a threshold well below the
    # default's makes the coach speak.
    remark = coach(pos, ["3", "2"], "2", played, playouts=PLAYOUTS, seed=1, threshold=0.005)
    assert remark is not None and remark.better.text == "3 0:T62-H1"


def test_sampled_hands_are_consistent_with_what_is_known() -> None:
    rng = random.Random(3)
    hand = ["A", "5", "7", "J"]
    known = Known(seen=("K", "K", "5", "2"), hand_sizes=(4, 4, 3, 4), partner_has=("Q",))
    for _ in range(200):
        hands = sample_hands(4, 0, hand, known, 2, rng)
        assert hands[0] == hand
        assert [len(h) for h in hands] == [4, 4, 3, 4]
        assert "Q" in hands[2]
        used = Counter(c for h in hands for c in h) + Counter(known.seen)
        assert not used - Counter(deck(4))  # never more of a rank than the deck holds


def test_search_bot_games_are_deterministic() -> None:
    def game() -> tuple[object, int]:
        bots = [
            SearchBot(random.Random(s), 10) if s % 2 == 0 else GreedyBot(random.Random(s))
            for s in range(4)
        ]
        r = play_game(4, "standard", 5, bots, max_turns=120)
        return r.final.pawns, r.turns

    assert game() == game()


def test_make_bot_search_and_partner_exchange_profile() -> None:
    bot = make_bot("search", random.Random(1), playouts=5)
    assert bot.name == "search"
    bots = [
        make_bot("search" if s % 2 else "greedy", random.Random(s), playouts=5) for s in range(4)
    ]
    r = play_game(4, "reiseditie", 2, bots, max_turns=150)
    assert r.turns > 0


def test_search_bot_move_is_legal_and_board_restored() -> None:
    pos, hand, _, _ = CASES["capture green close to home rather than walk"]
    board = Board(pos)
    key = board.key()
    choice = SearchBot(random.Random(2), 40).pick(board, 0, hand)
    assert choice is not None and board.key() == key
    assert choice[1] in board.moves(choice[0], 0)
    assert from_move(parse_move("5 0:T41-T46", pos.topology)) == choice[1]


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "keezbord", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cli_hint_json() -> None:
    pos, _, _, _ = CASES["capture a pawn two holes from its home"]
    text = json.dumps(pos.to_dict())
    r = run_cli("hint", "--card", "5", "-", "--playouts", "60", stdin=text)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["move"] == "5 0:T9-T14" and out["holes"] == ["T9", "T14"]
    assert any("2 holes from its home" in x for x in out["reasons"])
    r = run_cli("hint", "--hand", "5,2", "-", "--playouts", "60", "--lang", "nl", stdin=text)
    assert r.returncode == 0 and "slaat" in json.loads(r.stdout)["text"]
    r = run_cli("hint", "--card", "5", "-", "--playouts", "0", stdin=text)
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    r = run_cli("hint", "--card", "X", "-", stdin=text)
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_cli_selfplay_with_search_per_seat() -> None:
    r = run_cli(
        "selfplay",
        "--bot",
        "search,greedy,search,greedy",
        "--playouts",
        "5",
        "--games",
        "1",
        "--json",
        "--seed",
        "3",
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["bots"] == ["search", "greedy", "search", "greedy"] and out["playouts"] == 5
    r2 = run_cli(
        "selfplay",
        "--bot",
        "search,greedy,search,greedy",
        "--playouts",
        "5",
        "--games",
        "1",
        "--json",
        "--seed",
        "3",
    )
    same = json.loads(r2.stdout)
    assert (same["wins"], same["turns_per_game"]) == (out["wins"], out["turns_per_game"])
    assert run_cli("selfplay", "--bot", "search", "--playouts", "0").returncode == 2


def test_cli_hint_without_a_legal_move() -> None:
    start = json.dumps(Position.start(4).to_dict())
    r = run_cli("hint", "--hand", "5,9", "-", "--lang", "en", stdin=start)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["move"] is None and out["hand"] == ["5", "9"] and "; " in out["reason"]


def test_known_of_game_counts_the_cards_since_the_shuffle() -> None:
    from keezbord.engine.game import Game
    from keezbord.engine.search import known_of_game

    game = Game(4, "reiseditie", 3)
    bots = [GreedyBot(random.Random(s)) for s in range(4)]
    checked = 0
    while not game.over and len(game.history) < 160:
        game.exchange(bots)
        seat = game.table.turn
        assert seat is not None
        known = known_of_game(game, seat)
        assert known.hand_sizes == tuple(len(h) for h in game.hands)
        # Every card is in a hand, seen since the shuffle, or still in the stock.
        held = Counter(c for h in game.hands for c in h)
        assert held + Counter(known.seen) + Counter(game.stock) == Counter(deck(4))
        checked += 1
        game.play_turn(bots[seat])
    assert checked > 100
    partner = game.position.partner(0)
    assert partner is not None
    # A card passed to the partner is known to be there until the partner plays it.
    assert known_of_game(game, 0, "Q").partner_has in ((), ("Q",))


def test_a_move_into_reach_is_said_after_what_it_gains() -> None:
    # Red's only 5 lands one hole in front of blue: the hint warns of blue's ace and 7.
    pos = P([["T10", "N", "N", "N"], ["T14", "N", "N", "N"], N4, N4])
    adv = advise(pos, ["5"], playouts=40, seed=1)
    assert adv is not None and adv.text == "5 0:T10-T15"
    assert "in reach of blue's ace and 7" in adv.sentence("en")
    assert "de aas en de 7 van blauw" in adv.sentence("nl")


def test_a_hint_says_a_pawn_comes_out_once() -> None:
    # Issue 40, item 19: "Red brings a pawn out. Brings a new pawn out."
    pos, hand, _, _ = CASES["bring a pawn out with the ace"]
    adv = advise(pos, hand, playouts=PLAYOUTS, seed=1)
    assert adv is not None and adv.text == "A 0:N-S"
    en, nl = adv.sentence("en").lower(), adv.sentence("nl").lower()
    assert en.count("pawn out") == 1, en
    assert nl.count("pion op") == 1, nl
