"""The rehearsal's board, run inside the machine as root (``python standin_board.py``):
the stand-in Pico on /dev/ttyACM0 (standin_pico.py) and a fake PN532 on the Pi 5's UART
(/dev/ttyAMA0, rfid_fakes.FakePN532 behind a pty made root:dialout 0660 as the kernel's
ttyAMA0 is). The rehearsal drives it through a unix socket in its run folder, one JSON
request a connection:

    {"op": "plug"} | {"op": "unplug"}                     the Pico's USB cable
    {"op": "switches", "changes": [[bit, closed], ...]}   pawns lifted and put down
    {"op": "card", "uid": "04...", "hold_ms": 400}        a card laid on the reader
    {"op": "deck", "uids": [...], "hold_ms": 250}         the deck, card after card, round
                                                          and round until
    {"op": "lift"}                                        the cards are taken off
    {"op": "status"}

The pawns on the board (``--closed``) and the Pico's flash (a folder) outlast a restart
of the machine, which ends this process with everything else in it.
"""

from __future__ import annotations

import argparse
import contextlib
import grp
import json
import os
import selectors
import socket
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from standin_pico import Pico

from keezbord.host.drivers.rfid_fakes import FakePN532


class Reader:
    def __init__(self, link: Path) -> None:
        self.fake = FakePN532()
        os.chown(self.fake.path, 0, grp.getgrnam("dialout").gr_gid)
        os.chmod(self.fake.path, 0o660)
        with contextlib.suppress(FileNotFoundError):
            link.unlink()
        link.symlink_to(self.fake.path)
        self.queue: list[tuple[str | None, float]] = []  # (uid, seconds) to come
        self.again: list[tuple[str | None, float]] = []  # a deck goes round until lifted
        self.until = 0.0

    def lay(self, uids: list[str], hold_s: float, gap_s: float, repeat: bool = False) -> None:
        cards: list[tuple[str | None, float]] = []
        for uid in uids:
            cards += [(uid, hold_s), (None, gap_s)]
        self.queue += cards
        self.again = cards if repeat else []

    def lift(self) -> None:
        self.queue, self.again, self.until = [], [], 0.0

    def tick(self) -> None:
        now = time.monotonic()
        if now < self.until:
            return
        if not self.queue and self.again:
            self.queue = list(self.again)
        if not self.queue:
            self.fake.uid = None
            return
        uid, hold = self.queue.pop(0)
        self.fake.uid = None if uid is None else bytes.fromhex(uid)
        self.until = now + hold


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", type=Path, required=True)
    ap.add_argument("--flash", type=Path, required=True)
    ap.add_argument("--firmware-src", type=Path, required=True)
    ap.add_argument("--micropython", required=True)
    ap.add_argument("--pico-link", type=Path, default=Path("/dev/ttyACM0"))
    ap.add_argument("--reader-link", type=Path, default=Path("/dev/ttyAMA0"))
    ap.add_argument("--closed", default="", help="switch bits closed (pawns on the board)")
    ap.add_argument("--plugged", action="store_true", help="the Pico is plugged in")
    args = ap.parse_args()
    args.flash.mkdir(parents=True, exist_ok=True)
    pico = Pico(args.flash, args.firmware_src, args.micropython, args.pico_link, args.run)
    pico.closed = {int(b) for b in args.closed.split(",") if b}
    reader = Reader(args.reader_link)
    if args.plugged:
        pico.plug()
    sock_path = args.run / "board.sock"
    sock_path.unlink(missing_ok=True)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(sock_path))
    server.listen(8)

    def handle(req: dict[str, Any]) -> dict[str, Any]:
        op = req.get("op")
        if op == "plug":
            pico.plug()
        elif op == "unplug":
            pico.unplug()
        elif op == "switches":
            pico.set_switches([(int(b), bool(c)) for b, c in req["changes"]])
        elif op == "card":
            reader.lay([req["uid"]], req.get("hold_ms", 400) / 1000, 0.05)
        elif op == "deck":
            reader.lay(list(req["uids"]), req.get("hold_ms", 250) / 1000, 0.1, repeat=True)
        elif op == "lift":
            reader.lift()
        elif op != "status":
            return {"error": f"unknown op {op!r}"}
        return {
            "pico": pico.status(),
            "reader": {"commands": len(reader.fake.commands), "queued": len(reader.queue)},
        }

    (args.run / "board.ready").write_text(str(os.getpid()))
    sel = selectors.DefaultSelector()
    while True:
        fds = pico.fds()
        for fd in fds:
            sel.register(fd, selectors.EVENT_READ)
        sel.register(server, selectors.EVENT_READ)
        events = sel.select(0.01)
        sel.close()
        sel = selectors.DefaultSelector()
        for key, _ in events:
            if key.fileobj is server:
                conn, _ = server.accept()
                with conn:
                    conn.settimeout(5)
                    line = conn.makefile("rb").readline()
                    try:
                        reply = handle(json.loads(line))
                    except (ValueError, KeyError, TypeError) as e:
                        reply = {"error": repr(e)}
                    conn.sendall(json.dumps(reply).encode() + b"\n")
            else:
                assert isinstance(key.fileobj, int)
                pico.ready(key.fileobj)
        pico.tick()
        reader.tick()


if __name__ == "__main__":
    raise SystemExit(main())
