"""An older keezbord's search through the engine protocol, for the ladder
(bench/bench_ladder.py): ``python bench/engine_pinned.py --root WORKTREE``.

The worktree is a git worktree of a pinned commit (the ladder makes it: b80f2dd, before
``keezbord engine`` existed). Its ``keezbord`` package is put first on the import path,
and this tree's protocol module (keezbord/host/commands/engine_protocol.py, which uses
only engine names that commit has) is loaded from its file: the protocol is today's, every
move is the pinned commit's search. It refuses to start when the import does not come from
the worktree (so the pinned rung can never drift to today's code).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

PROTOCOL = Path(__file__).resolve().parent.parent / "keezbord/host/commands/engine_protocol.py"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", required=True, help="the pinned commit's worktree")
    ap.add_argument("--playouts", type=int, default=300)
    args = ap.parse_args()
    root = Path(args.root).resolve()
    if not (root / "keezbord" / "engine" / "search.py").is_file():
        print(f"engine_pinned: {root} holds no keezbord engine", file=sys.stderr)
        return 2
    sys.path.insert(0, str(root))
    import keezbord.engine.search as pinned

    if not Path(pinned.__file__ or "").resolve().is_relative_to(root):
        print(f"engine_pinned: keezbord came from {pinned.__file__}, not {root}", file=sys.stderr)
        return 2
    spec = importlib.util.spec_from_file_location("engine_protocol_pinned", PROTOCOL)
    assert spec is not None and spec.loader is not None
    proto = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = proto  # dataclasses look their module up
    spec.loader.exec_module(proto)
    engine = proto.Engine("search", args.playouts)
    engine.commands["keezbord"] = lambda _a: [
        f"id name keezbord search pinned {root.name}",
        "id author the keezbord project",
        "keezbordok",
    ]
    code: int = proto.serve(engine)
    return code


if __name__ == "__main__":
    sys.exit(main())
