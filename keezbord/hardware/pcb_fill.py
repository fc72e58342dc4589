"""Fill a board's zones with KiCad's own filler and save it (run by Debian's
/usr/bin/python3, whose pcbnew module comes with KiCad: ``python3 pcb_fill.py FILE``).
Only the standard library and pcbnew: it is not imported by keezbord."""

import sys

import pcbnew  # type: ignore[import-not-found]


def main(path: str) -> None:
    board = pcbnew.LoadBoard(path)
    filler = pcbnew.ZONE_FILLER(board)
    filler.Fill(board.Zones())
    board.Save(path)


if __name__ == "__main__":
    main(sys.argv[1])
