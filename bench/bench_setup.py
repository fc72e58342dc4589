"""Set-up figures (issue 26 part 1): how many instructions, and how much of a person's
time, it takes to set up a random mid-game position from the start position, with the
simulated person (sim/follower.py, the set-up front end of sim/led_person.py) doing
only what the lights and the instruction line say. Time is the person's simulated time
(their pace: reading an instruction 0.8-2 s, reaching 0.2-0.6 s, carrying 0.3-1.2 s),
not the machine's.

Run: .venv/bin/python bench/bench_setup.py [--n 200] [--seats 4] [--mistakes 0.05]
"""

from __future__ import annotations

import argparse
import random
import statistics

from keezbord.engine.position import Position
from keezbord.host.referee import board_of, colours, new_game
from keezbord.host.sim.follower import Mistakes
from keezbord.host.sim.setting_up import carry_out, mid_game, person_for


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--mistakes", type=float, default=0.0, help="rate of each mistake kind")
    a = ap.parse_args()
    m = a.mistakes
    mistakes = Mistakes(m, m, m, m)
    counts, times, pawns, failed = [], [], [], 0
    for i in range(a.n):
        target = mid_game(a.seats, i)
        start = Position.start(a.seats)
        board = board_of(start)
        state, _ = new_game(target, a.seats - 1, arrange=True)
        person = person_for(start, board, random.Random(i), mistakes=mistakes)
        run = carry_out(state, person, 0)
        truth = {h: s for h, s in person.board.items() if h[0] != "N"}
        if not run.done or truth != colours(target):
            failed += 1
            continue
        counts.append(run.instructions)
        times.append(run.t / 1000)
        pawns.append(len(colours(target)))
    print(f"{a.n} random mid-game positions ({a.seats} seats) from the start, mistakes {m}:")
    print(f"  failed: {failed}")
    print(f"  pawns off the nests in the target: median {statistics.median(pawns)}")
    print(
        f"  instructions: median {statistics.median(counts)}, "
        f"p90 {sorted(counts)[int(0.9 * len(counts))]}, max {max(counts)}"
    )
    print(
        f"  person's time: median {statistics.median(times):.1f} s, "
        f"p90 {sorted(times)[int(0.9 * len(times))]:.1f} s"
    )


if __name__ == "__main__":
    main()
