"""``keezbord board pcb``: a piece's KiCad project (schematic, routed board) and its
fabrication outputs, generated from the geometry, the wiring and the parts."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from keezbord.host.errors import UsageError


def add_pcb_arguments(sub: Any) -> None:
    p = sub.add_parser(
        "pcb",
        help="a piece's PCB as a KiCad 9 project with Gerbers, drill, position file and BOM",
    )
    p.add_argument(
        "--shape",
        choices=("piece", "arm", "terminator"),
        default="piece",
        help="piece: one design for the 5- to 8-seat boards' pieces; arm: the 4-seat cross's "
        "arm; terminator: the plug with the signature chip on the last piece's OUT",
    )
    p.add_argument("--out", required=True, metavar="DIR", help="folder for the project")
    p.add_argument(
        "--no-fab", action="store_true", help="only the KiCad project, no fabrication outputs"
    )


def run_pcb(args: argparse.Namespace) -> int:
    from keezbord.hardware.pcb_make import KicadMissing, make
    from keezbord.hardware.pcb_route import RouteError

    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out} is a file, not a folder")
    try:
        files = make(args.shape, out, fab=not args.no_fab)
    except KicadMissing as e:
        raise UsageError(str(e)) from None
    except RouteError as e:
        raise UsageError(f"the {args.shape} cannot be routed: {e}") from None
    except OSError as e:
        raise UsageError(f"cannot write {out}: {e.strerror}") from None
    for f in files:
        print(f"wrote {f}")
    return 0
