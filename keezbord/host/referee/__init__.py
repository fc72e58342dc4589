"""The referee: hole, card and discard events in; moves, flags and LED frames out.

``new_game`` builds the first state, ``step`` feeds one event (pure: same state and event,
same result). See docs/referee.md for how a move is recognised.
"""

from .state import Config, Decision, Effect, Leds, MoveRecord, RefereeState
from .step import deadline, new_game, step

__all__ = ["Config", "Decision", "Effect", "Leds", "MoveRecord", "RefereeState", "deadline",
           "new_game", "step"]
