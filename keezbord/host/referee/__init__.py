"""The referee: hole, card and discard events in; moves, flags and LED frames out.

``new_game`` builds the first state, ``step`` feeds one event (pure: same state and event,
same result). See docs/referee.md for how a move is recognised.

What the rest of the host uses is exported here (``__all__``): the state machine, its
values, trace reading and writing, and the board-signature helpers the simulator and the
page need (what a position looks like to the switches). The modules inside are the
referee's own; only its tests reach into them.
"""

from .arrange import Arranging, setup_view
from .arrange_plan import HAND, OFF, UNKNOWN, is_nest, landing, plan, task_text
from .cards import cards_seen, known_cards
from .colour_fix import board_fix
from .hands import certain, knocked_off, shows
from .heap import freeze_heap
from .leds import frame
from .lit import expected
from .recognize import (
    board_of,
    board_sig,
    clear_caches,
    colours,
    guess_after,
    nest_seat,
    path_holes,
    pos_sig,
    victim_of,
)
from .replay import replay, run
from .state import (
    BOUNCE_MS,
    HINT_LEVELS,
    Advice,
    AdviceWanted,
    Config,
    Decision,
    Effect,
    Hold,
    Input,
    Leds,
    Lit,
    MoveRecord,
    Overrule,
    RefereeState,
    Sig,
    Undo,
    World,
)
from .step import begin, deadline, new_game, step
from .trace import (
    Setup,
    TraceError,
    arranged_setup,
    input_from_dict,
    input_to_dict,
    parse_trace,
    setup_from_dict,
    trace_lines,
)

__all__ = [
    "BOUNCE_MS",
    "HAND",
    "HINT_LEVELS",
    "OFF",
    "UNKNOWN",
    "Advice",
    "AdviceWanted",
    "Arranging",
    "Config",
    "Decision",
    "Effect",
    "Hold",
    "Input",
    "Leds",
    "Lit",
    "MoveRecord",
    "Overrule",
    "RefereeState",
    "Setup",
    "Sig",
    "TraceError",
    "Undo",
    "World",
    "arranged_setup",
    "begin",
    "board_fix",
    "board_of",
    "board_sig",
    "cards_seen",
    "certain",
    "clear_caches",
    "colours",
    "deadline",
    "expected",
    "frame",
    "freeze_heap",
    "guess_after",
    "input_from_dict",
    "input_to_dict",
    "is_nest",
    "knocked_off",
    "known_cards",
    "landing",
    "nest_seat",
    "new_game",
    "parse_trace",
    "path_holes",
    "plan",
    "pos_sig",
    "replay",
    "run",
    "setup_from_dict",
    "setup_view",
    "shows",
    "step",
    "task_text",
    "trace_lines",
    "victim_of",
]
