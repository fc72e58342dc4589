"""Today's search with options, through the engine protocol, for the ladder's variant
rungs (bench/bench_ladder.py, ``search+OPT+OPT``): ``python bench/engine_variant.py
--opts ahead3+h16``. Each option changes one thing of ``engine.search.analyse``:

- ``explore0.1``: a playout turn plays a random move with that chance (epsilon-greedy);
- ``ahead3``: the seat's own later turns in a playout searched one reply deep over the
  greedy bot's 3 best moves (rollout.Greedy.pick_ahead);
- ``h16``: playouts of 16 turns (default here: twice the seats, the length the variants
  were measured with; today's bot plays ``search.play_horizon``, one turn a seat);
  ``limit6``: 6 root candidates (default 12);
- ``leaf``: unfinished playouts judged by the fitted leaf (leaf.fitted_chances, its
  weights per number of seats fitted by bench/fit_leaf.py);
- ``infer``: the deals sampled weighed by the others' choices (engine/inference.py).

The options are the analysis's keyword arguments, bound here (the protocol module asks
``keezbord.engine.search.analyse`` and ``play_horizon`` at every ``go``), so nothing of
the package changes for other engines.
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import keezbord.engine.search as search
from keezbord.engine.rollout import HAND_LEAF, Policy
from keezbord.host.commands.engine_protocol import Engine, serve


def parse_opts(text: str) -> tuple[dict[str, Any], bool]:
    """The analyse keyword arguments of ``ahead3+h16...`` and whether to infer."""
    kw: dict[str, Any] = {}
    explore, ahead, infer = 0.0, 0, False
    leaf = False
    for opt in filter(None, text.split("+")):
        if opt == "infer":
            infer = True
        elif opt == "leaf":
            leaf = True
        elif opt.startswith("explore"):
            explore = float(opt.removeprefix("explore"))
        elif opt.startswith("ahead"):
            ahead = int(opt.removeprefix("ahead"))
        elif opt.startswith("h"):
            kw["horizon"] = int(opt.removeprefix("h"))  # turns (else 2 x seats, below)
        elif opt.startswith("limit"):
            kw["limit"] = int(opt.removeprefix("limit"))
        else:
            raise SystemExit(f"engine_variant: unknown option {opt!r}")
    if explore or ahead or leaf:
        kw["how"] = Policy(explore, ahead, leaf="fitted" if leaf else "hand")
    return kw, infer


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opts", default="", help="options joined by + (see the module doc)")
    args = ap.parse_args()
    kw, infer = parse_opts(args.opts)
    turns = kw.pop("horizon", None)
    # A variant plays with 2 x seats turns unless it names its own (hN): the length every
    # variant was measured with before the bot's default became one turn a seat.

    def horizon(seats: int) -> int:
        return 2 * seats if turns is None else int(turns)

    search.play_horizon = horizon
    # The variant's policy is the one the engine plays with (without ``leaf``: the
    # hand-made leaf every variant was measured with before the fitted one).
    search.PLAY_POLICY = kw.pop("how", HAND_LEAF)
    search.analyse = functools.partial(search.analyse, **kw)
    engine = Engine("search", infer=infer)
    engine.commands["keezbord"] = lambda _a: [
        f"id name keezbord search+{args.opts}",
        "id author the keezbord project",
        "keezbordok",
    ]
    code: int = serve(engine)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
