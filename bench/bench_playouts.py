"""Playouts a second of the search (engine/search.py), in CPU time, on fixed decisions,
with a fingerprint of its answers (issue 38: speed first). Run on demand:

    nice -n 10 .venv/bin/python bench/bench_playouts.py                 # figures
    nice -n 10 .venv/bin/python bench/bench_playouts.py --profile       # + cProfile
    nice -n 10 .venv/bin/python bench/bench_playouts.py --root /tmp/b80 # another tree

The decisions are those of seeded greedy games (host/search_budget.sample_decisions, 4
seats, three seeds), each searched with ``--playouts`` playouts and its own seeded rng.
CPU time (``time.process_time``), so a loaded machine slows it less than wall time
would (the caches are still shared). The fingerprint hashes every decision's ranking and
totals: two trees that print the same fingerprint searched alike, move for move.
``--root``: import ``keezbord`` from another tree (a checkout of an older commit) to
compare with it on the same decisions; ``--opts``: a variant of today's search
(bench/engine_variant.py's options, e.g. ``ahead3``), to see what it costs.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import pstats
import random
import sys
import time
from pathlib import Path
from typing import Any


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--playouts", type=int, default=200)
    ap.add_argument("--decisions", type=int, default=12, help="per seed (three seeds)")
    ap.add_argument("--repeat", type=int, default=3, help="timed passes (the best is kept)")
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--root", help="import keezbord from this tree")
    ap.add_argument("--profile", action="store_true", help="print the top of a cProfile")
    ap.add_argument("--opts", default="", help="a variant (bench/engine_variant.py: ahead3+...)")
    args = ap.parse_args()
    if args.root:
        sys.path.insert(0, str(Path(args.root).resolve()))
    else:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import keezbord
    from keezbord.engine.search import Known, analyse
    from keezbord.host.search_budget import sample_decisions

    kw: dict[str, Any] = {}
    if args.opts:
        from engine_variant import parse_opts

        kw = parse_opts(args.opts)[0]
    decisions = []
    for seed in (7, 11, 23):
        decisions += sample_decisions(args.seats, "standard", seed, args.decisions)

    def once() -> tuple[int, str]:
        h = hashlib.sha256()
        done = 0
        for i, (board, seat, hand) in enumerate(decisions):
            a = analyse(
                board, seat, hand, Known(), playouts=args.playouts, rng=random.Random(i), **kw
            )
            done += a.playouts
            for c in a.ranked:
                h.update(f"{c.card}{c.move}{c.playouts}{c.total:.9f};".encode())
        return done, h.hexdigest()[:16]

    best = float("inf")
    done, digest = 0, ""
    for _ in range(args.repeat):
        t0 = time.process_time()
        done, digest = once()
        best = min(best, time.process_time() - t0)
    print(
        f"keezbord from {Path(keezbord.__file__).parent.parent}: {len(decisions)} decisions, "
        f"{done} playouts in {best:.2f} s CPU (best of {args.repeat}): "
        f"{done / best:,.0f} playouts/s; fingerprint {digest}"
    )
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        once()
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(18)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
